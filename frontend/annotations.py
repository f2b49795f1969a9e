"""Checks of annotations: structured annotation values, and the standard ones that need a string."""

from __future__ import annotations

from typing import TYPE_CHECKING

from p4odp import ir
from p4odp import types as t

if TYPE_CHECKING:
    from p4odp.frontend.typecheck import Context, TypeChecker

__all__ = ["check_annotations"]

# Standard annotations whose body is one string.
_STRING_BODIES = ("name", "deprecated")


def check_annotations(tc: "TypeChecker", annotations: tuple, ctx: "Context") -> None:
    structured: set[str] = set()
    for anno in annotations:
        if anno.structured:
            if anno.name in structured:
                tc.error(anno.loc, f"@{anno.name}: duplicate structured annotation")
            structured.add(anno.name)
            _structured(tc, anno, ctx)
        elif anno.name in _STRING_BODIES and anno.items:
            if len(anno.items) != 1 or not isinstance(_fold_strings(anno.items[0]), str):
                tc.error(anno.loc, f"@{anno.name}: should contain a string")


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
                (tc.const_value(typed, ctx) is None and _fold_strings(value) is None):
            tc.error(value.loc, f"@{anno.name}: structured annotation values must be int, string or bool constants")


def _fold_strings(expr: ir.Expression):
    """The value of a string literal or of a `++` of string literals, else None."""
    if isinstance(expr, ir.StringLiteral):
        return expr.value
    if isinstance(expr, ir.Binary) and expr.op is ir.BinaryOp.CONCAT:
        left, right = _fold_strings(expr.left), _fold_strings(expr.right)
        if isinstance(left, str) and isinstance(right, str):
            return left + right
    return None
