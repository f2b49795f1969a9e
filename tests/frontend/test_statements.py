"""Unit tests of `p4odp.frontend.statements`: assignments, conditions, switch, return, exit, loops.

Each rule is shown by a valid snippet that the front end accepts and an
invalid variant that gets one error at an exact position (see `snippets.py`).
"""

from __future__ import annotations


from p4odp import ir
from p4odp import types as t

from snippets import PARAMS, accept, apply_rule, assert_rule, control, has_error, reject

# ----------------------------------------------------------------------------
# Assignments


def test_assignment_converts_untyped_values(tmp_path):
    c = accept(tmp_path, control("a = 1; w = 0x800; s = -2;"))
    assert c.find("a = 1", ir.Assignment).value.type == t.Bits(8)
    assert c.find("w = 0x800", ir.Assignment).value.type == t.Bits(16)
    assert c.find("s = -2", ir.Assignment).value.type == t.Bits(8, signed=True)


def test_assignment_needs_the_same_type(tmp_path):
    apply_rule(tmp_path, "w = (bit<16>) a;", "w = a;", at="a;", message="assignment: cannot convert bit<8> to bit<16>")
    apply_rule(tmp_path, "a = (bit<8>) w;", "a = w;", at="w;", message="assignment: cannot convert bit<16> to bit<8>")
    apply_rule(tmp_path, "f = a == 1;", "a = f;", at="f;", message="assignment: cannot convert bool to bit<8>")


def test_assignment_targets_are_l_values(tmp_path):
    apply_rule(tmp_path, "a = r;", "r = 1;",
               at="r = 1", message="r cannot be assigned", params=PARAMS + ", in bit<8> r")
    apply_rule(tmp_path, "a = K;", "K = 1;", at="K = 1;", occurrence=2, message="K cannot be assigned",
               decls="const bit<8> K = 1;")
    apply_rule(tmp_path, "a = 1;", "1 = a;", at="1 = a", message="1 cannot be assigned")


def test_slices_and_fields_are_l_values(tmp_path):
    c = accept(tmp_path, control("w[7:0] = a; h.x = a; h.y[3:0] = 4w2;", "header h_t { bit<8> x; bit<16> y; }",
                                 PARAMS + ", inout h_t h"))
    assert c.find("w[7:0] = a", ir.Assignment).target.type == t.Bits(8)
    assert c.find("h.y[3:0] = 4w2", ir.Assignment).target.type == t.Bits(4)


def test_compound_assignments(tmp_path):
    c = accept(tmp_path, control("a += 1; a -= b; a *= 2; a <<= 1; a >>= b; a &= 0xf; a |= 1; a ^= b; "
                                 "a |+|= 1; a |-|= 1; s >>= 1; w += 77;"))
    plus = c.find("a += 1", ir.Assignment)
    assert (plus.op, plus.target.type, plus.value.type) == ("+", t.Bits(8), t.Bits(8))
    shift = c.find("a <<= 1", ir.Assignment)
    assert (shift.op, shift.value.type) == ("<<", t.InfInt())  # a shift amount keeps its own type
    assert c.find("w += 77", ir.Assignment).value.type == t.Bits(16)
    assert c.find("s >>= 1", ir.Assignment).target.type == t.Bits(8, signed=True)


def test_compound_assignments_follow_the_operator_rules(tmp_path):
    apply_rule(tmp_path, "a += b;", "a += w;", at="+=",
               message="+: cannot be applied to expressions of types bit<8> and bit<16>")
    apply_rule(tmp_path, "f = f && f;", "f += true;",
               at="+=", message="+: cannot be applied to expressions of type bool")
    apply_rule(tmp_path, "a += 1;", "r += 1;",
               at="r +=", message="r cannot be assigned", params=PARAMS + ", in bit<8> r")


def test_locals_are_initialized_with_their_type(tmp_path):
    c = accept(tmp_path, control("bit<8> x = 5; bit<16> y = a ++ b; bool g = a == b;"))
    assert c.decl("x", ir.Variable).init.type == t.Bits(8)
    assert c.decl("y", ir.Variable).init.type == t.Bits(16)
    apply_rule(tmp_path, "bit<16> y = a ++ b;", "bit<8> y = a ++ b;", at="++",
               message="initializer: cannot convert bit<16> to bit<8>")


def test_locals_of_types_without_values(tmp_path):
    apply_rule(tmp_path, "bit<8> x = 3;", "int x = 3;", at="int x", message="x: a variable cannot have type int")
    apply_rule(tmp_path, "bit<8> x = 3;", "string x = \"a\";", at="string x",
               message="x: a variable cannot have type string")


# ----------------------------------------------------------------------------
# Conditions


def test_if_else_chains(tmp_path):
    c = accept(tmp_path, control("if (a == 1) { b = 2; } else if (f) { b = 3; } else { b = 4; }"))
    stmt = c.find("if (a == 1)", ir.IfStatement)
    assert stmt.cond.type == t.Bool()
    assert isinstance(stmt.otherwise, ir.IfStatement)


def test_if_conditions_are_bool(tmp_path):
    apply_rule(tmp_path, "if (a != 0) { b = 2; }", "if (a) { b = 2; }", at="a)",
               message="the condition of an if statement must be bool, not bit<8>")
    apply_rule(tmp_path, "if (true) { b = 2; }", "if (1) { b = 2; }", at="1)",
               message="the condition of an if statement must be bool, not int")


def test_each_branch_is_a_scope(tmp_path):
    apply_rule(tmp_path, "if (f) { bit<8> x = 1; a = x; } else { bit<8> x = 2; a = x; }",
               "if (f) { bit<8> x = 1; } else { a = x; }", at="x; }", message="x: declaration not found")


# ----------------------------------------------------------------------------
# Switch


TABLE = """
    action x() {}
    action y() {}
    action z() {}
    table t { key = { a : exact; } actions = { x; y; NoAction; } }
"""


def table_switch(body: str) -> str:
    return f"""
        control C(inout bit<8> a) {{
            {TABLE}
            apply {{ {body} }}
        }}
    """


def test_switch_on_action_run(tmp_path):
    c = accept(tmp_path, table_switch(
        "switch (t.apply().action_run) { x: { a = 1; } y: { a = 2; } default: { a = 3; } }"))
    switch = c.find("switch", ir.SwitchStatement)
    assert str(switch.expr.type) == "action_list(C.t)"
    assert [str(case.label.type) for case in switch.cases] == ["action_list(C.t)"] * 3


def test_action_run_labels_fall_through(tmp_path):
    c = accept(tmp_path, table_switch("switch (t.apply().action_run) { x: y: { a = 1; } NoAction: { } }"))
    cases = c.find("switch", ir.SwitchStatement).cases
    assert [case.body is None for case in cases] == [True, False, False]


def test_action_run_labels_are_actions_of_the_table(tmp_path):
    assert_rule(tmp_path, table_switch("switch (t.apply().action_run) { y: { a = 1; } }"),
                table_switch("switch (t.apply().action_run) { z: { a = 1; } }"),
                at="z:", message="z: not an action of table C.t")


def test_action_run_labels_once(tmp_path):
    assert_rule(tmp_path, table_switch("switch (t.apply().action_run) { x: { } y: { } }"),
                table_switch("switch (t.apply().action_run) { x: { } x: { } }"),
                at="x: { } }", message="x: duplicate switch label")


def test_default_label_comes_last(tmp_path):
    assert_rule(tmp_path, table_switch("switch (t.apply().action_run) { x: { } default: { } }"),
                table_switch("switch (t.apply().action_run) { default: { } x: { } }"),
                at="x: { } }", message="the default label must be the last one")


def test_default_label_may_follow_a_fall_through(tmp_path):
    c = accept(tmp_path, table_switch("switch (t.apply().action_run) { x: default: { a = 1; } }"))
    cases = c.find("switch", ir.SwitchStatement).cases
    assert isinstance(cases[1].label, ir.DefaultExpression) and cases[0].body is None


def test_switch_on_values(tmp_path):
    c = accept(tmp_path, control("switch (a) { 1: { w = 1; } 2: 3: { w = 2; } default: { w = 0; } }"))
    switch = c.find("switch", ir.SwitchStatement)
    assert switch.expr.type == t.Bits(8)
    assert [str(case.label.type) for case in switch.cases] == ["bit<8>"] * 4
    assert [case.body is None for case in switch.cases] == [False, True, False, False]


def test_switch_on_enums(tmp_path):
    accept(tmp_path, """
        enum E { P, Q }
        control C(inout E e, inout bit<8> a) { apply { switch (e) { E.P: { a = 1; } E.Q: { a = 2; } } } }
    """)


def test_a_last_label_may_fall_through(tmp_path):
    # p4c warns ("fallthrough with no statement") and drops it.
    accept(tmp_path, control("switch (a) { 1: { } 2: }"))


def test_switch_value_labels_once(tmp_path):
    apply_rule(tmp_path, "switch (a) { 1: { w = 1; } 2: { w = 2; } }", "switch (a) { 1: { w = 1; } 1: { w = 2; } }",
               at="1: { w = 2", message="duplicate switch label")
    apply_rule(tmp_path, "switch (a) { 1: { } 2: { } }", "switch (a) { 1: { } K: { } }", at="K:",
               message="K: duplicate switch label", decls="const bit<8> K = 1;")


def test_switch_value_labels_are_constants_of_the_type(tmp_path):
    apply_rule(tmp_path, "switch (a) { 8w1: { } }", "switch (a) { b: { } }", at="b:",
               message="switch labels must be compile-time constants")
    apply_rule(tmp_path, "switch (a) { 8w1: { } }", "switch (a) { 16w1: { } }", at="16w1",
               message="switch label: cannot convert bit<16> to bit<8>")


def test_no_switch_on_bool(tmp_path):
    apply_rule(tmp_path, "switch (a) { 1: { } }", "switch (f) { true: { } }", at="f) { true",
               message="cannot switch on a value of type bool")


def test_no_switch_in_parsers(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { bit<8> a = 0; if (a == 1) { a = 2; } transition accept; } }
    """, """
        parser P(packet_in p) { state start { bit<8> a = 0; switch (a) { 1: { } } transition accept; } }
    """, at="switch", message="switch statements are not allowed in parsers")


# ----------------------------------------------------------------------------
# Return and exit


def test_return_without_value_in_controls_and_actions(tmp_path):
    accept(tmp_path, """
        control C(inout bit<8> a) {
            action x() { if (a == 0) { return; } a = 1; }
            apply { if (a == 0) { return; } x(); }
        }
    """)


def test_return_with_a_value_only_in_functions(tmp_path):
    apply_rule(tmp_path, "return;", "return 1;", at="return", message="return with a value where none is expected")
    assert_rule(tmp_path, """
        control C(inout bit<8> a) { action x() { return; } apply { x(); } }
    """, """
        control C(inout bit<8> a) { action x() { return a; } apply { x(); } }
    """, at="return", message="return with a value where none is expected")
    assert_rule(tmp_path, """
        void f(in bit<8> v) { return; }
    """, """
        void f(in bit<8> v) { return v; }
    """, at="return", message="return with a value where none is expected")


def test_functions_return_a_value_of_their_type(tmp_path):
    c = accept(tmp_path, """
        bit<8> f(in bit<8> v) { if (v == 0) { return 1; } else { return v; } }
    """)
    assert c.find("return 1", ir.ReturnStatement).value.type == t.Bits(8)
    assert_rule(tmp_path, """
        bit<8> f(in bit<8> v) { return v; }
    """, """
        bit<8> f(in bit<8> v) { return true; }
    """, at="true", message="return value: cannot convert bool to bit<8>")
    assert_rule(tmp_path, """
        bit<8> f(in bit<8> v) { return v; }
    """, """
        bit<8> f(in bit<8> v) { return; }
    """, at="return", message="return without a value in a function returning bit<8>")


def test_functions_return_on_every_path(tmp_path):
    assert_rule(tmp_path, """
        bit<8> f(in bit<8> v) { if (v == 0) { return 1; } return v; }
    """, """
        bit<8> f(in bit<8> v) { if (v == 0) { return 1; } }
    """, at="f(", message="f: function does not return a value on every path")


def test_no_return_in_parsers(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { transition accept; } }
    """, """
        parser P(packet_in p) { state start { return; } }
    """, at="return", message="return statements are not allowed in parsers")


def test_exit_in_controls_and_actions(tmp_path):
    accept(tmp_path, """
        control C(inout bit<8> a) { action x() { exit; } apply { x(); if (a == 1) { exit; } } }
    """)


def test_no_exit_in_parsers_or_functions(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { transition reject; } }
    """, """
        parser P(packet_in p) { state start { exit; } }
    """, at="exit", message="exit statements are not allowed in")
    assert_rule(tmp_path, """
        bit<8> f(in bit<8> v) { return v; }
    """, """
        bit<8> f(in bit<8> v) { exit; }
    """, at="exit", message="exit statements are not allowed in functions")


# ----------------------------------------------------------------------------
# Loops


def test_for_loops_with_break_and_continue(tmp_path):
    c = accept(tmp_path, control(
        "for (bit<8> i = 0; i < 4; i = i + 1) { if (i == 2) { continue; } if (a == 3) { break; } a = a + i; }"))
    loop = c.find("for", ir.ForStatement)
    assert loop.cond.type == t.Bool()
    assert c.type_of("a + i") == "bit<8>"


def test_for_in_loops(tmp_path):
    c = accept(tmp_path, """
        header h_t { bit<8> x; }
        control C(inout h_t[3] hs, inout bit<8> a) {
            apply {
                for (h_t h in hs) { a = a + h.x; if (a > 10) { break; } }
                for (bit<8> i in 0 .. 3) { a = a + i; }
            }
        }
    """)
    assert c.type_of("h.x") == "bit<8>"
    assert c.type_of("a + i") == "bit<8>"


def test_for_in_variables_have_the_element_type(tmp_path):
    assert_rule(tmp_path, """
        header h_t { bit<8> x; }
        control C(inout h_t[3] hs) { apply { for (h_t h in hs) { } } }
    """, """
        header h_t { bit<8> x; }
        control C(inout h_t[3] hs) { apply { for (bit<8> h in hs) { } } }
    """, at="h in", message="h: a bit<8> cannot range over elements of type header h_t")


def test_for_in_loops_range_over_collections(tmp_path):
    accept(tmp_path, control("for (bit<8> i in 0 .. 3) { a = i; }"))
    reject(tmp_path, control("for (bit<8> i in b) { a = i; }"))


def test_loops_in_actions_and_functions(tmp_path):
    accept(tmp_path, """
        bit<8> sum(in bit<8> v) { bit<8> s = 0; for (bit<8> i = 0; i < v; i = i + 1) { s = s + i; } return s; }
        control C(inout bit<8> a) {
            action x() { for (bit<8> i = 0; i < 2; i = i + 1) { if (i == 1) { break; } a = sum(i); } }
            apply { x(); }
        }
    """)


def test_break_and_continue_only_in_loops(tmp_path):
    apply_rule(tmp_path, "for (bit<8> i = 0; i < 4; i = i + 1) { break; }", "if (f) { break; }", at="break",
               message="break outside a loop")
    apply_rule(tmp_path, "for (bit<8> i = 0; i < 4; i = i + 1) { continue; }", "if (f) { continue; }", at="continue",
               message="continue outside a loop")


def test_loop_conditions_are_bool(tmp_path):
    apply_rule(tmp_path, "for (bit<8> i = 0; i < 4; i = i + 1) { }", "for (bit<8> i = 0; i; i = i + 1) { }",
               at="i; i", message="the loop condition must be bool, not bit<8>")


def test_loop_variables_are_local_to_the_loop(tmp_path):
    apply_rule(tmp_path, "for (bit<8> i = 0; i < 4; i = i + 1) { a = i; }",
               "for (bit<8> i = 0; i < 4; i = i + 1) { } a = i;", at="i;", message="i: declaration not found")


# ----------------------------------------------------------------------------
# Calls as statements and blocks


def test_method_calls_as_statements(tmp_path):
    c = accept(tmp_path, control("h.setValid(); h.setInvalid();", "header h_t { bit<8> x; }", "inout h_t h"))
    assert c.find("h.setValid()", ir.MethodCallStatement).call.type == t.Void()


def test_instances_are_not_declared_in_blocks(tmp_path):
    accept(tmp_path, """
        extern E { E(); void f(); }
        control C() { E() e; action a() { e.f(); } apply { a(); } }
    """)
    bad = reject(tmp_path, """
        extern E { E(); void f(); }
        control C() { action a() { E() e; e.f(); } apply { a(); } }
    """)
    assert has_error(bad, "e;", "e: instances cannot be declared inside")
