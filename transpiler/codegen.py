"""From the typed IR of a v1model program to the C-shaped model of its datapath.

The walk starts at `main`, the V1Switch instance: each of its six blocks
becomes a C function, its tables and actions become control-plane metadata.
Parser and control instances are gone by then (the midend's inlining pass).
Actions and functions are inlined where they run (a table's switch or a direct call), so
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
from p4odp.transpiler.ctypes_map import CType, c_ident, is_wide, stack_name, struct_name
from p4odp.transpiler.key_names import key_name
from p4odp.transpiler.model import (CAction, CActionParam, CFunction, CKeyField, CProgram,
                                    CStruct, CTable)

__all__ = ["generate_model", "Unsupported"]

V1SWITCH_BLOCKS = ("parser", "verify_checksum", "ingress", "egress", "compute_checksum", "deparser")
MATCH_KINDS = {"exact": "P4ODP_MATCH_EXACT", "lpm": "P4ODP_MATCH_LPM", "ternary": "P4ODP_MATCH_TERNARY",
               "range": "P4ODP_MATCH_RANGE", "optional": "P4ODP_MATCH_OPTIONAL"}
DROP_PORT = 511
# The table-structures pass's names of the runtime's lookup structures.
TABLE_KINDS = {"auto": "P4ODP_TABLE_AUTO", "empty": "P4ODP_TABLE_EMPTY", "cuckoo": "P4ODP_TABLE_CUCKOO",
               "dir-24-8": "P4ODP_TABLE_DIR24", "tss-lpm": "P4ODP_TABLE_TSS_LPM", "tss": "P4ODP_TABLE_TSS"}


class Unsupported(Exception):
    """A construct this generator does not translate yet."""

    def __init__(self, loc: Loc, what: str) -> None:
        super().__init__(what)
        self.loc = loc
        self.what = what


def generate_model(program: ir.Program, source: str, diags: Diagnostics, c_types: dict,
                   table_structures: dict, line_directives: bool = True) -> Optional[CProgram]:
    """The C model of `program`: its scalar types stored as `c_types` says, its tables built as
    `table_structures` says (the type-lowering and table-structures passes' choices; a table
    missing there gets the runtime's default); `line_directives` adds `#line`s back to the P4
    source."""
    try:
        return _Generator(program, source, c_types, table_structures, line_directives).run()
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
    def __init__(self, program: ir.Program, source: str, c_types: dict, table_structures: dict,
                 line_directives: bool) -> None:
        self.program = program
        self.c_types = c_types
        self.table_structures = table_structures
        self.line_directives = line_directives
        self.source = source
        self.globals = Scope(None)
        self.structs: dict[str, CStruct] = {}
        self.functions: list[CFunction] = []
        self.tables: list[CTable] = []
        self.actions: dict[int, CAction] = {}
        self.action_ids: dict[int, int] = {}  # id(ir.Action) -> action id
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
            elif isinstance(decl, ir.Instance) and isinstance(decl.type, t.ExternT) and \
                    decl.type.name in STATEFUL_EXTERNS:  # shared by every block that uses it
                self.globals.names[decl.name] = self.extern_instance(decl)
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
        if isinstance(typ, t.TupleT):
            typ = _tuple_struct(typ)
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
        return self.scalar_c(typ, loc).decl

    def scalar_c(self, typ: t.Type, loc: Loc) -> CType:
        lowered = self.c_types.get(typ)
        if lowered is None:
            raise Unsupported(loc, f"values of type {typ} (without the type-lowering pass, none)")
        return lowered

    def member_decl(self, typ: t.Type, name: str, loc: Loc) -> str:
        decl = self.type_c(typ, loc)
        array = self.scalar_c(typ, loc).array if isinstance(typ, t.Bits) else ""
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
        signature = f"static inline {ret} {fn}(struct p4odp_pctx *pc{''.join(', ' + p for p in params)})"
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

    def extern_instance(self, decl: ir.Instance) -> "ExternInstance":
        """Storage in `struct p4_state` for a register, counter or meter instance."""
        typ: t.ExternT = decl.type
        member = c_ident(f"{typ.name}_{decl.control_name or decl.name}")
        size = self.const_int(decl.args[0].value) if decl.args else 1
        if typ.name in ("direct_counter", "direct_meter"):
            size = 0
        element = None
        if typ.name == "register":
            element = typ.type_args[0]
            if not isinstance(element, (t.Bits, t.Bool)) or is_wide(element):
                raise Unsupported(decl.loc, f"registers of {element}")
            self.state.append(f"{self.type_c(element, decl.loc)} {member}[{max(size, 1)}]")
        elif typ.name == "counter":
            self.state.append(f"uint64_t {member}[{max(size, 1)}][2]")
        return ExternInstance(decl.name, typ.name, member, size or 0, element)

    def error_code(self, name: str) -> int:
        return self.errors.index(name)

    def action_id(self, action: ir.Action, name: str, params: list[CActionParam]) -> int:
        if id(action) not in self.action_ids:
            new_id = len(self.action_ids) + 1
            self.action_ids[id(action)] = new_id
            self.actions[new_id] = CAction(new_id, name, params)
        return self.action_ids[id(action)]


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
        self.state_labels: dict[str, str] = {}  # parser state name -> C label
        self.loops: list[tuple[str, str]] = []  # (continue label, break label) of the enclosing loops
        self.in_parser = isinstance(decl, ir.Parser)

    def emit(self, line: str) -> None:
        self.lines.append("\t" * self.indent + line)

    def resolve(self, ref):
        """What a `PathExpression` or `ActionRef` names; `.x` (and names the inlining pass marked so) are
        top-level."""
        return (self.gen.globals if ref.is_global else self.scope).lookup(ref.name)

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
            if isinstance(self.gen.decls.get(_type_name(decl.type_ref)), (ir.Parser, ir.Control)):
                raise Unsupported(decl.loc, "parser and control instances without the inlining pass")
            if isinstance(decl.type, t.ExternT) and decl.type.name in STATEFUL_EXTERNS:
                self.scope.names[decl.name] = self.gen.extern_instance(decl)
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
        """The C label of a parser state, distinct for each state (inlined states have dotted names)."""
        if name in ("accept", "reject"):
            return f"st_{name}"
        label = self.state_labels.get(name)
        if label is None:
            label = base = f"st_{c_ident(name)}"
            while label in self.state_labels.values() or label in ("st_accept", "st_reject"):
                label = f"{base}_{next(self.gen.tmp)}"
            self.state_labels[name] = label
        return label

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
            if is_wide(base.type):
                pad = (base.type.width + 7) // 8 * 8 - base.type.width
                self.store_value(base.c, pad + base.type.width - 1 - hi, value)
                return
            mask = f"(p4odp_mask({width}) << {lo})"
            self.emit(f"{base.c} = ({base.c} & ~{mask}) | ((((uint64_t){self.value(value)}) & p4odp_mask({width}))"
                      f" << {lo});")
            return
        self.assign(self.lvalue(target), value, loc)

    def assign(self, dst: Binding, value: ir.Expression, loc: Loc) -> None:
        typ = _tuple_struct(dst.type) if isinstance(dst.type, t.TupleT) else dst.type
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

    # ------------------------------------------------------------------
    # Expressions

    def lvalue(self, expr: ir.Expression) -> Binding:
        if isinstance(expr, ir.PathExpression):
            binding = self.resolve(expr)
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
        if isinstance(expr, ir.ArrayIndex) and isinstance(expr.expr.type, t.TupleT):  # a constant index
            return Binding(f"{self.lvalue(expr.expr).c}.f{self.gen.const_int(expr.index)}", expr.type)
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

    # ------------------------------------------------------------------
    # Values wider than 64 bits: byte arrays in network order (p4odp_bits.h), computed into temporaries

    def wide_value(self, expr: ir.Expression) -> str:
        """A C array (or pointer) holding the value of the wide `expr`, in ceil(W/8) bytes."""
        typ = expr.type
        width = typ.width
        nbytes = (width + 7) // 8
        if isinstance(expr, ir.IntLiteral):
            data = (expr.value % (1 << width)).to_bytes(nbytes, "big")
            return "((const uint8_t[]){" + ", ".join(str(b) for b in data) + "})"
        if isinstance(expr, (ir.PathExpression, ir.Member, ir.ArrayIndex, ir.MethodCall)):
            return self.lvalue(expr).c
        tmp = self.temp("w")
        self.emit(f"uint8_t {tmp}[{nbytes}];")
        sizes = f"{nbytes}, {width}"
        if isinstance(expr, ir.Binary) and expr.op in _WIDE_BINARY:
            helper = _WIDE_BINARY[expr.op]
            if typ.signed and expr.op in (ir.BinaryOp.ADD_SAT, ir.BinaryOp.SUB_SAT):
                helper = "s" + helper
            left, right = self.wide_value(expr.left), self.wide_value(expr.right)
            self.emit(f"p4odp_wide_{helper}({tmp}, {left}, {right}, {sizes});")
        elif isinstance(expr, ir.Binary) and expr.op in (ir.BinaryOp.SHL, ir.BinaryOp.SHR):
            helper = "shl" if expr.op is ir.BinaryOp.SHL else "sshr" if typ.signed else "shr"
            left, amount = self.wide_value(expr.left), self.shift_amount(expr.right)
            self.emit(f"p4odp_wide_{helper}({tmp}, {left}, {amount}, {sizes});")
        elif isinstance(expr, ir.Binary) and expr.op is ir.BinaryOp.CONCAT:
            self.emit(f"memset({tmp}, 0, sizeof {tmp});")
            offset = nbytes * 8 - width
            for part in (expr.left, expr.right):
                self.store_value(tmp, offset, part)
                offset += _bits_width(part.type)
        elif isinstance(expr, ir.Unary) and expr.op is not ir.UnaryOp.NOT:
            inner = self.wide_value(expr.expr)
            if expr.op is ir.UnaryOp.PLUS:
                self.emit(f"memcpy({tmp}, {inner}, sizeof {tmp});")
            else:
                self.emit(f"p4odp_wide_{'neg' if expr.op is ir.UnaryOp.NEG else 'not'}({tmp}, {inner}, {sizes});")
        elif isinstance(expr, ir.Cast):
            self.wide_cast(tmp, expr)
        elif isinstance(expr, ir.Slice):
            hi, lo = self.gen.const_int(expr.high), self.gen.const_int(expr.low)
            base_width = expr.expr.type.width
            self.emit(f"memset({tmp}, 0, sizeof {tmp});")
            base_pad = (base_width + 7) // 8 * 8 - base_width
            self.emit(f"p4odp_copy_bits({tmp}, {nbytes * 8 - width}, {self.wide_value(expr.expr)}, "
                      f"{base_pad + base_width - 1 - hi}, {hi - lo + 1});")
        elif isinstance(expr, ir.Mux):
            cond = self.value(expr.cond)
            self.emit(f"if ({cond}) {{")
            self.nested_wide_copy(tmp, expr.then)
            self.emit("} else {")
            self.nested_wide_copy(tmp, expr.otherwise)
            self.emit("}")
        else:
            raise Unsupported(expr.loc, f"this operation on values wider than 64 bits ({type(expr).__name__})")
        return tmp

    def nested_wide_copy(self, dst: str, expr: ir.Expression) -> None:
        self.indent += 1
        self.emit(f"memcpy({dst}, {self.wide_value(expr)}, sizeof {dst});")
        self.indent -= 1

    def wide_cast(self, dst: str, expr: ir.Cast) -> None:
        """`dst` = the cast `expr` to a wide bit<W>/int<W>: from a narrower value, sign-extended when signed."""
        to, src = expr.type, expr.expr.type
        nbytes, width = (to.width + 7) // 8, to.width
        if not is_wide(src):
            inner = self.value(expr.expr)
            signed = isinstance(src, t.Bits) and src.signed
            if signed:
                self.emit(f"p4odp_wide_from_i64({dst}, {nbytes}, {width}, (int64_t)({inner}));")
            else:
                self.emit(f"p4odp_wide_from_u64({dst}, {nbytes}, {width}, (uint64_t)({inner}));")
            return
        inner = self.wide_value(expr.expr)
        keep = min(width, src.width)
        src_pad = (src.width + 7) // 8 * 8 - src.width
        self.emit(f"memset({dst}, 0, {nbytes});")
        self.emit(f"p4odp_copy_bits({dst}, {nbytes * 8 - keep}, {inner}, {src_pad + src.width - keep}, {keep});")
        if src.signed and width > src.width:  # sign-extend: move the sign bit to the top and back
            grow = width - src.width
            self.emit(f"p4odp_wide_shl({dst}, {dst}, {grow}, {nbytes}, {width});")
            self.emit(f"p4odp_wide_sshr({dst}, {dst}, {grow}, {nbytes}, {width});")

    def shift_amount(self, expr: ir.Expression) -> str:
        if is_wide(expr.type):  # an amount that does not fit 64 bits shifts everything out
            amount = self.wide_value(expr)
            nbytes = (expr.type.width + 7) // 8
            return f"(p4odp_wide_is_zero({amount}, {nbytes} - 8) ? p4odp_wide_to_u64({amount}, {nbytes}) : UINT64_MAX)"
        return f"(uint64_t)({self.value(expr)})"

    def store_value(self, buf: str, offset, expr: ir.Expression) -> None:
        """Write the bits of `expr` (any width) at bit `offset` of the byte array `buf`."""
        width = _bits_width(expr.type)
        if is_wide(expr.type):
            pad = (width + 7) // 8 * 8 - width
            self.emit(f"p4odp_copy_bits({buf}, {offset}, {self.wide_value(expr)}, {pad}, {width});")
        elif width:
            self.emit(f"p4odp_store_bits({buf}, {offset}, {width}, (uint64_t)({self.value(expr)}));")

    def wide_compare(self, expr: ir.Binary) -> str:
        ltype = expr.left.type
        nbytes = (ltype.width + 7) // 8
        left, right = self.wide_value(expr.left), self.wide_value(expr.right)
        if ltype.signed:
            return f"(p4odp_wide_scmp({left}, {right}, {nbytes}, {ltype.width}) {expr.op.value} 0)"
        return f"(p4odp_wide_cmp({left}, {right}, {nbytes}) {expr.op.value} 0)"

    def wide_low_bits(self, expr: ir.Expression, high: int, low: int) -> str:
        """Bits `high`..`low` (at most 64) of the wide `expr`, as a uint64_t."""
        width = expr.type.width
        pad = (width + 7) // 8 * 8 - width
        return f"p4odp_load_bits({self.wide_value(expr)}, {pad + width - 1 - high}, {high - low + 1})"

    def value(self, expr: ir.Expression) -> str:
        """A C expression for the value of `expr` (64-bit for integers)."""
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
            base = self.lvalue(expr.expr)
            if expr.member == "size":
                return str(btype.size)
            return f"(uint64_t){base.c}._next" if expr.member == "nextIndex" else f"(uint64_t)({base.c}._next - 1)"
        return self.lvalue(expr).c

    def v_ArrayIndex(self, expr) -> str:
        return self.lvalue(expr).c

    def v_Cast(self, expr: ir.Cast) -> str:
        to, src = expr.type, expr.expr.type
        if is_wide(src):  # the low bits of a wide value
            low = self.wide_low_bits(expr.expr, min(src.width, 64) - 1, 0)
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
        if is_wide(expr.left.type) and op in _COMPARISONS:
            return self.wide_compare(expr)
        ltype = expr.left.type
        aggregate = isinstance(ltype, (t.StructLike, t.Stack, t.Varbit, t.TupleT))
        if aggregate:
            left = right = ""  # compared member by member below
        else:
            left, right = self.operands(expr.left, expr.right)
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

    def operands(self, first: ir.Expression, second: ir.Expression) -> tuple[str, str]:
        """The C values of two operands, evaluated in order: when computing `second` takes statements
        (an inlined call that may change what `first` reads), `first` is saved before them."""
        left = self.value(first)
        lines, right = self.captured(second)
        if lines:
            saved = self.temp("lhs")
            ctype = "bool" if isinstance(first.type, t.Bool) else \
                "int64_t" if isinstance(first.type, t.Bits) and first.type.signed else "uint64_t"
            self.emit(f"{ctype} {saved} = {left};")
            self.lines.extend(lines)
            left = saved
        return left, right

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
        base, low = self.value(expr.expr), self.value(expr.low)
        return f"p4odp_trunc(p4odp_shr((uint64_t)({base}), (uint64_t)({low})), {width})"

    def v_Slice(self, expr: ir.Slice) -> str:
        hi, lo = self.gen.const_int(expr.high), self.gen.const_int(expr.low)
        if is_wide(expr.expr.type):
            return self.wide_low_bits(expr.expr, hi, lo)
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
                    if isinstance(method.expr, ir.Member) and _is_union(method.expr.expr.type):
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
                width = _bits_width(expr.type)
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
        elif isinstance(data.type, t.TupleT):
            elements = [ir.ArrayIndex(data.loc, data, ir.IntLiteral(data.loc, i, type=t.InfInt()), type=e)
                        for i, e in enumerate(data.type.elements)]
        else:
            elements = [data]
        widths = [_bits_width(e.type) for e in elements]
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
    # Headers in and out of packets

    def extract(self, target: ir.Expression, varbit_size: Optional[str] = None) -> None:
        typ = target.type
        if not isinstance(typ, t.StructLike) or typ.kind != "header":
            raise Unsupported(target.loc, f"extract into {typ}")
        stack_expr = _next_of(target)
        if stack_expr is not None:
            stack = self.lvalue(stack_expr)
            self.emit(f"if (p4odp_unlikely({stack.c}._next >= {stack.type.size})) {{ "
                      f"pc->error = {self.gen.error_code('StackOutOfBounds')}; goto st_reject; }}")
        dst = self.lvalue(target).c
        fixed = _packet_width(typ)
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
            offset = f"{offset} + {self.field_io(f, dst, offset, load=True)}"
        self.emit(f"{dst}._valid = 1;")
        self.emit(f"pc->cursor += {width};")
        if isinstance(target, ir.Member) and _is_union(target.expr.type):
            self.invalidate_union_siblings(target)
        if stack_expr is not None:
            self.emit(f"{self.lvalue(stack_expr).c}._next++;")

    def skip_bits(self, amount, loc: Loc) -> None:
        """Move the parser's cursor `amount` bits on (PacketTooShort past the end)."""
        if amount is None:
            raise Unsupported(loc, "skipping a header of this type")
        self.emit(f"if (p4odp_unlikely(pc->cursor + ({amount}) > pc->len * 8)) {{ "
                  f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
        self.emit(f"pc->cursor += (uint32_t)({amount});")

    def invalidate_union_siblings(self, member: ir.Member) -> None:
        """A header union holds one valid member at most: the others of `member`'s union become invalid."""
        union = self.lvalue(member.expr).c
        for f in member.expr.type.fields:
            if f.name != member.member:
                self.emit(f"{union}.{c_ident(f.name)}._valid = 0;")

    def lookahead_struct(self, typ: t.StructLike, loc: Loc) -> str:
        """A copy of the header or struct that starts at the parser's cursor, which does not move."""
        width = _packet_width(typ)
        if width is None:
            raise Unsupported(loc, f"lookahead of {typ}")
        tmp = self.temp("la")
        self.emit(f"{self.gen.type_c(typ, loc)} {tmp};")
        self.emit(f"memset(&{tmp}, 0, sizeof {tmp});")
        self.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
                  f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
        offset = 0
        for f in typ.fields:
            offset += self.field_io(f, tmp, str(offset), load=True)
        if typ.kind == "header":
            self.emit(f"{tmp}._valid = 1;")
        return tmp

    def equal(self, left: ir.Expression, right: ir.Expression, typ: t.Type, loc: Loc) -> str:
        """C for `left == right` on structs, headers, stacks, varbits and wide values."""
        if isinstance(left, (ir.ListExpression, ir.StructExpression, ir.InvalidExpression)) or \
                isinstance(right, (ir.ListExpression, ir.StructExpression, ir.InvalidExpression)):
            raise Unsupported(loc, "comparison with an initializer")
        return _equal_c(self.lvalue(left).c, self.lvalue(right).c, typ)

    def field_io(self, f: t.Field, dst: str, offset: str, load: bool) -> int:
        """Load field `f` of `dst` from the packet at bit `offset` after the cursor, or emit it; the
        bits it takes (a struct inside a header: its fields one after the other)."""
        ftype = f.type
        if isinstance(ftype, t.StructLike) and ftype.kind == "struct":
            member, width = f"{dst}.{c_ident(f.name)}", 0
            for inner in ftype.fields:
                width += self.field_io(inner, member, f"{offset} + {width}", load)
            return width
        if isinstance(ftype, t.Varbit) and not load:
            member = f"{dst}.{c_ident(f.name)}"
            self.emit(f"p4odp_copy_bits(pc->out, pc->out_bits, {member}.b, 0, {member}.len); "
                      f"pc->out_bits += {member}.len;")
            return 0
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
            return width
        if load:
            value = f"p4odp_load_bits(pc->data, pc->cursor + {offset}, {width})"
            if ftype.signed:
                value = f"p4odp_sext({value}, {width})"
            self.emit(f"{member} = {value};")
        else:
            self.emit(f"p4odp_store_bits(pc->out, pc->out_bits, {width}, (uint64_t){member}); "
                      f"pc->out_bits += {width};")
        return width

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
        width = sum(f.type.width if isinstance(f.type, t.Varbit) else _packet_width(f.type) or 0 for f in typ.fields)
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
        table = self.resolve(table_expr) if isinstance(table_expr, ir.PathExpression) else None
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
            for expr, offset, _ in info["key_exprs"]:
                self.store_value("key", offset, expr)
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
        key = id(table)
        if key in cache:
            return cache[key]
        props = {p.name: p for p in table.properties}
        keys, key_exprs, offset = [], [], 0
        for element in props["key"].value if "key" in props else ():
            width = _bits_width(element.expr.type)
            if width is None:
                raise Unsupported(element.loc, f"table keys of type {element.expr.type}")
            nbytes = (width + 7) // 8
            name = key_name(element)
            keys.append(CKeyField(name, width, MATCH_KINDS.get(element.match_kind, "")))
            if not keys[-1].match_kind:
                raise Unsupported(element.loc, f"the match kind {element.match_kind}")
            key_exprs.append((element.expr, offset * 8 + nbytes * 8 - width, width))
            offset += nbytes
        actions = []
        data_len = 0
        for ref in props["actions"].value if "actions" in props else ():
            action = self.resolve(ref)
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
            action_id = self.gen.action_id(action, action.control_name or action.name, cp_params)
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
        structure = TABLE_KINDS[self.gen.table_structures.get(name, "auto")]
        self.gen.tables.append(CTable(index, f"tbl_{c_ident(name)}", name, keys, [a[2] for a in actions],
                                      size or 1024, default_id, default_data, default_const, data_len, entries,
                                      structure))
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
                width = _bits_width(typ)
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
            else:
                self.emit(f"{target.c} = {source};")
        if not self.in_parser:
            self.emit(f"if (pc->exited) goto {outer_end or 'ctl_end'};")
        self.indent -= 1
        self.emit("}")
        self.scope = outer_scope


_COMPARISONS = (ir.BinaryOp.EQ, ir.BinaryOp.NE, ir.BinaryOp.LT, ir.BinaryOp.LE, ir.BinaryOp.GT, ir.BinaryOp.GE)
_WIDE_BINARY = {ir.BinaryOp.ADD: "add", ir.BinaryOp.SUB: "sub", ir.BinaryOp.MUL: "mul", ir.BinaryOp.BAND: "and",
                ir.BinaryOp.BOR: "or", ir.BinaryOp.BXOR: "xor", ir.BinaryOp.ADD_SAT: "add_sat",
                ir.BinaryOp.SUB_SAT: "sub_sat"}


def _tuple_struct(typ: t.TupleT) -> t.StructLike:
    """A tuple as C sees it: a struct of members f0, f1, ..."""
    return t.StructLike("struct", str(typ), tuple(t.Field(f"f{i}", e) for i, e in enumerate(typ.elements)))


def _equal_c(a: str, b: str, typ: t.Type) -> str:
    if isinstance(typ, t.TupleT):
        typ = _tuple_struct(typ)
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


def _header_width(typ: t.Type) -> Optional[int]:
    """The bits of a fixed-size header in a packet; None for anything else."""
    if not isinstance(typ, t.StructLike) or typ.kind != "header" or any(isinstance(f.type, t.Varbit)
                                                                         for f in typ.fields):
        return None
    return _packet_width(typ)


def _packet_width(typ: t.Type) -> Optional[int]:
    """The bits a value of `typ` takes in a packet (a struct's fields one after the other; a varbit
    field none, as its size is known only when parsing); None when it cannot be in a packet."""
    if isinstance(typ, t.StructLike):
        widths = [_packet_width(f.type) for f in typ.fields]
        return None if None in widths else sum(widths)
    if isinstance(typ, t.Varbit):
        return 0
    return _bits_width(typ)


def _is_union(typ: t.Type) -> bool:
    return isinstance(typ, t.StructLike) and typ.kind == "header_union"


def _next_of(target: ir.Expression) -> Optional[ir.Expression]:
    """The stack whose `next` element `target` is (`s.next`, or a member of a union stack's `s.next`)."""
    if isinstance(target, ir.Member) and target.member == "next":
        return target.expr
    if isinstance(target, ir.Member) and _is_union(target.expr.type):
        return _next_of(target.expr)
    return None


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
