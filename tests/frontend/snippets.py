"""Helpers shared by the type checker's unit tests: P4 snippets through `load_program`.

A snippet is written to a file in pytest's `tmp_path` with `#include <core.p4>`
(or another architecture) replacing its first line, the one that holds the
opening triple quote and is empty after dedenting.  So the line numbers in the
file are those of the snippet counted from the line of the opening quotes.

Positions are named by a *needle*, a piece of text of the snippet, and computed
the way the lexer counts them (1-based line and column).  A typed expression is
found by its text: the outermost expression that the parser placed within the
needle.  (The parser places a binary expression at its operator, a cast at its
`(`, an index or slice at its `[`, a member and a method call at the member's
name, so `x + 1`, `(bit<8>) x` and `h.isValid()` each find the whole.)
"""

from __future__ import annotations

import dataclasses
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program

__all__ = ["Compiled", "compile_p4", "accept", "reject", "assert_rule", "has_error", "nodes", "PARAMS", "control",
           "apply_rule"]

# The parameters of `control`: variables of the common types.
PARAMS = "inout bit<8> a, inout bit<8> b, inout int<8> s, inout bit<16> w, inout bool f"


@dataclass
class Compiled:
    """What the front end made of one snippet."""

    path: str
    text: str
    program: Optional[ir.Program]
    diags: Diagnostics

    def errors(self) -> list[tuple[str, str]]:
        """The errors as `("line:col", message)`, in the order reported."""
        return [(f"{d.loc.line}:{d.loc.col}", d.message) for d in self.diags.items if d.severity == "error"]

    def warnings(self) -> list[tuple[str, str]]:
        return [(f"{d.loc.line}:{d.loc.col}", d.message) for d in self.diags.items if d.severity == "warning"]

    def at(self, needle: str, occurrence: int = 1) -> str:
        """`"line:col"` of the `occurrence`-th `needle` in the snippet."""
        line, col = _line_col(self.text, _offset(self.text, needle, occurrence))
        return f"{line}:{col}"

    def find(self, needle: str, cls: type = ir.Node, occurrence: int = 1):
        """The outermost node of class `cls` of the typed program placed within the text `needle`."""
        assert self.program is not None, self.errors()
        index = _offset(self.text, needle, occurrence)
        start, end = _line_col(self.text, index), _line_col(self.text, index + len(needle) - 1)
        for node in nodes(self.program):
            if isinstance(node, cls) and node.loc.file == self.path and start <= (node.loc.line, node.loc.col) <= end:
                return node
        raise AssertionError(f"no {cls.__name__} within {needle!r} at {start[0]}:{start[1]}")

    def expr(self, needle: str, occurrence: int = 1) -> ir.Expression:
        return self.find(needle, ir.Expression, occurrence)

    def type_of(self, needle: str, occurrence: int = 1) -> str:
        """The semantic type of the expression `needle`, as P4 spells it."""
        return str(self.expr(needle, occurrence).type)

    def decl(self, name: str, cls: type = ir.Declaration) -> ir.Declaration:
        """The only declaration of class `cls` called `name`, at any depth, in the snippet's file."""
        found = [n for n in nodes(self.program) if isinstance(n, cls) and getattr(n, "name", None) == name
                 and n.loc.file == self.path]
        assert len(found) == 1, f"{len(found)} declarations {cls.__name__} {name}"
        return found[0]


def compile_p4(tmp_path: Path, src: str, arch: Optional[str] = "core", name: str = "t.p4") -> Compiled:
    """The whole front end run on `src`, whose first line becomes `#include <arch.p4>`."""
    text = textwrap.dedent(src)
    if arch is not None:
        first, _, rest = text.partition("\n")
        assert not first.strip(), "a snippet starts with a newline: its first line holds the #include"
        text = f"#include <{arch}.p4>\n{rest}"
    path = tmp_path / name
    path.write_text(text)
    diags = Diagnostics(max_errors=10_000)
    program = load_program(str(path), FrontendOptions(), diags)
    return Compiled(str(path), text, program, diags)


def accept(tmp_path: Path, src: str, arch: Optional[str] = "core") -> Compiled:
    """`src` compiled, checking that the front end reports no error."""
    compiled = compile_p4(tmp_path, src, arch, name="ok.p4")
    assert compiled.errors() == [], f"expected no errors, got {compiled.errors()}"
    assert compiled.program is not None
    return compiled


def reject(tmp_path: Path, src: str, arch: Optional[str] = "core") -> Compiled:
    """`src` compiled, checking that the front end reports errors."""
    compiled = compile_p4(tmp_path, src, arch, name="bad.p4")
    assert compiled.errors() != [], "expected errors, got none"
    assert compiled.program is None
    return compiled


def assert_rule(tmp_path: Path, valid: str, invalid: str, at: str, message: str,
                arch: Optional[str] = "core", occurrence: int = 1) -> None:
    """`valid` is accepted; `invalid` gets exactly one error, at `at`, whose message contains `message`.

    The pair shows the rule at work rather than a rejection of the whole construct.
    """
    accept(tmp_path, valid, arch)
    bad = reject(tmp_path, invalid, arch)
    where = bad.at(at, occurrence)
    errors = bad.errors()
    assert len(errors) == 1 and errors[0][0] == where and message in errors[0][1], \
        f"expected one error at {where} containing {message!r}, got {errors}"


def control(body: str, decls: str = "", params: str = PARAMS) -> str:
    """A snippet: `decls`, then a control with `params` whose apply block is `body`."""
    return f"\n{decls}\ncontrol C({params}) {{\n    apply {{\n        {body}\n    }}\n}}\n"


def apply_rule(tmp_path: Path, valid: str, invalid: str, at: str, message: str, decls: str = "",
               params: str = PARAMS, occurrence: int = 1) -> None:
    """`assert_rule` on two apply blocks of `control`."""
    assert_rule(tmp_path, control(valid, decls, params), control(invalid, decls, params), at, message,
                occurrence=occurrence)


def has_error(compiled: Compiled, at: str, message: str, occurrence: int = 1) -> bool:
    """Is one of the errors of `compiled` at `at`, with `message` in its text?"""
    where = compiled.at(at, occurrence)
    return any(loc == where and message in text for loc, text in compiled.errors())


def nodes(root) -> Iterator[ir.Node]:
    """Every IR node under `root`, parents before children, in field order."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
        elif isinstance(item, ir.Node):
            yield item
            stack.extend(reversed([getattr(item, f.name) for f in dataclasses.fields(item)
                                   if f.name not in ("loc", "type")]))


def _offset(text: str, needle: str, occurrence: int) -> int:
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return index


def _line_col(text: str, index: int) -> tuple[int, int]:
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)
