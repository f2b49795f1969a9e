"""Negative numbers in control-plane commands: an int<W> key field, action parameter or register
takes one (stored as its two's complement, down to -2^(W-1)); a bit<W> one refuses it with the
line's place instead of storing a wrapped value."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, one_header_program, run_with_commands

from p4odp.stf.pcap import read_packets

# Table `signed_key` matches the int<8> field sk, `unsigned_key` the bit<8> field k; the others
# sk by ternary and by range, the int<4> field nib, and kind, of an enum over int<8>.  Each writes
# its action's int<8> and bit<8> parameters into s_out and u_out.
PROGRAM = one_header_program("bit<8> k; int<8> sk; int<8> s_out; bit<8> u_out; int<4> nib; bit<4> pad; kind_t kind;",
                             """\
        signed_key.apply();
        unsigned_key.apply();
        signed_ternary.apply();
        signed_range.apply();
        nibble.apply();
        kinds.apply();
        sm.egress_spec = 1;""", ingress_locals="""\
    action set(int<8> s, bit<8> u) { hdr.h.s_out = s; hdr.h.u_out = u; }
    table signed_key { key = { hdr.h.sk: exact; } actions = { set; NoAction; } default_action = NoAction(); }
    table unsigned_key { key = { hdr.h.k: ternary; } actions = { set; NoAction; } default_action = NoAction(); }
    table signed_ternary { key = { hdr.h.sk: ternary; } actions = { set; NoAction; } default_action = NoAction(); }
    table signed_range { key = { hdr.h.sk: range; } actions = { set; NoAction; } default_action = NoAction(); }
    table nibble { key = { hdr.h.nib: exact; } actions = { set; NoAction; } default_action = NoAction(); }
    table kinds { key = { hdr.h.kind: exact; } actions = { set; NoAction; } default_action = NoAction(); }
    register<bit<8>>(1) r;""", globals="enum int<8> kind_t { A = -3, B = 3 }")


def _frame(sk: int = 0, nib: int = 0, kind: int = 0, k: int = 0) -> bytes:
    return bytes([k, sk, 0, 0, nib << 4, kind]) + bytes(8)


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("signed"), PROGRAM, "signed.p4")


def test_negative_numbers_are_twos_complement_in_int_keys_and_parameters(switch: Path, tmp_path: Path):
    run = run_with_commands(switch, tmp_path, "table_add Ing.signed_key Ing.set -1 => -128 255\n"
                                 "table_add Ing.signed_key Ing.set -0x80 => -0 0\n"
                                 "table_add Ing.signed_key Ing.set 127 => 127 0x7f\n",
               [_frame(0xff), _frame(0x80), _frame(0x7f)])
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    assert [p[2:4] for p in out] == [bytes([0x80, 0xff]), bytes([0, 0]), bytes([0x7f, 0x7f])]


@pytest.mark.parametrize("commands, frames, outputs", [
    # -2&&&0xfe: 0xfe and 0xff
    ("table_add Ing.signed_ternary Ing.set -2&&&0xfe => 1 1 1", [_frame(0xfe), _frame(0xff), _frame(0x7e)], [1, 1, 0]),
    # int<4>: -8 is 0x8, the smallest
    ("table_add Ing.nibble Ing.set -8 => 2 2", [_frame(nib=8), _frame(nib=7)], [2, 0]),
    # an enum over int<8>: its members' numbers, negative ones too
    ("table_add Ing.kinds Ing.set -3 => 3 3", [_frame(kind=0xfd), _frame(kind=3)], [3, 0]),
    # -0 is 0, for a bit<8> key too
    ("table_add Ing.unsigned_key Ing.set -0&&&0xff => 5 5 1", [_frame(k=0), _frame(k=1)], [5, 0]),
    # range bounds are bit patterns: 250->255 is -6..-1
    ("table_add Ing.signed_range Ing.set 250->255 => 4 4 1", [_frame(0xfb), _frame(5)], [4, 0]),
])
def test_other_match_kinds_and_int_types_take_negative_numbers(switch: Path, tmp_path: Path, commands: str,
                                                               frames: list[bytes], outputs: list[int]):
    run = run_with_commands(switch, tmp_path, commands + "\n", frames)
    assert run.returncode == 0, run.stderr
    assert [p[3] for p in read_packets(str(tmp_path / "out.pcap"))] == outputs


@pytest.mark.parametrize("line, message", [
    ("table_add Ing.unsigned_key Ing.set -1&&&0xff => 1 1 1", "value '-1' is negative: a bit<8> value is not "
                                                              "(key hdr.h.k)"),
    ("table_add Ing.unsigned_key Ing.set 1&&&-1 => 1 1 1", "value '-1' is negative: a bit<8> value is not "
                                                           "(key hdr.h.k)"),
    ("table_add Ing.signed_key Ing.set 1 => 1 -1", "value '-1' is negative: a bit<8> value is not (parameter u)"),
    ("table_add Ing.signed_key Ing.set -129 => 1 1", "value '-129' does not fit in int<8> (key hdr.h.sk)"),
    ("table_add Ing.signed_key Ing.set -256 => 1 1", "value '-256' does not fit in int<8>"),
    ("table_add Ing.signed_key Ing.set 1 => -200 1", "value '-200' does not fit in int<8>"),
    ("table_add Ing.nibble Ing.set -9 => 1 1", "value '-9' does not fit in int<4> (key hdr.h.nib)"),
    ("table_add Ing.signed_range Ing.set -5->5 => 1 1 1", "key hdr.h.sk: the bounds of a range are compared as "
                                                         "unsigned bit patterns (as on BMv2): give them in 0..2^8-1"),
    ("register_write Ing.r 0 -1", "value '-1' is negative: a bit<8> value is not (register Ing.r)"),
])
def test_a_negative_number_out_of_range_is_refused_with_its_place(switch: Path, tmp_path: Path, line: str,
                                                                  message: str):
    run = run_with_commands(switch, tmp_path, f"table_add Ing.signed_key Ing.set 5 => 6 7\n{line}\n", [_frame()])
    assert run.returncode != 0 and f"commands.txt:2: error: {message}" in run.stderr, run.stderr
