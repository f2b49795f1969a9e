"""Counter and register commands on a running switch (simple_switch_CLI's counter_read,
counter_write, counter_reset, register_read, register_write, register_reset): what they print,
what the datapath then sees, and bad lines refused with the line's place, changing nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from p4odp.stf.pcap import read_packets, write_pcap

# Each packet: r[0] (bit<32>) is read into h.r and written back incremented; s[1] (int<8>) is read
# into h.s; w[0] (bit<72>) into h.w; c counts the packet at index 0.
PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
header h_t { bit<32> r; int<8> s; bit<72> w; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    register<bit<32>>(4) r;
    register<int<8>>(2) s;
    register<bit<72>>(1) w;
    counter(2, CounterType.packets_and_bytes) c;
    apply {
        r.read(hdr.h.r, 0);
        r.write(0, hdr.h.r + 1);
        s.read(hdr.h.s, 1);
        w.read(hdr.h.w, 0);
        c.count(0);
        sm.egress_spec = 1;
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""

FRAME = bytes(14)


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("registers")
    (folder / "reg.p4").write_text(PROGRAM)
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(folder / "reg.p4"), "-o",
                            str(folder / "out")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return folder / "out" / "switch"


def _run(switch: Path, tmp_path: Path, commands: str, frames: int = 2) -> subprocess.CompletedProcess:
    (tmp_path / "commands.txt").write_text(commands)
    write_pcap(str(tmp_path / "in.pcap"), [FRAME] * frames)
    return subprocess.run([str(switch), "--exit-when-done", "--commands", str(tmp_path / "commands.txt"),
                           "-i", f"0=pcap:in={tmp_path / 'in.pcap'}", "-i", f"1=pcap:out={tmp_path / 'out.pcap'}"],
                          capture_output=True, text=True, timeout=60)


def test_registers_written_before_forwarding_are_what_the_packets_read(switch: Path, tmp_path: Path):
    run = _run(switch, tmp_path, "register_write r 0 0xfffffffe\nregister_write s 1 -3\n"
                                 "register_write w 0 18446744073709551616\n"  # 2^64: 0x01 then 8 zero bytes
                                 "register_read r 0\nregister_read s 1\nregister_read w 0\nregister_read r 3\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["Ing.r[0]= 4294967294", "Ing.s[1]= -3", "Ing.w[0]= 18446744073709551616",
                                       "Ing.r[3]= 0"]
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
        "Ing.r[0]= 1",
        "Ing.c[0]=  BmCounterData(packets=1, bytes=14)",
        "Ing.c[1]=  BmCounterData(packets=7, bytes=700)",
        "Ing.c[0]=  BmCounterData(packets=0, bytes=0)",
        "Ing.c[1]=  BmCounterData(packets=0, bytes=0)",
        "Ing.r[2]= 0",
        "Ing.r[0]= 0",
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
