"""dead-code: what never runs or is never used goes; the architecture's declarations and behaviour stay."""

from __future__ import annotations

from pathlib import Path

from midend_snippets import decl, ingress, load, nodes, run, stf, the, v1model

from p4odp import ir
from p4odp.transpiler.passes import ConstantFolding, DeadCode, UniqueNames
from p4odp.transpiler.passes._walk import is_architecture_decl


def sweep(tmp_path: Path, body: str = "", locals: str = "", globals: str = "", **kw):
    program = load(tmp_path, v1model(body, locals, globals, **kw))
    result = run(program, [DeadCode()])
    return program, result.program, result.reports


def test_statements_after_return_and_exit_are_removed(tmp_path: Path):
    _, after, reports = sweep(tmp_path, """
        if (hdr.h.a == 0) {
            exit;
            hdr.h.a = 5;
            hdr.h.b = 6;
        }
        finish();
    """, locals="""
        action finish() {
            hdr.h.w = 1;
            return;
            hdr.h.w = 2;
        }
    """)
    [then] = [i.then for i in nodes(ingress(after).body, ir.IfStatement)]
    assert [type(s) for s in then.statements] == [ir.ExitStatement]
    action = the(after, "finish", ir.Action)
    assert [type(s) for s in action.body.statements] == [ir.Assignment, ir.ReturnStatement]
    assert any(r.startswith("dead-code: removed 2 statement(s) after exit, never reached (") for r in reports)
    assert any("removed 1 statement(s) after return" in r for r in reports)


def test_statements_after_an_if_whose_branches_both_end_are_removed(tmp_path: Path):
    _, after, _ = sweep(tmp_path, """
        if (hdr.h.a == 0) { exit; } else { return; }
        hdr.h.b = 1;
    """)
    assert not nodes(ingress(after).body, ir.Assignment)


def test_branches_of_literal_conditions_are_removed(tmp_path: Path):
    _, after, reports = sweep(tmp_path, """
        if (false) { hdr.h.a = 1; } else { hdr.h.a = 2; }
        if (true) { hdr.h.b = 3; } else { hdr.h.b = 4; }
        if (false) { hdr.h.w = 5; }
        if (hdr.h.s == 0) { hdr.h.w = 6; }
    """)
    body = ingress(after).body
    assert [a.value.value for a in nodes(body, ir.Assignment)] == [2, 3, 6]
    assert len(nodes(body, ir.IfStatement)) == 1
    assert sum("branch of if" in r for r in reports) == 3


def test_constant_conditions_go_once_folded(tmp_path: Path):
    program = load(tmp_path, v1model("if (DEBUG) { hdr.h.a = 1; } hdr.h.b = 2;",
                                     globals="const bool DEBUG = false;"))
    without_folding = run(program, [DeadCode()]).program
    assert len(nodes(ingress(without_folding).body, ir.IfStatement)) == 1  # a name is not a literal
    folded = run(program, [UniqueNames(), ConstantFolding(), DeadCode()]).program
    assert not nodes(ingress(folded).body, ir.IfStatement)


def test_parser_states_unreachable_from_start_are_removed(tmp_path: Path):
    _, after, reports = sweep(tmp_path, parser="""
        state start {
            pkt.extract(hdr.h);
            transition select(hdr.h.a) { 1: one; default: accept; }
        }
        state one { transition two; }
        state two { transition accept; }
        state orphan { transition orphan2; }
        state orphan2 { transition one; }
    """)
    parser = the(after, "P", ir.Parser)
    assert [s.name for s in parser.states] == ["start", "one", "two"]
    assert any(r.startswith("dead-code: removed parser state P.orphan, unreachable from start") for r in reports)
    assert any("P.orphan2" in r for r in reports)


def test_tables_never_applied_and_their_actions_are_removed(tmp_path: Path):
    _, after, reports = sweep(tmp_path, "used.apply(); called();", locals="""
        action listed() { hdr.h.a = 1; }
        action only_in_unused_table() { hdr.h.a = 2; }
        action called() { hdr.h.a = 3; }
        action never() { hdr.h.a = 4; }
        table used { key = { hdr.h.a : exact; } actions = { listed; } }
        table unused { key = { hdr.h.a : exact; } actions = { only_in_unused_table; } }
    """)
    control = ingress(after)
    assert [d.name for d in control.locals] == ["listed", "called", "used"]
    assert "dead-code: removed table Ing.unused, never applied" in "\n".join(reports)
    assert any(r.startswith("dead-code: removed action Ing.never, never used (") and "prog.p4:" in r for r in reports)
    assert any("removed action Ing.only_in_unused_table" in r for r in reports)


def test_unused_top_level_actions_and_functions_are_removed(tmp_path: Path):
    _, after, reports = sweep(tmp_path, "hdr.h.a = twice(hdr.h.a); t.apply();", locals="""
        table t { key = { hdr.h.a : exact; } actions = { global_used; } }
    """, globals="""
        action global_used() { }
        action global_unused() { }
        bit<8> helper(in bit<8> x) { return x; }
        bit<8> twice(in bit<8> x) { return helper(x) + helper(x); }
        bit<8> unused_helper(in bit<8> x) { return x; }
        bit<8> unused_function(in bit<8> x) { return unused_helper(x); }
    """)
    for name in ("global_used", "twice", "helper"):
        assert decl(after, name) is not None, name
    for name in ("global_unused", "unused_function", "unused_helper"):
        assert decl(after, name) is None, name
    assert any("removed function unused_function, never used" in r for r in reports)


def test_unused_local_variables_are_removed_unless_their_initializer_calls(tmp_path: Path):
    _, after, reports = sweep(tmp_path, """
        bit<8> unused = hdr.h.a + 1;
        bit<8> calls = bump(hdr.h.a);
        bit<8> used = hdr.h.b;
        hdr.h.a = used;
        bit<8> written;
        written = 1;
        t.apply();
    """, locals="""
        bit<8> local_unused;
        bit<8> local_read;
        action read_it() { hdr.h.b = local_read; }
        table t { key = { hdr.h.a : exact; } actions = { read_it; } }
    """, globals="""
        bit<8> bump(inout bit<8> x) { x = x + 1; return x; }
    """, parser="""
        state start {
            bit<8> kept_for_select = 1;
            bit<8> dropped = 2;
            pkt.extract(hdr.h);
            transition select(kept_for_select) { default: accept; }
        }
    """)
    names = {d.name for d in nodes(after, ir.Variable)}
    assert {"calls", "used", "written", "kept_for_select"} <= names
    assert not names & {"unused", "local_unused", "dropped"}
    assert any("removed variable Ing.local_unused, never read nor written" in r for r in reports)


def test_the_architecture_and_the_package_blocks_are_kept(tmp_path: Path):
    before, after, _ = sweep(tmp_path, globals="""
        control NeverUsed(inout headers_t hdr) { apply { } }
        extern void my_extern();
        typedef bit<8> byte_t;
    """)
    kept = {id(d) for d in after.declarations}
    lost = [d for d in before.declarations if id(d) not in kept]
    assert lost == []  # nothing but functions and actions goes at the top level, and none is unused here
    assert decl(after, "NoAction", ir.Action) is not None  # the default of tables without one
    assert all(is_architecture_decl(d) for d in after.declarations if d.loc.file.endswith(("core.p4", "v1model.p4")))


def test_a_clean_program_is_left_as_it_was(tmp_path: Path):
    program = load(tmp_path, v1model("t.apply();", locals="""
        action set(bit<8> v) { hdr.h.a = v; }
        table t { key = { hdr.h.a : exact; } actions = { set; NoAction; } }
    """))
    once = run(program, [DeadCode()]).program
    twice = run(once, [DeadCode()])
    assert twice.program is once and twice.reports == []


def test_swept_program_behaves_as_the_original(tmp_path: Path):
    source = v1model("""
        sm.egress_spec = 1;
        bit<8> scratch = hdr.h.b;
        if (DEBUG) { hdr.h.a = 0xEE; }
        if (hdr.h.a == 1) {
            hdr.h.b = 0x11;
            exit;
            hdr.h.b = 0x22;
        }
        t.apply();
    """, locals="""
        bit<8> never_used;
        action set_w(bit<16> w) { hdr.h.w = w; return; hdr.h.w = 0; }
        action unused() { hdr.h.w = 0xFFFF; }
        table t { key = { hdr.h.a : exact; } actions = { set_w; NoAction; } default_action = set_w(0x0101); }
        table never_applied { key = { hdr.h.a : exact; } actions = { unused; } }
    """, globals="const bool DEBUG = false;", parser="""
        state start { pkt.extract(hdr.h); transition accept; }
        state orphan { transition reject; }
    """)
    program = load(tmp_path, source)
    swept = run(program, [UniqueNames(), ConstantFolding(), DeadCode()]).program
    assert decl(swept, "never_applied") is None and decl(swept, "orphan") is None
    test = """
        add t hdr.h.a:2 set_w(w:0xBEEF)
        packet 0 01 00 00 0000 aa
        expect 1 01 11 00 0000 aa $
        packet 0 02 00 00 0000 bb
        expect 1 02 00 00 beef bb $
        packet 0 03 00 00 0000 cc
        expect 1 03 00 00 0101 cc $
    """
    for name, variant in (("original", program), ("swept", swept)):
        result = stf(tmp_path, variant, tmp_path / "prog.p4", test, name)
        assert result.passed, f"{name}: {result.report}"
