"""Registers whose cells are not one bit<W>: a struct of bit strings (nested, signed), bool and a
serializable enum are control-plane objects like the others: P4Runtime reads and writes their
cells as P4Data of the register's type (controlplane/register_cells.py), simple_switch_CLI's
register_read and register_write a value per field, and what one door wrote the others read."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from one_header_switch import build_switch, eventually, one_header_program
from p4runtime_client import Controller, p4runtime_switch, rejected, update

from p4odp.controlplane.channel import CommandError, SwitchChannel
from p4odp.controlplane.protos import p4data_pb2
from p4odp.controlplane.protos import p4runtime_pb2 as p4r

PROGRAM = one_header_program(
    "bit<8> idx; bit<8> a; bit<16> b;",
    globals="""\
enum bit<8> Color { RED = 1, GREEN = 2 }
struct inner_t { int<12> c; bool on; }
struct pair_t { bit<8> a; inner_t inner; bit<16> b; }""",
    ingress_locals="""\
    register<pair_t>(4) pairs;
    register<bool>(2) flags;
    register<Color>(2) colors;""",
    ingress="""\
        pairs.write((bit<32>)hdr.h.idx, { hdr.h.a, { -3, true }, hdr.h.b });
        flags.write(1, true);
        colors.write(0, Color.GREEN);""")

FRAME = bytes([2, 0x11, 0x22, 0x33]) + bytes(56)  # writes pairs[2] = (0x11, (-3, true), 0x2233)


@pytest.fixture(scope="module")
def binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("register_cells"), PROGRAM, "registers.p4")


def bits(value: int) -> p4data_pb2.P4Data:
    return p4data_pb2.P4Data(bitstring=value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big"))


def pair(a: int, c: int, on: bool, b: int) -> p4data_pb2.P4Data:
    data = p4data_pb2.P4Data()
    inner = p4data_pb2.P4Data()
    inner.struct.members.extend([bits(c), p4data_pb2.P4Data(bool=on)])
    data.struct.members.extend([bits(a), inner, bits(b)])
    return data


def cell(controller: Controller, register: str, index: int) -> p4r.RegisterEntry:
    entity = p4r.Entity()
    entity.register_entry.register_id = controller.id_of("registers", register)
    entity.register_entry.index.index = index
    return controller.read(entity)[0].register_entry


def test_p4runtime_and_the_cli_read_and_write_struct_bool_and_enum_cells(binary: Path, tmp_path: Path):
    with p4runtime_switch(binary, tmp_path, (FRAME,)) as target:
        controller = Controller(target, election_id=1)
        controller.arbitrate()
        # What the packets wrote: int<12> -3 as its 12-bit pattern.
        assert eventually(lambda: cell(controller, "pairs", 2).data == pair(0x11, 0xffd, True, 0x2233))
        assert cell(controller, "flags", 1).data == p4data_pb2.P4Data(bool=True)
        assert cell(controller, "colors", 0).data == p4data_pb2.P4Data(enum_value=b"\x02")
        # Written through P4Runtime, read through the CLI, a value per leaf field.
        entity = p4r.Entity()
        entity.register_entry.register_id = controller.id_of("registers", "pairs")
        entity.register_entry.index.index = 0
        entity.register_entry.data.CopyFrom(pair(7, 5, False, 0x1234))
        controller.write(update(p4r.Update.MODIFY, entity))
        with SwitchChannel(f"unix:{tmp_path / 'control.sock'}") as switch:
            assert switch.command("register_read pairs 0") == "pairs[0]= 7, 5, 0, 4660\n"
            switch.command("register_write pairs 3 9 -1 1 65535")
            with pytest.raises(CommandError, match="takes 4 value"):
                switch.command("register_write pairs 3 9")
            with pytest.raises(CommandError):
                switch.command("register_write pairs 3 9 4096 1 1")  # 4096 does not fit in 12 bits
        assert cell(controller, "pairs", 3).data == pair(9, 0xfff, True, 0xffff)
        # Every register in a wildcard read, struct cells included.
        wildcard = controller.read(p4r.Entity(register_entry=p4r.RegisterEntry()))
        assert {e.register_entry.register_id for e in wildcard} == \
            {controller.id_of("registers", name) for name in ("pairs", "flags", "colors")}
        # P4Data of another shape is refused and changes nothing.
        entity.register_entry.data.CopyFrom(bits(7))
        code, details = rejected(lambda: controller.write(update(p4r.Update.MODIFY, entity)))
        assert details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "struct pair_t" in details[0][1]
        entity.register_entry.data.CopyFrom(pair(7, 1 << 12, False, 0))
        code, details = rejected(lambda: controller.write(update(p4r.Update.MODIFY, entity)))
        assert details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "member c" in details[0][1]
        assert cell(controller, "pairs", 0).data == pair(7, 5, False, 0x1234)
        controller.close()
