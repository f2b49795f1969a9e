"""P4Runtime's packet replication engine: multicast groups and clone sessions written, changed,
deleted and read back, their copies counted by the program's egress while the switch forwards."""

from __future__ import annotations

import signal
from pathlib import Path

import grpc
import pytest
from one_header_switch import build_switch, start_switch
from p4runtime_client import Controller, growing, p4runtime_switch, rejected, update

from p4odp.controlplane.protos import p4runtime_pb2 as p4r
from p4odp.controlplane.server import serve
from p4odp.stf.pcap import read_pcap

# Frames of kind 1 go to multicast group `group`; frames of kind 2 go to port 1 and are cloned to
# session 7 at ingress.  Egress counts every copy by port, by replication id and by instance type.
PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> kind; bit<16> group; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.h.kind == 1) {
            sm.mcast_grp = hdr.h.group;
        } else {
            sm.egress_spec = 1;
            clone(CloneType.I2E, 7);
        }
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    counter(512, CounterType.packets) by_port;
    counter(16, CounterType.packets) by_rid;
    counter(8, CounterType.packets) by_instance_type;
    apply {
        by_port.count((bit<32>)sm.egress_port);
        by_rid.count((bit<32>)sm.egress_rid);
        by_instance_type.count(sm.instance_type);
    }
}
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""

MULTICAST = bytes([1, 0, 1]) + bytes(57)  # to group 1
CLONED = bytes([2, 0, 0]) + bytes(57)  # to port 1, and a clone to session 7
INGRESS_CLONE = 1  # v1model's instance_type of an ingress clone


@pytest.fixture(scope="module")
def replication_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("replication"), PROGRAM, "replication.p4")


@pytest.fixture
def controller(replication_binary: Path, tmp_path: Path):
    with p4runtime_switch(replication_binary, tmp_path, (MULTICAST, CLONED)) as target:
        controller = Controller(target)
        assert controller.arbitrate(election_id=1).arbitration.status.code == 0
        try:
            yield controller
        finally:
            controller.close()


def replication(**kind) -> p4r.Entity:
    """A PacketReplicationEngineEntry of `kind` (multicast_group_entry=... or clone_session_entry=...;
    none: an entry of no type)."""
    entity = p4r.Entity()
    entity.packet_replication_engine_entry.SetInParent()
    for name, message in kind.items():
        getattr(entity.packet_replication_engine_entry, name).CopyFrom(message)
    return entity


def group(group_id: int, *replicas: tuple) -> p4r.Entity:
    """Multicast group `group_id` of `replicas` (port, instance)."""
    entry = p4r.MulticastGroupEntry(multicast_group_id=group_id)
    for port, instance in replicas:
        entry.replicas.add(egress_port=port, instance=instance)
    return replication(multicast_group_entry=entry)


def read_groups(controller: Controller, group_id: int = 0) -> list:
    found = controller.read(replication(multicast_group_entry=p4r.MulticastGroupEntry(multicast_group_id=group_id)))
    return [e.packet_replication_engine_entry.multicast_group_entry for e in found]


def test_multicast_groups_replicate_as_written_changed_and_deleted(controller: Controller):
    assert growing(controller, "by_port") == {1}  # no group 1 yet: only the kind-2 frames' copies
    controller.write(update(p4r.Update.INSERT, group(1, (2, 1), (3, 1), (5, 4))))
    assert growing(controller, "by_port") == {1, 2, 3, 5}
    assert growing(controller, "by_rid") == {0, 1, 4}
    assert read_groups(controller) == read_groups(controller, 1) == \
        [group(1, (2, 1), (3, 1), (5, 4)).packet_replication_engine_entry.multicast_group_entry]

    controller.write(update(p4r.Update.MODIFY, group(1, (6, 4), (7, 9))))  # instance 1 gone, 4 changed, 9 new
    assert growing(controller, "by_port") == {1, 6, 7}
    assert growing(controller, "by_rid") == {0, 4, 9}

    controller.write(update(p4r.Update.DELETE, group(1)))
    assert growing(controller, "by_port") == {1}
    assert read_groups(controller) == []


@pytest.mark.parametrize("kind, entity, code, message", [
    (p4r.Update.INSERT, group(0, (1, 1)), grpc.StatusCode.OUT_OF_RANGE, "groups 1..4095"),
    (p4r.Update.INSERT, group(4096, (1, 1)), grpc.StatusCode.OUT_OF_RANGE, "groups 1..4095"),
    (p4r.Update.INSERT, group(2, (512, 1)), grpc.StatusCode.INVALID_ARGUMENT, "port 512 is not a port number"),
    (p4r.Update.INSERT, group(2, (1, 1 << 16)), grpc.StatusCode.INVALID_ARGUMENT, "does not fit in 16 bits"),
    (p4r.Update.INSERT, group(2, (1, 1), (1, 1)), grpc.StatusCode.INVALID_ARGUMENT, "is given twice"),
    (p4r.Update.INSERT, group(3, (1, 1)), grpc.StatusCode.ALREADY_EXISTS, "has a multicast group 3"),
    (p4r.Update.MODIFY, group(2, (1, 1)), grpc.StatusCode.NOT_FOUND, "has no multicast group 2"),
    (p4r.Update.DELETE, group(2), grpc.StatusCode.NOT_FOUND, "has no multicast group 2"),
    (p4r.Update.INSERT, replication(), grpc.StatusCode.INVALID_ARGUMENT, "has no type set"),
    (p4r.Update.INSERT, group(2, *[(1, i) for i in range(300)]), grpc.StatusCode.RESOURCE_EXHAUSTED, "256 at most"),
    (p4r.Update.MODIFY, group(3, *[(1, i) for i in range(300)]), grpc.StatusCode.RESOURCE_EXHAUSTED, "256 at most"),
    (p4r.Update.INSERT, replication(clone_session_entry=p4r.CloneSessionEntry(session_id=0)),
     grpc.StatusCode.OUT_OF_RANGE, "sessions 1..32767"),
])
def test_a_bad_replication_update_is_refused_and_changes_nothing(controller: Controller, kind, entity, code, message):
    controller.write(update(p4r.Update.INSERT, group(3, (4, 2))))
    assert rejected(lambda: controller.write(update(kind, entity))) == \
        (grpc.StatusCode.UNKNOWN, [(code.value[0], _Contains(message))])
    assert read_groups(controller) == [group(3, (4, 2)).packet_replication_engine_entry.multicast_group_entry]


class _Contains(str):
    """Equal to any text that holds it."""

    def __eq__(self, other) -> bool:
        return isinstance(other, str) and str(self) in other

    __hash__ = str.__hash__


def session(session_id: int, *replicas: tuple, **fields) -> p4r.Entity:
    """Clone session `session_id` of `replicas` (port, instance)."""
    entry = p4r.CloneSessionEntry(session_id=session_id, **fields)
    for port, instance in replicas:
        entry.replicas.add(egress_port=port, instance=instance)
    return replication(clone_session_entry=entry)


def test_clone_sessions_send_the_clones_where_written(controller: Controller):
    assert INGRESS_CLONE not in growing(controller, "by_instance_type")  # no session 7 yet
    controller.write(update(p4r.Update.INSERT, session(7, (6, 0))))
    assert INGRESS_CLONE in growing(controller, "by_instance_type")
    assert 6 in growing(controller, "by_port")
    controller.write(update(p4r.Update.MODIFY, session(7, (4, 0))))
    assert {4, 6} & growing(controller, "by_port") == {4}
    found = controller.read(replication(clone_session_entry=p4r.CloneSessionEntry()))
    assert [e.packet_replication_engine_entry for e in found] == [session(7, (4, 0)).packet_replication_engine_entry]

    # Several replicas, of instances of their own, and a class of service kept for reads.
    controller.write(update(p4r.Update.MODIFY, session(7, (3, 2), (5, 4), class_of_service=1)))
    assert {3, 5} <= growing(controller, "by_port") and {2, 4} <= growing(controller, "by_rid")
    found = controller.read(replication(clone_session_entry=p4r.CloneSessionEntry(session_id=7)))
    assert [e.packet_replication_engine_entry for e in found] == \
        [session(7, (3, 2), (5, 4), class_of_service=1).packet_replication_engine_entry]
    for bad in (session(8), session(8, (1, 0), (1, 0))):
        _, details = rejected(lambda: controller.write(update(p4r.Update.INSERT, bad)))
        assert details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    controller.write(update(p4r.Update.DELETE, session(7)))
    assert INGRESS_CLONE not in growing(controller, "by_instance_type")
    assert controller.read(replication(clone_session_entry=p4r.CloneSessionEntry())) == []


def test_a_group_of_as_many_instances_as_a_group_holds(controller: Controller):
    full = group(1, *[(1 + i % 8, i) for i in range(256)])
    controller.write(update(p4r.Update.INSERT, full))
    assert read_groups(controller, 1) == [full.packet_replication_engine_entry.multicast_group_entry]
    assert growing(controller, "by_rid") == set(range(16))  # the counter's cells: rids 0..15
    controller.write(update(p4r.Update.MODIFY, group(1, (2, 1))))
    assert growing(controller, "by_rid") == {0, 1}


def test_a_clone_session_cuts_its_copies_to_its_packet_length(replication_binary: Path, tmp_path: Path):
    address, out = f"unix:{tmp_path / 'control.sock'}", tmp_path / "out3.pcap"
    process = start_switch(replication_binary, tmp_path, address, (CLONED,), ("-i", f"3=pcap:out={out}"))
    server = serve(address, "127.0.0.1:0")
    try:
        controller = Controller(f"127.0.0.1:{server.port}")
        assert controller.arbitrate(election_id=1).arbitration.status.code == 0
        controller.write(update(p4r.Update.INSERT, session(7, (3, 0), packet_length_bytes=20)))
        assert 3 in growing(controller, "by_port")
        controller.close()
    finally:
        server.stop()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, process.stderr.read()
        process.stderr.close()
    frames = [packet.data for packet in read_pcap(str(out)).packets]
    assert frames and {len(frame) for frame in frames} == {20} and frames[0] == CLONED[:20]


@pytest.mark.parametrize("atomicity", [p4r.WriteRequest.ROLLBACK_ON_ERROR, p4r.WriteRequest.DATAPLANE_ATOMIC])
def test_a_write_applied_whole_plans_each_update_after_those_before_it(controller: Controller, atomicity):
    """In a write applied as one batch, an update sees what the updates before it do: a group or a
    session inserted then changed, another inserted then deleted."""
    def write(*updates: p4r.Update) -> None:
        request = p4r.WriteRequest(device_id=0, atomicity=atomicity)
        request.election_id.low = controller.election_id
        request.updates.extend(updates)
        controller.stub.Write(request)

    write(update(p4r.Update.INSERT, group(1, (2, 1))), update(p4r.Update.MODIFY, group(1, (6, 4), (7, 9))),
          update(p4r.Update.INSERT, group(2, (3, 1))), update(p4r.Update.DELETE, group(2)),
          update(p4r.Update.INSERT, session(7, (6, 0))), update(p4r.Update.MODIFY, session(7, (4, 0))))
    assert read_groups(controller) == [group(1, (6, 4), (7, 9)).packet_replication_engine_entry.multicast_group_entry]
    found = controller.read(replication(clone_session_entry=p4r.CloneSessionEntry()))
    assert [e.packet_replication_engine_entry for e in found] == [session(7, (4, 0)).packet_replication_engine_entry]
    # A group deleted earlier in the write is not there for a later modify: the whole write is refused.
    _, details = rejected(lambda: write(update(p4r.Update.DELETE, group(1)),
                                        update(p4r.Update.MODIFY, group(1, (2, 1)))))
    assert details[1][0] == grpc.StatusCode.NOT_FOUND.value[0]
    assert len(read_groups(controller)) == 1
