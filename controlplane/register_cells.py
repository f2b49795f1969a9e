"""A register cell as P4Runtime has it (P4Data of the register's type_spec) and as the switch's API
has it (runtime/include/p4odp_runtime.h, struct p4odp_register_info): a bit string's value in its
whole bytes, or a struct's leaves one after another, each so, in P4Info's order of the members."""

from __future__ import annotations

from typing import Callable

from p4odp.controlplane.bytestrings import canonical
from p4odp.controlplane.protos import p4data_pb2, p4info_pb2

__all__ = ["CellLayout", "UnsupportedCell", "BadCell"]


class UnsupportedCell(Exception):
    """A register of a type the switch's control plane does not read or write."""


class BadCell(Exception):
    """P4Data that is not a value of the register's type."""


class CellLayout:
    """The leaves of a register's cells: (P4Data field, width) each, with the struct nesting
    around them."""

    def __init__(self, info: p4info_pb2.P4Info, spec) -> None:
        self.info = info
        self.spec = spec
        self.widths = [width for _, width in self._leaves(spec)]

    @property
    def nbytes(self) -> int:
        return sum((width + 7) // 8 for width in self.widths)

    def _leaves(self, spec) -> list:
        kind = spec.WhichOneof("type_spec")
        if kind == "bitstring":
            bits = spec.bitstring.WhichOneof("type_spec")
            if bits in ("bit", "int"):
                return [("bitstring", getattr(spec.bitstring, bits).bitwidth)]
        if kind == "bool":
            return [("bool", 1)]
        if kind == "serializable_enum":
            return [("enum_value", self.info.type_info.serializable_enums[spec.serializable_enum.name]
                     .underlying_type.bitwidth)]
        if kind == "struct":
            members = self.info.type_info.structs[spec.struct.name].members
            return [leaf for member in members for leaf in self._leaves(member.type_spec)]
        raise UnsupportedCell(f"cells of {kind} {getattr(spec, kind).name if kind else ''}".strip())

    def data(self, raw: bytes) -> p4data_pb2.P4Data:
        """The P4Data of a cell the switch read (`nbytes` bytes)."""
        values = iter(_split(raw, self.widths))
        return self._data(self.spec, values)

    def _data(self, spec, values) -> p4data_pb2.P4Data:
        kind = spec.WhichOneof("type_spec")
        if kind == "struct":
            data = p4data_pb2.P4Data()
            for member in self.info.type_info.structs[spec.struct.name].members:
                data.struct.members.append(self._data(member.type_spec, values))
            return data
        value = next(values)
        if kind == "bool":
            return p4data_pb2.P4Data(bool=bool(value))
        if kind == "serializable_enum":
            return p4data_pb2.P4Data(enum_value=canonical(value))
        return p4data_pb2.P4Data(bitstring=canonical(value))

    def raw(self, data: p4data_pb2.P4Data, number: Callable[[bytes, int, str], int]) -> bytes:
        """The switch's bytes of a cell written as `data`; BadCell when it is not of the register's
        type.  `number(bytes, width, what)` checks a byte string's value fits in `width` bits."""
        out: list[bytes] = []
        self._raw(self.spec, data, number, out, "the cell")
        return b"".join(out)

    def _raw(self, spec, data, number, out: list, where: str) -> None:
        kind = spec.WhichOneof("type_spec")
        given = data.WhichOneof("data")
        if kind == "struct":
            members = self.info.type_info.structs[spec.struct.name].members
            if given != "struct" or len(data.struct.members) != len(members):
                raise BadCell(f"{where} is a struct {spec.struct.name} of {len(members)} members")
            for member, value in zip(members, data.struct.members):
                self._raw(member.type_spec, value, number, out, f"member {member.name}")
            return
        (_, width), = self._leaves(spec)
        if kind == "bool":
            if given != "bool":
                raise BadCell(f"{where} is a bool")
            out.append(bytes([data.bool]))
            return
        field = "enum_value" if kind == "serializable_enum" else "bitstring"
        if given != field:
            raise BadCell(f"{where} is a {field}")
        out.append(number(getattr(data, field), width, where).to_bytes((width + 7) // 8, "big"))


def _split(raw: bytes, widths: list[int]) -> list[int]:
    values, at = [], 0
    for width in widths:
        n = (width + 7) // 8
        values.append(int.from_bytes(raw[at:at + n], "big"))
        at += n
    return values
