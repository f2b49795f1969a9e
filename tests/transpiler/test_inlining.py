"""inlining: parser and control instances become part of the block that applies them."""

from __future__ import annotations

import io
import json
from pathlib import Path

from midend_snippets import ingress, load, nodes, run, stf, the, v1model

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.transpiler.passes import (ConstantFolding, DeadCode, Inlining, PassManager, PassOptions, UniqueNames,
                                     default_passes)

SUB = """
    control Sub(inout bit<8> v, in bit<8> k)(bit<8> amount) {
        bit<8> seen = k;
        action add() { v = v + amount; }
        table t { key = { k : exact; } actions = { add; NoAction; } default_action = add(); }
        apply {
            if (k == 0) {
                return;
            }
            t.apply();
            v = v + seen;
        }
    }
"""


def inline(tmp_path: Path, body: str, locals: str = "", globals: str = "", **kw):
    program = load(tmp_path, v1model(body, locals, globals, **kw))
    result = run(program, [Inlining()])
    return result.program, result.reports


def test_instances_are_hoisted_renamed_with_control_plane_names(tmp_path: Path):
    program, reports = inline(tmp_path, "one.apply(hdr.h.a, hdr.h.b); two.apply(hdr.h.b, hdr.h.a);",
                              "Sub(8w1) one; Sub(8w2) two;", SUB)
    ing = ingress(program)
    assert not [d for d in ing.locals if isinstance(d, ir.Instance)]
    tables = {d.name: d.control_name for d in ing.locals if isinstance(d, ir.Table)}
    actions = {d.name: d.control_name for d in ing.locals if isinstance(d, ir.Action)}
    assert tables == {"one.t": "Ing.one.t", "two.t": "Ing.two.t"}
    assert actions == {"one.add": "Ing.one.add", "two.add": "Ing.two.add"}
    variables = [d.name for d in ing.locals if isinstance(d, ir.Variable)]
    assert variables == ["one.seen", "two.seen"]  # the parameters are the arguments themselves
    assert all(v.init is None for v in ing.locals if isinstance(v, ir.Variable))  # set at each apply
    assert "inlining: inlined Sub as one into Ing (" in reports[0]


def test_constructor_arguments_replace_their_parameters(tmp_path: Path):
    program, _ = inline(tmp_path, "one.apply(hdr.h.a, hdr.h.b);", "Sub(8w7) one;", SUB)
    add = the(program, "one.add", ir.Action)
    [sum_] = nodes(add.body, ir.Binary)
    assert isinstance(sum_.right, ir.IntLiteral) and sum_.right.value == 7


def test_plain_arguments_stand_for_their_parameters(tmp_path: Path):
    program, _ = inline(tmp_path, "one.apply(hdr.h.a, hdr.h.b);", "Sub(8w1) one;", SUB)
    [block] = ingress(program).body.statements
    assert [_describe(s) for s in block.statements[:2]] == ["one.seen = hdr.h.b", "declare one.returned.1"]
    add = the(program, "one.add", ir.Action)
    assert [_describe(s) for s in add.body.statements] == ["hdr.h.a = Binary"]


def test_overlapping_arguments_are_copied_in_and_out(tmp_path: Path):
    program, _ = inline(tmp_path, "one.apply(hdr.h.a, hdr.h.a);", "Sub(8w1) one;", SUB)
    [block] = ingress(program).body.statements
    text = [_describe(s) for s in block.statements]
    assert text[:3] == ["one.v = hdr.h.a", "one.k = hdr.h.a", "one.seen = one.k"]
    assert text[-1] == "hdr.h.a = one.v"  # `in` parameters are not copied back


def test_arguments_that_differ_between_applies_are_copied(tmp_path: Path):
    program, _ = inline(tmp_path, "one.apply(hdr.h.a, hdr.h.b); one.apply(meta.m, hdr.h.b);", "Sub(8w1) one;",
                        SUB)
    variables = [d.name for d in ingress(program).locals if isinstance(d, ir.Variable)]
    assert variables == ["one.v", "one.seen"]  # k is hdr.h.b both times; v is not


def test_return_skips_the_rest_of_the_inlined_body_only(tmp_path: Path):
    program, _ = inline(tmp_path, "one.apply(hdr.h.a, hdr.h.b); hdr.h.w = 1;", "Sub(8w1) one;", SUB)
    block, after = ingress(program).body.statements
    assert _describe(after) == "hdr.h.w = 1"
    guarded = [s for s in block.statements if isinstance(s, ir.IfStatement)]
    assert len(guarded) == 2  # `if (k == 0) { returned = true; }`, then `if (!returned) { the rest }`
    assert isinstance(guarded[1].cond, ir.Unary) and guarded[1].cond.op is ir.UnaryOp.NOT
    assert not nodes(block, ir.ReturnStatement)


def test_names_of_the_caller_cannot_capture_top_level_names(tmp_path: Path):
    program, _ = inline(tmp_path, "sub.apply(hdr.h.a);", """
        action LIMIT() { }
        Sub() sub;
    """, """
        const bit<8> LIMIT = 9;
        control Sub(inout bit<8> v) { apply { v = LIMIT; } }
    """)
    [block] = ingress(program).body.statements
    [assign] = [s for s in block.statements if isinstance(s, ir.Assignment) and _describe(s) == "hdr.h.a = LIMIT"]
    assert assign.value.is_global


def test_parameters_without_direction_are_their_argument(tmp_path: Path):
    program, _ = inline(tmp_path, "add.apply(3, hdr.h.a);", "Add() add;", """
        control Add(int n, inout bit<8> v) {
            action bump() { v = v + (bit<8>) n; }
            table t { key = { v : exact; } actions = { bump; } default_action = bump(); }
            apply { t.apply(); }
        }
    """)
    bump = the(program, "add.bump", ir.Action)
    [cast] = nodes(bump.body, ir.Cast)
    assert isinstance(cast.expr, ir.IntLiteral) and cast.expr.value == 3
    assert not [d for d in ingress(program).locals if isinstance(d, ir.Variable)]


def test_parameters_without_direction_need_one_value(tmp_path: Path):
    program = load(tmp_path, v1model("add.apply(3, hdr.h.a); add.apply(4, hdr.h.a);", "Add() add;", """
        control Add(int n, inout bit<8> v) { apply { v = v + (bit<8>) n; } }
    """))
    diags = Diagnostics()
    assert PassManager([Inlining()]).run(program, diags).program is None
    assert [d.message for d in diags.items] == [
        "add.apply: n has no direction, so every apply must pass it the same value"]


def test_out_parameters_start_with_invalid_headers(tmp_path: Path):
    program, _ = inline(tmp_path, "fill.apply(hdr);", "Fill() fill;", """
        control Fill(out headers_t out_hdr) { apply { out_hdr.h.setValid(); } }
    """)
    [block] = ingress(program).body.statements
    assert [_describe(s) for s in block.statements] == ["hdr.h.setInvalid()", "hdr.h.setValid()"]


def test_sub_parser_states_are_spliced_in(tmp_path: Path):
    program, reports = inline(tmp_path, "", parser="""
        Inner() inner;
        state start {
            inner.apply(pkt, hdr.h);
            hdr.h.b = 1;
            transition accept;
        }
    """, globals="""
        parser Inner(packet_in p, out h_t h) {
            state start { p.extract(h); transition select(h.a) { 0: reject; default: accept; } }
        }
    """)
    parser = the(program, "P", ir.Parser)
    names = [s.name for s in parser.states]
    assert names == ["start", "inner.1.start", "start.after.1"]
    assert parser.states[0].transition.name == "inner.1.start"
    select = parser.states[1].transition
    assert [c.state.name for c in select.cases] == ["reject", "start.after.1"]
    [extract] = nodes(parser.states[1], ir.MethodCall)
    assert _describe(extract.method.expr) == "pkt"  # the packet is the caller's
    assert [_describe(s) for s in parser.states[0].components] == ["hdr.h.setInvalid()"]  # `out`: no copy
    assert [_describe(s) for s in parser.states[2].components] == ["hdr.h.b = 1"]
    assert parser.states[2].transition.name == "accept"
    assert any("inlined Inner as inner into P" in r for r in reports)


def test_generic_controls_are_reported(tmp_path: Path):
    program = load(tmp_path, v1model("g.apply(hdr.h.a);", "G<bit<8>>() g;", """
        control G<T>(inout T v) { apply { } }
    """))
    diags = Diagnostics()
    result = PassManager([Inlining()]).run(program, diags)
    assert result.program is None
    assert [d.message for d in diags.items] == ["g: instances of generic G are not supported"]


def test_absolute_names_of_a_control_instantiated_twice_are_refused(tmp_path: Path):
    """Each instance's copy of a table or extern instance would have the one name the control
    plane knows (p4c's issue1803_same_table_name); a relative name is prefixed by the instance's.
    The copies of an action are one action to the control plane, as a top-level action is."""
    program = load(tmp_path, v1model("one.apply(hdr.h.a); two.apply(hdr.h.b);", "Sub() one; Sub() two;", """
        action shared() { }
        control Sub(inout bit<8> k) {
            @name(".hits") counter(1, CounterType.packets) hits;
            @name(".bump") action bump() { hits.count(0); }
            action relative() { }
            @name(".t") table t { key = { k : exact; } actions = { bump; relative; shared; } }
            apply { t.apply(); }
        }
    """))
    diags = Diagnostics()
    assert PassManager([Inlining()]).run(program, diags).program is None
    absolute = "(an absolute @name, with a leading dot, in a control instantiated twice)"
    assert sorted(d.message for d in diags.items) == [
        f"hits: the control-plane name of both counters one.hits and two.hits {absolute}",
        f"t: the control-plane name of both tables one.t and two.t {absolute}"]
    assert all(d.loc is not None and d.loc.line > 0 for d in diags.items)


def test_dump_after_inlining_shows_no_instances(tmp_path: Path):
    program = load(tmp_path, v1model("one.apply(hdr.h.a, hdr.h.b);", "Sub(8w1) one;", SUB))
    stream = io.StringIO()
    PassManager(default_passes()).run(program, Diagnostics(), PassOptions(dump_after="inlining", dump_stream=stream))
    [ing] = [d for d in json.loads(stream.getvalue())["declarations"] if d.get("name") == "Ing"]
    assert [(d["node"], d["name"]) for d in ing["locals"]] == [
        ("Variable", "one.seen"), ("Action", "one.add"), ("Table", "one.t")]


def test_inlined_program_forwards_as_written(tmp_path: Path):
    source = v1model("""
        sm.egress_spec = 1;
        one.apply(hdr.h.a, hdr.h.b);
        two.apply(hdr.h.b, hdr.h.a);
    """, "Sub(8w1) one; Sub(8w2) two;", SUB)
    program = load(tmp_path, source)
    program = run(program, [Inlining(), UniqueNames(), ConstantFolding(), DeadCode()]).program
    # a=5, b=3.  one: k=3 is not 0; t misses, add(): a = 5+1 = 6; a += seen (3): 9.
    # two: v=b=3, k=a=9; add(): 3+2 = 5; += seen (9): 14.  The rest of the header is unchanged.
    result = stf(tmp_path, program, tmp_path / "prog.p4", """
        packet 0 05 03 00 0000
        expect 1 09 0e 00 0000
    """)
    assert result.passed, result.message


# ----------------------------------------------------------------------
# Names that mean the caller's declarations, wherever the inlined code lands (bugs the IR validator found)


def validated(tmp_path: Path, source: str) -> tuple[ir.Program, ir.Program]:
    """The front end's program of `source` and the same after inlining, both checked by the IR validator
    (before and after every midend pass, which must all run)."""
    program = load(tmp_path, source)
    result = run(program, default_passes(), PassOptions(validate=True))
    assert result.ran == [p.name for p in default_passes()]
    return program, run(program, [Inlining()], PassOptions(validate=True)).program


def test_a_state_local_stands_for_the_sub_parsers_parameter(tmp_path: Path):
    # `x` is declared in the state that applies peek: it becomes a parser local (start.x) before it is bound
    # to peek's `v`, which the hoisted code then writes directly (no peek.v copy).
    source = v1model("sm.egress_spec = 1;", parser="""
        Peek() peek;
        state start {
            pkt.extract(hdr.h);
            bit<8> x;
            peek.apply(v = x, p = pkt, base = hdr.h.a);
            hdr.h.b = x;
            transition accept;
        }
    """, globals="""
        parser Peek(packet_in p, in bit<8> base, out bit<8> v) {
            state start { v = base + 1; transition accept; }
        }
    """)
    program, inlined = validated(tmp_path, source)
    parser = the(inlined, "P", ir.Parser)
    assert [d.name for d in parser.locals if isinstance(d, ir.Variable)] == ["start.x"]
    [set_v] = parser.states[1].components
    assert _describe(set_v) == "start.x = Binary"
    result = stf(tmp_path, program, tmp_path / "prog.p4", """
        packet 0 05 00 00 0000
        expect 1 05 06 00 0000
    """)
    assert result.passed, result.message


CTOR_PASSED_ON = """
    control Add(inout bit<8> v)(bit<8> amount) {
        action add(bit<8> n) { v = v + amount; v = v + n; }
        table t { key = { v : exact; } actions = { add; } default_action = add(0); }
        apply { t.apply(); }
    }
    control Outer(inout bit<8> v)(bit<8> n) {
        Add(n) inner;
        apply { inner.apply(v); }
    }
    control Step(inout bit<8> v);
    control Twice(inout bit<8> v)(Step s) {
        apply { s.apply(v); s.apply(v); }
    }
    control Twice2(inout bit<8> v)(bit<8> n) {
        Twice(Add(n)) t;
        apply { t.apply(v); }
    }
"""


def test_a_constructor_argument_naming_the_callers_constructor_parameter(tmp_path: Path):
    # Outer passes its own `n` to Add, Twice2 its own to an Add made by a constructor call.  The top-level Outer
    # and Twice2 are flattened too: there `n` is theirs (renamed n.0: Add's action may not hide it), not a global
    # `.n`; in Ing it is the instance's value.
    source = v1model("sm.egress_spec = 1; outer.apply(hdr.h.a); twice.apply(hdr.h.b);",
                     "Outer(8w5) outer; Twice2(8w3) twice;", CTOR_PASSED_ON)
    program, inlined = validated(tmp_path, source)

    def added(action: str):
        binary = nodes(the(inlined, action, ir.Action).body, ir.Binary)[0]  # v + amount
        return binary.right

    for action, block in (("inner.add", "Outer"), ("t.s.add", "Twice2")):
        assert [p.name for p in the(inlined, block, ir.Control).ctor_params] == ["n.0"]
        assert isinstance(added(action), ir.PathExpression)
        assert (added(action).name, added(action).is_global) == ("n.0", False)
    assert added("outer.inner.add").value == 5
    assert added("twice.t.s.add").value == 3
    assert the(inlined, "twice.t.s.t", ir.Table).control_name == "Ing.twice.t.s.t"
    # a = 5 + 5; b = 3 + 3 + 3
    result = stf(tmp_path, program, tmp_path / "prog.p4", """
        packet 0 05 03 00 0000
        expect 1 0a 09 00 0000
    """)
    assert result.passed, result.message


def test_an_extern_instance_passed_as_a_constructor_argument_stays_the_callers(tmp_path: Path):
    source = v1model("sm.egress_spec = 1; keep.apply(hdr.h.a); regs.read(hdr.h.b, 0);",
                     "register<bit<8>>(1) regs; Keep(regs) keep;", """
        control Keep(inout bit<8> v)(register<bit<8>> r) {
            action store() { r.write(0, v + 1); }
            table t { key = { v : exact; } actions = { store; } default_action = store(); }
            apply { t.apply(); }
        }
    """)
    program, inlined = validated(tmp_path, source)
    [write] = nodes(the(inlined, "keep.store", ir.Action).body, ir.MethodCall)
    assert (write.method.expr.name, write.method.expr.is_global) == ("regs", False)
    result = stf(tmp_path, program, tmp_path / "prog.p4", """
        packet 0 05 00 00 0000
        expect 1 05 06 00 0000
    """)
    assert result.passed, result.message


EXTERNS = """
    extern Box { Box(bit<8> size); bit<8> get(); }
    extern Holder { Holder(Box b); bit<8> get(); }
"""


def test_extern_constructor_arguments_naming_the_callers_instances(tmp_path: Path):
    # An extern instance of an inlined control whose constructor argument is the caller's instance: passed as a
    # constructor argument (one), through two levels (two), or inside a constructor call (three).
    source = v1model("one.apply(hdr.h.a); two.apply(hdr.h.b); three.apply(meta.m);", """
        Box(8w3) box;
        Keep(box) one;
        Pass(box) two;
        Use(Holder(box)) three;
    """, EXTERNS + """
        control Keep(inout bit<8> v)(Box b) {
            Holder(b) h;
            apply { v = h.get(); }
        }
        control Pass(inout bit<8> v)(Box b2) {
            Keep(b2) keep;
            apply { keep.apply(v); }
        }
        control Use(inout bit<8> v)(Holder holder) {
            apply { v = holder.get(); }
        }
    """)
    _, inlined = validated(tmp_path, source)
    holders = {d.name: d for d in ingress(inlined).locals if isinstance(d, ir.Instance)}
    assert set(holders) == {"box", "one.h", "two.keep.h", "three.holder"}
    for name in ("one.h", "two.keep.h", "three.holder"):
        [arg] = holders[name].args
        assert (arg.value.name, arg.value.is_global) == ("box", False)
    # In the top-level Pass, its own constructor parameter: b2, renamed b2.0.
    [arg] = the(inlined, "keep.h", ir.Instance).args
    assert (arg.value.name, arg.value.is_global) == ("b2.0", False)


def test_a_constructor_argument_hidden_in_the_inlined_code_is_reported(tmp_path: Path):
    program = load(tmp_path, v1model("s.apply(hdr.h.a);", "register<bit<8>>(1) r; Sub(r) s;", """
        control Sub(inout bit<8> v)(register<bit<8>> rr) {
            action w(bit<8> r) { rr.write(0, r); }
            table t { key = { v : exact; } actions = { w; } default_action = w(1); }
            apply { t.apply(); }
        }
    """))
    diags = Diagnostics()
    assert PassManager([Inlining()]).run(program, diags, PassOptions(validate=True)).program is None
    assert [d.message for d in diags.items] == [
        "rr stands for an argument that names r, which a declaration here hides: inlining this is not supported; "
        "rename one of them"]


def test_an_apply_local_constant_passed_without_direction_is_its_value(tmp_path: Path):
    # Add's `n` is the argument itself in the hoisted action too, where the apply block's K is not visible.
    source = v1model("""
        sm.egress_spec = 1;
        const bit<8> K = 3;
        add.apply(K, hdr.h.a);
    """, "Add() add;", """
        control Add(bit<8> n, inout bit<8> v) {
            action bump() { v = v + n; }
            table t { key = { v : exact; } actions = { bump; } default_action = bump(); }
            apply { t.apply(); }
        }
    """)
    program, inlined = validated(tmp_path, source)
    [binary] = nodes(the(inlined, "add.bump", ir.Action).body, ir.Binary)
    assert isinstance(binary.right, ir.IntLiteral) and binary.right.value == 3
    result = stf(tmp_path, program, tmp_path / "prog.p4", """
        packet 0 05 00 00 0000
        expect 1 08 00 00 0000
    """)
    assert result.passed, result.message


def test_an_argument_declared_in_the_apply_block_is_copied(tmp_path: Path):
    # `tmp` is not visible in Ing's locals, where bump's action goes: bump's `v` is a copy (bump.v), not `tmp`.
    source = v1model("""
        sm.egress_spec = 1;
        bit<8> tmp = hdr.h.a;
        bump.apply(tmp);
        hdr.h.b = tmp;
    """, "Bump() bump;", """
        control Bump(inout bit<8> v) {
            action add() { v = v + 1; }
            table t { key = { v : exact; } actions = { add; } default_action = add(); }
            apply { t.apply(); }
        }
    """)
    program, inlined = validated(tmp_path, source)
    assert [d.name for d in ingress(inlined).locals if isinstance(d, ir.Variable)] == ["bump.v"]
    assert [_describe(s) for s in nodes(the(inlined, "bump.add", ir.Action).body, ir.Assignment)] == [
        "bump.v = Binary"]
    result = stf(tmp_path, program, tmp_path / "prog.p4", """
        packet 0 05 00 00 0000
        expect 1 05 06 00 0000
    """)
    assert result.passed, result.message


def _describe(node) -> str:
    """A short text of a statement or expression, enough to recognise it in assertions."""
    if isinstance(node, ir.Assignment):
        return f"{_describe(node.target)} = {_describe(node.value)}"
    if isinstance(node, ir.DeclarationStatement):
        return f"declare {node.decl.name}"
    if isinstance(node, ir.MethodCallStatement):
        return _describe(node.call)
    if isinstance(node, ir.MethodCall):
        return f"{_describe(node.method)}()"
    if isinstance(node, ir.PathExpression):
        return node.name
    if isinstance(node, ir.Member):
        return f"{_describe(node.expr)}.{node.member}"
    if isinstance(node, ir.IntLiteral):
        return str(node.value)
    return type(node).__name__


def test_a_block_given_twice_to_main_with_constructor_arguments_is_refused(tmp_path: Path):
    # Given once (tests/packets/main_constructor_args), its arguments replace its parameters; twice,
    # the two blocks made would have one name.
    source = """
        #include <v1model.p4>
        struct h_t { }
        struct m_t { }
        parser P(packet_in p, out h_t h, inout m_t m, inout standard_metadata_t sm) { state start { transition accept; } }
        control C(inout h_t h, inout m_t m)(bit<8> x) { apply { } }
        control I(inout h_t h, inout m_t m, inout standard_metadata_t sm) { apply { } }
        control D(packet_out p, in h_t h) { apply { } }
        V1Switch(P(), C(1), I(), I(), C(2), D()) main;
    """
    diags = Diagnostics()
    program = load(tmp_path, source)
    PassManager([Inlining()]).run(program, diags, PassOptions(validate=True))
    assert [d.message for d in diags.items] == ["C given to main twice with constructor arguments"]
