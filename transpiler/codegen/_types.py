"""P4 types as the generator's modules see them: widths in packets and keys, tuples as structs."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t

__all__ = ["tuple_struct", "packet_width", "is_union", "type_name"]


def tuple_struct(typ: t.TupleT) -> t.StructLike:
    """A tuple as C sees it: a struct of members f0, f1, ..."""
    return t.StructLike("struct", str(typ), tuple(t.Field(f"f{i}", e) for i, e in enumerate(typ.elements)))


def packet_width(typ: t.Type) -> Optional[int]:
    """The bits a value of `typ` takes in a packet (a struct's fields one after the other; a varbit
    field none, as its size is known only when parsing); None when it cannot be in a packet."""
    if isinstance(typ, t.StructLike):
        widths = [packet_width(f.type) for f in typ.fields]
        return None if None in widths else sum(widths)
    if isinstance(typ, t.Varbit):
        return 0
    return t.bit_width(typ)


def is_union(typ: t.Type) -> bool:
    return isinstance(typ, t.StructLike) and typ.kind == "header_union"


def type_name(ref: ir.TypeRef) -> str:
    if isinstance(ref, ir.TypeName):
        return ref.name
    if isinstance(ref, ir.SpecializedType):
        return ref.base.name
    return "?"
