"""Calls: header and stack methods, and externs, whose C the program's architecture gives
(transpiler/architectures/).  Actions and functions are no longer called: call-expansion put their
bodies in place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError, Loc, Unsupported
from p4odp.frontend.expressions import match_args
from p4odp.transpiler.codegen._types import is_union
from p4odp.transpiler.ctypes_map import c_ident

if TYPE_CHECKING:
    from p4odp.transpiler.architectures import Extern

__all__ = ["Calls"]


class Calls:
    """Method calls and calls of extern functions."""

    def call(self, expr: ir.MethodCall, as_statement: bool) -> Optional[str]:
        method = expr.method
        args = _in_parameter_order(method.type, expr.args)
        if isinstance(method, ir.Member):
            base_type = method.expr.type
            name = method.member
            if isinstance(base_type, t.StructLike) and base_type.kind == "header":
                base = self.lvalue(method.expr).c
                if name == "isValid":
                    return f"({base}._valid != 0)"
                if name == "setValid":
                    self.emit(f"{base}._valid = 1;")
                    if isinstance(method.expr, ir.Member) and is_union(method.expr.expr.type):
                        self.invalidate_union_siblings(method.expr)
                    return None
                if name == "setInvalid":
                    self.emit(f"{base}._valid = 0;")
                    return None
            if isinstance(base_type, t.StructLike) and base_type.kind == "header_union" and name == "isValid":
                base = self.lvalue(method.expr).c
                checks = " || ".join(f"{base}.{c_ident(f.name)}._valid" for f in base_type.fields) or "0"
                return f"({checks})"
            if isinstance(base_type, t.TableT) and name == "apply":
                self.apply_table(method.expr)
                return None
            if isinstance(base_type, t.ExternT):
                return self.extern_method(expr, base_type, name, args)
            if isinstance(base_type, t.Stack) and name in ("push_front", "pop_front"):
                return self.stack_shift(method.expr, name, args, expr.loc)
        if isinstance(method, ir.PathExpression):
            if isinstance(self.resolve(method), (ir.Action, ir.Function)):
                raise InternalError(f"call-expansion left a call of {method.name} ({expr.loc})")
            return self.extern_function(expr, method.name, args)
        raise Unsupported(expr.loc, "this call")

    def extern_method(self, expr: ir.MethodCall, typ: t.ExternT, name: str, args: list) -> Optional[str]:
        return self.run_extern(expr, self.gen.architecture.extern(typ.name), name, f"{typ.name}.{name}", args)

    def extern_function(self, expr: ir.MethodCall, name: str, args: list) -> Optional[str]:
        return self.run_extern(expr, self.gen.architecture.extern_function(name), name, f"the extern function {name}",
                               args)

    def run_extern(self, expr: ir.MethodCall, extern: Optional[Extern], method: str, what: str,
                   args: list) -> Optional[str]:
        """The C of a call of `method` of `extern` (`what` names it in the error when the architecture
        defines no such method); the extern's own C goes into datapath.c once."""
        handler = extern.methods.get(method) if extern is not None else None
        if handler is None:
            raise Unsupported(expr.loc, what + ("" if extern is not None else self.gen.no_extern_hint(method)))
        if extern.c_code and extern.c_code not in self.gen.extern_code:
            self.gen.extern_code.append(extern.c_code)
        return handler(self, expr, args)

    def stack_shift(self, stack_expr, name: str, args: list, loc: Loc) -> None:
        stack = self.lvalue(stack_expr)
        count = self.gen.const_int(args[0])
        size = stack.type.size
        i = self.temp("i")
        # The elements shifted in are invalid and, as BMv2 leaves them, all zeros (what a
        # P4_14 push, which makes them valid, shows).
        cleared = f"(__typeof__({stack.c}.e[0])){{0}}"
        if name == "push_front":
            self.emit(f"for (int {i} = {size} - 1; {i} >= 0; {i}--)")
            self.emit(f"\tif ({i} >= {count}) {stack.c}.e[{i}] = {stack.c}.e[{i} - {count}]; "
                      f"else {stack.c}.e[{i}] = {cleared};")
            self.emit(f"{stack.c}._next = {stack.c}._next + {count} > {size} ? {size} : {stack.c}._next + {count};")
        else:
            self.emit(f"for (int {i} = 0; {i} < {size}; {i}++)")
            self.emit(f"\tif ({i} + {count} < {size}) {stack.c}.e[{i}] = {stack.c}.e[{i} + {count}]; "
                      f"else {stack.c}.e[{i}] = {cleared};")
            self.emit(f"{stack.c}._next = {stack.c}._next > {count} ? {stack.c}._next - {count} : 0;")


def _in_parameter_order(method_type: t.Type, args: tuple) -> list:
    """The values of a call's arguments in the order of the callee's parameters, as the handlers take
    them: named arguments may come in any order (side-effect ordering has made them free of effects,
    so their order no longer matters); a parameter left out by name has None."""
    if not any(a.name is not None for a in args) or not isinstance(method_type, t.CallableT):
        return [a.value for a in args]
    for sig in method_type.signatures:
        pairs = match_args(sig, list(args))
        if pairs is not None:
            given = {param.name: arg.value for param, arg in pairs}
            return [given.get(param.name) for param in sig.params]
    raise InternalError(f"a call whose named arguments fit no signature of {method_type}")
