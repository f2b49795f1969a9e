"""Which 16-bit words of a csum16 field list are bytes of the packet (deparse-in-place headers).

A csum16 sums the fields of a list as big-endian 16-bit words.  When the fields are all of one
header the deparse-in-place plan puts at a fixed bit of the packet, a word made only of fields
nothing writes is two bytes of the packet as the parser found them (the plan proves nothing
changes which headers are valid, so a valid header is the one extracted there).  The C generator
adds those bytes (checksums.py); unread-fields leaves their fields unloaded, since nothing takes
their values: when the header is invalid the sum falls back to the field values, and an invalid
header was never extracted, so those fields hold the zeros the pipeline put there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes._walk import member_path

__all__ = ["Csum16Words", "csum16_words"]


@dataclass(frozen=True)
class Csum16Words:
    """A field list whose words are partly packet bytes: the header holding its fields, the runs
    of packet bytes (byte offset, length) that are words of the list, the bit positions in the list
    of the words to build from field values, and the indices of the fields no such word holds."""

    header: ir.Expression
    runs: tuple
    field_words: tuple
    from_packet_only: frozenset


@dataclass(frozen=True)
class _Placed:
    """A field of the list: where its bits start in the list's bit stream and in the packet, its
    width, and whether the program may write it (then the packet may hold an older value)."""

    stream: int
    packet: int
    width: int
    written: bool


def csum16_words(plan: Optional[dict], header_params: set, elements: list) -> Optional[Csum16Words]:
    """The packet words of `elements` when they are fields of one header of the deparse-in-place
    `plan`, reached through a block parameter named in `header_params` (the headers struct; a
    local copy is not the packet).  None when no word of the list is packet bytes."""
    if plan is None or not elements:
        return None
    header_path, placed, stream = None, [], 0
    for element in elements:
        root, path = member_path(element)
        if not isinstance(element, ir.Member) or not isinstance(root, ir.PathExpression) or \
                root.name not in header_params or (header_path is not None and path[:-1] != header_path):
            return None
        header_path = path[:-1]
        in_place = plan.get(header_path)
        typ = element.expr.type
        width = t.bit_width(element.type)
        if in_place is None or in_place.offset is None or not isinstance(typ, t.StructLike) or \
                not isinstance(width, int) or not 0 < width <= 64:
            return None
        at = in_place.offset
        for f in typ.fields:
            if f.name == element.member:
                break
            at += t.packet_width(f.type)
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
    from_packet_only = frozenset(i for i, p in enumerate(placed)
                                 if not any(p.stream < start + 16 and start < p.stream + p.width
                                            for start in field_words))
    return Csum16Words(elements[0].expr, tuple(runs), tuple(field_words), from_packet_only)
