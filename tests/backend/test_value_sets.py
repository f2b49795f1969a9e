"""Parser value sets (v1model value_set<bit<W>>(N) in a select): the parser takes the branch of a
value set when the key is one of its values, which simple_switch_CLI's pvs_add, pvs_remove and
pvs_clear change; bad lines refused with the line's place."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, run_on_frames

from p4odp.stf.pcap import read_packets

# The parser extracts h, then `tagged` (a byte set to 0xAA) when h.kind is in value set `kinds`, or
# `other` (0xBB) when it is 7, else nothing; every packet leaves on port 1 with what was extracted.
PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
header h_t { bit<16> kind; }
header mark_t { bit<8> m; }
struct headers_t { h_t h; mark_t tagged; mark_t other; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(2) kinds;
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.kind) {
            kinds: tagged;
            7: other;
            default: accept;
        }
    }
    state tagged { pkt.extract(hdr.tagged); hdr.tagged.m = 0xAA; transition accept; }
    state other { pkt.extract(hdr.other); hdr.other.m = 0xBB; transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { sm.egress_spec = 1; } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); pkt.emit(hdr.tagged); pkt.emit(hdr.other); }
}
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""


def _frame(kind: int, kind_bytes: int) -> bytes:
    return kind.to_bytes(kind_bytes, "big") + bytes(4)


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("pvs"), PROGRAM, "pvs.p4")


def _marks(switch: Path, tmp_path: Path, commands: str, kinds: list[int], kind_bytes: int = 2) -> list[int]:
    """The byte after h (h.kind of `kind_bytes`) of each packet out (0 where the parser extracted
    nothing more)."""
    (tmp_path / "commands.txt").write_text(commands)
    frames = [_frame(k, kind_bytes) for k in kinds]
    run = run_on_frames(switch, tmp_path, frames, "--commands", str(tmp_path / "commands.txt"))
    assert run.returncode == 0, run.stderr
    return [p[kind_bytes] for p in read_packets(str(tmp_path / "out.pcap"))]


def test_an_empty_value_set_matches_nothing(switch: Path, tmp_path: Path):
    assert _marks(switch, tmp_path, "", [0, 5, 7]) == [0, 0, 0xBB]


def test_the_values_added_are_matched(switch: Path, tmp_path: Path):
    assert _marks(switch, tmp_path, "pvs_add kinds 5\npvs_add P.kinds 0x0800\npvs_add kinds 5\n",
                  [5, 0x800, 6, 7]) == [0xAA, 0xAA, 0, 0xBB]


def test_removed_and_cleared_values_are_not(switch: Path, tmp_path: Path):
    assert _marks(switch, tmp_path, "pvs_add kinds 5\npvs_add kinds 6\npvs_remove kinds 5\n",
                  [5, 6]) == [0, 0xAA]
    assert _marks(switch, tmp_path, "pvs_add kinds 5\npvs_add kinds 6\npvs_clear kinds\npvs_add kinds 9\n",
                  [5, 6, 9]) == [0, 0, 0xAA]


@pytest.mark.parametrize("line, message", [
    ("pvs_add kinds 3", "value set P.kinds is full (2 values)"),
    ("pvs_add kinds 65536", "value '65536' does not fit in 16 bits"),
    ("pvs_add kinds -1", "value '-1' is negative: a bit<16> value is not"),
    ("pvs_remove kinds 4", "value set P.kinds has no value 4"),
    ("pvs_add nothing 1", "no value set named 'nothing'"),
    ("pvs_clear", "usage: pvs_clear VALUE_SET"),
])
def test_a_bad_line_is_refused_with_its_place(switch: Path, tmp_path: Path, line: str, message: str):
    (tmp_path / "commands.txt").write_text(f"pvs_add kinds 1\npvs_add kinds 2\n{line}\n")
    run = run_on_frames(switch, tmp_path, [], "--commands", str(tmp_path / "commands.txt"))
    assert run.returncode != 0 and f"commands.txt:3: error: {message}" in run.stderr, run.stderr


def test_a_value_set_of_a_struct_matches_its_keys_packed_as_bmv2_packs_them(tmp_path: Path):
    # Two select keys (h.kind's high byte, its low 4 bits) against a struct of 8 and 4 bits: a
    # value is the first field's bits, then the second's.
    source = PROGRAM.replace("struct meta_t { }", "struct meta_t { }\nstruct pair_t { bit<8> hi; bit<4> lo; }") \
        .replace("value_set<bit<16>>(2) kinds;", "value_set<pair_t>(2) kinds;") \
        .replace("select(hdr.h.kind) {", "select(hdr.h.kind[15:8], hdr.h.kind[3:0]) {") \
        .replace("7: other;", "(0, 7): other;")
    switch = build_switch(tmp_path, source, "pvs_struct.p4")
    assert _marks(switch, tmp_path, "pvs_add kinds 0x51\n", [0x0501, 0x05F1, 0x0502, 0x0007]) == [0xAA, 0xAA, 0, 0xBB]


def test_a_struct_inside_the_struct_gives_its_fields_in_place(tmp_path: Path):
    # p4c's pvs-nested-struct: the inner struct's fields are keys of their own, packed in place.
    source = PROGRAM.replace("struct meta_t { }", "struct meta_t { }\nstruct lo_t { bit<4> lo; }\n"
                                                  "struct pair_t { bit<8> hi; lo_t inner; }") \
        .replace("value_set<bit<16>>(2) kinds;", "value_set<pair_t>(2) kinds;") \
        .replace("select(hdr.h.kind) {", "select(hdr.h.kind[15:8], hdr.h.kind[3:0]) {") \
        .replace("7: other;", "(0, 7): other;")
    switch = build_switch(tmp_path, source, "pvs_nested.p4")
    assert _marks(switch, tmp_path, "pvs_add kinds 0x51\n", [0x0501, 0x05F1, 0x0502, 0x0007]) == [0xAA, 0xAA, 0, 0xBB]


def test_a_value_set_of_a_serializable_enum_matches_its_members_numbers(tmp_path: Path):
    source = PROGRAM.replace("header h_t { bit<16> kind; }",
                             "enum bit<16> kind_t { A = 0x0800, B = 0x86DD }\nheader h_t { kind_t kind; }") \
        .replace("value_set<bit<16>>(2) kinds;", "value_set<kind_t>(2) kinds;") \
        .replace("7: other;", "kind_t.B: other;")
    switch = build_switch(tmp_path, source, "pvs_enum.p4")
    assert _marks(switch, tmp_path, "pvs_add kinds 0x0800\n", [0x0800, 0x86DD, 0x0801]) == [0xAA, 0xBB, 0]


def test_a_value_set_of_int_values_takes_negative_numbers(tmp_path: Path):
    source = PROGRAM.replace("bit<16> kind;", "int<16> kind;").replace("value_set<bit<16>>", "value_set<int<16>>")
    switch = build_switch(tmp_path, source, "pvs_signed.p4")
    assert _marks(switch, tmp_path, "pvs_add kinds -2\npvs_add kinds -32768\n",
                  [0xFFFE, 0x8000, 0x7FFE, 7]) == [0xAA, 0xAA, 0, 0xBB]


def test_a_value_set_of_128_bit_values_matches_whole_addresses(tmp_path: Path):
    source = PROGRAM.replace("bit<16> kind;", "bit<128> kind;").replace("value_set<bit<16>>", "value_set<bit<128>>")
    switch = build_switch(tmp_path, source, "pvs_wide.p4")
    address = 0x20010DB8_00000000_00000000_00000001
    assert _marks(switch, tmp_path, "pvs_add kinds 2001:db8::1\npvs_add kinds 0x10000000000000000\n",
                  [address, address + 1, 1 << 64, 7], kind_bytes=16) == [0xAA, 0, 0xAA, 0xBB]
    (tmp_path / "commands.txt").write_text("pvs_add kinds 0x100000000000000000000000000000000\n")
    run = run_on_frames(switch, tmp_path, [], "--commands", str(tmp_path / "commands.txt"))
    assert run.returncode != 0 and "does not fit in 128 bits" in run.stderr, run.stderr


def test_a_struct_value_set_wider_than_64_bits_packs_its_fields_across_words(tmp_path: Path):
    # Keys of 48 and 20 bits (68 in all), the second of them not byte-aligned in the packed value.
    source = PROGRAM.replace("bit<16> kind;", "bit<128> kind;") \
        .replace("struct meta_t { }", "struct meta_t { }\nstruct pair_t { bit<48> hi; bit<20> lo; }") \
        .replace("value_set<bit<16>>(2) kinds;", "value_set<pair_t>(2) kinds;") \
        .replace("select(hdr.h.kind) {", "select(hdr.h.kind[127:80], hdr.h.kind[19:0]) {") \
        .replace("7: other;", "(0, 7): other;")
    switch = build_switch(tmp_path, source, "pvs_wide_struct.p4")
    hi, lo = 0x0A0B0C0D0E0F, 0xABCDE
    kind = hi << 80 | 0x1234 << 20 | lo
    assert _marks(switch, tmp_path, f"pvs_add kinds {hex(hi << 20 | lo)}\n",
                  [kind, kind ^ 1, kind ^ (1 << 80), 7], kind_bytes=16) == [0xAA, 0, 0, 0xBB]
