"""csum16 (RFC 1071) over a list of fields: the C that adds up their 16-bit words.

The words are the fields written one after the other as big-endian bits.  Where the
deparse-in-place plan puts the fields' header at a fixed place in the packet, the words of
fields nothing writes are those of the packet's own bytes there (passes/_csum16_words.py), and
adding the bytes (a few native loads) costs a fraction of loading, shifting and masking each
field; the other words come from the field values.  An IPv4 header checksum then reads 16 of
its 18 bytes from the packet and builds one word (TTL and protocol) from fields.

The sum of such runs of bytes is kept in the packet's context (pc->csum_runs): a checksum of the
same bytes later in the pipeline, as the update of the header a verify checked, adds it again
without reading them.  The bytes are those the packet was received with until the deparser writes
them, after the last checksum.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from p4odp import types as t
from p4odp.diagnostics import Unsupported
from p4odp.transpiler.passes._csum16_words import csum16_words

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext

__all__ = ["csum16_sum"]

CSUM_RUNS = 4  # P4ODP_CSUM_RUNS: the sums struct p4odp_pctx keeps


def csum16_sum(ctx: FunctionContext, elements: list) -> str:
    """Emit the sum of the elements' words (to be folded by p4odp_csum16_finish); return the C
    variable or expression holding it."""
    if not all(isinstance(t.bit_width(e.type), int) and 0 < t.bit_width(e.type) <= 64 for e in elements):
        return _buffer_sum(ctx, elements)
    headers = {p.name for p in ctx.decl.params if p.type == ctx.gen.in_place_headers}
    words = csum16_words(ctx.gen.deparse_in_place, headers, elements)
    if words is None:
        return _field_words_sum(ctx, elements)
    header = ctx.lvalue(words.header).c
    total = ctx.temp("sum")
    ctx.emit(f"uint32_t {total};")
    ctx.emit(f"if ({header}._valid) {{")  # its bytes are in the packet; an invalid one's fields are not
    ctx.indent += 1
    _runs_sum(ctx, words.runs, total)
    if words.field_words:
        values = _field_values(ctx, elements, words.field_words)
        for start in words.field_words:
            ctx.emit(f"{total} += (uint32_t)({_word(values, start)});")
    ctx.indent -= 1
    ctx.emit("} else {")
    ctx.indent += 1
    ctx.emit(f"{total} = {_field_words_sum(ctx, elements)};")
    ctx.indent -= 1
    ctx.emit("}")
    return total


def _runs_sum(ctx: FunctionContext, runs: tuple, total: str) -> None:
    """Set `total` to the folded sum of the packet's bytes in `runs`: the one an earlier checksum
    kept, or a new one, kept for a later checksum (while pc->csum_runs has room)."""
    known = ctx.gen.csum_runs
    if runs not in known and len(known) < CSUM_RUNS:
        known.append(runs)
    index = known.index(runs) if runs in known else None
    if index is not None:
        ctx.emit(f"if (pc->csum_known & {1 << index:#x}) {{")
        ctx.emit(f"	{total} = pc->csum_runs[{index}];")
        ctx.emit("} else {")
        ctx.indent += 1
    acc = ctx.temp("acc")
    ctx.emit(f"uint64_t {acc} = 0;")
    for byte, length in runs:
        ctx.emit(f"{acc} = p4odp_csum16_acc({acc}, pc->data + {byte}, {length});")
    ctx.emit(f"{total} = p4odp_csum16_fold({acc});")
    if index is not None:
        ctx.emit(f"pc->csum_runs[{index}] = {total};")
        ctx.emit(f"pc->csum_known |= {1 << index:#x};")
        ctx.indent -= 1
        ctx.emit("}")


def _field_values(ctx: FunctionContext, elements: list, words: Optional[tuple] = None) -> list:
    """The value of each field of the words at the bit positions `words` (default: all) in a
    temporary, masked to its width: (variable, bit in the list, width), for those fields only."""
    values, position = [], 0
    for element in elements:
        width = t.bit_width(element.type)
        if words is None or any(start < position + width and position < start + 16 for start in words):
            value = ctx.temp("f")
            ctx.emit(f"uint64_t {value} = (uint64_t)({ctx.value(element)}) & UINT64_C({(1 << width) - 1:#x});")
            values.append((value, position, width))
        position += width
    return values


def _word(values: list, start: int) -> str:
    """The big-endian 16-bit word at bit `start` of the list, from the values (shifted and masked
    where it holds parts of several; the last word padded with zeros)."""
    parts = []
    for value, at, width in values:
        low, high = max(at, start), min(at + width, start + 16)  # its bits in this word, [low, high)
        if low >= high:
            continue
        part = f"({value} >> {at + width - high})" if at + width > high else value
        if high - low < width:
            part = f"({part} & {(1 << (high - low)) - 1:#x})"
        parts.append(f"({part} << {start + 16 - high})" if start + 16 > high else part)
    return " | ".join(parts)


def _field_words_sum(ctx: FunctionContext, elements: list) -> str:
    """The sum of the words from the field values, without writing them into bytes first: the
    sum p4odp_csum16_add would make of those bytes."""
    values = _field_values(ctx, elements)
    total = ctx.temp("sum")
    ctx.emit(f"uint32_t {total} = 0;")
    for start in range(0, sum(t.bit_width(e.type) for e in elements), 16):
        ctx.emit(f"{total} += (uint32_t)({_word(values, start)});")
    return total


def _buffer_sum(ctx: FunctionContext, elements: list) -> str:
    """The sum of the fields written one after the other into bytes (varbits, fields wider than 64
    bits), as p4odp_csum16_add makes it."""
    most = sum(t.bit_width(e.type) or (e.type.width if isinstance(e.type, t.Varbit) else 0) for e in elements)
    buf, bits = ctx.temp("ck"), ctx.temp("bits")
    ctx.emit(f"uint8_t {buf}[{max((most + 7) // 8, 1)}] = {{0}};")
    ctx.emit(f"uint32_t {bits} = 0;")
    for element in elements:
        width = t.bit_width(element.type)
        if isinstance(element.type, t.Varbit):
            member = ctx.lvalue(element).c
            ctx.emit(f"p4odp_copy_bits({buf}, {bits}, {member}.b, 0, {member}.len); {bits} += {member}.len;")
        elif width is None:
            raise Unsupported(element.loc, f"checksum data of type {element.type}")
        else:
            ctx.store_value(buf, bits, element)
            ctx.emit(f"{bits} += {width};")
    return f"p4odp_csum16_add(0, {buf}, ({bits} + 7) / 8)"
