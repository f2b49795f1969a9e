"""Expressions: l-values, and C values of at most 64 bits (the `v_*` handlers).

Evaluation order is decided before: the side-effect-ordering pass leaves calls with effects only
as statements or as the whole value of an assignment (its module docstring gives the contract),
so an expression is printed as one C expression, its operands in any order.  A call with effects
met as an operand here is a compiler bug (`InternalError`).
"""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError, Loc, Unsupported
from p4odp.transpiler.codegen._types import tuple_struct
from p4odp.transpiler.codegen.scope import Binding
from p4odp.transpiler.ctypes_map import bits_of, c_ident, is_wide
from p4odp.transpiler.passes.side_effects import is_apply_result, is_effect_call

__all__ = ["Expressions"]

_COMPARISONS = (ir.BinaryOp.EQ, ir.BinaryOp.NE, ir.BinaryOp.LT, ir.BinaryOp.LE, ir.BinaryOp.GT, ir.BinaryOp.GE)


class Expressions:
    """L-values and values of expressions; calls and wide operands are left to the other mixins."""

    def lvalue(self, expr: ir.Expression) -> Binding:
        if isinstance(expr, ir.PathExpression):
            binding = self.resolve(expr)
            if not isinstance(binding, Binding):
                raise Unsupported(expr.loc, f"'{expr.name}' here")
            return binding
        if isinstance(expr, ir.Member):
            _ordered(expr.expr)
            base = self.lvalue(expr.expr)
            btype = base.type
            if isinstance(btype, t.Stack):
                # Out of range (a full stack's next, an empty one's last): e[size], no element.
                if expr.member == "next":
                    return Binding(f"{base.c}.e[{base.c}._next < {btype.size} ? {base.c}._next : {btype.size}]",
                                   btype.element)
                if expr.member == "last":
                    return Binding(f"{base.c}.e[{base.c}._next ? {base.c}._next - 1 : {btype.size}]", btype.element)
                raise Unsupported(expr.loc, f"stack member {expr.member}")
            return Binding(f"{base.c}.{c_ident(expr.member)}", expr.type)
        if isinstance(expr, ir.ArrayIndex):
            _ordered(expr.expr, expr.index)
        if isinstance(expr, ir.ArrayIndex) and isinstance(expr.expr.type, t.TupleT):  # a constant index
            return Binding(f"{self.lvalue(expr.expr).c}.f{self.gen.const_int(expr.index)}", expr.type)
        if isinstance(expr, ir.ArrayIndex):
            base = self.lvalue(expr.expr)
            index = self.gen.const_int(expr.index)
            if index is None:
                size = base.type.size
                position = self.temp("ix")
                self.emit(f"uint64_t {position} = {self.value(expr.index)};")
                return Binding(f"{base.c}.e[{position} < {size} ? {position} : {size}]", expr.type)
            return Binding(f"{base.c}.e[{index}]", expr.type)
        if isinstance(expr, ir.MethodCall):  # the whole value: a struct or header a call returns
            result = self.call(expr, as_statement=False)
            if result is None:
                raise Unsupported(expr.loc, "this call as a value")
            return Binding(result, expr.type)
        raise Unsupported(expr.loc, f"{type(expr).__name__} as an l-value")

    def value(self, expr: ir.Expression) -> str:
        """A C expression for the value of `expr` (64-bit for integers); `expr` may be a call (the whole
        value of an assignment), its operands may not."""
        typ = expr.type
        if is_wide(typ):
            raise Unsupported(expr.loc, f"a value of {typ} where at most 64 bits fit")
        handler = getattr(self, "v_" + type(expr).__name__, None)
        if handler is None:
            raise Unsupported(expr.loc, f"{type(expr).__name__} expressions")
        return handler(expr)

    def v_IntLiteral(self, expr: ir.IntLiteral) -> str:
        typ = expr.type
        if isinstance(typ, t.Bits):
            value = expr.value & ((1 << typ.width) - 1) if typ.width else 0
            if typ.signed and value >= 1 << (typ.width - 1):
                return f"INT64_C({value - (1 << typ.width)})"
            return f"UINT64_C({value})"
        return f"INT64_C({expr.value})" if expr.value < 0 else f"UINT64_C({expr.value})"

    def v_BoolLiteral(self, expr: ir.BoolLiteral) -> str:
        return "1" if expr.value else "0"

    def v_PathExpression(self, expr: ir.PathExpression) -> str:
        binding = self.resolve(expr)
        if isinstance(binding, Binding):
            return binding.c
        raise Unsupported(expr.loc, f"'{expr.name}' as a value")

    def v_Member(self, expr: ir.Member) -> str:
        btype = expr.expr.type
        if isinstance(btype, t.TypeT):
            of = btype.of
            if isinstance(of, t.ErrorT):
                return str(self.gen.error_code(expr.member))
            if isinstance(of, t.EnumT):
                values = dict(of.members)
                value = values.get(expr.member)
                if value is None:
                    value = [m for m, _ in of.members].index(expr.member)
                return f"UINT64_C({value})"
        if isinstance(btype, t.ApplyResult):
            run = self.apply_table(expr.expr.method.expr)
            return run["hit"] if expr.member == "hit" else f"!{run['hit']}"
        if isinstance(btype, t.Stack) and expr.member in ("lastIndex", "nextIndex", "size"):
            base = self.lvalue(_ordered(expr.expr))
            if expr.member == "size":
                return str(btype.size)
            return f"(uint64_t){base.c}._next" if expr.member == "nextIndex" else f"(uint64_t)({base.c}._next - 1)"
        return self.lvalue(expr).c

    def v_ArrayIndex(self, expr) -> str:
        return self.lvalue(expr).c

    def v_Cast(self, expr: ir.Cast) -> str:
        to, src = expr.type, _ordered(expr.expr).type
        if is_wide(src):  # the low bits of a wide value
            low = self.wide_low_bits(expr.expr, min(bits_of(src).width, 64) - 1, 0)
            if isinstance(to, t.Bool):
                return f"(({low}) != 0)"
            return self.wrap(low, to)
        inner = self.value(expr.expr)
        if isinstance(to, t.Bool):
            return f"(({inner}) != 0)"
        if isinstance(to, t.Bits):
            if to.signed:
                return f"p4odp_sext((uint64_t)({inner}), {to.width})"
            return f"p4odp_trunc((uint64_t)({inner}), {to.width})"
        if isinstance(to, (t.EnumT, t.NewTypeT, t.InfInt)):
            return inner
        raise Unsupported(expr.loc, f"casts to {to}")

    def v_Unary(self, expr: ir.Unary) -> str:
        inner = self.value(_ordered(expr.expr))
        typ = expr.type
        if expr.op is ir.UnaryOp.NOT:
            return f"(!({inner}))"
        if expr.op is ir.UnaryOp.PLUS:
            return inner
        width = typ.width if isinstance(typ, t.Bits) else 64
        if expr.op is ir.UnaryOp.NEG:
            return self.wrap(f"(0 - (uint64_t)({inner}))", typ)
        return self.wrap(f"(~(uint64_t)({inner}))", typ) if width else "0"

    def wrap(self, c: str, typ: t.Type) -> str:
        if isinstance(typ, t.Bits):
            if typ.signed:
                return f"p4odp_sext({c}, {typ.width})"
            return f"p4odp_trunc({c}, {typ.width})"
        return c

    def v_Binary(self, expr: ir.Binary) -> str:
        op, typ = expr.op, expr.type
        _ordered(expr.left, expr.right)
        if op in (ir.BinaryOp.AND, ir.BinaryOp.OR):
            return f"({self.value(expr.left)} {op.value} {self.value(expr.right)})"
        if is_wide(expr.left.type) and op in _COMPARISONS:
            return self.wide_compare(expr)
        ltype = expr.left.type
        aggregate = isinstance(ltype, (t.StructLike, t.Stack, t.Varbit, t.TupleT))
        if aggregate:
            left = right = ""  # compared member by member below
        else:
            left, right = self.value(expr.left), self.value(expr.right)
        signed = isinstance(ltype, t.Bits) and ltype.signed
        width = ltype.width if isinstance(ltype, t.Bits) else 64
        if op in _COMPARISONS:
            if aggregate and op in (ir.BinaryOp.EQ, ir.BinaryOp.NE):
                same = self.equal(expr.left, expr.right, ltype, expr.loc)
                return same if op is ir.BinaryOp.EQ else f"(!{same})"
            cast = "(int64_t)" if signed else "(uint64_t)"
            return f"({cast}({left}) {op.value} {cast}({right}))"
        if op is ir.BinaryOp.SHL:
            return self.wrap(f"p4odp_shl((uint64_t)({left}), (uint64_t)({right}), {width})", typ)
        if op is ir.BinaryOp.SHR:
            if signed:
                return f"p4odp_sshr((int64_t)({left}), (uint64_t)({right}))"
            return f"p4odp_shr((uint64_t)({left}), (uint64_t)({right}))"
        if op is ir.BinaryOp.CONCAT:
            rwidth = t.bit_width(expr.right.type)
            return self.wrap(f"(((uint64_t)({left}) << {rwidth}) | p4odp_trunc((uint64_t)({right}), {rwidth}))", typ)
        if op is ir.BinaryOp.ADD_SAT:
            if signed:
                return f"p4odp_sadd_sat((int64_t)({left}), (int64_t)({right}), {width})"
            return f"p4odp_add_sat((uint64_t)({left}), (uint64_t)({right}), {width})"
        if op is ir.BinaryOp.SUB_SAT:
            if signed:
                return f"p4odp_ssub_sat((int64_t)({left}), (int64_t)({right}), {width})"
            return f"p4odp_sub_sat((uint64_t)({left}), (uint64_t)({right}))"
        if op in (ir.BinaryOp.DIV, ir.BinaryOp.MOD):
            return self.wrap(f"((uint64_t)({right}) ? (uint64_t)({left}) {op.value} (uint64_t)({right}) : 0)", typ)
        if op in (ir.BinaryOp.ADD, ir.BinaryOp.SUB, ir.BinaryOp.MUL, ir.BinaryOp.BAND, ir.BinaryOp.BOR,
                  ir.BinaryOp.BXOR):
            return self.wrap(f"((uint64_t)({left}) {op.value} (uint64_t)({right}))", typ)
        raise Unsupported(expr.loc, f"the operator {op.value}")

    def v_Mux(self, expr: ir.Mux) -> str:
        cond, then, otherwise = (self.value(_ordered(e)) for e in (expr.cond, expr.then, expr.otherwise))
        return f"(({cond}) ? ({then}) : ({otherwise}))"

    def v_IndexedSlice(self, expr: ir.IndexedSlice) -> str:
        _ordered(expr.expr, expr.low)
        width = self.gen.const_int(expr.width)
        if is_wide(expr.expr.type):  # bits past the end read as 0, as with narrow values
            base, low = self.wide_value(expr.expr), self.temp("lo")
            self.emit(f"uint64_t {low} = (uint64_t)({self.value(expr.low)});")
            offset = self.wide_bit_offset(expr.expr.type, low, width)
            fits = f"{low} + {width} <= {bits_of(expr.expr.type).width}"
            return f"({fits} ? p4odp_load_bits({base}, {offset}, {width}) : 0)"
        base, low = self.value(expr.expr), self.value(expr.low)
        return f"p4odp_trunc(p4odp_shr((uint64_t)({base}), (uint64_t)({low})), {width})"

    def v_Slice(self, expr: ir.Slice) -> str:
        hi, lo = self.gen.const_int(expr.high), self.gen.const_int(expr.low)
        if is_wide(_ordered(expr.expr).type):
            return self.wide_low_bits(expr.expr, hi, lo)
        return f"p4odp_trunc((uint64_t)({self.value(expr.expr)}) >> {lo}, {hi - lo + 1})"

    def v_MethodCall(self, expr: ir.MethodCall) -> str:
        result = self.call(expr, as_statement=False)
        if result is None:
            raise Unsupported(expr.loc, "this call as a value")
        return result

    def equal(self, left: ir.Expression, right: ir.Expression, typ: t.Type, loc: Loc) -> str:
        """C for `left == right` on structs, headers, stacks, varbits and wide values."""
        if isinstance(left, (ir.ListExpression, ir.StructExpression, ir.InvalidExpression)) or \
                isinstance(right, (ir.ListExpression, ir.StructExpression, ir.InvalidExpression)):
            raise Unsupported(loc, "comparison with an initializer")
        _ordered(left, right)
        return _equal_c(self.lvalue(left).c, self.lvalue(right).c, typ)


def _ordered(*operands: ir.Expression) -> ir.Expression:
    """The (last) operand: an operand that is a call with effects is a bug of the side-effect-ordering
    pass, which leaves them only as statements and whole values."""
    for expr in operands:
        if is_effect_call(expr) or is_apply_result(expr):
            raise InternalError(f"{expr.loc}: a call with effects inside an expression reached the C generator; "
                                "the side-effect-ordering pass should have made it a statement of its own")
    return operands[-1]


def _equal_c(a: str, b: str, typ: t.Type) -> str:
    if isinstance(typ, t.TupleT):
        typ = tuple_struct(typ)
    if isinstance(typ, t.Varbit):
        return f"({a}.len == {b}.len && memcmp({a}.b, {b}.b, ({a}.len + 7) / 8) == 0)"
    if is_wide(typ):
        return f"(memcmp({a}, {b}, sizeof {a}) == 0)"
    if isinstance(typ, t.Stack):
        return "(" + " && ".join(_equal_c(f"{a}.e[{i}]", f"{b}.e[{i}]", typ.element)
                                  for i in range(typ.size)) + ")" if typ.size else "1"
    if isinstance(typ, t.StructLike):
        fields = " && ".join(_equal_c(f"{a}.{c_ident(f.name)}", f"{b}.{c_ident(f.name)}", f.type)
                             for f in typ.fields) or "1"
        if typ.kind == "header":
            return f"((!{a}._valid && !{b}._valid) || ({a}._valid && {b}._valid && {fields}))"
        return f"({fields})"
    return f"({a} == {b})"
