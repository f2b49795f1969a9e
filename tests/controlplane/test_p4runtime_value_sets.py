"""P4Runtime's ValueSetEntry: a parser value set's members replaced by a controller's, which the
parser matches from then on, and read back."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from one_header_switch import build_switch
from p4runtime_client import Controller, growing, p4runtime_switch, rejected, update

from p4odp.controlplane.protos import p4runtime_pb2 as p4r

# The parser marks a frame whose kind is in value set `kinds`; ingress counts the marked frames
# by the low byte of their kind.
PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
header h_t { bit<16> kind; bit<8> mark; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(2) kinds;
    state start { pkt.extract(hdr.h); transition select(hdr.h.kind) { kinds: marked; default: accept; } }
    state marked { hdr.h.mark = 1; transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    counter(256, CounterType.packets) marked;
    apply {
        if (hdr.h.mark == 1) { marked.count((bit<32>)hdr.h.kind[7:0]); }
        mark_to_drop(sm);
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""

FRAMES = (bytes([0x08, 0x00, 0]) + bytes(57), bytes([0x86, 0xdd, 0]) + bytes(57), bytes([0x88, 0xb5, 0]) + bytes(57))


@pytest.fixture(scope="module")
def value_set_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("value_sets"), PROGRAM, "value_sets.p4")


def members(controller: Controller, *kinds: int) -> p4r.Entity:
    entity = p4r.Entity()
    entity.value_set_entry.value_set_id = controller.id_of("value_sets", "kinds")
    for kind in kinds:
        entity.value_set_entry.members.add().match.add(field_id=1).exact.value = kind.to_bytes(3, "big").lstrip(b"\0")
    return entity


def test_a_value_set_holds_what_the_controller_wrote(value_set_binary: Path, tmp_path: Path):
    with p4runtime_switch(value_set_binary, tmp_path, FRAMES) as target:
        controller = Controller(target)
        try:
            assert controller.arbitrate(election_id=1).arbitration.status.code == 0
            assert growing(controller, "marked") == set()
            controller.write(update(p4r.Update.MODIFY, members(controller, 0x0800, 0x86dd)))
            assert growing(controller, "marked") == {0x00, 0xdd}
            controller.write(update(p4r.Update.MODIFY, members(controller, 0x88b5, 0x86dd)))
            assert growing(controller, "marked") == {0xb5, 0xdd}
            assert controller.read(members(controller)) == [members(controller, 0x86dd, 0x88b5)]

            for kind, entity, code in [
                (p4r.Update.INSERT, members(controller, 0x0800), grpc.StatusCode.INVALID_ARGUMENT),
                (p4r.Update.MODIFY, members(controller, 1, 2, 3), grpc.StatusCode.RESOURCE_EXHAUSTED),
                (p4r.Update.MODIFY, members(controller, 0x10000), grpc.StatusCode.INVALID_ARGUMENT),
                (p4r.Update.MODIFY, members(controller, 5, 5), grpc.StatusCode.INVALID_ARGUMENT),
            ]:
                _, details = rejected(lambda: controller.write(update(kind, entity)))
                assert details[0][0] == code.value[0], details
            assert growing(controller, "marked") == {0xb5, 0xdd}  # unchanged
            controller.write(update(p4r.Update.MODIFY, members(controller)))
            assert growing(controller, "marked") == set()
        finally:
            controller.close()
