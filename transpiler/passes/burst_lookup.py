"""burst-lookup: the tables whose key is bytes of the packet at places the parser fixes.

When every field of a table's key is a whole number of bytes of a header the parser reads at
the same whole byte on every path, the key of a packet can be copied from the received bytes
before the pipeline runs: the traffic manager then looks a whole burst's keys up at once
(`p4_lookup_burst`, the table library's burst lookups), the memory each lookup reads on its
way to the cache for all of them before any is read, as DPDK's l3fwd looks up a burst at a
time; the pipeline takes a packet's entry from there when the key it builds is the same (a
program may change the fields first), else looks it up itself.  A table declared with fewer
than BURST_MIN_SIZE entries stays in a core's first-level cache, where building its key twice
would be work for nothing; but not a DIR-24-8 of a key over 16 bits, whose first level is
2^min(width, 24) slots whatever the table's size.  (bench/dpdk_side_by_side.py, 7 rounds
without hugepages: l2fwd's 1,024-entry MAC table went from 0.79x of DPDK's l2fwd to 0.86x when it
was looked up by bursts, l3fwd's 1,000 routes from 1.00x of DPDK's l3fwd, their slots only
prefetched by bursts, to 1.21x.)

Recorded in `PassResult.burst_lookups`: each such table's name -> its key's parts,
(byte in the key, byte in the packet, bytes).  Only the structures whose lookups wait for
memory a key locates are listed (cuckoo, DIR-24-8, trie): a tuple space or compiled entries
gain nothing.
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes._parser_paths import ParserPathError, header_offsets, packet_moves
from p4odp.transpiler.passes._walk import applied_tables, member_path, pipeline_blocks
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["BurstLookup"]

BURST_STRUCTURES = ("cuckoo", "dir-24-8", "trie")
# Entries (the table's `size`) from which the memory its lookups touch outgrows a core's 32 KiB
# first-level data cache (some 50 bytes each: a share of a cuckoo bucket and an entry); a wide
# DIR-24-8 outgrows it at any size (_spread).
BURST_MIN_SIZE = 512


class BurstLookup:
    name = "burst-lookup"

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
        # Not a table the switch keeps for the control plane alone (dead-code): it is never looked up.
        applied = {name for block in blocks if isinstance(block, ir.Control) for name in applied_tables(block)}
        for name, layout in ctx.result.table_layouts.items():
            in_caches = layout.size < BURST_MIN_SIZE and not _spread(layout)
            if layout.structure not in BURST_STRUCTURES or in_caches or name not in applied:
                continue
            parts = [_packet_bytes(key, roots, headers.type, offsets) for key in layout.keys]
            if layout.keys and all(part is not None for part in parts):
                ctx.result.burst_lookups[name] = tuple(parts)
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
