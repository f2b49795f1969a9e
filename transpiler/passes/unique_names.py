"""unique-names: resolve every name once, so that a name means one declaration program-wide.

This is the midend's only lexical name resolution (p4c's `UniqueNames`).
It walks the scopes of the program (top level, parsers, controls, parser
states, blocks, loops, actions, functions) and gives each declaration that
is not a top-level one or a parameter of an action or function a name no
other such declaration has: the first keeps its name, a later one becomes
`name#2`, `name#3`, ... (`#` cannot occur in a P4 name).  Each reference is
rewritten to the name of the declaration it meant.  After this pass:

    a name in the body of an action or function means its parameter of that
    name if it has one; otherwise the one declaration of that name in the
    program (`.name`, `is_global`, skips the parameters).

so later stages look names up in `NameTable`, one flat table, instead of
keeping scopes of their own.  Parser states keep their names (they are
labels of one parser, not values).  Control-plane names do not change:
tables, actions, instances and value sets carry `control_name`, and a table
key whose text changes gets its old text as `@name` first.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import Iterable, Iterator, Optional

from p4odp import ir
from p4odp.diagnostics import InternalError
from p4odp.transpiler.passes._walk import map_children, walk
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["UniqueNames", "NameTable", "FreshNames", "CALLABLES"]

CALLABLES = (ir.Action, ir.Function)  # their parameters are looked up before the table


class UniqueNames:
    name = "unique-names"
    required = True  # constant-folding and the C generator look names up flat

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        renamer = _Renamer(program, ctx)
        declarations = tuple(renamer.top_level(d) for d in program.declarations)
        if not renamer.renamed:
            return program  # every reference already named its declaration
        ctx.report(f"renamed {renamer.renamed} declarations")
        return replace(program, declarations=declarations)


class NameTable:
    """Every declaration of a program after unique-names, by name: the top-level ones and those of
    parsers, controls and bodies (not parameters of actions and functions, which a reader binds
    where it expands the callable).  `NameTable(program)[name]` is the declaration; a
    `Parameter` for a parser's or control's parameter."""

    def __init__(self, program: ir.Program) -> None:
        self.top: dict[str, object] = {}
        self.all: dict[str, object] = {}
        for decl in program.declarations:
            if isinstance(decl, (ir.ErrorDeclaration, ir.MatchKindDeclaration)):
                continue
            self.top.setdefault(decl.name, decl)  # overloads share a name: the first one
            self.all.setdefault(decl.name, decl)
            for local in _local_declarations(decl):
                if self.all.setdefault(local.name, local) is not local:
                    raise InternalError(f"'{local.name}' is declared twice after unique-names ({local.loc})")

    def __getitem__(self, name: str):
        return self.all[name]

    def get(self, name: str, is_global: bool = False):
        return (self.top if is_global else self.all).get(name)


def _local_declarations(decl) -> Iterator[ir.Declaration]:
    """The declarations under a top-level `decl` that `NameTable` holds."""
    if isinstance(decl, (ir.Parser, ir.Control)):
        yield from decl.params
        yield from decl.ctor_params
        for local in decl.locals:
            yield local
            yield from _local_declarations(local)
        body = decl.body if isinstance(decl, ir.Control) else decl.states
        yield from _body_declarations(body)
    elif isinstance(decl, CALLABLES):
        yield from _body_declarations(decl.body)
    elif isinstance(decl, ir.Instance):
        for local in decl.initializer:  # abstract methods' implementations and what they use
            if not isinstance(local, CALLABLES):
                yield local
            yield from _local_declarations(local)


def _body_declarations(body) -> Iterator[ir.Declaration]:
    for root in body if isinstance(body, tuple) else (body,):
        for node in walk(root):
            if isinstance(node, ir.DeclarationStatement):
                yield node.decl
                yield from _local_declarations(node.decl)
            elif isinstance(node, ir.ForInStatement):
                yield node.var


class FreshNames:
    """Names that no declaration of the program has yet; each one given out is taken from then on.

    `keep(name)` is `name` itself while it is free, else `name#2`, `name#3`, ... (a declaration
    renamed); `copy(name)` is always `base$N`, `base` being `name` without such suffixes (a
    declaration a pass copies or makes).  `#` and `$` cannot occur in a P4 name."""

    def __init__(self, taken: Iterable[str]) -> None:
        self.taken = set(taken)
        self.suffixes: dict[tuple[str, str], Iterator[int]] = {}

    def keep(self, name: str, also_taken: frozenset = frozenset()) -> str:
        new = name
        if new in self.taken or new in also_taken:
            counter = self.suffixes.setdefault((name, "#"), itertools.count(2))
            while new in self.taken or new in also_taken:
                new = f"{name}#{next(counter)}"
        self.taken.add(new)
        return new

    def copy(self, name: str) -> str:
        base = re.split(r"[#$]", name, maxsplit=1)[0]
        counter = self.suffixes.setdefault((base, "$"), itertools.count(1))
        new = f"{base}${next(counter)}"
        while new in self.taken:
            new = f"{base}${next(counter)}"
        self.taken.add(new)
        return new


class _Renamer:
    """Walks the scopes, choosing each declaration's new name and rewriting the references."""

    def __init__(self, program: ir.Program, ctx: PassContext) -> None:
        self.ctx = ctx
        self.top: dict[str, str] = {}
        for decl in program.declarations:
            name = getattr(decl, "name", None)
            if name is not None:
                self.top[name] = name
        self.fresh = FreshNames(self.top)
        self.scopes: list[dict[str, str]] = [self.top]
        self.params: frozenset = frozenset()  # those of the action or function being walked
        self.renamed = 0

    # ------------------------------------------------------------------
    # Scopes

    def push(self) -> None:
        self.scopes.append({})

    def pop(self) -> None:
        self.scopes.pop()

    def declare(self, name: str) -> str:
        """Bind `name` in the innermost scope to a name no other declaration has; return it."""
        new = self.fresh.keep(name, also_taken=self.params)
        self.renamed += new != name
        self.scopes[-1][name] = new
        return new

    def lookup(self, name: str, is_global: bool) -> Optional[str]:
        if is_global:
            return self.top.get(name)
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    # ------------------------------------------------------------------
    # Declarations

    def top_level(self, decl):
        if isinstance(decl, (ir.Parser, ir.Control)):
            return self.block(decl)
        if isinstance(decl, CALLABLES):
            return self.callable(decl)
        if isinstance(decl, (ir.Constant, ir.Instance, ir.ValueSet, ir.Variable)):
            return self.declaration(decl, rename=False)
        return decl  # types, externs, errors, match kinds, packages: no bodies

    def declaration(self, decl, rename: bool = True):
        """`decl` renamed (unless `rename` is False) and its parts rewritten; bound in the innermost
        scope after its initializer, before its body (a table's properties see the table)."""
        if isinstance(decl, ir.Variable):
            init = self.expr(decl.init) if decl.init is not None else None
            return replace(decl, name=self.bind(decl.name, rename), init=init)
        if isinstance(decl, ir.Constant):
            value = self.expr(decl.value)
            return replace(decl, name=self.bind(decl.name, rename), value=value)
        if isinstance(decl, ir.ValueSet):
            return replace(decl, name=self.bind(decl.name, rename), size=self.expr(decl.size))
        if isinstance(decl, ir.Instance):
            args = tuple(self.expr(a) for a in decl.args)
            name = self.bind(decl.name, rename)
            self.push()  # its abstract methods keep their names: they implement the extern's
            initializer = tuple(self.callable(d) if isinstance(d, CALLABLES) else self.declaration(d)
                                for d in decl.initializer)
            self.pop()
            return replace(decl, name=name, args=args, initializer=initializer)
        if isinstance(decl, CALLABLES):
            name = self.bind(decl.name, rename)
            return replace(self.callable(decl), name=name)
        if isinstance(decl, ir.Table):
            name = self.bind(decl.name, rename)
            return replace(decl, name=name, properties=tuple(self.table_property(p) for p in decl.properties))
        raise InternalError(f"unique-names: a {type(decl).__name__} inside a body ({decl.loc})")

    def bind(self, name: str, rename: bool) -> str:
        """`name` bound in the innermost scope: renamed if need be (`declare`), else as it is (a top-level
        declaration, a parameter of an action or function)."""
        if rename:
            return self.declare(name)
        self.scopes[-1][name] = name
        return name

    def callable(self, decl):
        """An action's or function's parameters and body: its locals may not take a parameter's name."""
        outer = self.params
        self.params = frozenset(p.name for p in decl.params)
        self.push()
        for p in decl.params:
            self.bind(p.name, rename=False)
        body = self.block_statements(decl.body)
        self.pop()
        self.params = outer
        return replace(decl, body=body)

    def block(self, decl):
        """A parser or control: its parameters and locals are declarations like any other."""
        self.push()
        params = tuple(replace(p, name=self.declare(p.name)) for p in decl.params)
        ctor_params = tuple(replace(p, name=self.declare(p.name)) for p in decl.ctor_params)
        locals_ = tuple(self.declaration(d) for d in decl.locals)
        if isinstance(decl, ir.Parser):
            states = tuple(self.parser_state(s) for s in decl.states)
            new = replace(decl, params=params, ctor_params=ctor_params, locals=locals_, states=states)
        else:
            new = replace(decl, params=params, ctor_params=ctor_params, locals=locals_,
                          body=self.block_statements(decl.body))
        self.pop()
        return new

    def parser_state(self, state: ir.ParserState) -> ir.ParserState:
        self.push()
        components = self.statements(state.components)
        transition = state.transition
        if isinstance(transition, ir.SelectExpression):  # the cases name states: they keep their names
            transition = replace(transition, keys=tuple(self.expr(k) for k in transition.keys),
                                 cases=tuple(replace(c, keyset=self.expr(c.keyset)) for c in transition.cases))
        self.pop()
        return replace(state, components=components, transition=transition)

    def table_property(self, prop: ir.TableProperty) -> ir.TableProperty:
        value = prop.value
        if prop.name == "key":
            return replace(prop, value=tuple(self.key_element(k) for k in value))
        if isinstance(value, tuple):
            return replace(prop, value=tuple(self.expr(v) for v in value))
        if isinstance(value, ir.Node):
            return replace(prop, value=self.expr(value))
        return prop

    def key_element(self, element: ir.KeyElement) -> ir.KeyElement:
        expr = self.expr(element.expr)
        if expr is element.expr:
            return element
        return replace(element, expr=expr)  # its @name keeps its control-plane name

    # ------------------------------------------------------------------
    # Statements

    def block_statements(self, block: ir.Block) -> ir.Block:
        return replace(block, statements=self.statements(block.statements))

    def statements(self, statements: tuple) -> tuple:
        return tuple(self.statement(s) for s in statements)

    def statement(self, stmt: ir.Statement) -> ir.Statement:
        if isinstance(stmt, ir.Block):
            self.push()
            new = self.block_statements(stmt)
            self.pop()
            return new
        if isinstance(stmt, ir.DeclarationStatement):
            return replace(stmt, decl=self.declaration(stmt.decl))
        if isinstance(stmt, ir.IfStatement):
            return replace(stmt, cond=self.expr(stmt.cond), then=self.nested(stmt.then),
                           otherwise=self.nested(stmt.otherwise) if stmt.otherwise is not None else None)
        if isinstance(stmt, ir.SwitchStatement):
            cases = tuple(replace(c, label=self.expr(c.label),
                                  body=self.nested(c.body) if c.body is not None else None) for c in stmt.cases)
            return replace(stmt, expr=self.expr(stmt.expr), cases=cases)
        if isinstance(stmt, ir.ForStatement):
            self.push()
            new = replace(stmt, init=self.statements(stmt.init),
                          cond=self.expr(stmt.cond) if stmt.cond is not None else None,
                          updates=self.statements(stmt.updates), body=self.nested(stmt.body))
            self.pop()
            return new
        if isinstance(stmt, ir.ForInStatement):
            collection = self.expr(stmt.collection)
            self.push()
            var = replace(stmt.var, name=self.declare(stmt.var.name))
            body = self.nested(stmt.body)
            self.pop()
            return replace(stmt, var=var, collection=collection, body=body)
        return map_children(stmt, self.expr)  # assignments, calls, return, exit, ...

    def nested(self, stmt: ir.Statement) -> ir.Statement:
        self.push()
        new = self.statement(stmt)
        self.pop()
        return new

    # ------------------------------------------------------------------
    # References

    def expr(self, node: ir.Node) -> ir.Node:
        """`node` with each name it uses (paths, actions named in tables) rewritten."""
        if isinstance(node, (ir.PathExpression, ir.ActionRef)):
            new = self.lookup(node.name, node.is_global)
            node = replace(node, name=new) if new is not None and new != node.name else node
            return map_children(node, self.expr) if isinstance(node, ir.ActionRef) else node
        return map_children(node, self.expr)
