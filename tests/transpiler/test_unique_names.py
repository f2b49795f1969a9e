"""unique-names: one name, one declaration; references follow, control-plane names stay."""

from __future__ import annotations

from pathlib import Path

import pytest
from midend_snippets import load, nodes, run, stf, the, v1model

from p4odp import ir
from p4odp.diagnostics import Diagnostics, InternalError
from p4odp.transpiler import transpile
from p4odp.transpiler.passes import (CALLABLES, Inlining, NameTable, PassManager, PassOptions, UniqueNames,
                                     default_passes)
from p4odp.transpiler.passes._walk import walk

SHADOWING = dict(globals="""
    const bit<8> K = 7;
    bit<8> twice(in bit<8> K) {
        bit<8> t = K + K;              // K: the parameter
        return t;
    }
""", locals="""
    bit<8> t = 0x10;
    action set_b(bit<8> K) { hdr.h.b = K; }            // K: the parameter
    action set_s() { hdr.h.s = (int<8>) .K; }          // .K: the constant
    action rd() { hdr.h.w = (bit<16>) t; }             // the control's t, wherever rd() is called
    table tab {
        key = { t: exact; }
        actions = { set_b; set_s; rd; }
        default_action = rd();
    }
""", body="""
    sm.egress_spec = 1;
    {
        bit<8> t = 0x77;
        hdr.h.a = t + twice(K);        // 0x77 + 14
        rd();
        tab.apply();
    }
    {
        bit<8> t = 3;
        hdr.h.a = hdr.h.a + t;
    }
""", parser="""
    state start {
        bit<8> t = 1;
        pkt.extract(hdr.h);
        transition select(hdr.h.a) { 0: zero; default: accept; }
    }
    state zero {
        bit<8> t = 2;
        hdr.h.b = t;
        transition accept;
    }
""")


def renamed(tmp_path: Path, **pieces) -> tuple[ir.Program, ir.Program]:
    program = load(tmp_path, v1model(**pieces))
    return program, run(program, [Inlining(), UniqueNames()], PassOptions(validate=True)).program


def test_no_two_declarations_share_a_name_after_the_pass(tmp_path: Path):
    before, after = renamed(tmp_path, **SHADOWING)
    with pytest.raises(InternalError, match="declared twice"):
        NameTable(before)
    table = NameTable(after)
    variables = sorted(n.name for n in walk(after) if isinstance(n, ir.Variable))
    assert variables == ["t", "t#2", "t#3", "t#4", "t#5", "t#6"]
    assert all(table[name].name == name for name in variables)


def test_references_follow_their_declaration(tmp_path: Path):
    _, after = renamed(tmp_path, **SHADOWING)
    set_b, set_s, rd = (the(after, name, ir.Action) for name in ("set_b", "set_s", "rd"))
    assert [p.name for p in set_b.params] == ["K"]  # parameters keep their names...
    [to_b] = nodes(set_b.body, ir.Assignment)
    assert to_b.value.name == "K" and not to_b.value.is_global  # ...and the body still reads the parameter
    [global_k] = [n for n in nodes(set_s.body, ir.PathExpression) if n.name == "K"]
    assert global_k.name == "K" and global_k.is_global
    table = NameTable(after)
    [control_t] = [n for n in nodes(rd.body, ir.PathExpression) if n.name.startswith("t")]
    ing = the(after, "Ing", ir.Control)
    assert table[control_t.name] is next(d for d in ing.locals if isinstance(d, ir.Variable))
    zero = next(s for s in the(after, "P", ir.Parser).states if s.name == "zero")
    [read] = [s.value for s in nodes(zero, ir.Assignment)]
    assert table[read.name].loc.line == zero.components[0].decl.loc.line  # the state's own t


def test_the_key_keeps_its_control_plane_name(tmp_path: Path):
    program = load(tmp_path, v1model(**SHADOWING))
    model = transpile(program, "", Diagnostics())
    [tab] = model.tables
    assert tab.name == "Ing.tab" and [k.name for k in tab.keys] == ["t"]


def test_the_switch_behaves_as_the_scopes_say(tmp_path: Path):
    program = load(tmp_path, v1model(**SHADOWING))
    # a: (0x77 + 14) + 3 = 0x88; w = the control's t (0x10) from rd(), twice: directly and as the default action.
    result = stf(tmp_path, program, tmp_path / "prog.p4", """
        packet 0 05 00 00 0000
        expect 1 88 00 00 0010 $
        packet 0 00 00 00 0000
        expect 1 88 02 00 0010 $
    """)
    assert result.passed, result.report


def test_a_program_without_clashes_is_left_as_it_was(tmp_path: Path):
    _, once = renamed(tmp_path, **SHADOWING)
    assert run(once, [UniqueNames()]).program is once


def test_it_cannot_be_skipped(tmp_path: Path):
    program = load(tmp_path, v1model())
    diags = Diagnostics()
    result = PassManager(default_passes()).run(program, diags, PassOptions(skip=["unique-names"]))
    assert result.program is None
    assert [d.message for d in diags.items] == [
        "--skip-pass: the pass 'unique-names' cannot be skipped: the passes after it rely on what it does"]


def test_parameters_of_callables_are_the_only_names_left_to_scopes(tmp_path: Path):
    _, after = renamed(tmp_path, **SHADOWING)
    table = NameTable(after)
    for node in walk(after):
        if isinstance(node, CALLABLES):
            params = {p.name for p in node.params}
            local_names = {d.name for d in walk(node.body) if isinstance(d, ir.Variable)}
            assert not params & local_names, node.name  # a local never takes a parameter's name
            assert all(table[name] is not None for name in local_names)


def test_an_instance_with_abstract_methods_keeps_their_names(tmp_path: Path):
    program = load(tmp_path, v1model(globals="""
        extern Virtual {
            Virtual();
            void run(in bit<8> ix);
            abstract bit<8> f(in bit<8> ix);
        }
        extern State {
            State(bit<8> size);
            bit<8> get(in bit<8> index);
        }
    """, locals="""
        Virtual() cntr = {
            State(8w16) state;
            bit<8> f(in bit<8> ix) { return state.get(ix); }
        };
        State(8w4) state;
    """, body="cntr.run(hdr.h.a); hdr.h.b = state.get(0);"))
    after = run(program, [Inlining(), UniqueNames()], PassOptions(validate=True)).program
    [cntr] = [n for n in walk(after) if isinstance(n, ir.Instance) and n.name == "cntr"]
    inner, implementation = cntr.initializer
    assert implementation.name == "f"  # implements Virtual.f: never renamed
    [used] = [n for n in walk(implementation.body) if isinstance(n, ir.PathExpression) and n.name.startswith("state")]
    table = NameTable(after)
    assert used.name == inner.name and table[inner.name] is inner  # the initializer's own state...
    ing = the(after, "Ing", ir.Control)
    [outer] = [d for d in ing.locals if isinstance(d, ir.Instance) and d.name.startswith("state")]
    assert outer.name != inner.name and table[outer.name] is outer  # ...not the control's
