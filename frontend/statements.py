"""Checking of statements: assignments, calls, conditionals, switch, loops, returns."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from p4odp import ir
from p4odp import types as t
from p4odp.frontend.expressions import check_expression, describe, is_lvalue

if TYPE_CHECKING:
    from p4odp.frontend.typecheck import Context, TypeChecker

__all__ = ["check_statement"]

UNKNOWN = t.Unknown()
BOOL = t.Bool()


def check_statement(tc: "TypeChecker", stmt: ir.Statement, ctx: "Context") -> ir.Statement:
    return _Statements(tc, ctx).visit(stmt)


class _Statements:
    def __init__(self, tc: "TypeChecker", ctx: "Context") -> None:
        self.tc = tc
        self.ctx = ctx

    def visit(self, stmt: ir.Statement) -> ir.Statement:
        return getattr(self, "s_" + type(stmt).__name__)(stmt)

    def error(self, loc, message: str) -> None:
        self.tc.error(loc, message)

    def expr(self, expr, expected=None):
        return self.tc.expr(expr, self.ctx, expected)

    def s_Block(self, stmt: ir.Block) -> ir.Statement:
        self.tc.annotations(stmt.annotations, self.ctx)
        return self.tc.block(stmt, self.ctx)

    def s_EmptyStatement(self, stmt):
        return stmt

    def s_DeclarationStatement(self, stmt: ir.DeclarationStatement):
        decl = stmt.decl
        if isinstance(decl, ir.Instance):
            self.error(decl.loc, f"{decl.name}: instances cannot be declared inside a block")
        return replace(stmt, decl=self.tc.declaration(decl, self.ctx))

    def s_Assignment(self, stmt: ir.Assignment):
        target = self.expr(stmt.target)
        if stmt.op is not None:
            # `a op= b` means `a = a op b`; check it in that form.
            binary = ir.Binary(stmt.loc, ir.BinaryOp(stmt.op), stmt.target, stmt.value)
            value = self.expr(binary, target.type)
            if isinstance(value, ir.Binary):
                value = value.right
        else:
            value = self.expr(stmt.value, target.type)
        if isinstance(target, ir.DontCare):
            return replace(stmt, target=target, value=value)
        if not is_lvalue(target, self.ctx):
            self.error(stmt.target.loc, f"{describe(stmt.target)} cannot be assigned")
        elif isinstance(target.type, (t.ExternT, t.ObjectT, t.TableT, t.TypeT, t.CallableT)):
            self.error(stmt.target.loc, f"values of type {target.type} cannot be assigned")
        if isinstance(value.type, t.TypeT):
            self.error(stmt.value.loc, "a type cannot be used as a value")
        elif stmt.op is None:
            value = self.tc.coerce(value, target.type, stmt.value.loc, "assignment")
        return replace(stmt, target=target, value=value)

    def s_MethodCallStatement(self, stmt: ir.MethodCallStatement):
        call = self.expr(stmt.call)
        if isinstance(call, ir.ConstructorCall):
            self.error(stmt.loc, "a constructor call is not a statement")
            return stmt
        return replace(stmt, call=call)

    def s_IfStatement(self, stmt: ir.IfStatement):
        cond = self.expr(stmt.cond, BOOL)
        if not isinstance(cond.type, (t.Bool, t.Unknown)):
            self.error(stmt.cond.loc, f"the condition of an if statement must be bool, not {cond.type}")
        then = self.nested(stmt.then)
        otherwise = self.nested(stmt.otherwise) if stmt.otherwise is not None else None
        return replace(stmt, cond=cond, then=then, otherwise=otherwise)

    def nested(self, stmt: ir.Statement) -> ir.Statement:
        return check_statement(self.tc, stmt, self.ctx.nested())

    def s_SwitchStatement(self, stmt: ir.SwitchStatement):
        if self.ctx.where in ("parser", "state"):
            self.error(stmt.loc, "switch statements are not allowed in parsers")
        expr = check_expression(self.tc, stmt.expr, self.ctx, switch_subject=True)
        typ = expr.type
        if isinstance(typ, t.ApplyResult):
            call = stmt.expr.method if isinstance(stmt.expr, ir.MethodCall) else None
            table = describe(call.expr) if isinstance(call, ir.Member) else "TABLE"
            self.error(stmt.expr.loc, f"cannot switch on the apply result of table {typ.table}: switch on "
                                      f"{table}.apply().action_run, the action it ran")
            typ = UNKNOWN  # its labels are not checked against it
        elif not isinstance(typ, (t.ActionEnum, t.Bits, t.EnumT, t.ErrorT, t.Unknown, t.InfInt, t.NewTypeT)):
            self.error(stmt.expr.loc, f"cannot switch on a value of type {typ}")
            typ = UNKNOWN
        cases = []
        seen: set = set()
        saw_default = False
        for case in stmt.cases:
            label = case.label
            if saw_default:
                self.error(label.loc, "the default label must be the last one")
            if isinstance(label, ir.DefaultExpression):
                saw_default = True
                typed_label = replace(label, type=typ)
            elif isinstance(typ, t.ActionEnum):
                if not isinstance(label, ir.PathExpression) or label.name not in typ.actions:
                    self.error(label.loc, f"{describe(label)}: not an action of table {typ.table}")
                typed_label = replace(label, type=typ)
                key = getattr(label, "name", None)
                if key in seen:
                    self.error(label.loc, f"{key}: duplicate switch label")
                seen.add(key)
            elif isinstance(typ, t.Unknown):  # a subject already reported: no label errors after it
                typed_label = replace(label, type=typ)
            else:
                typed_label = self.tc.coerce(self.expr(label, typ), typ, label.loc, "switch label")
                value = self.tc.const_value(typed_label, self.ctx)
                key = value if value is not None else describe(label)
                if value is None and not self.tc.is_constant(typed_label, self.ctx):
                    self.error(label.loc, "switch labels must be compile-time constants")
                if key in seen:
                    self.error(label.loc, f"{describe(label)}: duplicate switch label")
                seen.add(key)
            body = self.tc.block(case.body, self.ctx) if case.body is not None else None
            cases.append(replace(case, label=typed_label, body=body))
        if not isinstance(typ, (t.ActionEnum, t.Unknown)) and \
                any(c.body is not None and not isinstance(c.label, ir.DefaultExpression) for c in stmt.cases) and \
                not any(s.kind == "match_kind" for s in self.tc.global_scope.local("exact")):
            # p4c lowers a switch with other cases than the default to a table with an exact key.
            self.error(stmt.loc, "a switch on a value needs match_kind exact; did you include core.p4?")
        return replace(stmt, expr=expr, cases=tuple(cases))

    def s_ReturnStatement(self, stmt: ir.ReturnStatement):
        returns = self.ctx.returns
        if self.ctx.where in ("parser", "state"):
            self.error(stmt.loc, "return statements are not allowed in parsers")
            return stmt
        if stmt.value is None:
            if returns is not None and not isinstance(returns, (t.Void, t.Unknown)):
                self.error(stmt.loc, f"return without a value in a function returning {returns}")
            return stmt
        value = self.expr(stmt.value, returns)
        if returns is None or isinstance(returns, t.Void):
            self.error(stmt.loc, "return with a value where none is expected")
            return replace(stmt, value=value)
        return replace(stmt, value=self.tc.coerce(value, returns, stmt.value.loc, "return value"))

    def s_ExitStatement(self, stmt):
        if self.ctx.where in ("parser", "state", "function"):
            where = "parser" if self.ctx.where == "state" else self.ctx.where
            self.error(stmt.loc, f"exit statements are not allowed in {where}s")
        return stmt

    def s_BreakStatement(self, stmt):
        if not self.ctx.loops:
            self.error(stmt.loc, "break outside a loop")
        return stmt

    def s_ContinueStatement(self, stmt):
        if not self.ctx.loops:
            self.error(stmt.loc, "continue outside a loop")
        return stmt

    def s_ForStatement(self, stmt: ir.ForStatement):
        inner = self.ctx.nested(loops=self.ctx.loops + 1)
        init = tuple(check_statement(self.tc, s, inner) for s in stmt.init)
        cond = None
        if stmt.cond is not None:
            cond = self.tc.expr(stmt.cond, inner, BOOL)
            if not isinstance(cond.type, (t.Bool, t.Unknown)):
                self.error(stmt.cond.loc, f"the loop condition must be bool, not {cond.type}")
        updates = tuple(check_statement(self.tc, s, inner) for s in stmt.updates)
        body = check_statement(self.tc, stmt.body, inner.nested())
        return replace(stmt, init=init, cond=cond, updates=updates, body=body)

    def s_ForInStatement(self, stmt: ir.ForInStatement):
        inner = self.ctx.nested(loops=self.ctx.loops + 1)
        collection = self.tc.expr(stmt.collection, inner)
        var = self.tc.declaration(stmt.var, inner)
        element = _element_type(collection.type)
        var_type = inner.scope.lookup_one(stmt.var.name).type
        if element is None and not isinstance(collection.type, t.Unknown):
            self.error(stmt.collection.loc, f"a for-in loop cannot range over a value of type {collection.type}")
        elif element is not None and not self.tc.compatible(var_type, element):
            self.error(stmt.var.loc, f"{stmt.var.name}: a {var_type} cannot range over elements of type {element}")
        body = check_statement(self.tc, stmt.body, inner.nested())
        return replace(stmt, var=var, collection=collection, body=body)


def _element_type(typ: t.Type):
    """The type of the elements a for-in loop visits, if known."""
    if isinstance(typ, (t.Stack, t.ListT, t.SetT)):
        return typ.element
    return None
