"""Generic traversal of the IR shared by the passes.

The IR's children are the dataclass fields of a node that hold nodes or
tuples of nodes.  These helpers never enter syntax types (`ir.TypeRef`:
they are the program as written, and the semantic types on expressions and
declarations are what later stages read) nor annotations (their contents
are the user's text), and never look at `loc` or semantic types.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from pathlib import Path
from typing import Callable, Iterator, Optional

from p4odp import frontend as _frontend
from p4odp import ir
from p4odp import types as t
from p4odp.frontend.expressions import match_args

__all__ = ["map_children", "children", "walk", "referenced_names", "has_call", "is_pure", "is_effect_call", "terminates", "prune_if",
           "is_architecture_decl", "argument_directions", "main_instance", "block_arguments", "pipeline_blocks", "applied_tables", "member_path", "is_packet_call", "header_types",
           "holds_struct", "error_names"]

_SKIPPED_FIELDS = ("loc", "type", "annotations")

# The architecture files p4odp ships (frontend/include).
_INCLUDE_DIR = Path(_frontend.__file__).resolve().parent / "include"


def _is_child(value) -> bool:
    return isinstance(value, ir.Node) and not isinstance(value, (ir.TypeRef, ir.Annotation))


_FIELDS: dict[type, tuple] = {}


def _fields(node: ir.Node) -> tuple:
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name not in _SKIPPED_FIELDS)
    return names


def map_children(node: ir.Node, fn: Callable[[ir.Node], ir.Node]) -> ir.Node:
    """`node` with `fn` applied to each child; the same object when no child changed."""
    changes = {}
    for name in _fields(node):
        value = getattr(node, name)
        if _is_child(value):
            new = fn(value)
            if new is not value:
                changes[name] = new
        elif isinstance(value, tuple) and any(_is_child(v) for v in value):
            items = tuple(fn(v) if _is_child(v) else v for v in value)
            if any(a is not b for a, b in zip(items, value)):
                changes[name] = items
    return dataclasses.replace(node, **changes) if changes else node


def children(node: ir.Node) -> list[ir.Node]:
    """The nodes right below `node`, in field order."""
    found = []
    for name in _fields(node):
        value = getattr(node, name)
        if _is_child(value):
            found.append(value)
        elif isinstance(value, tuple):
            found.extend(v for v in value if _is_child(v))
    return found


def walk(node: ir.Node) -> Iterator[ir.Node]:
    """`node` and every node below it, parents first."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def referenced_names(*nodes: Optional[ir.Node]) -> Counter:
    """How often each name is used (as a path or as an action named in a table) under `nodes`."""
    names: Counter = Counter()
    for root in nodes:
        if root is None:
            continue
        for node in walk(root):
            if isinstance(node, (ir.PathExpression, ir.ActionRef)):
                names[node.name] += 1
    return names


def has_call(node: Optional[ir.Node]) -> bool:
    """Does `node` contain a call (of anything: extern, action, function, table, header method)?"""
    return node is not None and any(isinstance(n, ir.MethodCall) for n in walk(node))


def is_pure(expr: ir.Expression) -> bool:
    """Can `expr` be evaluated, or not, without any effect?  True when its only calls are `isValid()`."""
    return not any(is_effect_call(node) for node in walk(expr))


def is_effect_call(node: ir.Node) -> bool:
    """Is `node` a call that may have an effect or read changing state: any call but `isValid()` of a
    header or header union (which reads a bit, as a field read does)?"""
    if not isinstance(node, ir.MethodCall):
        return False
    method = node.method
    return not (isinstance(method, ir.Member) and method.member == "isValid" and not node.args and
                isinstance(method.expr.type, t.StructLike) and method.expr.type.kind in ("header", "header_union"))


def terminates(stmt: ir.Statement) -> bool:
    """Does control never reach the end of `stmt` (it always returns, exits, breaks or continues)?"""
    if isinstance(stmt, (ir.ReturnStatement, ir.ExitStatement, ir.BreakStatement, ir.ContinueStatement)):
        return True
    if isinstance(stmt, ir.Block):
        return any(terminates(s) for s in stmt.statements)
    if isinstance(stmt, ir.IfStatement):
        return stmt.otherwise is not None and terminates(stmt.then) and terminates(stmt.otherwise)
    return False


def prune_if(stmt: ir.IfStatement) -> Optional[ir.Statement]:
    """The branch an `if` with a literal condition runs: the statement that replaces it, None for
    nothing at all.  Call it only when `stmt.cond` is an `ir.BoolLiteral`."""
    assert isinstance(stmt.cond, ir.BoolLiteral)
    return stmt.then if stmt.cond.value else stmt.otherwise


def is_architecture_decl(decl) -> bool:
    """Was `decl` declared by an architecture file, not by the user's program: one p4odp ships, or one
    of the names programs include an installed architecture by (core.p4, v1model.p4, bmv2/psa.p4, ...)
    found elsewhere on the include path?"""
    loc = getattr(decl, "loc", None)
    if loc is None:
        return False
    path = Path(loc.file)
    if any(path.as_posix() in (name, f"./{name}") or path.as_posix().endswith(f"/{name}")
           for name in _architecture_files()):
        return True
    try:
        return path.resolve().is_relative_to(_INCLUDE_DIR)
    except OSError:
        return False


@functools.cache
def _architecture_files() -> tuple[str, ...]:
    from p4odp.transpiler.architectures import load_architectures

    return ("core.p4", *(name for arch in load_architectures().values() for name in arch.include_files))


def argument_directions(call: ir.MethodCall) -> list[Optional[str]]:
    """The direction of the parameter each argument of `call` is passed to ("" for none), None when
    no signature fits (the argument is then kept as an l-value would be)."""
    typ = call.method.type
    for sig in typ.signatures if isinstance(typ, t.CallableT) else ():
        pairs = match_args(sig, list(call.args))
        if pairs is not None:
            return [p.direction for p, _ in pairs]
    return [None] * len(call.args)


def error_names(program: ir.Program) -> list[str]:
    """The program's errors by code: in the order they are declared, core.p4's first (as p4c numbers
    them for BMv2)."""
    return [m.name for d in program.declarations if isinstance(d, ir.ErrorDeclaration) for m in d.members]


def main_instance(program: ir.Program) -> Optional[ir.Instance]:
    """The package instance `main`, None when the program has none."""
    return next((d for d in program.declarations if isinstance(d, ir.Instance) and d.name == "main"), None)


def block_arguments(program: ir.Program) -> list[ir.Argument]:
    """The arguments of `main` that are parsers and controls, in order, those of the packages it is
    given flattened in (PSA's `PSA_Switch(ip, PacketReplicationEngine(), ep, ...)`, `ip` and `ep`
    package instances of three blocks each); externs given to it (PSA's engines) left out."""
    blocks = {d.name for d in program.declarations if isinstance(d, (ir.Parser, ir.Control))}
    packages = {d.name: d for d in program.declarations if isinstance(d, ir.Instance) and
                isinstance(d.type, t.ObjectT) and d.type.kind == "package"}

    def flattened(args: tuple) -> Iterator[ir.Argument]:
        for arg in args:
            value = arg.value
            if isinstance(value, ir.PathExpression) and value.name in packages:
                yield from flattened(packages[value.name].args)
            elif isinstance(value, ir.ConstructorCall) and isinstance(value.type, t.ObjectT) and \
                    value.type.kind == "package":
                yield from flattened(value.args)
            elif isinstance(value, ir.ConstructorCall) and isinstance(value.type_ref, ir.TypeName) and \
                    value.type_ref.name in blocks:
                yield arg

    main = main_instance(program)
    return list(flattened(main.args)) if main is not None else []


def pipeline_blocks(program: ir.Program) -> list:
    """The parsers and controls `main` is made of, in the order of its arguments (block_arguments),
    each once."""
    blocks = {d.name: d for d in program.declarations if isinstance(d, (ir.Parser, ir.Control))}
    found = []
    for arg in block_arguments(program):
        block = blocks[arg.value.type_ref.name]
        if block not in found:
            found.append(block)
    return found


def applied_tables(control: ir.Control) -> set[str]:
    """The names of the tables whose `apply` the control's body (or a table's key) calls."""
    keys = [p for d in control.locals if isinstance(d, ir.Table) for p in d.properties if p.name == "key"]
    return {node.method.expr.name for root in (control.body, *keys) for node in walk(root)
            if isinstance(node, ir.MethodCall) and isinstance(node.method, ir.Member) and
            node.method.member == "apply" and isinstance(node.method.expr, ir.PathExpression)}


def member_path(expr: ir.Expression) -> tuple[ir.Expression, tuple]:
    """`hdr.a.b` as (`hdr`, ("a", "b")): the root no Member leads past, and the members after it."""
    members = []
    while isinstance(expr, ir.Member):
        members.append(expr.member)
        expr = expr.expr
    return expr, tuple(reversed(members))


def is_packet_call(node: ir.Node, extern: str, methods: tuple) -> bool:
    """Whether `node` calls one of `methods` of a packet_in or packet_out (`extern`)."""
    return isinstance(node, ir.MethodCall) and isinstance(node.method, ir.Member) and \
        node.method.member in methods and isinstance(node.method.expr.type, t.ExternT) and \
        node.method.expr.type.name == extern


def holds_struct(typ: t.Type, name: str, seen: frozenset = frozenset()) -> bool:
    """Is a value of `typ` the struct `name` or does it hold one (in a struct, stack or tuple)?"""
    if isinstance(typ, t.Stack):
        return holds_struct(typ.element, name, seen)
    if isinstance(typ, t.StructLike):
        if typ.name == name:
            return True
        return typ.name not in seen and any(holds_struct(f.type, name, seen | {typ.name}) for f in typ.fields)
    if isinstance(typ, t.TupleT):
        return any(holds_struct(e, name, seen) for e in typ.elements)
    return False


def header_types(typ: t.Type, seen: frozenset = frozenset()) -> set:
    """The header types a value of `typ` holds: itself, or those of a stack, union, struct or tuple."""
    if isinstance(typ, t.Stack):
        return header_types(typ.element, seen)
    if isinstance(typ, t.StructLike):
        if typ.kind == "header":
            return {typ}
        if typ.name in seen:
            return set()
        return set().union(*(header_types(f.type, seen | {typ.name}) for f in typ.fields))
    if isinstance(typ, t.TupleT):
        return set().union(*(header_types(e, seen) for e in typ.elements))
    return set()
