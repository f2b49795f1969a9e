"""A const table's entries (the program's) are read through P4Runtime as p4c's P4Runtime servers
read them: with is_const set, their keys and actions canonical, don't-care fields left out."""

from __future__ import annotations

from pathlib import Path

from one_header_switch import build_switch, one_header_program
from p4runtime_client import Controller, p4runtime_switch

from p4odp.controlplane.protos import p4runtime_pb2 as p4r

PROGRAM = one_header_program(
    "bit<8> kind; bit<8> b; bit<16> c; bit<32> addr;",
    ingress="        fixed.apply();\n        mark_to_drop(sm);",
    ingress_locals="""\
    action set(bit<8> v) { hdr.h.b = v; }
    table fixed {
        key = { hdr.h.kind: exact; hdr.h.b: ternary; hdr.h.c: range; hdr.h.addr: lpm; }
        actions = { set; NoAction; }
        const entries = {
            (1, 0x10 &&& 0xf0, 1 .. 9, 0x0a000000 &&& 0xff000000): set(7);
            (2, _, _, _): NoAction();
        }
    }""")


def test_const_entries_are_read_back(tmp_path: Path):
    binary = build_switch(tmp_path, PROGRAM, "const_entries.p4")
    with p4runtime_switch(binary, tmp_path, (bytes(60),)) as target:
        controller = Controller(target)
        try:
            table_id = controller.id_of("tables", "fixed")
            entity = p4r.Entity()
            entity.table_entry.table_id = table_id
            entries = sorted((e.table_entry for e in controller.read(entity)), key=lambda e: e.match[0].exact.value)
            assert [e.is_const for e in entries] == [True, True]
            first, second = entries
            assert [m.WhichOneof("field_match_type") for m in first.match] == ["exact", "ternary", "range", "lpm"]
            assert (first.match[1].ternary.value, first.match[1].ternary.mask) == (b"\x10", b"\xf0")
            assert (first.match[2].range.low, first.match[2].range.high) == (b"\x01", b"\x09")
            assert (first.match[3].lpm.value, first.match[3].lpm.prefix_len) == (bytes([10, 0, 0, 0]), 8)
            assert first.action.action.action_id == controller.id_of("actions", "set")
            assert [p.value for p in first.action.action.params] == [b"\x07"]
            assert [m.field_id for m in second.match] == [first.match[0].field_id]  # the don't-cares left out
            assert first.priority > second.priority  # the first listed wins, as P4Runtime orders priorities
        finally:
            controller.close()
