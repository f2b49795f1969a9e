"""v1model's assert() and assume() on a running switch: nothing happens without --asserts; with it,
a false check prints BMv2's message (the call as written, the file and the line) and aborts."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from p4odp.stf.pcap import read_packets, write_pcap

PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        assert(hdr.h.a != 7);
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { assume((hdr.h.b & 1) == 0); }
}
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""


def _switch(tmp_path: Path) -> Path:
    source = tmp_path / "checks.p4"
    source.write_text(PROGRAM)
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(source), "-o", str(tmp_path / "out")],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return tmp_path / "out" / "switch"


def _run(switch: Path, tmp_path: Path, frames: list[bytes], *options: str) -> subprocess.CompletedProcess:
    write_pcap(str(tmp_path / "in.pcap"), frames)
    return subprocess.run([str(switch), *options, "--exit-when-done", "-i", f"0=pcap:in={tmp_path / 'in.pcap'}",
                           "-i", f"1=pcap:out={tmp_path / 'out.pcap'}"], capture_output=True, text=True, timeout=60)


def test_checks_do_nothing_without_asserts(tmp_path: Path):
    frames = [bytes([1, 2]), bytes([7, 2]), bytes([1, 3])]
    run = _run(_switch(tmp_path), tmp_path, frames)
    assert run.returncode == 0, run.stderr
    assert read_packets(str(tmp_path / "out.pcap")) == frames


def test_a_false_assert_or_assume_aborts_with_where_it_is(tmp_path: Path):
    switch = _switch(tmp_path)
    good = _run(switch, tmp_path, [bytes([1, 2]), bytes([6, 4])], "--asserts")
    assert good.returncode == 0 and "error" not in good.stderr, good.stderr
    for frame, message in ((bytes([7, 2]), "Assert error: assert(hdr.h.a != 7) failed, file"),
                           (bytes([1, 3]), "Assume error: assume((hdr.h.b & 1) == 0) failed, file")):
        run = _run(switch, tmp_path, [bytes([1, 2]), frame], "--asserts")
        assert run.returncode == -signal.SIGABRT, run.stderr
        line = next(line for line in run.stderr.splitlines() if "error:" in line)
        assert line.startswith(message) and "checks.p4, line " in line, line
        fragment = message.split(": ", 1)[1].rsplit(" failed", 1)[0]
        assert fragment in PROGRAM.splitlines()[int(line.rsplit(" ", 1)[1]) - 1]


def test_stf_runs_check_the_asserts(tmp_path: Path):
    source, test = tmp_path / "checks.p4", tmp_path / "checks.stf"
    source.write_text(PROGRAM)
    test.write_text("packet 0 0102\nexpect 1 0102\npacket 0 0702\nexpect 1 0702\n")
    run = subprocess.run([sys.executable, "-m", "p4odp.cli", "stf", str(source), str(test)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode != 0 and "Assert error: assert(hdr.h.a != 7) failed" in run.stdout + run.stderr, \
        run.stdout + run.stderr
    assert "Traceback" not in run.stderr
