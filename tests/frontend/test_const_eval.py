"""Unit tests of `p4odp.frontend.const_eval`: compile-time values of typed expressions.

`wrap` is tested directly.  `evaluate` is run on the typed initializers of
constants declared in a snippet (see `snippets.py`), so that each expression
has the types the checker gives it; names of earlier constants are looked up
among the values computed so far.
"""

from __future__ import annotations

import pytest

from p4odp import ir
from p4odp import types as t
from p4odp.frontend.const_eval import evaluate, wrap

from snippets import accept, assert_rule, compile_p4, nodes


def values(tmp_path, src: str) -> dict:
    """The value of each constant declared in `src`, evaluated in order."""
    compiled = accept(tmp_path, src)
    found: dict = {}
    for node in nodes(compiled.program):
        if isinstance(node, ir.Constant) and node.loc.file == compiled.path:
            found[node.name] = evaluate(node.value, found.get)
    return found


# ----------------------------------------------------------------------------
# wrap


@pytest.mark.parametrize("value, typ, wrapped", [
    (256, t.Bits(8), 0),
    (-1, t.Bits(8), 255),
    (0x1FF, t.Bits(8), 0xFF),
    (127, t.Bits(8, signed=True), 127),
    (128, t.Bits(8, signed=True), -128),
    (255, t.Bits(8, signed=True), -1),
    (-129, t.Bits(8, signed=True), 127),
    (5, t.Bits(0), 0),
    (1 << 100, t.InfInt(), 1 << 100),
    (-7, t.InfInt(), -7),
])
def test_wrap(value, typ, wrapped):
    assert wrap(value, typ) == wrapped


# ----------------------------------------------------------------------------
# Arithmetic


def test_unsigned_arithmetic_wraps_around(tmp_path):
    assert values(tmp_path, """
        const bit<8> A = 8w200 + 8w100;
        const bit<8> B = 8w3 - 8w5;
        const bit<8> C = 8w0xff * 8w2;
        const bit<8> D = 8w7 / 8w2;
        const bit<8> E = 8w7 % 8w4;
        const bit<8> F = ~8w0x0f;
        const bit<8> G = -8w1;
    """) == {"A": 44, "B": 254, "C": 254, "D": 3, "E": 3, "F": 0xF0, "G": 255}


def test_signed_arithmetic_wraps_around(tmp_path):
    assert values(tmp_path, """
        const int<8> A = 8s127 + 8s1;
        const int<8> B = -8s127 - 8s2;
        const int<8> C = 8s3 * -8s50;
        const int<4> D = 4s7 + 4s1;
        const int<8> E = -(-8s127 - 8s1);
    """) == {"A": -128, "B": 127, "C": 106, "D": -8, "E": -128}


def test_saturating_arithmetic(tmp_path):
    assert values(tmp_path, """
        const bit<8> A = 8w250 |+| 8w10;
        const bit<8> B = 8w5 |-| 8w10;
        const bit<8> C = 8w5 |+| 8w10;
        const int<8> D = 8s100 |+| 8s100;
        const int<8> E = -8s100 |-| 8s100;
        const int<8> F = -8s100 |+| 8s10;
    """) == {"A": 255, "B": 0, "C": 15, "D": 127, "E": -128, "F": -90}


def test_untyped_integers_have_arbitrary_precision(tmp_path):
    assert values(tmp_path, """
        const int A = 1 << 100;
        const int B = 7 % 3;
        const int C = -5 >> 1;
        const int D = (1 << 100) - (1 << 100) + 3;
    """) == {"A": 1 << 100, "B": 1, "C": -3, "D": 3}


def test_untyped_values_wrap_into_their_declared_type(tmp_path):
    assert values(tmp_path, """
        const bit<8> A = 255 + 1;
        const bit<8> B = -1;
        const int<8> C = -128;
        const bit<8> D = 2 * 100 + 100;
    """) == {"A": 0, "B": 255, "C": -128, "D": 44}


def test_untyped_arithmetic_is_evaluated_before_the_implicit_cast(tmp_path):
    assert values(tmp_path, """
        const bit<8> A = 300 / 3;
        const bit<8> B = (250 + 10) % 7;
        const bit<8> C = (1 << 8) / 2;
    """) == {"A": 100, "B": 1, "C": 128}


# ----------------------------------------------------------------------------
# Shifts


def test_shifts(tmp_path):
    assert values(tmp_path, """
        const bit<8> A = 8w1 << 3;
        const bit<8> B = 8w1 << 9;
        const bit<8> C = 8w0xf0 >> 4;
        const bit<8> D = 8w0x80 >> 8w7;
        const int<8> E = -8s127 >> 1;
        const int<8> F = (-8s127 - 8s1) >> 7;
        const int<8> G = -8s2 >> 1;
    """) == {"A": 8, "B": 0, "C": 15, "D": 1, "E": -64, "F": -1, "G": -1}


# ----------------------------------------------------------------------------
# Slices and concatenation


def test_slices(tmp_path):
    assert values(tmp_path, """
        const bit<4> A = 16w0xABCD[7:4];
        const bit<16> B = 32w0xDEADBEEF[31:16];
        const bit<4> C = -8s2[3:0];
        const int<8> D = -8s16;
        const bit<8> E = D[7:0];
        const bit<1> F = 8w0x80[7:7];
    """) == {"A": 0xC, "B": 0xDEAD, "C": 0xE, "D": -16, "E": 0xF0, "F": 1}


def test_indexed_slices(tmp_path):
    assert values(tmp_path, """
        const bit<4> A = 8w0xAB[4 +: 4];
    """) == {"A": 0xA}


def test_concatenation(tmp_path):
    assert values(tmp_path, """
        const bit<16> A = 8w0xAB ++ 8w0xCD;
        const int<16> B = -8s1 ++ 8w0;
        const bit<8> C = 8w0x0f[7:4] ++ 4w3;
        const bit<8> D = 8w0xF0[7:4] ++ 8w0x0F[3:0];
        const bit<32> E = 32w0xDEADBEEF[31:16] ++ 16w0;
    """) == {"A": 0xABCD, "B": -256, "C": 3, "D": 0xFF, "E": 0xDEAD0000}


# ----------------------------------------------------------------------------
# Casts, comparisons, conditionals


def test_casts(tmp_path):
    assert values(tmp_path, """
        const bit<8> A = (bit<8>) 16w0x1234;
        const int<16> B = (int<16>) -8s1;
        const bit<16> C = (bit<16>) 8w0xff;
        const int<8> D = (int<8>) 8w0xff;
        const int<8> E = (int<8>) 200;
        const bit<8> F = (bit<8>) -8s1;
        const bool G = (bool) 1w1;
        const bit<1> H = (bit<1>) true;
    """) == {"A": 0x34, "B": -1, "C": 255, "D": -1, "E": -56, "F": 255, "G": True, "H": 1}


def test_comparisons_and_logic(tmp_path):
    assert values(tmp_path, """
        const bool A = 8w1 < 8w2 && !false;
        const bool B = 8w255 == 255;
        const bool C = -8s1 < 8s0;
        const bool D = 8w1 != 8w1 || 8w2 >= 8w3;
    """) == {"A": True, "B": True, "C": True, "D": False}


def test_conditionals_pick_a_branch(tmp_path):
    assert values(tmp_path, """
        const bit<8> A = true ? 8w1 : 8w2;
        const bit<8> B = 8w3 > 8w4 ? 8w1 : 8w2;
    """) == {"A": 1, "B": 2}


def test_names_of_constants_and_enum_members(tmp_path):
    assert values(tmp_path, """
        enum bit<8> E { A = 5, B = 7 }
        const bit<8> X = E.B;
        const bit<8> Y = (bit<8>) E.A + 1;
        const bit<8> Z = X + Y;
    """) == {"X": 7, "Y": 6, "Z": 13}


def test_values_that_are_not_constant(tmp_path):
    c = accept(tmp_path, """
        control C(inout bit<8> a) { apply { a = a + 1; } }
    """)
    assert evaluate(c.expr("a + 1"), lambda name: None) is None


# ----------------------------------------------------------------------------
# Where the checker needs values


def test_widths_and_sizes_from_constants(tmp_path):
    c = accept(tmp_path, """
        const int W = 4 * 2;
        header h_t { bit<W> a; bit<(W + 8)> b; }
        struct s_t { h_t[W / 4] hs; }
        control C(inout s_t s, inout bit<8> x) { apply { x = s.hs[1].a; } }
    """)
    assert c.type_of("s.hs[1].a") == "bit<8>"
    assert c.type_of("s.hs[1]") == "header h_t"
    assert_rule(tmp_path, """
        const int W = 8;
        control C(in bit<8> w) { apply { bit<W> x = 1; } }
    """, """
        const int W = 8;
        control C(in bit<8> w) { apply { bit<w> x = 1; } }
    """, at="w> x", message="bit<...>: the width must be a compile-time integer constant")


def test_duplicate_switch_labels_are_found_by_value(tmp_path):
    assert_rule(tmp_path, """
        const bit<8> K = 1 + 1;
        control C(inout bit<8> a) { apply { switch (a) { 1: { } K: { } } } }
    """, """
        const bit<8> K = 2 - 1;
        control C(inout bit<8> a) { apply { switch (a) { 1: { } K: { } } } }
    """, at="K:", message="K: duplicate switch label")


def test_division_by_a_constant_zero(tmp_path):
    assert_rule(tmp_path, """
        const bit<8> Z = 1;
        const bit<8> Q = 8w10 / Z;
    """, """
        const bit<8> Z = 0;
        const bit<8> Q = 8w10 / Z;
    """, at="/", message="/: division by zero")


def test_static_assert_of_a_true_condition(tmp_path):
    assert values(tmp_path, """
        const bool OK = static_assert(8w1 + 8w1 == 2, "arithmetic");
    """) == {"OK": True}


def test_static_assert_of_a_false_condition(tmp_path):
    c = compile_p4(tmp_path, """
        const bool OK = static_assert(8w1 + 8w1 == 3, "arithmetic");
    """)
    assert c.errors() != []
