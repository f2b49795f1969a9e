"""constant-folding: constants replaced by their values, constant expressions folded, P4 semantics kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from midend_snippets import ingress, load, nodes, run, stf, the, v1model

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes import ConstantFolding, UniqueNames


def fold(tmp_path: Path, body: str = "", locals: str = "", globals: str = "", **kw):
    program = load(tmp_path, v1model(body, locals, globals, **kw))
    result = run(program, [UniqueNames(), ConstantFolding()])
    return program, result.program, result


def assigned(program: ir.Program, field: str, occurrence: int = 0) -> ir.Expression:
    """The value of the `occurrence`-th assignment to `hdr.h.<field>` in Ing's apply block."""
    found = [s.value for s in nodes(ingress(program).body, ir.Assignment)
             if isinstance(s.target, ir.Member) and s.target.member == field]
    return found[occurrence]


def int_value(expr: ir.Expression) -> int:
    assert isinstance(expr, ir.IntLiteral), expr
    return expr.value


@pytest.mark.parametrize("expr, field, value", [
    ("8w200 + 8w100", "a", 44),  # wraps around
    ("8w1 - 8w2", "a", 255),
    ("8w16 * 8w17", "a", 16),
    ("8w1 << 9", "a", 0),
    ("8w0xF0 >> 4", "a", 0x0F),
    ("8w250 |+| 8w10", "a", 255),  # saturates
    ("8w5 |-| 8w10", "a", 0),
    ("~8w0x0F", "a", 0xF0),
    ("8w0xF0 & 8w0x3C | 8w1", "a", 0x31),
    ("8w0xFF ^ 8w0x0F", "a", 0xF0),
    ("8w100 / 8w7", "a", 14),
    ("8w100 % 8w7", "a", 2),
    ("16w0xABCD[11:4]", "a", 0xBC),  # slices
    ("(16w0xABCD)[15:8]", "a", 0xAB),
    ("(bit<8>) 16w0x1234", "a", 0x34),  # casts truncate...
    ("(bit<16>) 8w0xFF", "w", 0xFF),  # ...and extend
    ("(bit<8>) -8s3", "a", 0xFD),
    ("8w0x12 ++ 8w0x34", "w", 0x1234),  # concatenation
    ("(bool) 1w1 ? 8w1 : 8w2", "a", 1),
    ("-8s128 - 1", "s", 127),  # signed wrap-around
    ("-8s3 >> 1", "s", -2),  # arithmetic shift
    ("-8s100 |-| 8s100", "s", -128),
    ("(int<8>) 8w200", "s", -56),
    ("-8s1", "s", -1),
])
def test_operators_fold_with_p4_semantics(tmp_path: Path, expr: str, field: str, value: int):
    before, after, _ = fold(tmp_path, f"hdr.h.{field} = {expr};")
    folded = assigned(after, field)
    assert int_value(folded) == value
    assert folded.type == assigned(before, field).type  # the expression's own type
    if "?" not in expr:  # `c ? a : b` becomes the branch itself, with its own position
        assert folded.loc == assigned(before, field).loc


@pytest.mark.parametrize("cond, value", [
    ("8w3 < 8w4", True), ("-8s1 < 8s0", True), ("8w255 == -1", True), ("!(8w1 != 8w1)", True),
    ("true && false", False), ("false || true", True), ("(int<8>) 8w200 < 0", True),
    ("8w1 ++ 8w0 == 16w256", True), ("(8w1 > 8w2 ? 8w5 : 8w6) == 6", True),
])
def test_conditions_fold_to_bool_literals(tmp_path: Path, cond: str, value: bool):
    _, after, _ = fold(tmp_path, f"sm.egress_spec = ({cond}) ? 9w1 : 9w2;")
    [stmt] = [s for s in nodes(ingress(after).body, ir.Assignment)]
    assert int_value(stmt.value) == (1 if value else 2)


def test_references_to_constants_become_their_values(tmp_path: Path):
    before, after, result = fold(tmp_path, """
        hdr.h.a = K;
        hdr.h.b = L + 1;
        hdr.h.w = C;
        hdr.h.s = S;
    """, locals="const bit<8> L = K * 2;", globals="""
        const bit<8> K = 7;
        const bit<16> C = 0xABCD;
        const int<8> S = -5;
    """)
    a = assigned(after, "a")
    assert isinstance(a, ir.IntLiteral) and (a.value, a.width, a.signed) == (7, 8, False)
    assert a.type == t.Bits(8) and a.loc == assigned(before, "a").loc
    assert int_value(assigned(after, "b")) == 15
    assert int_value(assigned(after, "w")) == 0xABCD
    s = assigned(after, "s")
    assert s.value == -5 and s.type == t.Bits(8, signed=True)
    assert the(after, "L", ir.Constant).value.value == 14  # the local constant's own value is folded too
    assert any("replaced 5 reference(s) to constants" in r for r in result.reports)


def test_constants_fold_into_slices_casts_and_concatenations(tmp_path: Path):
    _, after, _ = fold(tmp_path, """
        hdr.h.a = C[15:8];
        hdr.h.b = (bit<8>) NEG;
        hdr.h.w = (bit<8>) NEG ++ K[3:0] ++ 4w1;
    """, globals="""
        const bit<16> C = 0xABCD;
        const int<8> NEG = -3;
        const bit<8> K = 200;
    """)
    assert int_value(assigned(after, "a")) == 0xAB
    assert int_value(assigned(after, "b")) == 0xFD
    assert int_value(assigned(after, "w")) == 0xFD81


def test_names_hidden_by_a_local_declaration_are_not_replaced(tmp_path: Path):
    _, after, _ = fold(tmp_path, """
        {
            bit<8> K = hdr.h.b;
            hdr.h.a = K;
        }
        hdr.h.b = K;
        set_a(hdr.h.w[7:0]);
    """, locals="""
        action set_a(bit<8> K) { hdr.h.a = K; }
    """, globals="const bit<8> K = 7;")
    first = assigned(after, "a", 0)
    assert isinstance(first, ir.PathExpression) and first.name == "K#2"  # the block's variable (unique-names)
    assert int_value(assigned(after, "b")) == 7  # the constant again, after the block
    action = the(after, "set_a", ir.Action)
    [in_action] = nodes(action.body, ir.Assignment)
    assert isinstance(in_action.value, ir.PathExpression)  # the parameter


def test_enum_constants_keep_their_names_but_fold_in_casts(tmp_path: Path):
    _, after, _ = fold(tmp_path, """
        hdr.h.a = (bit<8>) EC;
        if (EC == E.X) { hdr.h.b = 1; }
    """, globals="""
        enum bit<8> E { X = 3, Y = 4 }
        const E EC = E.X;
    """)
    assert int_value(assigned(after, "a")) == 3
    assert not nodes(ingress(after).body, ir.IfStatement)  # EC == E.X is true: the if is gone
    assert int_value(assigned(after, "b")) == 1


def test_if_with_constant_conditions_keeps_the_branch_that_runs(tmp_path: Path):
    _, after, result = fold(tmp_path, """
        if (K == 7) { hdr.h.a = 1; } else { hdr.h.a = 2; }
        if (K != 7) { hdr.h.b = 1; } else { hdr.h.b = 2; }
        if (false) { hdr.h.w = 1; }
        if (hdr.h.s == 0 && !true) { hdr.h.s = 1; }
    """, globals="const bit<8> K = 7;")
    body = ingress(after).body
    assert not nodes(body, ir.IfStatement)
    assert [int_value(a.value) for a in nodes(body, ir.Assignment)] == [1, 2]
    assert sum("if (" in r for r in result.reports) == 4
    assert any("if (false): removed the statement" in r for r in result.reports)


def test_short_circuit_operators_simplify(tmp_path: Path):
    _, after, _ = fold(tmp_path, """
        meta.m = (true && hdr.h.a == 1) ? 8w1 : 8w0;
        meta.m = (hdr.h.a == 1 || false) ? 8w1 : 8w0;
        meta.m = (hdr.h.isValid() && false) ? 8w1 : 8w0;
        meta.m = (true ? hdr.h.a : hdr.h.b);
    """)
    values = [a.value for a in nodes(ingress(after).body, ir.Assignment)]
    assert isinstance(values[0].cond, ir.Binary) and values[0].cond.op is ir.BinaryOp.EQ
    assert isinstance(values[1].cond, ir.Binary) and values[1].cond.op is ir.BinaryOp.EQ
    assert int_value(values[2]) == 0  # isValid() has no effect: `x && false` is false
    assert isinstance(values[3], ir.Member) and values[3].member == "a"


def test_calls_are_never_folded_away(tmp_path: Path):
    _, after, _ = fold(tmp_path, """
        if (bump(hdr.h.a) == 0 && false) { hdr.h.b = 1; }
        if (t.apply().hit || true) { hdr.h.b = 2; }
        if (false && t.apply().hit) { hdr.h.b = 3; }
        hdr.h.setValid();
    """, locals="""
        table t { key = { hdr.h.a : exact; } actions = { NoAction; } }
    """, globals="""
        bit<8> bump(inout bit<8> x) { x = x + 1; return x; }
    """)
    body = ingress(after).body
    ifs = nodes(body, ir.IfStatement)
    assert len(ifs) == 2  # the first two keep their calls; `false && ...` never calls
    assert all(nodes(i.cond, ir.MethodCall) for i in ifs)
    assert [s.call.method.member for s in nodes(body, ir.MethodCallStatement)] == ["setValid"]


def test_table_properties_fold_but_keys_stay_as_written(tmp_path: Path):
    _, after, _ = fold(tmp_path, "t.apply();", locals="""
        action set(bit<8> v) { hdr.h.a = v; }
        table t {
            key = { hdr.h.w[HI:0] : exact @name("low"); }
            actions = { set; }
            const entries = { K : set(K + 1); }
            const default_action = set(K);
            size = SIZE * 2;
        }
    """, globals="""
        const bit<8> K = 7;
        const int SIZE = 32;
        const int HI = 7;
    """)
    props = {p.name: p for p in the(after, "t", ir.Table).properties}
    [key] = props["key"].value
    assert isinstance(key.expr.high, ir.PathExpression)  # the key's text is its name
    [entry] = props["entries"].value
    assert int_value(entry.keyset) == 7 and int_value(entry.action.args[0].value) == 8
    assert int_value(props["default_action"].value.args[0].value) == 7
    assert int_value(props["size"].value) == 64


def test_select_keysets_fold(tmp_path: Path):
    _, after, _ = fold(tmp_path, globals="const bit<8> K = 7;", parser="""
        state start {
            pkt.extract(hdr.h);
            transition select(hdr.h.a) {
                K: accept;
                K + 1 &&& 0xF0: accept;
                default: reject;
            }
        }
    """)
    select = the(after, "start", ir.ParserState).transition
    first, masked, _ = [c.keyset for c in select.cases]
    assert int_value(first) == 7
    assert int_value(masked.left) == 8 and masked.op is ir.BinaryOp.MASK
    assert [c.state.name for c in select.cases] == ["accept", "accept", "reject"]


def test_nothing_to_fold_leaves_the_program_as_it_was(tmp_path: Path):
    program = load(tmp_path, v1model("hdr.h.a = hdr.h.b;"))
    once = run(program, [UniqueNames(), ConstantFolding()]).program
    twice = run(once, [UniqueNames(), ConstantFolding()])
    assert twice.program is once and not twice.reports


def test_folded_program_behaves_as_the_original(tmp_path: Path):
    """Packets in, packets out: the folded program and the original compute the same header."""
    source = v1model("""
        hdr.h.a = K + 8w100;
        hdr.h.b = C[11:4];
        hdr.h.s = NEG >> 1;
        hdr.h.w = (bit<8>) NEG ++ K[3:0] ++ 4w0x1;
        if ((8w250 |+| 8w10) == 255 && (-8s100 |-| 8s100) == -128 && (int<8>) K < 0) {
            hdr.h.a = hdr.h.a + 1;
        }
        if (K == 0) { hdr.h.a = 0; }
        sm.egress_spec = (K > 100 && !false) ? 9w1 : 9w2;
    """, globals="""
        const bit<8> K = 200;
        const int<8> NEG = -3;
        const bit<16> C = 0xABCD;
    """)
    program = load(tmp_path, source)
    folded = run(program, [UniqueNames(), ConstantFolding()]).program
    assert not nodes(ingress(folded).body, ir.IfStatement)
    test = """
        packet 0 00 00 00 0000 deadbeef
        expect 1 2d bc fe fd81 deadbeef $
    """
    for name, variant in (("original", program), ("folded", folded)):
        result = stf(tmp_path, variant, tmp_path / "prog.p4", test, name)
        assert result.passed, f"{name}: {result.report}"
