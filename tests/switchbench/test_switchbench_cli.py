"""`p4odp bench`'s command line (the bench subcommand of p4odp/cli.py): bad input is one clear
line and exit status 1, never a traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
L2FWD = REPO / "examples" / "l2fwd" / "l2fwd.p4"


def bench(*args):
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "bench", *map(str, args)], capture_output=True,
                          text=True, cwd=REPO, timeout=300)


@pytest.mark.parametrize("args, message", [
    ([REPO / "missing.p4"], "program {repo}/missing.p4: no such file"),
    ([L2FWD, "--traffic", REPO / "missing.pcap"], "--traffic {repo}/missing.pcap: no such file"),
    ([L2FWD, "--commands", REPO / "missing.txt"], "--commands {repo}/missing.txt: no such file"),
    ([L2FWD, "--gen", "udp:flows=many"], "--gen udp:flows=many: flows=many is not a number"),
    ([L2FWD, "--sizes", "64,big"], "--sizes 64,big: expected numbers"),
    ([L2FWD, "--sizes", "32"], "--sizes 32: '32' is not within 64..9216"),
    ([L2FWD, "--workers", "0"], "--workers 0: at least 1"),
    ([L2FWD, "--cpus", "0", "--workers", "2"], "--cpus 0 gives 1 CPU(s) for 2 workers"),
    ([L2FWD, "--seconds", "0"], "--seconds 0: more than 0"),
    ([L2FWD, "--target", "nope"], "unknown target 'nope'"),
    ([L2FWD, "--gen", "udp6", "--sizes", "64"], "64-byte frames cannot hold its 66 bytes of headers"),
    ([L2FWD, "--latency", "--loads", "10,0"], "--loads 10,0: 1 to 16 percentages, each more than 0 and at most 100"),
    ([L2FWD, "--latency", "--loads", "half"], "--loads half: expected percentages such as 10,50,90"),
    ([L2FWD, "--latency", "--workers", "2"], "--latency runs one worker, not 2"),
    ([L2FWD, "--latency", "--cpus", "0", "--generator-cpu", "0"],
     "the switch and the generator both on CPU 0: give them different CPUs"),
    ([L2FWD, "--latency"], "--latency measures through DPDK's net_memif: it needs target x86-dpdk, not x86"),
])
def test_bad_input_is_one_line(args, message):
    run = bench(*args)
    assert run.returncode == 1
    assert run.stderr == f"<command line>: error: {message.format(repo=REPO)}\n" or \
        (run.stderr.count("\n") == 1 and message.format(repo=REPO) in run.stderr), run.stderr


def test_bad_pcap_is_one_line(tmp_path):
    (tmp_path / "x.pcap").write_bytes(b"garbage, not a capture file")
    run = bench(L2FWD, "--traffic", tmp_path / "x.pcap")
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "not a pcap file" in run.stderr


def test_a_program_that_does_not_compile(tmp_path):
    bad = tmp_path / "bad.p4"
    bad.write_text("#include <core.p4>\nheader h_t { bit<8> x }\n")
    run = bench(bad, "--seconds", 1)
    assert run.returncode == 1
    assert f"{bad}:2:" in run.stderr and "error:" in run.stderr and "Traceback" not in run.stderr
