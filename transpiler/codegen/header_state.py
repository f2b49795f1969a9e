"""The headers' state at the start of each packet, without zeroing the whole struct.

Every header starts invalid with its fields zero.  Zeroing the whole headers struct for every
packet writes the bytes of the headers the parser is about to extract, and a struct of that
size is a `rep stos`.  Instead the pipeline calls two generated functions: `reset` before the
parser marks each header invalid (and zeroes the stacks' `_next` and anything in the struct
that is not a header); `clear_invalid` after it zeroes the headers the parser left invalid, so
that the controls read zeros from every header the packet does not have, as before.  Only the
parser itself could see an earlier packet's values: in a header it reads before extracting it,
whose value the P4 specification leaves unspecified.  A header is zeroed by assigning it a zero
value, not with memset: the traffic manager keeps the headers in a local whose fields the compiler
holds in registers only while no call takes its address (p4odp_runtime.h).
"""

from __future__ import annotations

from p4odp import types as t
from p4odp.transpiler.codegen._types import tuple_struct
from p4odp.transpiler.ctypes_map import c_ident

__all__ = ["header_state"]


def header_state(typ: t.Type, path: str) -> tuple[list[str], list[str]]:
    """The C statements of `reset` and of `clear_invalid` for the headers value of type `typ` at
    the C lvalue `path`."""
    reset: list[str] = []
    clear: list[str] = []
    _walk(typ, path, reset, clear)
    return reset, clear


def _walk(typ: t.Type, path: str, reset: list[str], clear: list[str]) -> None:
    if isinstance(typ, t.TupleT):
        typ = tuple_struct(typ)
    if isinstance(typ, t.StructLike) and typ.kind == "header":
        reset.append(f"{path}._valid = 0;")
        clear.append(f"if (!{path}._valid) {path} = (__typeof__({path})){{0}};")
    elif isinstance(typ, t.StructLike):  # a struct or a header union: its members one by one
        for f in typ.fields:
            _walk(f.type, f"{path}.{c_ident(f.name)}", reset, clear)
    elif isinstance(typ, t.Stack):
        element_reset: list[str] = []
        element_clear: list[str] = []
        _walk(typ.element, f"{path}.e[i]", element_reset, element_clear)
        reset.append(f"{path}._next = 0;")
        for lines, element in ((reset, element_reset), (clear, element_clear)):
            lines.append(f"for (uint32_t i = 0; i <= {typ.size}; i++) {{  /* e[size]: see the stack's struct */")
            lines.extend("\t" + line for line in element)
            lines.append("}")
    else:  # not in a header: nothing writes it before the program reads it
        reset.append(f"memset(&{path}, 0, sizeof {path});")
