"""P4 types as the generator's modules see them: tuples as structs, unions, type names."""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t

__all__ = ["tuple_struct", "is_union", "type_name"]


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
