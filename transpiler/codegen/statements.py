"""Statements: a control's body, blocks, loops, `switch`, `exit`/`return`, and assignment."""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError, Loc, Unsupported
from p4odp.transpiler.codegen._types import tuple_struct
from p4odp.transpiler.codegen.atomic import is_atomic
from p4odp.transpiler.codegen.scope import Binding
from p4odp.transpiler.ctypes_map import bits_of, c_ident, is_wide

__all__ = ["Statements"]


class Statements:
    """The statements of controls, parser states and inlined bodies: the `s_*` handlers."""

    # ------------------------------------------------------------------
    # Controls

    def control_body(self, decl: ir.Control) -> list[str]:
        self.block(decl.body)
        self.lines.append("ctl_end:")
        self.emit(";")
        return self.lines

    # ------------------------------------------------------------------
    # Statements

    def block(self, block: ir.Block) -> None:
        """The statements of `block`.  Outside a region, each run of straight-line statements that uses
        an atomic extern is a region of its own (atomic.py), as p4c makes such a run one action for
        BMv2: a register read, changed and written back in an apply block loses no update either."""
        run: list = []
        for stmt in block.statements:
            if not self.held and _straight_line(stmt):
                run.append(stmt)
                continue
            self.straight_line_run(run)
            run = []
            self.statement(stmt)
        self.straight_line_run(run)

    def straight_line_run(self, run: list) -> None:
        if run:
            self.atomic(ir.Block(run[0].loc, tuple(run)), lambda: [self.statement(stmt) for stmt in run])

    def line_directive(self, loc: Loc) -> None:
        """A `#line` back to `loc` before the C of a statement or a parser transition (the C
        lines after it keep that line: transpiler/emit.py)."""
        if self.gen.line_directives and loc.line > 0:
            self.lines.append(f'#line {loc.line} "{loc.file}"')

    def statement(self, stmt: ir.Statement) -> None:
        self.line_directive(stmt.loc)
        handler = getattr(self, "s_" + type(stmt).__name__, None)
        if handler is None:
            raise Unsupported(stmt.loc, type(stmt).__name__)
        handler(stmt)

    def s_Block(self, stmt: ir.Block) -> None:
        self.emit("{")
        self.indent += 1
        if is_atomic(stmt):  # @atomic, or an action called directly (call-expansion)
            self.atomic(stmt, lambda: self.block(stmt))
        else:
            self.block(stmt)
        self.indent -= 1
        self.emit("}")

    def s_EmptyStatement(self, stmt) -> None:
        pass

    def s_DeclarationStatement(self, stmt: ir.DeclarationStatement) -> None:
        self.local_decl(stmt.decl)

    def s_Assignment(self, stmt: ir.Assignment) -> None:
        value = stmt.value
        if stmt.op is not None:  # side-effect-ordering left `a op= b` only where `a` has no call
            value = ir.Binary(stmt.loc, ir.BinaryOp(stmt.op), stmt.target, value, type=stmt.target.type)
        self.assign_to(stmt.target, value, stmt.loc)

    def s_IfStatement(self, stmt: ir.IfStatement) -> None:
        cond = self.value(stmt.cond)
        self.emit(f"if ({cond}) {{")
        self.nested(stmt.then)
        if stmt.otherwise is not None:
            self.emit("} else {")
            self.nested(stmt.otherwise)
        self.emit("}")

    def nested(self, stmt: ir.Statement) -> None:
        self.indent += 1
        self.nested_block(stmt)
        self.indent -= 1

    def s_ForStatement(self, stmt: ir.ForStatement) -> None:
        self.emit("{")
        for init in stmt.init:
            self.statement(init)
        cond = (lambda: self.value(stmt.cond)) if stmt.cond is not None else None
        self.loop(stmt.body, cond, lambda: [self.statement(u) for u in stmt.updates])
        self.emit("}")

    def s_ForInStatement(self, stmt: ir.ForInStatement) -> None:
        collection = stmt.collection
        if not (isinstance(collection, ir.Binary) and collection.op is ir.BinaryOp.RANGE):
            raise Unsupported(stmt.loc, "for-in loops over anything but a range lo .. hi")
        var = stmt.var
        name = f"v_{c_ident(var.name)}_{next(self.gen.tmp)}"
        last = self.temp("last")
        self.emit("{")
        self.emit(f"{self.gen.member_decl(var.type, name, var.loc)} = {self.value(collection.left)};")
        self.emit(f"uint64_t {last} = {self.value(collection.right)};")
        self.bindings.names[var.name] = Binding(name, var.type)
        more = self.temp("more")  # stepping past the last value could wrap around: count instead
        self.emit(f"bool {more} = (uint64_t){name} <= {last};")
        self.loop(stmt.body, lambda: more, lambda: self.emit(f"{more} = (uint64_t){name} < {last}; {name}++;"))
        self.emit("}")

    def loop(self, body: ir.Statement, cond, updates) -> None:
        """`for (;;)` with the condition first and the updates at a label `continue` jumps to;
        `cond` gives the C condition (None: none), `updates` emits the updates."""
        cont, brk = self.temp("next"), self.temp("done")
        self.loops.append((cont, brk, len(self.held)))
        self.emit("for (;;) {")
        self.indent += 1
        if cond is not None:
            self.emit(f"if (!({cond()}))")
            self.emit(f"\tgoto {brk};")
        self.nested_block(body)
        self.lines.append(f"{cont}:;")
        updates()
        self.indent -= 1
        self.emit("}")
        self.lines.append(f"{brk}:;")
        self.loops.pop()

    def nested_block(self, stmt: ir.Statement) -> None:
        if isinstance(stmt, ir.Block):
            self.block(stmt)
        else:
            self.statement(stmt)

    def s_BreakStatement(self, stmt) -> None:
        cont, brk, held = self.loops[-1]
        self.release(held)  # out of the atomic regions inside the loop
        self.emit(f"goto {brk};")

    def s_ContinueStatement(self, stmt) -> None:
        cont, brk, held = self.loops[-1]
        self.release(held)
        self.emit(f"goto {cont};")

    def s_ExitStatement(self, stmt) -> None:
        if self.in_parser:
            raise Unsupported(stmt.loc, "exit in a parser")
        self.emit("pc->exited = 1;")  # call-expansion copied out what an action's exit copies out
        self.release(0)
        self.emit("goto ctl_end;")

    def s_ReturnStatement(self, stmt: ir.ReturnStatement) -> None:
        if stmt.value is not None or self.in_parser:  # call-expansion made the returns of callees flags
            raise InternalError(f"a return outside a control's body after call-expansion ({stmt.loc})")
        self.release(0)
        self.emit("goto ctl_end;")

    def s_SwitchStatement(self, stmt: ir.SwitchStatement) -> None:
        subject = stmt.expr
        if isinstance(subject.type, t.ActionEnum):  # switch (t.apply().action_run): cases are action ids
            run = self.apply_table(subject.expr.method.expr if isinstance(subject, ir.Member) else subject)
            value = run["action_run"]

            def label(expr: ir.Expression) -> str:
                return str(run["actions"][expr.name])
        else:
            value = self.value(subject)
            label = self.value
        self.emit(f"switch ({value}) {{")
        for case in stmt.cases:
            self.emit("default:" if isinstance(case.label, ir.DefaultExpression) else f"case {label(case.label)}:")
            if case.body is not None:  # no body: falls through to the next label, as in P4
                self.emit("{")
                self.nested(case.body)
                self.emit("}")
                self.emit("break;")
        self.emit("}")

    def s_MethodCallStatement(self, stmt: ir.MethodCallStatement) -> None:
        self.call(stmt.call, as_statement=True)

    # ------------------------------------------------------------------
    # Assignment

    def assign_to(self, target: ir.Expression, value: ir.Expression, loc: Loc) -> None:
        if isinstance(target, ir.IndexedSlice):
            base = self.lvalue(target.expr)
            width, low = self.gen.const_int(target.width), self.temp("lo")
            self.emit(f"uint64_t {low} = (uint64_t)({self.value(target.low)});")
            if is_wide(base.type):  # bits past the end are not written, as with narrow values
                offset = self.wide_bit_offset(base.type, low, width)
                self.emit(f"if ({low} + {width} <= {bits_of(base.type).width})")
                self.emit(f"\tp4odp_store_bits({base.c}, {offset}, {width}, (uint64_t)({self.value(value)}));")
                return
            mask = f"p4odp_shl(p4odp_mask({width}), {low}, 64)"
            self.emit(f"{base.c} = ({base.c} & ~{mask}) | p4odp_shl((uint64_t)({self.value(value)}) & "
                      f"p4odp_mask({width}), {low}, 64);")
            return
        if isinstance(target, ir.Slice):
            hi, lo = self.gen.const_int(target.high), self.gen.const_int(target.low)
            inner = target.expr
            while isinstance(inner, ir.Slice):  # a slice of a slice is a slice of the base
                offset = self.gen.const_int(inner.low)
                hi, lo = hi + offset, lo + offset
                inner = inner.expr
            base = self.lvalue(inner)
            width = hi - lo + 1
            if is_wide(base.type):
                base_width = bits_of(base.type).width
                pad = (base_width + 7) // 8 * 8 - base_width
                self.store_value(base.c, pad + base_width - 1 - hi, value)
                return
            mask = f"(p4odp_mask({width}) << {lo})"
            self.emit(f"{base.c} = ({base.c} & ~{mask}) | ((((uint64_t){self.value(value)}) & p4odp_mask({width}))"
                      f" << {lo});")
            return
        self.assign(self.lvalue(target), value, loc)

    def assign(self, dst: Binding, value: ir.Expression, loc: Loc) -> None:
        typ = tuple_struct(dst.type) if isinstance(dst.type, t.TupleT) else dst.type
        dst = Binding(dst.c, typ)
        if isinstance(value, (ir.ListExpression, ir.StructExpression)) and isinstance(typ, t.StructLike):
            self.assign_fields(dst, value, loc)
            return
        if isinstance(value, ir.InvalidExpression):
            self.emit(f"{dst.c}._valid = 0;")
            return
        if is_wide(typ):
            self.emit(f"memcpy({dst.c}, {self.wide_value(value)}, sizeof {dst.c});")
            return
        if isinstance(typ, (t.StructLike, t.Stack)):
            self.emit(f"{dst.c} = {self.lvalue(value).c};")
            return
        self.emit(f"{dst.c} = {self.value(value)};")

    def assign_fields(self, dst: Binding, value: ir.Expression, loc: Loc) -> None:
        typ = dst.type
        if isinstance(value, ir.ListExpression):
            pairs = list(zip(typ.fields, value.elements))
        else:
            by_name = {f.name: f.value for f in value.fields}
            pairs = [(f, by_name[f.name]) for f in typ.fields if f.name in by_name]
        for f, v in pairs:
            self.assign(Binding(f"{dst.c}.{c_ident(f.name)}", f.type), v, loc)
        if typ.kind == "header":
            self.emit(f"{dst.c}._valid = 1;")


def _straight_line(stmt: ir.Statement) -> bool:
    """An assignment, a declaration or a call that is not a table's apply: what p4c's BMv2 back end puts
    into one action with the statements around it."""
    if isinstance(stmt, ir.MethodCallStatement):
        method = stmt.call.method
        return not (isinstance(method, ir.Member) and method.member == "apply" and
                    isinstance(method.expr.type, t.TableT))
    return isinstance(stmt, (ir.Assignment, ir.DeclarationStatement, ir.EmptyStatement))
