#!/usr/bin/env python3
"""Measure `p4odp check` against a folder of p4c's test programs.

    python3 tests/conformance/p4c_corpus.py DIR [--expect accept|reject]
            [--jobs N] [--list-failures] [--timeout S]

Runs `p4odp check` on every `*.p4` directly in DIR whose `#include`s name
only core.p4, v1model.p4 or files that exist beside the including file
(followed recursively); programs for other architectures are skipped.

With `--expect accept` (p4c's `p4_16_samples`) a program passes when the
check exits 0.  With `--expect reject` (`p4_16_errors`) it passes when the
check exits 1 and prints at least one positioned `file:line:col: error: `
line.  Whatever is expected, exit 2, death by a signal, a timeout or a
Python traceback in the output is a crash, counted separately.  Without
`--expect`, a folder whose name ends in `_errors` is expected to be rejected.

This is a measuring tool: it exits 0 whatever the numbers are, and non-zero
only when it cannot run (no such folder, bad arguments).  It contains no
p4c file and downloads nothing; fetch p4c's `testdata` yourself.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import os
import re
import subprocess
import sys

__all__ = ["Result", "Summary", "eligible_programs", "check_one", "run_corpus", "main"]

def _architecture_includes() -> frozenset[str]:
    """core.p4 and the names programs include p4odp's architectures by (v1model.p4, bmv2/psa.p4, ...)."""
    from p4odp.transpiler.architectures import load_architectures

    return frozenset({"core.p4", *(name for arch in load_architectures().values() for name in arch.include_files)})


ARCHITECTURE_INCLUDES = _architecture_includes()

_INCLUDE = re.compile(r'^\s*#\s*include\s*(?:<([^>]*)>|"([^"]*)"|(.*))', re.MULTILINE)
_POSITIONED_ERROR = re.compile(r"^[^:\n]+:\d+:\d+: error: ", re.MULTILINE)
_TRACEBACK = "Traceback (most recent call last):"


@dataclasses.dataclass(frozen=True)
class Result:
    path: str
    outcome: str  # "pass", "fail" or "crash"
    detail: str = ""  # why it failed or crashed: one line


@dataclasses.dataclass
class Summary:
    directory: str
    expect: str
    results: list[Result]
    skipped: list[tuple[str, str]]  # (path, reason) of the programs not run

    @property
    def total(self) -> int:
        return len(self.results)

    def count(self, outcome: str) -> int:
        return sum(1 for r in self.results if r.outcome == outcome)

    @property
    def passed(self) -> int:
        return self.count("pass")

    @property
    def crashes(self) -> int:
        return self.count("crash")

    @property
    def ratio(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def summary_line(self) -> str:
        verb = "accepted" if self.expect == "accept" else "rejected"
        return f"{verb}: {self.passed} of {self.total} ({100 * self.ratio:.1f}%)"


def include_problem(path: str, _seen: frozenset[str] = frozenset()) -> str | None:
    """Why `path` cannot be checked here (an include we do not provide), or None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            text = source.read()
    except OSError as err:
        return f"unreadable: {err.strerror}"
    seen = _seen | {os.path.realpath(path)}
    for match in _INCLUDE.finditer(text):
        angled, quoted, other = match.groups()
        name = angled if angled is not None else quoted
        if name is None:
            return f"computed #include {other.strip()}"
        name = name.strip()
        if name in ARCHITECTURE_INCLUDES:
            continue
        local = os.path.join(os.path.dirname(path), name)
        if not os.path.isfile(local):
            return f"includes {name}"
        if os.path.realpath(local) in seen:
            continue
        problem = include_problem(local, seen)
        if problem is not None:
            return f"{name}: {problem}"
    return None


def eligible_programs(directory: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The programs of `directory` to check, and the (path, reason) of those skipped."""
    programs, skipped = [], []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.endswith(".p4"):
            continue
        if not os.path.isfile(path):
            skipped.append((path, "not a readable file"))
            continue
        problem = include_problem(path)
        if problem is None:
            programs.append(path)
        else:
            skipped.append((path, problem))
    return programs, skipped


def _check_command() -> list[str]:
    # The installed p4odp (`make setup`); -P keeps the current folder off sys.path.
    return [sys.executable, "-P", "-m", "p4odp.cli", "check"]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["P4ODP_TRACEBACK"] = "1"  # a crash report then names the faulty line of p4odp
    return env


def _first_line(text: str, pattern: re.Pattern[str] | None = None) -> str:
    for line in text.splitlines():
        if line.strip() and (pattern is None or pattern.match(line)):
            return line.strip()
    return ""


def _crash_detail(output: str, returncode: int) -> str:
    lines = output.splitlines()
    where = [line.strip() for line in lines if line.lstrip().startswith('File "')]
    message = next((line.strip() for line in lines if "internal error" in line), "")
    if not message and _TRACEBACK in output:
        message = next((line.strip() for line in reversed(lines) if line.strip()), "")
    detail = message or f"exit {returncode}"
    return f"{detail} ({where[-1]})" if where else detail


def check_one(path: str, expect: str, timeout: float) -> Result:
    """Run `p4odp check` on one program and judge the outcome."""
    try:
        run = subprocess.run([*_check_command(), path], capture_output=True, text=True,
                             errors="replace", timeout=timeout, stdin=subprocess.DEVNULL,
                             env=_environment())
    except subprocess.TimeoutExpired:
        return Result(path, "crash", f"timeout after {timeout:g} s")
    output = run.stdout + run.stderr
    if run.returncode < 0:
        return Result(path, "crash", f"killed by signal {-run.returncode}")
    if run.returncode == 2 or _TRACEBACK in output:
        return Result(path, "crash", _crash_detail(output, run.returncode))
    if expect == "accept":
        if run.returncode == 0:
            return Result(path, "pass")
        return Result(path, "fail", _first_line(output, _POSITIONED_ERROR) or _first_line(output)
                      or f"exit {run.returncode}")
    if run.returncode == 1 and _POSITIONED_ERROR.search(output):
        return Result(path, "pass")
    if run.returncode == 0:
        return Result(path, "fail", "accepted")
    return Result(path, "fail", f"exit {run.returncode} without a positioned error: "
                  f"{_first_line(output) or '(no output)'}")


def default_expect(directory: str) -> str:
    name = os.path.basename(os.path.normpath(directory))
    return "reject" if name.endswith("_errors") else "accept"


def run_corpus(directory: str, expect: str | None = None, jobs: int = 2,
               timeout: float = 60.0) -> Summary:
    """Check every eligible program of `directory`, `jobs` processes at a time."""
    expect = expect or default_expect(directory)
    programs, skipped = eligible_programs(directory)
    # Each job is a `p4odp check` process; the threads only wait for them.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(lambda p: check_one(p, expect, timeout), programs))
    return Summary(directory, expect, results, skipped)


def report(summary: Summary, list_failures: bool, out=sys.stdout) -> None:
    if list_failures:
        for result in summary.results:
            if result.outcome != "pass":
                label = "CRASH" if result.outcome == "crash" else "FAIL"
                out.write(f"{label} {os.path.basename(result.path)}: {result.detail}\n")
    out.write(f"{summary.directory}: {summary.total} programs checked, "
              f"{len(summary.skipped)} skipped (other architectures or includes)\n")
    out.write(summary.summary_line() + "\n")
    out.write(f"crashes: {summary.crashes}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", metavar="DIR", help="a folder of P4 programs, e.g. p4c's "
                        "testdata/p4_16_samples or testdata/p4_16_errors")
    parser.add_argument("--expect", choices=["accept", "reject"],
                        help="what a correct front end does with these programs (default: reject "
                             "when DIR's name ends in _errors, else accept)")
    parser.add_argument("--jobs", type=int, default=2, metavar="N",
                        help="programs checked at the same time (default 2)")
    parser.add_argument("--list-failures", action="store_true",
                        help="print one line per failed or crashed program")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S",
                        help="seconds allowed for one program; more is a crash (default 60)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.directory):
        parser.error(f"{args.directory}: no such folder")
    summary = run_corpus(args.directory, args.expect, args.jobs, args.timeout)
    report(summary, args.list_failures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
