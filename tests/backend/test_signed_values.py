"""Negative numbers in control-plane commands: an int<W> key field, action parameter or register
takes one (stored as its two's complement, down to -2^(W-1)); a bit<W> one refuses it with the
line's place instead of storing a wrapped value."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, one_header_program, run_on_frames

from p4odp.stf.pcap import read_packets

# Table `signed_key` matches the int<8> field sk, `unsigned_key` the bit<8> field k; both write
# their action's int<8> and bit<8> parameters into the fields s_out and u_out.
PROGRAM = one_header_program("bit<8> k; int<8> sk; int<8> s_out; bit<8> u_out;", """\
        signed_key.apply();
        unsigned_key.apply();
        sm.egress_spec = 1;""", ingress_locals="""\
    action set(int<8> s, bit<8> u) { hdr.h.s_out = s; hdr.h.u_out = u; }
    table signed_key { key = { hdr.h.sk: exact; } actions = { set; NoAction; } default_action = NoAction(); }
    table unsigned_key { key = { hdr.h.k: ternary; } actions = { set; NoAction; } default_action = NoAction(); }
    register<bit<8>>(1) r;""")


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("signed"), PROGRAM, "signed.p4")


def _run(switch: Path, tmp_path: Path, commands: str, frames: list[bytes]):
    (tmp_path / "commands.txt").write_text(commands)
    return run_on_frames(switch, tmp_path, frames, "--commands", str(tmp_path / "commands.txt"))


def test_negative_numbers_are_twos_complement_in_int_keys_and_parameters(switch: Path, tmp_path: Path):
    frames = [bytes([0, 0xff, 0, 0]) + bytes(10), bytes([0, 0x80, 0, 0]) + bytes(10),
              bytes([0, 0x7f, 0, 0]) + bytes(10)]
    run = _run(switch, tmp_path, "table_add Ing.signed_key Ing.set -1 => -128 255\n"
                                 "table_add Ing.signed_key Ing.set -128 => -0 0\n"
                                 "table_add Ing.signed_key Ing.set 127 => 127 0x7f\n", frames)
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    assert [p[2:4] for p in out] == [bytes([0x80, 0xff]), bytes([0, 0]), bytes([0x7f, 0x7f])]


@pytest.mark.parametrize("line, message", [
    ("table_add Ing.unsigned_key Ing.set -1&&&0xff => 1 1 1", "value '-1' is negative: a bit<8> value is not"),
    ("table_add Ing.unsigned_key Ing.set 1&&&-1 => 1 1 1", "value '-1' is negative: a bit<8> value is not"),
    ("table_add Ing.signed_key Ing.set 1 => 1 -1", "value '-1' is negative: a bit<8> value is not"),
    ("table_add Ing.signed_key Ing.set -129 => 1 1", "value '-129' does not fit in int<8>"),
    ("table_add Ing.signed_key Ing.set -256 => 1 1", "value '-256' does not fit in int<8>"),
    ("table_add Ing.signed_key Ing.set 1 => -200 1", "value '-200' does not fit in int<8>"),
    ("register_write Ing.r 0 -1", "value '-1' is negative: a bit<8> value is not"),
])
def test_a_negative_number_out_of_range_is_refused_with_its_place(switch: Path, tmp_path: Path, line: str,
                                                                  message: str):
    run = _run(switch, tmp_path, f"table_add Ing.signed_key Ing.set 5 => 6 7\n{line}\n", [bytes(14)])
    assert run.returncode != 0 and f"commands.txt:2: error: {message}" in run.stderr, run.stderr
