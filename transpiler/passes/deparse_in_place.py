"""deparse-in-place: programs whose deparser can write only the fields they change, in the packet itself.

A deparser emits every valid header, field by field, then the switch puts
those bytes in front of the payload.  When the headers leave as the parser
found them, but for some of their fields, that is work for nothing: the
bytes are already in the packet.  The pass proves, for the pipeline's
parser and deparser, that

* the deparser only emits headers, always the same ones in the same order
  (no condition, no stack, no union, no varbit, no struct inside a header);
* every header the parser extracts is one of those, and along every path
  through the parser the headers come in the deparser's order, each once
  (no `advance`, no loop): so the valid headers, emitted, are the bytes the
  parser consumed;
* nothing changes which headers are valid or writes a header whole (no
  setValid/setInvalid/push/pop, no assignment of a header or of a struct
  holding one, no such value passed to an `out`/`inout` parameter), anywhere
  in the program; what it writes are fields of the headers (through the
  blocks' parameters of the headers type: a local copy is not the packet,
  and copying it back is a whole-header write);
* each header with a field written is at the same bit on every parser path
  that reads it.

Then `PassResult.deparse_in_place` maps each emitted header (its member path
in the headers struct) to where it is and the fields the program may write;
the C generator's deparser writes those fields of the valid headers into the
packet and sends it as it is: nothing when no field is written (an L2
switch), the MACs, TTL and checksum for an IPv4 router.  What the pass cannot
prove leaves `deparse_in_place` None and the packet deparsed whole; the
verbose report says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes._parser_paths import ParserPathError, header_offsets, packet_moves
from p4odp.transpiler.passes._walk import (argument_directions, header_types, is_packet_call, member_path,
                                          pipeline_blocks, walk)
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["DeparseInPlace", "InPlaceHeader"]

_VALIDITY_CHANGES = ("setValid", "setInvalid", "push_front", "pop_front")


@dataclass(frozen=True)
class InPlaceHeader:
    """An emitted header: its first bit in the packet (None: not the same on every parser path; only
    a header with no field written may be there), and the fields the program may write."""

    offset: Optional[int]
    written: frozenset


class _NotProven(Exception):
    def __init__(self, why: str, loc=None) -> None:
        super().__init__(why)
        self.loc = loc


class DeparseInPlace:
    name = "deparse-in-place"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        try:
            deparser, headers_type, plan = _plan(program)
        except _NotProven as err:
            ctx.report(f"the deparser writes every header: {err}", err.loc)
            return program
        ctx.result.deparse_in_place = plan
        ctx.result.in_place_headers = headers_type
        written = sorted(".".join((*path, name)) for path, header in plan.items() for name in header.written)
        ctx.report("the deparser writes in the packet " + (", ".join(written) if written else
                                                            "nothing: packets leave as they came"), deparser.loc)
        return program


def _plan(program: ir.Program) -> tuple[ir.Control, t.Type, dict]:
    """The deparser, the headers type and the plan; _NotProven says why there is none."""
    blocks = pipeline_blocks(program)
    parsers = [b for b in blocks if isinstance(b, ir.Parser)]
    deparsers = [b for b in blocks if isinstance(b, ir.Control) and _packet_param(b, "packet_out") is not None]
    if len(parsers) != 1 or len(deparsers) != 1:
        raise _NotProven("not one parser and one deparser")
    parser, deparser = parsers[0], deparsers[0]
    headers_type, order = _emit_order(deparser)
    offsets = _parser_offsets(parser, headers_type, order)
    headers_params = {p.name for block in blocks for p in block.params if p.type == headers_type}
    written: dict = {path: set() for path in order}
    for node in walk(program):
        for target in _written(node):
            _add_write(target, headers_params, headers_type, written)
    plan = {}
    for path, fields in written.items():
        offset = offsets.get(path)
        if fields and offset is None:
            raise _NotProven(f"{'.'.join(path)} is written and not at the same bit on every parser path")
        plan[path] = InPlaceHeader(offset, frozenset(fields))
    return deparser, headers_type, plan


def _packet_param(block, extern: str) -> Optional[ir.Parameter]:
    return next((p for p in block.params if isinstance(p.type, t.ExternT) and p.type.name == extern), None)


def _header_path(expr: ir.Expression, block) -> tuple[t.Type, tuple]:
    """`hdr.a.b` as (the type of the parameter `hdr` of `block`, ("a", "b"))."""
    root, path = member_path(expr)
    param = next((p for p in block.params if isinstance(root, ir.PathExpression) and p.name == root.name), None)
    if param is None:
        raise _NotProven("a header outside the block's parameters", expr.loc)
    return param.type, path


def _emit_order(deparser: ir.Control) -> tuple[t.Type, dict]:
    """The headers type and, for every header the deparser emits, its member path -> position."""
    order: dict = {}
    roots = set()

    def add(typ: t.Type, path: tuple, loc) -> None:
        if isinstance(typ, t.StructLike) and typ.kind == "header":
            if not all(isinstance(f.type, (t.Bits, t.Bool, t.EnumT, t.NewTypeT)) or t.is_bits_array(f.type)
                       for f in typ.fields):
                raise _NotProven("a header with a varbit or a struct emitted", loc)
            if path in order:
                raise _NotProven("a header emitted twice", loc)
            order[path] = len(order)
        elif isinstance(typ, t.StructLike) and typ.kind == "struct":
            for f in typ.fields:
                add(f.type, path + (f.name,), loc)
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
        if call is None or not is_packet_call(call, "packet_out", ("emit",)) or len(call.args) != 1:
            raise _NotProven("the deparser does more than emit headers", stmt.loc)
        root, path = _header_path(call.args[0].value, deparser)
        roots.add(root)
        add(call.args[0].value.type, path, call.loc)
    if len(roots) != 1:
        raise _NotProven("the deparser emits no header", deparser.loc)
    return roots.pop(), order


def _parser_offsets(parser: ir.Parser, headers_type: t.Type, order: dict) -> dict:
    """Check that along every path from `start` the parser reads only headers the deparser emits, in
    its order, each once, and skips nothing; return the bit each is read at (None: not the same on
    every path)."""
    headers = next((p for p in parser.params if p.type == headers_type), None)
    if headers is None:
        raise _NotProven("the parser has no parameter of the deparser's headers type", parser.loc)

    def check(move, earlier: list) -> None:
        path, bits, loc = move
        if path not in order:
            raise _NotProven("the parser extracts a header the deparser does not emit", loc)
        if bits is None:
            raise _NotProven("the parser reads a header of a size known only when it runs", loc)
        if earlier and order[earlier[-1]] >= order[path]:
            raise _NotProven("the parser extracts headers in another order than the deparser emits", loc)

    moves = {}
    for state in parser.states:
        moves[state.name] = packet_moves(state, headers)
        skip = next((loc for path, _, loc in moves[state.name] if path is None), None)
        if skip is not None:
            raise _NotProven("the parser skips bits or reads a header outside its headers parameter", skip)
    try:
        return header_offsets(parser, moves, check)
    except ParserPathError as err:
        raise _NotProven(str(err), err.loc) from None


def _written(node: ir.Node) -> list[ir.Expression]:
    """The l-values `node` writes: an assignment's target, out and inout arguments, and the header
    whose validity it changes (as if written whole)."""
    if isinstance(node, ir.Assignment):
        return [node.target]
    if not isinstance(node, ir.MethodCall):
        return []
    method = node.method
    if isinstance(method, ir.Member) and method.member in _VALIDITY_CHANGES and header_types(method.expr.type):
        return [method.expr]  # the whole header: no plan, if it is one of the packet's
    if is_packet_call(node, "packet_in", ("extract",)):
        return []  # the parse itself, checked against the deparser
    return [arg.value for arg, direction in zip(node.args, argument_directions(node))
            if arg.value is not None and direction in ("out", "inout", None)]


def _add_write(target: ir.Expression, headers_params: set, headers_type: t.Type, written: dict) -> None:
    """Record the field of the packet's headers `target` writes, if it writes one."""
    while isinstance(target, (ir.Slice, ir.ArrayIndex)):  # a slice writes part of its field
        if isinstance(target, ir.ArrayIndex):
            if header_types(target.expr.type):
                raise _NotProven("a header stack element written", target.loc)
        target = target.expr
    root, path = member_path(target)
    if not (isinstance(root, ir.PathExpression) and root.name in headers_params):
        return  # not the packet's headers: a local, metadata
    typ = headers_type
    for depth, member in enumerate(path):
        if isinstance(typ, t.StructLike) and typ.kind == "header":
            if path[:depth] in written:  # else a header never emitted: not in the packet
                written[path[:depth]].add(member)
            return
        found = typ.field(member) if isinstance(typ, t.StructLike) and typ.kind == "struct" else None
        if found is None:
            raise _NotProven("a header stack or union written", target.loc)
        typ = found.type
    if header_types(typ):
        raise _NotProven("a header written whole", target.loc)
