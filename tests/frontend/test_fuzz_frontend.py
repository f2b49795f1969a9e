"""A short run of bench/fuzz_frontend.py: 400 mutants of the repository's programs (a token deleted,
duplicated, swapped, replaced, the text cut short, stray bytes, a line deleted) through the front
end, the midend and the C generator: no traceback, no rejection without a position, no hang.  The
mutants are drawn from a fixed seed; what longer runs found is in tests/frontend/invalid."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FUZZER = Path(__file__).resolve().parents[2] / "bench" / "fuzz_frontend.py"


def test_mutants_of_the_repository_programs_are_rejected_with_a_position_or_accepted(tmp_path: Path):
    run = subprocess.run([sys.executable, str(FUZZER), "--count", "400", "--seed", "17", "--jobs", "2",
                          "--out", str(tmp_path)], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "400 mutants" in run.stdout and "0 tracebacks" in run.stdout and "0 hangs" in run.stdout
