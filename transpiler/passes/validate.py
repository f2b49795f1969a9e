"""validate: the invariants of the IR that every later stage relies on, checked between passes.

As p4c re-runs its type checker after its passes, the pass manager checks the
IR once on the front end's output and again after each pass that ran, when
`PassOptions.validate` is set (`p4odp compile --validate-ir`, or
`P4ODP_VALIDATE_IR=1` in the environment, as for the test suite).  A broken
invariant is a compiler bug, never the user's: it is raised as
`InternalError("IR invalid after pass X: ... at file:line:col")`, naming the
pass that broke it.

It is off by default because checking the front end's output alone costs
about a third of the midend's time on a small program (a fifth on a large
one): a price for the compiler's developers, not for every compile.

What it checks (only what holds on every program the front end accepts):

* shape: every node is one of the IR's classes; its fields hold nodes,
  tuples of them (not lists), or plain values (str, int, bool, enum members,
  None); every `loc` is a `Loc`;
* types: every `ir.Expression` carries a semantic type (a `p4odp.types.Type`),
  and a declaration's `type` is one or None.  The front end leaves parameter
  defaults and enum member values untyped, as written: they, and the copies
  of them a pass puts elsewhere (inlining passes defaults as arguments), are
  let be;
* names: every `PathExpression` names a declaration visible where it stands:
  a top-level declaration or match kind, or a parameter, type parameter,
  local, state-local or block-local declaration of an enclosing parser,
  control, action, function, state, block or loop (`is_global` ones: a
  top-level declaration).  The order of declarations within a scope is not
  checked;
* tables: the actions a table's `actions`, `default_action` and `entries`
  name are actions of its control or top-level ones;
* parsers: a parser has a `start` state; every state has a transition, and
  every transition names a state of that parser, `accept` or `reject`.

Syntax types (`ir.TypeRef`) and annotations are the program as written, which
no pass rewrites: only their being nodes is checked, not their insides.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Callable, Iterable, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError, Loc
from p4odp.transpiler.passes._walk import walk

__all__ = ["Validator", "FRONT_END"]

FRONT_END = "the front end"  # the stage named when the input of the first pass is invalid

_ITEMS = (ir.Node, str, int, enum.Enum)  # what a node's fields and tuples may hold; bool is an int
_FIELD_VALUES = (*_ITEMS, Loc)  # KeyElement.match_kind_loc
_FINAL_STATES = ("accept", "reject")
_FIELDS: dict[type, tuple] = {}


class _Invalid(Exception):
    def __init__(self, message: str, loc) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc


class Validator:
    """Checks the programs of one run of the passes, one after the other.

    Nodes are immutable and passes rebuild only what they change, so a
    top-level declaration found valid before is valid still while the
    top-level names it uses exist: only new declarations are checked.
    """

    def __init__(self) -> None:
        self.valid: dict[int, tuple] = {}  # id -> (declaration, the top-level names it uses); holds the ids alive
        self.programs: list[ir.Program] = []  # the first program checked (the front end's) and the current one
        self.as_written: Optional[set[int]] = None

    def __call__(self, program: ir.Program, after: str) -> None:
        """Raise `InternalError` if `program` breaks an invariant; `after` names the pass that made it."""
        try:
            self.check(program)
        except _Invalid as err:
            stage = after if after == FRONT_END else f"pass {after}"
            where = f" at {err.loc}" if isinstance(err.loc, Loc) else ""
            raise InternalError(f"IR invalid after {stage}: {err.message}{where}") from None

    def check(self, program: ir.Program) -> None:
        if not isinstance(program, ir.Program):
            raise _Invalid(f"the program is a {type(program).__name__}", None)
        _check_node(program)  # its declarations are a tuple
        self.programs[1:] = [program]
        self.as_written = None
        names = _top_level_names(program)
        actions = frozenset(d.name for d in program.declarations if isinstance(d, ir.Action))
        for decl in program.declarations:
            seen = self.valid.get(id(decl))
            if seen is not None and seen[0] is decl and seen[1] <= names:
                continue
            if not isinstance(decl, ir.Node):
                raise _Invalid(f"Program.declarations holds a {type(decl).__name__}", program.loc)
            checker = _Checker(names, self.written_untyped)
            checker.node(decl, names)
            if isinstance(decl, ir.Control):
                checker.used.update(_check_tables(decl, actions))
            elif isinstance(decl, ir.Parser):
                _check_states(decl)
            self.valid[id(decl)] = (decl, frozenset(checker.used))

    def written_untyped(self, node: ir.Expression) -> bool:
        """Is `node` part of a parameter's default or an enum member's value, which the front end leaves
        untyped, and which a pass may have copied into a body (inlining passes defaults as arguments)?"""
        if self.as_written is None:  # only wanted for an untyped expression: found on demand
            self.as_written = set()
            for program in self.programs:
                for found in walk(program):
                    if isinstance(found, (ir.Parameter, ir.EnumMember)):
                        value = found.default if isinstance(found, ir.Parameter) else found.value
                        if value is not None:
                            self.as_written.update(id(n) for n in walk(value))
        return id(node) in self.as_written


# ----------------------------------------------------------------------
# Shape, types and names


def _fields(node: ir.Node) -> tuple:
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name not in ("loc", "type"))
    return names


def _check_node(node: ir.Node, untyped: Optional[Callable] = None) -> None:
    """The node's own fields: a Loc, a semantic type on an expression (unless `untyped(node)` allows
    none), nodes, tuples of them, plain values."""
    loc = node.loc
    if type(loc) is not Loc:
        raise _Invalid(f"{type(node).__name__} has loc {loc!r}, not a Loc", None)
    typ = getattr(node, "type", None)
    if typ is None:
        if isinstance(node, ir.Expression) and not (untyped is not None and untyped(node)):
            raise _Invalid(f"{_describe(node)} has no semantic type", loc)
    elif not isinstance(typ, t.Type):
        raise _Invalid(f"{_describe(node)} has type {typ!r}, not a semantic type", loc)
    for name in _fields(node):
        value = getattr(node, name)
        if value is None or isinstance(value, _FIELD_VALUES):
            continue
        if isinstance(value, tuple):
            for item in value:
                if not isinstance(item, _ITEMS):
                    raise _Invalid(f"{type(node).__name__}.{name} holds a {type(item).__name__}", loc)
            continue
        raise _Invalid(f"{type(node).__name__}.{name} is a {type(value).__name__}, not a node, a tuple "
                       "or a plain value", loc)


def _describe(node: ir.Node) -> str:
    name = getattr(node, "name", None)
    return f"{type(node).__name__} {name}" if isinstance(name, str) else type(node).__name__


def _declared(decls: Iterable) -> set:
    return {d.name for d in decls if isinstance(d, ir.Declaration)}


def _block_declared(statements: tuple) -> set:
    return {s.decl.name for s in statements if isinstance(s, ir.DeclarationStatement)}


def _top_level_names(program: ir.Program) -> frozenset:
    names = _declared(program.declarations)
    for decl in program.declarations:
        if isinstance(decl, ir.MatchKindDeclaration):
            names.update(m.name for m in decl.members)
    return frozenset(names)


def _is_child(value) -> bool:
    return isinstance(value, ir.Node) and not isinstance(value, (ir.TypeRef, ir.Annotation))


class _Checker:
    """Checks every node of a declaration as `walk` visits them, following the scopes on the way:
    each PathExpression must name something in one."""

    def __init__(self, globals_: frozenset, written_untyped: Callable) -> None:
        self.globals = globals_
        self.written_untyped = written_untyped
        self.used: set[str] = set()  # the top-level names the declaration may mean (a local may hide some)

    def node(self, node: ir.Node, scope: frozenset) -> None:
        """Check `node` and what is under it, where the names of `scope` are visible."""
        if isinstance(node, ir.Expression):
            self.expression(node, scope)
            return
        _check_node(node)
        if isinstance(node, ir.Block):
            self.children(node, _widen(scope, _block_declared(node.statements)))
        elif isinstance(node, (ir.Parser, ir.Control)):
            names = _declared(node.params) | _declared(node.ctor_params) | _declared(node.locals)
            self.children(node, _widen(scope, names | {p.name for p in node.type_params}))
        elif isinstance(node, (ir.Action, ir.Function, ir.MethodPrototype, ir.ParserType, ir.ControlType,
                               ir.Package)):
            names = _declared(node.params) | {p.name for p in getattr(node, "type_params", ())}
            self.children(node, _widen(scope, names))
        elif isinstance(node, ir.Extern):
            self.children(node, _widen(scope, {p.name for p in node.type_params}))
        elif isinstance(node, ir.Instance):
            self.children(node, _widen(scope, _declared(node.initializer)))
        elif isinstance(node, ir.Enum):  # a serializable enum's values may name its earlier members
            self.children(node, _widen(scope, _declared(node.members)))
        elif isinstance(node, (ir.Parameter, ir.EnumMember)):  # the front end leaves these values untyped
            value = node.default if isinstance(node, ir.Parameter) else node.value
            if value is not None:
                self.expression(value, scope, untyped=lambda n: True)
        elif isinstance(node, ir.ParserState):
            self.state(node, _widen(scope, _block_declared(node.components)))
        elif isinstance(node, ir.ForStatement):
            self.children(node, _widen(scope, _block_declared(node.init)))
        elif isinstance(node, ir.ForInStatement):
            self.children(node, _widen(scope, {node.var.name}))
        else:
            self.children(node, scope)

    def children(self, node: ir.Node, scope: frozenset) -> None:
        for name in _fields(node):
            value = getattr(node, name)
            if _is_child(value):
                self.node(value, scope)
            elif isinstance(value, tuple):
                for item in value:
                    if _is_child(item):
                        self.node(item, scope)

    def state(self, state: ir.ParserState, scope: frozenset) -> None:
        for stmt in state.components:
            self.node(stmt, scope)
        transition = state.transition
        if isinstance(transition, ir.SelectExpression):
            _check_node(transition)
            for key in transition.keys:
                self.expression(key, scope)
            for case in transition.cases:
                _check_node(case)
                self.expression(case.keyset, scope)
                _check_node(case.state)  # names a state: see _check_states
        elif transition is not None:
            _check_node(transition)

    def expression(self, expr: ir.Expression, scope: frozenset, untyped: Optional[Callable] = None) -> None:
        untyped = untyped or self.written_untyped
        for node in walk(expr):  # expressions declare nothing: one scope for all of it
            _check_node(node, untyped)
            if isinstance(node, ir.PathExpression):
                visible = self.globals if node.is_global else scope
                if node.name not in visible:
                    where = "top-level declaration" if node.is_global else "declaration visible here"
                    raise _Invalid(f"{'.' if node.is_global else ''}{node.name} names no {where}", node.loc)
                if node.name in self.globals:
                    self.used.add(node.name)


def _widen(scope: frozenset, names: set) -> frozenset:
    return scope | names if names - scope else scope


# ----------------------------------------------------------------------
# Tables and parser states


def _check_tables(control: ir.Control, top: frozenset) -> set:
    """Check the actions the tables of `control` name; the top-level ones they may mean."""
    local = top | {d.name for d in control.locals if isinstance(d, ir.Action)}
    used = set()
    for table in control.locals:
        if not isinstance(table, ir.Table):
            continue
        for prop in table.properties:
            if prop.name == "actions":
                refs = prop.value
            elif prop.name == "default_action":
                refs = (prop.value,)
            elif prop.name == "entries":
                refs = tuple(e.action for e in prop.value)
            else:
                continue
            for ref in refs:
                if ref.name not in (top if ref.is_global else local):
                    raise _Invalid(f"table {table.name}: {prop.name} names {ref.name}, which is no action of "
                                   f"{control.name} nor a top-level one", ref.loc)
                if ref.name in top:
                    used.add(ref.name)
    return used


def _check_states(parser: ir.Parser) -> None:
    states = {s.name for s in parser.states}
    if "start" not in states:
        raise _Invalid(f"parser {parser.name} has no start state", parser.loc)
    for state in parser.states:
        transition = state.transition
        if isinstance(transition, ir.PathExpression):
            targets = (transition,)
        elif isinstance(transition, ir.SelectExpression):
            targets = tuple(c.state for c in transition.cases)
        else:
            raise _Invalid(f"parser state {parser.name}.{state.name} has no transition", state.loc)
        for target in targets:
            if target.name not in states and target.name not in _FINAL_STATES:
                raise _Invalid(f"parser state {parser.name}.{state.name} goes to {target.name}, which is no "
                               f"state of {parser.name}", target.loc)
