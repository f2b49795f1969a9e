"""Golden IR snapshots of the examples: `p4odp compile --emit ir` must not change by accident.

Regenerate with `python3 -m pytest tests/golden --update-golden` after an
intended change, and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.frontend.preprocess import architecture_include_dir

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent
EXAMPLES = sorted((REPO / "examples").glob("*/*.p4"))


def ir_dump(program_path: Path) -> str:
    """The IR as JSON, with machine-specific folders replaced by stable names."""
    diags = Diagnostics()
    program = load_program(str(program_path.relative_to(REPO)), FrontendOptions(), diags)
    assert program is not None, [str(d.loc) + ": " + d.message for d in diags.items]
    text = json.dumps(ir.to_json(program), indent=1) + "\n"
    return text.replace(architecture_include_dir(), "<p4odp-include>")


@pytest.mark.parametrize("program_path", EXAMPLES, ids=lambda p: p.stem)
def test_example_ir_matches_golden(program_path: Path, request, monkeypatch):
    monkeypatch.chdir(REPO)
    golden = GOLDEN / f"{program_path.stem}.ir.json"
    dump = ir_dump(program_path)
    if request.config.getoption("--update-golden"):
        golden.write_text(dump)
    assert golden.exists(), f"no golden file {golden.name}: run pytest with --update-golden"
    assert dump == golden.read_text(), f"IR of {program_path.name} changed; review, then --update-golden"


def test_every_example_has_a_golden_file():
    goldens = {p.name for p in GOLDEN.glob("*.ir.json")}
    assert goldens == {f"{p.stem}.ir.json" for p in EXAMPLES}
