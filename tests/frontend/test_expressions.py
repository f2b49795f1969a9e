"""Unit tests of `p4odp.frontend.expressions`: the type of every expression form.

Most snippets are the apply block of one control whose parameters give
variables of the common types (`snippets.control`).  Valid expressions are checked
through the `type` the checker gives them in the IR; invalid ones through the
position and text of their one error, next to a valid variant.
"""

from __future__ import annotations

import pytest


from p4odp import ir
from p4odp import types as t
from p4odp.frontend.const_eval import evaluate

from snippets import accept, apply_rule, assert_rule, compile_p4, control, has_error, reject

# ----------------------------------------------------------------------------
# Literals and untyped integers


def test_literals_with_widths(tmp_path):
    c = accept(tmp_path, control("a = 8w255; w = 16w0x1ff; s = 8s127; s = -8s1; f = true; a = 0b101;"))
    assert c.type_of("8w255") == "bit<8>"
    assert c.type_of("16w0x1ff") == "bit<16>"
    assert c.type_of("8s127") == "int<8>"
    assert c.type_of("-8s1") == "int<8>"
    assert c.type_of("true") == "bool"
    literal = c.expr("16w0x1ff")
    assert (literal.value, literal.width, literal.signed) == (0x1FF, 16, False)


def test_a_literal_too_large_for_its_width_is_truncated_with_a_warning(tmp_path):
    c = accept(tmp_path, control("a = 8w256;"))
    assert c.warnings() == [(c.at("8w256"), "256 does not fit in 8 bits; it is truncated")]


def test_signed_literals_have_a_width(tmp_path):
    apply_rule(tmp_path, "s = 8s1;", "s = 0s1;", at="0s1", message="width of a signed literal cannot be zero")


def test_untyped_integers_take_the_type_they_meet(tmp_path):
    c = accept(tmp_path, control("a = 1; w = 2 + w; f = s == -3; a = a + 4;"))
    assert c.type_of("1;") == "bit<8>"
    assert c.type_of("2 + w") == "bit<16>"
    assert c.type_of("2 +") == "bit<16>"
    assert c.type_of("-3;") == "int<8>"  # folded: the literal is -3
    assert c.type_of("4;") == "bit<8>"


def test_an_untyped_integer_out_of_range_warns(tmp_path):
    c = accept(tmp_path, control("a = 256;"))
    assert c.warnings() == [(c.at("256"), "256 does not fit in bit<8>; it is truncated")]


def test_constants_of_type_int(tmp_path):
    c = accept(tmp_path, """
        const int N = 3 * 4;
        control C(inout bit<8> a) { apply { a = N; } }
    """)
    assert c.type_of("3 * 4") == "int"
    assert c.find("a = N", ir.Assignment).value.type == t.Bits(8)


def test_untyped_arithmetic_is_done_before_the_implicit_cast(tmp_path):
    c = accept(tmp_path, control("a = 300 / 3; a = (1 << 8) / 2;"))
    assert evaluate(c.find("a = 300 / 3", ir.Assignment).value, lambda name: None) == 100
    assert evaluate(c.find("a = (1 << 8) / 2", ir.Assignment).value, lambda name: None) == 128


def test_untyped_integers_in_initializers_take_the_field_types(tmp_path):
    c = accept(tmp_path, control("st = { m = 11, b = true }; tp = {22, true};",
                                 decls="struct s_t { bit<8> m; bool b; }",
                                 params="inout s_t st, inout tuple<bit<8>, bool> tp"))
    assert c.type_of("11") == "bit<8>"
    assert c.type_of("22") == "bit<8>"


# ----------------------------------------------------------------------------
# Arithmetic, comparison, logic


def test_arithmetic_keeps_the_operand_type(tmp_path):
    c = accept(tmp_path, control("a = a + b; w = w * 2; s = s - 1; a = a & 0xf; a = a % 3; a = a |+| b; "
                                 "s = s |-| 1; a = ~a; a = -a;"))
    for text, typ in [("a + b", "bit<8>"), ("w * 2", "bit<16>"), ("s - 1", "int<8>"), ("a & 0xf", "bit<8>"),
                      ("a % 3", "bit<8>"), ("a |+| b", "bit<8>"), ("s |-| 1", "int<8>"), ("~a", "bit<8>"),
                      ("-a", "bit<8>")]:
        assert c.type_of(text) == typ, text


def test_arithmetic_needs_one_width(tmp_path):
    apply_rule(tmp_path, "w = (bit<16>) a + w;", "w = a + w;",
               at="+", message="+: cannot be applied to expressions of types bit<8> and bit<16>")


def test_arithmetic_needs_one_signedness(tmp_path):
    apply_rule(tmp_path, "a = a + (bit<8>) s;", "a = a + s;",
               at="+", message="+: cannot be applied to expressions of types bit<8> and int<8>")


def test_no_division_of_signed_values(tmp_path):
    apply_rule(tmp_path, "a = a / 2;", "s = s / 2;", at="/", message="/: division is not defined on signed values")


def test_no_division_by_zero(tmp_path):
    apply_rule(tmp_path, "a = a % 1;", "a = a % 0;", at="%", message="%: division by zero")


def test_no_division_of_negative_untyped_integers(tmp_path):
    assert_rule(tmp_path, """
        const int N = 7 / 2;
    """, """
        const int N = -7 / 2;
    """, at="/", message="/: division of negative integers is not defined")


def test_saturating_arithmetic_needs_a_width(tmp_path):
    assert_rule(tmp_path, """
        const bit<8> N = 8w250 |+| 8w10;
    """, """
        const int N = 250 |+| 10;
    """, at="|+|", message="|+|: saturating arithmetic needs operands of known width")


def test_complement_needs_a_width(tmp_path):
    apply_rule(tmp_path, "a = ~8w1;", "a = ~1;", at="~", message="~: cannot be applied to an untyped integer")


def test_comparisons_are_bool(tmp_path):
    c = accept(tmp_path, control("f = a < b; f = a == 1; f = s >= -1; f = w != 16w0;"))
    for text in ("a < b", "a == 1", "s >= -1", "w != 16w0"):
        assert c.type_of(text) == "bool", text
    assert c.type_of("-1") == "int<8>"


def test_comparison_needs_one_type(tmp_path):
    apply_rule(tmp_path, "f = w < 16w1;", "f = a < w;",
               at="< w", message="<: cannot be applied to expressions of types bit<8> and bit<16>")


def test_logical_operators_take_bools(tmp_path):
    c = accept(tmp_path, control("f = f && a == 1 || !f;"))
    assert c.type_of("f && a == 1") == "bool"
    assert c.type_of("!f") == "bool"
    apply_rule(tmp_path, "f = f && f;", "f = a && b;",
               at="&&", message="&&: operands must be bool, not bit<8> and bit<8>")
    apply_rule(tmp_path, "f = !f;", "f = !a;", at="!", message="!: cannot be applied to an expression of type bit<8>")


def test_no_arithmetic_on_bool(tmp_path):
    apply_rule(tmp_path, "f = f || f;", "f = f + f;",
               at="+", message="+: cannot be applied to expressions of type bool")


def test_conditional_expression(tmp_path):
    c = accept(tmp_path, control("a = f ? a : b; a = f ? 1 : b; a = true ? 3 : 4;"))
    assert c.type_of("f ? a : b") == "bit<8>"
    assert c.type_of("f ? 1 : b") == "bit<8>"
    assert c.type_of("1 : b") == "bit<8>"
    assert c.type_of("true ? 3 : 4") == "bit<8>"


def test_conditional_expression_of_untyped_integers_needs_a_constant_condition(tmp_path):
    apply_rule(tmp_path, "a = f ? 8w1 : 2;", "a = f ? 1 : 2;",
               at="?", message="?: the width of the result cannot be inferred; cast one branch")


def test_conditional_expression_needs_a_bool_condition(tmp_path):
    apply_rule(tmp_path, "a = f ? 1 : b;", "a = a ? 1 : b;", at="a ? 1", message="?: the condition must be bool")


# ----------------------------------------------------------------------------
# Shifts, concatenation, slices


def test_shifts_keep_the_type_of_the_left_operand(tmp_path):
    c = accept(tmp_path, control("a = a << 2; a = a >> b; s = s >> 1; w = 1 << 4; a = a << w;"))
    for text, typ in [("a << 2", "bit<8>"), ("a >> b", "bit<8>"), ("s >> 1", "int<8>"), ("1 << 4", "bit<16>"),
                      ("a << w", "bit<8>")]:
        assert c.type_of(text) == typ, text


def test_shift_amounts_are_unsigned(tmp_path):
    apply_rule(tmp_path, "a = a << b;", "a = a << s;", at="<<", message="<<: the shift amount must be unsigned")


def test_shift_amounts_are_not_negative(tmp_path):
    apply_rule(tmp_path, "a = a << 1;", "a = a << -1;", at="<<", message="<<: negative shift amount -1")


def test_shifting_an_untyped_integer_needs_a_constant_amount(tmp_path):
    apply_rule(tmp_path, "a = 1 << 3;", "a = 1 << a;", at="<<", message="shifting an untyped integer needs a constant")


def test_concatenation_adds_the_widths_and_keeps_the_left_sign(tmp_path):
    c = accept(tmp_path, control("w = a ++ b; bit<12> x = a ++ 4w1; int<16> y = s ++ a;"))
    assert c.type_of("a ++ b") == "bit<16>"
    assert c.type_of("a ++ 4w1") == "bit<12>"
    assert c.type_of("s ++ a") == "int<16>"


def test_concatenation_needs_widths(tmp_path):
    apply_rule(tmp_path, "w = a ++ 8w1;", "w = a ++ 1;",
               at="++", message="++: concatenation needs operands of known width")
    apply_rule(tmp_path, "w = a ++ 8w1;", "w = a ++ f;", at="++", message="++: cannot concatenate bit<8> and bool")


def test_slices(tmp_path):
    c = accept(tmp_path, control("a = w[15:8]; b = w[3:0] ++ w[11:8]; a[3:0] = 4w1; a = s[7:0];"))
    assert c.type_of("w[15:8]") == "bit<8>"
    assert c.type_of("w[3:0]") == "bit<4>"
    assert c.type_of("a[3:0]") == "bit<4>"
    assert c.type_of("s[7:0]") == "bit<8>"


def test_slice_bounds_within_the_width(tmp_path):
    apply_rule(tmp_path, "a = w[15:8];", "a = w[16:9];",
               at="[", message="[16:9]: slice bounds out of range for bit<16>")
    apply_rule(tmp_path, "a = w[8:3] ++ w[1:0];", "a = w[3:8];", at="[",
               message="[3:8]: the high bit comes first in a slice: [8:3]")


def test_slice_bounds_are_constants(tmp_path):
    apply_rule(tmp_path, "a = w[7:0];", "a = w[a:0];", at="[", message="slice bounds must be compile-time constants")


def test_slices_of_bits_only(tmp_path):
    apply_rule(tmp_path, "a = w[7:0];", "a = f[0:0];", at="[",
               message="bit slices are defined on bit<> and int<>, not bool")


def test_indexed_slices(tmp_path):
    c = accept(tmp_path, control("a = w[b +: 8]; w[4 +: 4] = 4w1;"))
    assert c.type_of("w[b +: 8]") == "bit<8>"
    assert c.type_of("w[4 +: 4]") == "bit<4>"


def test_indexed_slice_widths_are_positive_constants(tmp_path):
    apply_rule(tmp_path, "a = w[b +: 8];", "a = w[0 +: a];", at="a];",
               message="the width of a slice must be a positive constant")


def test_indexed_slices_within_the_width(tmp_path):
    accept(tmp_path, control("a = w[8 +: 8];"))
    reject(tmp_path, control("a = w[12 +: 8];"))


# ----------------------------------------------------------------------------
# Casts


def test_casts_between_bits_ints_and_bool(tmp_path):
    c = accept(tmp_path, control("w = (bit<16>) a; a = (bit<8>) w; s = (int<8>) a; b = (bit<8>) s; "
                                 "f = (bool) a[0:0]; a = (bit<8>) 300; f = (bool) 1; a[0:0] = (bit<1>) f;"))
    for text, typ in [("(bit<16>) a", "bit<16>"), ("(bit<8>) w", "bit<8>"), ("(int<8>) a", "int<8>"),
                      ("(bit<8>) s", "bit<8>"), ("(bool) a[0:0]", "bool"), ("(bit<8>) 300", "bit<8>"),
                      ("(bool) 1", "bool"), ("(bit<1>) f", "bit<1>")]:
        assert c.type_of(text) == typ, text


def test_casts_change_either_the_width_or_the_sign(tmp_path):
    apply_rule(tmp_path, "w = (bit<16>) (bit<8>) s;", "w = (bit<16>) s;", at="(bit<16>)",
               message="cast from int<8> to bit<16> is not supported")


def test_only_one_bit_values_cast_to_bool(tmp_path):
    apply_rule(tmp_path, "f = (bool) a[0:0];", "f = (bool) a;", at="(bool)", message="cast from bit<8> to bool")
    apply_rule(tmp_path, "a[0:0] = (bit<1>) f;", "a = (bit<8>) f;", at="(bit<8>)", message="cast from bool to bit<8>")
    apply_rule(tmp_path, "f = (bool) 0;", "f = (bool) 2;", at="(bool)", message="only 0 and 1 can be cast to bool")


def test_no_casts_of_headers(tmp_path):
    apply_rule(tmp_path, "a = h.x;", "a = (bit<8>) h;", at="(bit<8>)", message="cast from header h_t to bit<8>",
               decls="header h_t { bit<8> x; }", params="inout bit<8> a, in h_t h")


def test_new_types_need_explicit_casts(tmp_path):
    c = accept(tmp_path, control("p = (port_t) a; a = (bit<8>) p; p = (port_t) 8w3;",
                                 decls="type bit<8> port_t;", params="inout bit<8> a, inout port_t p"))
    assert c.type_of("(port_t) a") == "port_t"
    assert c.type_of("(bit<8>) p") == "bit<8>"
    apply_rule(tmp_path, "p = (port_t) a;", "p = a;", at="a;", message="assignment: cannot convert bit<8> to port_t",
               decls="type bit<8> port_t;", params="inout bit<8> a, inout port_t p")


# ----------------------------------------------------------------------------
# Enums and errors


ENUMS = "enum E { X, Y }\nenum bit<8> SE { A = 1, B = 2 }"
ENUM_PARAMS = "inout bit<8> a, inout bool f, inout E e, inout SE se"


def test_enum_members(tmp_path):
    c = accept(tmp_path, control("e = E.X; f = e == E.Y; se = SE.B;", ENUMS, ENUM_PARAMS))
    assert c.type_of("E.X") == "enum E"
    assert c.type_of("SE.B") == "enum SE"
    assert c.type_of("e == E.Y") == "bool"
    apply_rule(tmp_path, "e = E.Y;", "e = E.Z;", at="Z", message="Z: enum E has no member of this name",
               decls=ENUMS, params=ENUM_PARAMS)


def test_serializable_enums_convert_to_their_underlying_type(tmp_path):
    c = accept(tmp_path, control("a = se; a = (bit<8>) se; se = (SE) a; f = se == 2; a = se + 1; a = SE.A;",
                                 ENUMS, ENUM_PARAMS))
    assert c.type_of("(SE) a") == "enum SE"
    assert c.type_of("se == 2") == "bool"
    assert c.type_of("se + 1") == "bit<8>"


def test_bits_convert_to_serializable_enums_only_by_cast(tmp_path):
    apply_rule(tmp_path, "se = (SE) a;", "se = a;", at="a;", message="assignment: cannot convert bit<8> to enum SE",
               decls=ENUMS, params=ENUM_PARAMS)


def test_plain_enums_do_not_convert_to_bits(tmp_path):
    apply_rule(tmp_path, "a = (bit<8>) se;", "a = (bit<8>) e;", at="(bit<8>)",
               message="cast from enum E to bit<8> is not supported", decls=ENUMS, params=ENUM_PARAMS)


def test_enums_are_not_ordered(tmp_path):
    apply_rule(tmp_path, "f = e == E.Y;", "f = e < E.Y;", at="< E",
               message="<: cannot be applied to expressions of type enum E", decls=ENUMS, params=ENUM_PARAMS)


def test_error_members(tmp_path):
    c = accept(tmp_path, control("err = error.NoError; f = err == error.Mine;", "error { Mine }",
                                 "inout error err, inout bool f"))
    assert c.type_of("error.NoError") == "error"
    assert c.type_of("err == error.Mine") == "bool"
    apply_rule(tmp_path, "err = error.Mine;", "err = error.Theirs;",
               at="Theirs", message="error.Theirs: no such error",
               decls="error { Mine }", params="inout error err")


def test_errors_are_not_ordered(tmp_path):
    apply_rule(tmp_path, "f = err != error.NoError;", "f = err < error.NoError;", at="< error",
               message="<: cannot be applied to expressions of type error", params="inout error err, inout bool f")


# ----------------------------------------------------------------------------
# Headers, unions and stacks


HEADERS = """
header h_t { bit<8> x; }
header g_t { bit<16> y; }
header_union u_t { h_t h; g_t g; }
struct s_t { h_t h; bit<8> m; }
"""
HEADER_PARAMS = "inout bool f, inout h_t h, inout u_t u, inout s_t st"


def test_header_validity_methods(tmp_path):
    c = accept(tmp_path, control("f = h.isValid(); h.setValid(); h.setInvalid(); f = u.isValid(); "
                                 "f = u.g.isValid(); f = st.h.isValid();", HEADERS, HEADER_PARAMS))
    assert c.type_of("h.isValid()") == "bool"
    assert c.type_of("h.setValid()") == "void"
    assert c.type_of("h.setInvalid()") == "void"
    assert c.type_of("u.isValid()") == "bool"


def test_header_unions_have_no_set_valid(tmp_path):
    apply_rule(tmp_path, "u.h.setValid();", "u.setValid();", at="setValid",
               message="setValid: header_union u_t has no field or method of this name",
               decls=HEADERS, params=HEADER_PARAMS)


def test_structs_have_no_is_valid(tmp_path):
    apply_rule(tmp_path, "f = st.h.isValid();", "f = st.isValid();", at="isValid",
               message="isValid: struct s_t has no field or method of this name", decls=HEADERS, params=HEADER_PARAMS)


def test_is_valid_is_a_method_not_a_value(tmp_path):
    apply_rule(tmp_path, "f = h.isValid();", "f = h.isValid;", at="isValid;",
               message="assignment: cannot convert isValid(...) to bool", decls=HEADERS, params=HEADER_PARAMS)


def test_invalid_header_expression(tmp_path):
    c = accept(tmp_path, control("h = {#}; u = {#}; f = h == {#};", HEADERS, HEADER_PARAMS))
    assert c.type_of("h == {#}") == "bool"
    apply_rule(tmp_path, "st.h = {#};", "st = {#};", at="{#}", message="assignment: cannot convert {#} to struct s_t",
               decls=HEADERS, params=HEADER_PARAMS)


STACK = "header h_t { bit<8> x; } struct hs_t { h_t[4] st; }"


def test_stack_members_in_a_parser(tmp_path):
    c = accept(tmp_path, f"""
        {STACK}
        parser P(packet_in p, out hs_t hs) {{
            state start {{
                p.extract(hs.st.next);
                transition select(hs.st.last.x) {{ 0: accept; default: more; }}
            }}
            state more {{
                bit<32> i = hs.st.lastIndex;
                transition select(hs.st.nextIndex) {{ 4: accept; default: start; }}
            }}
        }}
    """)
    assert c.type_of("hs.st.next") == "header h_t"
    assert c.type_of("hs.st.last.x") == "bit<8>"
    assert c.type_of("hs.st.lastIndex") == "bit<32>"
    assert c.type_of("hs.st.nextIndex") == "bit<32>"


def test_stack_operations_in_a_control(tmp_path):
    c = accept(tmp_path, control("hs.st.push_front(1); hs.st.pop_front(2); a = hs.st[0].x; a = hs.st[i].x; "
                                 "hs.st[3].setValid(); a = (bit<8>) hs.st.size;",
                                 STACK, "inout hs_t hs, inout bit<8> a, in bit<2> i"))
    assert c.type_of("hs.st[0]") == "header h_t"
    assert c.type_of("hs.st[i]") == "header h_t"
    assert c.type_of("hs.st.push_front(1)") == "void"
    assert c.type_of("hs.st.size") == "int"


def test_next_and_last_index_only_in_parsers(tmp_path):
    params = "inout hs_t hs, inout bit<8> a, inout bit<32> n"
    apply_rule(tmp_path, "a = hs.st[0].x;", "a = hs.st.next.x;", at="next",
               message="next: stack elements 'next' can only be used in a parser", decls=STACK, params=params)
    apply_rule(tmp_path, "n = 3;", "n = hs.st.lastIndex;", at="lastIndex",
               message="lastIndex: 'lastIndex' of a stack can only be used in a parser", decls=STACK, params=params)


def test_constant_stack_indexes_within_bounds(tmp_path):
    apply_rule(tmp_path, "a = hs.st[3].x;", "a = hs.st[4].x;", at="4].x",
               message="index 4 is out of bounds for header h_t[4]",
               decls=STACK, params="inout hs_t hs, inout bit<8> a")


def test_push_front_counts_are_constants(tmp_path):
    apply_rule(tmp_path, "hs.st.push_front(2);", "hs.st.push_front(n);", at="n);",
               message="push_front: the count must be a compile-time constant", decls=STACK,
               params="inout hs_t hs, in bit<8> n")


def test_stacks_have_no_push_back(tmp_path):
    apply_rule(tmp_path, "hs.st.pop_front(1);", "hs.st.push_back(1);", at="push_back",
               message="push_back: a stack has no member of this name", decls=STACK, params="inout hs_t hs")


# ----------------------------------------------------------------------------
# Struct, tuple and list initializers


STRUCTS = """
header h_t { bit<8> x; bit<16> y; }
struct s_t { bit<8> m; bool b; }
struct n_t { s_t s; bit<4> k; }
"""
STRUCT_PARAMS = "inout bit<8> a, inout h_t h, inout s_t st, inout n_t nt, inout tuple<bit<8>, bool> tp"


def test_struct_initializers(tmp_path):
    c = accept(tmp_path, control("st = { m = 1, b = true }; st = {1, false}; "
                                 "nt = { s = { m = a, b = false }, k = 2 }; h = { x = 1, y = 2 }; "
                                 "st = s_t { m = 3, b = true }; tp = {1, true}; "
                                 "s_t v = { m = 4, b = true }; s_t d = { m = 5, ... }; s_t z = ...;",
                                 STRUCTS, STRUCT_PARAMS))
    assert c.type_of("{ m = 1, b = true }") == "struct s_t"
    assert c.type_of("{1, false}") == "struct s_t"
    assert c.type_of("{ x = 1, y = 2 }") == "header h_t"
    assert c.type_of("s_t { m = 3, b = true }") == "struct s_t"
    assert c.type_of("{1, true}") == "tuple<bit<8>, bool>"
    assert c.type_of("{ m = 5, ... }") == "struct s_t"


def test_nested_struct_initializers_take_the_field_type(tmp_path):
    c = accept(tmp_path, control("nt = { s = { m = a, b = false }, k = 2 };", STRUCTS, STRUCT_PARAMS))
    assert c.type_of("{ m = a, b = false }") == "struct s_t"


def test_struct_initializers_name_every_field_once(tmp_path):
    apply_rule(tmp_path, "st = { m = 1, b = true };", "st = { m = 1 };", at="{ m",
               message="assignment: cannot convert {m: int} to struct s_t", decls=STRUCTS, params=STRUCT_PARAMS)
    apply_rule(tmp_path, "st = { m = 1, b = true };", "st = { m = 1, b = true, z = 3 };", at="{ m",
               message="assignment: cannot convert {m: int, b: bool, z: int} to struct s_t",
               decls=STRUCTS, params=STRUCT_PARAMS)
    bad = reject(tmp_path, control("st = { m = 1, m = 2 };", STRUCTS, STRUCT_PARAMS))
    assert has_error(bad, "m = 2", "m: field initialized twice")


def test_struct_initializer_field_types(tmp_path):
    apply_rule(tmp_path, "st = { m = 1, b = false };", "st = { m = 1, b = 3 };", at="{ m",
               message="assignment: cannot convert {m: int, b: int} to struct s_t",
               decls=STRUCTS, params=STRUCT_PARAMS)


def test_list_initializers_have_one_element_per_field(tmp_path):
    apply_rule(tmp_path, "st = {1, true};", "st = {1};", at="{1}",
               message="assignment: cannot convert tuple<int> to struct s_t", decls=STRUCTS, params=STRUCT_PARAMS)


def test_tuple_indexes_are_constants_within_the_tuple(tmp_path):
    c = accept(tmp_path, control("a = tp[0];", STRUCTS, STRUCT_PARAMS))
    assert c.type_of("tp[0]") == "bit<8>"
    apply_rule(tmp_path, "a = tp[0];", "a = tp[2];",
               at="2]", message="a tuple index must be a constant within the tuple",
               decls=STRUCTS, params=STRUCT_PARAMS)


def test_fields_must_exist(tmp_path):
    apply_rule(tmp_path, "a = st.m;", "a = st.zz;",
               at="zz", message="zz: struct s_t has no field or method of this name",
               decls=STRUCTS, params=STRUCT_PARAMS)


# ----------------------------------------------------------------------------
# Calls


CALLEES = """
extern void g(in bit<8> x, in bit<16> y = 7);
bit<8> inc(in bit<8> v, in bit<8> by = 1) { return v + by; }
extern void set_it(out bit<8> r);
extern void bump(inout bit<8> r);
extern T ident<T>(in T v);
extern void put<T>(out T r);
"""
CALL_PARAMS = "inout bit<8> a, inout bit<16> w, in bit<8> ro, inout bit<4> n"


def test_named_arguments_and_default_parameters(tmp_path):
    c = accept(tmp_path, control("g(1); g(1, 2); g(y = 2, x = 1); g(x = 1); a = inc(a); a = inc(by = 2, v = a);",
                                 CALLEES, CALL_PARAMS))
    call = c.expr("g(y = 2, x = 1)")
    assert [(arg.name, str(arg.value.type)) for arg in call.args] == [("y", "bit<16>"), ("x", "bit<8>")]
    assert c.type_of("inc(a)") == "bit<8>"
    assert c.type_of("inc(by = 2, v = a)") == "bit<8>"
    assert c.type_of("g(1)") == "void"


def test_parameters_without_defaults_need_arguments(tmp_path):
    apply_rule(tmp_path, "g(x = 1);", "g(y = 2);", at="g(y", message="g:", decls=CALLEES, params=CALL_PARAMS)


def test_named_arguments_must_name_parameters(tmp_path):
    apply_rule(tmp_path, "g(x = 1, y = 2);", "g(x = 1, z = 2);",
               at="g(x", message="g:", decls=CALLEES, params=CALL_PARAMS)


def test_arguments_are_all_named_or_none(tmp_path):
    apply_rule(tmp_path, "g(1, 2);", "g(1, y = 2);", at="g(1", message="g:", decls=CALLEES, params=CALL_PARAMS)


def test_out_arguments_are_l_values(tmp_path):
    accept(tmp_path, control("set_it(a); bump(a); bump(w[7:0]); set_it(_);", CALLEES, CALL_PARAMS))
    apply_rule(tmp_path, "set_it(a);", "set_it(1);", at="1);",
               message="1: an out argument must be something that can be assigned", decls=CALLEES, params=CALL_PARAMS)
    apply_rule(tmp_path, "set_it(a);", "set_it(ro);", at="ro)",
               message="ro: an out argument must be something that can be assigned", decls=CALLEES, params=CALL_PARAMS)
    apply_rule(tmp_path, "bump(a);", "bump(a ++ n);", at="++",
               message="an inout argument must be something that can be assigned", decls=CALLEES, params=CALL_PARAMS)


def test_out_arguments_have_exactly_the_parameter_type(tmp_path):
    apply_rule(tmp_path, "set_it(a);", "set_it(w);",
               at="w)", message="set_it: argument r has type bit<16>, expected bit<8>",
               decls=CALLEES, params=CALL_PARAMS)


def test_dont_care_arguments_only_for_out_parameters(tmp_path):
    accept(tmp_path, control("set_it(_); g(1);", CALLEES, CALL_PARAMS))
    reject(tmp_path, control("g(_);", CALLEES, CALL_PARAMS))


def test_directionless_extern_parameters_take_values_fixed_before_the_call(tmp_path):
    # p4c's rule: a constant, an instance, or a directionless parameter (an action's data)
    decls = "extern void select_list(bit<8> index); extern void pick(bit<8> index, in bit<8> data);"
    accept(tmp_path, f"""
        {decls}
        const bit<8> LIST = 3;
        control C(inout bit<8> a) {{
            action use(bit<8> index) {{ select_list(index); select_list(index + LIST); pick(LIST, a); }}
            apply {{ use(1); select_list(LIST); }}
        }}
    """)
    apply_rule(tmp_path, "select_list(8w1); pick(2, a);", "select_list(8w1); pick(a, a);", at="a, a",
               message="a: argument used for directionless parameter 'index' must be a compile-time constant",
               decls=decls, params=CALL_PARAMS)
    apply_rule(tmp_path, "h_t[2] s; pick(2, s[a].f);", "h_t[2] s; pick(s[a].f, 2);", at="f, 2",
               message="argument used for directionless parameter 'index' must be a compile-time constant",
               decls=decls + " header h_t { bit<8> f; }", params=CALL_PARAMS)


def test_generic_calls_infer_their_type_arguments(tmp_path):
    c = accept(tmp_path, control("a = ident(a); w = ident(w); put(n); w = ident<bit<16>>(5);", CALLEES, CALL_PARAMS))
    assert c.type_of("ident(a)") == "bit<8>"
    assert c.type_of("ident(w)") == "bit<16>"
    assert c.type_of("ident<bit<16>>(5)") == "bit<16>"
    assert c.type_of("5)") == "bit<16>"
    assert c.type_of("n);") == "bit<4>"


def test_generic_calls_check_the_inferred_type(tmp_path):
    apply_rule(tmp_path, "w = ident(w);", "a = ident(w);", at="ident(w)",
               message="assignment: cannot convert bit<16> to bit<8>", decls=CALLEES, params=CALL_PARAMS)


def test_generic_calls_cannot_infer_from_untyped_integers(tmp_path):
    apply_rule(tmp_path, "w = ident(16w5);", "w = ident(5);",
               at="5)", message="5: could not infer a width; cast the value",
               decls=CALLEES, params=CALL_PARAMS)


def test_generic_calls_bind_one_type_per_parameter(tmp_path):
    decls = "extern T pick<T>(in T a, in T b);"
    apply_rule(tmp_path, "w = pick(w, 16w1);", "w = pick(w, a);", at="a);",
               message="pick: argument b: cannot convert bit<8> to bit<16>", decls=decls, params=CALL_PARAMS)


@pytest.mark.parametrize("decls, given", [
    ("header box_t<T> { T v; } extern T get<T>(in box_t<T> b);", "box_t<bit<8>>"),
    ("header box_t<T> { T v; } struct outer_t<T> { box_t<T> b; } extern T get<T>(in outer_t<T> b);",
     "outer_t<bit<8>>"),  # a generic struct nested in one
])
def test_generic_calls_infer_through_generic_struct_arguments(tmp_path, decls: str, given: str):
    c = accept(tmp_path, control(f"{given} x; a = get(x);", decls, CALL_PARAMS))
    assert c.type_of("get(x)") == "bit<8>"
    apply_rule(tmp_path, f"{given} x; a = get(x);", f"{given} x; w = get(x);", at="get(x)",
               message="cannot convert bit<8> to bit<16>", decls=decls, params=CALL_PARAMS)


def test_an_argument_in_error_gives_no_further_call_errors(tmp_path):
    decls = "extern void take<T>(in T x); extern void fixed(bit<8> v);"
    bad = reject(tmp_path, control("take(nosuch); fixed(nosuch2);", decls, CALL_PARAMS))
    assert [message for _, message in bad.errors()] == ["nosuch: declaration not found",
                                                        "nosuch2: declaration not found"]


def test_generic_calls_report_a_type_no_argument_gives_once(tmp_path):
    # (a stack of T in the struct too: a structure literal gives no T, and says so once)
    decls = "header h_t { bit<8> x; } struct pair_t<T> { T[2] s; } extern void take<T>(in pair_t<T> p);"
    apply_rule(tmp_path, "pair_t<h_t> p; take(p);", "take({ s = 5 });", at="{ s",
               message="take: could not infer a type for T from the arguments", decls=decls, params=CALL_PARAMS)


def test_number_of_explicit_type_arguments(tmp_path):
    accept(tmp_path, control("w = ident<bit<16>>(16w5);", CALLEES, CALL_PARAMS))
    bad = reject(tmp_path, control("w = ident<bit<16>, bit<8>>(16w5);", CALLEES, CALL_PARAMS))
    assert bad.errors() == [(bad.at("ident<bit"), "ident: expected 1 type arguments, got 2")]


def test_only_callables_are_called(tmp_path):
    apply_rule(tmp_path, "a = inc(a);", "a = a();", at="a()", message="a is not a method or function (it is bit<8>)",
               decls=CALLEES, params=CALL_PARAMS)


def test_actions_are_called_with_all_their_arguments(tmp_path):
    assert_rule(tmp_path, """
        control C(inout bit<8> a) {
            action x(bit<8> v) { a = v; }
            action y(inout bit<8> r, bit<8> v) { r = v; }
            apply { x(1); y(a, 2); x(v = 3); }
        }
    """, """
        control C(inout bit<8> a) {
            action x(bit<8> v) { a = v; }
            apply { x(); }
        }
    """, at="x();", message="x: no overload takes 0 argument(s) (it takes 1)")


def test_actions_are_not_called_from_parsers_or_functions(tmp_path):
    assert_rule(tmp_path, """
        action x() { }
        control C() { apply { x(); } }
    """, """
        action x() { }
        parser P(packet_in p) { state start { x(); transition accept; } }
    """, at="x();", message="x: actions cannot be called from a parser")
    assert_rule(tmp_path, """
        action x() { }
        control C() { action y() { x(); } apply { y(); } }
    """, """
        action x() { }
        void f() { x(); }
    """, at="x();", message="x: actions cannot be called from a function")


def test_tables_are_applied_in_apply_blocks_only(tmp_path):
    assert_rule(tmp_path, """
        control C() { table t { actions = { NoAction; } } apply { t.apply(); } }
    """, """
        control C() { table t { actions = { NoAction; } } action y() { t.apply(); } apply { y(); } }
    """, at="apply(); } apply", message="t.apply: tables can only be applied in a control's apply block")


def test_verify_only_in_parsers(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { verify(true, error.NoMatch); transition accept; } }
    """, """
        control C(inout bit<8> a) { apply { verify(a == 1, error.NoMatch); } }
    """, at="verify", message="verify may only be invoked in parsers")


def test_extract_takes_headers(tmp_path):
    assert_rule(tmp_path, """
        header h_t { bit<8> a; }
        parser P(packet_in p, out h_t h) { state start { p.extract(h); transition accept; } }
    """, """
        struct s_t { bit<8> a; }
        parser P(packet_in p, out s_t s) { state start { p.extract(s); transition accept; } }
    """, at="s); t", message="s: the argument of extract must be a header")


def test_lookahead_of_a_header_and_of_bits(tmp_path):
    c = accept(tmp_path, """
        header h_t { bit<8> a; }
        parser P(packet_in p, out h_t h) {
            state start { bit<8> x = p.lookahead<bit<8>>(); h = p.lookahead<h_t>(); transition accept; }
        }
    """)
    assert c.type_of("p.lookahead<bit<8>>()") == "bit<8>"
    assert c.type_of("p.lookahead<h_t>()") == "header h_t"


def test_action_run_only_in_a_switch(tmp_path):
    valid = """
        control C() {
            table t { actions = { NoAction; } }
            apply { switch (t.apply().action_run) { NoAction: { } } }
        }
    """
    accept(tmp_path, valid)
    bad = reject(tmp_path, """
        control C(inout bool f) {
            table t { actions = { NoAction; } }
            apply { f = t.apply().hit; if (t.apply().action_run == NoAction) { } }
        }
    """)
    assert has_error(bad, "action_run", "action_run can only be used as the expression of a switch statement")


def test_table_apply_results(tmp_path):
    c = accept(tmp_path, """
        control C(inout bool f) {
            table t { actions = { NoAction; } }
            apply { f = t.apply().hit; f = t.apply().miss; }
        }
    """)
    assert c.type_of("t.apply().hit") == "bool"
    assert c.type_of("t.apply().miss") == "bool"
    assert c.type_of("t.apply()") == "apply result of C.t"


def test_size_methods_are_int(tmp_path):
    c = accept(tmp_path, control("n = (bit<32>) h.minSizeInBits(); n = (bit<32>) h_t.maxSizeInBytes();",
                                 "header h_t { bit<8> a; bit<4> b; bit<4> c; }", "inout h_t h, inout bit<32> n"))
    assert c.type_of("h.minSizeInBits()") == "int"
    assert c.type_of("h_t.maxSizeInBytes()") == "int"


def test_constructor_calls_are_not_statements(tmp_path):
    assert_rule(tmp_path, """
        extern E { E(); }
        extern void use(E e);
        control C() { apply { use(E()); } }
    """, """
        extern E { E(); }
        control C() { apply { E(); } }
    """, at="E(); } }", message="a constructor call is not a statement")


def test_calls_type_their_arguments_without_exceptions(tmp_path):
    # Arguments of a call that failed are still typed (so that no follow-on error or exception escapes).
    accept(tmp_path, control("g(1, 2);", CALLEES, CALL_PARAMS))
    c = compile_p4(tmp_path, control("g(1, 2, nope);", CALLEES, CALL_PARAMS))
    assert c.errors() == [(c.at("g(1, 2, nope)"), "g: no overload takes 3 argument(s) (it takes 2)"),
                          (c.at("nope"), "nope: declaration not found")]
