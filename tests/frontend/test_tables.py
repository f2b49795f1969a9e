"""Unit tests of `p4odp.frontend.tables`: keys, action lists, default actions, entries, size.

The snippets declare one table `t` in a v1model control (for the `range` and
`optional` match kinds); each rule is shown by a valid table and an invalid
variant with one error at an exact position (see `snippets.py`).
"""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t

from snippets import accept, assert_rule, nodes, reject


def table(text: str) -> str:
    """A snippet: a control with actions `fwd(p)`, `set_port(inout q, p)`, `drop()` and the table `text`."""
    return f"""
        header h_t {{ bit<8> x; bit<16> y; bit<32> z; }}
        control C(inout h_t h, inout bit<9> port, inout bit<9> other) {{
            action fwd(bit<9> p) {{ port = p; }}
            action set_port(inout bit<9> q, bit<9> p) {{ q = p; }}
            action drop() {{}}
            {text}
            apply {{ t.apply(); }}
        }}
    """


def rule(tmp_path, valid: str, invalid: str, at: str, message: str, occurrence: int = 1) -> None:
    """`assert_rule` on two tables."""
    assert_rule(tmp_path, table(valid), table(invalid), at, message, arch="v1model", occurrence=occurrence)


def with_entries(key: str, rows: str, actions: str = "drop;", const: bool = True) -> str:
    """A table `t` with the key elements `key`, the actions `actions` and the (const) entries `rows`."""
    return f"table t {{ key = {{ {key} }} actions = {{ {actions} }} {'const ' if const else ''}entries = {{ {rows} }} }}"


def entries(compiled) -> list[ir.Entry]:
    return [n for n in nodes(compiled.program) if isinstance(n, ir.Entry)]


# ----------------------------------------------------------------------------
# Keys


def test_keys_and_their_match_kinds(tmp_path):
    c = accept(tmp_path, table("""
        table t {
            key = { h.x : exact; h.y : ternary; h.z : lpm; port : range; other : optional; h.isValid() : exact; }
            actions = { fwd; drop; }
        }
    """), arch="v1model")
    keys = c.decl("t", ir.Table).properties[0].value
    assert [(k.match_kind, str(k.expr.type)) for k in keys] == [
        ("exact", "bit<8>"), ("ternary", "bit<16>"), ("lpm", "bit<32>"), ("range", "bit<9>"),
        ("optional", "bit<9>"), ("exact", "bool")]


def test_match_kinds_are_declared(tmp_path):
    rule(tmp_path, "table t { key = { h.x : ternary; } actions = { drop; } }",
         "table t { key = { h.x : fuzzy; } actions = { drop; } }", at="fuzzy", message="fuzzy: not a match kind")
    rule(tmp_path, "table t { key = { h.x : exact; } actions = { drop; } }",
         "table t { key = { h.x : drop; } actions = { drop; } }", at="drop;", message="drop: not a match kind")


def test_key_types(tmp_path):
    accept(tmp_path, """
        enum E { A }
        control C(inout E e, inout bool b, inout error err) {
            table t { key = { e : exact; b : exact; err : exact; } actions = { NoAction; } }
            apply { t.apply(); }
        }
    """)
    rule(tmp_path, "table t { key = { h.x : exact; } actions = { drop; } }",
         "table t { key = { h : exact; } actions = { drop; } }", at="h :",
         message="a table key cannot have type header h_t")


def test_complex_keys_need_a_name(tmp_path):
    rule(tmp_path, 'table t { key = { h.x + 1 : exact @name("x_plus_1"); h.x & 0xf : ternary; } actions = { drop; } }',
         "table t { key = { h.x + 1 : exact; } actions = { drop; } }", at="+ 1",
         message="a complex key expression needs a @name annotation")


def test_keys_need_a_width(tmp_path):
    rule(tmp_path, 'table t { key = { 8w5 : exact @name("five"); } actions = { drop; } }',
         'table t { key = { 5 : exact @name("five"); } actions = { drop; } }',
         at="5 :", message="a table key needs a width; cast the value")


# ----------------------------------------------------------------------------
# Actions


def test_tables_need_actions(tmp_path):
    rule(tmp_path, "table t { key = { h.x : exact; } actions = { drop; } }",
         "table t { key = { h.x : exact; } }", at="t { key", message="table t: the actions property is missing")


def test_actions_are_listed_once(tmp_path):
    rule(tmp_path, "table t { actions = { drop; fwd; } }", "table t { actions = { drop; drop; } }",
         at="drop; }", message="drop: action listed twice")


def test_listed_actions_are_declared_actions(tmp_path):
    rule(tmp_path, "table t { actions = { drop; } }", "table t { actions = { nope; } }",
         at="nope", message="nope: declaration not found")
    rule(tmp_path, "table t { actions = { drop; } }", "table t { actions = { port; } }",
         at="port; }", message="port is not an action")


def test_actions_from_the_top_level(tmp_path):
    c = accept(tmp_path, """
        action global_drop() {}
        control C() { table t { actions = { global_drop; .NoAction; } } apply { t.apply(); } }
    """)
    listed = c.decl("t", ir.Table).properties[0].value
    assert [(ref.name, ref.is_global) for ref in listed] == [("global_drop", False), ("NoAction", True)]


def test_action_arguments_bound_in_the_list(tmp_path):
    c = accept(tmp_path, table("table t { actions = { set_port(port); fwd; } default_action = set_port(port, 3); }"),
               arch="v1model")
    listed = c.decl("t", ir.Table).properties[0].value
    assert [(ref.name, len(ref.args)) for ref in listed] == [("set_port", 1), ("fwd", 0)]
    assert listed[0].args[0].value.type == t.Bits(9)


def test_directional_parameters_are_bound_in_the_list(tmp_path):
    rule(tmp_path, "table t { actions = { set_port(port); } }", "table t { actions = { set_port; } }",
         at="set_port; }", message="set_port: parameter q must be bound")


def test_bound_arguments_of_inout_parameters_are_l_values(tmp_path):
    rule(tmp_path, "table t { actions = { set_port(other); } }", "table t { actions = { set_port(9w1); } }",
         at="9w1", message="set_port: argument q must be something that can be assigned")


def test_no_more_bound_arguments_than_parameters(tmp_path):
    rule(tmp_path, "table t { actions = { fwd(1); } }", "table t { actions = { fwd(1, 2); } }",
         at="fwd(1, 2)", message="fwd: too many arguments")


# ----------------------------------------------------------------------------
# Default actions


def test_default_action_with_and_without_parentheses(tmp_path):
    c = accept(tmp_path, table("table t { actions = { drop; fwd; } default_action = drop; }"), arch="v1model")
    assert c.decl("t", ir.Table).properties[1].value.name == "drop"
    accept(tmp_path, table("table t { actions = { drop; fwd; } const default_action = fwd(9w3); }"), arch="v1model")


def test_default_action_is_in_the_action_list(tmp_path):
    rule(tmp_path, "table t { actions = { fwd; drop; } default_action = drop(); }",
         "table t { actions = { fwd; } default_action = drop(); }",
         at="drop(); }", message="drop: the default action is not in the table's action list")


def test_default_action_gives_every_argument(tmp_path):
    rule(tmp_path, "table t { actions = { fwd; } default_action = fwd(1); }",
         "table t { actions = { fwd; } default_action = fwd(); }",
         at="fwd()", message="fwd: parameter p must be given a value")
    rule(tmp_path, "table t { actions = { fwd; } default_action = fwd(1); }",
         "table t { actions = { fwd; } default_action = fwd; }",
         at="fwd; }", occurrence=2, message="fwd: parameter p must be given a value")


def test_default_action_arguments_are_constants(tmp_path):
    rule(tmp_path, "table t { actions = { fwd; } default_action = fwd(9w3); }",
         "table t { actions = { fwd; } default_action = fwd(port); }",
         at="port)", message="fwd: the argument for p must be a compile-time constant")


def test_default_action_arguments_have_the_parameter_types(tmp_path):
    rule(tmp_path, "table t { actions = { fwd; } default_action = fwd(9w3); }",
         "table t { actions = { fwd; } default_action = fwd(true); }",
         at="true", message="fwd: argument p: cannot convert bool to bit<9>")


def test_default_action_repeats_the_bound_arguments(tmp_path):
    rule(tmp_path, "table t { actions = { set_port(port); } default_action = set_port(port, 3); }",
         "table t { actions = { set_port(port); } default_action = set_port(other, 3); }",
         at="other, 3", message="set_port: the argument does not match the one in the actions list")


def test_default_action_comes_after_the_action_list(tmp_path):
    rule(tmp_path, "table t { actions = { drop; } default_action = drop(); }",
         "table t { default_action = drop(); actions = { drop; } }",
         at="default_action", message="table t: default_action must come after actions")


def test_table_only_actions_cannot_be_the_default(tmp_path):
    rule(tmp_path, "table t { actions = { @tableonly fwd; drop; } default_action = drop(); }",
         "table t { actions = { @tableonly drop; fwd; } default_action = drop(); }",
         at="drop(); }", message="drop: an action marked @tableonly cannot be the default action")


def test_the_implicit_default_action_is_no_action(tmp_path):
    text = """
        control C() {
            action a() {}
            table t { actions = { a; } }
            apply { t.apply(); }
        }
    """
    accept(tmp_path, text)
    bad = reject(tmp_path, text, arch=None)
    assert bad.errors() == [(bad.at("t {"), "table t: the action NoAction, the default default action, is not "
                                            "declared; did you include core.p4?")]


# ----------------------------------------------------------------------------
# Entries


def test_exact_entries(tmp_path):
    c = accept(tmp_path, table("""
        table t {
            key = { h.x : exact; h.y : exact; }
            actions = { fwd; drop; }
            const entries = { (1, 0x800) : fwd(3); (0x10, _) : drop(); default : drop(); }
        }
    """), arch="v1model")
    rows = entries(c)
    assert [str(e.keyset.type) for e in rows] == ["set<tuple<bit<8>, bit<16>>>"] * 2 + ["set<<unknown>>"]
    assert c.type_of("0x800") == "bit<16>"
    assert rows[0].action.args[0].value.type == t.Bits(9)


def test_masks_ranges_prefixes_and_priorities(tmp_path):
    c = accept(tmp_path, table("""
        table t {
            key = { h.x : ternary; h.y : range; h.z : lpm; }
            actions = { fwd; drop; }
            entries = {
                priority = 9: (0x10 &&& 0xf0, 1 .. 10, 0x0a000000 &&& 0xff000000) : fwd(1);
                priority = 5: (_, _, _) : drop();
            }
        }
    """), arch="v1model")
    assert c.type_of("0x10 &&& 0xf0") == "set<bit<8>>"
    assert c.type_of("1 .. 10") == "set<bit<16>>"
    assert c.type_of("0x0a000000 &&& 0xff000000") == "set<bit<32>>"
    assert c.type_of("0xff000000") == "bit<32>"
    assert [e.priority.value for e in entries(c)] == [9, 5]


def test_lpm_masks_are_prefixes(tmp_path):
    rule(tmp_path, with_entries("h.z : lpm;", "0x0a000000 &&& 0xffff0000 : drop();"),
         with_entries("h.z : lpm;", "0x0a000000 &&& 0x00ff0000 : drop();"),
         at="&&&", message="invalid mask for an lpm key: the ones must be a prefix")


def test_ranges_only_for_range_keys(tmp_path):
    rule(tmp_path, with_entries("h.x : range;", "1 .. 2 : drop();"), with_entries("h.x : exact;", "1 .. 2 : drop();"),
         at="..", message="a exact key cannot take a range")


def test_optional_keys_take_no_mask(tmp_path):
    rule(tmp_path, with_entries("h.x : optional;", "1 : drop(); _ : drop();"),
         with_entries("h.x : optional;", "1 &&& 3 : drop();"),
         at="&&&", message="an optional key takes a value or '_', not a mask")


def test_two_entries_cannot_match_the_same_keys_with_one_priority(tmp_path):
    lpm = "h.x : exact; h.y : lpm;"
    rule(tmp_path, with_entries(lpm, "(1, 0x100 &&& 0xff00) : drop(); (1, 0x200 &&& 0xff00) : drop();"),
         with_entries(lpm, "(1, 0x100 &&& 0xff00) : drop(); (0x01, 0x1ff &&& 0xff00) : drop();"),
         at="(0x01", message="table t: this entry's key is that of an earlier entry")
    rule(tmp_path, with_entries("h.x : ternary;", "@priority(1) 1 &&& 0x0f : drop(); @priority(1) 0x11 &&& 0xff : drop();"),
         with_entries("h.x : ternary;", "@priority(1) 1 &&& 0x0f : drop(); @priority(1) 0x11 &&& 0x0f : drop();"),
         at="0x11", message="table t: this entry's key is that of an earlier entry")
    rule(tmp_path, with_entries("h.x : exact;", "{1} : drop(); 2 : drop();"),
         with_entries("h.x : exact;", "{1} : drop(); 1 : drop();"),
         at="1 : drop", message="table t: this entry's key is that of an earlier entry")
    # With priorities of their own they are two entries, as the control plane's may be.
    accept(tmp_path, table(with_entries("h.x : ternary;", "priority=2: 1 : drop(); priority=1: 1 &&& 0xff : drop();",
                                        const=False)), arch="v1model")
    accept(tmp_path, table(with_entries("h.x : ternary;", "@priority(2) 1 : drop(); @priority(1) 1 : drop();")),
           arch="v1model")  # BMv2's annotation
    accept(tmp_path, table(with_entries("h.x : ternary;", "1 : drop(); 1 : drop();")),
           arch="v1model")  # the earlier wins: the later never matches, as in BMv2
    # A key of another type is reported once, as such.
    rule(tmp_path, with_entries("h.x : exact;", "1 : drop();"), with_entries("h.x : exact;", "error.NoError : drop();"),
         at="NoError", message="cannot convert error to bit<8>")



def test_priorities_need_a_key_that_is_neither_exact_nor_lpm(tmp_path):
    for kind in ("exact", "lpm"):
        rule(tmp_path, with_entries("h.x : ternary;", "priority=1: 1 : drop();", const=False),
             with_entries(f"h.x : {kind};", "priority=1: 1 : drop();", const=False),
             at="1: 1", message="table t: exact and lpm keys do not take priorities")


def test_priorities_are_non_negative_constants(tmp_path):
    rule(tmp_path, with_entries("h.x : ternary;", "priority=0: 1 : drop();", const=False),
         with_entries("h.x : ternary;", "priority=-1: 1 : drop();", const=False),
         at="-1", message="an entry priority must be a non-negative constant")
    rule(tmp_path, with_entries("h.x : ternary;", "priority=7: 1 : drop();", const=False),
         with_entries("h.x : ternary;", "priority=h.x: 1 : drop();", const=False),
         at="x: 1", message="an entry priority must be a non-negative constant")


def test_const_entries_take_no_priorities(tmp_path):
    rule(tmp_path, with_entries("h.x : ternary;", "priority=1: 1 : drop();", const=False),
         with_entries("h.x : ternary;", "priority=1: 1 : drop();"),
         at="1: 1", message="table t: const entries cannot have priorities")


def test_entries_without_a_priority_count_on_from_the_one_before(tmp_path):
    # p4c's rule: priority_delta from the entry before, towards the losing end; none written: the
    # first entry wins (the largest priority, or the smallest with largest_priority_wins = false).
    rows = "priority=10: 1 : drop(); 2 : drop(); priority=4: 3 : drop(); 4 : drop();"
    for props, expected in (("", [10, 9, 4, 3]), ("priority_delta = 2;", [10, 8, 4, 2]),
                            ("largest_priority_wins = false; priority_delta = 3;", [10, 13, 4, 7])):
        c = accept(tmp_path, table(f"table t {{ key = {{ h.x : ternary; }} actions = {{ drop; }} {props} "
                                   f"entries = {{ {rows} }} }}"), arch="v1model")
        assert [e.priority.value for e in entries(c)] == expected, props
    for props, expected in (("", [3, 2, 1]), ("largest_priority_wins = false; priority_delta = 5;", [1, 6, 11])):
        c = accept(tmp_path, table(f"table t {{ key = {{ h.x : ternary; }} actions = {{ drop; }} {props} "
                                   f"entries = {{ 1 : drop(); 2 : drop(); 3 : drop(); }} }}"), arch="v1model")
        assert [e.priority.value for e in entries(c)] == expected, props


def test_entry_values_fit_the_key(tmp_path):
    bad = reject(tmp_path, table(with_entries("h.x : exact;", "256 : drop();")), arch="v1model")
    assert bad.errors() == [(bad.at("256"), "256 does not fit in the key's type bit<8>")]
    rule(tmp_path, with_entries("h.x : exact;", "8w1 : drop();"), with_entries("h.x : exact;", "16w1 : drop();"),
         at="16w1", message="keyset: cannot convert bit<16> to bit<8>")


def test_entries_have_one_element_per_key(tmp_path):
    rule(tmp_path, with_entries("h.x : exact; h.y : exact;", "(1, 2) : drop();"),
         with_entries("h.x : exact; h.y : exact;", "(1, 2, 3) : drop();"),
         at="(1, 2, 3)", message="the keyset has 3 elements but there are 2 keys")


def test_entry_keysets_are_constants(tmp_path):
    rule(tmp_path, with_entries("h.x : exact;", "1 : drop();"), with_entries("h.x : exact;", "h.x : drop();"),
         at="x : drop", message="keyset expressions must be compile-time constants")


def test_entry_actions_are_listed_and_complete(tmp_path):
    rule(tmp_path, with_entries("h.x : exact;", "1 : fwd(1);", actions="drop; fwd;"),
         with_entries("h.x : exact;", "1 : fwd(1);", actions="drop;"),
         at="fwd(1)", message="fwd: not in the table's action list")
    rule(tmp_path, with_entries("h.x : exact;", "1 : fwd(1);", actions="fwd;"),
         with_entries("h.x : exact;", "1 : fwd();", actions="fwd;"),
         at="fwd()", message="fwd: parameter p must be given a value")


def test_entry_action_arguments_are_constants(tmp_path):
    rule(tmp_path, with_entries("h.x : exact;", "1 : fwd(9w2);", actions="fwd;"),
         with_entries("h.x : exact;", "1 : fwd(port);", actions="fwd;"),
         at="port)", message="the action arguments of an entry must be compile-time constants")


def test_default_only_actions_are_not_in_entries(tmp_path):
    rule(tmp_path, with_entries("h.x : exact;", "1 : fwd(1);", actions="@defaultonly drop; fwd;"),
         with_entries("h.x : exact;", "1 : drop();", actions="@defaultonly drop; fwd;"),
         at="drop(); }", message="drop: an action marked @defaultonly cannot be used in entries")


def test_entries_need_a_key_declared_before_them(tmp_path):
    rule(tmp_path, with_entries("h.x : exact;", "1 : drop();"),
         "table t { actions = { drop; } const entries = { 1 : drop(); } }",
         at="entries", message="table t: entries need a table with a key")
    rule(tmp_path, with_entries("h.x : exact;", "1 : drop();"),
         "table t { const entries = { 1 : drop(); } key = { h.x : exact; } actions = { drop; } }",
         at="entries", message="table t: entries must come after the key")


def test_entries_that_are_not_const(tmp_path):
    c = accept(tmp_path, table("table t { key = { h.x : exact; } actions = { drop; } entries = { 1 : drop(); } }"),
               arch="v1model")
    assert len(entries(c)) == 1


def test_serializable_enum_keys_match_numbers(tmp_path):
    c = accept(tmp_path, """
        enum bit<8> E { A = 1, B = 2 }
        control C(inout E e) {
            action a() {}
            table t { key = { e : exact; } actions = { a; } const entries = { E.A : a(); 7 : a(); } }
            apply { t.apply(); }
        }
    """)
    assert c.type_of("7 :") == "bit<8>"


# ----------------------------------------------------------------------------
# Size and other properties


def test_size_is_a_non_negative_constant(tmp_path):
    accept(tmp_path, table("table t { actions = { drop; } size = 2 * 512; }"), arch="v1model")
    rule(tmp_path, "table t { actions = { drop; } size = 0; }", "table t { actions = { drop; } size = -1; }",
         at="-1", message="table t: size must be a non-negative integer constant")
    rule(tmp_path, "table t { actions = { drop; } size = 16; }", "table t { actions = { drop; } size = h.x; }",
         at="x; }", message="table t: size must be a non-negative integer constant")
    rule(tmp_path, "table t { actions = { drop; } size = 16; }", "table t { actions = { drop; } size = true; }",
         at="true", message="table t: size must be a non-negative integer constant")


def test_size_from_a_constructor_parameter(tmp_path):
    accept(tmp_path, """
        control C(inout bit<8> a)(bit<32> n) { table t { actions = { NoAction; } size = n; } apply { t.apply(); } }
    """)


def test_properties_are_given_once(tmp_path):
    rule(tmp_path, "table t { actions = { drop; } size = 1; }", "table t { actions = { drop; } size = 1; size = 2; }",
         at="size = 2", message="t: property size is specified twice")
