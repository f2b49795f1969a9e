"""Counter and register commands on a running switch (simple_switch_CLI's counter_read,
counter_write, counter_reset, register_read, register_write, register_reset): what they print,
what the datapath then sees, and bad lines refused with the line's place, changing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, one_header_program, run_on_frames

from p4odp.stf.pcap import read_packets

# Each packet: r[0] (bit<32>) is read into h.r and written back incremented; s[1] (int<8>) is read
# into h.s; w[0] (bit<72>) into h.w; c counts the packet at index 0.
PROGRAM = one_header_program("bit<32> r; int<8> s; bit<72> w;", """\
        r.read(hdr.h.r, 0);
        r.write(0, hdr.h.r + 1);
        s.read(hdr.h.s, 1);
        w.read(hdr.h.w, 0);
        c.count(0);
        sm.egress_spec = 1;""", ingress_locals="""\
    register<bit<32>>(4) r;
    register<int<8>>(2) s;
    register<bit<72>>(1) w;
    counter(2, CounterType.packets_and_bytes) c;""")

FRAME = bytes(14)


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("registers"), PROGRAM, "reg.p4")


def _run(switch: Path, tmp_path: Path, commands: str, frames: int = 2):
    (tmp_path / "commands.txt").write_text(commands)
    return run_on_frames(switch, tmp_path, [FRAME] * frames, "--commands", str(tmp_path / "commands.txt"))


def test_registers_written_before_forwarding_are_what_the_packets_read(switch: Path, tmp_path: Path):
    run = _run(switch, tmp_path, "register_write r 0 0xfffffffe\nregister_write s 1 -3\n"
                                 "register_write w 0 18446744073709551616\n"  # 2^64: 0x01 then 8 zero bytes
                                 "register_read r 0\nregister_read s 1\nregister_read w 0\nregister_read r 3\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["r[0]= 4294967294", "s[1]= -3", "w[0]= 18446744073709551616",
                                       "r[3]= 0"]
    out = read_packets(str(tmp_path / "out.pcap"))
    assert [p[:4] for p in out] == [bytes.fromhex("fffffffe"), bytes.fromhex("ffffffff")]
    assert {p[4] for p in out} == {0xfd} and {p[5:14] for p in out} == {bytes.fromhex("010000000000000000")}


def test_packets_change_registers_and_counters_the_commands_read_write_and_reset(switch: Path, tmp_path: Path):
    run = _run(switch, tmp_path, "receive 0\nregister_read r 0\ncounter_read c 0\n"
                                 "counter_write c 1 7 700\ncounter_read c 1\ncounter_reset c\ncounter_read c 0\n"
                                 "counter_read c 1\nregister_write r 2 5\nregister_reset r\nregister_read r 2\n"
                                 "register_read r 0\n", frames=1)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "r[0]= 1",
        "c[0]= (14 bytes, 1 packets)",
        "c[1]= (700 bytes, 7 packets)",
        "c[0]= (0 bytes, 0 packets)",
        "c[1]= (0 bytes, 0 packets)",
        "r[2]= 0",
        "r[0]= 0",
    ]


@pytest.mark.parametrize("line, message", [
    ("register_write r 4 1", "index 4 is out of range for register Ing.r of size 4"),
    ("register_write s 0 300", "value '300' does not fit in 8 bits"),
    ("register_write w 0 4722366482869645213696", "value '4722366482869645213696' does not fit in 72 bits"),
    ("register_write nothing 0 1", "no register named 'nothing'"),
    ("register_read r", "usage: register_read REGISTER INDEX"),
    ("counter_write c 0 -1 0", "'-1' is not a count"),
    ("counter_reset c 0", "usage: counter_reset COUNTER"),
])
def test_a_bad_line_is_refused_with_its_place(switch: Path, tmp_path: Path, line: str, message: str):
    run = _run(switch, tmp_path, f"register_write r 0 9\n{line}\n")
    assert run.returncode != 0 and f"commands.txt:2: error: {message}" in run.stderr, run.stderr
