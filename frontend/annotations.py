"""Checks of annotations: structured annotation values, and the standard ones that need a string."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from p4odp import ir
from p4odp import types as t

if TYPE_CHECKING:
    from p4odp.frontend.typecheck import Context, TypeChecker

__all__ = ["check_annotations"]

# Standard annotations whose body is one string.
_STRING_BODIES = ("name", "deprecated")

# Standard annotations without a body (p4c's list).
_EMPTY_BODIES = ("atomic", "defaultonly", "hidden", "likely", "noSideEffects", "optional", "pure", "tableonly",
                 "unlikely", "disable_optimization", "unroll", "nounroll")


# @p4runtime_translation("URI", TYPE), TYPE what the controller sees: bit<W>, string or a width.
_TRANSLATION = re.compile(r'\s*"(?:[^"\\]|\\.)*"\s*,\s*(bit\s*<\s*\d+\s*>|string|\d+)\s*')


def check_annotations(tc: "TypeChecker", annotations: tuple, ctx: "Context") -> None:
    seen: set[str] = set()
    seen_structured: set[str] = set()
    for anno in annotations:
        # A structured annotation's name is its own: no other annotation of the declaration has it.
        if (anno.structured and anno.name in seen) or anno.name in seen_structured:
            tc.error(anno.loc, f"@{anno.name}: duplicate structured annotation (its name is used twice here)")
        seen.add(anno.name)
        if anno.structured:
            seen_structured.add(anno.name)
            _structured(tc, anno, ctx)
        elif anno.name in _EMPTY_BODIES:
            if anno.body:
                tc.error(anno.loc, f"@{anno.name}: should not have any arguments")
        elif anno.name in _STRING_BODIES:
            if len(anno.items) != 1 or ir.string_value(anno.items[0]) is None:
                tc.error(anno.loc, f"@{anno.name}: should contain a string")
        elif anno.name == "p4runtime_translation":
            if not _TRANSLATION.fullmatch(anno.body or ""):
                tc.error(anno.loc, f"@p4runtime_translation({anno.body or ''}): expected a URI string and the "
                                   "controller's type: bit<W>, string or a width")
        elif anno.name == "match":
            typed = tc.expr(anno.items[0], ctx) if len(anno.items) == 1 else None
            if typed is None or not isinstance(typed.type, (t.MatchKindT, t.Unknown)):
                tc.error(anno.loc, f"@match({anno.body or ''}): the value must be a match_kind")


def _structured(tc: "TypeChecker", anno: ir.Annotation, ctx: "Context") -> None:
    keys: set[str] = set()
    for item in anno.items:
        value = item
        if isinstance(item, ir.KeyValue):
            if item.key in keys:
                tc.error(item.loc, f"@{anno.name}: duplicate key {item.key}")
            keys.add(item.key)
            value = item.value
        typed = tc.expr(value, ctx)
        if isinstance(typed.type, t.Unknown):
            continue
        if not isinstance(typed.type, (t.InfInt, t.Bits, t.String, t.Bool)) or \
                (tc.const_value(typed, ctx) is None and ir.string_value(value) is None):
            tc.error(value.loc, f"@{anno.name}: structured annotation values must be int, string or bool constants")
