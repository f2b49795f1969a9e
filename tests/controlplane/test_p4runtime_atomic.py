"""DATAPLANE_ATOMIC under traffic: a P4Runtime batch that moves 1,000 routes from port 1 to port 2
while the switch forwards 1,000 flows (one a route) never lets a packet see a mix of the routes
before and after it.  The program tells: once a packet has gone to port 2 (a moved route), a
packet going to port 1 (a route not yet moved) counts in `late`.  The same routes moved in two
batches, with traffic between them, show the mix: the count sees one."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.rpc import code_pb2
from one_header_switch import build_switch, eventually, one_header_program
from p4runtime_client import Controller, entry, p4runtime_switch

from p4odp.controlplane.protos import p4runtime_pb2 as p4r

FLOWS = 1000
PROGRAM = one_header_program(
    "bit<32> addr;",
    ingress="""\
        routes.apply();
        bit<1> moved;
        moved_yet.read(moved, 0);
        if (sm.egress_spec == 2) {
            moved_yet.write(0, 1);
            ports.count(2);
        } else if (sm.egress_spec == 1) {
            ports.count(1);
            if (moved == 1) { late.count(0); }
        }
        mark_to_drop(sm);""",
    ingress_locals="""\
    register<bit<1>>(1) moved_yet;
    counter(3, CounterType.packets) ports;
    counter(1, CounterType.packets) late;
    action to(bit<9> port) { sm.egress_spec = port; }
    table routes {
        key = { hdr.h.addr: lpm; } actions = { to; NoAction; } default_action = NoAction(); size = 2048;
    }""")


def address(flow: int) -> bytes:
    return bytes([10, 0, flow >> 8, flow & 0xFF])


@pytest.fixture(scope="module")
def atomic_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("atomic"), PROGRAM, "atomic.p4")


def routes(controller: Controller, kind: int, port: int) -> list[p4r.Update]:
    return [p4r.Update(type=kind, entity=entry(controller, "routes", ("hdr.h.addr", "lpm", address(flow), 32),
                                               action="to", params=(bytes([0, port]),)))
            for flow in range(FLOWS)]


def cell(controller: Controller, counter: str, index: int) -> int:
    found = controller.read(p4r.Entity(counter_entry=p4r.CounterEntry(counter_id=controller.id_of("counters", counter),
                                                                      index=p4r.Index(index=index))))
    return found[0].counter_entry.data.packet_count


@pytest.mark.parametrize("batches", [1, 2])
def test_a_batch_moving_routes_is_seen_whole_or_not_at_all(atomic_binary: Path, tmp_path: Path, batches: int):
    frames = tuple(address(flow) + bytes(56) for flow in range(FLOWS))
    with p4runtime_switch(atomic_binary, tmp_path, frames) as target:
        controller = Controller(target)
        try:
            assert controller.arbitrate(election_id=1).arbitration.status.code == code_pb2.OK
            controller.write(*routes(controller, p4r.Update.INSERT, 1))
            assert eventually(lambda: cell(controller, "ports", 1) > 10 * FLOWS)
            moves = routes(controller, p4r.Update.MODIFY, 2)
            for half in range(batches):
                request = p4r.WriteRequest(device_id=0, election_id=p4r.Uint128(low=1),
                                           atomicity=p4r.WriteRequest.DATAPLANE_ATOMIC)
                request.updates.extend(moves[half * FLOWS // batches:(half + 1) * FLOWS // batches])
                controller.stub.Write(request)
                before = cell(controller, "ports", 2)
                assert eventually(lambda: cell(controller, "ports", 2) > before + 10 * FLOWS)
            assert {e.table_entry.action.action.params[0].value for e in
                    controller.read(p4r.Entity(table_entry=p4r.TableEntry(
                        table_id=controller.id_of("tables", "routes"))))} == {b"\x02"}
            assert (cell(controller, "late", 0) > 0) == (batches > 1)
        finally:
            controller.close()
