"""side-effect-ordering: every call with an effect becomes a statement of its own, in P4's order.

P4_16 evaluates expressions left to right, `&&`, `||` and `?:` evaluate only
the operands they need, and a call evaluates its arguments left to right
before it runs (copy-in), then copies its `out` and `inout` arguments back
(the spec's "Expression evaluation order" and "Calling convention").  C
leaves the order of operands unspecified and call-expansion makes actions
and functions statements, so this pass makes the order explicit in the
IR, as p4c's `SideEffectOrdering` does: the C generator then only prints
(design decision 9).

**Calls with effects.**  Every `ir.MethodCall` but `isValid()` of a header
or a header union: function, action and extern calls (those that return a
value too: `lookahead`, `packet_in.length()`, a plugin's extern method),
table `apply()`, header and stack methods (`setValid`, `push_front`, ...).
This is on purpose wider than "changes something": a call whose result
depends on state is ordered as well, and `isValid()` is the one call known
to read a bit as a field read does (`is_effect_call`, `has_effect`).

**The contract**, on the pass's output, in every body (parser states,
control bodies and local variable initializers, actions, functions): a call
with effects appears only

(a) as the call of a `MethodCallStatement`;
(b) as the whole value of an `Assignment` without `op`, of a local
    `Variable`'s initializer or of a `return`;
(c) in the table forms the generator prints directly: `t.apply().hit` or
    `t.apply().miss` as the whole condition of an `if` or the whole value
    of (b), and `t.apply().action_run` as the whole subject of a `switch`;
(d) as a whole bound argument of an action in a table's `actions` list,
    which call-expansion copies in when the table runs that action.

Nowhere else: not inside another expression, nor in an argument, an index,
an l-value, a `for` condition or update, a select key or a table key.  The
arguments of the calls of (a) to (d) and the target of (b) contain none, so
the generator evaluates nothing with an effect but the call it prints.

**How P4's semantics are kept.**

* Left to right: an operand that reads state and is followed by an operand
  with a call is saved into a temporary first: `x + f(x)` becomes
  `tmp$1 = x; tmp$2 = f(x); ... tmp$1 + tmp$2`.  Constants are not saved;
  the base of a member, index or slice is a location, not a value: its
  indexes are saved, not the whole stack or header.
* Short-circuit: `a && f()` becomes `bool tmp = a; if (tmp) { tmp = f(); }`,
  `a || f()` the same with `if (!tmp)`, and `c ? f() : g()` an `if`/`else`
  that assigns one temporary, so that only what P4 evaluates runs.
* Calls: arguments in order (`f(g(x))` becomes `tmp = g(x); f(tmp)`); an
  `in` argument followed by one with a call is saved first; `out` and
  `inout` arguments stay l-values whose place is computed at their turn
  (indexes saved before a later argument's call), their values copied in
  when the call starts, after all arguments, as the spec's calling
  convention says (l-values saved, then values copied) and p4c does.
* Assignment: the target's location first (its indexes saved when the
  value has a call), then the value.  `a op= b` evaluates `a`'s indexes
  once: a call in them is computed before; when `b` has a call, `a` is read
  before it (`tmp = a; ...; a = tmp op b'`).  Otherwise `a op= b` stays,
  with a target free of calls, which the generator may evaluate twice.
* Where the statements go: before the `if` or `switch` whose condition or
  subject needed them; at the end of a parser state, before its transition,
  for its select keys; before a `for`-in loop for its bounds.  A `for`
  condition with a call moves to the top of the body (`if (!c) break;`), so
  it is evaluated before every iteration, and updates with calls become a
  block.  A control's (parser's) local variable initializers, from the
  first that has a call with effects on, move to the start of its body (to a new
  `start` state that goes on to the old one, renamed `start$N`).
* Table keys: as p4c's SimplifyKey, a key element with a call becomes a
  control-local variable `key$N`, assigned in key order right before each
  application of the table (tables are evaluated at apply); the key keeps
  its control-plane name through `@name`.  A key naming something that a
  local declaration hides where the table is applied is a positioned error
  (unique-names, before this pass, makes that impossible).

What it does not order: the `next` and `last` of a stack in an l-value (the
stack's position is read when the element is written); a call nested
inside a bound action argument (a positioned error: nowhere to put it).

**Temporaries** are `DeclarationStatement`s of `Variable`s named `tmp$N`
(`key$N` for table keys), numbered program-wide: `$` cannot occur in a P4
name (and unique-names uses `#`), so they clash with nothing.  Every
expression the pass makes is typed.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError, Loc
from p4odp.transpiler.key_names import key_name
from p4odp.transpiler.passes._build import syntax_type, variable
from p4odp.transpiler.passes._walk import argument_directions, is_effect_call, is_pure, walk
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["SideEffectOrdering", "is_effect_call", "is_apply_result", "has_effect"]

# Values a temporary can hold (int, strings, varbits, tables, externs... are not copied).
_STORABLE = (t.Bits, t.Bool, t.ErrorT, t.EnumT, t.NewTypeT, t.StructLike, t.Stack, t.TupleT)


def is_apply_result(expr: ir.Node) -> bool:
    """Is `expr` `t.apply().hit`, `.miss` or `.action_run`?"""
    return isinstance(expr, ir.Member) and isinstance(expr.expr, ir.MethodCall) and \
        isinstance(expr.expr.type, t.ApplyResult)


def has_effect(node: Optional[ir.Node]) -> bool:
    """Does `node` contain a call with effects (`is_effect_call`: the calls the pass orders)?"""
    return node is not None and not is_pure(node)


class SideEffectOrdering:
    name = "side-effect-ordering"
    required = True  # the C generator prints expressions as they are: it relies on this order

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        orderer = _Orderer(ctx)
        declarations = tuple(orderer.declaration(d) for d in program.declarations)
        if all(a is b for a, b in zip(declarations, program.declarations)):
            return program
        return replace(program, declarations=declarations)


class _Orderer:
    def __init__(self, ctx: PassContext) -> None:
        self.ctx = ctx
        self.count = itertools.count(1)
        self.temps: set[str] = set()  # the names of the temporaries made, which nothing else writes
        self.keys: dict[str, list] = {}  # table name -> [(key$N, its expression)] of the current control
        self.applying: set[str] = set()  # tables whose keys are being computed (a key applying its table)
        self.hidden: list[set] = []  # names declared by the blocks around the statement being ordered
        self.made = 0  # temporaries made for the statement being ordered
        self.branches: list[str] = []  # the `&&`, `||` and `?:` made if statements for it

    # ------------------------------------------------------------------
    # Declarations

    def declaration(self, decl):
        if isinstance(decl, (ir.Action, ir.Function)):
            body = self.block(decl.body)
            return replace(decl, body=body) if body is not decl.body else decl
        if isinstance(decl, ir.Control):
            return self.control(decl)
        if isinstance(decl, ir.Parser):
            return self.parser(decl)
        return decl

    def control(self, decl: ir.Control) -> ir.Control:
        self.keys = {}
        locals_ = []
        for local in decl.locals:
            if isinstance(local, ir.Action):
                local = self.declaration(local)
            elif isinstance(local, ir.Table):
                local = self.table(local, locals_)
            locals_.append(local)
        locals_, starts = self.local_inits(locals_)
        body = self.block(decl.body)
        if starts:
            body = replace(body, statements=(*starts, *body.statements))
        self.keys = {}
        if body is decl.body and all(a is b for a, b in zip(locals_, decl.locals)) and \
                len(locals_) == len(decl.locals):
            return decl
        return replace(decl, locals=tuple(locals_), body=body)

    def parser(self, decl: ir.Parser) -> ir.Parser:
        locals_, starts = self.local_inits(list(decl.locals))
        states = tuple(self.state(s) for s in decl.states)
        if starts:
            states = _new_start(states, starts, f"start${next(self.count)}", decl.loc)
        if all(a is b for a, b in zip(locals_, decl.locals)) and states == decl.states:
            return decl
        return replace(decl, locals=tuple(locals_), states=states)

    def local_inits(self, locals_: list) -> tuple[list, list]:
        """The local variables of a parser or control, and the statements that initialize those whose
        initializer has a call with effects (and of all after them, which may read them), in order:
        the calls of the body run where call-expansion can put what they become."""
        out, starts = [], []
        for local in locals_:
            if isinstance(local, ir.Variable) and local.init is not None:
                pre, value = self.statements_of(lambda p: self.rhs(local.init, p), local.loc)
                if pre or starts or has_effect(value):
                    target = ir.PathExpression(local.loc, local.name, type=local.type)
                    starts += [*pre, ir.Assignment(local.loc, target, value)]
                    self.ctx.report(f"the initializer of {local.name} moved to the start of the body", local.loc)
                    local = replace(local, init=None)
            out.append(local)
        return out, starts

    def table(self, table: ir.Table, locals_: list) -> ir.Table:
        """`table` with each key element that has a call read from a control-local `key$N`, declared
        into `locals_`; `self.keys` says what each application assigns them."""
        properties = []
        for prop in table.properties:
            if prop.name == "actions":
                for ref in prop.value:
                    for arg in ref.args:
                        calls = sum(1 for n in walk(arg.value) if is_effect_call(n)) if arg.value is not None else 0
                        if calls and not (calls == 1 and is_effect_call(arg.value)):  # (d): one whole call
                            self.ctx.diags.error(arg.loc, "a call inside a bound action argument is not supported "
                                                          "yet; compute it in the action")
            if prop.name != "key" or not any(has_effect(k.expr) for k in prop.value):
                properties.append(prop)
                continue
            elements = []
            for element in prop.value:
                if has_effect(element.expr):
                    expr = element.expr
                    var = ir.Variable(expr.loc, f"key${next(self.count)}", syntax_type(expr.type, expr.loc),
                                      type=expr.type)
                    locals_.append(var)
                    path = ir.PathExpression(expr.loc, var.name, type=expr.type)
                    self.keys.setdefault(table.name, []).append((path, expr))
                    self.ctx.report(f"table {table.name}: key '{key_name(element)}' computed into {var.name} "
                                    "before each apply", element.loc)
                    element = replace(element, expr=path)
                elements.append(element)
            properties.append(replace(prop, value=tuple(elements)))
        if all(a is b for a, b in zip(properties, table.properties)):
            return table
        return replace(table, properties=tuple(properties))

    def state(self, state: ir.ParserState) -> ir.ParserState:
        self.hidden.append(set())
        components = self.statements(state.components)
        transition = state.transition
        if isinstance(transition, ir.SelectExpression) and any(has_effect(k) for k in transition.keys):
            pre, keys = self.statements_of(lambda p: self.values(transition.keys, p), transition.loc)
            components = (*components, *pre)
            transition = replace(transition, keys=tuple(keys))
        self.hidden.pop()
        if components is state.components and transition is state.transition:
            return state
        return replace(state, components=tuple(components), transition=transition)

    # ------------------------------------------------------------------
    # Statements

    def block(self, block: ir.Block) -> ir.Block:
        self.hidden.append(set())
        statements = self.statements(block.statements)
        self.hidden.pop()
        return replace(block, statements=statements) if statements is not block.statements else block

    def statements(self, statements: tuple) -> tuple:
        out: list[ir.Statement] = []
        changed = False
        for stmt in statements:
            new = self.statement(stmt)
            changed = changed or len(new) != 1 or new[0] is not stmt
            out.extend(new)
        return tuple(out) if changed else statements

    def nested(self, stmt: ir.Statement) -> ir.Statement:
        """A statement that must stay one (a branch, a loop's body): a block if it became several."""
        if isinstance(stmt, ir.Block):
            return self.block(stmt)
        self.hidden.append(set())
        new = self.statement(stmt)
        self.hidden.pop()
        return new[0] if len(new) == 1 else ir.Block(stmt.loc, tuple(new))

    def statement(self, stmt: ir.Statement) -> list[ir.Statement]:
        """`stmt` ordered: the statements that replace it."""
        if isinstance(stmt, ir.Block):
            return [self.block(stmt)]
        if isinstance(stmt, ir.IfStatement):
            return self.if_statement(stmt)
        if isinstance(stmt, ir.SwitchStatement):
            return self.switch(stmt)
        if isinstance(stmt, ir.ForStatement):
            return self.for_statement(stmt)
        if isinstance(stmt, ir.ForInStatement):
            return self.for_in(stmt)
        if isinstance(stmt, ir.DeclarationStatement):
            return self.declaration_statement(stmt)
        if not has_effect(stmt):
            return [stmt]
        if isinstance(stmt, ir.Assignment):
            return self.ordered(stmt.loc, lambda pre: self.assignment(stmt, pre))
        if isinstance(stmt, ir.MethodCallStatement):
            return self.ordered(stmt.loc, lambda pre: [_replace(stmt, call=self.call(stmt.call, pre))])
        if isinstance(stmt, ir.ReturnStatement):
            return self.ordered(stmt.loc, lambda pre: [_replace(stmt, value=self.rhs(stmt.value, pre))])
        return [stmt]  # exit, break, continue, empty: no expressions

    def ordered(self, loc: Loc, make) -> list[ir.Statement]:
        """The statements `make(pre)` returns after those it put into `pre`; the rewrite reported."""
        pre, made = self.statements_of(make, loc)
        return [*pre, *made]

    def statements_of(self, make, loc: Loc):
        """`(pre, make(pre))`: what `make` put into `pre`, and what it returned; reported at `loc`."""
        outer = (self.made, self.branches)
        self.made, self.branches = 0, []
        pre: list[ir.Statement] = []
        result = make(pre)
        if self.made or self.branches:
            what = [f"{self.made} temporar{'y' if self.made == 1 else 'ies'}"] if self.made else []
            what += [f"'{op}' as an if" for op in self.branches]
            self.ctx.report("ordered the calls: " + ", ".join(what), loc)
        self.made, self.branches = outer
        return pre, result

    def declaration_statement(self, stmt: ir.DeclarationStatement) -> list[ir.Statement]:
        decl = stmt.decl
        if self.hidden:
            self.hidden[-1].add(decl.name)
        if not isinstance(decl, ir.Variable) or not has_effect(decl.init):
            return [stmt]
        return self.ordered(stmt.loc, lambda pre: [_replace(stmt, decl=_replace(decl, init=self.rhs(decl.init, pre)))])

    def assignment(self, stmt: ir.Assignment, pre: list) -> list[ir.Statement]:
        effects = has_effect(stmt.value)
        target = self.location(stmt.target, pre, freeze=effects)  # the target first, as P4 says
        if stmt.op is None:
            return [_replace(stmt, target=target, value=self.rhs(stmt.value, pre))]
        if not effects:  # a target without calls may be evaluated twice
            return [_replace(stmt, target=target)]
        old = self.saved(target, pre)  # `a op= b` reads `a` before `b`
        value = self.value(stmt.value, pre)
        combined = ir.Binary(stmt.loc, ir.BinaryOp(stmt.op), old, value, type=stmt.target.type)
        return [ir.Assignment(stmt.loc, target, combined)]

    def if_statement(self, stmt: ir.IfStatement) -> list[ir.Statement]:
        cond = stmt.cond
        pre: list[ir.Statement] = []
        if is_apply_result(cond):  # `if (t.apply().hit)`: printed as it is
            cond = _replace(cond, expr=self.apply(cond.expr, pre))
        elif has_effect(cond):
            pre, cond = self.statements_of(lambda p: self.value(stmt.cond, p), stmt.loc)
        then = self.nested(stmt.then)
        otherwise = self.nested(stmt.otherwise) if stmt.otherwise is not None else None
        if not pre and cond is stmt.cond and then is stmt.then and otherwise is stmt.otherwise:
            return [stmt]
        return [*pre, replace(stmt, cond=cond, then=then, otherwise=otherwise)]

    def switch(self, stmt: ir.SwitchStatement) -> list[ir.Statement]:
        subject = stmt.expr
        pre: list[ir.Statement] = []
        if is_apply_result(subject):  # `switch (t.apply().action_run)`
            subject = _replace(subject, expr=self.apply(subject.expr, pre))
        elif has_effect(subject):
            pre, subject = self.statements_of(lambda p: self.value(stmt.expr, p), stmt.loc)
        cases = tuple(replace(c, body=self.block(c.body)) if c.body is not None else c for c in stmt.cases)
        if not pre and subject is stmt.expr and all(a.body is b.body for a, b in zip(cases, stmt.cases)):
            return [stmt]
        return [*pre, replace(stmt, expr=subject, cases=cases)]

    def for_statement(self, stmt: ir.ForStatement) -> list[ir.Statement]:
        self.hidden.append(set())
        init = self.statements(stmt.init)
        cond, top = stmt.cond, []
        if has_effect(cond):  # evaluated before every iteration: at the top of the body
            pre, value = self.statements_of(lambda p: self.value(stmt.cond, p), cond.loc)
            top = [*pre, ir.IfStatement(cond.loc, ir.Unary(cond.loc, ir.UnaryOp.NOT, value, type=t.Bool()),
                                        ir.BreakStatement(cond.loc))]
            cond = None
        body = self.nested(stmt.body)
        if top:
            body = ir.Block(body.loc, (*top, body))
        updates = tuple(self.nested(u) for u in stmt.updates)
        self.hidden.pop()
        if init is stmt.init and cond is stmt.cond and body is stmt.body and \
                all(a is b for a, b in zip(updates, stmt.updates)):
            return [stmt]
        return [replace(stmt, init=init, cond=cond, updates=updates, body=body)]

    def for_in(self, stmt: ir.ForInStatement) -> list[ir.Statement]:
        pre: list[ir.Statement] = []
        collection = stmt.collection
        if has_effect(collection):  # the bounds are evaluated once, before the loop
            pre, collection = self.statements_of(lambda p: self.value(stmt.collection, p), stmt.loc)
        self.hidden.append({stmt.var.name})
        body = self.nested(stmt.body)
        self.hidden.pop()
        if collection is stmt.collection and body is stmt.body:
            return [stmt]
        return [*pre, replace(stmt, collection=collection, body=body)]

    # ------------------------------------------------------------------
    # Expressions: each returns an expression without calls with effects, after putting into `pre`
    # the statements that compute what it reads.

    def rhs(self, expr: ir.Expression, pre: list) -> ir.Expression:
        """The value of an assignment, initializer or return, where one call may stay whole (b, c)."""
        if is_effect_call(expr):
            return self.call(expr, pre)
        if is_apply_result(expr):
            return _replace(expr, expr=self.apply(expr.expr, pre))
        return self.value(expr, pre)

    def value(self, expr: ir.Expression, pre: list, keep: bool = False) -> ir.Expression:
        """`expr` as a value; with `keep`, saved into a temporary unless it is a constant (a later operand
        has a call, which may change what `expr` reads)."""
        if not has_effect(expr):
            return self.saved(expr, pre) if keep else expr
        if is_apply_result(expr):
            return self.temp(replace(expr, expr=self.apply(expr.expr, pre)), pre)
        if isinstance(expr, ir.MethodCall):
            call = self.call(expr, pre)
            if not is_effect_call(call):  # isValid() of a header whose index had a call
                return self.saved(call, pre) if keep else call
            return self.temp(call, pre)
        if isinstance(expr, ir.Binary) and expr.op in (ir.BinaryOp.AND, ir.BinaryOp.OR) and has_effect(expr.right):
            return self.short_circuit(expr, pre)
        if isinstance(expr, ir.Mux) and (has_effect(expr.then) or has_effect(expr.otherwise)):
            return self.mux(expr, pre)
        if isinstance(expr, (ir.Member, ir.ArrayIndex, ir.Slice, ir.IndexedSlice)):
            new = self.location(expr, pre, freeze=False)
        elif isinstance(expr, ir.Binary):
            left = self.value(expr.left, pre, keep=has_effect(expr.right))
            new = replace(expr, left=left, right=self.value(expr.right, pre))
        elif isinstance(expr, (ir.Unary, ir.Cast)):
            new = replace(expr, expr=self.value(expr.expr, pre))
        elif isinstance(expr, ir.Mux):  # only the condition has calls: the branches are read after it
            new = replace(expr, cond=self.value(expr.cond, pre))
        elif isinstance(expr, ir.ListExpression):
            new = replace(expr, elements=tuple(self.values(expr.elements, pre)))
        elif isinstance(expr, ir.StructExpression):
            values = self.values(tuple(f.value for f in expr.fields), pre)
            new = replace(expr, fields=tuple(replace(f, value=v) for f, v in zip(expr.fields, values)))
        elif isinstance(expr, ir.ConstructorCall):  # an instance made at compile time: its arguments too
            return expr
        else:
            raise _unexpected(expr)
        return self.saved(new, pre) if keep else new

    def values(self, exprs: tuple, pre: list) -> list[ir.Expression]:
        """Operands evaluated left to right, each saved when a later one has a call."""
        effects = [has_effect(e) for e in exprs]
        return [self.value(e, pre, keep=any(effects[i + 1:])) for i, e in enumerate(exprs)]

    def location(self, expr: ir.Expression, pre: list, freeze: bool) -> ir.Expression:
        """`expr` as an l-value (or the base of one): its calls computed; with `freeze`, its non-constant
        indexes saved, so that it names the same place after a later call."""
        if not freeze and not has_effect(expr):
            return expr
        if isinstance(expr, ir.Member) and not is_apply_result(expr):
            return _replace(expr, expr=self.location(expr.expr, pre, freeze))
        if isinstance(expr, ir.ArrayIndex):
            base = self.location(expr.expr, pre, freeze or has_effect(expr.index))
            return _replace(expr, expr=base, index=self.value(expr.index, pre, keep=freeze))
        if isinstance(expr, ir.Slice):  # constant bounds
            return _replace(expr, expr=self.location(expr.expr, pre, freeze))
        if isinstance(expr, ir.IndexedSlice):  # constant width
            base = self.location(expr.expr, pre, freeze or has_effect(expr.low))
            return _replace(expr, expr=base, low=self.value(expr.low, pre, keep=freeze))
        if not has_effect(expr):  # a name, a literal
            return expr
        return self.value(expr, pre)  # a call (`f().x`, `lookahead<T>()`), `t.apply().hit`

    def short_circuit(self, expr: ir.Binary, pre: list) -> ir.Expression:
        """`a && b` as `tmp = a; if (tmp) { tmp = b; }` (`||`: `if (!tmp)`): b only evaluated when needed."""
        result = self.temp(self.value(expr.left, pre), pre, typ=t.Bool())
        inner: list[ir.Statement] = []
        value = self.rhs(expr.right, inner)
        inner.append(ir.Assignment(expr.right.loc, result, value))
        cond = result if expr.op is ir.BinaryOp.AND else ir.Unary(expr.loc, ir.UnaryOp.NOT, result, type=t.Bool())
        pre.append(ir.IfStatement(expr.loc, cond, ir.Block(expr.right.loc, tuple(inner))))
        self.branches.append(expr.op.value)
        return result

    def mux(self, expr: ir.Mux, pre: list) -> ir.Expression:
        """`c ? a : b` as `if (c) { tmp = a; } else { tmp = b; }`: only the chosen branch evaluated."""
        cond = self.value(expr.cond, pre)
        result = self.declare(expr.type, expr.loc, None, pre)
        branches = []
        for branch in (expr.then, expr.otherwise):
            inner: list[ir.Statement] = []
            value = self.rhs(branch, inner)
            inner.append(ir.Assignment(branch.loc, result, value))
            branches.append(ir.Block(branch.loc, tuple(inner)))
        pre.append(ir.IfStatement(expr.loc, cond, *branches))
        self.branches.append("?:")
        return result

    # ------------------------------------------------------------------
    # Calls

    def call(self, call: ir.MethodCall, pre: list) -> ir.MethodCall:
        """`call` with its callee and arguments evaluated in order into `pre`: the values of `in` ones,
        the places of `out` and `inout` ones, whose values are copied in when the call starts (after
        all arguments, as the spec's calling convention says and p4c does)."""
        args = call.args
        effects = [a.value is not None and has_effect(a.value) for a in args]
        method = call.method
        if isinstance(method, ir.Member):  # the header, stack, extern or table the method is called on
            method = _replace(method, expr=self.location(method.expr, pre, freeze=any(effects)))
        new_args = []
        for i, (arg, direction) in enumerate(zip(args, argument_directions(call))):
            value, later = arg.value, any(effects[i + 1:])
            if value is None or isinstance(value, ir.DontCare):
                new_args.append(arg)
                continue
            if direction in ("out", "inout", None):  # an l-value: its place, computed now
                value = self.location(value, pre, freeze=later)
            else:
                value = self.value(value, pre, keep=later)
            new_args.append(_replace(arg, value=value))
        new = _replace(call, method=method, args=_same(tuple(new_args), args))
        table = _applied_table(new)
        if table is not None:
            self.keys_before(table, new.loc, pre)
        return new

    def apply(self, call: ir.MethodCall, pre: list) -> ir.MethodCall:
        """The `t.apply()` of `t.apply().hit` (`.miss`, `.action_run`), after the keys it needs."""
        return self.call(call, pre)

    def keys_before(self, table: str, loc: Loc, pre: list) -> None:
        """The assignments of the key variables of `table` that an application at `loc` needs."""
        keys = self.keys.get(table)
        if not keys:
            return
        if table in self.applying:
            self.ctx.diags.error(loc, f"table {table}: its key applies the table itself")
            return
        hidden = set().union(*self.hidden) if self.hidden else set()
        self.applying.add(table)
        for var, expr in keys:
            shadowed = sorted({n.name for n in walk(expr) if isinstance(n, ir.PathExpression) and
                               not n.is_global} & hidden)
            if shadowed:
                self.ctx.diags.error(loc, f"table {table}: its key reads '{shadowed[0]}', which a local "
                                          "declaration hides where the table is applied; rename one of them")
                continue
            value = self.rhs(expr, pre)
            pre.append(ir.Assignment(loc, var, value))
        self.applying.discard(table)

    # ------------------------------------------------------------------
    # Temporaries

    def saved(self, expr: ir.Expression, pre: list) -> ir.Expression:
        """`expr` copied into a temporary now, unless copying changes nothing: a constant, a temporary,
        a value that is not copied (an extern, a table, an `int`)."""
        if isinstance(expr, ir.ListExpression):
            return replace(expr, elements=tuple(self.saved(e, pre) for e in expr.elements))
        if isinstance(expr, ir.StructExpression):
            return replace(expr, fields=tuple(replace(f, value=self.saved(f.value, pre)) for f in expr.fields))
        if _is_constant(expr) or not isinstance(expr.type, _STORABLE) or \
                isinstance(expr, ir.PathExpression) and expr.name in self.temps:
            return expr
        return self.temp(expr, pre)

    def temp(self, value: ir.Expression, pre: list, typ: Optional[t.Type] = None) -> ir.PathExpression:
        """A new temporary initialized to `value` (declared into `pre`)."""
        return self.declare(typ or value.type, value.loc, value, pre)

    def declare(self, typ: t.Type, loc: Loc, init: Optional[ir.Expression], pre: list) -> ir.PathExpression:
        name = f"tmp${next(self.count)}"
        self.temps.add(name)
        self.made += 1
        pre.append(variable(name, typ, init, loc))
        return ir.PathExpression(loc, name, type=typ)


# ----------------------------------------------------------------------
# Helpers


def _replace(node, **fields):
    """`node` with `fields` changed; `node` itself when each is the value it has."""
    if all(getattr(node, name) is value for name, value in fields.items()):
        return node
    return replace(node, **fields)


def _same(items: tuple, old: tuple) -> tuple:
    """`old` when `items` holds the same objects, so that `_replace` keeps a node whose children did not change."""
    return old if len(items) == len(old) and all(a is b for a, b in zip(items, old)) else items


def _applied_table(call: ir.MethodCall) -> Optional[str]:
    method = call.method
    if isinstance(method, ir.Member) and method.member == "apply" and isinstance(method.expr.type, t.TableT) \
            and isinstance(method.expr, ir.PathExpression):
        return method.expr.name
    return None


def _is_constant(expr: ir.Expression) -> bool:
    """Does `expr` read nothing that a call could change (literals, enum members, errors)?"""
    return not any(isinstance(n, ir.MethodCall) or isinstance(n, ir.PathExpression) and
                   not isinstance(n.type, t.TypeT) for n in walk(expr))


def _new_start(states: tuple, statements: list, renamed: str, loc: Loc) -> tuple:
    """The parser states with a new `start` that runs `statements`, then goes on to the old start,
    now named `renamed` (and so every transition to it)."""
    def target(expr: ir.PathExpression) -> ir.PathExpression:
        return replace(expr, name=renamed) if expr.name == "start" else expr

    out = []
    for state in states:
        transition = state.transition
        if isinstance(transition, ir.PathExpression):
            transition = target(transition)
        elif isinstance(transition, ir.SelectExpression):
            transition = replace(transition, cases=tuple(replace(c, state=target(c.state))
                                                         for c in transition.cases))
        out.append(replace(state, name=renamed if state.name == "start" else state.name, transition=transition))
    start = ir.ParserState(loc, "start", tuple(statements), ir.PathExpression(loc, renamed, type=t.StateT()))
    return (start, *out)


def _unexpected(expr: ir.Expression) -> Exception:
    return InternalError(f"side-effect-ordering: a call inside {type(expr).__name__} ({expr.loc})")
