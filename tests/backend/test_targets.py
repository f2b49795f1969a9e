"""Every example's STF tests and a slice of tests/packets on the targets other than x86 that
can run here: x86-dpdk (each port a net_pcap vdev), arm64 and armhf (cross-built, run under
qemu-user).  Each must pass and send exactly the packets x86 sends, port by port.

The tools each target needs are installed through apt when the tests run as root (as CI
does); otherwise the test is skipped, saying what is missing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import require_target

from p4odp.stf.pcap import read_packets

REPO = Path(__file__).resolve().parents[2]
PACKETS = REPO / "tests" / "packets"
EXAMPLE_TESTS = sorted((REPO / "examples").glob("*/*.stf"))
# The packet tests most likely to differ on another word size or byte order: values wider
# than 64 bits, 64-bit arithmetic, saturation and shifts, hashes and checksums (fields across
# 9 bytes), registers, action data of 100 bits and more, wide and narrow table keys of every
# match kind, select masks and ranges, stacks, unions, multicast replication.
PACKET_SLICE = ["arith", "arith64", "arith_wide", "wide_ops", "bits", "hash", "checksum", "registers",
                "registers_types", "action_params", "wide_default_action", "table_exact", "table_wide",
                "table_key_widths", "table_lpm", "table_ternary", "table_range", "const_entries", "select",
                "stack", "union", "multicast", "tuples"]
TARGETS = ["x86-dpdk", "arm64", "armhf"]
CASES = EXAMPLE_TESTS + [PACKETS / f"{name}.stf" for name in PACKET_SLICE]


def _program(stf: Path) -> Path:
    return stf.with_name(re.sub(r"-\d+$", "", stf.stem) + ".p4")


def _stf(stf: Path, target: str, keep: Path) -> dict[int, list[bytes]]:
    """Run the STF test on `target`; the packets each port sent."""
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "stf", str(_program(stf)), str(stf),
                             "--target", target, "--keep", str(keep)], capture_output=True, text=True, cwd=REPO,
                            timeout=600)
    assert result.returncode == 0 and result.stdout.startswith("PASS"), \
        f"{target}: {result.stdout}{result.stderr}"
    return {int(p.stem[3:]): read_packets(str(p)) for p in keep.glob("out*.pcap")}


@pytest.fixture(scope="module")
def x86_outputs(tmp_path_factory):
    """The x86 switch's packets for each case, computed once."""
    cache: dict[Path, dict] = {}

    def outputs(stf: Path) -> dict:
        if stf not in cache:
            cache[stf] = _stf(stf, "x86", tmp_path_factory.mktemp(f"x86-{stf.stem}"))
        return cache[stf]
    return outputs


def test_the_slice_exists():
    assert EXAMPLE_TESTS and all(case.exists() and _program(case).exists() for case in CASES)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("stf", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_stf_on_target_sends_what_x86_sends(target: str, stf: Path, tmp_path: Path, x86_outputs):
    require_target(target)
    sent = _stf(stf, target, tmp_path)
    assert sent == x86_outputs(stf)
