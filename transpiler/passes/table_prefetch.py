"""table-prefetch: the tables whose key is bytes of the packet at places the parser fixes.

A lookup in a table larger than the caches waits for memory: a DIR-24-8 slot of an
IPv4 route, a cuckoo bucket of a MAC.  When every field of a table's key is a whole
number of bytes of a header the parser reads at the same whole byte on every path, the
key of a packet can be copied from the received bytes before the pipeline runs: the
traffic manager does so for a whole burst first and starts loading what each lookup
will read (`p4odp_table_prefetch`), so that the loads overlap with the processing of the
packets before it, as DPDK's l3fwd looks up a burst at a time.  A packet without that
header (or too short for the key) only costs a useless prefetch: the lookup itself
still runs in the pipeline, on the key the program builds.  A table declared with
fewer than PREFETCH_MIN_SIZE entries stays in the caches: building its key twice
would be work for nothing; but not a DIR-24-8 of a key over 16 bits, whose first level
is 2^min(width, 24) slots whatever the table's size (l3fwd's 1,000 routes: 0.83x of
DPDK's l3fwd without the prefetch, 0.95x with it, in one run of 3 rounds).

Recorded in `PassResult.table_prefetch`: each such table's name -> its key's parts,
(byte in the key, byte in the packet, bytes).  Only the structures that load memory a
key locates are listed (cuckoo, DIR-24-8, trie): a tuple space or compiled entries gain
nothing.
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes._parser_paths import ParserPathError, header_offsets, packet_moves
from p4odp.transpiler.passes._walk import member_path, pipeline_blocks
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["TablePrefetch"]

PREFETCHED_STRUCTURES = ("cuckoo", "dir-24-8", "trie")
# Entries (the table's `size`) from which the memory its lookups touch outgrows a core's caches
# (a cuckoo bucket and an entry per key); a wide DIR-24-8 outgrows them at any size (_spread).
PREFETCH_MIN_SIZE = 1 << 16


class TablePrefetch:
    name = "table-prefetch"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        blocks = pipeline_blocks(program)
        parsers = [b for b in blocks if isinstance(b, ir.Parser)]
        headers = _headers_param(parsers[0]) if len(parsers) == 1 else None
        if headers is None:
            return program
        try:
            offsets = header_offsets(parsers[0], {s.name: packet_moves(s, headers) for s in parsers[0].states})
        except ParserPathError as err:
            ctx.report(f"no key read from the packet: {err}", err.loc)
            return program
        roots = {p.name for block in blocks for p in block.params if p.type == headers.type}
        tables = {d.name: d for block in blocks for d in block.locals if isinstance(d, ir.Table)}
        for name, layout in ctx.result.table_layouts.items():
            in_caches = layout.size < PREFETCH_MIN_SIZE and not _spread(layout)
            if layout.structure not in PREFETCHED_STRUCTURES or in_caches:
                continue
            parts = [_packet_bytes(key, roots, headers.type, offsets) for key in layout.keys]
            if layout.keys and all(part is not None for part in parts):
                ctx.result.table_prefetch[name] = tuple(parts)
                where = ", ".join(f"{n} byte{'s' if n > 1 else ''} at {at}" for _, at, n in parts)
                ctx.report(f"table {layout.name}: the key is the packet's {where}", tables[name].loc)
        return program


def _spread(layout) -> bool:
    """Whether the table's lookups read memory spread wider than the caches whatever its size: a
    DIR-24-8's first level has 2^24 slots (64 MB) for a 32-bit key."""
    return layout.structure == "dir-24-8" and sum(key.width for key in layout.keys) > 16


def _headers_param(parser: ir.Parser) -> Optional[ir.Parameter]:
    """The parameter the parser extracts headers into: its first out or inout struct holding one."""
    return next((p for p in parser.params if p.direction in ("out", "inout") and isinstance(p.type, t.StructLike)
                 and p.type.kind == "struct" and any(_is_header(f.type) for f in p.type.fields)), None)


def _is_header(typ: t.Type) -> bool:
    return isinstance(typ, t.StructLike) and typ.kind == "header"


def _packet_bytes(key, roots: set, headers_type: t.Type, offsets: dict) -> Optional[tuple]:
    """(byte in the key, byte in the packet, bytes) of a key field that is whole bytes of a header
    at a whole byte the parser always reads it at; else None."""
    expr, members = member_path(key.expr)
    if not (isinstance(expr, ir.PathExpression) and expr.name in roots) or len(members) < 2 or key.width % 8:
        return None
    header_path, field_name = tuple(members[:-1]), members[-1]
    typ = headers_type
    for member in header_path:
        found = typ.field(member) if isinstance(typ, t.StructLike) and typ.kind == "struct" else None
        typ = found.type if found is not None else None
    if not _is_header(typ) or offsets.get(header_path) is None:
        return None
    bit = offsets[header_path]
    for f in typ.fields:
        if f.name == field_name:
            return (key.bit_offset // 8, bit // 8, key.width // 8) if bit % 8 == 0 else None
        width = t.packet_width(f.type)
        if width is None:
            return None
        bit += width
    return None
