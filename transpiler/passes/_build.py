"""IR the lowering passes build: syntax types of the variables they declare, the arguments of a
call bound to its callee's parameters, and `return` and `exit` turned into flags in a body copied
into another."""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError, Loc
from p4odp.transpiler.passes._walk import walk

__all__ = ["syntax_type", "variable", "bind_args", "ReturnRemover"]


def syntax_type(typ: t.Type, loc: Loc) -> ir.TypeRef:
    """A syntax type for a variable a pass declares with semantic type `typ` (only the semantic type
    is read later)."""
    if isinstance(typ, t.Bits):
        return ir.BitsType(loc, ir.IntLiteral(loc, typ.width, type=t.InfInt()), typ.signed)
    if isinstance(typ, t.Varbit):
        return ir.VarbitType(loc, ir.IntLiteral(loc, typ.width, type=t.InfInt()))
    if isinstance(typ, t.Bool):
        return ir.BoolType(loc)
    if isinstance(typ, t.ErrorT):
        return ir.ErrorType(loc)
    if isinstance(typ, t.Stack):
        return ir.StackType(loc, syntax_type(typ.element, loc), ir.IntLiteral(loc, typ.size, type=t.InfInt()))
    if isinstance(typ, t.TupleT):
        return ir.TupleType(loc, tuple(syntax_type(e, loc) for e in typ.elements))
    return ir.TypeName(loc, getattr(typ, "name", str(typ)))


def variable(name: str, typ: t.Type, init: Optional[ir.Expression], loc: Loc) -> ir.DeclarationStatement:
    """The declaration of a variable a pass makes (`typ` its semantic type)."""
    return ir.DeclarationStatement(loc, ir.Variable(loc, name, syntax_type(typ, loc), init, type=typ))


def bind_args(params: tuple, args: tuple) -> dict:
    """Parameter name -> argument expression, for positional and named arguments and defaults."""
    values = {}
    for i, arg in enumerate(args):
        if arg.name is not None:
            values[arg.name] = arg.value
        elif i < len(params):
            values[params[i].name] = arg.value
    for param in params:
        if values.get(param.name) is None and param.default is not None:
            values[param.name] = param.default
    return values


class ReturnRemover:
    """A body copied into another (an inlined control's, an expanded action's or function's) with each
    `return` setting the flag `returned` and skipping the rest of the body, as p4c's RemoveReturns
    does; a `return e` first assigns `e` to `result`.  With `exited`, an `exit` does the same and sets
    `exited` too, so that whoever copied the body can copy out before it exits (p4c's RemoveExits)."""

    def __init__(self, returned: str, exited: Optional[str], loc: Loc,
                 result: Optional[ir.PathExpression] = None) -> None:
        self.flag = ir.PathExpression(loc, returned, type=t.Bool())
        self.exited = ir.PathExpression(loc, exited, type=t.Bool()) if exited is not None else None
        self.leaving = (ir.ReturnStatement, ir.ExitStatement) if exited is not None else (ir.ReturnStatement,)
        self.result = result
        self.loc = loc

    def needed(self, body: ir.Block) -> bool:
        """Does `body` leave anywhere this remover turns into a flag?"""
        return any(isinstance(n, self.leaving) for n in walk(body))

    def block(self, body: ir.Block) -> ir.Block:
        """`body` with the flags declared (false) and every `return` (`exit`) replaced."""
        flags = [self.flag] if self.exited is None else [self.flag, self.exited]
        declarations = tuple(variable(flag.name, t.Bool(), ir.BoolLiteral(self.loc, False, type=t.Bool()), self.loc)
                             for flag in flags)
        return ir.Block(body.loc, (*declarations, *self.statements(body.statements, in_loop=False)))

    def statements(self, stmts: tuple, in_loop: bool) -> tuple:
        out: list[ir.Statement] = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, self.leaving):
                out.extend(self.leave(stmt))
                if in_loop:
                    out.append(ir.BreakStatement(stmt.loc))
                return tuple(out)
            if not any(isinstance(n, self.leaving) for n in walk(stmt)):
                out.append(stmt)
                continue
            out.append(self.statement(stmt, in_loop))
            rest = stmts[i + 1:]
            if in_loop:  # leave the loop the return was in; the code after it checks the flag again
                out.append(ir.IfStatement(stmt.loc, self.flag, ir.BreakStatement(stmt.loc)))
                out.extend(self.statements(rest, in_loop))
            elif rest:
                not_returned = ir.Unary(stmt.loc, ir.UnaryOp.NOT, self.flag, type=t.Bool())
                guarded = ir.Block(stmt.loc, self.statements(rest, in_loop))
                out.append(ir.IfStatement(stmt.loc, not_returned, guarded))
            return tuple(out)
        return tuple(out)

    def leave(self, stmt: ir.Statement) -> list[ir.Statement]:
        out = []
        if isinstance(stmt, ir.ReturnStatement) and stmt.value is not None:
            if self.result is None:
                raise InternalError(f"a return with a value where none is expected ({stmt.loc})")
            out.append(ir.Assignment(stmt.loc, self.result, stmt.value))
        out.append(_set(self.flag, stmt.loc))
        if isinstance(stmt, ir.ExitStatement):
            out.append(_set(self.exited, stmt.loc))
        return out

    def statement(self, stmt: ir.Statement, in_loop: bool) -> ir.Statement:
        if isinstance(stmt, ir.Block):
            return replace(stmt, statements=self.statements(stmt.statements, in_loop))
        if isinstance(stmt, ir.IfStatement):
            return replace(stmt, then=self.nested(stmt.then, in_loop),
                           otherwise=self.nested(stmt.otherwise, in_loop) if stmt.otherwise else None)
        if isinstance(stmt, ir.SwitchStatement):
            return replace(stmt, cases=tuple(replace(c, body=self.nested(c.body, in_loop) if c.body else None)
                                             for c in stmt.cases))
        if isinstance(stmt, (ir.ForStatement, ir.ForInStatement)):
            return replace(stmt, body=self.nested(stmt.body, in_loop=True))
        raise InternalError(f"a return or exit inside a {type(stmt).__name__} ({stmt.loc})")

    def nested(self, stmt: ir.Statement, in_loop: bool) -> ir.Statement:
        block = stmt if isinstance(stmt, ir.Block) else ir.Block(stmt.loc, (stmt,))
        return replace(block, statements=self.statements(block.statements, in_loop))


def _set(flag: ir.PathExpression, loc: Loc) -> ir.Statement:
    return ir.Assignment(loc, flag, ir.BoolLiteral(loc, True, type=t.Bool()))
