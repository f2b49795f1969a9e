"""side-effect-ordering: calls with effects become statements of their own, in P4's order; the
contract of its module docstring holds on its output, and the C generator relies on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from midend_snippets import REPO, ingress, load, run, the, v1model
from test_pass_golden import _expr

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Diagnostics, InternalError
from p4odp.frontend import FrontendOptions, load_program
from p4odp.transpiler import generate_c, passes
from p4odp.transpiler.passes import (ConstantFolding, Inlining, PassManager, PassOptions, SideEffectOrdering,
                                     UniqueNames, default_passes)
from p4odp.transpiler.passes._walk import walk
from p4odp.transpiler.passes.side_effects import has_effect, is_apply_result, is_effect_call

FUNCTIONS = """
    bit<8> bump(inout bit<8> x) { x = x + 1; return x; }
    bit<8> twice(in bit<8> v) { return v + v; }
    bit<8> sub(in bit<8> p, in bit<8> q) { return p - q; }
    void both(inout bit<8> x, in bit<8> y) { x = x + y; }
"""
STACK = "h_t[4] st;"


def order(tmp_path: Path, body: str = "", locals: str = "", **kw):
    """The program before and after the pass alone (the IR validated before and after)."""
    program = load(tmp_path, v1model(body, locals, FUNCTIONS, **kw))
    result = run(program, [SideEffectOrdering()], PassOptions(validate=True))
    return program, result.program, result


def body(program: ir.Program) -> list[str]:
    """Ing's apply block, one line per statement, as P4 would write it."""
    return lines(ingress(program).body.statements)


def p4(expr: ir.Expression) -> str:
    return _expr(ir.to_json(expr))


def lines(statements, indent: str = "") -> list[str]:
    out = []
    for stmt in statements:
        if isinstance(stmt, ir.DeclarationStatement):
            init = f" = {p4(stmt.decl.init)}" if stmt.decl.init is not None else ""
            out.append(f"{indent}{stmt.decl.type} {stmt.decl.name}{init};")
        elif isinstance(stmt, ir.Assignment):
            out.append(f"{indent}{p4(stmt.target)} {stmt.op or ''}= {p4(stmt.value)};")
        elif isinstance(stmt, ir.MethodCallStatement):
            out.append(f"{indent}{p4(stmt.call)};")
        elif isinstance(stmt, ir.IfStatement):
            out.append(f"{indent}if ({p4(stmt.cond)}) {{")
            out += lines(_inner(stmt.then), indent + "  ")
            if stmt.otherwise is not None:
                out.append(f"{indent}}} else {{")
                out += lines(_inner(stmt.otherwise), indent + "  ")
            out.append(f"{indent}}}")
        elif isinstance(stmt, ir.ForStatement):
            init = " ".join(lines(stmt.init))
            cond = p4(stmt.cond) if stmt.cond is not None else ""
            updates = " ".join(line.strip() for line in lines(stmt.updates))
            out.append(f"{indent}for ({init} {cond}; {updates}) {{")
            out += lines(_inner(stmt.body), indent + "  ")
            out.append(f"{indent}}}")
        elif isinstance(stmt, ir.SwitchStatement):
            out.append(f"{indent}switch ({p4(stmt.expr)}) {{ ... }}")
        elif isinstance(stmt, ir.BreakStatement):
            out.append(f"{indent}break;")
        elif isinstance(stmt, ir.Block):
            out.append(f"{indent}{{")
            out += lines(stmt.statements, indent + "  ")
            out.append(f"{indent}}}")
        else:
            out.append(f"{indent}{type(stmt).__name__}")
    return out


def _inner(stmt: ir.Statement) -> tuple:
    return stmt.statements if isinstance(stmt, ir.Block) else (stmt,)


# ----------------------------------------------------------------------
# Left to right


def test_an_operand_is_saved_before_a_later_call_may_change_it(tmp_path: Path):
    _, after, result = order(tmp_path, "hdr.h.a = hdr.h.b + bump(hdr.h.b);")
    assert body(after) == [
        "bit<8> tmp$1 = hdr.h.b;",
        "bit<8> tmp$2 = bump(hdr.h.b);",
        "hdr.h.a = (tmp$1 + tmp$2);",
    ]
    [report] = result.reports
    assert report.startswith("side-effect-ordering: ordered the calls: 2 temporaries (") and report.endswith(":17)")


def test_constants_and_operands_after_the_call_are_not_saved(tmp_path: Path):
    _, after, _ = order(tmp_path, "hdr.h.a = 8w1 + bump(hdr.h.b) + hdr.h.b;")
    assert body(after) == [
        "bit<8> tmp$1 = bump(hdr.h.b);",
        "hdr.h.a = ((8w1 + tmp$1) + hdr.h.b);",
    ]


def test_a_whole_call_and_calls_as_statements_stay_as_they_are(tmp_path: Path):
    before, after, result = order(tmp_path, """
        hdr.h.a = bump(hdr.h.b);
        bit<8> x = twice(hdr.h.a);
        bump(hdr.h.a);
        hdr.h.b = hdr.h.isValid() ? x : 8w2;
    """)
    assert after is before and not result.reports


def test_nested_calls_run_innermost_first(tmp_path: Path):
    _, after, _ = order(tmp_path, "hdr.h.a = twice(bump(hdr.h.b));")
    assert body(after) == [
        "bit<8> tmp$1 = bump(hdr.h.b);",
        "hdr.h.a = twice(tmp$1);",
    ]


def test_an_in_argument_is_saved_before_a_later_argument_calls(tmp_path: Path):
    _, after, _ = order(tmp_path, "hdr.h.a = sub(hdr.h.b, bump(hdr.h.b));")
    assert body(after) == [
        "bit<8> tmp$1 = hdr.h.b;",
        "bit<8> tmp$2 = bump(hdr.h.b);",
        "hdr.h.a = sub(tmp$1, tmp$2);",
    ]


def test_an_inout_argument_stays_an_l_value_whose_index_is_saved(tmp_path: Path):
    """Its place is computed at its turn; its value is copied in when the call starts (spec 6.8)."""
    _, after, _ = order(tmp_path, "both(st[hdr.h.a].b, bump(hdr.h.a));", STACK)
    assert body(after) == [
        "bit<8> tmp$1 = hdr.h.a;",
        "bit<8> tmp$2 = bump(hdr.h.a);",
        "both(st[tmp$1].b, tmp$2);",
    ]


def test_an_assignment_evaluates_its_target_first(tmp_path: Path):
    _, after, _ = order(tmp_path, "st[hdr.h.a].b = bump(hdr.h.a);", STACK)
    assert body(after) == [
        "bit<8> tmp$1 = hdr.h.a;",
        "st[tmp$1].b = bump(hdr.h.a);",
    ]


def test_a_compound_assignment_evaluates_its_target_once(tmp_path: Path):
    _, after, _ = order(tmp_path, "st[bump(hdr.h.a) & 3].b += 16;", STACK)
    assert body(after) == [
        "bit<8> tmp$1 = bump(hdr.h.a);",
        "st[(tmp$1 & 3)].b += 16;",  # the target has no call left: the generator may read it twice
    ]


def test_a_compound_assignment_reads_its_target_before_a_call_in_its_value(tmp_path: Path):
    _, after, _ = order(tmp_path, "hdr.h.a += bump(hdr.h.a);")
    assert body(after) == [
        "bit<8> tmp$1 = hdr.h.a;",
        "bit<8> tmp$2 = bump(hdr.h.a);",
        "hdr.h.a = (tmp$1 + tmp$2);",
    ]


# ----------------------------------------------------------------------
# Only what P4 evaluates


def test_and_and_or_evaluate_their_right_side_only_when_needed(tmp_path: Path):
    _, after, result = order(tmp_path, """
        if (hdr.h.a == 0 && bump(hdr.h.b) == 1) { hdr.h.a = 1; }
        hdr.h.b = (hdr.h.a != 0 || bump(hdr.h.b) == 2) ? 8w1 : 8w0;
    """)
    assert body(after) == [
        "bool tmp$1 = (hdr.h.a == 0);",
        "if (tmp$1) {",
        "  bit<8> tmp$2 = bump(hdr.h.b);",
        "  tmp$1 = (tmp$2 == 1);",
        "}",
        "if (tmp$1) {",
        "  hdr.h.a = 1;",
        "}",
        "bool tmp$3 = (hdr.h.a != 0);",
        "if (!tmp$3) {",
        "  bit<8> tmp$4 = bump(hdr.h.b);",
        "  tmp$3 = (tmp$4 == 2);",
        "}",
        "hdr.h.b = (tmp$3 ? 8w1 : 8w0);",
    ]
    assert [r.split(": ", 1)[1].rsplit(" (", 1)[0] for r in result.reports] == [
        "ordered the calls: 2 temporaries, '&&' as an if", "ordered the calls: 2 temporaries, '||' as an if"]


def test_a_conditional_evaluates_only_the_branch_it_chooses(tmp_path: Path):
    _, after, _ = order(tmp_path, "hdr.h.a = hdr.h.b[7:7] == 1 ? bump(hdr.h.b) : twice(hdr.h.b);")
    assert body(after) == [
        "bit<8> tmp$1;",
        "if ((hdr.h.b[7:7] == 1)) {",
        "  tmp$1 = bump(hdr.h.b);",
        "} else {",
        "  tmp$1 = twice(hdr.h.b);",
        "}",
        "hdr.h.a = tmp$1;",
    ]


def test_is_valid_is_a_read_and_stays_in_place(tmp_path: Path):
    _, after, _ = order(tmp_path, "if (hdr.h.isValid() && bump(hdr.h.a) == 1) { hdr.h.b = 1; }")
    assert body(after)[0] == "bool tmp$1 = hdr.h.isValid();"  # read before the call, as any operand
    calls = {c.method.member if isinstance(c.method, ir.Member) else c.method.name: c
             for c in walk(ingress(after)) if isinstance(c, ir.MethodCall)}
    assert not is_effect_call(calls["isValid"]) and is_effect_call(calls["bump"])


# ----------------------------------------------------------------------
# Where the statements go


def test_if_conditions_and_switch_subjects_are_computed_before(tmp_path: Path):
    _, after, _ = order(tmp_path, """
        if (bump(hdr.h.a) == 2) { hdr.h.b = 1; } else { hdr.h.b = 2; }
        switch (bump(hdr.h.a)) { 3: { hdr.h.b = 3; } default: { } }
    """)
    assert body(after) == [
        "bit<8> tmp$1 = bump(hdr.h.a);",
        "if ((tmp$1 == 2)) {",
        "  hdr.h.b = 1;",
        "} else {",
        "  hdr.h.b = 2;",
        "}",
        "bit<8> tmp$2 = bump(hdr.h.a);",
        "switch (tmp$2) { ... }",
    ]


def test_a_loop_condition_with_a_call_runs_before_every_iteration(tmp_path: Path):
    _, after, _ = order(tmp_path, """
        for (bit<8> c = 0; bump(c) < 4; hdr.h.a = hdr.h.a + bump(hdr.h.b)) { hdr.h.b = hdr.h.b + 1; }
    """)
    assert body(after) == [
        "for (bit<8> c = 0; ; {"
        " bit<8> tmp$2 = hdr.h.a; bit<8> tmp$3 = bump(hdr.h.b); hdr.h.a = (tmp$2 + tmp$3); }) {",
        "  bit<8> tmp$1 = bump(c);",
        "  if (!(tmp$1 < 4)) {",
        "    break;",
        "  }",
        "  {",
        "    hdr.h.b = (hdr.h.b + 1);",
        "  }",
        "}",
    ]


def test_select_keys_are_computed_at_the_end_of_the_state(tmp_path: Path):
    _, after, _ = order(tmp_path, parser="""
        state start {
            pkt.extract(hdr.h);
            transition select(hdr.h.a, bump(hdr.h.a), pkt.lookahead<bit<8>>()) {
                (1, 2, 3): accept;
                default: reject;
            }
        }""")
    start = the(after, "start", ir.ParserState)
    assert lines(start.components) == [
        "pkt.extract(hdr.h);",
        "bit<8> tmp$1 = hdr.h.a;",
        "bit<8> tmp$2 = bump(hdr.h.a);",
        "bit<8> tmp$3 = pkt.lookahead();",
    ]
    assert [p4(k) for k in start.transition.keys] == ["tmp$1", "tmp$2", "tmp$3"]


def test_local_initializers_with_calls_move_to_the_start_of_the_body(tmp_path: Path):
    _, after, result = order(tmp_path, "hdr.h.a = y;", """
        bit<8> v = 1;
        bit<8> w = bump(hdr.h.b);
        bit<8> x = hdr.h.a + bump(hdr.h.a);
        bit<8> y = x;
    """)
    variables = {v.name: v for v in ingress(after).locals if isinstance(v, ir.Variable)}
    assert p4(variables["v"].init) == "1"  # before the first call: initialized where it stands
    assert all(variables[n].init is None for n in "wxy")  # a call, or after one (y reads x)
    assert body(after) == [
        "w = bump(hdr.h.b);",
        "bit<8> tmp$1 = hdr.h.a;",
        "bit<8> tmp$2 = bump(hdr.h.a);",
        "x = (tmp$1 + tmp$2);",
        "y = x;",
        "hdr.h.a = y;",
    ]
    assert any("the initializer of x moved to the start of the body" in r for r in result.reports)


def test_parser_local_initializers_get_a_start_state_of_their_own(tmp_path: Path):
    _, after, _ = order(tmp_path, parser="""
        bit<8> seen = 0;
        bit<8> first = seen + bump(seen);
        state start {
            pkt.extract(hdr.h);
            transition select(hdr.h.a) { 0: start; default: accept; }
        }""")
    parser = the(after, "P", ir.Parser)
    start, old = parser.states[0], parser.states[1]
    assert start.name == "start" and p4(start.transition) == old.name == "start$3"
    assert lines(start.components) == ["bit<8> tmp$1 = seen;", "bit<8> tmp$2 = bump(seen);",
                                       "first = (tmp$1 + tmp$2);"]
    assert [c.state.name for c in old.transition.cases] == ["start$3", "accept"]  # a loop does not initialize again


# ----------------------------------------------------------------------
# Tables


TABLES = """
    action set(bit<8> v) { hdr.h.b = v; }
    table t {
        key = { bump(meta.m): exact @name("m"); hdr.h.a: exact; }
        actions = { set; NoAction; }
    }
    table u {
        key = { hdr.h.a: exact; }
        actions = { set; NoAction; }
    }
"""


def test_a_key_with_a_call_is_computed_before_each_apply(tmp_path: Path):
    _, after, result = order(tmp_path, """
        t.apply();
        if (t.apply().miss) { hdr.h.a = 1; }
        switch (t.apply().action_run) { set: { hdr.h.a = 2; } default: { } }
    """, TABLES)
    control = ingress(after)
    key_var = next(d for d in control.locals if isinstance(d, ir.Variable))
    assert key_var.name == "key$1" and key_var.type == t.Bits(8)
    key = the(after, "t", ir.Table).properties[0].value[0]
    assert p4(key.expr) == "key$1" and [_expr(ir.to_json(a.items[0])) for a in key.annotations] == ['"m"']
    assert body(after) == [
        "key$1 = bump(meta.m);",
        "t.apply();",
        "key$1 = bump(meta.m);",
        "if (t.apply().miss) {",
        "  hdr.h.a = 1;",
        "}",
        "key$1 = bump(meta.m);",
        "switch (t.apply().action_run) { ... }",
    ]
    assert any("table t: key 'm' computed into key$1 before each apply" in r for r in result.reports)


def test_table_results_stay_where_the_generator_prints_them(tmp_path: Path):
    before, after, _ = order(tmp_path, """
        if (u.apply().hit) { hdr.h.a = 1; }
        switch (u.apply().action_run) { set: { hdr.h.a = 2; } default: { } }
        bool b = u.apply().miss;
    """, TABLES)
    assert ingress(after).body is ingress(before).body


def test_a_table_result_inside_an_expression_becomes_a_bool(tmp_path: Path):
    _, after, _ = order(tmp_path, "if (!u.apply().hit || hdr.h.a == 2) { hdr.h.a = 1; }", TABLES)
    assert body(after)[:2] == ["bool tmp$2 = u.apply().hit;", "if ((!tmp$2 || (hdr.h.a == 2))) {"]  # key$1: t's


def test_a_call_inside_a_bound_action_argument_is_refused_with_its_position(tmp_path: Path):
    source = v1model("u.apply();", """
        action set(bit<8> v) { hdr.h.b = v; }
        table u { key = { hdr.h.a: exact; } actions = { set(twice(hdr.h.a) + 1); } }
    """, FUNCTIONS)
    program = load(tmp_path, source)
    diags = Diagnostics()
    result = PassManager([SideEffectOrdering()]).run(program, diags)
    assert result.program is None
    [error] = diags.items
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "set(twice" in text)
    assert error.loc.line == line
    assert "a call inside a bound action argument is not supported" in error.message


# ----------------------------------------------------------------------
# The contract, on whole programs


def violations(program: ir.Program) -> list[str]:
    """Where a call with effects stands outside the places the pass's contract allows (a) to (d)."""
    found: list[str] = []

    def none(expr, where: str) -> None:
        if has_effect(expr):
            found.append(f"{where} at {expr.loc}")

    def call(expr, where: str) -> None:  # a call whose callee and arguments have none
        if isinstance(expr.method, ir.Member):
            none(expr.method.expr, where)
        for arg in expr.args:
            none(arg.value, where)

    def whole(expr, where: str, results=("hit", "miss")) -> None:
        if is_effect_call(expr):
            call(expr, where)
        elif is_apply_result(expr) and expr.member in results:
            call(expr.expr, where)
        else:
            none(expr, where)

    for node in walk(program):
        if isinstance(node, ir.Assignment):
            none(node.target, "an assignment's target")
            (none if node.op else whole)(node.value, "an assignment's value")
        elif isinstance(node, ir.MethodCallStatement):
            call(node.call, "a call statement")
        elif isinstance(node, ir.Variable) and node.init is not None:
            whole(node.init, "an initializer")
        elif isinstance(node, ir.ReturnStatement) and node.value is not None:
            whole(node.value, "a return")
        elif isinstance(node, ir.IfStatement):
            whole(node.cond, "an if condition") if is_apply_result(node.cond) else none(node.cond, "an if condition")
        elif isinstance(node, ir.SwitchStatement):
            whole(node.expr, "a switch subject", ("action_run",))
        elif isinstance(node, ir.ForStatement):
            none(node.cond, "a for condition")
        elif isinstance(node, ir.ForInStatement):
            none(node.collection, "a for-in range")
        elif isinstance(node, ir.SelectExpression):
            for key in node.keys:
                none(key, "a select key")
        elif isinstance(node, ir.KeyElement):
            none(node.expr, "a table key")
        elif isinstance(node, ir.ActionRef):
            for arg in node.args:
                whole(arg.value, "a bound action argument")
    return found


PROGRAMS = [*sorted((REPO / "tests/packets").glob("*.p4")), REPO / "tests/transpiler/golden/side-effect-ordering.p4"]


@pytest.mark.parametrize("source", PROGRAMS, ids=lambda p: p.stem)
def test_the_contract_holds_after_the_pass(source: Path):
    diags = Diagnostics()
    program = load_program(str(source), FrontendOptions(), diags)
    assert program is not None, [d.message for d in diags.items]
    passes = default_passes()
    upto = [p.name for p in passes].index("side-effect-ordering") + 1
    after = run(program, passes[:upto]).program  # the unit tests above validate the IR it makes
    assert violations(after) == []


def test_the_contract_checker_sees_what_the_pass_removes(tmp_path: Path):
    program = load(tmp_path, (REPO / "tests/packets/eval_order.p4").read_text())
    assert len(violations(program)) == 8  # one per statement with a call inside (of 10 with calls)


# ----------------------------------------------------------------------
# The C generator prints, and refuses what the pass should have moved


def test_the_generator_refuses_a_call_left_inside_an_expression(tmp_path: Path, monkeypatch):
    program = load(tmp_path, v1model("hdr.h.a = hdr.h.b + bump(hdr.h.b);", globals=FUNCTIONS))
    without = [p for p in default_passes() if p.name != "side-effect-ordering"]
    monkeypatch.setattr(passes, "default_passes", lambda: without)
    with pytest.raises(InternalError, match="side-effect-ordering pass should have made it a statement"):
        generate_c(program, str(tmp_path / "prog.p4"), Diagnostics())


def test_the_pass_cannot_be_skipped(tmp_path: Path):
    program = load(tmp_path, v1model())
    diags = Diagnostics()
    result = PassManager(default_passes()).run(program, diags, PassOptions(skip=["side-effect-ordering"]))
    assert result.program is None
    assert [d.message for d in diags.items] == [
        "--skip-pass: the pass 'side-effect-ordering' cannot be skipped: the passes after it rely on what it does"]


def test_an_instance_made_in_an_expression_keeps_its_compile_time_arguments(tmp_path):
    # `Ext(make()).get()`: the constructor call and its argument are evaluated at compile time.
    program = load(tmp_path, v1model(globals="""
        extern bit<8> make(in bool seed);
        extern Ext {
            Ext(bit<8> how);
            bit<8> get(in bit<8> x);
        }
    """, body="hdr.h.a = Ext(make(true)).get(hdr.h.b);"))
    result = run(program, [Inlining(), UniqueNames(), ConstantFolding(), SideEffectOrdering()],
                 PassOptions(validate=True))
    [ctor] = [n for n in walk(result.program) if isinstance(n, ir.ConstructorCall)
              and getattr(n.type_ref, "name", "") == "Ext"]
    assert [type(a.value).__name__ for a in ctor.args] == ["MethodCall"]
