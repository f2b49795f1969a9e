"""Packet tests of the switch's v1model features (PSA's are p4c's STF tests, tests/conformance; PNA's
tests/backend/test_pna.py): every NAME.stf (or NAME-N.stf) here runs on NAME.p4,
on a switch with one worker and again with two (whose outputs must be the same).

Each program tests one feature, with its positive and its negative or edge cases; the expected
packets follow the P4_16 specification and BMv2 simple_switch's semantics.  A test that fails
because p4odp is wrong is listed in KNOWN_GAPS (a strict xfail: it must fail until the gap is
closed, then leave the list).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

# STF file name -> why p4odp fails it.
KNOWN_GAPS: dict[str, str] = {}


def _program(stf: Path) -> Path:
    return stf.with_name(re.sub(r"-\d+$", "", stf.stem) + ".p4")


def _cases() -> list:
    return [pytest.param(stf, id=stf.stem,
                         marks=[pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[stf.name])]
                         if stf.name in KNOWN_GAPS else [])
            for stf in sorted(HERE.glob("*.stf"))]


def test_every_stf_has_its_program():
    assert not [s.name for s in HERE.glob("*.stf") if not _program(s).exists()]
    assert set(KNOWN_GAPS) <= {s.name for s in HERE.glob("*.stf")}


@pytest.mark.parametrize("workers", [1, 2], ids=["w1", "w2"])
@pytest.mark.parametrize("stf", _cases())
def test_packets(stf: Path, workers: int, tmp_path: Path):
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "stf", str(_program(stf)), str(stf),
                             "--keep", str(tmp_path), "--workers", str(workers)], capture_output=True, text=True,
                            cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("PASS"), result.stdout
