"""The P4_14 front end: a P4_14 program read into the P4_16 program p4c's conversion makes of
it (v1model), which the P4_16 front end then resolves and checks like any other."""

from __future__ import annotations

from typing import Optional

from p4odp.diagnostics import Diagnostics
from p4odp.frontend.lexer import KEYWORDS, Token, tokenize
from p4odp.frontend.p4_14.convert import convert
from p4odp.frontend.p4_14.syntax import parse
from p4odp.frontend.preprocess import preprocess_source

__all__ = ["looks_like_p4_14", "to_p4_16"]

# What a P4_14 program's conversion is written against, as p4c's is.
ARCHITECTURE = "#include <core.p4>\n#include <v1model.p4>\n"
# The P4_16 names the conversion declares itself.
_CONVERSION_NAMES = frozenset({"headers", "metadata", "ParserImpl", "ingress", "egress", "verifyChecksum",
                               "computeChecksum", "DeparserImpl", "main", "accept", "reject", "hdr", "meta",
                               "standard_metadata", "packet"})
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


def to_p4_16(tokens: list[Token], path: str, diags: Diagnostics) -> Optional[str]:
    """The P4_16 program, v1model's declarations and then the conversion of the P4_14 program of
    `tokens` (from `path`), or None after reporting its errors."""
    program = parse(tokens, diags)
    architecture = preprocess_source(ARCHITECTURE, path, diags) if not diags.error_count else None
    if architecture is None:
        return None
    reserved = declared_names(tokenize(architecture, path, diags)) | KEYWORDS | _CONVERSION_NAMES
    converted = convert(program, diags, reserved)
    return None if converted is None else architecture + converted


def declared_names(tokens: list[Token]) -> frozenset[str]:
    """The names the top level of a P4_16 program declares (types, externs, functions, constants,
    match kinds, errors): those the conversion's own must not take."""
    names = set()
    depth, opener = 0, ""
    for i, token in enumerate(tokens[:-1]):
        if token.is_("op", "{"):
            opener = tokens[i - 1].text if depth == 0 and i else opener
            depth += 1
        elif token.is_("op", "}"):
            depth -= 1
        elif token.kind == "id":
            after = tokens[i + 1]
            if depth == 0 and after.kind == "op" and after.text in ("(", "<", "{", ";", "="):
                names.add(token.text)
            elif depth == 1 and opener in ("match_kind", "error"):
                names.add(token.text)
    return frozenset(names)
