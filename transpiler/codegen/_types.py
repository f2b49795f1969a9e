"""P4 types as the generator's modules see them: tuples as structs, unions, type names."""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t

__all__ = ["tuple_struct", "is_union", "type_name", "value_set_widths"]


def tuple_struct(typ: t.TupleT) -> t.StructLike:
    """A tuple as C sees it: a struct of members f0, f1, ..."""
    return t.StructLike("struct", str(typ), tuple(t.Field(f"f{i}", e) for i, e in enumerate(typ.elements)))


def is_union(typ: t.Type) -> bool:
    return isinstance(typ, t.StructLike) and typ.kind == "header_union"


def type_name(ref: ir.TypeRef) -> str:
    if isinstance(ref, ir.TypeName):
        return ref.name
    if isinstance(ref, ir.SpecializedType):
        return ref.base.name
    return "?"


def value_set_widths(element: t.Type) -> list:
    """The widths of a value set's values, one per select key: a bit<W>'s or a serializable enum's,
    or each field's of a struct of them, a struct's fields in place of a struct in it (as p4c
    flattens them for BMv2); empty for any other element type."""
    if isinstance(element, t.StructLike) and element.kind == "struct":
        widths = [value_set_widths(f.type) for f in element.fields]
        return [w for field in widths for w in field] if widths and all(widths) else []
    if isinstance(element, t.Bits) or isinstance(element, t.EnumT) and element.underlying is not None:
        return [t.bit_width(element)]
    return []
