"""unchanged-packet: programs whose deparser puts back exactly the bytes their parser read.

A switch that forwards without touching a header (an L2 switch, a filter, a
port map) deparses the very bytes it parsed: rewriting them is work for
nothing.  The pass proves, for the pipeline's parser and deparser, that

* the deparser only emits headers, always the same ones in the same order
  (no condition, no stack, no union, no varbit);
* every header the parser extracts is one of those, and along every path
  through the parser the headers come in the deparser's order, each once
  (no `advance`, no loop): so the valid headers, emitted, are the bytes the
  parser consumed;
* nothing after the parse writes a header: no assignment to a header or a
  field of one, no setValid/setInvalid/push/pop, no header passed to an
  `out`/`inout` parameter, anywhere in the program (a local of a header
  type counts too: the pass does not follow copies).

Then `PassResult.packet_unchanged` is true and the C generator sends each
copy as it was received, without deparsing it.  What the pass cannot prove
leaves the program deparsed as before; the verbose report says why.
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes._walk import argument_directions, pipeline_blocks, walk
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["UnchangedPacket"]

_HEADER_WRITES = ("setValid", "setInvalid", "push_front", "pop_front")
_PATHS_EXPLORED = 10000  # parser paths followed before giving up (a bound on the pass's time)


class _NotProven(Exception):
    def __init__(self, why: str, loc=None) -> None:
        super().__init__(why)
        self.loc = loc


class UnchangedPacket:
    name = "unchanged-packet"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        try:
            deparser = _prove(program)
        except _NotProven as err:
            ctx.report(f"the deparser rewrites the packet: {err}", err.loc)
            return program
        ctx.result.packet_unchanged = True
        ctx.report("the deparser emits the bytes the parser read: packets leave as they came", deparser.loc)
        return program


def _prove(program: ir.Program) -> ir.Control:
    """The deparser, when the packet leaves unchanged; else _NotProven says why."""
    blocks = pipeline_blocks(program)
    parsers = [b for b in blocks if isinstance(b, ir.Parser)]
    deparsers = [b for b in blocks if isinstance(b, ir.Control) and _packet_param(b, "packet_out") is not None]
    if len(parsers) != 1 or len(deparsers) != 1:
        raise _NotProven("not one parser and one deparser")
    parser, deparser = parsers[0], deparsers[0]
    order = _emit_order(deparser)
    _check_parser_paths(parser, order)
    for node in walk(program):
        _check_no_header_write(node)
    return deparser


def _packet_param(block, extern: str) -> Optional[ir.Parameter]:
    return next((p for p in block.params if isinstance(p.type, t.ExternT) and p.type.name == extern), None)


def _has_header(typ: t.Type, seen: frozenset = frozenset()) -> bool:
    """Whether a value of `typ` holds a header (is one, or a stack, union or struct of them)."""
    if isinstance(typ, t.Stack):
        return True
    if isinstance(typ, t.StructLike):
        if typ.kind != "struct":
            return True
        return typ.name not in seen and any(_has_header(f.type, seen | {typ.name}) for f in typ.fields)
    if isinstance(typ, t.TupleT):
        return any(_has_header(e, seen) for e in typ.elements)
    return False


def _header_path(expr: ir.Expression, block) -> tuple:
    """`hdr.a.b` as (index of the parameter `hdr` in `block`, ("a", "b"))."""
    members = []
    while isinstance(expr, ir.Member):
        members.append(expr.member)
        expr = expr.expr
    index = next((i for i, p in enumerate(block.params) if isinstance(expr, ir.PathExpression)
                  and p.name == expr.name), None)
    if index is None:
        raise _NotProven("a header outside the block's parameters", expr.loc)
    return block.params[index].type, tuple(reversed(members))


def _emit_order(deparser: ir.Control) -> dict:
    """(headers type, member path) -> position, for every header the deparser emits."""
    order: dict = {}

    def add(root: t.Type, typ: t.Type, path: tuple, loc) -> None:
        if isinstance(typ, t.StructLike) and typ.kind == "header":
            if any(isinstance(f.type, t.Varbit) for f in typ.fields):
                raise _NotProven("a header with a varbit emitted", loc)
            if (root, path) in order:
                raise _NotProven("a header emitted twice", loc)
            order[(root, path)] = len(order)
        elif isinstance(typ, t.StructLike) and typ.kind == "struct":
            for f in typ.fields:
                add(root, f.type, path + (f.name,), loc)
        else:
            raise _NotProven(f"a {typ} emitted", loc)

    statements = list(deparser.body.statements)
    while statements:
        stmt = statements.pop(0)
        if isinstance(stmt, ir.Block):
            statements[:0] = stmt.statements
            continue
        if isinstance(stmt, ir.EmptyStatement):
            continue
        call = stmt.call if isinstance(stmt, ir.MethodCallStatement) else None
        if call is None or not _is_packet_call(call, "packet_out", "emit") or len(call.args) != 1:
            raise _NotProven("the deparser does more than emit headers", stmt.loc)
        root, path = _header_path(call.args[0].value, deparser)
        add(root, call.args[0].value.type, path, call.loc)
    return order


def _is_packet_call(call: ir.MethodCall, extern: str, method: str) -> bool:
    target = call.method
    return isinstance(target, ir.Member) and target.member == method and \
        isinstance(target.expr.type, t.ExternT) and target.expr.type.name == extern


def _state_extracts(state: ir.ParserState, parser: ir.Parser, order: dict) -> list[int]:
    """The deparser positions of the headers `state` extracts, in order."""
    positions = []
    for node in walk(state):
        if not isinstance(node, ir.MethodCall) or not isinstance(node.method, ir.Member) or \
                not isinstance(node.method.expr.type, t.ExternT) or node.method.expr.type.name != "packet_in":
            continue
        if node.method.member == "advance" or (node.method.member == "extract" and len(node.args) != 1):
            raise _NotProven(f"the parser skips bits ({node.method.member})", node.loc)
        if node.method.member != "extract":
            continue
        arg = node.args[0].value
        if arg is None:
            raise _NotProven("the parser skips a header (`_`)", node.loc)
        position = order.get(_header_path(arg, parser))
        if position is None:
            raise _NotProven("the parser extracts a header the deparser does not emit", node.loc)
        positions.append(position)
    return positions


def _successors(state: ir.ParserState) -> list[str]:
    transition = state.transition
    if isinstance(transition, ir.PathExpression):
        return [transition.name]
    if isinstance(transition, ir.SelectExpression):
        return [case.state.name for case in transition.cases]
    return []


def _check_parser_paths(parser: ir.Parser, order: dict) -> None:
    """Along every path from `start`, the headers extracted come in deparser order, each once."""
    states = {s.name: s for s in parser.states}
    extracts = {name: _state_extracts(state, parser, order) for name, state in states.items()}
    budget = [_PATHS_EXPLORED]
    done: set = set()

    def visit(name: str, last: int, on_path: frozenset) -> None:
        if name not in states or (name, last) in done:
            return  # accept, reject, or already shown to be in order from here
        if name in on_path:
            raise _NotProven("the parser loops", states[name].loc)
        budget[0] -= 1
        if budget[0] < 0:
            raise _NotProven("too many parser paths to follow", parser.loc)
        for position in extracts[name]:
            if position <= last:
                raise _NotProven("the parser extracts headers in another order than the deparser emits",
                                 states[name].loc)
            last = position
        for successor in _successors(states[name]):
            visit(successor, last, on_path | {name})
        done.add((name, last))

    visit("start", -1, frozenset())


def _check_no_header_write(node: ir.Node) -> None:
    if isinstance(node, ir.Assignment) and _writes_header(node.target):
        raise _NotProven("a header is written", node.loc)
    if not isinstance(node, ir.MethodCall):
        return
    method = node.method
    if isinstance(method, ir.Member) and method.member in _HEADER_WRITES and _has_header(method.expr.type):
        raise _NotProven(f"a header's {method.member}()", node.loc)
    if _is_packet_call(node, "packet_in", "extract"):
        return  # the parse itself, checked against the deparser
    for arg, direction in zip(node.args, argument_directions(node)):
        if arg.value is not None and direction in ("out", "inout", None) and _writes_header(arg.value):
            raise _NotProven("a header passed to an out or inout parameter", arg.value.loc)


def _writes_header(target: ir.Expression) -> bool:
    """Whether writing the l-value `target` may change a header: it is one, holds one, or is part of one."""
    while True:
        if _has_header(target.type):
            return True
        if isinstance(target, (ir.Member, ir.ArrayIndex, ir.Slice)):
            target = target.expr
        else:
            return False
