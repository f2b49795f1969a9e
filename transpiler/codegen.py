"""From the typed IR of a v1model program to the C-shaped model of its datapath.

The walk starts at `main`, the V1Switch instance: each of its six blocks
becomes a C function, its tables and actions become control-plane metadata.
Actions are inlined where they run (a table's switch or a direct call), so
that they see the locals of their control.  Every P4 call passes arguments
copy-in/copy-out through temporaries, as the language defines.

What this generator cannot translate yet is reported as a positioned error,
never as a crash.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Diagnostics, Loc
from p4odp.transpiler.ctypes_map import c_ident, c_type, is_wide, stack_name, struct_name
from p4odp.transpiler.model import (CAction, CActionParam, CFunction, CKeyField, CProgram,
                                    CStruct, CTable)

__all__ = ["generate_model", "Unsupported"]

V1SWITCH_BLOCKS = ("parser", "verify_checksum", "ingress", "egress", "compute_checksum", "deparser")
MATCH_KINDS = {"exact": "P4ODP_MATCH_EXACT", "lpm": "P4ODP_MATCH_LPM", "ternary": "P4ODP_MATCH_TERNARY",
               "range": "P4ODP_MATCH_RANGE", "optional": "P4ODP_MATCH_OPTIONAL"}
DROP_PORT = 511


class Unsupported(Exception):
    """A construct this generator does not translate yet."""

    def __init__(self, loc: Loc, what: str) -> None:
        super().__init__(what)
        self.loc = loc
        self.what = what


def generate_model(program: ir.Program, source: str, diags: Diagnostics,
                   line_directives: bool = True) -> Optional[CProgram]:
    """The C model of `program`; `line_directives` adds `#line`s back to the P4 source."""
    try:
        return _Generator(program, source, line_directives).run()
    except Unsupported as err:
        diags.error(err.loc, f"not supported by the C generator yet: {err.what}")
        return None


@dataclass
class Binding:
    """What a P4 name means in the C code being generated."""

    c: str  # a C l-value or value expression
    type: t.Type
    const: Optional[int] = None


STATEFUL_EXTERNS = ("register", "counter", "direct_counter", "meter", "direct_meter")


@dataclass
class ExternInstance:
    """A register, counter or meter: storage in `struct p4_state` named `member`."""

    name: str
    kind: str
    member: str
    size: int
    element: Optional[t.Type] = None


@dataclass
class ParserInstance:
    """A parser instantiated inside another parser; its states are inlined where it is applied."""

    name: str
    parser: ir.Parser


@dataclass
class ControlInstance:
    """A control instantiated inside another control; its apply is inlined where it is called."""

    name: str
    control: ir.Control


@dataclass
class Scope:
    parent: Optional["Scope"]
    names: dict[str, object] = field(default_factory=dict)

    def lookup(self, name: str):
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None


class _Generator:
    def __init__(self, program: ir.Program, source: str, line_directives: bool) -> None:
        self.program = program
        self.line_directives = line_directives
        self.source = source
        self.globals = Scope(None)
        self.structs: dict[str, CStruct] = {}
        self.functions: list[CFunction] = []
        self.tables: list[CTable] = []
        self.actions: dict[int, CAction] = {}
        self.action_ids: dict[tuple, int] = {}  # (id(ir.Action), control instance) -> action id
        self.state: list[str] = []
        self.errors: list[str] = []
        self.tmp = itertools.count()
        self.decls: dict[str, object] = {}

    # ------------------------------------------------------------------
    # Program

    def run(self) -> CProgram:
        for decl in self.program.declarations:
            if isinstance(decl, ir.ErrorDeclaration):
                self.errors.extend(m.name for m in decl.members)
            elif isinstance(decl, ir.MatchKindDeclaration):
                continue
            elif isinstance(decl, ir.Constant):
                self.globals.names[decl.name] = Binding(self.const_c(decl.value), decl.value.type,
                                                        self.const_int(decl.value))
            elif isinstance(decl, (ir.Action, ir.Function)):
                self.globals.names[decl.name] = decl
            elif hasattr(decl, "name"):
                self.decls.setdefault(decl.name, decl)
        main = next((d for d in self.program.declarations if isinstance(d, ir.Instance) and d.name == "main"), None)
        if main is None:
            raise Unsupported(self.program.loc, "a program without a 'main' instance")
        if not isinstance(main.type_ref, (ir.TypeName, ir.SpecializedType)) or \
                _type_name(main.type_ref) != "V1Switch":
            raise Unsupported(main.loc, "architectures other than v1model's V1Switch")
        blocks = {}
        for role, arg in zip(V1SWITCH_BLOCKS, main.args):
            blocks[role] = self.block_decl(arg)
        if len(blocks) != len(V1SWITCH_BLOCKS):
            raise Unsupported(main.loc, "V1Switch needs its six blocks")
        functions = {role: self.gen_block(role, decl) for role, decl in blocks.items()}
        parser_types = functions["parser"]["types"]
        pipeline = {role: info["function"] for role, info in functions.items()}
        pipeline.update(headers=parser_types[1], meta=parser_types[2], std=parser_types[3])
        return CProgram(self.source, list(self.structs.values()), self.functions, self.tables,
                        [self.actions[i] for i in sorted(self.actions)], self.errors, self.state,
                        pipeline, self.line_directives)

    def block_decl(self, arg: ir.Argument):
        value = arg.value
        if isinstance(value, ir.ConstructorCall) and isinstance(value.type_ref, ir.TypeName):
            decl = self.decls.get(value.type_ref.name)
            if isinstance(decl, (ir.Parser, ir.Control)):
                if value.args or decl.ctor_params:
                    raise Unsupported(value.loc, "constructor parameters of V1Switch blocks")
                return decl
        raise Unsupported(arg.loc, "V1Switch arguments other than parser and control instances")

    # ------------------------------------------------------------------
    # Types

    def type_c(self, typ: t.Type, loc: Loc) -> str:
        """Declare the C struct behind `typ` if needed; return its C type name."""
        if isinstance(typ, t.StructLike):
            name = struct_name(typ)
            if name not in self.structs:
                self.structs[name] = None  # type: ignore[assignment]  # guards recursion
                members = []
                if typ.kind == "header":
                    members.append("uint8_t _valid")
                for f in typ.fields:
                    self.type_c(f.type, loc)
                    members.append(self.member_decl(f.type, c_ident(f.name), loc))
                if typ.kind == "header_union" and not members:
                    members.append("uint8_t _unused")
                if not members:
                    members.append("uint8_t _empty")
                del self.structs[name]
                self.structs[name] = CStruct(name, typ.name, members)
            return f"struct {name}"
        if isinstance(typ, t.Stack):
            element = self.type_c(typ.element, loc)
            name = stack_name(typ)
            if name not in self.structs:
                self.structs[name] = CStruct(name, str(typ), [f"{element} e[{typ.size}]", "uint32_t _next"])
            return f"struct {name}"
        if isinstance(typ, t.Varbit):
            nbytes = max((typ.width + 7) // 8, 1)
            name = f"p4odp_varbit_{nbytes}"
            if name not in self.structs:
                self.structs[name] = CStruct(name, f"varbit<{typ.width}>", ["uint32_t len", f"uint8_t b[{nbytes}]"])
            return f"struct {name}"
        try:
            return c_type(typ).decl
        except NotImplementedError:
            raise Unsupported(loc, f"values of type {typ}") from None

    def member_decl(self, typ: t.Type, name: str, loc: Loc) -> str:
        decl = self.type_c(typ, loc)
        array = c_type(typ).array if isinstance(typ, t.Bits) else ""
        return f"{decl} {name}{array}"

    # ------------------------------------------------------------------
    # Blocks

    def gen_block(self, role: str, decl) -> dict:
        fn = f"p4_{role}"
        ctx = FunctionContext(self, decl, Scope(self.globals))
        params = []
        for p in decl.params:
            typ = p.type
            if isinstance(typ, t.ExternT):
                ctx.scope.names[p.name] = Binding("pc", typ)
                continue
            c = self.type_c(typ, p.loc)
            params.append(f"{c} *{c_ident(p.name)}")
            ctx.scope.names[p.name] = Binding(f"(*{c_ident(p.name)})", typ)
        for local in decl.locals:
            ctx.local_decl(local)
        if isinstance(decl, ir.Parser):
            body = ctx.parser_body(decl)
            ret = "int"
        else:
            body = ctx.control_body(decl)
            ret = "void"
        signature = f"static {ret} {fn}(struct p4odp_pctx *pc{''.join(', ' + p for p in params)})"
        self.functions.append(CFunction(signature, ctx.prelude + body, f"{role}: {decl.name} ({decl.loc})"))
        return {"function": fn, "params": [p.type for p in decl.params],
                "types": [self.type_c(p.type, p.loc) if not isinstance(p.type, t.ExternT)
                          else None for p in decl.params]}

    # ------------------------------------------------------------------
    # Constants

    def const_int(self, expr: Optional[ir.Expression]) -> Optional[int]:
        from p4odp.frontend.const_eval import evaluate

        if expr is None:
            return None

        def lookup(name: str):
            binding = self.globals.lookup(name)
            return binding.const if isinstance(binding, Binding) else None

        value = evaluate(expr, lookup)
        return int(value) if value is not None else None

    def const_c(self, expr: ir.Expression) -> str:
        value = self.const_int(expr)
        return f"UINT64_C({value})" if value is not None and value >= 0 else str(value)

    def error_code(self, name: str) -> int:
        return self.errors.index(name)

    def action_id(self, action: ir.Action, name: str, params: list[CActionParam],
                  instance: Optional[str] = None) -> int:
        key = (id(action), instance)
        if key not in self.action_ids:
            new_id = len(self.action_ids) + 1
            self.action_ids[key] = new_id
            self.actions[new_id] = CAction(new_id, name, params)
        return self.action_ids[key]


class FunctionContext:
    """Generates the body of one C function (a parser, a control) and the actions inlined in it."""

    def __init__(self, gen: _Generator, decl, scope: Scope) -> None:
        self.gen = gen
        self.decl = decl
        self.scope = scope
        self.prelude: list[str] = []
        self.lines: list[str] = []
        self.indent = 1
        self.action_end: Optional[str] = None  # label a `return` inside an inlined action jumps to
        self.return_value = None  # (C variable, type) a `return` inside an inlined function assigns
        # Control-plane name prefix of the control instance being inlined (None: the block itself).
        self.instance_prefix: Optional[str] = None
        self.state_prefix = "st_"  # labels of the parser states being generated
        self.loops: list[tuple[str, str]] = []  # (continue label, break label) of the enclosing loops
        self.sub_parser_accept: Optional[str] = None  # where an inlined sub-parser's accept goes
        self.in_parser = isinstance(decl, ir.Parser)

    def emit(self, line: str) -> None:
        self.lines.append("\t" * self.indent + line)

    def temp(self, prefix: str = "t") -> str:
        return f"{prefix}{next(self.gen.tmp)}"

    def loc_line(self, loc: Loc) -> None:
        self.emit(f"/* {loc.file}:{loc.line} */")

    # ------------------------------------------------------------------
    # Declarations inside blocks

    def local_decl(self, decl) -> None:
        if isinstance(decl, ir.Variable):
            typ = decl.type
            name = f"v_{c_ident(decl.name)}_{next(self.gen.tmp)}"
            self.prelude.append("\t" + self.gen.member_decl(typ, name, decl.loc) + ";")
            self.prelude.append(f"\tmemset(&{name}, 0, sizeof {name});")
            self.scope.names[decl.name] = Binding(name, typ)
            if decl.init is not None:
                self.assign(Binding(name, typ), decl.init, decl.loc)
        elif isinstance(decl, ir.Constant):
            self.scope.names[decl.name] = Binding(self.gen.const_c(decl.value), decl.value.type,
                                                  self.gen.const_int(decl.value))
        elif isinstance(decl, ir.Action):
            self.scope.names[decl.name] = decl
        elif isinstance(decl, ir.Table):
            self.scope.names[decl.name] = decl
        elif isinstance(decl, ir.Instance):
            target = self.gen.decls.get(_type_name(decl.type_ref))
            if isinstance(target, ir.Control) and not target.ctor_params and not decl.args:
                self.scope.names[decl.name] = ControlInstance(decl.name, target)
            elif isinstance(target, ir.Parser) and not target.ctor_params and not decl.args:
                self.scope.names[decl.name] = ParserInstance(decl.name, target)
            elif isinstance(decl.type, t.ExternT) and decl.type.name in STATEFUL_EXTERNS:
                self.scope.names[decl.name] = self.extern_instance(decl)
            else:
                raise Unsupported(decl.loc, f"instances of {_type_name(decl.type_ref)} inside blocks")
        elif isinstance(decl, ir.ValueSet):
            raise Unsupported(decl.loc, "value_set")
        else:
            raise Unsupported(decl.loc, "this declaration")

    # ------------------------------------------------------------------
    # Parsers

    def parser_body(self, decl: ir.Parser) -> list[str]:
        self.states(decl)
        self.lines.append("st_accept:")
        self.emit("return 1;")
        self.lines.append("st_reject:")
        self.emit("return 0;")
        return self.lines

    def states(self, decl: ir.Parser) -> None:
        self.emit(f"goto {self.state_label('start')};")
        for state in decl.states:
            self.lines.append(f"{self.state_label(state.name)}:")
            self.loc_line(state.loc)
            for stmt in state.components:
                self.statement(stmt)
            self.transition(state.transition)

    def state_label(self, name: str) -> str:
        """The C label of a parser state; a sub-parser's accept continues its caller."""
        if name == "reject":
            return "st_reject"
        if name == "accept" and self.sub_parser_accept is not None:
            return self.sub_parser_accept
        return f"{self.state_prefix}{c_ident(name)}"

    def inline_parser(self, instance: "ParserInstance", args: tuple) -> None:
        """A sub-parser, inlined: its states get labels of their own; its accept goes on here."""
        outer = self.state_prefix, self.sub_parser_accept
        self.state_prefix = f"{self.temp('sp')}_"
        self.sub_parser_accept = f"{self.state_prefix}accepted"
        parser = instance.parser
        local_states = ir.Block(parser.loc, tuple(ir.DeclarationStatement(d.loc, d) for d in parser.locals))
        self.inline_body(f"parser {parser.name} as {instance.name}", parser.params, local_states, args, None,
                         self.gen.globals, None, parser_states=parser)
        self.state_prefix, self.sub_parser_accept = outer

    def transition(self, expr: ir.Expression) -> None:
        if isinstance(expr, ir.PathExpression):
            self.emit(f"goto {self.state_label(expr.name)};")
            return
        assert isinstance(expr, ir.SelectExpression)
        keys = []
        for key in expr.keys:
            name = self.temp("k")
            self.emit(f"uint64_t {name} = {self.value(key)};")
            keys.append((name, key.type))
        for case in expr.cases:
            cond = self.keyset_match(case.keyset, keys)
            self.emit(f"if ({cond})")
            self.emit(f"\tgoto {self.state_label(case.state.name)};")
        self.emit(f"pc->error = {self.gen.error_code('NoMatch')};")
        self.emit("goto st_reject;")

    def keyset_match(self, keyset: ir.Expression, keys: list) -> str:
        if isinstance(keyset, (ir.DefaultExpression, ir.DontCare)):
            return "1"
        if isinstance(keyset, ir.ListExpression) and len(keys) > 1:
            parts = [self.keyset_match(e, [k]) for e, k in zip(keyset.elements, keys)]
            return " && ".join(f"({p})" for p in parts) or "1"
        if isinstance(keyset, ir.ListExpression) and len(keyset.elements) == 1:
            return self.keyset_match(keyset.elements[0], keys)
        key, _ = keys[0]
        if isinstance(keyset, ir.Binary) and keyset.op is ir.BinaryOp.MASK:
            mask = self.value(keyset.right)
            return f"({key} & {mask}) == ({self.value(keyset.left)} & {mask})"
        if isinstance(keyset, ir.Binary) and keyset.op is ir.BinaryOp.RANGE:
            return f"{key} >= {self.value(keyset.left)} && {key} <= {self.value(keyset.right)}"
        if isinstance(keyset.type, t.SetT):
            raise Unsupported(keyset.loc, "value sets in select")
        return f"{key} == (uint64_t){self.value(keyset)}"

    # ------------------------------------------------------------------
    # Controls

    def control_body(self, decl: ir.Control) -> list[str]:
        self.block(decl.body)
        self.lines.append("ctl_end:")
        self.emit(";")
        return self.lines

    # ------------------------------------------------------------------
    # Statements

    def block(self, block: ir.Block, keep_scope: bool = False) -> None:
        """The statements of `block`, in a scope of their own unless `keep_scope`."""
        outer = self.scope
        if not keep_scope:
            self.scope = Scope(outer)
        for stmt in block.statements:
            self.statement(stmt)
        self.scope = outer

    def statement(self, stmt: ir.Statement) -> None:
        if self.gen.line_directives and stmt.loc.line > 0:
            self.lines.append(f'#line {stmt.loc.line} "{stmt.loc.file}"')
        handler = getattr(self, "s_" + type(stmt).__name__, None)
        if handler is None:
            raise Unsupported(stmt.loc, type(stmt).__name__)
        handler(stmt)

    def s_Block(self, stmt: ir.Block) -> None:
        self.emit("{")
        self.indent += 1
        self.block(stmt)
        self.indent -= 1
        self.emit("}")

    def s_EmptyStatement(self, stmt) -> None:
        pass

    def s_DeclarationStatement(self, stmt: ir.DeclarationStatement) -> None:
        self.local_decl(stmt.decl)

    def s_Assignment(self, stmt: ir.Assignment) -> None:
        if stmt.op is not None and not isinstance(stmt.target, ir.Slice):
            # `a op= b` evaluates `a` once, even when its index has side effects.
            target = self.lvalue(stmt.target)
            self.scope = Scope(self.scope, {"$target": target})
            operand = ir.PathExpression(stmt.target.loc, "$target", type=stmt.target.type)
            value = ir.Binary(stmt.loc, ir.BinaryOp(stmt.op), operand, stmt.value, type=stmt.target.type)
            self.assign(target, value, stmt.loc)
            self.scope = self.scope.parent
        elif stmt.op is not None:
            value = ir.Binary(stmt.loc, ir.BinaryOp(stmt.op), stmt.target, stmt.value, type=stmt.target.type)
            self.assign_to(stmt.target, value, stmt.loc)
        else:
            self.assign_to(stmt.target, stmt.value, stmt.loc)

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
        if isinstance(stmt, ir.Block):
            self.block(stmt)
        else:
            self.statement(stmt)
        self.indent -= 1

    def s_ForStatement(self, stmt: ir.ForStatement) -> None:
        outer = self.scope
        self.scope = Scope(outer)
        self.emit("{")
        for init in stmt.init:
            self.statement(init)
        cond = (lambda: self.value(stmt.cond)) if stmt.cond is not None else None
        self.loop(stmt.body, cond, lambda: [self.statement(u) for u in stmt.updates])
        self.emit("}")
        self.scope = outer

    def s_ForInStatement(self, stmt: ir.ForInStatement) -> None:
        collection = stmt.collection
        if not (isinstance(collection, ir.Binary) and collection.op is ir.BinaryOp.RANGE):
            raise Unsupported(stmt.loc, "for-in loops over anything but a range lo .. hi")
        outer = self.scope
        self.scope = Scope(outer)
        var = stmt.var
        name = f"v_{c_ident(var.name)}_{next(self.gen.tmp)}"
        last = self.temp("last")
        self.emit("{")
        self.emit(f"{self.gen.member_decl(var.type, name, var.loc)} = {self.value(collection.left)};")
        self.emit(f"uint64_t {last} = {self.value(collection.right)};")
        self.scope.names[var.name] = Binding(name, var.type)
        more = self.temp("more")  # stepping past the last value could wrap around: count instead
        self.emit(f"bool {more} = (uint64_t){name} <= {last};")
        self.loop(stmt.body, lambda: more, lambda: self.emit(f"{more} = (uint64_t){name} < {last}; {name}++;"))
        self.emit("}")
        self.scope = outer

    def loop(self, body: ir.Statement, cond, updates) -> None:
        """`for (;;)` with the condition first and the updates at a label `continue` jumps to;
        `cond` gives the C condition (None: none), `updates` emits the updates."""
        cont, brk = self.temp("next"), self.temp("done")
        self.loops.append((cont, brk))
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
        self.emit(f"goto {self.loops[-1][1]};")

    def s_ContinueStatement(self, stmt) -> None:
        self.emit(f"goto {self.loops[-1][0]};")

    def s_ExitStatement(self, stmt) -> None:
        if self.in_parser:
            raise Unsupported(stmt.loc, "exit in a parser")
        self.emit("pc->exited = 1;")
        # Inside an inlined action or function the out arguments are still copied back first.
        self.emit(f"goto {self.action_end or 'ctl_end'};")

    def s_ReturnStatement(self, stmt: ir.ReturnStatement) -> None:
        if stmt.value is not None:
            target, typ = self.return_value
            self.assign(Binding(target, typ), stmt.value, stmt.loc)
        self.emit(f"goto {self.action_end};" if self.action_end else "goto ctl_end;")

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
            mask = f"(p4odp_mask({width}) << {lo})"
            self.emit(f"{base.c} = ({base.c} & ~{mask}) | ((((uint64_t){self.value(value)}) & p4odp_mask({width}))"
                      f" << {lo});")
            return
        self.assign(self.lvalue(target), value, loc)

    def assign(self, dst: Binding, value: ir.Expression, loc: Loc) -> None:
        typ = dst.type
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

    # ------------------------------------------------------------------
    # Expressions

    def lvalue(self, expr: ir.Expression) -> Binding:
        if isinstance(expr, ir.PathExpression):
            binding = self.scope.lookup(expr.name)
            if not isinstance(binding, Binding):
                raise Unsupported(expr.loc, f"'{expr.name}' here")
            return binding
        if isinstance(expr, ir.Member):
            base = self.lvalue(expr.expr)
            btype = base.type
            if isinstance(btype, t.Stack):
                if expr.member == "next":
                    return Binding(f"{base.c}.e[{base.c}._next < {btype.size} ? {base.c}._next : 0]", btype.element)
                if expr.member == "last":
                    return Binding(f"{base.c}.e[{base.c}._next ? {base.c}._next - 1 : 0]", btype.element)
                raise Unsupported(expr.loc, f"stack member {expr.member}")
            return Binding(f"{base.c}.{c_ident(expr.member)}", expr.type)
        if isinstance(expr, ir.ArrayIndex):
            base = self.lvalue(expr.expr)
            index = self.gen.const_int(expr.index)
            if index is None:
                size = base.type.size
                position = self.temp("ix")
                self.emit(f"uint64_t {position} = {self.value(expr.index)};")
                return Binding(f"{base.c}.e[{position} < {size} ? {position} : 0]", expr.type)
            return Binding(f"{base.c}.e[{index}]", expr.type)
        if isinstance(expr, ir.MethodCall):  # a struct or header a call returns (lookahead, a function)
            result = self.call(expr, as_statement=False)
            if result is None:
                raise Unsupported(expr.loc, "this call as a value")
            return Binding(result, expr.type)
        raise Unsupported(expr.loc, f"{type(expr).__name__} as an l-value")

    def wide_value(self, expr: ir.Expression) -> str:
        if isinstance(expr, ir.IntLiteral):
            nbytes = (expr.type.width + 7) // 8
            data = expr.value.to_bytes(nbytes, "big") if expr.value >= 0 else \
                (expr.value % (1 << (8 * nbytes))).to_bytes(nbytes, "big")
            return "((const uint8_t[]){" + ", ".join(str(b) for b in data) + "})"
        if not isinstance(expr, (ir.PathExpression, ir.Member, ir.ArrayIndex, ir.MethodCall)):
            raise Unsupported(expr.loc, "arithmetic on values wider than 64 bits")
        return self.lvalue(expr).c

    def value(self, expr: ir.Expression) -> str:
        """A C expression for the value of `expr` (64-bit for integers)."""
        typ = expr.type
        if is_wide(typ):
            raise Unsupported(expr.loc, "arithmetic on values wider than 64 bits")
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
        binding = self.scope.lookup(expr.name)
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
            base = self.lvalue(expr.expr)
            if expr.member == "size":
                return str(btype.size)
            return f"(uint64_t){base.c}._next" if expr.member == "nextIndex" else f"(uint64_t)({base.c}._next - 1)"
        return self.lvalue(expr).c

    def v_ArrayIndex(self, expr) -> str:
        return self.lvalue(expr).c

    def v_Cast(self, expr: ir.Cast) -> str:
        inner = self.value(expr.expr)
        to, src = expr.type, expr.expr.type
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
        inner = self.value(expr.expr)
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

    def captured(self, expr: ir.Expression) -> tuple[list[str], str]:
        """The C value of `expr` and, apart, the statements computing it needs (inlined calls)."""
        start = len(self.lines)
        value = self.value(expr)
        lines = self.lines[start:]
        del self.lines[start:]
        return lines, value

    def v_Binary(self, expr: ir.Binary) -> str:
        op, typ = expr.op, expr.type
        if op in (ir.BinaryOp.AND, ir.BinaryOp.OR):
            left = self.value(expr.left)
            lines, right = self.captured(expr.right)
            if not lines:
                return f"({left} {op.value} {right})"
            # The right operand has side effects: evaluate it only when P4 does.
            result = self.temp("sc")
            self.emit(f"bool {result} = {left};")
            self.emit(f"if ({'' if op is ir.BinaryOp.AND else '!'}{result}) {{")
            self.lines.extend(lines)
            self.emit(f"\t{result} = {right};")
            self.emit("}")
            return result
        left, right = self.value(expr.left), self.value(expr.right)
        ltype = expr.left.type
        signed = isinstance(ltype, t.Bits) and ltype.signed
        width = ltype.width if isinstance(ltype, t.Bits) else 64
        if op in (ir.BinaryOp.EQ, ir.BinaryOp.NE, ir.BinaryOp.LT, ir.BinaryOp.LE, ir.BinaryOp.GT, ir.BinaryOp.GE):
            if isinstance(ltype, (t.StructLike, t.Stack, t.Varbit)) and op in (ir.BinaryOp.EQ, ir.BinaryOp.NE):
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
            rwidth = _bits_width(expr.right.type)
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
        cond = self.value(expr.cond)
        then_lines, then = self.captured(expr.then)
        else_lines, otherwise = self.captured(expr.otherwise)
        if not then_lines and not else_lines:
            return f"(({cond}) ? ({then}) : ({otherwise}))"
        # A branch has side effects: only the chosen one may run.
        result = self.temp("mux")
        self.emit(f"{'bool' if isinstance(expr.type, t.Bool) else 'uint64_t'} {result};")
        self.emit(f"if ({cond}) {{")
        self.lines.extend(then_lines)
        self.emit(f"\t{result} = {then};")
        self.emit("} else {")
        self.lines.extend(else_lines)
        self.emit(f"\t{result} = {otherwise};")
        self.emit("}")
        return result

    def v_IndexedSlice(self, expr: ir.IndexedSlice) -> str:
        width = self.gen.const_int(expr.width)
        return f"p4odp_trunc(p4odp_shr((uint64_t)({self.value(expr.expr)}), (uint64_t)({self.value(expr.low)})), {width})"

    def v_Slice(self, expr: ir.Slice) -> str:
        hi, lo = self.gen.const_int(expr.high), self.gen.const_int(expr.low)
        return f"p4odp_trunc((uint64_t)({self.value(expr.expr)}) >> {lo}, {hi - lo + 1})"

    def v_MethodCall(self, expr: ir.MethodCall) -> str:
        result = self.call(expr, as_statement=False)
        if result is None:
            raise Unsupported(expr.loc, "this call as a value")
        return result

    # ------------------------------------------------------------------
    # Calls

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
                    if isinstance(method.expr, ir.Member) and isinstance(method.expr.expr.type, t.StructLike) \
                            and method.expr.expr.type.kind == "header_union":
                        union = self.lvalue(method.expr.expr).c  # a union holds one valid member at most
                        for f in method.expr.expr.type.fields:
                            if f.name != method.expr.member:
                                self.emit(f"{union}.{c_ident(f.name)}._valid = 0;")
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
            if isinstance(base_type, t.ObjectT) and name == "apply" and isinstance(method.expr, ir.PathExpression):
                instance = self.scope.lookup(method.expr.name)
                if isinstance(instance, ControlInstance):
                    self.inline_control(instance, expr.args)
                    return None
                if isinstance(instance, ParserInstance):
                    self.inline_parser(instance, expr.args)
                    return None
            if isinstance(base_type, t.ExternT):
                return self.extern_method(expr, base_type, name, args)
            if isinstance(base_type, t.Stack) and name in ("push_front", "pop_front"):
                return self.stack_shift(method.expr, name, args, expr.loc)
        if isinstance(method, ir.PathExpression):
            target = self.scope.lookup(method.name)
            if isinstance(target, ir.Action):
                self.inline_action(target, [a for a in expr.args], None)
                return None
            if isinstance(target, ir.Function):
                return self.inline_function(target, expr.args)
            return self.extern_function(expr, method.name, args)
        raise Unsupported(expr.loc, "this call")

    def extern_instance(self, decl: ir.Instance) -> "ExternInstance":
        """Storage in `struct p4_state` for a register, counter or meter instance."""
        typ: t.ExternT = decl.type
        prefix = self.instance_prefix if self.instance_prefix is not None else _control_prefix(self.decl)
        member = c_ident(f"{typ.name}_{prefix}_{decl.name}")
        size = self.gen.const_int(decl.args[0].value) if decl.args else 1
        if typ.name in ("direct_counter", "direct_meter"):
            size = 0
        element = None
        if typ.name == "register":
            element = typ.type_args[0]
            if not isinstance(element, (t.Bits, t.Bool)) or is_wide(element):
                raise Unsupported(decl.loc, f"registers of {element}")
            self.gen.state.append(f"{self.gen.type_c(element, decl.loc)} {member}[{max(size, 1)}]")
        elif typ.name == "counter":
            self.gen.state.append(f"uint64_t {member}[{max(size, 1)}][2]")
        return ExternInstance(decl.name, typ.name, member, size or 0, element)

    def extern_method(self, expr: ir.MethodCall, typ: t.ExternT, name: str, args: list) -> Optional[str]:
        if typ.name == "packet_in":
            if name == "extract" and len(args) == 1 and args[0] is not None:
                self.extract(args[0])
                return None
            if name == "extract" and len(args) == 2:
                self.extract(args[0], self.value(args[1]))
                return None
            if name == "lookahead" and isinstance(expr.type, t.StructLike) and expr.type.kind == "header":
                return self.lookahead_header(expr.type, expr.loc)
            if name == "lookahead":
                width = _bits_width(expr.type)
                if width is None or width > 64:
                    raise Unsupported(expr.loc, f"lookahead of {expr.type}")
                self.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
                          f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
                return f"p4odp_load_bits(pc->data, pc->cursor, {width})"
            if name == "advance":
                amount = self.value(args[0])
                self.emit(f"if (p4odp_unlikely(pc->cursor + ({amount}) > pc->len * 8)) {{ "
                          f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
                self.emit(f"pc->cursor += (uint32_t)({amount});")
                return None
            if name == "length":
                return "(uint64_t)pc->len"
        if typ.name == "packet_out" and name == "emit":
            self.emit_header(args[0])
            return None
        instance = self.scope.lookup(expr.method.expr.name) if isinstance(expr.method.expr, ir.PathExpression) \
            else None
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

    def stateful_call(self, instance: "ExternInstance", name: str, args: list, loc: Loc) -> Optional[str]:
        member = f"STATE->{instance.member}"
        if instance.kind == "register" and name == "read":
            index = self.value(args[1])
            target = self.lvalue(args[0])
            self.emit(f"{target.c} = ({index}) < {instance.size} ? {member}[{index}] : 0;")
            return None
        if instance.kind == "register" and name == "write":
            index = self.value(args[0])
            self.emit(f"if (({index}) < {instance.size})")
            self.emit(f"\t{member}[{index}] = {self.value(args[1])};")
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
        hashed = f"p4odp_hash(P4ODP_HASH_{algo.member.upper()}, {buf}, {size})"
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
        else:
            elements = [data]
        widths = [_bits_width(e.type) for e in elements]
        if any(w is None for w in widths):
            raise Unsupported(loc, "hash data that is not a list of bit<> fields")
        total = sum(widths)
        self.emit(f"uint8_t {buf}[{max((total + 7) // 8, 1)}] = {{0}};")
        offset = 0
        for element, width in zip(elements, widths):
            if width > 64:
                self.emit(f"p4odp_copy_bits({buf}, {offset}, {self.wide_value(element)}, "
                          f"{(width + 7) // 8 * 8 - width}, {width});")
            elif width:
                self.emit(f"p4odp_store_bits({buf}, {offset}, {width}, (uint64_t)({self.value(element)}));")
            offset += width
        return (total + 7) // 8

    def standard_metadata(self, loc: Loc) -> str:
        for name, binding in self.scope.names.items():
            if isinstance(binding, Binding) and isinstance(binding.type, t.StructLike) and \
                    binding.type.name == "standard_metadata_t":
                return binding.c
        scope = self.scope.parent
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
        most = sum(_bits_width(e.type) or (e.type.width if isinstance(e.type, t.Varbit) else 0) for e in elements)
        buf, bits = self.temp("ck"), self.temp("bits")
        self.emit("{")
        self.indent += 1
        self.emit(f"uint8_t {buf}[{max((most + 7) // 8, 1)}] = {{0}};")
        self.emit(f"uint32_t {bits} = 0;")
        for element in elements:
            width = _bits_width(element.type)
            if isinstance(element.type, t.Varbit):
                field = self.lvalue(element).c
                self.emit(f"p4odp_copy_bits({buf}, {bits}, {field}.b, 0, {field}.len); {bits} += {field}.len;")
            elif width is None:
                raise Unsupported(element.loc, f"checksum data of type {element.type}")
            elif width > 64:
                self.emit(f"p4odp_copy_bits({buf}, {bits}, {self.wide_value(element)}, "
                          f"{(width + 7) // 8 * 8 - width}, {width}); {bits} += {width};")
            else:
                self.emit(f"p4odp_store_bits({buf}, {bits}, {width}, (uint64_t)({self.value(element)})); "
                          f"{bits} += {width};")
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
    # Headers in and out of packets

    def extract(self, target: ir.Expression, varbit_size: Optional[str] = None) -> None:
        typ = target.type
        if not isinstance(typ, t.StructLike) or typ.kind != "header":
            raise Unsupported(target.loc, f"extract into {typ}")
        if isinstance(target, ir.Member) and target.member == "next":
            stack = self.lvalue(target.expr)
            self.emit(f"if (p4odp_unlikely({stack.c}._next >= {stack.type.size})) {{ "
                      f"pc->error = {self.gen.error_code('StackOutOfBounds')}; goto st_reject; }}")
        dst = self.lvalue(target).c
        fixed = sum(_bits_width(f.type) or 0 for f in typ.fields)
        width = str(fixed)
        if varbit_size is not None:
            varbit = next(f for f in typ.fields if isinstance(f.type, t.Varbit))
            size = self.temp("vb")
            self.emit(f"uint32_t {size} = (uint32_t)({varbit_size});")
            # As BMv2: a size that is not whole bytes is ParserInvalidArgument, one past the
            # varbit's maximum HeaderTooShort.
            self.emit(f"if (p4odp_unlikely({size} % 8)) {{ "
                      f"pc->error = {self.gen.error_code('ParserInvalidArgument')}; goto st_reject; }}")
            self.emit(f"if (p4odp_unlikely({size} > {varbit.type.width})) {{ "
                      f"pc->error = {self.gen.error_code('HeaderTooShort')}; goto st_reject; }}")
            width = f"({fixed} + {size})"
        self.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
                  f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
        offset = "0"
        for f in typ.fields:
            if isinstance(f.type, t.Varbit):
                member = f"{dst}.{c_ident(f.name)}"
                self.emit(f"{member}.len = {size};")
                self.emit(f"memset({member}.b, 0, sizeof {member}.b);")
                self.emit(f"p4odp_copy_bits({member}.b, 0, pc->data, pc->cursor + {offset}, {size});")
                offset = f"{offset} + {size}"
                continue
            self.field_io(f, dst, offset, load=True)
            offset = f"{offset} + {_bits_width(f.type) or 0}"
        self.emit(f"{dst}._valid = 1;")
        self.emit(f"pc->cursor += {width};")
        if isinstance(target, ir.Member) and target.member == "next":
            stack = self.lvalue(target.expr)
            self.emit(f"{stack.c}._next++;")

    def lookahead_header(self, typ: t.StructLike, loc: Loc) -> str:
        """A copy of the header that starts at the parser's cursor, which does not move."""
        tmp = self.temp("la")
        self.emit(f"{self.gen.type_c(typ, loc)} {tmp};")
        self.emit(f"memset(&{tmp}, 0, sizeof {tmp});")
        width = sum(_bits_width(f.type) or 0 for f in typ.fields)
        self.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
                  f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
        offset = 0
        for f in typ.fields:
            self.field_io(f, tmp, str(offset), load=True)
            offset += _bits_width(f.type) or 0
        self.emit(f"{tmp}._valid = 1;")
        return tmp

    def equal(self, left: ir.Expression, right: ir.Expression, typ: t.Type, loc: Loc) -> str:
        """C for `left == right` on structs, headers, stacks, varbits and wide values."""
        if isinstance(left, (ir.ListExpression, ir.StructExpression, ir.InvalidExpression)) or \
                isinstance(right, (ir.ListExpression, ir.StructExpression, ir.InvalidExpression)):
            raise Unsupported(loc, "comparison with an initializer")
        return _equal_c(self.lvalue(left).c, self.lvalue(right).c, typ)

    def field_io(self, f: t.Field, dst: str, offset: str, load: bool) -> None:
        ftype = f.type
        if isinstance(ftype, t.Varbit) and not load:
            member = f"{dst}.{c_ident(f.name)}"
            self.emit(f"p4odp_copy_bits(pc->out, pc->out_bits, {member}.b, 0, {member}.len); "
                      f"pc->out_bits += {member}.len;")
            return
        if isinstance(ftype, (t.EnumT, t.NewTypeT)):
            ftype = ftype.underlying if isinstance(ftype, t.EnumT) else ftype.base
        if isinstance(ftype, t.Bool):
            ftype = t.Bits(1)
        if not isinstance(ftype, t.Bits):
            raise Unsupported(Loc("<header>", 0, 0), f"header fields of type {f.type}")
        member = f"{dst}.{c_ident(f.name)}"
        width = ftype.width
        if width > 64:
            pad = (width + 7) // 8 * 8 - width
            if load:
                self.emit(f"p4odp_copy_bits({member}, {pad}, pc->data, pc->cursor + {offset}, {width});")
            else:
                self.emit(f"p4odp_copy_bits(pc->out, pc->out_bits, {member}, {pad}, {width}); "
                          f"pc->out_bits += {width};")
            return
        if load:
            value = f"p4odp_load_bits(pc->data, pc->cursor + {offset}, {width})"
            if ftype.signed:
                value = f"p4odp_sext({value}, {width})"
            self.emit(f"{member} = {value};")
        else:
            self.emit(f"p4odp_store_bits(pc->out, pc->out_bits, {width}, (uint64_t){member}); "
                      f"pc->out_bits += {width};")

    def emit_header(self, target: ir.Expression) -> None:
        typ = target.type
        if isinstance(typ, t.StructLike) and typ.kind == "struct":
            for f in typ.fields:
                self.emit_header(ir.Member(target.loc, target, f.name, type=f.type))
            return
        if isinstance(typ, t.Stack):
            for i in range(typ.size):
                self.emit_header(ir.ArrayIndex(target.loc, target, ir.IntLiteral(target.loc, i, type=t.InfInt()),
                                               type=typ.element))
            return
        if isinstance(typ, t.StructLike) and typ.kind == "header_union":
            for f in typ.fields:
                self.emit_header(ir.Member(target.loc, target, f.name, type=f.type))
            return
        if not isinstance(typ, t.StructLike) or typ.kind != "header":
            raise Unsupported(target.loc, f"emit of {typ}")
        src = self.lvalue(target).c
        width = sum(_bits_width(f.type) or (f.type.width if isinstance(f.type, t.Varbit) else 0) for f in typ.fields)
        self.emit(f"if ({src}._valid && pc->out_bits + {width} <= P4ODP_MAX_HEADER_BITS) {{")
        self.indent += 1
        for f in typ.fields:
            self.field_io(f, src, "0", load=False)
        self.indent -= 1
        self.emit("}")

    # ------------------------------------------------------------------
    # Tables and actions

    def apply_table(self, table_expr: ir.Expression) -> dict:
        """Generate a table application; the C names of its results."""
        table = self.scope.lookup(table_expr.name) if isinstance(table_expr, ir.PathExpression) else None
        if not isinstance(table, ir.Table):
            raise Unsupported(table_expr.loc, "this table reference")
        info = self.table_info(table)
        hit, run = self.temp("hit"), self.temp("run")
        self.prelude.append(f"\tbool {hit} = 0;")
        self.prelude.append(f"\tuint32_t {run} = 0;")
        self.emit(f"/* table {info['name']} */")
        self.emit("{")
        self.indent += 1
        key_len = info["key_len"]
        if key_len:
            self.emit(f"uint8_t key[{key_len}] = {{0}};")
            for key in info["key_exprs"]:
                expr, offset, width = key
                if width > 64:
                    self.emit(f"p4odp_copy_bits(key, {offset}, {self.wide_value(expr)}, {offset % 8}, {width});")
                else:
                    self.emit(f"p4odp_store_bits(key, {offset}, {width}, (uint64_t)({self.value(expr)}));")
        else:
            self.emit("const uint8_t *key = NULL;")
        self.emit(f"const struct p4odp_table_entry *entry = p4odp_table_apply(pc->sw, {info['index']}, key, &{hit});")
        self.emit(f"{run} = entry->action_id;")
        self.emit(f"switch ({run}) {{")
        for action, bound, action_id in info["actions"]:
            self.emit(f"case {action_id}: {{")
            self.indent += 1
            self.inline_action(action, bound, "entry->data")
            self.indent -= 1
            self.emit("\tbreak;")
            self.emit("}")
        self.emit("default:")
        self.emit("\tbreak;")
        self.emit("}")
        self.indent -= 1
        self.emit("}")
        return {"hit": hit, "action_run": run, "actions": {a.name: i for a, _, i in info["actions"]}}

    def table_info(self, table: ir.Table) -> dict:
        cache = getattr(self.gen, "_tables", None)
        if cache is None:
            cache = self.gen._tables = {}
        key = (id(table), self.instance_prefix)
        if key in cache:
            return cache[key]
        props = {p.name: p for p in table.properties}
        keys, key_exprs, offset = [], [], 0
        for element in props["key"].value if "key" in props else ():
            width = _bits_width(element.expr.type)
            if width is None:
                raise Unsupported(element.loc, f"table keys of type {element.expr.type}")
            nbytes = (width + 7) // 8
            name = _key_name(element)
            keys.append(CKeyField(name, width, MATCH_KINDS.get(element.match_kind, "")))
            if not keys[-1].match_kind:
                raise Unsupported(element.loc, f"the match kind {element.match_kind}")
            key_exprs.append((element.expr, offset * 8 + nbytes * 8 - width, width))
            offset += nbytes
        actions = []
        data_len = 0
        for ref in props["actions"].value if "actions" in props else ():
            action = self.scope.lookup(ref.name)
            if not isinstance(action, ir.Action):
                raise Unsupported(ref.loc, f"the action {ref.name}")
            cp_params = []
            layout = 0
            for p in action.params[len(ref.args):]:
                width = _bits_width(p.type)
                if width is None:
                    raise Unsupported(p.loc, "action parameters that are not bit<W>, int<W> or bool")
                cp_params.append(CActionParam(p.name, width))
                layout += (width + 7) // 8
            data_len = max(data_len, layout)
            action_name = action.control_name
            if self.instance_prefix is not None and "." in action_name:  # an action of a control instance
                action_name = f"{self.instance_prefix}.{action_name.split('.', 1)[-1]}"
            action_id = self.gen.action_id(action, action_name, cp_params, self.instance_prefix)
            actions.append((action, ref.args, action_id))
        index = len(self.gen.tables)
        default_id, default_data, default_const = 0, [], False
        if "default_action" in props:
            ref = props["default_action"].value
            default_const = props["default_action"].is_const
            for action, bound, action_id in actions:
                if action.name == ref.name:
                    default_id = action_id
                    params = action.params[len(bound):]
                    for p, arg in zip(params, ref.args[len(bound):]):
                        width = _bits_width(p.type)
                        value = self.gen.const_int(arg.value) or 0
                        default_data += list((value % (1 << (8 * ((width + 7) // 8)))).to_bytes(
                            (width + 7) // 8, "big"))
        else:
            for action, bound, action_id in actions:
                if action.name == "NoAction":
                    default_id = action_id
            if not default_id:
                noaction = self.gen.globals.lookup("NoAction")
                if isinstance(noaction, ir.Action):
                    default_id = self.gen.action_id(noaction, "NoAction", [])
                    actions.append((noaction, (), default_id))
        size = self.gen.const_int(props["size"].value) if "size" in props else 1024
        entries = []
        if "entries" in props:
            entries = [self.entry_command(e, i, keys) for i, e in enumerate(props["entries"].value)]
        name = table.control_name or table.name
        if self.instance_prefix is not None:  # a table of a control instantiated in another control
            name = f"{self.instance_prefix}.{name.split('.', 1)[-1]}"
        self.gen.tables.append(CTable(index, f"tbl_{c_ident(name)}", name, keys, [a[2] for a in actions],
                                      size or 1024, default_id, default_data, default_const, data_len, entries))
        info = {"index": index, "name": name, "key_len": offset, "key_exprs": key_exprs, "actions": actions}
        cache[key] = info
        return info

    def entry_command(self, entry: ir.Entry, position: int, keys: list) -> str:
        """A const entry, written as `table_add` arguments (simple_switch_CLI: the smaller priority wins).

        `priority = N` (P4_16): the larger N wins.  `@priority(N)` (BMv2's
        annotation): the smaller N wins.  No priority: the earlier entry wins.
        """
        elements = entry.keyset.elements if isinstance(entry.keyset, ir.ListExpression) and len(keys) > 1 \
            else (entry.keyset,)
        parts = []
        for element, key in zip(elements, keys):
            parts.append(self.entry_key(element, key))
        action_args = [str(self.gen.const_int(a.value) or 0) for a in entry.action.args]
        text = f"{entry.action.name} {' '.join(parts)} => {' '.join(action_args)}"
        if not any(k.match_kind in ("P4ODP_MATCH_TERNARY", "P4ODP_MATCH_RANGE", "P4ODP_MATCH_OPTIONAL")
                   for k in keys):
            return text
        annotated = next((a for a in entry.annotations if a.name == "priority" and a.items), None)
        if entry.priority is not None:
            priority = (1 << 24) - 1 - (self.gen.const_int(entry.priority) or 0)
        elif annotated is not None:
            priority = self.gen.const_int(annotated.items[0]) or 0
        else:
            priority = position + 1
        return f"{text} {max(priority, 0)}"

    def entry_key(self, element: ir.Expression, key: CKeyField) -> str:
        if isinstance(element, (ir.DefaultExpression, ir.DontCare)):
            if key.match_kind == "P4ODP_MATCH_LPM":
                return "0/0"
            if key.match_kind == "P4ODP_MATCH_RANGE":
                return f"0->{(1 << key.width) - 1}"
            return "0&&&0"
        if isinstance(element, ir.Binary) and element.op is ir.BinaryOp.MASK:
            value, mask = self.gen.const_int(element.left), self.gen.const_int(element.right)
            if key.match_kind == "P4ODP_MATCH_LPM":
                return f"{value}/{bin(mask).count('1')}"
            return f"{value}&&&{mask}"
        if isinstance(element, ir.Binary) and element.op is ir.BinaryOp.RANGE:
            return f"{self.gen.const_int(element.left)}->{self.gen.const_int(element.right)}"
        value = self.gen.const_int(element)
        if value is None:
            raise Unsupported(element.loc, "this entry key")
        if key.match_kind == "P4ODP_MATCH_LPM":
            return f"{value}/{key.width}"
        if key.match_kind == "P4ODP_MATCH_TERNARY":
            return f"{value}&&&{(1 << key.width) - 1}"
        if key.match_kind == "P4ODP_MATCH_RANGE":
            return f"{value}->{value}"
        return str(value)

    def inline_action(self, action: ir.Action, args: tuple, data: Optional[str]) -> None:
        """The body of `action`, its parameters bound to `args` then to the action data `data`."""
        declared_here = self.scope.lookup(action.name) is action and not self.gen.globals.lookup(action.name) is action
        self.inline_body(f"action {action.control_name or action.name}", action.params, action.body, args, data,
                         self.scope if declared_here else self.gen.globals, None)

    def inline_control(self, instance: "ControlInstance", args: tuple) -> None:
        """A sub-control's apply, inlined with its own locals and tables."""
        control = instance.control
        outer_prefix = self.instance_prefix
        base = outer_prefix if outer_prefix is not None else _control_prefix(self.decl)
        self.instance_prefix = f"{base}.{instance.name}"
        outer_scope = self.scope
        # The control's locals are declared in the scope its body sees, after its parameters.
        wrapper = ir.Block(control.body.loc, (*(ir.DeclarationStatement(d.loc, d) for d in control.locals),
                                              *control.body.statements))
        self.inline_body(f"control {control.name} as {self.instance_prefix}", control.params, wrapper, args, None,
                         self.gen.globals, None)
        self.scope = outer_scope
        self.instance_prefix = outer_prefix

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
                    scope_parent: Scope, result, parser_states: Optional[ir.Parser] = None) -> None:
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
                elif p.direction in ("out", "inout"):
                    copy_back.append((self.lvalue(arg.value), name))
                self.scope = saved
            elif data is not None:
                width = _bits_width(typ)
                if width > 64:
                    self.emit(f"memcpy({name}, {data} + {offset}, sizeof {name});")
                else:
                    load = f"p4odp_load_bits({data}, {offset * 8 + (width + 7) // 8 * 8 - width}, {width})"
                    self.emit(f"{name} = {self.wrap(load, typ) if isinstance(typ, t.Bits) and typ.signed else load};")
                offset += (width + 7) // 8
            self.scope.names[p.name] = binding
        self.action_end, self.return_value = end, result
        self.block(body, keep_scope=parser_states is not None)
        if parser_states is not None:
            self.states(parser_states)
            self.lines.append(f"{self.sub_parser_accept}:;")
        self.action_end, self.return_value = outer_end, outer_result
        self.lines.append(f"{end}:;")
        for target, source in copy_back:
            if isinstance(target, ir.Slice):
                self.scope = Scope(outer_scope, {"$out": source})
                self.assign_to(target, ir.PathExpression(target.loc, "$out", type=source.type), target.loc)
            else:
                self.emit(f"{target.c} = {source};")
        if not self.in_parser:
            self.emit(f"if (pc->exited) goto {outer_end or 'ctl_end'};")
        self.indent -= 1
        self.emit("}")
        self.scope = outer_scope


def _equal_c(a: str, b: str, typ: t.Type) -> str:
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


def _control_prefix(decl) -> str:
    for anno in decl.annotations:
        if anno.name == "name" and anno.items and isinstance(anno.items[0], ir.StringLiteral):
            return anno.items[0].value.lstrip(".")
    return decl.name


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


def _type_name(ref: ir.TypeRef) -> str:
    if isinstance(ref, ir.TypeName):
        return ref.name
    if isinstance(ref, ir.SpecializedType):
        return ref.base.name
    return "?"


def _bits_width(typ: t.Type) -> Optional[int]:
    if isinstance(typ, t.Bits):
        return typ.width
    if isinstance(typ, t.Bool):
        return 1
    if isinstance(typ, t.EnumT) and typ.underlying is not None:
        return typ.underlying.width
    if isinstance(typ, t.NewTypeT):
        return _bits_width(typ.base)
    if isinstance(typ, t.ErrorT):
        return 32
    return None


def _key_name(element: ir.KeyElement) -> str:
    for anno in element.annotations:
        if anno.name == "name" and anno.items and isinstance(anno.items[0], ir.StringLiteral):
            return anno.items[0].value
    return _expr_text(element.expr)


def _expr_text(expr: ir.Expression) -> str:
    if isinstance(expr, ir.PathExpression):
        return expr.name
    if isinstance(expr, ir.Member):
        return f"{_expr_text(expr.expr)}.{expr.member}"
    if isinstance(expr, ir.ArrayIndex) and isinstance(expr.index, ir.IntLiteral):
        return f"{_expr_text(expr.expr)}[{expr.index.value}]"
    if isinstance(expr, ir.MethodCall) and isinstance(expr.method, ir.Member) and expr.method.member == "isValid":
        return f"{_expr_text(expr.method.expr)}.$valid$"
    if isinstance(expr, ir.Slice):
        return f"{_expr_text(expr.expr)}[{expr.high.value if isinstance(expr.high, ir.IntLiteral) else '?'}:" \
               f"{expr.low.value if isinstance(expr.low, ir.IntLiteral) else '?'}]"
    return "key"
