"""v1model's assert() and assume() on a running switch: nothing happens without --asserts; with it,
a false check prints BMv2's message (the call as written, the file and the line) and aborts."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from one_header_switch import build_switch, one_header_program, run_on_frames

from p4odp.stf.pcap import read_packets

PROGRAM = one_header_program("bit<8> a; bit<8> b;", """\
        sm.egress_spec = 1;
        assert(hdr.h.a != 7);""", egress="assume((hdr.h.b & 1) == 0);")


def _switch(tmp_path: Path) -> Path:
    return build_switch(tmp_path, PROGRAM, "checks.p4")


def test_checks_do_nothing_without_asserts(tmp_path: Path):
    frames = [bytes([1, 2]), bytes([7, 2]), bytes([1, 3])]
    run = run_on_frames(_switch(tmp_path), tmp_path, frames)
    assert run.returncode == 0, run.stderr
    assert read_packets(str(tmp_path / "out.pcap")) == frames


def test_a_false_assert_or_assume_aborts_with_where_it_is(tmp_path: Path):
    switch = _switch(tmp_path)
    good = run_on_frames(switch, tmp_path, [bytes([1, 2]), bytes([6, 4])], "--asserts")
    assert good.returncode == 0 and "error" not in good.stderr, good.stderr
    for frame, message in ((bytes([7, 2]), "Assert error: assert(hdr.h.a != 7) failed, file"),
                           (bytes([1, 3]), "Assume error: assume((hdr.h.b & 1) == 0) failed, file")):
        run = run_on_frames(switch, tmp_path, [bytes([1, 2]), frame], "--asserts")
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
