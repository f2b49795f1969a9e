"""P4Runtime on a PSA switch: P4Info with PSA's arch and p4c's names, an entry written with PSA's
PortId_t action parameter, read back, and a PSA Counter read while the switch forwards."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, eventually
from p4runtime_client import Controller, entry, growing, p4runtime_switch, update
from psa_switch import psa_program

from p4odp.controlplane.protos import p4runtime_pb2 as p4r

PROGRAM = psa_program("bit<8> a; bit<8> b;", ingress="        routes.apply();", ingress_locals="""\
    Counter<bit<32>, bit<8>>(16, PSA_CounterType_t.PACKETS) hits;
    action fwd(PortId_t port, bit<8> cell) { send_to_port(ostd, port); hits.count(cell); }
    table routes {
        key = { hdr.h.a: exact; }
        actions = { fwd; NoAction; }
    }""")


@pytest.fixture(scope="module")
def binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("psa"), PROGRAM, "psa_routes.p4")


def test_a_psa_switch_is_driven_by_p4runtime(binary: Path, tmp_path: Path):
    with p4runtime_switch(binary, tmp_path, (bytes([7, 0]) + bytes(58),)) as target:
        controller = Controller(target, election_id=1)
        controller.arbitrate()
        assert controller.info.pkg_info.arch == "psa"
        params = (bytes([0, 0, 0, 1]), bytes([3]))  # PortId_t: 32 bits
        controller.write(update(p4r.Update.INSERT, entry(controller, "Ing.routes", ("hdr.h.a", "exact", b"\x07"),
                                                         action="Ing.fwd", params=params)))
        [written] = controller.table_entries("Ing.routes")
        assert [p.value for p in written.action.action.params] == [b"\x01", b"\x03"]
        assert eventually(lambda: 3 in growing(controller, "Ing.hits"))
        controller.close()
