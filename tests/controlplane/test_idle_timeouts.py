"""Idle timeouts: a table with support_timeout times the hits of its entries; an entry with a TTL
that no packet hits is reported idle, its timer started again, through P4Runtime
(IdleTimeoutNotification to the primary, idle_timeout_ns and time_since_last_hit on reads) and
through the simple_switch_CLI commands (table_set_timeout, table_dump's Life line, idle_listen
events).  The switch replays frames of kind 7 forever, so the entry of kind 7 is hit and never
idle."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest
from one_header_switch import build_switch, one_header_program, start_switch
from p4runtime_client import Controller, entry, p4runtime_switch, rejected, update

from p4odp.controlplane.channel import CommandError, SwitchChannel
from p4odp.controlplane.protos import p4runtime_pb2 as p4r

PROGRAM = one_header_program(
    "bit<8> kind; bit<8> port;",
    ingress="        flows.apply();\n        plain.apply();",
    ingress_locals="""
    action fwd(bit<9> p) { sm.egress_spec = p; }
    table flows {
        key = { hdr.h.kind: exact; }
        actions = { fwd; NoAction; }
        support_timeout = true;
        default_action = NoAction();
    }
    table plain { key = { hdr.h.port: exact; } actions = { fwd; NoAction; } }""")

HIT = bytes([7, 1]) + bytes(58)  # the frame the switch replays: kind 7
TTL_NS = 300_000_000


@pytest.fixture(scope="module")
def idle_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("idle"), PROGRAM, "idle.p4")


@pytest.fixture
def primary(idle_binary: Path, tmp_path: Path):
    with p4runtime_switch(idle_binary, tmp_path, (HIT,)) as target:
        controller = Controller(target, election_id=1)
        controller.arbitrate()
        yield controller
        controller.close()


def flow(controller: Controller, kind: int, ttl_ns: int = 0) -> p4r.Entity:
    entity = entry(controller, "flows", ("hdr.h.kind", "exact", bytes([kind])), action="fwd", params=(b"\x01",))
    entity.table_entry.idle_timeout_ns = ttl_ns
    return entity


def read_flows(controller: Controller, elapsed: bool) -> dict[bytes, p4r.TableEntry]:
    entity = p4r.Entity()
    entity.table_entry.table_id = controller.id_of("tables", "flows")
    if elapsed:
        entity.table_entry.time_since_last_hit.SetInParent()
    return {e.table_entry.match[0].exact.value: e.table_entry for e in controller.read(entity)}


def notified(controller: Controller, seconds: float) -> list[p4r.TableEntry]:
    """The entries of the notifications that come within `seconds`."""
    entries, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        message = controller.message("idle_timeout_notification", seconds=left)
        if message is not None:
            assert message.idle_timeout_notification.timestamp > 0
            entries += message.idle_timeout_notification.table_entry
    return entries


def test_an_entry_no_packet_hits_is_notified_each_ttl_and_a_hit_one_never(primary: Controller):
    idle = flow(primary, 8, TTL_NS)
    idle.table_entry.controller_metadata, idle.table_entry.metadata = 42, b"flow 8"
    primary.write(*(update(p4r.Update.INSERT, entity) for entity in (flow(primary, 7, TTL_NS), idle, flow(primary, 9))))
    entries = notified(primary, 1.5)
    # Entry 8 every TTL or so (its timer starts again at each notification); 7 is hit; 9 has no TTL.
    assert {e.match[0].exact.value for e in entries} == {b"\x08"}
    assert 2 <= len(entries) <= 5, len(entries)
    first = entries[0]
    assert first.table_id == primary.id_of("tables", "flows") and first.idle_timeout_ns == TTL_NS
    assert (first.controller_metadata, first.metadata) == (42, b"flow 8")  # as the specification asks
    assert not first.HasField("action")


def test_reads_give_the_ttl_and_the_time_since_the_last_hit_when_asked(primary: Controller):
    primary.write(*(update(p4r.Update.INSERT, flow(primary, kind, ttl)) for kind, ttl in ((7, TTL_NS), (9, 0))))
    time.sleep(0.5)
    plain = read_flows(primary, elapsed=False)
    assert plain[b"\x07"].idle_timeout_ns == TTL_NS and plain[b"\x09"].idle_timeout_ns == 0
    assert not any(e.HasField("time_since_last_hit") for e in plain.values())
    timed = read_flows(primary, elapsed=True)
    assert timed[b"\x07"].time_since_last_hit.elapsed_ns < TTL_NS  # hit all the time
    assert 400_000_000 <= timed[b"\x09"].time_since_last_hit.elapsed_ns < 10_000_000_000  # never hit
    # A modify gives the TTL anew: without one, the entry has none and is never notified.
    primary.write(update(p4r.Update.MODIFY, flow(primary, 9, 2 * TTL_NS)))
    assert read_flows(primary, elapsed=False)[b"\x09"].idle_timeout_ns == 2 * TTL_NS
    primary.write(update(p4r.Update.MODIFY, flow(primary, 9)))
    assert read_flows(primary, elapsed=False)[b"\x09"].idle_timeout_ns == 0
    assert notified(primary, 0.8) == []


def test_a_deleted_entry_is_no_longer_notified(primary: Controller):
    primary.write(update(p4r.Update.INSERT, flow(primary, 8, TTL_NS)))
    assert notified(primary, 0.6)
    primary.write(update(p4r.Update.DELETE, flow(primary, 8)))
    notified(primary, 0.2)  # one may have been on its way
    assert notified(primary, 0.8) == []


def test_idle_timeouts_where_the_specification_forbids_them(primary: Controller):
    plain = entry(primary, "plain", ("hdr.h.port", "exact", b"\x01"), action="fwd", params=(b"\x01",))
    plain.table_entry.idle_timeout_ns = TTL_NS
    code, details = rejected(lambda: primary.write(update(p4r.Update.INSERT, plain)))
    assert code == grpc.StatusCode.UNKNOWN and details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "has no idle timeout" in details[0][1]
    written = flow(primary, 8, TTL_NS)
    written.table_entry.time_since_last_hit.elapsed_ns = 5
    code, details = rejected(lambda: primary.write(update(p4r.Update.INSERT, written)))
    assert details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    default = entry(primary, "flows", action="fwd", params=(b"\x01",), default=True)
    default.table_entry.idle_timeout_ns = TTL_NS
    code, details = rejected(lambda: primary.write(update(p4r.Update.MODIFY, default)))
    assert details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    wanted = p4r.Entity()
    wanted.table_entry.table_id = primary.id_of("tables", "plain")
    wanted.table_entry.time_since_last_hit.SetInParent()
    code, details = rejected(lambda: primary.read(wanted))
    assert details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "has no idle timeout" in details[0][1]
    assert read_flows(primary, elapsed=False) == {}  # nothing was written


def test_a_batch_rolled_back_takes_its_ttl_back(primary: Controller):
    primary.write(update(p4r.Update.INSERT, flow(primary, 9, TTL_NS)))
    request = p4r.WriteRequest(device_id=0, atomicity=p4r.WriteRequest.ROLLBACK_ON_ERROR)
    request.election_id.low = 1
    request.updates.extend([update(p4r.Update.MODIFY, flow(primary, 9, 5 * TTL_NS)),
                            update(p4r.Update.INSERT, flow(primary, 9))])  # exists: refused
    with pytest.raises(grpc.RpcError):
        primary.stub.Write(request)
    assert read_flows(primary, elapsed=False)[b"\x09"].idle_timeout_ns == TTL_NS


def test_the_cli_sets_timeouts_shows_them_and_reports_idle_entries(idle_binary: Path, tmp_path: Path):
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(idle_binary, tmp_path, address, (HIT,))
    try:
        with SwitchChannel(address) as switch:
            switch.command("table_add flows fwd 7 => 1")
            switch.command("table_add flows fwd 8 => 1")
            switch.command("table_set_timeout flows 0 300")
            switch.command("table_set_timeout flows 1 300")
            switch.listen("idle")
            events = [switch.next_event(timeout=2) for _ in range(3)]
            assert events == ["idle_timeout Ing.flows 1"] * 3
            dump = switch.command("table_dump_entry flows 1")
            assert "Life: " in dump and "ms since hit, timeout is 300ms" in dump
            for bad, reason in (("table_set_timeout plain 0 300", "does not support entry timeouts"),
                                ("table_set_timeout flows 5 300", "has no entry with handle 5"),
                                ("table_set_timeout flows 0 -3", "is not a count"), ("table_set_timeout flows 0", "usage")):
                with pytest.raises(CommandError, match=reason):
                    switch.command(bad)
            switch.command("table_delete flows 1")
            switch.next_event(timeout=0.2)  # one may have been on its way
            assert switch.next_event(timeout=0.8) is None
    finally:
        process.kill()
        process.wait()
        process.stderr.close()
