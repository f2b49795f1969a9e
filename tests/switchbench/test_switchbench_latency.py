"""`p4odp bench --latency` (switchbench/latency.py and its generator, latency_gen.c): a real
switch between memif links, its report's figures consistent with each other.

Functional, not a measure: nothing is compared with a figure (the machine is shared)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import require_target

from p4odp.switchbench import latency
from p4odp.switchbench.traffic import generate
from p4odp.switchbench.spec import parse_spec

REPO = Path(__file__).resolve().parents[2]
L2FWD = REPO / "examples" / "l2fwd"


def test_the_stamp_needs_room_after_the_headers():
    udp = generate(parse_spec("udp:flows=4"), 64)   # 42 bytes of headers, 60 in all: room for 16
    latency.check_frames(udp, 64)
    tcp = generate(parse_spec("tcp:flows=4"), 64)   # 54 bytes of headers
    with pytest.raises(latency.LatencyError, match="use frames of 74 bytes or more"):
        latency.check_frames(tcp, 64)
    with pytest.raises(latency.LatencyError, match="at most 1518 bytes"):
        latency.check_frames(generate(parse_spec("udp"), 2048), 2048)


def test_two_cpus_are_needed():
    cpus = sorted(os.sched_getaffinity(0))
    with pytest.raises(latency.LatencyError, match="different CPUs"):
        latency.pick_cpus(cpus[0], cpus[0])
    if len(cpus) > 1:
        assert latency.pick_cpus(None, None) == (cpus[-1], cpus[0])


def test_p4odp_commands_get_the_eal_arguments_in_their_environment():
    switch = latency.Device("switch", "p4odp", Path("/x/switch"), ("-w", "1"))
    argv, env = switch.command(["-l", "1", "--vdev", "net_memif0,role=client"])
    assert argv == ["/x/switch", "-w", "1"] and env == {"ODP_PLATFORM_PARAMS": "-l 1 --vdev net_memif0,role=client"}
    argv, env = latency.forwarder(Path("/x/gen")).command(["-l", "1"])
    assert argv == ["/x/gen", "-l", "1", "--", "--forward"] and env == {}


def check_run(run: dict, loads: list):
    assert run["max_pps"] > 0 and run["max_received"] <= run["max_sent"]
    assert [entry["load"] for entry in run["loads"]] == loads
    for entry in run["loads"]:
        assert entry["sent"] > 0 and entry["received"] > 0
        assert entry["received"] == entry["sent"] - entry["lost"]
        assert 0 <= entry["refused"] <= entry["lost"]
        assert entry["rate_pps"] == pytest.approx(run["max_pps"] * entry["load"] / 100)
        assert 0 <= entry["min_us"] <= entry["p50_us"] <= entry["p99_us"] <= entry["p999_us"] <= entry["max_us"]
        assert entry["min_us"] <= entry["mean_us"] <= entry["max_us"]
        assert sum(entry["histogram"]["counts"]) == entry["received"]


def test_latency_of_l2fwd_on_x86_dpdk(tmp_path):
    require_target("x86-dpdk")
    reason = latency.generator_missing()
    if reason:
        pytest.skip(reason)
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("--latency runs the switch and the generator on a CPU each: this process may use one")
    run = subprocess.run(
        [sys.executable, "-m", "p4odp.cli", "bench", str(L2FWD / "l2fwd.p4"), "--target", "x86-dpdk", "--latency",
         "--seconds", "0.3", "--warmup", "0.1", "--commands", str(L2FWD / "commands.txt"),
         "--gen", "udp:flows=64,dst-mac=00:00:00:00:00:02", "--json", str(tmp_path / "latency.json"),
         "--no-hugepages"],
        capture_output=True, text=True, cwd=REPO, timeout=300)
    if run.returncode != 0 and "rte_eal_init failed" in run.stderr:
        pytest.skip(f"DPDK's EAL does not start here without hugepages (--no-huge): {run.stderr.strip()[-300:]}")
    assert run.returncode == 0, run.stderr
    doc = json.loads((tmp_path / "latency.json").read_text())
    assert doc["latency"] is True and doc["target"] == "x86-dpdk" and doc["hugepages"] is False
    assert doc["cpus"]["switch"] != doc["cpus"]["generator"]
    [result] = doc["results"]
    assert result["size"] == 64
    check_run(result["switch"], [10, 50, 90])
    check_run(result["baseline"], [10, 50, 90])
    assert result["switch"]["loads"][0]["copies"] == 0   # every frame to one known host
    lines = run.stdout.splitlines()
    assert f"pinned to CPU {doc['cpus']['switch']}, the generator to CPU {doc['cpus']['generator']}" in lines[0]
    assert [line.split()[:2] for line in lines[2:4]] == [["load", "Mpps"], ["switch", "max"]]
    assert "Traceback" not in run.stderr
