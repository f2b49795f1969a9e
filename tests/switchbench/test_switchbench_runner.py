"""`p4odp bench` end to end (switchbench/runner.py): a real switch, replayed traffic, its counters.

A functional test: the rate must be above zero, never above a figure (the machine is shared)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support import require_target

from p4odp.switchbench.runner import parse_list

REPO = Path(__file__).resolve().parents[2]
L2FWD = REPO / "examples" / "l2fwd"


def bench(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "bench", *map(str, args)], capture_output=True,
                          text=True, cwd=REPO, timeout=timeout)


def test_parse_list():
    assert parse_list("0-3,6", "--ports", 0, 63) == [0, 1, 2, 3, 6]
    assert parse_list("1518,64,64", "--sizes", 64, 9216) == [1518, 64]
    for bad in ("", "a", "3-1", "64"):
        with pytest.raises(ValueError, match="--ports"):
            parse_list(bad, "--ports", 0, 63)


def check_json(path: Path, target: str, workers: int):
    doc = json.loads(path.read_text())
    assert doc["program"].endswith("l2fwd.p4") and doc["target"] == target
    assert doc["workers"] == workers and doc["seconds"] == 1
    [result] = doc["results"]
    assert result["size"] == 64 and len(result["rounds"]) == 5
    assert result["mpps"] > 0 and all(rate > 0 for rate in result["rounds"])
    assert result["gbps"] == pytest.approx(result["mpps"] * 64 * 8 / 1000)
    assert set(result["line_rate"]) == {"10", "25", "40", "100"}
    assert result["line_rate"]["10"] == pytest.approx(result["mpps"] / 14.880952, rel=1e-5)
    if doc["cpu_hz"] is not None:
        assert result["cycles_per_packet"] > 0
    return doc


@pytest.mark.parametrize("workers", [1, 2])
def test_bench_l2fwd_x86(tmp_path, workers):
    """l2fwd's hosts 1..3 as destinations: every frame is forwarded to one port."""
    run = bench(L2FWD / "l2fwd.p4", "--target", "x86", "--seconds", 1, "--sizes", 64, "--warmup", 0.3,
                "--commands", L2FWD / "commands.txt", "--gen", "eth:flows=64,dst-mac=00:00:00:00:00:01+3",
                "--workers", workers, "--json", tmp_path / "bench.json", "--keep", tmp_path / "work")
    assert run.returncode == 0, run.stderr
    doc = check_json(tmp_path / "bench.json", "x86", workers)
    assert doc["results"][0]["rx_mpps"] == pytest.approx(doc["results"][0]["mpps"], rel=0.05)
    lines = run.stdout.splitlines()
    assert lines[1].split()[:3] == ["size", "Mpps", "\u00b1"] and lines[2].split()[0] == "64"
    assert "Traceback" not in run.stderr
    script = (tmp_path / "work" / "size64" / "run.sh").read_text()
    assert "pcap:in=" in script and ":loops=0:cache" in script and "1=null1" in script


def test_bench_json_on_stdout_and_the_flood(tmp_path):
    """Unknown destinations are flooded to 3 ports: 3 packets sent for each received."""
    run = bench(L2FWD / "l2fwd.p4", "--seconds", 1, "--sizes", 64, "--warmup", 0.3, "--rounds", 2,
                "--commands", L2FWD / "commands.txt", "--json")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    [result] = doc["results"]
    assert len(result["rounds"]) == 2 and result["mpps"] > 0
    assert result["mpps"] / result["rx_mpps"] == pytest.approx(3, rel=0.05)
    assert "packets sent per packet received" in run.stderr


@pytest.mark.parametrize("memory", [[], ["--no-hugepages"]], ids=["hugepages", "no-hugepages"])
def test_bench_l2fwd_x86_dpdk(tmp_path, memory):
    """On 2 MB hugepages by default, as DPDK is deployed (reserved as root; without them to be
    had, it says so and runs with --no-huge), or without them when told."""
    require_target("x86-dpdk")
    run = bench(L2FWD / "l2fwd.p4", "--target", "x86-dpdk", "--seconds", 1, "--sizes", 64, "--warmup", 0.3,
                "--commands", L2FWD / "commands.txt", "--gen", "udp:flows=64,dst-mac=00:00:00:00:00:02",
                "--json", tmp_path / "bench.json", "--keep", tmp_path / "work", *memory)
    assert run.returncode == 0, run.stderr
    doc = check_json(tmp_path / "bench.json", "x86-dpdk", 1)
    script = (tmp_path / "work" / "size64" / "run.sh").read_text()
    assert "infinite_rx=1" in script and "net_null1,no-rx=1" in script
    if memory:
        assert doc["memory"] == "no hugepages (--no-hugepages)" and "--no-huge" in script
    elif doc["memory"] == "2 MB hugepages":
        assert "--no-huge" not in script and "--huge-unlink" in script and "hugepages: " in run.stderr
    else:
        assert doc["memory"] == "no hugepages (none to be had)" and "running without them" in run.stderr
    assert doc["memory"] in run.stdout.splitlines()[0]


def test_a_program_that_drops_everything_is_an_error(tmp_path):
    """Without the commands file l2fwd floods to a group that does not exist: nothing leaves."""
    run = bench(L2FWD / "l2fwd.p4", "--seconds", 0.2, "--rounds", 1, "--sizes", 64, "--warmup", 0)
    assert run.returncode == 1
    assert "received" in run.stderr and "sent none" in run.stderr and "--commands" in run.stderr
    assert "Traceback" not in run.stderr
