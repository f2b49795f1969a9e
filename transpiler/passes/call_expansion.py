"""call-expansion: each call of an action or function becomes the callee's body, where it is called.

C knows nothing of P4's calling convention (copy-in/copy-out, `exit`
leaving through every caller), and the switch runs no call at all, so this
pass expands every call, as p4c's InlineActions and InlineFunctions do
with RemoveReturns, RemoveExits and RemoveActionParameters.  After
side-effect-ordering a call of an action or function is a statement of its
own or the whole value of an assignment, of a variable's initializer or of
a `return`; each becomes a block:

* a variable per parameter, `p$N`, initialized from its argument for
  `in`, `inout` and directionless parameters (`out` ones start as a new
  variable does); a parameter of an extern type (`packet_in`,
  `packet_out`) is replaced by the argument itself.  An `out` or `inout`
  argument whose place depends on a computed index has the index saved
  first (`idx$N`), as the spec evaluates argument l-values at the call;
* the callee's body, with its own calls expanded and its declarations
  renamed `x$N`, so that each copy declares its own; every `return` sets
  a flag `returned$N` that skips the rest of the body, after storing its
  value into `ret$N` in a function;
* the copy-out: each `out` and `inout` argument assigned its variable, in
  the order of the parameters;
* where something is copied out and the body may `exit`, the `exit` sets
  `exited$N` as well and the block ends with `if (exited$N) exit;`, since
  the spec copies out before an `exit` leaves the caller;
* for a function's value, `x = ret$N` last (`T x = f(a)` becomes `T x;`
  and the block).

An action's block is marked `@atomic`: BMv2 runs an action's register
accesses as one, and so does the C generator an `@atomic` block's.

The actions tables run keep only the parameters the control plane
supplies (their action data):

* an action bound to arguments in a table's `actions` list (`a(hdr.x)`)
  is specialized: a copy `a$N`, declared before the table, takes the bound
  parameters as variables copied in from the arguments (and out at the
  end) as above.  The table's list, its default action and entries, and
  the labels of `switch (t.apply().action_run)` name the copy; its
  control-plane name stays `a`;
* every table's action has its body lowered as a callee's is (calls
  expanded, `return` as a flag, `exit` after the copy-out of the
  specialized ones), and its parameters renamed when another declaration
  has their name (`port#2`), with `@name("port")` keeping the name the
  control plane uses.

After it no action or function is called; the actions tables run have
only directionless parameters and no `return`; every name the pipeline
uses, those parameters included, means one declaration program-wide.  The
actions and functions it copied that nothing names any more are removed
(the architecture's, such as `NoAction`, stay).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc
from p4odp.transpiler.key_names import renamed_param
from p4odp.transpiler.passes._build import ReturnRemover, bind_args, variable
from p4odp.transpiler.passes._walk import is_architecture_decl, map_children, referenced_names, walk
from p4odp.transpiler.passes.manager import PassContext
from p4odp.transpiler.passes.side_effects import is_apply_result
from p4odp.transpiler.passes.unique_names import FreshNames, NameTable

__all__ = ["CallExpansion"]

_COPIED_IN = ("", "in", "inout")
_COPIED_OUT = ("out", "inout")


class CallExpansion:
    name = "call-expansion"
    required = True  # the C generator expands no call

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        expander = _Expander(program)
        declarations = tuple(expander.top_level(d) for d in program.declarations)
        if not (expander.expanded_calls or expander.specialized or expander.lowered_actions):
            return program
        ctx.report(f"expanded {expander.expanded_calls} call(s); {expander.lowered_actions} table action(s) lowered, "
                   f"{expander.specialized} of them specialized to their bound arguments")
        return _without_expanded(replace(program, declarations=declarations), expander.expanded, ctx)


class _Expander:
    def __init__(self, program: ir.Program) -> None:
        self.names = NameTable(program)
        self.fresh = FreshNames(self.names.all)
        self.overloads: dict[str, list] = {}
        for decl in program.declarations:
            if isinstance(decl, ir.Function):
                self.overloads.setdefault(decl.name, []).append(decl)
        self.bodies: dict[int, tuple] = {}  # id(callee) -> (placeholders, body): `body()`
        self.expanded: set[int] = set()  # the ids of the callees expanded and of the actions specialized
        self.table_actions = _actions_run_unbound(program, self.names)
        self.labels: dict[str, dict[str, str]] = {}  # table -> its actions' names -> their specialized copies
        self.expanded_calls = self.specialized = self.lowered_actions = 0

    # ------------------------------------------------------------------
    # Declarations

    def top_level(self, decl):
        if isinstance(decl, ir.Control):
            return self.control(decl)
        if isinstance(decl, ir.Parser):
            return replace(decl, states=tuple(replace(s, components=self.statements(s.components))
                                              for s in decl.states))
        if isinstance(decl, ir.Action) and id(decl) in self.table_actions:
            return self.table_action(decl)
        return decl

    def control(self, decl: ir.Control) -> ir.Control:
        locals_ = []
        for local in decl.locals:
            if isinstance(local, ir.Table):
                copies, table = self.table(local)
                locals_ += [*copies, table]
            elif isinstance(local, ir.Action) and id(local) in self.table_actions:
                locals_.append(self.table_action(local))
            else:
                locals_.append(local)
        return replace(decl, locals=tuple(locals_), body=self.block(decl.body))

    def table(self, table: ir.Table) -> tuple[list, ir.Table]:
        """The copies of the actions `table` binds to arguments, and `table` naming them."""
        copies, renamed, bound = [], {}, {}
        properties = {p.name: p for p in table.properties}
        refs = []
        for ref in properties["actions"].value if "actions" in properties else ():
            if ref.args:
                action = self.names.get(ref.name, ref.is_global)
                copy = self.specialize(action, ref.args, ref.loc)
                copies.append(copy)
                renamed[ref.name], bound[ref.name] = copy.name, (len(ref.args), len(action.params))
                ref = ir.ActionRef(ref.loc, copy.name, annotations=ref.annotations)
            refs.append(ref)
        if not copies:
            return [], table
        self.labels[table.name] = renamed

        def unbound(ref: ir.ActionRef) -> ir.ActionRef:
            """`ref` (a default action, an entry's) naming the copy, with only the arguments of its data."""
            if ref.name not in renamed:
                return ref
            given, params = bound[ref.name]
            args = ref.args[given:] if len(ref.args) == params else ref.args
            return replace(ref, name=renamed[ref.name], args=args, is_global=False)

        properties_ = []
        for prop in table.properties:
            if prop.name == "actions":
                prop = replace(prop, value=tuple(refs))
            elif prop.name == "default_action":
                prop = replace(prop, value=unbound(prop.value))
            elif prop.name == "entries":
                prop = replace(prop, value=tuple(replace(e, action=unbound(e.action)) for e in prop.value))
            properties_.append(prop)
        return copies, replace(table, properties=tuple(properties_))

    def table_action(self, action: ir.Action) -> ir.Action:
        """`action` as tables run it: its body lowered, its parameters named uniquely."""
        params, statements = self.lowered_body(action, [], None, action.loc)
        self.lowered_actions += 1
        return replace(action, params=params, body=ir.Block(action.body.loc, statements))

    def specialize(self, action: ir.Action, args: tuple, loc: Loc) -> ir.Action:
        """A copy of `action` with its first parameters bound to `args` (a table's `actions` list)."""
        bound = [(p, None if isinstance(a.value, ir.DontCare) else a.value) for p, a in zip(action.params, args)]
        params, statements = self.lowered_body(action, bound, None, loc)
        self.specialized += 1
        self.expanded.add(id(action))
        self.lowered_actions += 1
        return ir.Action(action.loc, self.fresh.copy(action.name), params, ir.Block(loc, statements),
                         control_name=action.control_name or action.name, annotations=action.annotations)

    # ------------------------------------------------------------------
    # Statements

    def block(self, block: ir.Block) -> ir.Block:
        return replace(block, statements=self.statements(block.statements))

    def statements(self, statements: tuple) -> tuple:
        return tuple(new for stmt in statements for new in self.statement(stmt))

    def statement(self, stmt: ir.Statement) -> list[ir.Statement]:
        """`stmt` with its calls of actions and functions expanded (one statement or several)."""
        if isinstance(stmt, ir.MethodCallStatement) and (found := self.callee(stmt.call)):
            return [self.expansion(stmt.call, found, None)]
        if isinstance(stmt, ir.Assignment) and stmt.op is None and (found := self.callee(stmt.value)):
            return [self.expansion(stmt.value, found, stmt.target)]
        if isinstance(stmt, ir.DeclarationStatement) and isinstance(stmt.decl, ir.Variable) and \
                (found := self.callee(stmt.decl.init)):
            var = stmt.decl
            target = ir.PathExpression(var.loc, var.name, type=var.type)
            return [replace(stmt, decl=replace(var, init=None)), self.expansion(var.init, found, target)]
        if isinstance(stmt, ir.ReturnStatement) and (found := self.callee(stmt.value)):
            value = ir.PathExpression(stmt.loc, self.fresh.copy("ret"), type=stmt.value.type)
            return [variable(value.name, value.type, None, stmt.loc), self.expansion(stmt.value, found, value),
                    replace(stmt, value=value)]
        if isinstance(stmt, ir.Block):
            return [self.block(stmt)]
        if isinstance(stmt, ir.IfStatement):
            return [replace(stmt, then=self.nested(stmt.then),
                            otherwise=self.nested(stmt.otherwise) if stmt.otherwise is not None else None)]
        if isinstance(stmt, ir.SwitchStatement):
            return [self.switch(stmt)]
        if isinstance(stmt, ir.ForStatement):
            return [replace(stmt, init=self.statements(stmt.init), updates=self.statements(stmt.updates),
                            body=self.nested(stmt.body))]
        if isinstance(stmt, ir.ForInStatement):
            return [replace(stmt, body=self.nested(stmt.body))]
        return [stmt]

    def nested(self, stmt: ir.Statement) -> ir.Statement:
        new = self.statement(stmt)
        return new[0] if len(new) == 1 else ir.Block(stmt.loc, tuple(new))

    def switch(self, stmt: ir.SwitchStatement) -> ir.SwitchStatement:
        cases = tuple(replace(c, body=self.nested(c.body) if c.body is not None else None) for c in stmt.cases)
        renamed = self.labels.get(_switched_table(stmt.expr))
        if renamed:  # the labels of `switch (t.apply().action_run)` name the table's specialized actions
            cases = tuple(replace(c, label=replace(c.label, name=renamed[c.label.name], is_global=False))
                          if isinstance(c.label, ir.PathExpression) and c.label.name in renamed else c
                          for c in cases)
        return replace(stmt, cases=cases)

    # ------------------------------------------------------------------
    # Calls

    def callee(self, expr: Optional[ir.Expression]) -> Optional[tuple]:
        """The action or function `expr` calls and its parameters bound to the arguments (`_bind`),
        None when it calls none."""
        if not (isinstance(expr, ir.MethodCall) and isinstance(expr.method, ir.PathExpression)):
            return None
        name = expr.method.name
        decl = self.names.get(name, expr.method.is_global)
        candidates = self.overloads.get(name, [decl]) if isinstance(decl, ir.Function) else \
            [decl] if isinstance(decl, ir.Action) else []
        for candidate in candidates:  # overloads differ in their parameters
            bound = _bind(candidate.params, expr.args)
            if bound is not None:
                return candidate, bound
        return None

    def expansion(self, call: ir.MethodCall, found: tuple, target: Optional[ir.Expression]) -> ir.Block:
        """The block that replaces `call` of `found` (`callee`), assigning its value to `target`."""
        callee, bound = found
        self.expanded.add(id(callee))
        result = None
        if not isinstance(call.type, t.Void):  # a value, even when the caller drops it
            result = ir.PathExpression(call.loc, self.fresh.copy("ret"), type=call.type)
        _, statements = self.lowered_body(callee, bound, result, call.loc)
        if result is not None:
            assigned = (ir.Assignment(call.loc, target, result),) if target is not None else ()
            statements = (variable(result.name, result.type, None, call.loc), *statements, *assigned)
        self.expanded_calls += 1
        # An action's body is one atomic region, as BMv2 runs an action (the C generator's atomic.py).
        atomic = (ir.Annotation(call.loc, "atomic"),) if isinstance(callee, ir.Action) else ()
        return ir.Block(call.loc, statements, atomic)

    def lowered_body(self, callee, bound: list, result: Optional[ir.PathExpression], loc: Loc) -> tuple:
        """`callee`'s body to run in place: the parameters in `bound` (pairs of a parameter and its
        argument, None for `_`) made variables copied in and out, the others kept as parameters,
        named uniquely; `return` and `exit` as flags.  Returns (the kept parameters, the statements)."""
        placeholders, body = self.body(callee)
        renames: dict[str, object] = {}
        given = {p.name for p, _ in bound}
        params = []
        for p in callee.params:
            if p.name not in given:
                renames[placeholders[p.name]] = name = self.fresh.keep(p.name)
                params.append(p if name == p.name else renamed_param(p, name))
        pinned, copy_in, copy_out = [], [], []
        for p, value in bound:
            if isinstance(p.type, t.ExternT):
                renames[placeholders[p.name]] = value  # the packet itself
                continue
            if value is not None and p.direction in _COPIED_OUT:
                value = self.pinned(value, pinned)
            typ = value.type if isinstance(p.type, t.TypeVar) and value is not None else p.type
            var = ir.PathExpression(p.loc, self.fresh.copy(p.name), type=typ)
            renames[placeholders[p.name]] = var.name
            copy_in.append(variable(var.name, typ, value if p.direction in _COPIED_IN else None, p.loc))
            if value is not None and p.direction in _COPIED_OUT:
                copy_out.append(ir.Assignment(value.loc, value, var))
        body = self.copied(body, renames)
        exits = bool(copy_out) and any(isinstance(n, ir.ExitStatement) for n in walk(body))
        remover = ReturnRemover(self.fresh.copy("returned"), self.fresh.copy("exited") if exits else None, loc,
                                result)
        if remover.needed(body):
            body = remover.block(body)
        # A table's bound argument may call a function (side-effect-ordering leaves it whole).
        statements = [*pinned, *self.statements(tuple(copy_in)), *body.statements, *copy_out]
        if exits:
            statements.append(ir.IfStatement(loc, remover.exited, ir.ExitStatement(loc)))
        return tuple(params), tuple(statements)

    def body(self, callee) -> tuple[dict, ir.Block]:
        """`callee`'s body with its own calls expanded, once per callee (each use copies it), and the
        placeholders its parameters are named by in it: names no declaration has, so that a name
        the bodies expanded into it use (a control's local) is never taken for a parameter.  No
        call leads back to its callee: a function or action is declared after its body (the front
        end)."""
        key = id(callee)
        if key not in self.bodies:
            placeholders = {p.name: self.fresh.copy(p.name) for p in callee.params}
            self.bodies[key] = placeholders, self.block(self.copied(callee.body, placeholders))
        return self.bodies[key]

    def copied(self, body: ir.Block, renames: dict) -> ir.Block:
        """A copy of `body` whose declarations have new names and whose parameters mean what `renames`
        says (a new name, or the expression that replaces them)."""
        renames = dict(renames)
        for node in walk(body):
            decl = node.decl if isinstance(node, ir.DeclarationStatement) else \
                node.var if isinstance(node, ir.ForInStatement) else None
            if decl is not None:
                renames[decl.name] = self.fresh.copy(decl.name)

        def visit(node: ir.Node) -> ir.Node:
            if isinstance(node, ir.PathExpression) and not node.is_global and node.name in renames:
                new = renames[node.name]
                return replace(node, name=new) if isinstance(new, str) else new
            if isinstance(node, (ir.Variable, ir.Constant)) and node.name in renames:
                return replace(map_children(node, visit), name=renames[node.name])
            return map_children(node, visit)

        return visit(body)

    def pinned(self, lvalue: ir.Expression, before: list) -> ir.Expression:
        """`lvalue` with each computed index saved into a variable `idx$N` (declared into `before`), so
        that it names the same place after the body as at the call."""
        if isinstance(lvalue, (ir.Member, ir.Slice)):
            return replace(lvalue, expr=self.pinned(lvalue.expr, before))
        if isinstance(lvalue, (ir.ArrayIndex, ir.IndexedSlice)):
            index = lvalue.index if isinstance(lvalue, ir.ArrayIndex) else lvalue.low
            if isinstance(index.type, t.Bits) and not isinstance(index, ir.IntLiteral):
                name = self.fresh.copy("idx")
                before.append(variable(name, index.type, index, index.loc))
                index = ir.PathExpression(index.loc, name, type=index.type)
            base = self.pinned(lvalue.expr, before)
            return replace(lvalue, expr=base, index=index) if isinstance(lvalue, ir.ArrayIndex) else \
                replace(lvalue, expr=base, low=index)
        return lvalue


def _without_expanded(program: ir.Program, expanded: set[int], ctx: PassContext) -> ir.Program:
    """`program` without the actions and functions in `expanded` that nothing names any more (a
    table may still run an action that is also called); the architecture's (`NoAction`) stay."""
    while True:
        used = referenced_names(*program.declarations)
        gone = [d for d in _callables(program)
                if id(d) in expanded and d.name not in used and not is_architecture_decl(d)]
        if not gone:
            return program
        for decl in gone:
            kind, name = ("action", decl.control_name or decl.name) if isinstance(decl, ir.Action) else \
                ("function", decl.name)
            ctx.report(f"removed {kind} {name}: every use replaced by a copy", decl.loc)
        ids = {id(d) for d in gone}
        program = replace(program, declarations=tuple(
            replace(d, locals=tuple(local for local in d.locals if id(local) not in ids))
            if isinstance(d, ir.Control) else d for d in program.declarations if id(d) not in ids))


def _callables(program: ir.Program):
    for decl in program.declarations:
        if isinstance(decl, (ir.Action, ir.Function)):
            yield decl
        elif isinstance(decl, ir.Control):
            yield from (local for local in decl.locals if isinstance(local, ir.Action))


def _bind(params: tuple, args: tuple) -> Optional[list]:
    """Each parameter with the value of its argument (`bind_args`): None for `_`, a default typed
    as its parameter; None when `args` do not fit `params` (they are another overload's)."""
    values = bind_args(params, args)
    if len(args) > len(params) or set(values) != {p.name for p in params}:
        return None
    return [(p, _argument(values[p.name], p)) for p in params]


def _argument(value: Optional[ir.Expression], param: ir.Parameter) -> Optional[ir.Expression]:
    if value is None or isinstance(value, ir.DontCare):
        return None
    return value if value.type is not None else replace(value, type=param.type)  # a default, as written


def _switched_table(subject: ir.Expression) -> Optional[str]:
    """The table of `switch (t.apply().action_run)`, None for another switch."""
    if is_apply_result(subject) and isinstance(subject.expr.method, ir.Member) and \
            isinstance(subject.expr.method.expr, ir.PathExpression):
        return subject.expr.method.expr.name
    return None


def _actions_run_unbound(program: ir.Program, names: NameTable) -> set[int]:
    """The ids of the actions some table lists without binding arguments to them."""
    found = set()
    for decl in program.declarations:
        for table in decl.locals if isinstance(decl, ir.Control) else ():
            for prop in table.properties if isinstance(table, ir.Table) else ():
                for ref in prop.value if prop.name == "actions" else ():
                    action = names.get(ref.name, ref.is_global)
                    if isinstance(action, ir.Action) and not ref.args:
                        found.add(id(action))
    return found
