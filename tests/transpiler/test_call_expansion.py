"""call-expansion: each call of an action or function becomes the callee's body; the contract of its module
docstring holds on its output, and the actions tables run keep only their control-plane data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from midend_snippets import REPO, ingress, load, run, the, v1model
from test_side_effects import lines, p4

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.transpiler.key_names import param_name
from p4odp.transpiler.passes import NameTable, PassOptions, PassResult, default_passes, midend
from p4odp.transpiler.passes._walk import walk


def through_call_expansion() -> list:
    passes = default_passes()
    return passes[:[p.name for p in passes].index("call-expansion") + 1]


def expand(tmp_path: Path, body: str = "", locals: str = "", globals: str = "", **kw) -> PassResult:
    """The passes up to call-expansion run on a snippet, the IR validated after each."""
    program = load(tmp_path, v1model(body, locals, globals, **kw))
    return run(program, through_call_expansion(), PassOptions(validate=True))


def body(result: PassResult) -> list[str]:
    """Ing's apply block, one line per statement, as P4 would write it (`renumbered`)."""
    return renumbered(lines(ingress(result.program).body.statements))


def renumbered(text: list[str]) -> list[str]:
    """`text` with the names the passes make (`x$N`) numbered by first appearance, from 1 for each
    base: the assertions say which name is which, not how the pass counts."""
    numbers: dict[str, str] = {}

    def number(match: re.Match) -> str:
        base = match.group(1)
        if match.group(0) not in numbers:
            numbers[match.group(0)] = f"{base}${sum(k.startswith(base + '$') for k in numbers) + 1}"
        return numbers[match.group(0)]

    return [re.sub(r"\b(\w+)\$\d+", number, line) for line in text]


def table_actions(program: ir.Program) -> list[ir.Action]:
    names = NameTable(program)
    return [names.get(ref.name, ref.is_global)
            for table in walk(program) if isinstance(table, ir.Table)
            for prop in table.properties if prop.name == "actions"
            for ref in prop.value]


def leftover_calls(program: ir.Program) -> list[str]:
    """The calls of actions and functions left where the switch runs code: parsers, controls (but the
    actions they declare) and the actions tables run."""
    names = NameTable(program)
    roots: list[ir.Node] = [*table_actions(program)]
    for decl in program.declarations:
        if isinstance(decl, ir.Parser):
            roots.append(decl)
        elif isinstance(decl, ir.Control):
            roots += [local for local in decl.locals if not isinstance(local, ir.Action)]
            roots.append(decl.body)
    return [f"{node.method.name} at {node.loc}" for root in roots for node in walk(root)
            if isinstance(node, ir.MethodCall) and isinstance(node.method, ir.PathExpression)
            and isinstance(names.get(node.method.name, node.method.is_global), (ir.Action, ir.Function))]


# ----------------------------------------------------------------------
# The contract, on whole programs


PROGRAMS = [*sorted((REPO / "tests/packets").glob("*.p4")), REPO / "tests/transpiler/golden/call-expansion.p4"]


@pytest.mark.parametrize("source", PROGRAMS, ids=lambda p: p.stem)
def test_the_contract_holds_after_the_pass(source: Path):
    diags = Diagnostics()
    program = load_program(str(source), FrontendOptions(), diags)
    assert program is not None, [d.message for d in diags.items]
    after = run(program, through_call_expansion(), PassOptions(validate=True)).program
    assert leftover_calls(after) == []
    names = NameTable(after)  # raises if two declarations share a name
    for action in table_actions(after):
        assert all(p.direction == "" and p.name not in names.all for p in action.params), action.name
        assert not any(isinstance(n, ir.ReturnStatement) for n in walk(action.body)), action.name


def test_the_contract_checker_sees_the_calls_the_pass_expands(tmp_path: Path):
    program = load(tmp_path, (REPO / "tests/packets/call_expansion.p4").read_text())
    before = run(program, through_call_expansion()[:-1]).program
    assert [call.split(" at ")[0] for call in leftover_calls(before)] == [
        "note", "mix", "mix", "lowest_set", "put", "stamp"]


# ----------------------------------------------------------------------
# Parameters in and out


def test_arguments_are_copied_in_at_the_call_and_out_at_the_end_in_parameter_order(tmp_path: Path):
    result = expand(tmp_path, "two(hdr.h.b, hdr.h.a, hdr.h.b, 3);", """
        action two(in bit<8> i, inout bit<8> x, out bit<8> y, bit<8> d) { y = i; x = x + d; }
    """)
    assert body(result) == [
        "{",
        "  bit<8> i$1 = hdr#3.h.b;",  # read before the out argument hdr.h.b is written
        "  bit<8> x$1 = hdr#3.h.a;",
        "  bit<8> y$1;",  # out: starts as a new variable does
        "  bit<8> d$1 = 3;",
        "  y$1 = i$1;",
        "  x$1 = (x$1 + d$1);",
        "  hdr#3.h.a = x$1;",
        "  hdr#3.h.b = y$1;",
        "}",
    ]


def test_an_exit_leaves_after_the_copy_out(tmp_path: Path):
    result = expand(tmp_path, "stamp(hdr.h.a); stop(); hdr.h.b = 3;", """
        action stamp(inout bit<8> x) { x = 1; if (x == hdr.h.b) { exit; } x = 2; }
        action stop() { exit; }
    """)
    assert body(result) == [
        "{",
        "  bit<8> x$1 = hdr#3.h.a;",
        "  bool returned$1 = false;",
        "  bool exited$1 = false;",
        "  x$1 = 1;",
        "  if ((x$1 == hdr#3.h.b)) {",
        "    returned$1 = true;",
        "    exited$1 = true;",
        "  }",
        "  if (!returned$1) {",  # the rest of the body is skipped...
        "    x$1 = 2;",
        "  }",
        "  hdr#3.h.a = x$1;",  # ...not the copy-out
        "  if (exited$1) {",
        "    ExitStatement",
        "  }",
        "}",
        "{",
        "  ExitStatement",  # nothing to copy out: the exit stays one
        "}",
        "hdr#3.h.b = 3;",
    ]


def test_an_exit_in_a_called_action_leaves_through_each_caller_s_copy_out(tmp_path: Path):
    result = expand(tmp_path, "outer(hdr.h.a);", """
        action inner(inout bit<8> y) { y = y + 1; if (y == 2) { exit; } }
        action outer(inout bit<8> x) { inner(x); x = x + 4; }
    """)
    assert body(result) == [
        "{",
        "  bit<8> x$1 = hdr#3.h.a;",
        "  bool returned$1 = false;",
        "  bool exited$1 = false;",
        "  {",
        "    bit<8> y$1 = x$1;",
        "    bool returned$2 = false;",
        "    bool exited$2 = false;",
        "    y$1 = (y$1 + 1);",
        "    if ((y$1 == 2)) {",
        "      returned$2 = true;",
        "      exited$2 = true;",
        "    }",
        "    x$1 = y$1;",
        "    if (exited$2) {",  # inner's exit is outer's to take...
        "      returned$1 = true;",
        "      exited$1 = true;",
        "    }",
        "  }",
        "  if (!returned$1) {",
        "    x$1 = (x$1 + 4);",
        "  }",
        "  hdr#3.h.a = x$1;",  # ...after outer's own copy-out
        "  if (exited$1) {",
        "    ExitStatement",
        "  }",
        "}",
    ]


def test_an_out_argument_is_written_where_its_index_pointed_at_the_call(tmp_path: Path):
    result = expand(tmp_path, "put(st[hdr.h.a].b, st[hdr.h.a].a); put(st[2].b, 1);", """
        h_t[4] st;
        action put(out bit<8> cell, in bit<8> v) { hdr.h.a = hdr.h.a + 1; cell = v; }
    """)
    assert body(result) == [
        "{",
        "  bit<8> idx$1 = hdr#3.h.a;",  # the out argument's index, saved before the body changes it
        "  bit<8> cell$1;",
        "  bit<8> v$1 = st[hdr#3.h.a].a;",  # an in argument is read at the call anyway
        "  hdr#3.h.a = (hdr#3.h.a + 1);",
        "  cell$1 = v$1;",
        "  st[idx$1].b = cell$1;",
        "}",
        "{",
        "  bit<8> cell$2;",  # a constant index needs no saving
        "  bit<8> v$2 = 1;",
        "  hdr#3.h.a = (hdr#3.h.a + 1);",
        "  cell$2 = v$2;",
        "  st[2].b = cell$2;",
        "}",
    ]


def test_named_arguments_and_defaults_bind_their_parameters(tmp_path: Path):
    result = expand(tmp_path, """
        hdr.h.a = mix(lo = hdr.h.a, hi = hdr.h.b);
        hdr.h.b = mix(salt = 3, lo = hdr.h.b, hi = hdr.h.a);
    """, globals="""
        bit<8> mix(in bit<8> hi, in bit<8> lo, in bit<8> salt = 0x0f) { return (hi & 0xf0) | (lo & salt); }
    """)
    copied_in = [line.strip() for line in body(result) if line.startswith("  bit<8> ") and "=" in line]
    assert copied_in == [
        "bit<8> hi$1 = hdr#3.h.b;", "bit<8> lo$1 = hdr#3.h.a;", "bit<8> salt$1 = 15;",  # the default
        "bit<8> hi$2 = hdr#3.h.a;", "bit<8> lo$2 = hdr#3.h.b;", "bit<8> salt$2 = 3;",
    ]


def test_an_overload_is_chosen_by_its_number_of_arguments(tmp_path: Path):
    result = expand(tmp_path, "hdr.h.a = pick(hdr.h.b); hdr.h.b = pick(hdr.h.a, 7);", globals="""
        bit<8> pick(in bit<8> x) { return x; }
        bit<8> pick(in bit<8> x, in bit<8> y) { return y; }
    """)
    returned = [line.strip() for line in body(result) if line.strip().startswith("ret$")]
    assert returned == ["ret$1 = x$1;", "ret$2 = y$1;"]


# ----------------------------------------------------------------------
# Function results


def test_a_function_initializes_a_variable_and_is_another_function_s_return_value(tmp_path: Path):
    result = expand(tmp_path, "bit<8> z = outer(hdr.h.a); hdr.h.b = z;", globals="""
        bit<8> twice(in bit<8> v) { return v + v; }
        bit<8> outer(in bit<8> u) { return twice(u); }
    """)
    assert body(result) == [
        "bit<8> z;",
        "{",
        "  bit<8> ret$1;",
        "  bit<8> u$1 = hdr#3.h.a;",
        "  bool returned$1 = false;",
        "  bit<8> ret$2;",  # `return twice(u)`: twice's value first...
        "  {",
        "    bit<8> ret$3;",
        "    bit<8> v$1 = u$1;",
        "    bool returned$2 = false;",
        "    ret$3 = (v$1 + v$1);",
        "    returned$2 = true;",
        "    ret$2 = ret$3;",
        "  }",
        "  ret$1 = ret$2;",  # ...then outer's
        "  returned$1 = true;",
        "  z = ret$1;",
        "}",
        "hdr#3.h.b = z;",
    ]


def test_a_function_called_as_a_statement_has_its_value_dropped(tmp_path: Path):
    result = expand(tmp_path, "bump(hdr.h.a);", globals="bit<8> bump(inout bit<8> x) { x = x + 1; return x; }")
    assert body(result) == [
        "{",
        "  bit<8> ret$1;",  # the return still stores somewhere; nothing reads it
        "  bit<8> x$1 = hdr#3.h.a;",
        "  bool returned$1 = false;",
        "  x$1 = (x$1 + 1);",
        "  ret$1 = x$1;",
        "  returned$1 = true;",
        "  hdr#3.h.a = x$1;",
        "}",
    ]


def test_nested_calls_expand_all_the_way_down_and_the_callees_go(tmp_path: Path):
    result = expand(tmp_path, "a();", """
        action a() { hdr.h.a = f(hdr.h.b); }
    """, """
        bit<8> g(in bit<8> x) { return x ^ 0x0f; }
        bit<8> f(in bit<8> x) { return g(x) + 1; }
    """)
    ing = ingress(result.program)
    assert leftover_calls(result.program) == []
    [innermost] = [s for s in walk(ing.body) if isinstance(s, ir.Assignment) and "^" in p4(s.value)]
    assert p4(innermost.value).endswith(" ^ 15)")
    assert len([b for b in walk(ing.body) if isinstance(b, ir.Block)]) == 4  # apply, a, f, g
    reports = [r.split(" (")[0] for r in result.reports if r.startswith("call-expansion:")]
    assert reports[0].startswith("call-expansion: expanded 3 call(s);")
    assert sorted(reports[1:]) == [f"call-expansion: removed {what}: every use replaced by a copy"
                                   for what in ("action Ing.a", "function f", "function g")]
    assert not [d for d in walk(result.program) if isinstance(d, ir.Function) and d.name in ("f", "g")]


# ----------------------------------------------------------------------
# The actions tables run


COUNT = """
    action count(inout bit<8> c, bit<8> by) { c = c + by; }
    action add(in bit<8> k, bit<8> v) { hdr.h.b = k + v; }
    table t {
        key = { hdr.h.a: exact; }
        actions = { count(hdr.h.b); add(3); NoAction; }
        default_action = count(hdr.h.b, 7);
        const entries = { 1: add(3, 5); 2: NoAction(); }
    }
"""

CAPTURE = """
    bit<9> port = 0;
    action b() { port = 5; }
    action set(bit<9> port) { b(); sm.egress_spec = port; }
    table fwd { key = { hdr.h.a: exact; } actions = { set; } }
"""


def test_an_action_bound_in_a_table_s_list_is_specialized_and_every_name_of_it_follows(tmp_path: Path):
    result = expand(tmp_path, "switch (t.apply().action_run) { count: { hdr.h.a = 1; } default: { } }", COUNT)
    program = result.program
    copy = the(program, "count$1", ir.Action)
    assert [(p.direction, p.name) for p in copy.params] == [("", "by")]
    assert copy.control_name == "Ing.count"
    assert renumbered(lines(copy.body.statements)) == [
        "bit<8> c$1 = hdr#3.h.b;",
        "c$1 = (c$1 + by);",
        "hdr#3.h.b = c$1;",
    ]
    props = {p.name: p.value for p in the(program, "t", ir.Table).properties}
    assert [ref.name for ref in props["actions"]] == ["count$1", "add$1", "NoAction"]
    assert props["default_action"].name == "count$1" and [p4(a.value) for a in props["default_action"].args] == ["7"]
    assert [(e.action.name, [p4(a.value) for a in e.action.args]) for e in props["entries"]] == \
        [("add$1", ["5"]), ("NoAction", [])]  # the bound argument 3 is the copy's own
    [switch] = [s for s in walk(ingress(program).body) if isinstance(s, ir.SwitchStatement)]
    assert [p4(c.label) for c in switch.cases] == ["count$1", "default"]


def test_a_table_action_parameter_is_renamed_so_that_a_called_body_keeps_its_names(tmp_path: Path):
    result = expand(tmp_path, "fwd.apply(); set(3);", CAPTURE)
    names = NameTable(result.program)
    control_port = names["port"]
    assert isinstance(control_port, ir.Variable)
    set_ = the(result.program, "set", ir.Action)
    [param] = set_.params
    assert param.name != "port" and param_name(param) == "port"  # @name("port"): the control plane's name
    [b_write, to_spec] = [s for s in walk(set_.body) if isinstance(s, ir.Assignment)]
    assert names[b_write.target.name] is control_port  # b() still writes the control's port...
    assert p4(to_spec.value) == param.name  # ...and the egress port is set's parameter
    direct = [f"{p4(s.target)} = {p4(s.value)}" for s in walk(ingress(result.program).body)
              if isinstance(s, ir.Assignment)]
    assert renumbered(direct) == ["port = 5", "sm#2.egress_spec = port$1"]  # called directly: a variable port$1


def test_the_control_plane_keeps_the_names_of_specialized_actions_and_renamed_parameters(tmp_path: Path):
    program = load(tmp_path, v1model("t.apply(); fwd.apply();", COUNT + CAPTURE))
    result = midend(program, Diagnostics(), PassOptions(validate=True))
    t = result.table_layouts["t"]
    assert [result.actions[a.action].name for a in t.actions] == ["Ing.count", "Ing.add", "NoAction"]
    assert [(f.name, f.width) for f in result.actions["count$1"].data] == [("by", 8)]
    assert (t.default_action, t.default_data) == (result.actions["count$1"].id, (7,))
    assert [(f.name, f.width) for f in result.actions["set"].data] == [("port", 9)]


def test_a_local_initialized_by_a_call_is_expanded(tmp_path: Path):
    bump = "bit<8> bump(inout bit<8> x) { x = x + 1; return x; }"
    result = expand(tmp_path, "hdr.h.a = w;", "bit<8> w = bump(hdr.h.b);", bump)
    assert leftover_calls(result.program) == []


def test_a_function_called_in_a_bound_argument_runs_when_the_table_runs_the_action(tmp_path: Path):
    result = expand(tmp_path, "t.apply();", """
        action put(in bit<8> v) { hdr.h.a = v; }
        table t { key = { hdr.h.b: exact; } actions = { put(twice(hdr.h.b)); } }
    """, "bit<8> twice(in bit<8> x) { return x + x; }")
    assert leftover_calls(result.program) == []
    copy = the(result.program, "put$1", ir.Action)
    assert renumbered(lines(copy.body.statements))[0] == "bit<8> v$1;"  # assigned by the expanded twice()
    assert renumbered(lines(copy.body.statements))[-1] == "hdr#3.h.a = v$1;"
