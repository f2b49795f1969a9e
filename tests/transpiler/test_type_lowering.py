"""type-lowering: each scalar type's C representation, chosen once, used by the C generator."""

from __future__ import annotations

from pathlib import Path

from midend_snippets import load, run, v1model

from p4odp import types as t
from p4odp.cli import main
from p4odp.transpiler.ctypes_map import CType
from p4odp.transpiler.passes import TypeLowering


def lowered(tmp_path: Path, body: str = "", locals: str = "", globals: str = ""):
    program = load(tmp_path, v1model(body, locals, globals))
    result = run(program, [TypeLowering()])
    assert result.program is program  # the choice is a side table
    return result.c_types, result.reports


def test_the_narrowest_integer_up_to_64_bits_and_bytes_beyond(tmp_path: Path):
    types, reports = lowered(tmp_path, "x = (bit<9>) hdr.h.a; y = (int<33>) hdr.h.s; z = (bit<65>) hdr.h.w;",
                             "bit<9> x; int<33> y; bit<65> z; bit<128> wide;")
    assert types[t.Bits(9)] == CType("uint16_t")
    assert types[t.Bits(33, signed=True)] == CType("int64_t")
    assert types[t.Bits(65)] == CType("uint8_t", "[9]")
    assert types[t.Bits(128)] == CType("uint8_t", "[16]")
    assert "type-lowering: bit<9>: uint16_t, computed in 64 bits and wrapped to 9" in reports
    assert "type-lowering: bit<128>: uint8_t[16], network order, computed by the p4odp_wide_* helpers" in reports


def test_types_inside_structs_stacks_tuples_and_extern_arguments(tmp_path: Path):
    types, _ = lowered(tmp_path, "r.write(0, 1);", """
        register<bit<20>>(4) r;
        tuple<bit<3>, int<7>> pair;
        stack_t s;
    """, """
        header e_t { bit<5> f; }
        struct stack_t { e_t[2] es; bit<6> n; }
        enum bit<12> Kind { A = 1 }
        struct k_t { Kind k; }
    """)
    for typ in (t.Bits(20), t.Bits(3), t.Bits(7, signed=True), t.Bits(5), t.Bits(6)):
        assert typ in types, typ


def test_the_generator_needs_the_pass(tmp_path: Path, capsys):
    source = tmp_path / "prog.p4"
    source.write_text(v1model("hdr.h.a = 1;"))
    assert main(["compile", str(source), "--emit", "c", "-o", str(tmp_path / "c"), "--skip-pass", "type-lowering"]) == 1
    assert "(the type-lowering pass did not run)" in capsys.readouterr().err
