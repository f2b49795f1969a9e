"""A short run of bench/soak.py: two workers forward while one control-channel client rewrites
the entries of two tables (exact and lpm) as fast as the switch answers, by table_modify and by
table_delete then table_add.  Each entry's action data says whether it was read whole, so the
switch's own port counters tell: no packet forwarded by a torn entry, no entry missing that was
never deleted, no packet lost, no command refused, the switch still up and exiting 0 at
SIGTERM."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from p4odp.stf.pcap import write_pcap
from support import load_script

SOAK_SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "soak.py"
soak = load_script(SOAK_SCRIPT, "bench_soak")


@pytest.fixture(scope="module")
def soak_switch(tmp_path_factory) -> Path:
    return soak.build(tmp_path_factory.mktemp("soak"))


def test_entries_changed_under_traffic_are_never_read_half_written(soak_switch: Path, tmp_path: Path):
    result = soak.soak(soak_switch, tmp_path, seconds=4, workers=2, rate=0, warmup=0.5)
    assert result.failures(rate=0, max_rss_growth_kib=4096) == []
    assert result.torn == 0 and result.lost == 0 and result.refused == []
    assert not result.stopped and result.exit_status == 0
    # At least one round trip measured: every flow's entries changed, whatever the machine's load
    # (not a timing test).
    assert result.updates >= len(soak.TABLES) * soak.FLOWS and result.ports[soak.FORWARDED] > 10000
    assert result.received == sum(result.ports.values()) + result.dropped


def test_the_program_tells_a_torn_misplaced_or_lost_entry(soak_switch: Path, tmp_path: Path):
    """What the soak counts on: an entry whose parameters are not one version's, or another flow's,
    sends its packets out of port 2; an even flow without an entry out of port 3, an odd one out of
    port 4."""
    changes = ("table_modify by_mac version_a 1 => 0x020202020202 0x02020202 0x0202020201010101 1\n"  # c half 2, half 1
               f"table_modify by_ip version_b 2 => {soak.action_data('version_b', 2, 3)}\n"  # flow 3's data for flow 2
               "table_delete by_ip 4\n"  # to the /8, whose action is the miss's
               "table_delete by_mac 5\n")
    (tmp_path / "commands.txt").write_text(soak.Churn().initial_commands() + changes)
    write_pcap(str(tmp_path / "in.pcap"), soak.frames())
    run = subprocess.run([str(soak_switch), "--exit-when-done", "--commands", str(tmp_path / "commands.txt"),
                          "-i", f"0=pcap:in={tmp_path / 'in.pcap'}",
                          *(arg for port in soak.OUTPUTS for arg in ("-i", f"{port}=null{port}"))],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    received, ports, dropped = soak.final_counters(run.stderr)
    per_flow = len(soak.frames()) // soak.FLOWS
    assert (received, dropped) == (len(soak.frames()), 0)
    assert ports == {soak.FORWARDED: received - 4 * per_flow, soak.TORN: 2 * per_flow, soak.MISSED: per_flow,
                     soak.LOST: per_flow}
