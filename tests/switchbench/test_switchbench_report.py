"""The table, JSON document and plot of `p4odp bench` (switchbench/report.py)."""

import json
import sys

import pytest

from p4odp.switchbench import report
from p4odp.switchbench.linerate import CpuFrequency, summarize
from p4odp.switchbench.runner import BenchResult


def result(cpu=CpuFrequency(2.5e9, "/proc/cpuinfo cpu MHz")):
    return BenchResult("examples/l2fwd/l2fwd.p4", "x86", 2, 1.0, cpu,
                       [summarize(64, [14.0, 14.88, 15.0], cpu.hz if cpu else None, 2, [4.96] * 3),
                        summarize(1518, [0.8, 0.9, 1.0], cpu.hz if cpu else None, 2, [0.9] * 3)])


def test_table():
    lines = report.table(result()).splitlines()
    assert lines[0] == "examples/l2fwd/l2fwd.p4 on x86, 2 worker(s), 1 s per size"
    assert lines[1].split() == ["size", "Mpps", "\u00b1", "Gbit/s", "cycles/pkt", "10GbE", "25GbE", "40GbE",
                                "100GbE"]
    assert lines[2].split() == ["64", "14.880", "0.500", "7.619", "336", "100.0%", "40.0%", "25.0%", "10.0%"]
    assert lines[3].split()[:2] == ["1518", "0.900"]
    assert lines[4] == "packets sent per packet received (replication, drops): 64 B: 3.00"
    assert "derived" in lines[5] and "2.500 GHz from /proc/cpuinfo cpu MHz" in lines[5]
    assert "-" in report.table(result(cpu=None)).splitlines()[2].split()


def test_json_shape():
    doc = json.loads(report.to_json(result()))
    assert {k: doc[k] for k in ("program", "target", "workers", "seconds", "cpu_hz")} == {
        "program": "examples/l2fwd/l2fwd.p4", "target": "x86", "workers": 2, "seconds": 1.0, "cpu_hz": 2.5e9}
    first = doc["results"][0]
    assert first["size"] == 64 and first["mpps"] == 14.88 and first["rounds"] == [14.0, 14.88, 15.0]
    assert set(first["line_rate"]) == {"10", "25", "40", "100"}
    assert first["line_rate"]["10"] == pytest.approx(1.0, abs=1e-4)
    assert first["cycles_per_packet"] == pytest.approx(2 * 2.5e9 / 14.88e6)
    assert first["gbps"] == pytest.approx(14.88 * 64 * 8 / 1000)


def test_without_matplotlib_plot_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    with pytest.raises(report.PlotUnavailable, match=r"--plot needs matplotlib.*pip install 'p4odp\[bench\]'"):
        report.check_plot()


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'p4odp[bench]')")
    path = tmp_path / "bench.png"
    report.plot(result(), str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
