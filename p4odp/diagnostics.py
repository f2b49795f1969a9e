"""Positioned diagnostics, printed the way p4c and C compilers print them.

User errors are collected in a `Diagnostics` object and reported together;
they never escape as exceptions.  `CompileError` only unwinds a stage once
its errors are recorded.  Compiler bugs are `InternalError`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TextIO

__all__ = ["Loc", "Diagnostic", "Diagnostics", "CompileError", "InternalError", "Unsupported", "NO_LOC"]


@dataclass(frozen=True, slots=True)
class Loc:
    """A position in a user's source file (1-based line and column)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file  # a whole file, or the command line: no position to give
        if self.col <= 0:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"


NO_LOC = Loc("<builtin>", 0, 0)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: str  # "error", "warning" or "note"
    loc: Loc
    message: str


class CompileError(Exception):
    """Raised to stop a stage after its errors have been recorded."""


class InternalError(Exception):
    """A bug in p4odp, never a fault of the user's program."""


class Unsupported(Exception):
    """A construct of a valid program that the compiler does not translate yet: `str()` is the
    message to report at `loc`."""

    def __init__(self, loc: Loc, what: str) -> None:
        super().__init__(f"not supported by the C generator yet: {what}")
        self.loc = loc


class Refused(Unsupported):
    """A construct the architecture does not allow, which p4c's back end for it refuses too."""

    def __init__(self, loc: Loc, what: str) -> None:
        Exception.__init__(self, what)
        self.loc = loc


class Diagnostics:
    """Collects diagnostics; the caller decides when errors stop the run."""

    def __init__(self, max_errors: int = 50) -> None:
        self.items: list[Diagnostic] = []
        self.max_errors = max_errors
        self._seen: set[tuple[Loc, str]] = set()

    @property
    def error_count(self) -> int:
        return sum(1 for d in self.items if d.severity == "error")

    def error(self, loc: Loc, message: str) -> None:
        self._add("error", loc, message)
        if self.error_count >= self.max_errors:
            self._add("note", Loc("p4odp", 0, 0), f"stopping after {self.max_errors} errors (--max-errors)")
            raise CompileError(f"too many errors (limit {self.max_errors})")

    def warning(self, loc: Loc, message: str) -> None:
        self._add("warning", loc, message)

    def note(self, loc: Loc, message: str) -> None:
        self._add("note", loc, message)

    def _add(self, severity: str, loc: Loc, message: str) -> None:
        key = (loc, message)
        if key in self._seen:
            return
        self._seen.add(key)
        self.items.append(Diagnostic(severity, loc, message))

    def check(self) -> None:
        """Stop the current stage if any error was reported."""
        if self.error_count:
            raise CompileError(f"{self.error_count} error(s)")

    def render(self, out: TextIO | None = None) -> None:
        out = out if out is not None else sys.stderr  # looked up now: tests and tools replace stderr
        for diag in self.items:
            out.write(format_diagnostic(diag))


def format_diagnostic(diag: Diagnostic) -> str:
    """`file:line:col: severity: message`, then the source line and a caret."""
    text = f"{diag.loc}: {diag.severity}: {diag.message}\n"
    line = source_line(diag.loc)
    if line is not None:
        caret_col = max(diag.loc.col, 1)
        indent = "".join(c if c == "\t" else " " for c in line[: caret_col - 1])
        text += f"{line}\n{indent}^\n"
    return text


def source_line(loc: Loc) -> str | None:
    """The text of the line `loc` is on, None when it cannot be read."""
    if loc.line <= 0:
        return None
    try:
        with open(loc.file, encoding="utf-8", errors="replace") as source:
            for number, line in enumerate(source, 1):
                if number == loc.line:
                    return line.rstrip("\n")
    except OSError:
        return None
    return None
