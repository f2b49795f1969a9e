"""bench/results/history/*.json, the kept benchmark runs, and bench/plot_history.py, which draws the
plots of docs/results.md from them: every run says when, where, how and what it measured, and the
plots are drawn from what the files hold."""

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HISTORY = REPO / "bench" / "results" / "history"


def histories() -> list[Path]:
    return sorted(HISTORY.glob("*.json"))


def test_there_are_histories():
    names = {p.stem for p in histories()}
    assert {"dpdk_side_by_side", "pipeline_instructions", "worker_instructions", "fuzz_datapaths"} <= names


@pytest.mark.parametrize("path", histories(), ids=lambda p: p.stem)
def test_every_run_says_when_where_how_what(path: Path):
    doc = json.loads(path.read_text())
    assert doc["benchmark"] == path.stem and doc["description"] and doc["runs"]
    dates = []
    for run in doc["runs"]:
        for key in ("date", "machine", "command"):
            assert run.get(key), f"{path.name}: a run without its {key}: {run}"
        dates.append(datetime.fromisoformat(run["date"].replace("Z", "+00:00")))
        figures = set(run) - {"date", "commit", "machine", "command", "note", "label"}
        assert figures, f"{path.name}: a run without figures: {run}"
    assert dates == sorted(dates), f"{path.name}: runs not oldest first"


def test_plots_are_drawn(tmp_path: Path):
    pytest.importorskip("matplotlib", reason="matplotlib is in the test extras: make setup installs it")
    run = subprocess.run([sys.executable, str(REPO / "bench" / "plot_history.py"), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    for name in ("dpdk_side_by_side_history.svg", "instructions_history.svg"):
        assert (tmp_path / name).read_text().lstrip().startswith("<?xml"), name
        assert (REPO / "docs" / "img" / name).exists(), f"docs/img/{name}: run python3 bench/plot_history.py"
