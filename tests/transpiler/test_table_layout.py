"""table-layout: key bytes, action ids and data, defaults, sizes and const entries, decided before C is printed."""

from __future__ import annotations

from pathlib import Path

from midend_snippets import load, v1model

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.transpiler.passes import PassOptions, default_passes, midend

TABLES = """
    action set(bit<8> v, bit<16> w) { hdr.h.a = v; hdr.h.w = w; }
    action other(int<8> s) { hdr.h.s = s; }
    table first {
        key = { hdr.h.a : exact; hdr.h.w : ternary; }
        actions = { set; other; }
        default_action = set(1, 0x203);
        size = 16;
        const entries = {
            (1, 2 &&& 3) : other(-1);
            (2, _) : set(4, 5);
            @priority(7) (3, 0 &&& 0) : set(6, 7);
        }
    }
    table second { key = { hdr.h.b : lpm; } actions = { other; } }
"""


def layouts(tmp_path: Path, locals: str, body: str = "first.apply(); second.apply();") -> tuple:
    program = load(tmp_path, v1model(body, locals))
    diags = Diagnostics()
    result = midend(program, diags, PassOptions(validate=True))
    return result, diags


def test_keys_take_whole_bytes_right_aligned_in_order(tmp_path: Path):
    result, _ = layouts(tmp_path, TABLES)
    first = result.table_layouts["first"]
    assert [(k.name, k.match_kind, k.width, k.bit_offset) for k in first.keys] == \
        [("hdr.h.a", "exact", 8, 0), ("hdr.h.w", "ternary", 16, 8)]
    assert first.key_bytes == 3 and first.index == 0 and result.table_layouts["second"].index == 1


def test_actions_are_numbered_once_for_the_program_with_their_data_layout(tmp_path: Path):
    result, _ = layouts(tmp_path, TABLES)
    first, second = result.table_layouts["first"], result.table_layouts["second"]
    assert [(a.action, a.id) for a in first.actions] == [("set", 1), ("other", 2)]
    assert [a.id for a in second.actions] == [2, 3]  # other again, then NoAction: no default_action given
    assert second.default_action == 3 and result.actions["NoAction"].name == "NoAction"
    assert [(f.name, f.width, f.byte_offset) for f in result.actions["set"].data] == [("v", 8, 0), ("w", 16, 1)]
    assert result.actions["set"].name == "Ing.set" and first.data_bytes == 3


def test_default_action_data_size_and_const_entries(tmp_path: Path):
    result, _ = layouts(tmp_path, TABLES)
    first = result.table_layouts["first"]
    assert (first.default_action, first.default_data, first.size) == (1, (1, 0x02, 0x03), 16)
    assert result.table_layouts["second"].size == 1024  # simple_switch's default
    # The earlier entry wins without a priority; BMv2's `@priority(N)`: simple_switch_CLI's priority
    # N.  The runtime's priorities are P4Runtime's: the larger wins.
    top = (1 << 31) - 1
    assert [([(m.value, m.mask) for m in e.matches], e.priority, e.action_id, e.data) for e in first.entries] == \
        [([(1, 0xff), (2, 3)], top - 1, 2, (0xff, 0, 0)), ([(2, 0xff), (0, 0)], top - 2, 1, (4, 0, 5)),
         ([(3, 0xff), (0, 0)], top - 7, 1, (6, 0, 7))]


def test_entries_rank_by_their_p4_priorities(tmp_path: Path):
    # The front end gives every entry its priority (priority_delta); the larger wins (the smaller
    # CLI priority), the smaller with largest_priority_wins = false.
    rows = "priority=10: 1 &&& 1 : other(1); 2 : other(2);"
    for props, cli in (("", [(1 << 24) - 1 - 10, (1 << 24) - 1 - 9]), ("largest_priority_wins = false;", [10, 11])):
        result, _ = layouts(tmp_path, "action other(int<8> s) { hdr.h.s = s; }\n"
                                      f"table t {{ key = {{ hdr.h.a : ternary; }} actions = {{ other; }} {props} "
                                      f"entries = {{ {rows} }} }}", "t.apply();")
        assert [(1 << 31) - 1 - e.priority for e in result.table_layouts["t"].entries] == cli, props


def test_const_entries_compiled_to_code_in_the_order_they_win(tmp_path: Path):
    result, _ = layouts(tmp_path, TABLES + """
        table third {
            key = { hdr.h.w : lpm; }
            actions = { other; }
            const entries = {
                0x1200 &&& 0xff00 : other(1);
                0x1234 : other(2);
                0x1200 &&& 0xf000 : other(3);
            }
        }
    """, "first.apply(); second.apply(); third.apply();")
    first, third = result.table_layouts["first"], result.table_layouts["third"]
    assert first.structure == third.structure == "code"
    # As the runtime ranks them: by simple_switch priority, the smaller first (the entries
    # without one by position, the one with `@priority(7)` after them), then in program order.
    assert [(e.action, e.data) for e in first.code_entries] == \
        [("other", (0xff, 0, 0)), ("set", (4, 0, 5)), ("set", (6, 0, 7))]
    assert [[(m.value, m.mask) for m in e.matches] for e in first.code_entries] == \
        [[(1, 0xff), (2, 3)], [(2, 0xff), (0, 0)], [(3, 0xff), (0, 0)]]
    # The longest prefix first.
    assert [(e.matches[0].value, e.matches[0].mask, e.data) for e in third.code_entries] == \
        [(0x1234, 0xffff, (2,)), (0x1200, 0xff00, (1,)), (0x1000, 0xf000, (3,))]
    assert result.table_layouts["second"].code_entries == ()


def test_const_entries_made_equal_by_constructor_arguments_are_refused(tmp_path: Path):
    """The front end cannot tell `p` from 5 before the control is instantiated; the generated
    lookup could not hold both (two `case 5:`)."""
    source = v1model("sub.apply(hdr.h.a);", "Sub(5) sub;", globals="""
        control Sub(inout bit<8> k)(bit<8> p) {
            action hit() { k = 0; }
            table t { key = { k : exact; } actions = { hit; } const entries = { p : hit(); 5 : hit(); } }
            apply { t.apply(); }
        }
    """)
    diags = Diagnostics()
    assert midend(load(tmp_path, source), diags).program is None
    [error] = diags.items
    assert error.message == "this entry's key is that of an earlier entry, with the constructor arguments given"
    [(line, text)] = [(n, text) for n, text in enumerate(source.splitlines(), 1) if "5 : hit()" in text]
    assert (error.loc.line, error.loc.col) == (line, text.index("5 : hit()") + 1)


def test_a_mask_on_an_exact_key_is_refused(tmp_path: Path):
    result, diags = layouts(tmp_path, "action hit() { }\n"
                                      "table t { key = { hdr.h.a : exact; } actions = { hit; } "
                                      "const entries = { 0x15 &&& 0xf0 : hit(); } }", "t.apply();")
    assert result.program is None
    [error] = diags.items
    assert error.message == "an exact key takes a value, not a mask: match it ternary"


def test_properties_it_cannot_honour_are_positioned_errors(tmp_path: Path):
    result, diags = layouts(tmp_path, """
        table t { key = { hdr.h.a : exact; } actions = { NoAction; } add_on_miss = true; }
        table u { key = { hdr.h.a : exact; } actions = { NoAction; } add_on_miss = false; }
    """, "t.apply(); u.apply();")
    assert result.program is None
    [error] = diags.items
    assert error.message == "not supported by the C generator yet: the table property add_on_miss"
    assert error.loc.line > 0


def test_support_timeout_gives_a_table_idle_timeouts(tmp_path: Path):
    result, diags = layouts(tmp_path, """
        const bool TIMED = true;
        table t { key = { hdr.h.a : exact; } actions = { NoAction; } support_timeout = TIMED; }
        table u { key = { hdr.h.a : exact; } actions = { NoAction; } support_timeout = false; }
        table v { key = { hdr.h.a : exact; } actions = { NoAction; } }
    """, "t.apply(); u.apply(); v.apply();")
    assert not diags.items
    assert [layout.idle_timeout for layout in result.table_layouts.values()] == [True, False, False]


def test_the_pass_runs_after_every_pass_that_changes_the_ir_and_changes_none(tmp_path: Path):
    names = [p.name for p in default_passes()]
    assert names[names.index("table-layout") + 1:] == ["burst-lookup", "unread-fields"]  # change no IR
    program = load(tmp_path, v1model("first.apply(); second.apply();", TABLES))
    before = midend(program, Diagnostics(), PassOptions(skip=["table-layout"]))
    after = midend(program, Diagnostics())
    assert before.table_layouts == {} and after.table_layouts
    assert ir.to_json(before.program) == ir.to_json(after.program)


def test_a_property_no_architecture_defines_is_ignored_with_a_warning(tmp_path: Path):
    # As BMv2 ignores it (p4c's junk-prop-bmv2); support_timeout, which v1model defines, is refused above.
    result, diags = layouts(tmp_path, "table t { key = { hdr.h.a : exact; } actions = { NoAction; } junk = 1; }",
                            "t.apply();")
    assert result.program is not None and "t" in result.table_layouts
    [warning] = diags.items
    assert warning.severity == "warning" and "the table property junk means nothing to v1model; ignored" in \
        warning.message


def test_entry_keys_in_braces_concatenations_and_errors(tmp_path: Path):
    # p4c's action-two-params (`{ a ++ b }` for one key) and issue1062 (an error as a key): errors
    # take their codes, in the order they are declared (core.p4's first).
    result, diags = layouts(tmp_path, """
        action set(bit<8> v, bit<16> w) { hdr.h.a = v; hdr.h.w = w; }
        table cat {
            key = { hdr.h.w : exact; }
            actions = { set; }
            const entries = { { (8w0x12 ++ 8w0x34) } : set(1, (8w0x56 ++ 8w0x78)); }
        }
        table err {
            key = { sm.parser_error : exact; }
            actions = { set; }
            const entries = { error.NoError : set(2, 0); error.PacketTooShort : set(3, 0); }
        }
    """, "cat.apply(); err.apply();")
    assert not diags.items
    assert [(e.matches[0].value, e.data) for e in result.table_layouts["cat"].entries] == [(0x1234, (1, 0x56, 0x78))]
    assert [(e.matches[0].value, e.data) for e in result.table_layouts["err"].entries] == \
        [(0, (2, 0, 0)), (1, (3, 0, 0))]
