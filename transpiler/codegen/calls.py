"""Calls: header and stack methods, externs (packets, registers, counters, meters, hashes,
checksums) and the inlining of actions and functions."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc
from p4odp.transpiler.codegen._types import is_union, packet_width
from p4odp.transpiler.codegen.scope import Binding, ExternInstance, Scope, Unsupported
from p4odp.transpiler.ctypes_map import c_ident, is_wide

__all__ = ["Calls"]

DROP_PORT = 511


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
        if typ.name == "packet_in":
            if name == "extract" and len(args) == 1 and isinstance(args[0], ir.DontCare):
                self.skip_bits(_header_width(args[0].type), expr.loc)
                return None
            if name == "extract" and len(args) == 1:
                self.extract(args[0])
                return None
            if name == "extract" and len(args) == 2:
                self.extract(args[0], self.value(args[1]))
                return None
            if name == "lookahead" and isinstance(expr.type, t.StructLike):
                return self.lookahead_struct(expr.type, expr.loc)
            if name == "lookahead":
                width = t.bit_width(expr.type)
                if width is None or width > 64:
                    raise Unsupported(expr.loc, f"lookahead of {expr.type}")
                self.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
                          f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
                return f"p4odp_load_bits(pc->data, pc->cursor, {width})"
            if name == "advance":
                self.skip_bits(self.value(args[0]), expr.loc)
                return None
            if name == "length":
                return "(uint64_t)pc->len"
        if typ.name == "packet_out" and name == "emit":
            self.emit_header(args[0])
            return None
        instance = self.resolve(expr.method.expr) if isinstance(expr.method.expr, ir.PathExpression) else None
        if isinstance(instance, ExternInstance):
            return self.stateful_call(instance, name, args, expr.loc)
        raise Unsupported(expr.loc, f"{typ.name}.{name}")

    def extern_function(self, expr: ir.MethodCall, name: str, args: list) -> Optional[str]:
        if name == "mark_to_drop":
            sm = self.lvalue(args[0]).c if args else self.standard_metadata(expr.loc)
            self.emit(f"{sm}.egress_spec = {DROP_PORT};")
            self.emit(f"{sm}.mcast_grp = 0;")
            return None
        if name == "hash":
            self.hash_call(args, expr.loc)
            return None
        if name == "random":
            target = self.lvalue(args[0])
            self.emit(f"{target.c} = p4odp_random((uint64_t)({self.value(args[1])}), "
                      f"(uint64_t)({self.value(args[2])}));")
            return None
        if name in ("digest", "log_msg", "assume", "assert"):
            return None  # no control plane listens to digests yet; logs and assertions are for BMv2's debugger
        if name == "verify":
            cond = self.value(args[0])
            self.emit(f"if (!({cond})) {{ pc->error = {self.value(args[1])}; goto st_reject; }}")
            return None
        if name in ("verify_checksum", "update_checksum", "verify_checksum_with_payload",
                    "update_checksum_with_payload"):
            return self.checksum(name, expr, args)
        raise Unsupported(expr.loc, f"the extern function {name}")

    def stateful_call(self, instance: ExternInstance, name: str, args: list, loc: Loc) -> Optional[str]:
        member = f"STATE->{instance.member}"
        if instance.kind == "register" and name in ("read", "write"):
            index = self.temp("ix")
            self.emit(f"uint64_t {index} = {self.value(args[1] if name == 'read' else args[0])};")
            cell = Binding(f"{member}[{index}]", instance.element)
            self.emit(f"if ({index} < {instance.size}) {{")
            self.indent += 1
            if name == "write":
                self.assign(cell, args[1], loc)
            else:
                target = self.lvalue(args[0])
                self.scope = Scope(self.scope, {"$cell": cell})
                self.assign(target, ir.PathExpression(loc, "$cell", type=instance.element), loc)
                self.scope = self.scope.parent
                self.indent -= 1
                self.emit("} else {")  # a cell past the end reads as 0
                self.indent += 1
                self.emit(f"memset(&{target.c}, 0, sizeof {target.c});")
            self.indent -= 1
            self.emit("}")
            return None
        if instance.kind == "counter" and name == "count":
            index = self.value(args[0])
            self.emit(f"if (({index}) < {instance.size}) {{ {member}[{index}][0]++; "
                      f"{member}[{index}][1] += pc->len; }}")
            return None
        if instance.kind == "direct_counter" and name == "count":
            return None  # direct counters are read by the control plane, which has no reader yet
        if instance.kind in ("meter", "direct_meter") and name in ("execute_meter", "read"):
            # Without configured rates a v1model meter marks every packet GREEN (0), as on BMv2.
            self.emit(f"{self.lvalue(args[-1]).c} = 0;")
            return None
        raise Unsupported(loc, f"{instance.kind}.{name}")

    def hash_call(self, args: list, loc: Loc) -> None:
        result, algo, base, data, limit = args
        if not (isinstance(algo, ir.Member) and isinstance(algo.expr.type, t.TypeT)):
            raise Unsupported(loc, "hash algorithms that are not constants")
        buf = self.temp("hb")
        size = self.pack_bits(buf, data, loc)
        hashed = f"p4_hash(P4ODP_HASH_{algo.member.upper()}, {buf}, {size})"
        limit_c, base_c = self.value(limit), self.value(base)
        target = self.lvalue(result)
        value = f"(({limit_c}) ? (uint64_t)({base_c}) + {hashed} % (uint64_t)({limit_c}) : (uint64_t)({base_c}))"
        self.emit(f"{target.c} = {self.wrap(value, target.type)};")

    def pack_bits(self, buf: str, data: ir.Expression, loc: Loc) -> int:
        """Declare `buf` holding the fields of `data` bit after bit; the number of bytes."""
        if isinstance(data, ir.ListExpression):
            elements = list(data.elements)
        elif isinstance(data, ir.StructExpression):
            elements = [f.value for f in data.fields]
        elif isinstance(data.type, t.StructLike):
            elements = [ir.Member(data.loc, data, f.name, type=f.type) for f in data.type.fields]
        elif isinstance(data.type, t.TupleT):
            elements = [ir.ArrayIndex(data.loc, data, ir.IntLiteral(data.loc, i, type=t.InfInt()), type=e)
                        for i, e in enumerate(data.type.elements)]
        else:
            elements = [data]
        widths = [t.bit_width(e.type) for e in elements]
        if any(w is None for w in widths):
            raise Unsupported(loc, "hash data that is not a list of bit<> fields")
        total = sum(widths)
        self.emit(f"uint8_t {buf}[{max((total + 7) // 8, 1)}] = {{0}};")
        offset = 0
        for element, width in zip(elements, widths):
            self.store_value(buf, offset, element)
            offset += width
        return (total + 7) // 8

    def standard_metadata(self, loc: Loc) -> str:
        scope = self.scope
        while scope is not None:
            for binding in scope.names.values():
                if isinstance(binding, Binding) and isinstance(binding.type, t.StructLike) and \
                        binding.type.name == "standard_metadata_t":
                    return binding.c
            scope = scope.parent
        raise Unsupported(loc, "mark_to_drop() without standard_metadata in scope")

    def checksum(self, name: str, expr: ir.MethodCall, args: list) -> None:
        cond, data, field_expr, algo = args[0], args[1], args[2], args[3]
        if not (isinstance(algo, ir.Member) and algo.member == "csum16"):
            raise Unsupported(expr.loc, "checksum algorithms other than csum16")
        elements = data.elements if isinstance(data, ir.ListExpression) else None
        if elements is None:
            raise Unsupported(data.loc, "checksum data that is not a list of fields")
        most = sum(t.bit_width(e.type) or (e.type.width if isinstance(e.type, t.Varbit) else 0) for e in elements)
        buf, bits = self.temp("ck"), self.temp("bits")
        self.emit("{")
        self.indent += 1
        self.emit(f"uint8_t {buf}[{max((most + 7) // 8, 1)}] = {{0}};")
        self.emit(f"uint32_t {bits} = 0;")
        for element in elements:
            width = t.bit_width(element.type)
            if isinstance(element.type, t.Varbit):
                field = self.lvalue(element).c
                self.emit(f"p4odp_copy_bits({buf}, {bits}, {field}.b, 0, {field}.len); {bits} += {field}.len;")
            elif width is None:
                raise Unsupported(element.loc, f"checksum data of type {element.type}")
            else:
                self.store_value(buf, bits, element)
                self.emit(f"{bits} += {width};")
        total = f"p4odp_csum16_add(0, {buf}, ({bits} + 7) / 8)"
        if name.endswith("_with_payload"):  # the bytes the parser did not extract
            total = f"p4odp_csum16_add({total}, pc->data + pc->cursor / 8, pc->len - pc->cursor / 8)"
        sum_expr = f"p4odp_csum16_finish({total})"
        target = self.lvalue(field_expr).c
        if name.startswith("verify_checksum"):
            self.emit(f"if (({self.value(cond)}) && (uint64_t)({target}) != (uint64_t){sum_expr})")
            self.emit("\tpc->checksum_error = 1;")
        else:
            self.emit(f"if ({self.value(cond)})")
            self.emit(f"\t{target} = {sum_expr};")
        self.indent -= 1
        self.emit("}")

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
        """The body of `action`, its parameters bound to `args` then to the action data `data`."""
        # An action sees the names of where it is declared (its control's or the top level's), not of the call.
        declared_here = self.block_scope.lookup(action.name) is action and \
            self.gen.globals.lookup(action.name) is not action
        self.inline_body(f"action {action.control_name or action.name}", action.params, action.body, args, data,
                         self.block_scope if declared_here else self.gen.globals, None)

    def inline_function(self, function: ir.Function, args: tuple) -> Optional[str]:
        """The body of `function`, inlined; the C variable holding its result."""
        returns = function.return_type
        result = None
        rtype = None
        if not isinstance(returns, ir.VoidType):
            rtype = self.function_return_type(function)
            result = self.temp("ret")
            self.emit(self.gen.member_decl(rtype, result, function.loc) + ";")
        self.inline_body(f"function {function.name}", function.params, function.body, args, None, self.gen.globals,
                         (result, rtype))
        return result

    def function_return_type(self, function: ir.Function) -> t.Type:
        for stmt in _walk_statements(function.body):
            if isinstance(stmt, ir.ReturnStatement) and stmt.value is not None:
                return stmt.value.type
        raise Unsupported(function.loc, "functions that never return a value")

    def inline_body(self, what: str, params: tuple, body: ir.Block, args: tuple, data: Optional[str],
                    scope_parent: Scope, result) -> None:
        """Inline a callable's body: parameters copied in from `args` (then read from the action
        data `data`), copied out at the end; `return` jumps to the end (storing into `result`)."""
        outer_scope, outer_end, outer_result = self.scope, self.action_end, self.return_value
        self.scope = Scope(scope_parent)
        end = self.temp("end")
        self.emit(f"/* {what} */")
        self.emit("{")
        self.indent += 1
        copy_back = []
        offset = 0
        for i, p in enumerate(params):
            typ = p.type
            if isinstance(typ, t.ExternT):  # packet_in / packet_out: the packet itself
                self.scope.names[p.name] = Binding("pc", typ)
                continue
            name = f"p_{c_ident(p.name)}_{next(self.gen.tmp)}"
            self.emit(self.gen.member_decl(typ, name, p.loc) + ";")
            binding = Binding(name, typ)
            if i < len(args):
                arg = args[i]
                saved = self.scope
                self.scope = outer_scope
                if p.direction in ("in", "inout", ""):
                    self.assign(binding, arg.value, arg.loc)
                if p.direction in ("out", "inout") and isinstance(arg.value, ir.Slice):
                    copy_back.append((arg.value, Binding(name, typ)))  # slices are copied back by bits
                elif p.direction in ("out", "inout") and not isinstance(arg.value, ir.DontCare):
                    copy_back.append((self.lvalue(arg.value), name))
                self.scope = saved
            elif data is not None:
                width = t.bit_width(typ)
                if width > 64:
                    self.emit(f"memcpy({name}, {data} + {offset}, sizeof {name});")
                else:
                    load = f"p4odp_load_bits({data}, {offset * 8 + (width + 7) // 8 * 8 - width}, {width})"
                    self.emit(f"{name} = {self.wrap(load, typ) if isinstance(typ, t.Bits) and typ.signed else load};")
                offset += (width + 7) // 8
            self.scope.names[p.name] = binding
        self.action_end, self.return_value = end, result
        self.block(body)
        self.action_end, self.return_value = outer_end, outer_result
        self.lines.append(f"{end}:;")
        for target, source in copy_back:
            if isinstance(target, ir.Slice):
                self.scope = Scope(outer_scope, {"$out": source})
                self.assign_to(target, ir.PathExpression(target.loc, "$out", type=source.type), target.loc)
            elif is_wide(target.type):
                self.emit(f"memcpy({target.c}, {source}, sizeof {target.c});")
            else:
                self.emit(f"{target.c} = {source};")
        if not self.in_parser:
            self.emit(f"if (pc->exited) goto {outer_end or 'ctl_end'};")
        self.indent -= 1
        self.emit("}")
        self.scope = outer_scope


def _header_width(typ: t.Type) -> Optional[int]:
    """The bits of a fixed-size header in a packet; None for anything else."""
    if not isinstance(typ, t.StructLike) or typ.kind != "header" or any(isinstance(f.type, t.Varbit)
                                                                         for f in typ.fields):
        return None
    return packet_width(typ)


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
