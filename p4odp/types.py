"""Semantic types: what the type checker computes and stores in `Expression.type`.

Unlike the syntax types of `p4odp.ir` (types as written), these are types
as meant: typedefs are gone, widths are numbers, named types carry their
fields.  Named types compare by kind and name; the rest compare by value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = [
    "Type", "Bits", "Varbit", "Bool", "String", "InfInt", "Void", "ErrorT", "MatchKindT", "Unknown",
    "Field", "StructLike", "EnumT", "NewTypeT", "Stack", "TupleT", "ListT", "TypeVar", "ExternT",
    "ObjectT", "TableT", "ApplyResult", "ActionEnum", "ActionT", "StateT", "SetT", "StructLiteral",
    "InvalidT", "TypeT", "CallableT", "Signature", "Param", "DontCareT", "bit_width", "packet_width",
]

typ = dataclass(frozen=True, slots=True)


@typ
class Type:
    def __str__(self) -> str:
        return type(self).__name__


@typ
class Bits(Type):
    width: int
    signed: bool = False

    def __str__(self) -> str:
        return f"{'int' if self.signed else 'bit'}<{self.width}>"


@typ
class Varbit(Type):
    width: int

    def __str__(self) -> str:
        return f"varbit<{self.width}>"


@typ
class Bool(Type):
    def __str__(self) -> str:
        return "bool"


@typ
class String(Type):
    def __str__(self) -> str:
        return "string"


@typ
class InfInt(Type):
    """The type of integers of unbounded width: untyped literals and `int` constants."""

    def __str__(self) -> str:
        return "int"


@typ
class Void(Type):
    def __str__(self) -> str:
        return "void"


@typ
class ErrorT(Type):
    def __str__(self) -> str:
        return "error"


@typ
class MatchKindT(Type):
    def __str__(self) -> str:
        return "match_kind"


@typ
class DontCareT(Type):
    """`_`: a type argument left to inference."""

    def __str__(self) -> str:
        return "_"


@typ
class Unknown(Type):
    """The type of an expression whose error was already reported: silences follow-on errors."""

    def __str__(self) -> str:
        return "<unknown>"


@typ
class Field:
    name: str
    type: Type


@typ
class StructLike(Type):
    """A struct, header or header_union (`kind`)."""

    kind: str
    name: str
    fields: tuple = field(compare=False, default=())
    generic: Optional[tuple] = field(compare=False, default=None)  # (name, type arguments) when specialized

    def field(self, name: str) -> Optional[Field]:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


@typ
class EnumT(Type):
    """An enum; `underlying` is a `Bits` for a serializable enum."""

    name: str
    members: tuple = field(compare=False, default=())
    underlying: Optional[Type] = field(compare=False, default=None)

    def __str__(self) -> str:
        return f"enum {self.name}"


@typ
class NewTypeT(Type):
    name: str
    base: Type = field(compare=False, default=None)

    def __str__(self) -> str:
        return self.name


@typ
class Stack(Type):
    element: Type
    size: int

    def __str__(self) -> str:
        return f"{self.element}[{self.size}]"


@typ
class TupleT(Type):
    elements: tuple

    def __str__(self) -> str:
        return f"tuple<{', '.join(map(str, self.elements))}>"


@typ
class ListT(Type):
    element: Type

    def __str__(self) -> str:
        return f"list<{self.element}>"


@typ
class TypeVar(Type):
    """A type parameter; `owner` tells apart parameters of the same name."""

    name: str
    owner: int = 0

    def __str__(self) -> str:
        return self.name


@typ
class Param:
    name: str
    direction: str
    type: Type
    has_default: bool = False
    optional: bool = False


@typ
class Signature:
    """One callable form: a method, function, action or constructor."""

    name: str
    type_params: tuple  # tuple[TypeVar, ...]
    params: tuple  # tuple[Param, ...]
    returns: Type
    kind: str = "method"  # "method", "function", "action", "constructor", "builtin"
    decl: Any = field(compare=False, default=None)


@typ
class ExternT(Type):
    name: str
    type_args: tuple = ()
    decl: Any = field(compare=False, default=None)

    def __str__(self) -> str:
        args = f"<{', '.join(map(str, self.type_args))}>" if self.type_args else ""
        return f"extern {self.name}{args}"


@typ
class ObjectT(Type):
    """A parser, control or package type (`kind`), declared or specialized."""

    kind: str
    name: str
    type_args: tuple = ()
    decl: Any = field(compare=False, default=None)
    apply: Optional[Signature] = field(compare=False, default=None)

    def __str__(self) -> str:
        args = f"<{', '.join(map(str, self.type_args))}>" if self.type_args else ""
        return f"{self.kind} {self.name}{args}"


@typ
class TableT(Type):
    name: str
    decl: Any = field(compare=False, default=None)

    def __str__(self) -> str:
        return f"table {self.name}"


@typ
class ApplyResult(Type):
    """What `t.apply()` returns: `.hit`, `.miss`, `.action_run`."""

    table: str
    actions: tuple = field(compare=False, default=())

    def __str__(self) -> str:
        return f"apply result of {self.table}"


@typ
class ActionEnum(Type):
    table: str
    actions: tuple = field(compare=False, default=())

    def __str__(self) -> str:
        return f"action_list({self.table})"


@typ
class ActionT(Type):
    name: str
    decl: Any = field(compare=False, default=None)

    def __str__(self) -> str:
        return f"action {self.name}"


@typ
class StateT(Type):
    def __str__(self) -> str:
        return "state"


@typ
class SetT(Type):
    """A keyset: masks, ranges and value sets."""

    element: Type

    def __str__(self) -> str:
        return f"set<{self.element}>"


@typ
class StructLiteral(Type):
    """The type of `{a = 1, b = 2}` before it meets a declared struct type."""

    fields: tuple  # tuple[Field, ...]

    def __str__(self) -> str:
        return "{" + ", ".join(f"{f.name}: {f.type}" for f in self.fields) + "}"


@typ
class InvalidT(Type):
    """The type of `{#}`: an invalid header or header union."""

    def __str__(self) -> str:
        return "{#}"


@typ
class TypeT(Type):
    """A type used as a value: `E` in `E.A`, `error`, `bit<8>` in `sizeInBits`."""

    of: Type

    def __str__(self) -> str:
        return f"type {self.of}"


@typ
class CallableT(Type):
    """Something callable with its candidate signatures (overloads)."""

    name: str
    signatures: tuple

    def __str__(self) -> str:
        return f"{self.name}(...)"


def bit_width(typ: Type) -> Optional[int]:
    """The bits of a value of `typ` as a bit string (bool 1, error 32, a serializable enum or a
    new type its base's); None for the other types."""
    if isinstance(typ, Bits):
        return typ.width
    if isinstance(typ, Bool):
        return 1
    if isinstance(typ, EnumT) and isinstance(typ.underlying, Bits):
        return typ.underlying.width
    if isinstance(typ, NewTypeT):
        return bit_width(typ.base)
    if isinstance(typ, ErrorT):
        return 32
    return None


def is_signed(typ: Type) -> bool:
    """Whether the bit string of a value of `typ` (bit_width) is an int<W>'s: a control plane may
    give it as a negative number."""
    if isinstance(typ, NewTypeT):
        return is_signed(typ.base)
    if isinstance(typ, EnumT):
        return is_signed(typ.underlying)
    return isinstance(typ, Bits) and typ.signed


def is_bits_array(typ: Type) -> bool:
    """An array of values that are not headers, unions or structs (`bit<8>[16]`), as a header field
    may be: its elements one after the other in the packet."""
    return isinstance(typ, Stack) and not isinstance(typ.element, StructLike)


def packet_width(typ: Type) -> Optional[int]:
    """The bits a value of `typ` takes in a packet (a struct's fields one after the other, an
    array's or a header stack's elements; a varbit field none, as its size is known only when
    parsing); None when it cannot be in a packet."""
    if isinstance(typ, StructLike):
        widths = [packet_width(f.type) for f in typ.fields]
        return None if None in widths else sum(widths)
    if is_bits_array(typ) or isinstance(typ, Stack):  # elements one after the other
        element = packet_width(typ.element)
        return None if element is None else typ.size * element
    if isinstance(typ, Varbit):
        return 0
    return bit_width(typ)
