"""type-lowering: the C representation of every scalar P4 type the program uses.

The choice is recorded in `PassResult.c_types` (semantic type -> `CType`), a
side table the C generator declares all storage with; the IR is returned
unchanged.  The rules are those of `ctypes_map.c_type`:

| P4 type                        | C storage                        | computed as                      |
| ------------------------------ | -------------------------------- | -------------------------------- |
| `bit<W>`, `int<W>`, W <= 64    | the narrowest `uintN_t`/`intN_t` | 64-bit integers, wrapped to W    |
|                                |                                  | after each operation             |
| `bit<W>`, `int<W>`, W > 64     | `uint8_t[ceil(W/8)]`, network    | byte arrays (`p4odp_wide_*`)     |
|                                | order                            |                                  |
| `bool`                         | `bool`                           |                                  |
| `error`, `match_kind`, enums   | `uint32_t` (serializable enums:  |                                  |
|                                | their underlying type)           |                                  |

Structs, headers, unions, stacks and varbits become C structs of these
(ctypes_map.py names them).  The verbose report gives each type's choice.
"""

from __future__ import annotations

from typing import Iterator

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.ctypes_map import CType, c_type, is_wide
from p4odp.transpiler.passes._walk import walk
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["TypeLowering"]

_SCALARS = (t.Bits, t.Bool, t.ErrorT, t.MatchKindT, t.EnumT, t.NewTypeT)


class TypeLowering:
    name = "type-lowering"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        lowered = ctx.result.c_types
        for node in walk(program):
            typ = getattr(node, "type", None)
            if not isinstance(typ, t.Type):
                continue
            for scalar in _scalars(typ, set()):
                if scalar not in lowered:
                    lowered[scalar] = c_type(scalar)
                    ctx.report(f"{scalar}: {_describe(scalar, lowered[scalar])}")
        return program


def _scalars(typ: t.Type, seen: set) -> Iterator[t.Type]:
    """The scalar types in `typ`: itself, or those of its fields, elements and type arguments."""
    if typ in seen:
        return
    seen.add(typ)
    if isinstance(typ, _SCALARS):
        yield typ
    elif isinstance(typ, t.StructLike):
        for f in typ.fields:
            yield from _scalars(f.type, seen)
    elif isinstance(typ, t.Stack):
        yield from _scalars(typ.element, seen)
    elif isinstance(typ, t.TupleT):
        for element in typ.elements:
            yield from _scalars(element, seen)
    elif isinstance(typ, t.ExternT):
        for arg in typ.type_args:
            yield from _scalars(arg, seen)


def _describe(typ: t.Type, lowered: CType) -> str:
    if is_wide(typ):
        return f"{lowered.decl}{lowered.array}, network order, computed by the p4odp_wide_* helpers"
    if isinstance(typ, t.Bits):
        return f"{lowered.decl}, computed in 64 bits and wrapped to {typ.width}"
    return lowered.decl
