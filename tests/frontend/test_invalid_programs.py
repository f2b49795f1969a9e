"""The front end on a corpus of invalid programs: tests/frontend/invalid/*.p4.

Each program is a v1model program (or close to one) with one mistake a network
engineer makes, and says in comments which diagnostics p4odp must give for it:

    // expect error@LINE:COL: MESSAGE SUBSTRING
    // expect error: MESSAGE SUBSTRING          (any position, any file)
    // expect warning@LINE:COL: MESSAGE SUBSTRING

A program whose first line is `// xfail: REASON` is a known gap of p4odp: its
expectations say what a user should get, which p4odp does not give yet.  Such a
program is a strict xfail, so the test fails (XPASS) once the gap is closed;
then remove the `xfail` line.

Checks, for every program: the front end reports at least one error and does
not crash; every expectation is met by a diagnostic of that severity, at that
position in the program, whose message contains the substring; no error or
warning points outside the program's own lines (notes may point at the
declarations they refer to, in core.p4 or v1model.p4 too).  Programs named
`pp_*` are preprocessor and include cases, exempt from the last check: their
errors come from cpp, in an included file or without a line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from p4odp.diagnostics import CompileError, Diagnostic, Diagnostics, Loc
from p4odp.frontend import FrontendOptions, load_program

INVALID_DIR = Path(__file__).parent / "invalid"
PROGRAMS = sorted(INVALID_DIR.glob("*.p4"))

_EXPECT = re.compile(r"//\s*expect\s+(error|warning)(?:@(\d+):(\d+))?:\s*(\S.*?)\s*$")
_XFAIL = re.compile(r"//\s*xfail:\s*(\S.*?)\s*$")
# `file:line:col: severity: message`, as the CLI prints it.
_CLI_DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")

# A few programs also checked through the CLI, one per kind of stage.
CLI_PROGRAMS = [
    "syntax_missing_semicolon_field",
    "syntax_width_without_value",
    "name_undeclared_variable",
    "type_width_mismatch_assignment",
    "table_default_action_not_listed",
    "v1model_switch_arguments_swapped",
    "pp_missing_include",
    "pp_v1model_version_unknown",
]


@dataclass(frozen=True)
class Expectation:
    severity: str
    line: int | None
    col: int | None
    text: str

    def __str__(self) -> str:
        where = f"@{self.line}:{self.col}" if self.line is not None else ""
        return f"{self.severity}{where}: {self.text}"


@dataclass(frozen=True)
class Case:
    path: Path
    expectations: tuple[Expectation, ...]
    xfail: str | None
    line_count: int
    bad_comments: tuple[str, ...]  # `// expect` or `// xfail` lines that do not parse

    @property
    def is_preprocessor_case(self) -> bool:
        return self.path.name.startswith("pp_")


def read_case(path: Path) -> Case:
    lines = path.read_text(encoding="utf-8").splitlines()
    expectations, bad = [], []
    xfail = None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if re.match(r"//\s*expect\b", stripped):
            match = _EXPECT.fullmatch(stripped)
            if match is None:
                bad.append(f"line {number}: {stripped}")
                continue
            severity, exp_line, exp_col, text = match.groups()
            expectations.append(Expectation(severity, int(exp_line) if exp_line else None,
                                            int(exp_col) if exp_col else None, text))
        elif re.match(r"//\s*xfail\b", stripped):
            match = _XFAIL.fullmatch(stripped)
            if match is None or number != 1:
                bad.append(f"line {number}: {stripped} (xfail goes on the first line, with a reason)")
                continue
            xfail = match.group(1)
    return Case(path, tuple(expectations), xfail, len(lines), tuple(bad))


CASES = [read_case(path) for path in PROGRAMS]


def _params(cases: list[Case]) -> list:
    params = []
    for case in cases:
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        params.append(pytest.param(case, id=case.path.stem, marks=marks))
    return params


def run_in_process(path: Path) -> list[Diagnostic]:
    """The diagnostics of the whole front end on `path`; any exception but CompileError is a crash."""
    diags = Diagnostics(max_errors=1000)
    try:
        load_program(str(path), FrontendOptions(), diags)
    except CompileError:
        pass
    return diags.items


def run_cli(path: Path) -> tuple[int, str, list[Diagnostic]]:
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "check", str(path)],
                            capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    diagnostics = []
    for line in output.splitlines():
        match = _CLI_DIAGNOSTIC.match(line)
        if match:
            file, line_no, col, severity, message = match.groups()
            diagnostics.append(Diagnostic(severity, Loc(file, int(line_no), int(col)), message))
    return result.returncode, output, diagnostics


def _same_file(loc: Loc, path: Path) -> bool:
    try:
        return os.path.samefile(loc.file, path)
    except OSError:
        return False


def _render(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(f"  {d.loc}: {d.severity}: {d.message}" for d in diagnostics) or "  (none)"


def check_diagnostics(case: Case, diagnostics: list[Diagnostic]) -> None:
    """Assert the corpus rules (see the module docstring) on one program's diagnostics."""
    got = _render(diagnostics)
    assert any(d.severity == "error" for d in diagnostics), f"no error reported; got:\n{got}"
    for exp in case.expectations:
        matches = [
            d for d in diagnostics
            if d.severity == exp.severity and exp.text in d.message
            and (exp.line is None or (_same_file(d.loc, case.path)
                                      and (d.loc.line, d.loc.col) == (exp.line, exp.col)))
        ]
        assert matches, f"expected {exp}; got:\n{got}"
    if not case.is_preprocessor_case:
        outside = [
            d for d in diagnostics
            if d.severity != "note"
            and not (_same_file(d.loc, case.path) and 1 <= d.loc.line <= case.line_count)
        ]
        assert not outside, f"diagnostics outside {case.path.name}'s own lines:\n{_render(outside)}"


# ----------------------------------------------------------------------------
# The corpus itself


def test_corpus_is_large_enough():
    assert len(CASES) >= 60


@pytest.mark.parametrize("case", [pytest.param(c, id=c.path.stem) for c in CASES])
def test_corpus_file_is_well_formed(case: Case):
    assert not case.bad_comments, "malformed comments:\n" + "\n".join(case.bad_comments)
    assert any(e.severity == "error" for e in case.expectations), "no `// expect error` line"
    for exp in case.expectations:
        if exp.line is not None:
            assert 1 <= exp.line <= case.line_count, f"{exp}: line outside the file"
    text = case.path.read_text(encoding="utf-8")
    assert "\t" not in text, "use spaces"
    assert text.endswith("\n")


def test_corpus_covers_every_category():
    prefixes = {c.path.stem.split("_", 1)[0] for c in CASES}
    assert prefixes >= {"syntax", "name", "type", "lvalue", "v1model", "table", "parser",
                        "switch", "function", "annotation", "extern", "decl", "pp"}


# ----------------------------------------------------------------------------
# The front end on each program


@pytest.mark.parametrize("case", _params(CASES))
def test_invalid_program(case: Case):
    check_diagnostics(case, run_in_process(case.path))


@pytest.mark.parametrize("case", _params([c for c in CASES if c.path.stem in CLI_PROGRAMS]))
def test_invalid_program_through_cli(case: Case):
    status, output, diagnostics = run_cli(case.path)
    assert "Traceback" not in output
    assert status == 1, f"exit status {status}; output:\n{output}"
    check_diagnostics(case, diagnostics)


def test_cli_programs_exist():
    assert {c.path.stem for c in CASES} >= set(CLI_PROGRAMS)
