"""constant-folding: compute at compile time what the program computes from constants.

What it does, in every body (parsers, controls, actions, functions) and in
table properties, variable initializers and constructor arguments:

* replaces a reference to a constant of type `bit<W>`, `int<W>`, `bool` or
  `int` by the constant's value (names as unique-names left them: a parameter
  of the action or function it is in, else the one declaration of the name);
* folds an operator, cast, slice, concatenation or `?:` whose operands are
  literals into one literal of the expression's type, with P4's semantics
  (`frontend/const_eval.evaluate`: wrap-around, signed values, saturation);
* simplifies `true && x` and `x && true` to `x`, `false || x` and `x || false`
  to `x`, `false && x` to false and `true || x` to true (x is never
  evaluated at run time either), `x && false` to false and `x || true` to
  true when `x` has no effect (its only calls are `isValid()`), and
  `c ? a : b` with a literal `c` to the branch it selects;
* replaces `if (true) S1 else S2` by S1 and `if (false) S1 else S2` by S2
  (nothing without an else).

What it leaves alone: calls (a call is never folded, and an expression
containing one is only simplified where the call could not run); values of
other types (enum members and constants of enum, error or struct types stay
by name); table key expressions (their text names the key for the control
plane); syntax types such as `bit<W>` and annotations; constant declarations
themselves (dead-code does not remove them either).  Division by zero and
other expressions `evaluate` cannot compute stay as written.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.frontend.const_eval import evaluate, wrap
from p4odp.transpiler.passes._walk import has_call, is_pure, map_children, prune_if
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["ConstantFolding", "literal"]

_FOLDABLE = (t.Bits, t.Bool, t.InfInt)


def literal(expr: ir.Expression, value) -> Optional[ir.Expression]:
    """A literal for `value` with `expr`'s type and position; None if the value does not fit the type."""
    typ = expr.type
    if isinstance(typ, t.Bool) and isinstance(value, bool):
        return ir.BoolLiteral(expr.loc, value, type=typ)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    if isinstance(typ, t.Bits):
        return ir.IntLiteral(expr.loc, value, width=typ.width, signed=typ.signed, type=typ)
    if isinstance(typ, t.InfInt):
        return ir.IntLiteral(expr.loc, value, type=typ)
    return None


class _Constant:
    """A constant's value; `substitute`: references to it may become literals."""

    def __init__(self, value, substitute: bool) -> None:
        self.value = value
        self.substitute = substitute


class ConstantFolding:
    name = "constant-folding"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        folder = _Folder(ctx)
        decls = tuple(folder.decl(d) for d in program.declarations)
        if folder.folded or folder.substituted:
            ctx.report(f"replaced {folder.substituted} reference(s) to constants by their values, "
                       f"folded {folder.folded} expression(s)")
        if any(a is not b for a, b in zip(decls, program.declarations)):
            return replace(program, declarations=decls)
        return program


class _Folder:
    def __init__(self, ctx: PassContext) -> None:
        self.ctx = ctx
        self.constants: dict[str, _Constant] = {}
        self.params: frozenset = frozenset()  # those of the action or function being folded
        self.folded = 0
        self.substituted = 0

    # ------------------------------------------------------------------
    # Names

    def constant(self, name: str, is_global: bool = False) -> Optional[_Constant]:
        if name in self.params and not is_global:
            return None
        return self.constants.get(name)

    def value_of(self, name: str):
        """For `evaluate`: the value of the constant `name`, None if it is not one."""
        found = self.constant(name)
        return found.value if found is not None else None

    # ------------------------------------------------------------------
    # Declarations

    def decl(self, decl):
        handler = getattr(self, "d_" + type(decl).__name__, None)
        if handler is None:  # types, externs, errors, match kinds, packages: nothing to fold
            return decl
        return handler(decl)

    def d_Constant(self, decl: ir.Constant):
        value = self.expr(decl.value)
        known = evaluate(value, self.value_of)
        typ = decl.type
        if known is not None:
            # Enum constants keep their name but still fold inside casts such as `(bit<8>) E_CONST`.
            self.constants[decl.name] = _Constant(known, isinstance(typ, _FOLDABLE) and typ == value.type)
        return replace(decl, value=value) if value is not decl.value else decl

    def d_Variable(self, decl: ir.Variable):
        init = self.expr(decl.init) if decl.init is not None else None
        return replace(decl, init=init) if init is not decl.init else decl

    def d_Instance(self, decl: ir.Instance):
        args = self.nodes(decl.args)
        initializer = tuple(self.decl(d) for d in decl.initializer)
        if args is decl.args and all(a is b for a, b in zip(initializer, decl.initializer)):
            return decl
        return replace(decl, args=args, initializer=initializer)

    def d_Action(self, decl):
        """An action's or function's body, where its parameters hide constants of the same name."""
        outer, self.params = self.params, frozenset(p.name for p in decl.params)
        body = self.block_body(decl.body)
        self.params = outer
        return replace(decl, body=body) if body is not decl.body else decl

    d_Function = d_Action

    def d_Table(self, decl: ir.Table):
        props = tuple(self.table_property(p) for p in decl.properties)
        if all(a is b for a, b in zip(props, decl.properties)):
            return decl
        return replace(decl, properties=props)

    def table_property(self, prop: ir.TableProperty) -> ir.TableProperty:
        if prop.name == "key":
            return prop  # a key's text is its control-plane name
        value = prop.value
        if isinstance(value, tuple):
            new = self.nodes(value)
        elif isinstance(value, ir.Node):
            new = self.expr(value)
        else:
            return prop
        return replace(prop, value=new) if new is not value else prop

    def d_Parser(self, decl: ir.Parser):
        locals_ = tuple(self.decl(d) for d in decl.locals)
        states = tuple(self.parser_state(s) for s in decl.states)
        if all(a is b for a, b in zip(locals_, decl.locals)) and all(a is b for a, b in zip(states, decl.states)):
            return decl
        return replace(decl, locals=locals_, states=states)

    def parser_state(self, state: ir.ParserState) -> ir.ParserState:
        components = self.statements(state.components)
        transition = self.expr(state.transition) if state.transition is not None else None
        if components is state.components and transition is state.transition:
            return state
        return replace(state, components=components, transition=transition)

    def d_Control(self, decl: ir.Control):
        locals_ = tuple(self.decl(d) for d in decl.locals)
        body = self.statement(decl.body)
        if body is decl.body and all(a is b for a, b in zip(locals_, decl.locals)):
            return decl
        return replace(decl, locals=locals_, body=body)

    # ------------------------------------------------------------------
    # Statements

    def block_body(self, block: ir.Block) -> ir.Block:
        statements = self.statements(block.statements)
        return replace(block, statements=statements) if statements is not block.statements else block

    def statements(self, statements: tuple) -> tuple:
        out = []
        for stmt in statements:
            new = self.statement(stmt)
            if new is not None:
                out.append(new)
        if len(out) == len(statements) and all(a is b for a, b in zip(out, statements)):
            return statements
        return tuple(out)

    def nested(self, stmt: ir.Statement) -> ir.Statement:
        """A statement that must stay a statement (an if's branch, a loop's body)."""
        new = self.statement(stmt)
        return new if new is not None else ir.EmptyStatement(stmt.loc)

    def statement(self, stmt: ir.Statement) -> Optional[ir.Statement]:
        """`stmt` folded; None when nothing is left of it."""
        if isinstance(stmt, ir.Block):
            statements = self.statements(stmt.statements)
            return replace(stmt, statements=statements) if statements is not stmt.statements else stmt
        if isinstance(stmt, ir.DeclarationStatement):
            decl = self.decl(stmt.decl)
            return replace(stmt, decl=decl) if decl is not stmt.decl else stmt
        if isinstance(stmt, ir.IfStatement):
            return self.if_statement(stmt)
        if isinstance(stmt, ir.SwitchStatement):
            expr = self.expr(stmt.expr)
            cases = tuple(self.switch_case(c) for c in stmt.cases)
            if expr is stmt.expr and all(a is b for a, b in zip(cases, stmt.cases)):
                return stmt
            return replace(stmt, expr=expr, cases=cases)
        if isinstance(stmt, ir.ForStatement):
            init = self.statements(stmt.init)
            cond = self.expr(stmt.cond) if stmt.cond is not None else None
            updates = self.statements(stmt.updates)
            body = self.nested(stmt.body)
            return replace(stmt, init=init, cond=cond, updates=updates, body=body)
        if isinstance(stmt, ir.ForInStatement):
            collection = self.expr(stmt.collection)
            body = self.nested(stmt.body)
            return replace(stmt, collection=collection, body=body)
        # Assignments, calls, return, exit, ...: fold the expressions they hold.
        return map_children(stmt, self.expr)

    def if_statement(self, stmt: ir.IfStatement) -> Optional[ir.Statement]:
        cond = self.expr(stmt.cond)
        if isinstance(cond, ir.BoolLiteral):
            taken = prune_if(replace(stmt, cond=cond))
            self.ctx.report(f"if ({'true' if cond.value else 'false'}): "
                            + ("kept the then branch" if cond.value else
                               "kept the else branch" if stmt.otherwise is not None else "removed the statement"),
                            stmt.loc)
            return self.nested(taken) if taken is not None else None
        then = self.nested(stmt.then)
        otherwise = self.nested(stmt.otherwise) if stmt.otherwise is not None else None
        if cond is stmt.cond and then is stmt.then and otherwise is stmt.otherwise:
            return stmt
        return replace(stmt, cond=cond, then=then, otherwise=otherwise)

    def switch_case(self, case: ir.SwitchCase) -> ir.SwitchCase:
        label = self.expr(case.label)
        body = self.statement(case.body) if case.body is not None else None
        if label is case.label and body is case.body:
            return case
        return replace(case, label=label, body=body)

    # ------------------------------------------------------------------
    # Expressions

    def nodes(self, items: tuple) -> tuple:
        new = tuple(self.expr(i) for i in items)
        return items if all(a is b for a, b in zip(new, items)) else new

    def expr(self, node: ir.Node) -> ir.Node:
        """`node` with its constant parts folded (any node: arguments, entries, action references, ...)."""
        if not isinstance(node, ir.Expression):
            return map_children(node, self.expr)
        if isinstance(node, ir.PathExpression):
            return self.path(node)
        if isinstance(node, (ir.IntLiteral, ir.BoolLiteral)):
            return node
        new = map_children(node, self.expr)
        simpler = self.simplify(new)
        if simpler is not None:
            self.folded += 1
            return simpler
        if isinstance(new.type, _FOLDABLE) and not isinstance(new, ir.MethodCall):
            value = evaluate(new, self.value_of)
            folded = literal(new, value) if value is not None and not has_call(new) else None
            if folded is not None:
                self.folded += 1
                return folded
        return new

    def path(self, expr: ir.PathExpression) -> ir.Expression:
        found = self.constant(expr.name, expr.is_global)
        if found is not None and found.substitute and isinstance(expr.type, _FOLDABLE):
            folded = literal(expr, wrap(found.value, expr.type) if isinstance(expr.type, t.Bits) else found.value)
            if folded is not None:
                self.substituted += 1
                return folded
        return expr

    def simplify(self, expr: ir.Expression) -> Optional[ir.Expression]:
        """Short-circuit operators and `?:` with a literal operand; None when nothing simplifies."""
        if isinstance(expr, ir.Mux) and isinstance(expr.cond, ir.BoolLiteral):
            taken = expr.then if expr.cond.value else expr.otherwise
            return taken if taken.type == expr.type else None
        if not isinstance(expr, ir.Binary) or expr.op not in (ir.BinaryOp.AND, ir.BinaryOp.OR):
            return None
        # `a && b`: a false `a` decides, a true one leaves `b`; `a || b` the other way round.
        decides = expr.op is ir.BinaryOp.OR
        left, right = expr.left, expr.right
        if isinstance(left, ir.BoolLiteral):
            return left if left.value == decides else right
        if isinstance(right, ir.BoolLiteral):
            if right.value != decides:
                return left
            if is_pure(left):
                return right
        return None
