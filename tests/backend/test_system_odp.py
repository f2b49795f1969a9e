"""The examples built against a system ODP (odp-linux, odp-dpdk) instead of the bundled one.

Set P4ODP_ODP_PREFIX to an ODP installation prefix (e.g. /opt/odp-linux), or install one where
pkg-config finds `libodp-linux`; without either the test is skipped, saying why.

The arm64 cross build against a cross-built odp-linux runs when P4ODP_ODP_ARM64_PREFIX names its
prefix; P4ODP_ARM64_SYSROOT (passed as --sysroot) then names a root holding the libraries that
odp-linux needs (libconfig, libcrypto, libpcap) and, under qemu-user before 8.x, a proc/cpuinfo
of an ARM CPU: odp-linux's aarch64 init fails on the host's x86 /proc/cpuinfo ("CPU frequency
not available").
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PREFIX = os.environ.get("P4ODP_ODP_PREFIX")


def _system_odp_arguments() -> list[str]:
    if PREFIX:
        return ["--odp-prefix", PREFIX]
    if shutil.which("pkg-config") and subprocess.run(["pkg-config", "--exists", "libodp-linux"]).returncode == 0:
        return []
    pytest.skip("no system ODP: set P4ODP_ODP_PREFIX or install odp-linux where pkg-config finds it")


@pytest.mark.parametrize("example", ["l2fwd", "l3fwd"])
def test_example_stf_against_system_odp(example: str, tmp_path: Path):
    arguments = _system_odp_arguments()
    folder = REPO / "examples" / example
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "stf", str(folder / f"{example}.p4"),
                             str(folder / f"{example}.stf"), "--keep", str(tmp_path), *arguments],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("PASS")


@pytest.mark.parametrize("example", ["l2fwd", "l3fwd"])
def test_example_stf_against_cross_built_odp(example: str, tmp_path: Path):
    prefix = os.environ.get("P4ODP_ODP_ARM64_PREFIX")
    if not prefix:
        pytest.skip("no cross-built ODP: set P4ODP_ODP_ARM64_PREFIX (and P4ODP_ARM64_SYSROOT)")
    sysroot = os.environ.get("P4ODP_ARM64_SYSROOT")
    folder = REPO / "examples" / example
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "stf", str(folder / f"{example}.p4"),
                             str(folder / f"{example}.stf"), "--keep", str(tmp_path), "--target", "arm64",
                             "--odp-prefix", prefix, *(["--sysroot", sysroot] if sysroot else [])],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("PASS")
