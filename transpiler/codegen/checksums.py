"""csum16 (RFC 1071) over a list of fields: the C that adds up their 16-bit words.

The words are the fields written one after the other as big-endian bits.  Where the
deparse-in-place plan puts the fields' header at a fixed place in the packet, the words of
fields nothing writes are those of the packet's own bytes there, and adding the bytes (a few
native loads) costs a fraction of loading, shifting and masking each field; the other words
come from the field values.  An IPv4 header checksum then reads 16 of its 18 bytes from the
packet and builds one word (TTL and protocol) from fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Unsupported
from p4odp.transpiler.passes._walk import member_path

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext

__all__ = ["csum16_sum"]


def csum16_sum(ctx: FunctionContext, elements: list) -> str:
    """Emit the sum of the elements' words (to be folded by p4odp_csum16_finish); return the C
    variable or expression holding it."""
    if not all(isinstance(t.bit_width(e.type), int) and 0 < t.bit_width(e.type) <= 64 for e in elements):
        return _buffer_sum(ctx, elements)
    packet = _packet_layout(ctx, elements)
    if packet is None:
        return _field_words_sum(ctx, elements)
    header, runs, field_words = packet
    total = ctx.temp("sum")
    ctx.emit(f"uint32_t {total};")
    ctx.emit(f"if ({header}._valid) {{")  # its bytes are in the packet; an invalid one's fields are not
    ctx.indent += 1
    acc = ctx.temp("acc")
    ctx.emit(f"uint64_t {acc} = 0;")
    for byte, length in runs:
        ctx.emit(f"{acc} = p4odp_csum16_acc({acc}, pc->data + {byte}, {length});")
    ctx.emit(f"{total} = p4odp_csum16_fold({acc});")
    if field_words:
        values = _field_values(ctx, elements, field_words)
        for start in field_words:
            ctx.emit(f"{total} += (uint32_t)({_word(values, start)});")
    ctx.indent -= 1
    ctx.emit("} else {")
    ctx.indent += 1
    ctx.emit(f"{total} = {_field_words_sum(ctx, elements)};")
    ctx.indent -= 1
    ctx.emit("}")
    return total


@dataclass(frozen=True)
class _Placed:
    """A field of the list: where its bits start in the list's bit stream and in the packet, its
    width, and whether the program may write it (then the packet may hold an older value)."""

    stream: int
    packet: int
    width: int
    written: bool


def _packet_layout(ctx: FunctionContext, elements: list) -> Optional[tuple[str, list, list]]:
    """For fields all of one header of the deparse-in-place plan (a header of the block's
    parameters, always at the same bit of the packet): the header's C l-value, the runs of
    packet bytes (byte offset, length) whose words are words of the list, and the bit positions
    in the list of the words that must come from the field values. None when no word can be
    read from the packet."""
    plan = ctx.gen.deparse_in_place
    if plan is None:
        return None
    headers = {p.name for p in ctx.decl.params if p.type == ctx.gen.in_place_headers}
    header_path, placed, stream = None, [], 0
    for element in elements:
        root, path = member_path(element)
        if not isinstance(element, ir.Member) or not isinstance(root, ir.PathExpression) or \
                root.name not in headers or (header_path is not None and path[:-1] != header_path):
            return None
        header_path = path[:-1]
        in_place = plan.get(header_path)
        typ = element.expr.type
        if in_place is None or in_place.offset is None or not isinstance(typ, t.StructLike):
            return None
        at = in_place.offset
        for f in typ.fields:
            if f.name == element.member:
                break
            at += t.packet_width(f.type)
        width = t.bit_width(element.type)
        placed.append(_Placed(stream, at, width, element.member in in_place.written))
        stream += width
    runs, field_words = [], []
    for start in range(0, stream, 16):
        end = min(start + 16, stream)
        inside = [p for p in placed if p.stream < end and p.stream + p.width > start]
        shift = {p.packet - p.stream for p in inside}  # one value: the word's bits are contiguous
        from_packet = not any(p.written for p in inside) and len(shift) == 1 and \
            (start + next(iter(shift))) % 8 == 0 and (end - start) % 8 == 0
        if not from_packet:
            field_words.append(start)
            continue
        byte = (start + shift.pop()) // 8
        if runs and runs[-1][0] + runs[-1][1] == byte:
            runs[-1] = (runs[-1][0], runs[-1][1] + (end - start) // 8)
        else:
            runs.append((byte, (end - start) // 8))
    if not runs:
        return None
    return ctx.lvalue(elements[0].expr).c, runs, field_words


def _field_values(ctx: FunctionContext, elements: list, words: Optional[list] = None) -> list:
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
