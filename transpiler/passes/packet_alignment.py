"""packet-alignment: the parsers and deparsers whose position in the packet is always a whole byte.

A parser reads each header at its cursor and a deparser writes each header at
its output position: both are bit positions.  When every header a parser
extracts (or skips) and every `advance` moves the cursor by whole bytes, the
cursor is a whole byte at every header, so the C generator reads a field at
a constant bit offset from the header's first byte: the compiler then
unrolls and folds the bit arithmetic, where a run-time shift costs a loop.
The same holds for a deparser whose emitted headers are all whole bytes.

Recorded in `PassResult.byte_aligned`: the names of those parsers and
controls.  What the pass cannot prove (an `advance` by a run-time amount, a
header of 12 bits, a varbit emitted) leaves the block out, and the generator
then reads and writes at any bit.  A varbit extract keeps the cursor whole:
the parser rejects a size that is not whole bytes (ParserInvalidArgument).
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes._walk import is_packet_call, walk
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["PacketAlignment"]


class PacketAlignment:
    name = "packet-alignment"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        for decl in program.declarations:
            moves = _parser_moves(decl) if isinstance(decl, ir.Parser) else \
                _deparser_moves(decl) if isinstance(decl, ir.Control) else []
            if not moves:
                continue
            odd = next((loc for bits, loc in moves if bits is None or bits % 8), None)
            if odd is None:
                ctx.result.byte_aligned.add(decl.name)
                ctx.report(f"{decl.name}: every header at a whole byte", decl.loc)
            else:
                ctx.report(f"{decl.name}: not every header at a whole byte (this one moves by another amount)", odd)
        return program


def _packet_calls(decl, extern: str, methods: tuple) -> list[ir.MethodCall]:
    return [n for n in walk(decl) if is_packet_call(n, extern, methods)]


def _parser_moves(parser: ir.Parser) -> list[tuple]:
    """How far each extract, skip and advance of `parser` moves its cursor (bits; None: not known
    before it runs), with where it stands."""
    moves = []
    for call in _packet_calls(parser, "packet_in", ("extract", "advance")):
        arg = call.args[0].value if call.args else None
        if call.method.member == "advance":
            bits = arg.value if isinstance(arg, ir.IntLiteral) else None
        else:  # a header, or `_` of a header type: its fixed part (a varbit's size is whole bytes)
            bits = t.packet_width(arg.type) if arg is not None else None
        moves.append((bits, call.loc))
    return moves


def _deparser_moves(control: ir.Control) -> list[tuple]:
    """The bits each header `control` emits takes (None: a varbit, known only when it runs)."""
    return [(bits, call.loc) for call in _packet_calls(control, "packet_out", ("emit",))
            for bits in _header_widths(call.args[0].value.type)]


def _header_widths(typ: t.Type) -> list[Optional[int]]:
    """The widths of the headers an `emit` of `typ` writes, in order; None for one with a varbit."""
    if isinstance(typ, t.Stack):
        return _header_widths(typ.element)
    if isinstance(typ, t.StructLike) and typ.kind == "header":
        return [None if any(isinstance(f.type, t.Varbit) for f in typ.fields) else t.packet_width(typ)]
    if isinstance(typ, t.StructLike):
        return [w for f in typ.fields for w in _header_widths(f.type)]
    return [None]
