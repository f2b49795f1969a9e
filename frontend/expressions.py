"""Typing of expressions, calls and constructor invocations."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterator, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc

if TYPE_CHECKING:
    from p4odp.frontend.typecheck import Context, TypeChecker

__all__ = ["check_expression", "check_constructor", "is_lvalue", "describe", "match_args"]

UNKNOWN = t.Unknown()
BOOL = t.Bool()
INT = t.InfInt()
VOID = t.Void()

_ARITH = {ir.BinaryOp.ADD, ir.BinaryOp.SUB, ir.BinaryOp.MUL, ir.BinaryOp.DIV, ir.BinaryOp.MOD,
          ir.BinaryOp.ADD_SAT, ir.BinaryOp.SUB_SAT, ir.BinaryOp.BAND, ir.BinaryOp.BOR, ir.BinaryOp.BXOR}
_ORDER = {ir.BinaryOp.LT, ir.BinaryOp.LE, ir.BinaryOp.GT, ir.BinaryOp.GE}

_SIZE_METHODS = ("minSizeInBits", "minSizeInBytes", "maxSizeInBits", "maxSizeInBytes")


def check_expression(tc: "TypeChecker", expr: ir.Expression, ctx: "Context",
                     expected: Optional[t.Type] = None, switch_subject: bool = False) -> ir.Expression:
    """Type `expr`; `switch_subject` allows `t.apply().action_run`, which is only valid there."""
    return _Expressions(tc, ctx, switch_subject).visit(expr, expected)


def check_constructor(tc: "TypeChecker", typ: t.Type, args: tuple, loc: Loc, ctx: "Context"):
    """Check `typ(args)`; return the typed arguments and the instance's type."""
    return _Expressions(tc, ctx).construct(typ, args, loc)


def is_lvalue(expr: ir.Expression, ctx: "Context") -> bool:
    if isinstance(expr, ir.PathExpression):
        symbol = ctx.scope.lookup_one(expr.name)
        return symbol is not None and symbol.writable
    if isinstance(expr, ir.Member):
        if isinstance(expr.expr.type, t.Stack):
            return expr.member in ("next", "last") and is_lvalue(expr.expr, ctx)
        return isinstance(expr.expr.type, (t.StructLike, t.Unknown)) and is_lvalue(expr.expr, ctx)
    if isinstance(expr, (ir.ArrayIndex, ir.Slice, ir.IndexedSlice)):
        return is_lvalue(expr.expr, ctx)
    return isinstance(expr, ir.DontCare)


class _Expressions:
    def __init__(self, tc: "TypeChecker", ctx: "Context", allow_action_run: bool = False) -> None:
        self.tc = tc
        self.ctx = ctx
        self.ctx_allows_action_run = allow_action_run

    def error(self, loc: Loc, message: str) -> None:
        self.tc.error(loc, message)

    def visit(self, expr: ir.Expression, expected: Optional[t.Type] = None) -> ir.Expression:
        method = getattr(self, "e_" + type(expr).__name__)
        return method(expr, expected)

    # ------------------------------------------------------------------
    # Leaves

    def e_IntLiteral(self, expr: ir.IntLiteral, expected):
        if expr.width is None:
            return replace(expr, type=INT)
        if expr.signed and expr.width == 0:
            self.error(expr.loc, "width of a signed literal cannot be zero")
            return replace(expr, type=UNKNOWN)
        if expr.width > 2048:
            self.error(expr.loc, f"{expr.width}: widths up to 2048 are supported")
            return replace(expr, type=UNKNOWN)
        limit = 1 << (expr.width - 1 if expr.signed else expr.width)
        if expr.value >= limit:
            self.tc.diags.warning(expr.loc, f"{expr.value} does not fit in {expr.width} bits; it is truncated")
        return replace(expr, type=t.Bits(expr.width, expr.signed))

    def e_BoolLiteral(self, expr, expected):
        return replace(expr, type=BOOL)

    def e_StringLiteral(self, expr, expected):
        return replace(expr, type=t.String())

    def e_DefaultExpression(self, expr, expected):
        return replace(expr, type=t.SetT(expected or UNKNOWN))

    def e_DontCare(self, expr, expected):
        self.error(expr.loc, "'_' cannot be used as a value")
        return replace(expr, type=UNKNOWN)

    def e_DefaultInitializer(self, expr, expected):
        if expected is None:
            self.error(expr.loc, "'...' needs a declared type to initialize")
            return replace(expr, type=UNKNOWN)
        return replace(expr, type=expected)

    def e_InvalidExpression(self, expr, expected):
        return replace(expr, type=t.InvalidT())

    def e_ThisExpression(self, expr, expected):
        symbol = self.ctx.scope.lookup_one("this")
        if symbol is None:
            self.error(expr.loc, "'this' is only allowed in the abstract methods of an instance")
            return replace(expr, type=UNKNOWN)
        return replace(expr, type=symbol.type)

    def e_PathExpression(self, expr: ir.PathExpression, expected):
        scope = self.tc.global_scope if expr.is_global else self.ctx.scope
        symbols = scope.lookup(expr.name)
        if not symbols:
            if expr.name == self.tc.function_checked:
                self.error(expr.loc, f"{expr.name}: a function cannot call itself (P4 has no recursion)")
            else:
                self.error(expr.loc, f"{expr.name}: declaration not found")
            return replace(expr, type=UNKNOWN)
        symbol = symbols[-1]
        if symbol.kind == "type":
            return replace(expr, type=t.TypeT(symbol.type))
        if symbol.kind in ("function", "extern_function"):
            sigs = tuple(sig for s in symbols if s.kind in ("function", "extern_function")
                         for sig in s.type.signatures)
            return replace(expr, type=t.CallableT(expr.name, sigs))
        if symbol.kind == "action":
            self.tc.used_actions.add(id(symbol.decl))
            return replace(expr, type=t.CallableT(expr.name, (symbol.value,)))
        if symbol.kind == "state":
            self.error(expr.loc, f"{expr.name}: a parser state cannot be used as a value")
            return replace(expr, type=UNKNOWN)
        return replace(expr, type=symbol.type)

    def e_TypeNameExpression(self, expr: ir.TypeNameExpression, expected):
        return replace(expr, type=t.TypeT(self.tc.resolve(expr.type_ref, self.ctx, allow_generic=True)))

    # ------------------------------------------------------------------
    # Members and indexing

    def e_Member(self, expr: ir.Member, expected):
        base = self.visit(expr.expr)
        btype = base.type
        name = expr.member
        result = replace(expr, expr=base)
        if isinstance(btype, t.Unknown):
            return replace(result, type=UNKNOWN)
        if isinstance(btype, t.TypeT):
            return replace(result, type=self.type_member(btype.of, name, expr.loc))
        if isinstance(btype, t.StructLike):
            f = btype.field(name)
            if f is not None:
                return replace(result, type=f.type)
            if btype.kind in ("header", "header_union") and name == "isValid":
                return replace(result, type=_builtin(name, (), BOOL))
            if btype.kind == "header" and name in ("setValid", "setInvalid"):
                return replace(result, type=_builtin(name, (), VOID))
            if name in _SIZE_METHODS:
                return replace(result, type=_builtin(name, (), INT))
            self.error(expr.loc, f"{name}: {btype} has no field or method of this name")
            return replace(result, type=UNKNOWN)
        if isinstance(btype, t.Stack):
            element = btype.element
            if name in ("next", "last"):
                if self.ctx.where not in ("state", "parser"):
                    self.error(expr.loc, f"{name}: stack elements '{name}' can only be used in a parser")
                return replace(result, type=element)
            if name == "size":
                return replace(result, type=INT)
            if name in ("lastIndex", "nextIndex"):
                if self.ctx.where not in ("state", "parser"):
                    self.error(expr.loc, f"{name}: '{name}' of a stack can only be used in a parser")
                return replace(result, type=t.Bits(32))
            if name in ("push_front", "pop_front"):
                return replace(result, type=_builtin(name, (t.Param("count", "in", INT),), VOID))
            if name in _SIZE_METHODS:
                return replace(result, type=_builtin(name, (), INT))
            self.error(expr.loc, f"{name}: a stack has no member of this name")
            return replace(result, type=UNKNOWN)
        if name in _SIZE_METHODS and isinstance(btype, (t.Bits, t.Varbit, t.Bool, t.EnumT, t.NewTypeT)):
            return replace(result, type=_builtin(name, (), INT))
        if isinstance(btype, t.ExternT):
            sigs = self.extern_methods(btype, name)
            if not sigs:
                self.error(expr.loc, f"{name}: extern {btype.name} has no method of this name")
                return replace(result, type=UNKNOWN)
            return replace(result, type=t.CallableT(name, sigs))
        if isinstance(btype, t.ObjectT) and btype.kind != "package" and name == "apply" and btype.apply is not None:
            return replace(result, type=t.CallableT("apply", (btype.apply,)))
        if isinstance(btype, t.TableT) and name == "apply":
            return replace(result, type=_builtin("apply", (), self.apply_result(btype)))
        if isinstance(btype, t.ApplyResult):
            if name in ("hit", "miss"):
                return replace(result, type=BOOL)
            if name == "action_run":
                if not self.ctx_allows_action_run:
                    self.error(expr.loc, "action_run can only be used as the expression of a switch statement")
                return replace(result, type=t.ActionEnum(btype.table, btype.actions))
        self.error(expr.loc, f"{name}: {btype} has no member of this name")
        return replace(result, type=UNKNOWN)

    def type_member(self, typ: t.Type, name: str, loc: Loc) -> t.Type:
        if isinstance(typ, t.ErrorT):
            if name not in self.tc.error_members:
                self.error(loc, f"error.{name}: no such error")
                return UNKNOWN
            return typ
        if isinstance(typ, t.EnumT):
            if name not in (m for m, _ in typ.members):
                self.error(loc, f"{name}: enum {typ.name} has no member of this name")
                return UNKNOWN
            return typ
        if name in _SIZE_METHODS and isinstance(typ, (t.StructLike, t.Bits, t.Stack, t.Varbit, t.Bool)):
            return _builtin(name, (), INT)
        if isinstance(typ, t.ObjectT) and typ.kind != "package" and name == "apply" and typ.apply is not None:
            return t.CallableT("apply", (typ.apply,))
        if isinstance(typ, t.Unknown):
            return UNKNOWN
        self.error(loc, f"{name}: type {typ} has no member of this name")
        return UNKNOWN

    def extern_methods(self, typ: t.ExternT, name: str) -> tuple:
        from p4odp.frontend.typecheck import substitute_signature

        decl = typ.decl
        if decl is None:
            return ()
        sigs = []
        mapping = extern_type_mapping(self.tc, typ)
        for method in decl.methods:
            if method.name == name and method.return_type is not None:
                sig = self.tc.method_signatures.get(id(method))
                if sig is None:
                    continue
                sigs.append(substitute_signature(sig, mapping) if mapping else sig)
        return tuple(sigs)

    def apply_result(self, table: t.TableT) -> t.ApplyResult:
        actions = ()
        if table.decl is not None:
            for prop in table.decl.properties:
                if prop.name == "actions" and isinstance(prop.value, tuple):
                    actions = tuple(ref.name for ref in prop.value)
        return t.ApplyResult(table.name, actions)

    def e_ArrayIndex(self, expr: ir.ArrayIndex, expected):
        base = self.visit(expr.expr)
        index = self.visit(expr.index)
        result = replace(expr, expr=base, index=index)
        if isinstance(base.type, t.Unknown):
            return replace(result, type=UNKNOWN)
        if not isinstance(_underlying(index.type), (t.Bits, t.InfInt, t.Unknown)):
            self.error(expr.index.loc, f"an array index must be an integer, not {index.type}")
        if isinstance(base.type, t.Stack):
            value = self.tc.const_value(index, self.ctx)
            if isinstance(value, int) and not isinstance(value, bool) and base.type.size and \
                    not 0 <= value < base.type.size:
                self.error(expr.index.loc, f"index {value} is out of bounds for {base.type}")
            return replace(result, type=base.type.element)
        if isinstance(base.type, t.TupleT):
            value = self.tc.const_value(index, self.ctx)
            if not isinstance(value, int) or not 0 <= value < len(base.type.elements):
                self.error(expr.index.loc, "a tuple index must be a constant within the tuple")
                return replace(result, type=UNKNOWN)
            return replace(result, type=base.type.elements[value])
        self.error(expr.loc, f"indexing is not defined on {base.type}")
        return replace(result, type=UNKNOWN)

    def e_Slice(self, expr: ir.Slice, expected):
        base = self.visit(expr.expr)
        high = self.visit(expr.high)
        low = self.visit(expr.low)
        result = replace(expr, expr=base, high=high, low=low)
        btype = _underlying(base.type)
        if isinstance(btype, t.Unknown):
            return replace(result, type=UNKNOWN)
        hi, lo = self.tc.const_value(high, self.ctx), self.tc.const_value(low, self.ctx)
        if not isinstance(btype, (t.Bits, t.InfInt)):
            self.error(expr.loc, f"bit slices are defined on bit<> and int<>, not {base.type}")
            return replace(result, type=UNKNOWN)
        if hi is None or lo is None or isinstance(hi, bool) or isinstance(lo, bool):
            self.error(expr.loc, "slice bounds must be compile-time constants")
            return replace(result, type=UNKNOWN)
        if 0 <= hi < lo and not (isinstance(btype, t.Bits) and lo >= btype.width):
            self.error(expr.loc, f"[{hi}:{lo}]: the high bit comes first in a slice: [{lo}:{hi}]")
            return replace(result, type=UNKNOWN)
        if lo < 0 or hi < lo or (isinstance(btype, t.Bits) and hi >= btype.width):
            self.error(expr.loc, f"[{hi}:{lo}]: slice bounds out of range for {base.type}")
            return replace(result, type=UNKNOWN)
        return replace(result, type=t.Bits(hi - lo + 1))

    def e_IndexedSlice(self, expr: ir.IndexedSlice, expected):
        base = self.visit(expr.expr)
        low = self.visit(expr.low)
        width = self.visit(expr.width)
        result = replace(expr, expr=base, low=low, width=width)
        w = self.tc.const_value(width, self.ctx)
        lo = self.tc.const_value(low, self.ctx)
        if isinstance(lo, int) and lo < 0:
            self.error(expr.low.loc, f"negative bit index {lo}")
            return replace(result, type=UNKNOWN)
        base_bits = _underlying(base.type)
        if isinstance(base_bits, t.Bits) and isinstance(lo, int) and isinstance(w, int) and \
                lo + w > base_bits.width:
            self.error(expr.loc, f"[{lo} +: {w}]: slice out of range for {base.type}")
            return replace(result, type=UNKNOWN)
        if not isinstance(w, int) or isinstance(w, bool) or w <= 0:
            self.error(expr.width.loc, "the width of a slice must be a positive constant")
            return replace(result, type=UNKNOWN)
        if not isinstance(_underlying(base.type), (t.Bits, t.InfInt, t.Unknown)):
            self.error(expr.loc, f"bit slices are defined on bit<> and int<>, not {base.type}")
            return replace(result, type=UNKNOWN)
        return replace(result, type=t.Bits(w))

    # ------------------------------------------------------------------
    # Operators

    def e_Unary(self, expr: ir.Unary, expected):
        inner = self.visit(expr.expr, expected)
        result = replace(expr, expr=inner)
        typ = inner.type
        if isinstance(typ, t.Unknown):
            return replace(result, type=UNKNOWN)
        if expr.op is ir.UnaryOp.NOT:
            if not isinstance(typ, t.Bool):
                self.error(expr.loc, f"!: cannot be applied to an expression of type {typ}")
                return replace(result, type=UNKNOWN)
            return replace(result, type=BOOL)
        if expr.op is ir.UnaryOp.CMPL:
            if isinstance(typ, t.InfInt):
                self.error(expr.loc, "~: cannot be applied to an untyped integer; give it a width")
                return replace(result, type=UNKNOWN)
            if not isinstance(typ, t.Bits):
                self.error(expr.loc, f"~: cannot be applied to an expression of type {typ}")
                return replace(result, type=UNKNOWN)
            return replace(result, type=typ)
        if not isinstance(_underlying(typ), (t.Bits, t.InfInt)):
            self.error(expr.loc, f"{expr.op.value}: cannot be applied to an expression of type {typ}")
            return replace(result, type=UNKNOWN)
        return replace(result, type=_underlying(typ))

    def e_Binary(self, expr: ir.Binary, expected):
        op = expr.op
        if op in (ir.BinaryOp.MASK, ir.BinaryOp.RANGE):
            left = self.visit(expr.left, expected)
            right = self.visit(expr.right, expected)
            if isinstance(left.type, t.InfInt) and isinstance(right.type, t.Bits):
                left = self.tc.coerce(left, right.type, left.loc, op.value)
            elif isinstance(right.type, t.InfInt) and isinstance(left.type, t.Bits):
                right = self.tc.coerce(right, left.type, right.loc, op.value)
            return replace(expr, left=left, right=right, type=t.SetT(left.type))
        left = self.visit(expr.left)
        right = self.visit(expr.right)
        result = replace(expr, left=left, right=right)
        lt, rt = left.type, right.type
        if isinstance(lt, t.Unknown) or isinstance(rt, t.Unknown):
            return replace(result, type=BOOL if op in _ORDER or op in (ir.BinaryOp.EQ, ir.BinaryOp.NE,
                                                                     ir.BinaryOp.AND, ir.BinaryOp.OR) else UNKNOWN)
        where = f"{op.value}"
        if op in (ir.BinaryOp.AND, ir.BinaryOp.OR):
            if not isinstance(lt, t.Bool) or not isinstance(rt, t.Bool):
                self.error(expr.loc, f"{where}: operands must be bool, not {lt} and {rt}")
                return replace(result, type=UNKNOWN)
            return replace(result, type=BOOL)
        if op in (ir.BinaryOp.SHL, ir.BinaryOp.SHR):
            return self.shift(result, lt, rt)
        if op is ir.BinaryOp.CONCAT:
            if isinstance(lt, t.String) and isinstance(rt, t.String):
                return replace(result, type=lt)
            lb, rb = _underlying(lt), _underlying(rt)
            if isinstance(lb, t.InfInt) or isinstance(rb, t.InfInt):
                self.error(expr.loc, "++: concatenation needs operands of known width")
                return replace(result, type=UNKNOWN)
            if not isinstance(lb, t.Bits) or not isinstance(rb, t.Bits):
                self.error(expr.loc, f"++: cannot concatenate {lt} and {rt}")
                return replace(result, type=UNKNOWN)
            return replace(result, type=t.Bits(lb.width + rb.width, lb.signed))
        if op in (ir.BinaryOp.DIV, ir.BinaryOp.MOD):
            divisor = self.tc.const_value(right, self.ctx)
            if isinstance(divisor, int) and not isinstance(divisor, bool) and divisor < 0:
                self.error(expr.loc, f"{where}: division is not defined on negative numbers")
                return replace(result, type=UNKNOWN)
        if op in (ir.BinaryOp.EQ, ir.BinaryOp.NE):
            left, right, common = self.unify_operands(left, right, expr.loc, where)
            if common is None:
                return replace(result, left=left, right=right, type=UNKNOWN)
            if isinstance(common, (t.ExternT, t.ObjectT, t.TableT, t.Void, t.CallableT, t.TypeT, t.ApplyResult,
                                   t.ActionEnum, t.TypeVar)):
                self.error(expr.loc, f"{where}: values of type {common} cannot be compared")
            elif isinstance(common, t.StructLiteral):  # as p4c: which struct type would say what == means
                self.error(expr.loc, f"{where}: cannot compare struct initializers of no declared type")
            return replace(result, left=left, right=right, type=BOOL)
        # arithmetic and ordering
        left, right, common = self.unify_operands(left, right, expr.loc, where)
        result = replace(result, left=left, right=right)
        if common is None:
            return replace(result, type=UNKNOWN)
        base = common = _underlying(common)
        if not isinstance(base, (t.Bits, t.InfInt)):
            self.error(expr.loc, f"{where}: cannot be applied to expressions of type {common}")
            return replace(result, type=UNKNOWN)
        if op in (ir.BinaryOp.DIV, ir.BinaryOp.MOD):
            if isinstance(base, t.Bits) and base.signed:
                self.error(expr.loc, f"{where}: division is not defined on signed values")
                return replace(result, type=UNKNOWN)
            divisor = self.tc.const_value(right, self.ctx)
            if divisor == 0 and divisor is not False:
                self.error(expr.loc, f"{where}: division by zero")
                return replace(result, type=UNKNOWN)
            if isinstance(divisor, int) and divisor < 0:
                self.error(expr.loc, f"{where}: division is not defined on negative numbers")
                return replace(result, type=UNKNOWN)
            if isinstance(base, t.InfInt):
                dividend = self.tc.const_value(left, self.ctx)
                if (isinstance(dividend, int) and dividend < 0) or (isinstance(divisor, int) and divisor < 0):
                    self.error(expr.loc, f"{where}: division of negative integers is not defined")
                    return replace(result, type=UNKNOWN)
        if op in (ir.BinaryOp.ADD_SAT, ir.BinaryOp.SUB_SAT) and isinstance(base, t.InfInt):
            self.error(expr.loc, f"{where}: saturating arithmetic needs operands of known width")
            return replace(result, type=UNKNOWN)
        if op in _ORDER:
            return replace(result, type=BOOL)
        return replace(result, type=common)

    def shift(self, result: ir.Binary, lt: t.Type, rt: t.Type) -> ir.Expression:
        where = result.op.value
        if not isinstance(_underlying(lt), (t.Bits, t.InfInt)):
            self.error(result.loc, f"{where}: cannot shift a value of type {lt}")
            return replace(result, type=UNKNOWN)
        if isinstance(rt, t.NewTypeT):
            self.error(result.loc, f"{where}: the shift amount must be bit<> or a constant, not {rt}")
            return replace(result, type=UNKNOWN)
        rt = _underlying(rt)
        amount = self.tc.const_value(result.right, self.ctx)
        if isinstance(rt, t.Bits) and rt.signed and amount is None:
            self.error(result.loc, f"{where}: the shift amount must be unsigned")
            return replace(result, type=UNKNOWN)
        if not isinstance(rt, (t.Bits, t.InfInt)):
            self.error(result.loc, f"{where}: the shift amount cannot have type {rt}")
            return replace(result, type=UNKNOWN)
        if isinstance(amount, int) and amount < 0:
            self.error(result.loc, f"{where}: negative shift amount {amount}")
            return replace(result, type=UNKNOWN)
        if isinstance(lt, t.InfInt) and amount is None:
            self.error(result.loc, f"{where}: shifting an untyped integer needs a constant amount")
            return replace(result, type=UNKNOWN)
        if isinstance(lt, t.InfInt) and isinstance(amount, int) and amount > 2048 and result.op is ir.BinaryOp.SHL:
            self.error(result.loc, f"{where}: widths up to 2048 are supported")
            return replace(result, type=UNKNOWN)
        right = result.right
        if isinstance(rt, t.InfInt):
            right = replace(right, type=rt)
        return replace(result, right=right, type=lt)

    def unify_operands(self, left: ir.Expression, right: ir.Expression, loc: Loc, where: str):
        """Bring two operands to one type (untyped integers take the other side's)."""
        lt, rt = left.type, right.type
        if lt == rt:
            return left, right, lt
        if isinstance(lt, t.Unknown) or isinstance(rt, t.Unknown):
            return left, right, UNKNOWN  # reported already
        if isinstance(lt, t.InfInt) and self.tc.compatible(rt, lt):
            return self.tc.coerce(left, rt, left.loc, where), right, rt
        if isinstance(rt, t.InfInt) and self.tc.compatible(lt, rt):
            return left, self.tc.coerce(right, lt, right.loc, where), lt
        if isinstance(lt, t.EnumT) and lt.underlying is not None and isinstance(rt, t.Bits) and lt.underlying == rt:
            return left, right, rt
        if isinstance(lt, t.EnumT) and isinstance(rt, t.EnumT) and lt.underlying is not None and \
                lt.underlying == rt.underlying:
            return left, right, lt.underlying
        if isinstance(lt, t.EnumT) and lt.underlying is not None and isinstance(rt, t.InfInt):
            return left, self.tc.coerce(right, lt.underlying, right.loc, where), lt.underlying
        if isinstance(rt, t.EnumT) and rt.underlying is not None and isinstance(lt, t.InfInt):
            return self.tc.coerce(left, rt.underlying, left.loc, where), right, rt.underlying
        if isinstance(rt, t.EnumT) and rt.underlying is not None and isinstance(lt, t.Bits) and rt.underlying == lt:
            return left, right, lt
        if isinstance(lt, t.InfInt) and isinstance(rt, (t.EnumT, t.NewTypeT)) or \
                isinstance(rt, t.InfInt) and isinstance(lt, (t.EnumT, t.NewTypeT)):
            self.error(loc, f"{where}: cannot be applied to {lt} and {rt} without a cast")
            return left, right, None
        if isinstance(lt, t.InvalidT) and isinstance(rt, t.StructLike) or \
                isinstance(rt, t.InvalidT) and isinstance(lt, t.StructLike):
            return left, right, lt if isinstance(lt, t.StructLike) else rt
        if isinstance(lt, (t.TupleT, t.StructLiteral)) and self.tc.compatible(rt, lt):
            return self.tc.coerce(left, rt, loc, where), right, rt
        if isinstance(rt, (t.TupleT, t.StructLiteral)) and self.tc.compatible(lt, rt):
            return left, self.tc.coerce(right, lt, loc, where), lt
        if isinstance(lt, t.EnumT) and isinstance(rt, t.EnumT) and lt.name == rt.name:
            return left, right, lt
        self.error(loc, f"{where}: cannot be applied to expressions of types {lt} and {rt}")
        return left, right, None

    def e_Mux(self, expr: ir.Mux, expected):
        cond = self.visit(expr.cond)
        if not isinstance(cond.type, (t.Bool, t.Unknown)):
            self.error(expr.cond.loc, f"?: the condition must be bool, not {cond.type}")
        then = self.visit(expr.then, expected)
        otherwise = self.visit(expr.otherwise, expected)
        then, otherwise, common = self.unify_operands(then, otherwise, expr.loc, "?:")
        if common is None:
            common = UNKNOWN
        elif isinstance(common, t.InfInt) and self.tc.const_value(cond, self.ctx) is None:
            self.error(expr.loc, "?: the width of the result cannot be inferred; cast one branch")
            common = UNKNOWN
        return replace(expr, cond=cond, then=then, otherwise=otherwise, type=common)

    def e_Cast(self, expr: ir.Cast, expected):
        to = self.tc.resolve(expr.to, self.ctx)
        inner = self.visit(expr.expr, to)
        result = replace(expr, expr=inner, type=to)
        src = inner.type
        if isinstance(src, t.Unknown) or isinstance(to, t.Unknown):
            return result
        if not _castable(self.tc, src, to):
            self.error(expr.loc, f"cast from {src} to {to} is not supported")
            return replace(result, type=UNKNOWN)
        if isinstance(to, t.Bool) and isinstance(src, t.InfInt):
            value = self.tc.const_value(inner, self.ctx)
            if value not in (0, 1):
                self.error(expr.loc, "only 0 and 1 can be cast to bool")
                return replace(result, type=UNKNOWN)
        if isinstance(inner.type, (t.TupleT, t.StructLiteral)):
            return replace(result, expr=self.tc.coerce(inner, to, expr.loc, "cast"))
        return result

    # ------------------------------------------------------------------
    # Initializers

    def e_ListExpression(self, expr: ir.ListExpression, expected):
        hints: list = [None] * len(expr.elements)
        if isinstance(expected, t.TupleT) and len(expected.elements) == len(expr.elements):
            hints = list(expected.elements)
        elif isinstance(expected, t.StructLike) and len(expected.fields) == len(expr.elements):
            hints = [f.type for f in expected.fields]
        elif isinstance(expected, (t.ListT, t.Stack)):
            hints = [expected.element] * len(expr.elements)
        elements = tuple(self.visit(e, h) for e, h in zip(expr.elements, hints))
        return replace(expr, elements=elements, type=t.TupleT(tuple(e.type for e in elements)))

    def e_StructExpression(self, expr: ir.StructExpression, expected):
        declared = None
        if expr.type_ref is not None:
            declared = self.tc.resolve(expr.type_ref, self.ctx)
            if not isinstance(declared, (t.StructLike, t.Unknown)):
                self.error(expr.loc, f"{declared}: a struct initializer needs a struct or header type")
                declared = UNKNOWN
        hint_type = declared or expected
        fields, names = [], set()
        for f in expr.fields:
            if f.name in names:
                self.error(f.loc, f"{f.name}: field initialized twice")
            names.add(f.name)
            hint = hint_type.field(f.name).type if isinstance(hint_type, t.StructLike) and \
                hint_type.field(f.name) else None
            value = self.visit(f.value, hint)
            fields.append(replace(f, value=value))
        literal = t.StructLiteral(tuple(t.Field(f.name, f.value.type) for f in fields))
        result = replace(expr, fields=tuple(fields), type=literal)
        if expr.dots and isinstance(hint_type, t.StructLike):
            for i, f in enumerate(fields):
                field = hint_type.field(f.name)
                if field is None:
                    self.error(f.loc, f"{f.name}: {hint_type} has no field of this name")
                else:
                    fields[i] = replace(f, value=self.tc.coerce(f.value, field.type, f.value.loc, f"field {f.name}"))
            return replace(result, fields=tuple(fields), type=hint_type)
        if isinstance(declared, t.StructLike):
            return self.tc.coerce(result, declared, expr.loc, "initializer")
        if isinstance(declared, t.Unknown):
            return replace(result, type=UNKNOWN)
        return result

    # ------------------------------------------------------------------
    # Calls

    def e_SelectExpression(self, expr, expected):
        self.error(expr.loc, "select expressions are only allowed in transitions")
        return replace(expr, type=UNKNOWN)

    def e_ConstructorCall(self, expr: ir.ConstructorCall, expected):  # built only by `e_MethodCall`
        typ = self.tc.resolve(expr.type_ref, self.ctx, allow_generic=True)
        args, result_type = self.construct(typ, expr.args, expr.loc)
        return replace(expr, args=args, type=result_type)

    def e_MethodCall(self, expr: ir.MethodCall, expected):
        callee = self.visit(expr.method)
        if isinstance(callee, ir.Member) and not isinstance(callee.type, t.CallableT):
            # A field may share its name with a built-in method: the call means the method.
            member, base_type = callee.member, callee.expr.type
            if member in ("isValid", "setValid", "setInvalid") and isinstance(base_type, t.StructLike) \
                    and base_type.kind != "struct":
                callee = replace(callee, type=_builtin(member, (), BOOL if member == "isValid" else VOID))
            elif member in _SIZE_METHODS and not isinstance(base_type, (t.ExternT, t.TypeT)):
                callee = replace(callee, type=_builtin(member, (), INT))
        ctype = callee.type
        type_args = tuple(self.tc.resolve(a, self.ctx) for a in expr.type_args)
        if isinstance(ctype, t.TypeT):
            # `T(args)`: a constructor call in an expression.
            typ = ctype.of
            if type_args:
                typ = self.tc.specialize(typ, type_args, expr.loc)
            args, result_type = self.construct(typ, expr.args, expr.loc)
            if isinstance(typ, t.ExternT) and typ.decl is not None and any(m.abstract for m in typ.decl.methods):
                self.error(expr.loc, f"{typ.name}: an extern with abstract methods must be instantiated with "
                                     "a declaration that implements them")
            type_ref = expr.method.type_ref if isinstance(expr.method, ir.TypeNameExpression) else \
                ir.TypeName(expr.method.loc, getattr(expr.method, "name", "?"))
            return ir.ConstructorCall(expr.loc, type_ref, args, type=result_type)
        if isinstance(ctype, t.Unknown):
            args = tuple(self.argument_unknown(a) for a in expr.args)
            return replace(expr, method=callee, args=args, type=UNKNOWN)
        if not isinstance(ctype, t.CallableT):
            self.error(expr.loc, f"{describe(expr.method)} is not a method or function (it is {ctype})")
            args = tuple(self.argument_unknown(a) for a in expr.args)
            return replace(expr, method=callee, args=args, type=UNKNOWN)
        sig, args, returns = self.call(ctype, expr.args, type_args, expr.loc)
        self.check_call_site(expr, callee, sig, args)
        if _is_table_apply(callee) and self.ctx.where in ("action", "function", "parser", "state"):
            self.error(expr.loc, f"{describe(expr.method)}: tables can only be applied in a control's apply block")
        return replace(expr, method=callee, type_args=expr.type_args, args=args, type=returns)

    def check_call_site(self, expr: ir.MethodCall, callee: ir.Expression, sig, args: tuple) -> None:
        """Rules on where a call may stand and on the arguments of the core externs."""
        if sig is None:
            return
        if isinstance(callee, ir.PathExpression) and callee.name == "static_assert" and args and \
                args[0].value is not None and self.tc.const_value(args[0].value, self.ctx) is False:
            message = args[1].value.value if len(args) > 1 and isinstance(args[1].value, ir.StringLiteral) \
                else "the condition is false"
            self.error(expr.loc, f"static assertion failed: {message}")
        where = self.ctx.where
        name = describe(expr.method)
        if sig.kind == "action" and where in ("parser", "state", "function"):
            self.error(expr.loc, f"{name}: actions cannot be called from a {where if where != 'state' else 'parser'}")
        if isinstance(callee, ir.Member) and callee.member == "apply" and isinstance(callee.expr.type, t.ObjectT) \
                and where in ("action", "function"):
            self.error(expr.loc, f"{name}: apply cannot be called from {where}s")
        if isinstance(callee, ir.PathExpression) and callee.name == "verify" and where not in ("parser", "state"):
            self.error(expr.loc, "verify may only be invoked in parsers")
        if not isinstance(callee, ir.Member) or not isinstance(callee.expr.type, t.ExternT):
            return
        extern = callee.expr.type.name
        if extern == "packet_in" and callee.member == "extract" and args and args[0].value is not None:
            target = args[0].value.type
            if not (isinstance(target, t.StructLike) and target.kind in ("header", "header_union")) and \
                    not isinstance(target, t.Unknown):
                self.error(args[0].loc, f"{describe(args[0].value)}: the argument of extract must be a header")
            elif isinstance(target, t.StructLike):
                varbits = sum(isinstance(f.type, t.Varbit) for f in target.fields)
                has_varbit = varbits > 0
                if varbits > 1:
                    self.error(args[0].loc, f"{target}: a header to extract can have only one varbit field")
                if len(args) == 1 and has_varbit:
                    self.error(args[0].loc, f"{describe(args[0].value)}: a header with a varbit field needs the "
                                            "two-argument extract")
                if len(args) == 2 and not has_varbit:
                    self.error(args[0].loc, f"{describe(args[0].value)}: the two-argument extract needs a header "
                                            "with a varbit field")
        if extern == "packet_in" and callee.member == "lookahead" and expr.type_args:
            looked = self.tc.resolve(expr.type_args[0], self.ctx)
            if isinstance(looked, t.Void) or isinstance(looked, t.StructLike) and any(
                    isinstance(f.type, t.Varbit) for f in looked.fields):
                self.error(expr.loc, f"{looked}: lookahead needs a fixed-width type")

    def argument_unknown(self, arg: ir.Argument) -> ir.Argument:
        if arg.value is None:
            return arg
        return replace(arg, value=self.visit(arg.value))

    def call(self, ctype: t.CallableT, args: tuple, type_args: tuple, loc: Loc):
        """Pick the signature that fits `args`, check the arguments against it."""
        candidates = [s for s in ctype.signatures if _arity_fits(s, args)]
        if not candidates:
            counts = sorted({len(s.params) for s in ctype.signatures})
            self.error(loc, f"{ctype.name}: no overload takes {len(args)} argument(s)"
                            f" (it takes {', '.join(map(str, counts))})")
            return None, tuple(self.argument_unknown(a) for a in args), UNKNOWN
        if len(candidates) > 1:
            typed_probe = [self.argument_unknown(a) for a in args]
            fitting = [s for s in candidates if self._args_fit(s, typed_probe)]
            if len(fitting) > 1:
                self.error(loc, f"{ctype.name}: ambiguous call, {len(fitting)} overloads fit its arguments")
            if fitting:
                candidates = fitting
        sig = candidates[0]
        return self.apply_signature(sig, args, type_args, loc)

    def _args_fit(self, sig: t.Signature, typed_args: list) -> bool:
        params = match_args(sig, typed_args)
        if params is None:
            return False
        return all(arg.value is None or self.tc.compatible(p.type, arg.value.type) or self.binds(p.type)
                   for p, arg in params)

    def apply_signature(self, sig: t.Signature, args: tuple, type_args: tuple, loc: Loc):
        from p4odp.frontend.typecheck import substitute

        bindings: dict = {}
        if type_args:
            if len(type_args) != len(sig.type_params):
                self.error(loc, f"{sig.name}: expected {len(sig.type_params)} type arguments, got {len(type_args)}")
            else:
                bindings = {p: a for p, a in zip(sig.type_params, type_args) if not isinstance(a, t.DontCareT)}
        pairs = match_args(sig, list(args))
        if pairs is None:
            self.error(loc, f"{sig.name}: the arguments do not match the parameters")
            return sig, tuple(self.argument_unknown(a) for a in args), UNKNOWN
        typed_args = []
        for param, arg in pairs:
            ptype = substitute(param.type, bindings)
            if arg.value is None:  # `_`: a don't-care argument, only where a value comes out
                if param.direction != "out" and not param.optional:
                    self.error(arg.loc, f"{sig.name}: '_' can only be passed for out parameters, "
                                        f"not for {param.name}")
                # The typed IR says what is thrown away (`extract<T>(_)` skips a T).
                typed_args.append(arg if self.binds(ptype) else replace(arg, value=ir.DontCare(arg.loc, type=ptype)))
                continue
            hint = ptype if not self.binds(ptype) else None
            value = self.visit(arg.value, hint)
            if self.binds(ptype):
                self.unify(ptype, value.type, bindings, sig.type_params)
                ptype = substitute(ptype, bindings)
                if isinstance(ptype, t.StructLiteral):
                    self.error(arg.loc, f"{sig.name}: cannot infer a struct type for the initializer passed "
                                        f"as {param.name}; cast it to one")
                elif isinstance(ptype, t.InfInt) and sig.kind != "builtin":
                    self.error(arg.loc, f"{describe(arg.value)}: could not infer a width; cast the value")
                elif isinstance(ptype, t.String) and param.direction:
                    self.error(arg.loc, f"{param.name}: a parameter with type string cannot have a direction")
            if isinstance(value.type, t.TypeT):
                self.error(arg.loc, f"{describe(arg.value)}: a type cannot be used as a value")
            if isinstance(value.type, (t.ObjectT, t.TableT)) and not isinstance(param.type, (t.ObjectT, t.TableT)):
                self.error(arg.loc, f"{describe(arg.value)}: an argument cannot have type {value.type}")
            if not param.direction and sig.kind in ("function", "method") and \
                    not isinstance(value.type, t.Unknown) and not self.tc.is_constant(value, self.ctx, directionless=True):
                self.error(arg.loc, f"{describe(arg.value)}: argument used for directionless parameter "
                                    f"'{param.name}' must be a compile-time constant")
            if sig.kind == "builtin" and sig.name in ("push_front", "pop_front") and \
                    not self.tc.is_constant(value, self.ctx):
                self.error(arg.loc, f"{sig.name}: the count must be a compile-time constant")
            if param.direction in ("out", "inout"):
                if not is_lvalue(value, self.ctx):
                    self.error(arg.loc, f"{describe(arg.value)}: an {param.direction} argument must be "
                                        f"something that can be assigned")
                elif not _exactly(ptype, value.type) and not self.tc.compatible(ptype, value.type) or \
                        isinstance(value.type, t.TupleT) and isinstance(ptype, t.StructLike):
                    # (a tuple converts to a struct as a value, not as a place a callee writes)
                    self.error(arg.loc, f"{sig.name}: argument {param.name} has type {value.type}, "
                                        f"expected {ptype}")
                elif isinstance(value.type, t.InfInt) or (not self.binds(ptype) and isinstance(ptype, t.Bits)
                                                          and value.type != ptype
                                                          and not isinstance(value.type, t.Unknown)):
                    self.error(arg.loc, f"{sig.name}: argument {param.name} has type {value.type}, "
                                        f"expected {ptype}")
            elif not self.binds(ptype):
                value = self.tc.coerce(value, ptype, arg.loc, f"{sig.name}: argument {param.name}")
            typed_args.append(replace(arg, value=value))
        for param, arg in pairs:
            if arg.value is None and param.direction == "out" and self.binds(substitute(param.type, bindings)):
                self.error(arg.loc, f"{sig.name}: could not infer a type for '_' ({param.name}); "
                                    "give the type argument")
        returns = substitute(sig.returns, bindings)
        if sig.kind in ("function", "method"):
            # (an argument in error, of unknown type, binds nothing: its error is enough)
            reported = any(arg.value is not None and isinstance(arg.value.type, t.Unknown) for arg in typed_args)
            unbound = [] if reported else [(arg.loc, v) for param, arg in pairs if arg.value is not None
                       for v in _type_vars(substitute(param.type, bindings)) if isinstance(v, t.TypeVar)
                       and not self.rigid(v)]
            unbound += [(loc, v) for v in _type_vars(returns) if isinstance(v, t.TypeVar) and not self.rigid(v)]
            if unbound or reported:
                returns = UNKNOWN
            if unbound:
                where, var = unbound[0]
                self.error(where, f"{sig.name}: could not infer a type for {var} from the arguments; "
                                  "give the type argument")
        return sig, tuple(typed_args), returns

    def binds(self, typ: t.Type) -> bool:
        """Whether a call binds a type variable in `typ`: `_`, or a type parameter but those of the
        declarations around the call, which are only themselves there."""
        return any(not self.rigid(v) for v in _type_vars(typ))

    def rigid(self, var: t.Type) -> bool:
        """Whether `var` is a type parameter declared around the expression: its own declaration's
        body sees it by name, and there it stands for whatever type an instance gives it."""
        return isinstance(var, t.TypeVar) and any(s.type == var for s in self.ctx.scope.lookup(var.name))

    def unify(self, param: t.Type, arg: t.Type, bindings: dict, type_params: tuple) -> None:
        if isinstance(param, t.DontCareT):
            return
        if isinstance(param, t.TypeVar):
            if param in bindings or isinstance(arg, t.Unknown) or self.rigid(param):
                return
            bindings[param] = arg
            return
        if isinstance(param, t.TupleT) and isinstance(arg, t.TupleT) and len(param.elements) == len(arg.elements):
            for p, a in zip(param.elements, arg.elements):
                self.unify(p, a, bindings, type_params)
        if isinstance(param, (t.Stack, t.ListT)) and isinstance(arg, (t.Stack, t.ListT)):
            self.unify(param.element, arg.element, bindings, type_params)
        if isinstance(param, (t.ExternT, t.ObjectT)) and type(param) is type(arg) and param.name == arg.name:
            for p, a in zip(param.type_args, arg.type_args):  # (a package given an instance of its parameter's)
                self.unify(p, a, bindings, type_params)
        if isinstance(param, t.StructLike) and isinstance(arg, t.StructLike) and param.generic and arg.generic \
                and param.generic[0] == arg.generic[0]:  # h<T> given an h<bit<8>>
            for p, a in zip(param.generic[1], arg.generic[1]):
                self.unify(p, a, bindings, type_params)

    # ------------------------------------------------------------------
    # Constructors

    def construct(self, typ: t.Type, args: tuple, loc: Loc):
        if isinstance(typ, t.Unknown):
            return tuple(self.argument_unknown(a) for a in args), UNKNOWN
        if isinstance(typ, t.ExternT):
            decl = typ.decl
            from p4odp.frontend.typecheck import substitute_signature

            ctors = tuple(self.tc.method_signatures[id(m)] for m in decl.methods
                          if m.return_type is None and id(m) in self.tc.method_signatures)
            mapping = extern_type_mapping(self.tc, typ)
            if mapping:
                ctors = tuple(substitute_signature(c, mapping) for c in ctors)
            if not ctors:
                self.error(loc, f"{typ.name}: this extern has no constructor")
                return tuple(self.argument_unknown(a) for a in args), typ
            sig, typed_args, _ = self.call(t.CallableT(typ.name, ctors), args, (), loc)
            if sig is None:
                return typed_args, typ
            return typed_args, self.infer_extern_args(typ, sig, typed_args)
        if isinstance(typ, t.ObjectT):
            decl = typ.decl
            if typ.kind == "package":
                overloads = [s.type for s in self.tc.global_scope.lookup(typ.name)
                             if isinstance(s.decl, ir.Package) and isinstance(s.type, t.ObjectT)] or [typ]
                if typ.type_args and not _has_var(typ):
                    overloads = [self.tc.specialize(o, typ.type_args, loc) for o in overloads
                                 if len(o.decl.type_params) == len(typ.type_args)] or [typ]
                ctors = tuple(o.apply for o in overloads if isinstance(o, t.ObjectT))
                sig, typed_args, _ = self.call(t.CallableT(typ.name, ctors), args, (), loc)
                chosen = next((o for o in overloads if isinstance(o, t.ObjectT) and o.apply is sig), typ)
                if chosen.decl is not decl:  # another overload than the one the name found
                    typ, decl = chosen, chosen.decl
                pairs = (match_args(sig, list(typed_args)) or []) if sig is not None else []
                bindings = self.check_package_args(typ, pairs)
                params = [self.tc.decl_types[id(p)] for p in decl.type_params]
                inferred = params and typ.type_args in ((), tuple(params))
                given = [set(_type_vars(param.type)) for param, arg in pairs if arg.value is not None]
                left_out = [p for p in (sig.params if sig is not None else ()) if all(p is not q for q, _ in pairs)]
                defaulted = [set(_type_vars(param.type)) for param in left_out if param.has_default]
                # A default argument is typed by the package's type arguments, it does not give them (an
                # @optional parameter left out leaves its own unbound, as p4c lets it).
                unbound = next((p for p in params if not any(p in g for g in given) and any(p in d for d in defaulted)),
                               None) if inferred else None
                if unbound is not None:
                    self.error(loc, f"{typ.name}: could not infer a type for {unbound} from the arguments; give the "
                                    "type argument")
                elif inferred and all(p in bindings and not _has_var(bindings[p]) for p in params):
                    # An instance of Ingress<IH> whose arguments make IH = H is an Ingress<H>: another
                    # package given it checks its own type arguments against that.
                    return typed_args, self.tc.specialize(typ, tuple(bindings[p] for p in params), loc)
                return typed_args, typ
            if isinstance(decl, (ir.ParserType, ir.ControlType)):
                self.error(loc, f"{typ.name}: a {typ.kind} type without a body cannot be instantiated")
                return tuple(self.argument_unknown(a) for a in args), UNKNOWN
            if isinstance(decl, (ir.Parser, ir.Control)):
                ctor_params = self.tc.ctor_params.get(id(decl), ())
                ctor = t.Signature(typ.name, (), ctor_params, typ, "constructor")
                _, typed_args, _ = self.call(t.CallableT(typ.name, (ctor,)), args, (), loc)
                return typed_args, typ
        self.error(loc, f"{typ} cannot be instantiated")
        return tuple(self.argument_unknown(a) for a in args), UNKNOWN

    def infer_extern_args(self, typ: t.ExternT, sig: t.Signature, typed_args: tuple) -> t.ExternT:
        decl = typ.decl
        if not decl.type_params:
            return typ
        params = [self.tc.decl_types[id(p)] for p in decl.type_params]
        if typ.type_args and not any(isinstance(a, t.DontCareT) for a in typ.type_args):
            return typ
        bindings: dict = {}
        if typ.type_args:
            bindings = {p: a for p, a in zip(params, typ.type_args) if not isinstance(a, t.DontCareT)}
        pairs = match_args(sig, list(typed_args)) or []
        for param, arg in pairs:
            if arg.value is not None:
                self.unify(param.type, arg.value.type, bindings, tuple(params))
        return t.ExternT(typ.name, tuple(bindings.get(p, p) for p in params), decl)

    def check_package_args(self, package: t.ObjectT, pairs: list) -> dict:
        """Each argument of a package (`pairs` of parameter and argument) must be an instance of a
        compatible parser, control or package.  The package's type parameters the arguments bind,
        and to what."""
        from p4odp.frontend.typecheck import substitute

        bindings: dict = {}
        for param, arg in pairs:
            if arg.value is None:
                continue
            ptype, atype = param.type, arg.value.type
            if isinstance(atype, t.Unknown) or isinstance(ptype, t.Unknown):
                continue
            if isinstance(ptype, t.ObjectT) and isinstance(atype, t.ObjectT):
                if ptype.kind != atype.kind or ptype.kind == "package" and ptype.name != atype.name or \
                        not self.apply_compatible(ptype, atype, bindings):  # (packages are nominal)
                    self.error(arg.loc, f"package {package.name}: argument {param.name} of type {atype} "
                                        f"does not match the parameter type {substitute(ptype, bindings)}")
            elif isinstance(ptype, t.ObjectT) and not isinstance(atype, t.ObjectT):
                self.error(arg.loc, f"package {package.name}: argument {param.name} must be a {ptype.kind}, "
                                    f"not {atype}")
        return bindings

    def apply_compatible(self, ptype: t.ObjectT, atype: t.ObjectT, bindings: dict) -> bool:
        from p4odp.frontend.typecheck import substitute

        if ptype.apply is None or atype.apply is None:
            return True
        pp, ap = ptype.apply.params, atype.apply.params
        if len(pp) < len(ap) or any(not (p.has_default or p.optional) for p in pp[len(ap):]):
            return False
        for p, a in zip(pp, ap):
            if p.direction != a.direction:
                return False
            want = substitute(p.type, bindings)
            if _has_var(want):
                self.unify(want, a.type, bindings, ())
                want = substitute(want, bindings)
            if not _has_var(want) and not _has_var(a.type) and want != a.type and \
                    not isinstance(want, t.Unknown) and not isinstance(a.type, t.Unknown):
                return False
        return True


def extern_type_mapping(tc: "TypeChecker", typ: t.ExternT) -> dict:
    """The extern's type parameters bound to the type arguments of `typ`."""
    decl = typ.decl
    if decl is None or not typ.type_args or len(typ.type_args) != len(decl.type_params):
        return {}
    return {tc.decl_types[id(p)]: a for p, a in zip(decl.type_params, typ.type_args) if not isinstance(a, t.DontCareT)}


def _builtin(name: str, params: tuple, returns: t.Type) -> t.CallableT:
    return t.CallableT(name, (t.Signature(name, (), params, returns, "builtin"),))


def _underlying(typ: t.Type) -> t.Type:
    """The representation of a new type or a serializable enum."""
    if isinstance(typ, t.NewTypeT) and typ.base is not None:
        return _underlying(typ.base)
    if isinstance(typ, t.EnumT) and typ.underlying is not None:
        return typ.underlying
    return typ


def _exactly(a: t.Type, b: t.Type) -> bool:
    return a == b or isinstance(a, t.Unknown) or isinstance(b, t.Unknown)


def _type_vars(typ: t.Type) -> Iterator[t.Type]:
    """The type variables and `_` in `typ`: in its type arguments (a specialized struct's too),
    elements and the fields of a struct declared generic."""
    if isinstance(typ, (t.TypeVar, t.DontCareT)):
        yield typ
    elif isinstance(typ, (t.Stack, t.ListT)):
        yield from _type_vars(typ.element)
    elif isinstance(typ, t.TupleT):
        for e in typ.elements:
            yield from _type_vars(e)
    elif isinstance(typ, (t.ExternT, t.ObjectT)):
        for a in typ.type_args:
            yield from _type_vars(a)
    elif isinstance(typ, t.StructLike) and typ.generic:  # outer_t<T>: T, wherever its fields hold it
        for a in typ.generic[1]:
            yield from _type_vars(a)
    elif isinstance(typ, t.StructLike):  # (a struct is declared at the top level: its struct fields have none)
        for f in typ.fields:
            if not isinstance(f.type, t.StructLike):
                yield from _type_vars(f.type)


def _has_var(typ: t.Type) -> bool:
    return next(_type_vars(typ), None) is not None


def _arity_fits(sig: t.Signature, args: tuple) -> bool:
    return match_args(sig, list(args)) is not None


def match_args(sig: t.Signature, args: list):
    """Pair arguments with parameters (positional or by name); None if they do not fit."""
    params = sig.params
    named = [a for a in args if a.name is not None]
    if named and len(named) != len(args):
        return None
    pairs = []
    if named:
        by_name = {p.name: p for p in params}
        used = set()
        for arg in args:
            param = by_name.get(arg.name)
            if param is None or arg.name in used:
                return None
            used.add(arg.name)
            pairs.append((param, arg))
        for p in params:
            if p.name not in used and not (p.has_default or p.optional):
                return None
        return pairs
    if len(args) > len(params):
        return None
    for p in params[len(args):]:
        if not (p.has_default or p.optional):
            return None
    return list(zip(params, args))


def _castable(tc: "TypeChecker", src: t.Type, dst: t.Type) -> bool:
    if src == dst:
        return True
    s, d = _underlying(src), _underlying(dst)
    if isinstance(src, t.NewTypeT) or isinstance(dst, t.NewTypeT):
        return s == d or isinstance(s, t.InfInt) and _castable(tc, s, d)
    if isinstance(s, t.InfInt):
        return isinstance(d, (t.Bits, t.InfInt)) or (isinstance(d, t.EnumT) and d.underlying is not None) or \
            isinstance(d, t.Bool)
    if isinstance(s, t.Bits):
        if isinstance(d, t.Bits):
            return s.signed == d.signed or s.width == d.width
        if isinstance(d, t.Bool):
            return s.width == 1 and not s.signed
        if isinstance(d, t.EnumT):
            return d.underlying is not None
        return isinstance(d, t.InfInt)
    if isinstance(s, t.Bool):
        return isinstance(d, t.Bits) and d.width == 1 and not d.signed
    if isinstance(s, t.EnumT):
        return s.underlying is not None and (isinstance(d, t.Bits) or
                                             (isinstance(d, t.EnumT) and d.underlying == s.underlying))
    if isinstance(s, (t.StructLiteral, t.TupleT)):
        return isinstance(d, (t.StructLike, t.TupleT, t.ListT, t.Stack)) and tc.compatible(d, s)
    if isinstance(s, t.InvalidT):
        return isinstance(d, t.StructLike) and d.kind in ("header", "header_union")
    return False


def describe(expr: ir.Expression) -> str:
    """How a diagnostic names an expression: its path, or "this expression"."""
    if isinstance(expr, ir.PathExpression):
        return expr.name
    if isinstance(expr, ir.Member):
        return f"{describe(expr.expr)}.{expr.member}"
    if isinstance(expr, ir.ArrayIndex):
        return f"{describe(expr.expr)}[...]"
    if isinstance(expr, ir.IntLiteral):
        return str(expr.value)
    return "this expression"


def _is_table_apply(callee: ir.Expression) -> bool:
    return isinstance(callee, ir.Member) and callee.member == "apply" and isinstance(callee.expr.type, t.TableT)
