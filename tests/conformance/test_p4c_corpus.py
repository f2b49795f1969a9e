"""The front end against p4c's test corpus (run only when it is there).

Set P4C_TESTDATA to the `testdata` folder of a p4c checkout; it is never
part of this repository.  The thresholds are the front end's targets:
at least 97% of p4_16_samples accepted, at least 95% of p4_16_errors
rejected with a positioned error, and no crash anywhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support import load_script

ACCEPT_TARGET = 0.97
REJECT_TARGET = 0.95
MAX_LISTED = 40  # failures shown in an assertion message


harness = load_script(Path(__file__).with_name("p4c_corpus.py"), "p4c_corpus")


def _corpus(name: str) -> str:
    testdata = os.environ.get("P4C_TESTDATA")
    if not testdata:
        pytest.skip("P4C_TESTDATA is not set (point it at p4c's testdata folder to run the corpus)")
    directory = os.path.join(testdata, name)
    if not os.path.isdir(directory):
        pytest.skip(f"P4C_TESTDATA has no {name} folder: {directory}")
    return directory


def _run(name: str, expect: str):
    """The summary of one folder and the first failures, one per line."""
    summary = harness.run_corpus(_corpus(name), expect, jobs=os.cpu_count() or 2)
    failures = [f"{r.outcome} {os.path.basename(r.path)}: {r.detail}"
                for r in summary.results if r.outcome != "pass"]
    if len(failures) > MAX_LISTED:
        failures[MAX_LISTED:] = [f"... and {len(failures) - MAX_LISTED} more"]
    return summary, "\n".join(failures)


def _assert_targets(summary, failures: str, target: float) -> None:
    total, crashes, ratio = summary.total, summary.crashes, summary.ratio
    assert total > 0, f"no program to check in {summary.directory}"
    assert crashes == 0, f"{summary.summary_line()}, crashes: {crashes}\n{failures}"
    assert ratio >= target, f"{summary.summary_line()}, target {target:.0%}\n{failures}"


def test_samples_are_accepted():
    summary, failures = _run("p4_16_samples", "accept")
    _assert_targets(summary, failures, ACCEPT_TARGET)


def test_errors_are_rejected():
    summary, failures = _run("p4_16_errors", "reject")
    _assert_targets(summary, failures, REJECT_TARGET)
