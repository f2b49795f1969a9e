"""The front end: preprocess, parse, resolve and type-check into the IR.  A P4_14 program is
read into its P4_16 conversion first (frontend/p4_14)."""

from __future__ import annotations

from dataclasses import dataclass, field

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.frontend.lexer import tokenize
from p4odp.frontend.p4_14 import looks_like_p4_14, to_p4_16
from p4odp.frontend.parser import parse_program
from p4odp.frontend.preprocess import preprocess

__all__ = ["FrontendOptions", "parse_file", "load_program"]


@dataclass
class FrontendOptions:
    include_dirs: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    undefines: list[str] = field(default_factory=list)
    # The language: "p4-16", "p4-14", or None to tell by the program's declarations.
    std: str | None = None


def parse_file(path: str, options: FrontendOptions, diags: Diagnostics) -> ir.Program | None:
    """Preprocess and parse `path`; None if it has errors (reported to `diags`)."""
    return _parse(path, options, diags)[0]


def _parse(path: str, options: FrontendOptions, diags: Diagnostics) -> tuple[ir.Program | None, bool]:
    """parse_file's program, and whether it is a P4_14 program's conversion."""
    text = preprocess(path, options.include_dirs, options.defines, options.undefines, diags)
    if text is None:
        return None, False
    tokens = tokenize(text, path, diags)
    p4_14 = options.std == "p4-14" or (options.std is None and not diags.error_count and looks_like_p4_14(tokens))
    if p4_14:
        text = to_p4_16(tokens, path, diags)
        if text is None:
            return None, True
        tokens = tokenize(text, path, diags)
    program = parse_program(tokens, diags, text)
    return (None if diags.error_count else program), p4_14


def load_program(path: str, options: FrontendOptions, diags: Diagnostics) -> ir.Program | None:
    """The whole front end: the typed IR of `path`, or None after reporting its errors."""
    from p4odp.frontend.typecheck import check_program

    program, p4_14 = _parse(path, options, diags)
    if program is None:
        return None
    try:
        typed = check_program(program, diags, action_copies=p4_14)
    except RecursionError:
        diags.error(program.loc, "the program nests expressions or statements too deeply to check")
        return None
    return None if diags.error_count else typed
