"""Type lowering: the C representation of each P4 type, and C names for P4 names.

Every `bit<W>` / `int<W>` of up to 64 bits is stored in the narrowest
unsigned/signed C integer (uint8_t ... uint64_t) and computed on in 64 bits
(see runtime/include/p4odp_bits.h for the invariants).  Wider values are byte
arrays in network order.  Headers are structs with a `_valid` flag, stacks
are arrays with a `_next` index.
"""

from __future__ import annotations

from dataclasses import dataclass

from p4odp import types as t

__all__ = ["CType", "c_type", "c_ident", "c_string", "storage_width", "bits_of", "is_wide"]

_C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum extern float for
goto if inline int long register restrict return short signed sizeof static struct switch typedef union
unsigned void volatile while bool true false _Bool main errno""".split())


def c_ident(name: str) -> str:
    """A P4 name as a C identifier that clashes with no C keyword."""
    safe = name.replace(".", "_").replace("$", "_").replace("#", "_")
    return safe + "_" if safe in _C_KEYWORDS else safe


def c_string(text: str) -> str:
    """`text` as a C string literal: printable ASCII as it is, other bytes of its UTF-8 as octal escapes."""
    out = []
    for byte in text.encode():
        char = chr(byte)
        out.append("\\" + char if char in '"\\' else char if 32 <= byte < 127 else f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


@dataclass(frozen=True)
class CType:
    """How a P4 type is declared in C: `decl` is the type, `array` an optional `[N]` suffix."""

    decl: str
    array: str = ""

    def declare(self, name: str) -> str:
        return f"{self.decl} {name}{self.array}"


def storage_width(width: int) -> int:
    for size in (8, 16, 32, 64):
        if width <= size:
            return size
    return 64


def bits_of(typ: t.Type):
    """The `bit<W>`/`int<W>` that `typ` is, seeing through `type` declarations; None for others."""
    while isinstance(typ, t.NewTypeT):
        typ = typ.base
    return typ if isinstance(typ, t.Bits) else None


def is_wide(typ: t.Type) -> bool:
    bits = bits_of(typ)
    return bits is not None and bits.width > 64


def c_type(typ: t.Type) -> CType:
    if isinstance(typ, t.Bits):
        if typ.width > 64:
            return CType("uint8_t", f"[{(typ.width + 7) // 8}]")
        return CType(f"{'int' if typ.signed else 'uint'}{storage_width(max(typ.width, 1))}_t")
    if isinstance(typ, t.Bool):
        return CType("bool")
    if isinstance(typ, (t.ErrorT, t.MatchKindT)):
        return CType("uint32_t")
    if isinstance(typ, t.EnumT):
        return c_type(typ.underlying) if typ.underlying is not None else CType("uint32_t")
    if isinstance(typ, t.NewTypeT):
        return c_type(typ.base)
    if isinstance(typ, t.StructLike):
        return CType(f"struct {struct_name(typ)}")
    if isinstance(typ, t.Stack):
        return CType(f"struct {stack_name(typ)}")
    if isinstance(typ, t.Varbit):
        return CType(f"struct p4odp_varbit_{(typ.width + 7) // 8}")
    raise NotImplementedError(f"no C representation for {typ}")


def struct_name(typ: t.StructLike) -> str:
    return "p4_" + c_ident(typ.name.replace("<", "_").replace(">", "_").replace(", ", "_").replace(" ", "_"))


def stack_name(typ: t.Stack) -> str:
    return f"{c_type(typ.element).decl.replace('struct ', '')}_stack{typ.size}"
