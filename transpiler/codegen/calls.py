"""Calls: header and stack methods, the inlining of actions and functions, and externs, whose C
the program's architecture gives (transpiler/architectures/)."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc
from p4odp.transpiler.codegen._types import is_union
from p4odp.transpiler.codegen.scope import Binding, Unsupported
from p4odp.transpiler.ctypes_map import c_ident, is_wide

__all__ = ["Calls"]


class Calls:
    """Method and function calls; actions and functions are inlined where they are called."""

    def call(self, expr: ir.MethodCall, as_statement: bool) -> Optional[str]:
        method = expr.method
        args = [a.value for a in expr.args]
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
            target = self.resolve(method)
            if isinstance(target, ir.Action):
                self.inline_action(target, [a for a in expr.args], None)
                return None
            if isinstance(target, ir.Function):
                return self.inline_function(target, expr.args)
            return self.extern_function(expr, method.name, args)
        raise Unsupported(expr.loc, "this call")

    def extern_method(self, expr: ir.MethodCall, typ: t.ExternT, name: str, args: list) -> Optional[str]:
        handler = self.gen.architecture.handler(typ.name, name)
        if handler is None:
            raise Unsupported(expr.loc, f"{typ.name}.{name}")
        return handler(self, expr, args)

    def extern_function(self, expr: ir.MethodCall, name: str, args: list) -> Optional[str]:
        handler = self.gen.architecture.handler(None, name)
        if handler is None:
            raise Unsupported(expr.loc, f"the extern function {name}")
        return handler(self, expr, args)

    def stack_shift(self, stack_expr, name: str, args: list, loc: Loc) -> None:
        stack = self.lvalue(stack_expr)
        count = self.gen.const_int(args[0])
        size = stack.type.size
        i = self.temp("i")
        if name == "push_front":
            self.emit(f"for (int {i} = {size} - 1; {i} >= 0; {i}--)")
            self.emit(f"\tif ({i} >= {count}) {stack.c}.e[{i}] = {stack.c}.e[{i} - {count}]; "
                      f"else {stack.c}.e[{i}]._valid = 0;")
            self.emit(f"{stack.c}._next = {stack.c}._next + {count} > {size} ? {size} : {stack.c}._next + {count};")
        else:
            self.emit(f"for (int {i} = 0; {i} < {size}; {i}++)")
            self.emit(f"\tif ({i} + {count} < {size}) {stack.c}.e[{i}] = {stack.c}.e[{i} + {count}]; "
                      f"else {stack.c}.e[{i}]._valid = 0;")
            self.emit(f"{stack.c}._next = {stack.c}._next > {count} ? {stack.c}._next - {count} : 0;")

    # ------------------------------------------------------------------
    # Actions and functions, inlined

    def inline_action(self, action: ir.Action, args: tuple, data: Optional[str]) -> None:
        """The body of `action`, its parameters bound to `args` then to the action data at `data` (laid out
        as the table-layout pass says)."""
        fields = self.gen.actions[action.name].data if data is not None else ()
        self.inline_body(f"action {action.control_name or action.name}", action.params, action.body, args,
                         (data, fields), None)

    def inline_function(self, function: ir.Function, args: tuple) -> Optional[str]:
        """The body of `function`, inlined; the C variable holding its result."""
        returns = function.return_type
        result = None
        rtype = None
        if not isinstance(returns, ir.VoidType):
            rtype = self.function_return_type(function)
            result = self.temp("ret")
            self.emit(self.gen.member_decl(rtype, result, function.loc) + ";")
        self.inline_body(f"function {function.name}", function.params, function.body, args, (None, ()),
                         (result, rtype))
        return result

    def function_return_type(self, function: ir.Function) -> t.Type:
        for stmt in _walk_statements(function.body):
            if isinstance(stmt, ir.ReturnStatement) and stmt.value is not None:
                return stmt.value.type
        raise Unsupported(function.loc, "functions that never return a value")

    def inline_body(self, what: str, params: tuple, body: ir.Block, args: tuple, data: tuple, result) -> None:
        """Inline a callable's body: parameters copied in from `args`, then read from the action data
        (`data`: the C pointer to it and its `DataField`s), copied out at the end; `return` jumps to the
        end (storing into `result`)."""
        data_c, data_fields = data[0], iter(data[1])
        outer_end, outer_result = self.action_end, self.return_value
        frame: dict[str, Binding] = {}
        end = self.temp("end")
        self.emit(f"/* {what} */")
        self.emit("{")
        self.indent += 1
        copy_back = []
        for i, p in enumerate(params):
            typ = p.type
            if isinstance(typ, t.ExternT):  # packet_in / packet_out: the packet itself
                frame[p.name] = Binding("pc", typ)
                continue
            name = f"p_{c_ident(p.name)}_{next(self.gen.tmp)}"
            self.emit(self.gen.member_decl(typ, name, p.loc) + ";")
            binding = Binding(name, typ)
            if i < len(args):
                arg = args[i]  # evaluated where the call is, before the frame of the callee
                if p.direction in ("in", "inout", ""):
                    self.assign(binding, arg.value, arg.loc)
                if p.direction in ("out", "inout") and isinstance(arg.value, ir.Slice):
                    copy_back.append((arg.value, Binding(name, typ)))  # slices are copied back by bits
                elif p.direction in ("out", "inout") and not isinstance(arg.value, ir.DontCare):
                    copy_back.append((self.lvalue(arg.value), name))
            elif data_c is not None:
                field = next(data_fields)
                width, offset = field.width, field.byte_offset
                if width > 64:
                    self.emit(f"memcpy({name}, {data_c} + {offset}, sizeof {name});")
                else:
                    load = f"p4odp_load_bits({data_c}, {offset * 8 + (width + 7) // 8 * 8 - width}, {width})"
                    self.emit(f"{name} = {self.wrap(load, typ) if isinstance(typ, t.Bits) and typ.signed else load};")
            frame[p.name] = binding
        self.action_end, self.return_value = end, result
        with self.bindings.frame(frame):
            self.block(body)
        self.action_end, self.return_value = outer_end, outer_result
        self.lines.append(f"{end}:;")
        for target, source in copy_back:
            if isinstance(target, ir.Slice):
                with self.bindings.bound("$out", source):
                    self.assign_to(target, ir.PathExpression(target.loc, "$out", type=source.type), target.loc)
            elif is_wide(target.type):
                self.emit(f"memcpy({target.c}, {source}, sizeof {target.c});")
            else:
                self.emit(f"{target.c} = {source};")
        if not self.in_parser:
            self.emit(f"if (pc->exited) goto {outer_end or 'ctl_end'};")
        self.indent -= 1
        self.emit("}")


def _walk_statements(stmt: ir.Statement):
    yield stmt
    children = []
    if isinstance(stmt, ir.Block):
        children = stmt.statements
    elif isinstance(stmt, ir.IfStatement):
        children = [stmt.then] + ([stmt.otherwise] if stmt.otherwise else [])
    elif isinstance(stmt, ir.SwitchStatement):
        children = [c.body for c in stmt.cases if c.body is not None]
    for child in children:
        yield from _walk_statements(child)
