"""Compile-time evaluation of typed expressions.

Values are Python ints (already wrapped to the expression's width and
sign) and bools; `None` means "not a compile-time constant".
"""

from __future__ import annotations

from typing import Callable, Optional, Union

from p4odp import ir
from p4odp import types as t

Value = Union[int, bool]

__all__ = ["evaluate", "wrap", "Value"]


def wrap(value: int, typ: t.Type) -> int:
    """`value` reduced to `typ`'s range with P4's wrap-around semantics."""
    if isinstance(typ, t.Bits):
        if typ.width == 0:
            return 0
        value &= (1 << typ.width) - 1
        if typ.signed and value >= 1 << (typ.width - 1):
            value -= 1 << typ.width
    return value


def _size(typ: t.Type, method: str) -> Optional[int]:
    """minSizeInBits() and the others of a value of `typ`: the bits it takes in a packet, its varbits
    empty (min) or full (max), in whole bytes for the *InBytes forms (P4_16 spec 8.9)."""
    bits = t.packet_width(typ)
    if bits is None:
        return None
    if method.startswith("max"):
        bits += _varbit_bits(typ)
    return (bits + 7) // 8 if method.endswith("Bytes") else bits


def _varbit_bits(typ: t.Type) -> int:
    if isinstance(typ, t.Varbit):
        return typ.width
    if isinstance(typ, t.StructLike):
        return sum(_varbit_bits(f.type) for f in typ.fields)
    if isinstance(typ, t.Stack):
        return typ.size * _varbit_bits(typ.element)
    return 0


def evaluate(expr: ir.Expression, lookup: Callable[[str], Optional[Value]]) -> Optional[Value]:
    """The value of `expr`, using `lookup` for names of constants; None if not constant."""
    typ = expr.type
    if isinstance(expr, ir.IntLiteral):
        return wrap(expr.value, typ) if isinstance(typ, t.Bits) else expr.value
    if isinstance(expr, ir.BoolLiteral):
        return expr.value
    if isinstance(expr, ir.PathExpression):
        return lookup(expr.name)
    if isinstance(expr, ir.Member) and isinstance(expr.expr.type, t.TypeT):
        enum = expr.expr.type.of  # a member of a serializable enum has its declared value
        if isinstance(enum, t.EnumT) and enum.underlying is not None:
            return dict(enum.members).get(expr.member)
        return None
    if isinstance(expr, ir.MethodCall) and isinstance(expr.method, ir.Member) and not expr.args and \
            expr.method.member in ("minSizeInBits", "minSizeInBytes", "maxSizeInBits", "maxSizeInBytes"):
        return _size(expr.method.expr.type, expr.method.member)
    if isinstance(expr, ir.MethodCall) and isinstance(expr.method, ir.PathExpression) and \
            expr.method.name == "static_assert" and expr.args and expr.args[0].value is not None:
        return evaluate(expr.args[0].value, lookup)
    if isinstance(expr, ir.Cast):
        inner = evaluate(expr.expr, lookup)
        if inner is None:
            return None
        while isinstance(typ, t.NewTypeT):  # `type bit<32> PortId_t`: a value of its base type
            typ = typ.base
        if isinstance(typ, t.Bool):
            return bool(inner)
        if isinstance(typ, t.Bits):
            return wrap(int(inner), typ)
        if isinstance(typ, t.InfInt):
            return int(inner)
        return None
    if isinstance(expr, ir.Unary):
        inner = evaluate(expr.expr, lookup)
        if inner is None:
            return None
        if expr.op is ir.UnaryOp.NOT:
            return not inner
        if expr.op is ir.UnaryOp.NEG:
            return _fit(-inner, typ)
        if expr.op is ir.UnaryOp.PLUS:
            return inner
        if expr.op is ir.UnaryOp.CMPL and isinstance(typ, t.Bits):
            return wrap(~inner, typ)
        return None
    if isinstance(expr, ir.Binary):
        return _binary(expr, lookup)
    if isinstance(expr, ir.Mux):
        cond = evaluate(expr.cond, lookup)
        if cond is None:
            return None
        return evaluate(expr.then if cond else expr.otherwise, lookup)
    if isinstance(expr, ir.IndexedSlice):
        base, low, width = evaluate(expr.expr, lookup), evaluate(expr.low, lookup), evaluate(expr.width, lookup)
        if base is None or low is None or width is None or low < 0 or width <= 0:
            return None
        return (int(base) >> low) & ((1 << width) - 1)
    if isinstance(expr, ir.Slice):
        base = evaluate(expr.expr, lookup)
        high, low = evaluate(expr.high, lookup), evaluate(expr.low, lookup)
        if base is None or high is None or low is None or low < 0 or high < low:
            return None
        return (int(base) >> low) & ((1 << (high - low + 1)) - 1)
    return None


def _fit(value: int, typ: t.Type) -> int:
    return wrap(value, typ) if isinstance(typ, t.Bits) else value


def _binary(expr: ir.Binary, lookup) -> Optional[Value]:
    op = expr.op
    left = evaluate(expr.left, lookup)
    if op is ir.BinaryOp.AND and left is False or op is ir.BinaryOp.OR and left is True:
        return left
    right = evaluate(expr.right, lookup)
    if left is None or right is None:
        return None
    typ = expr.type
    if op is ir.BinaryOp.AND:
        return bool(left and right)
    if op is ir.BinaryOp.OR:
        return bool(left or right)
    if op is ir.BinaryOp.EQ:
        return left == right
    if op is ir.BinaryOp.NE:
        return left != right
    if op is ir.BinaryOp.LT:
        return left < right
    if op is ir.BinaryOp.LE:
        return left <= right
    if op is ir.BinaryOp.GT:
        return left > right
    if op is ir.BinaryOp.GE:
        return left >= right
    left, right = int(left), int(right)
    if op is ir.BinaryOp.ADD:
        return _fit(left + right, typ)
    if op is ir.BinaryOp.SUB:
        return _fit(left - right, typ)
    if op is ir.BinaryOp.MUL:
        return _fit(left * right, typ)
    if op in (ir.BinaryOp.DIV, ir.BinaryOp.MOD):
        if right == 0 or left < 0 or right < 0:
            return None
        return _fit(left // right if op is ir.BinaryOp.DIV else left % right, typ)
    if op is ir.BinaryOp.SHL:
        if right < 0 or right > 4096:
            return None
        return _fit(left << right, typ)
    if op is ir.BinaryOp.SHR:
        if right < 0:
            return None
        return _fit(left >> right, typ)
    if op is ir.BinaryOp.BAND:
        return _fit(left & right, typ)
    if op is ir.BinaryOp.BOR:
        return _fit(left | right, typ)
    if op is ir.BinaryOp.BXOR:
        return _fit(left ^ right, typ)
    if op is ir.BinaryOp.CONCAT and isinstance(expr.right.type, t.Bits):
        width = expr.right.type.width
        return _fit((left << width) | (right & ((1 << width) - 1)), typ)
    if op in (ir.BinaryOp.ADD_SAT, ir.BinaryOp.SUB_SAT) and isinstance(typ, t.Bits):
        raw = left + right if op is ir.BinaryOp.ADD_SAT else left - right
        lo, hi = (-(1 << (typ.width - 1)), (1 << (typ.width - 1)) - 1) if typ.signed else (0, (1 << typ.width) - 1)
        return min(max(raw, lo), hi)
    return None
