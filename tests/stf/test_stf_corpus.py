"""The STF parser against every `.stf` of p4c's p4_16_samples (run only when it is there).

Set P4C_TESTDATA to the `testdata` folder of a p4c checkout; it is never part
of this repository.  Every file must parse without a single diagnostic.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from p4odp.diagnostics import Diagnostics, format_diagnostic
from p4odp.stf.parser import expected_outputs, parse_stf_file

MAX_LISTED = 40  # diagnostics shown in an assertion message


def _samples() -> Path:
    testdata = os.environ.get("P4C_TESTDATA")
    if not testdata:
        pytest.skip("P4C_TESTDATA is not set (point it at p4c's testdata folder to parse "
                    "its STF tests)")
    directory = Path(testdata) / "p4_16_samples"
    if not directory.is_dir():
        pytest.skip(f"P4C_TESTDATA has no p4_16_samples folder: {directory}")
    return directory


def test_every_sample_stf_parses_without_diagnostics():
    files = sorted(_samples().rglob("*.stf"))
    assert files, "no .stf file in p4_16_samples"
    diags = Diagnostics(max_errors=100_000)
    statements = 0
    for path in files:
        parsed = parse_stf_file(str(path), diags)
        statements += len(parsed)
        expected_outputs(parsed)
    listed = "".join(format_diagnostic(d) for d in diags.items[:MAX_LISTED])
    assert not diags.items, f"{len(diags.items)} diagnostic(s) in {len(files)} files:\n{listed}"
    assert statements > 0
