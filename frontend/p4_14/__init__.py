"""The P4_14 front end: a P4_14 program read into the P4_16 program p4c's conversion makes of
it (v1model), which the P4_16 front end then resolves and checks like any other."""

from __future__ import annotations

from typing import Optional

from p4odp.diagnostics import Diagnostics
from p4odp.frontend.lexer import KEYWORDS, Token
from p4odp.frontend.p4_14.convert import convert
from p4odp.frontend.p4_14.syntax import parse

__all__ = ["looks_like_p4_14", "to_p4_16"]

# Words that begin a declaration in P4_14 and never in P4_16.
_P4_14_WORDS = frozenset({"header_type", "field_list", "field_list_calculation", "calculated_field",
                          "parser_exception", "parser_value_set", "action_profile", "action_selector"})


def looks_like_p4_14(tokens: list[Token]) -> bool:
    """Whether a program's tokens are P4_14's: a top-level declaration that only P4_14 has, or a
    parser state or control written P4_14's way (`parser NAME {`, `control NAME {`)."""
    depth = 0
    starts = True  # the token begins a top-level declaration
    for i, token in enumerate(tokens[:-2]):
        if starts and token.kind in ("id", "kw"):
            if token.text in _P4_14_WORDS:
                return True
            if token.text in ("parser", "control") and tokens[i + 1].kind in ("id", "kw") \
                    and tokens[i + 2].is_("op", "{"):
                return True
        if token.is_("op", "{"):
            depth += 1
        elif token.is_("op", "}"):
            depth -= 1
        starts = depth == 0 and (token.is_("op", ";") or token.is_("op", "}"))
    return False


def to_p4_16(tokens: list[Token], architecture: list[Token], diags: Diagnostics) -> Optional[str]:
    """The P4_16 text of a P4_14 program's tokens, to follow the tokens of the architecture it is
    converted for, or None after reporting its errors."""
    program = parse(tokens, diags)
    if diags.error_count:
        return None
    reserved = frozenset(t.text for t in architecture if t.kind == "id") | KEYWORDS | _CONVERSION_NAMES
    return convert(program, diags, reserved)


# The P4_16 names the conversion declares itself.
_CONVERSION_NAMES = frozenset({"headers", "metadata", "ParserImpl", "ingress", "egress", "verifyChecksum",
                               "computeChecksum", "DeparserImpl", "main", "accept", "reject", "hdr", "meta",
                               "standard_metadata", "packet"})
