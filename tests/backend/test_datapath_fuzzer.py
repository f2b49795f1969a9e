"""p4odp fuzz: the examples' datapaths under libFuzzer for a few seconds without a crash; a
program whose assert() one frame breaks, found and replayed on the switch; the user's errors."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from p4odp.backend.datapath_fuzzer import libfuzzer_problem
from p4odp.stf.pcap import read_packets
from support import LIBFUZZER_RUNTIME, require_debian

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def clang():
    # clang alone lacks libFuzzer's runtime on Debian: libclang-rt-dev has it.
    require_debian({"clang": "command -v clang", "libclang-rt-dev": LIBFUZZER_RUNTIME}, "p4odp fuzz")
    problem = libfuzzer_problem(("clang",))
    if problem is not None:
        pytest.skip(problem)


def fuzz(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "fuzz", "--cc", "clang", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize("example", ["l2fwd", "l3fwd"])
def test_examples_fuzz_clean(example: str, tmp_path: Path):
    folder = REPO / "examples" / example
    run = fuzz(str(folder / f"{example}.p4"), "--commands", str(folder / "commands.txt"), "--seconds", "3",
               "-o", str(tmp_path / "out"), cwd=tmp_path)
    # A finding's stack is in libFuzzer's report, which the run's folder does not outlive: shown here.
    log = tmp_path / "out" / "fuzz.log"
    assert run.returncode == 0, run.stdout + run.stderr + (log.read_text(errors="replace")[-6000:] if log.exists() else "")
    found = re.search(r"no crash: (\d+) inputs in [\d.]+ s \((\d+)/s\), coverage (\d+) edges", run.stdout)
    assert found, run.stdout
    execs, _, coverage = map(int, found.groups())
    assert execs > 0 and coverage > 0
    assert (tmp_path / "out" / "corpus").is_dir() and not list((tmp_path / "out").glob("crash-*"))


def test_assert_crash_found_and_replayed(tmp_path: Path):
    run = fuzz(str(HERE / "fuzz_assert.p4"), "--commands", str(HERE / "fuzz_assert.commands"), "--asserts",
               "--seconds", "60", "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "crash: Assert error: assert(!(hdr.probe.code == 0x2a" in run.stdout, run.stdout
    pcap = Path(re.search(r"reproducer: (\S+) \(the frame, received on port 1;", run.stdout).group(1))
    frame, = read_packets(str(pcap))
    assert frame[12:14] == b"\x88\xb5" and frame[14] == 0x2a
    # The command it prints replays the frame on the program's switch, which aborts at the same assert.
    replay = shlex.split(re.search(r"replay on the switch: (.*)", run.stdout).group(1))
    assert "--asserts" in replay
    switch = subprocess.run(replay, capture_output=True, text=True, timeout=60)
    assert switch.returncode < 0, switch.stderr
    assert "Assert error: assert(!(hdr.probe.code == 0x2a" in switch.stderr
    assert "replayed: the switch was killed by SIGABRT" in run.stdout


def test_missing_program(tmp_path: Path):
    run = fuzz(str(tmp_path / "nothere.p4"), "--seconds", "1", cwd=tmp_path)
    assert run.returncode == 2
    assert "nothere.p4: error: no such file" in run.stderr and "Traceback" not in run.stderr


def test_bad_commands_file(tmp_path: Path):
    (tmp_path / "bad.commands").write_text("table_add route send 0 => 1\ntable_add nosuch send 1 => 2\n")
    run = fuzz(str(HERE / "fuzz_assert.p4"), "--commands", "bad.commands", "--seconds", "1", "-o", "out",
               cwd=tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "bad.commands:2: error: no table named 'nosuch'" in run.stderr and "Traceback" not in run.stderr
    assert "table_add nosuch send 1 => 2" in run.stderr  # the line, under its position
