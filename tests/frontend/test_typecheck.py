"""Unit tests of `p4odp.frontend.typecheck`: declarations, scopes, names and instantiation.

Each snippet goes through the whole front end (see `snippets.py`).  A rule is
shown by a pair: the valid program is accepted, the invalid one gets one error
at an exact position.
"""

from __future__ import annotations

import pytest

from p4odp import ir
from p4odp import types as t

from snippets import accept, assert_rule, has_error, nodes, reject

# A v1model program without its `main`: append the instantiation under test.
V1_PROGRAM = """
    header h_t { bit<8> a; }
    struct headers_t { h_t h; }
    struct meta_t { bit<8> m; }
    parser MyParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
        state start { pkt.extract(hdr.h); transition accept; }
    }
    control MyVerify(inout headers_t hdr, inout meta_t meta) { apply { } }
    control MyIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
    control MyEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
    control MyCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
    control MyDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
"""


# ----------------------------------------------------------------------------
# Declarations


def test_names_must_be_declared_before_use(tmp_path):
    assert_rule(tmp_path, """
        const bit<8> B = 1;
        const bit<8> A = B;
    """, """
        const bit<8> A = B;
        const bit<8> B = 1;
    """, at="B;", message="B: declaration not found")


def test_typedef_is_its_type_and_new_type_is_distinct(tmp_path):
    c = accept(tmp_path, """
        typedef bit<16> port_t;
        type bit<16> id_t;
        control C(inout port_t p, inout bit<16> raw, inout id_t id) {
            apply { p = raw; id = (id_t) raw; }
        }
    """)
    assert c.find("p = raw", ir.Assignment).target.type == t.Bits(16)
    assert c.expr("(id_t) raw").type == t.NewTypeT("id_t")


def test_new_type_only_of_base_types(tmp_path):
    assert_rule(tmp_path, """
        type bit<8> id_t;
    """, """
        struct s_t { bit<8> a; }
        type s_t id_t;
    """, at="s_t id_t", message="id_t: `type' can only be applied to base types")


def test_header_fields_are_bits_bools_varbits_or_flat_structs(tmp_path):
    assert_rule(tmp_path, """
        struct flat_t { bit<4> a; bool b; }
        header h_t { bit<8> x; varbit<32> opts; flat_t f; bool ok; }
    """, """
        header g_t { bit<8> a; }
        header h_t { bit<8> x; g_t inner; }
    """, at="g_t inner", message="h_t.inner: type header g_t cannot be used in a header")


def test_header_fields_cannot_be_int(tmp_path):
    assert_rule(tmp_path, """
        header h_t { int<8> x; }
    """, """
        header h_t { int x; }
    """, at="int x", message="h_t.x: type int cannot be used in a header")


def test_header_union_fields_must_be_headers(tmp_path):
    assert_rule(tmp_path, """
        header a_t { bit<8> x; }
        header b_t { bit<16> y; }
        header_union u_t { a_t a; b_t b; }
    """, """
        header a_t { bit<8> x; }
        header_union u_t { a_t a; bit<16> y; }
    """, at="bit<16> y", message="u_t.y: header_union fields must be headers, not bit<16>")


def test_struct_fields_cannot_be_strings(tmp_path):
    assert_rule(tmp_path, """
        struct s_t { bit<8> x; }
    """, """
        struct s_t { string x; }
    """, at="string", message="s_t.x: type string cannot be used in a struct")


def test_struct_cannot_contain_itself(tmp_path):
    assert_rule(tmp_path, """
        struct inner_t { bit<8> x; }
        struct s_t { inner_t x; }
    """, """
        struct s_t { s_t x; }
    """, at="s_t x", message="self-referencing types are not supported: 's_t' within itself")


def test_serializable_enum_members_need_values(tmp_path):
    assert_rule(tmp_path, """
        enum bit<8> E { A = 1, B = 2 }
    """, """
        enum bit<8> E { A = 1, B }
    """, at="B }", message="E.B: serializable enum members need a value")


def test_only_serializable_enums_give_values(tmp_path):
    assert_rule(tmp_path, """
        enum E { A, B }
    """, """
        enum E { A = 1, B }
    """, at="1", message="E: only serializable enums give members values")


def test_serializable_enums_are_over_bit_or_int(tmp_path):
    assert_rule(tmp_path, """
        enum int<8> E { A = -1 }
    """, """
        enum bool E { A = true }
    """, at="bool", message="E: illegal type for enum; only bit<> and int<> are allowed")


def test_generic_struct_is_specialized(tmp_path):
    c = accept(tmp_path, """
        struct pair_t<T> { T first; T second; }
        control C(inout pair_t<bit<8>> p, inout bit<8> x) { apply { x = p.first; } }
    """)
    assert c.type_of("p.first") == "bit<8>"


def test_generic_structs_nested_are_specialized_all_the_way_down(tmp_path):
    c = accept(tmp_path, """
        struct box_t<T> { T v; }
        struct mid_t<T> { box_t<T> b; }
        struct outer_t<T> { mid_t<T> m; }
        control C(inout bit<8> y) {
            apply {
                outer_t<bit<8>> x;
                x.m.b.v = y;
                outer_t<bit<8>> z = { m = { b = { v = y } } };
                mid_t<bit<8>> q = x.m;
                y = q.b.v + z.m.b.v;
            }
        }
    """)
    assert c.type_of("x.m.b.v") == "bit<8>"
    assert c.type_of("x.m") == "struct mid_t<bit<8>>"


def test_generic_struct_needs_type_arguments(tmp_path):
    accept(tmp_path, """
        struct pair_t<T> { T first; }
        control C(inout pair_t<bit<8>> p) { apply { } }
    """)
    reject(tmp_path, """
        struct pair_t<T> { T first; }
        control C(inout pair_t p) { apply { } }
    """)


def test_type_arguments_only_for_generic_types(tmp_path):
    assert_rule(tmp_path, """
        struct s_t { bit<8> x; }
        control C(inout s_t s) { apply { } }
    """, """
        struct s_t { bit<8> x; }
        control C(inout s_t<bit<8>> s) { apply { } }
    """, at="s_t<", message="struct s_t: this type takes no type arguments")


# ----------------------------------------------------------------------------
# Scopes


def test_inner_block_may_shadow_an_outer_local(tmp_path):
    c = accept(tmp_path, """
        control C(inout bit<8> x) {
            apply {
                bit<8> y = 1;
                { bit<16> y = 2; x = y[7:0]; }
                x = y;
            }
        }
    """)
    assert c.type_of("y[7:0]") == "bit<8>"
    assert c.expr("y[7:0]").expr.type == t.Bits(16)
    assert c.find("x = y;", ir.Assignment).value.type == t.Bits(8)


def test_a_block_ends_the_scope_of_its_locals(tmp_path):
    assert_rule(tmp_path, """
        control C(inout bit<8> x) { apply { bit<8> y = 1; { x = y; } } }
    """, """
        control C(inout bit<8> x) { apply { { bit<8> y = 1; } x = y; } }
    """, at="y; } }", message="y: declaration not found")


def test_a_local_of_the_apply_block_cannot_shadow_a_parameter(tmp_path):
    assert_rule(tmp_path, """
        control C(inout bit<8> x) { apply { bit<8> y = 1; x = y; } }
    """, """
        control C(inout bit<8> x) { apply { bit<8> x = 1; } }
    """, at="x = 1", message="x: this declaration shadows a parameter")


def test_control_locals_see_constructor_parameters(tmp_path):
    c = accept(tmp_path, """
        control C(inout bit<8> x)(bit<8> init) {
            apply { x = init; }
        }
    """)
    assert c.find("x = init", ir.Assignment).value.type == t.Bits(8)


def test_global_names_with_a_leading_dot(tmp_path):
    c = accept(tmp_path, """
        const bit<16> K = 7;
        control C(inout bit<8> x) {
            apply { bit<8> K = 1; x = K; x = (bit<8>) .K; }
        }
    """)
    assert c.type_of(".K") == "bit<16>"
    assert c.find("x = K", ir.Assignment).value.type == t.Bits(8)


# ----------------------------------------------------------------------------
# Duplicate declarations


def test_duplicate_top_level_names(tmp_path):
    accept(tmp_path, """
        header h_t { bit<8> a; }
        const bit<8> h = 1;
    """)
    bad = reject(tmp_path, """
        header h_t { bit<8> a; }
        const bit<8> h_t = 1;
    """)
    assert bad.errors() == [(bad.at("h_t = 1"), "h_t: duplicate declaration")]
    notes = [(f"{d.loc.line}:{d.loc.col}", d.message) for d in bad.diags.items if d.severity == "note"]
    assert notes == [(bad.at("h_t {"), "h_t: previously declared here")]


def test_duplicate_locals_in_one_block(tmp_path):
    assert_rule(tmp_path, """
        control C() { apply { bit<8> y = 1; bit<8> z = 2; } }
    """, """
        control C() { apply { bit<8> y = 1; bit<8> y = 2; } }
    """, at="y = 2", message="y: duplicate declaration")


def test_duplicate_fields(tmp_path):
    assert_rule(tmp_path, """
        header h_t { bit<8> a; bit<16> b; }
    """, """
        header h_t { bit<8> a; bit<16> a; }
    """, at="a; }", message="h_t.a: duplicate field")


def test_duplicate_enum_members(tmp_path):
    assert_rule(tmp_path, """
        enum E { A, B }
    """, """
        enum E { A, B, A }
    """, at="A }", message="E.A: duplicate enum member")


def test_duplicate_error_members(tmp_path):
    assert_rule(tmp_path, """
        error { MyError }
    """, """
        error { MyError, NoError }
    """, at="NoError", message="error.NoError: duplicate declaration")


def test_duplicate_match_kinds(tmp_path):
    assert_rule(tmp_path, """
        match_kind { fuzzy }
    """, """
        match_kind { exact }
    """, at="exact", message="exact: duplicate declaration")


def test_duplicate_parameters(tmp_path):
    assert_rule(tmp_path, """
        control C(inout bit<8> x, in bit<8> y) { apply { } }
    """, """
        control C(inout bit<8> x, in bit<8> x) { apply { } }
    """, at="x) {", message="x: duplicate parameter")


def test_duplicate_parser_states(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { transition s; } state s { transition accept; } }
    """, """
        parser P(packet_in p) { state start { transition accept; } state start { transition accept; } }
    """, at="start", occurrence=2, message="start: duplicate parser state")


def test_actions_of_one_control_cannot_share_a_name(tmp_path):
    accept(tmp_path, """
        control C() { action a() {} action b() {} apply { a(); b(); } }
    """)
    bad = reject(tmp_path, """
        control C() { action a() {} action a(bit<8> x) {} apply { } }
    """)
    assert has_error(bad, "a(bit", "a: duplicate declaration")


# ----------------------------------------------------------------------------
# Overloads


def test_extern_functions_overload_on_parameters(tmp_path):
    c = accept(tmp_path, """
        extern bit<8> f(in bit<8> x);
        extern bit<16> f(in bit<16> y);
        extern bit<32> f(in bit<8> x, in bit<8> z);
        control C(inout bit<8> a, inout bit<16> b, inout bit<32> w) {
            apply { a = f(a); b = f(b); b = f(y = 1); w = f(1, 2); }
        }
    """)
    assert c.type_of("f(a)") == "bit<8>"
    assert c.type_of("f(b)") == "bit<16>"
    assert c.type_of("f(y = 1)") == "bit<16>"
    assert c.type_of("f(1, 2)") == "bit<32>"


def test_overloads_need_different_parameters(tmp_path):
    assert_rule(tmp_path, """
        extern void f(in bit<8> x);
        extern void f(in bit<8> x, in bit<8> y);
    """, """
        extern void f(in bit<8> x);
        extern void f(in bit<8> x);
    """, at="f(in", occurrence=2, message="f: duplicate declaration")


def test_functions_overload_on_arity(tmp_path):
    c = accept(tmp_path, """
        bit<8> f(in bit<8> x) { return x; }
        bit<16> f(in bit<8> x, in bit<8> y) { return x ++ y; }
        control C(inout bit<8> a, inout bit<16> b) { apply { a = f(a); b = f(a, a); } }
    """)
    assert c.type_of("f(a)") == "bit<8>"
    assert c.type_of("f(a, a)") == "bit<16>"


def test_call_with_no_fitting_overload(tmp_path):
    assert_rule(tmp_path, """
        extern void f(in bit<8> x);
        extern void f(in bit<8> x, in bit<8> y);
        control C() { apply { f(1, 2); } }
    """, """
        extern void f(in bit<8> x);
        extern void f(in bit<8> x, in bit<8> y);
        control C() { apply { f(1, 2, 3); } }
    """, at="f(1, 2, 3)", message="f: no overload takes 3 argument(s) (it takes 1, 2)")


def test_packages_overload_on_arity(tmp_path):
    assert_rule(tmp_path, """
        parser P();
        package Pk(P p);
        package Pk(P p, P q);
    """, """
        parser P();
        control Q();
        package Pk(P p);
        package Pk(Q q);
    """, at="Pk(Q", message="Pk: duplicate declaration")


@pytest.mark.parametrize("first, second", [("Top<H>(P1<H> p)", "Top<H, M>(P1<H> p, P1<M> q)"),
                                           ("Top<H, M>(P1<H> p, P1<M> q)", "Top<H>(P1<H> p)")])
def test_an_overloaded_package_instance_has_the_type_of_its_overload(tmp_path, first: str, second: str):
    # whichever is declared last: given type arguments or inferred from the arguments
    c = accept(tmp_path, f"""
        header h_t {{ bit<8> x; }}
        parser P1<H>(out H h);
        package {first};
        package {second};
        parser mp(out h_t h) {{ state start {{ transition accept; }} }}
        Top(mp()) one;
        Top<h_t>(mp()) given;
        Top(mp(), mp()) two;
    """)
    assert str(c.decl("one").type) == "package Top<header h_t>"
    assert str(c.decl("given").type) == "package Top<header h_t>"
    assert str(c.decl("two").type) == "package Top<header h_t, header h_t>"


# ----------------------------------------------------------------------------
# Control-plane names


def test_control_plane_names_of_tables_and_actions(tmp_path):
    c = accept(tmp_path, """
        action top() {}
        control C(inout bit<8> x) {
            action a() {}
            @name("renamed") action b() {}
            @name(".global_c") action c() {}
            table t { key = { x : exact; } actions = { a; b; c; top; } }
            @name("tt") table t2 { actions = { a; } }
            @name(".gt") table t3 { actions = { a; } }
            apply { t.apply(); t2.apply(); t3.apply(); }
        }
    """)
    actions = {d.name: d.control_name for d in nodes(c.program) if isinstance(d, ir.Action) and d.loc.file == c.path}
    assert actions == {"top": "top", "a": "C.a", "b": "C.renamed", "c": "global_c"}
    tables = {d.name: d.control_name for d in nodes(c.program) if isinstance(d, ir.Table)}
    assert tables == {"t": "C.t", "t2": "C.tt", "t3": "gt"}


def test_control_plane_prefix_is_the_controls_declared_name_not_its_at_name(tmp_path):
    # As p4c's HierarchicalNames: the prefix is the control's identifier, whatever its @name says.
    c = accept(tmp_path, """
        @name("ingress") control C(inout bit<8> x) {
            table t { actions = { NoAction; } }
            register<bit<8>>(4) r;
            apply { t.apply(); }
        }
        @name(".egress") control D(inout bit<8> x) {
            table t { actions = { NoAction; } }
            apply { t.apply(); }
        }
    """, arch="v1model")
    assert sorted(d.control_name for d in nodes(c.program) if isinstance(d, ir.Table)) == ["C.t", "D.t"]
    assert c.decl("r", ir.Instance).control_name == "C.r"


def test_control_plane_names_of_value_sets(tmp_path):
    c = accept(tmp_path, """
        parser P(packet_in p) {
            value_set<bit<8>>(4) vs;
            state start {
                transition select(p.lookahead<bit<8>>()) { vs: accept; default: reject; }
            }
        }
    """)
    assert c.decl("vs", ir.ValueSet).control_name == "P.vs"


def test_a_value_set_of_a_struct_of_one_field_matches_one_key(tmp_path):
    assert_rule(tmp_path, """
        struct one_t { bit<8> f; }
        parser P(packet_in p) {
            value_set<one_t>(4) vs;
            state start {
                transition select(p.lookahead<bit<8>>()) { vs: accept; default: reject; }
            }
        }
    """, """
        struct two_t { bit<8> f; bit<8> g; }
        parser P(packet_in p) {
            value_set<two_t>(4) vs;
            state start {
                transition select(p.lookahead<bit<8>>()) { vs: accept; default: reject; }
            }
        }
    """, "vs:", "value set of struct two_t cannot match a key of type bit<8>")


def test_tables_need_distinct_control_plane_names(tmp_path):
    assert_rule(tmp_path, """
        control C() {
            @name("one") table t1 { actions = { NoAction; } }
            table t { actions = { NoAction; } }
            apply { t1.apply(); t.apply(); }
        }
    """, """
        control C() {
            @name("t") table t1 { actions = { NoAction; } }
            table t { actions = { NoAction; } }
            apply { t1.apply(); t.apply(); }
        }
    """, at="t {", message="C.t: conflicting control-plane name")


def test_global_names_clash_across_controls(tmp_path):
    assert_rule(tmp_path, """
        control C() { @name(".t1") table t { actions = { NoAction; } } apply { t.apply(); } }
        control D() { @name(".t2") table t { actions = { NoAction; } } apply { t.apply(); } }
    """, """
        control C() { @name(".t") table t { actions = { NoAction; } } apply { t.apply(); } }
        control D() { @name(".t") table t { actions = { NoAction; } } apply { t.apply(); } }
    """, at="t {", occurrence=2, message="t: conflicting control-plane name")


def test_actions_need_distinct_control_plane_names(tmp_path):
    assert_rule(tmp_path, """
        control C() { @name(".a") action a() {} @name(".b") action b() {} apply { a(); b(); } }
    """, """
        control C() { @name(".same") action a() {} @name(".same") action b() {} apply { a(); b(); } }
    """, at="b()", message="same: conflicting control-plane name")


def test_an_unused_action_clashes_with_no_name(tmp_path):
    # As p4c's front end writes NoAction once localized: core.p4's NoAction is then unused.
    assert_rule(tmp_path, """
        control C() {
            @name(".NoAction") action NoAction_1() {}
            table t { actions = { NoAction_1; } default_action = NoAction_1(); }
            apply { t.apply(); }
        }
    """, """
        control C() {
            @name(".NoAction") action NoAction_1() {}
            table t { actions = { NoAction_1; NoAction; } default_action = NoAction_1(); }
            apply { t.apply(); }
        }
    """, at="NoAction_1()", message="NoAction: conflicting control-plane name")


def test_actions_of_two_controls_need_distinct_control_plane_names(tmp_path):
    # p4c's multicast-bmv2 error program; only a P4_14 program's conversion has copies of an action
    # share its name (tests/frontend/test_p4_14.py).
    assert_rule(tmp_path, """
        control C() { @name(".a") action a(bit<8> x) {} table t { actions = { a; } } apply { t.apply(); } }
        control D() { @name(".b") action a(bit<8> x) {} table t { actions = { a; } } apply { t.apply(); } }
    """, """
        control C() { @name(".a") action a(bit<8> x) {} table t { actions = { a; } } apply { t.apply(); } }
        control D() { @name(".a") action a(bit<8> x) {} table t { actions = { a; } } apply { t.apply(); } }
    """, at="a(bit<8> x)", occurrence=2, message="a: conflicting control-plane name")


def test_a_table_and_an_action_may_share_a_control_plane_name(tmp_path):
    accept(tmp_path, """
        control C() {
            @name("x") table t { actions = { NoAction; } }
            @name("x") action a() {}
            apply { t.apply(); a(); }
        }
    """)


# ----------------------------------------------------------------------------
# Parsers


def test_parser_needs_a_start_state(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { transition accept; } }
    """, """
        parser P(packet_in p) { state begin { transition accept; } }
    """, at="P(", message="P: parser has no 'start' state")


def test_accept_and_reject_are_built_in(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { transition reject; } }
    """, """
        parser P(packet_in p) { state start { transition accept; } state accept { transition reject; } }
    """, at="accept {", message="accept should not be implemented, it is built-in")


def test_states_may_be_used_before_they_are_declared(tmp_path):
    c = accept(tmp_path, """
        parser P(packet_in p) { state start { transition next; } state next { transition accept; } }
    """)
    assert c.type_of("next;") == "state"


def test_transition_to_an_unknown_state(tmp_path):
    accept(tmp_path, """
        parser P(packet_in p) { state start { transition s; } state s { transition accept; } }
    """)
    bad = reject(tmp_path, """
        parser P(packet_in p) { state start { transition s; } state t { transition accept; } }
    """)
    assert has_error(bad, "s;", "s: no such parser state")


def test_parser_must_reach_accept_or_reject(tmp_path):
    assert_rule(tmp_path, """
        parser P(packet_in p) { state start { transition s1; } state s1 { transition accept; } }
    """, """
        parser P(packet_in p) { state start { transition s1; } state s1 { transition start; } }
    """, at="P(", message="parser P: the parser never reaches the accept or reject state")


def test_a_state_without_transition_goes_to_reject(tmp_path):
    c = accept(tmp_path, """
        parser P(packet_in p) { state start { } }
    """)
    state = c.decl("start", ir.ParserState)
    assert isinstance(state.transition, ir.PathExpression) and state.transition.name == "reject"


def test_select_keysets_match_the_keys(tmp_path):
    c = accept(tmp_path, """
        header h_t { bit<8> a; bit<16> b; }
        parser P(packet_in p, out h_t h) {
            state start {
                p.extract(h);
                transition select(h.a, h.b) { (1, 0x800): accept; (2, _): reject; default: accept; }
            }
        }
    """)
    assert c.type_of("(1, 0x800)") == "set<tuple<bit<8>, bit<16>>>"
    assert c.type_of("0x800") == "bit<16>"
    bad = reject(tmp_path, """
        header h_t { bit<8> a; bit<16> b; }
        parser P(packet_in p, out h_t h) {
            state start {
                p.extract(h);
                transition select(h.a, h.b) { (1, 0x800, 3): accept; default: accept; }
            }
        }
    """)
    assert bad.errors() == [(bad.at("(1, 0x800, 3)"), "the keyset has 3 elements but there are 2 keys")]


def test_select_keysets_are_constants(tmp_path):
    assert_rule(tmp_path, """
        header h_t { bit<8> a; bit<8> b; }
        const bit<8> K = 6;
        parser P(packet_in p, out h_t h) {
            state start { p.extract(h); transition select(h.a) { K: accept; 7 &&& 0xf: accept; default: reject; } }
        }
    """, """
        header h_t { bit<8> a; bit<8> b; }
        parser P(packet_in p, out h_t h) {
            state start { p.extract(h); transition select(h.a) { h.b: accept; default: reject; } }
        }
    """, at="b: accept", message="keyset expressions must be compile-time constants")


# ----------------------------------------------------------------------------
# Instantiation


def test_parsers_are_instantiated_in_parsers(tmp_path):
    assert_rule(tmp_path, """
        parser Q(packet_in p) { state start { transition accept; } }
        parser P(packet_in p) { Q() q; state start { q.apply(p); transition accept; } }
    """, """
        parser Q(packet_in p) { state start { transition accept; } }
        control C() { Q() q; apply { } }
    """, at="q;", message="q: a parser cannot be instantiated in a control")


def test_controls_are_instantiated_in_controls(tmp_path):
    assert_rule(tmp_path, """
        control D(inout bit<8> x) { apply { x = 1; } }
        control C(inout bit<8> x) { D() d; apply { d.apply(x); } }
    """, """
        control D(inout bit<8> x) { apply { x = 1; } }
        parser P(packet_in p) { D() d; state start { transition accept; } }
    """, at="d;", message="d: a control cannot be instantiated in a parser")


def test_controls_are_not_instantiated_at_the_top_level(tmp_path):
    assert_rule(tmp_path, """
        extern E { E(); void f(); }
        E() e;
        control C() { apply { e.f(); } }
    """, """
        control C() { apply { } }
        C() c;
    """, at="c;", message="c: a control cannot be instantiated at the top level")


def test_packages_are_instantiated_at_the_top_level(tmp_path):
    assert_rule(tmp_path, """
        control CT();
        package Pk(CT c);
        control C() { apply { } }
        Pk(C()) main;
    """, """
        control CT();
        package Pk(CT c);
        control C() { apply { } }
        control D() { Pk(C()) p; apply { } }
    """, at="p;", message="p: packages can only be instantiated at the top level")


def test_no_instances_in_apply_blocks(tmp_path):
    assert_rule(tmp_path, """
        extern E { E(); void f(); }
        control C() { E() e; apply { e.f(); } }
    """, """
        extern E { E(); void f(); }
        control C() { apply { E() e; e.f(); } }
    """, at="e;", message="e: instances cannot be declared inside a block")


def test_types_without_a_body_cannot_be_instantiated(tmp_path):
    assert_rule(tmp_path, """
        control CT();
        control C() { apply { } }
        control D() { C() c; apply { } }
    """, """
        control CT();
        control D() { CT() c; apply { } }
    """, at="c;", message="CT: a control type without a body cannot be instantiated")


def test_externs_need_a_constructor(tmp_path):
    assert_rule(tmp_path, """
        extern E { E(); void g(); }
        control C() { E() e; apply { e.g(); } }
    """, """
        extern E { void g(); }
        control C() { E() e; apply { } }
    """, at="e;", message="E: this extern has no constructor")


def test_constructor_arguments_are_constants(tmp_path):
    assert_rule(tmp_path, """
        extern E { E(bit<8> a); }
        const bit<8> K = 3;
        control C(in bit<8> x) { E(K + 1) e; apply { } }
    """, """
        extern E { E(bit<8> a); }
        control C(in bit<8> x) { E(x) e; apply { } }
    """, at="x) e", message="constructor arguments must be compile-time constants")


def test_abstract_methods_need_an_implementation(tmp_path):
    assert_rule(tmp_path, """
        extern E { E(); abstract bit<8> f(in bit<8> x); void g(); }
        control C() { E() e = { bit<8> f(in bit<8> x) { return x + 1; } }; apply { e.g(); } }
    """, """
        extern E { E(); abstract bit<8> f(in bit<8> x); void g(); }
        control C() { E() e; apply { e.g(); } }
    """, at="e;", message="e: the abstract methods of E need an implementation")


def test_abstract_method_implementations_match_the_declaration(tmp_path):
    assert_rule(tmp_path, """
        extern E { E(); abstract bit<8> f(in bit<8> x); }
        control C() { E() e = { bit<8> f(in bit<8> x) { return 1; } }; apply { } }
    """, """
        extern E { E(); abstract bit<8> f(in bit<8> x); }
        control C() { E() e = { bit<16> f(in bit<8> x) { return 1; } }; apply { } }
    """, at="f(in bit<8> x) { return", message="f: the implementation does not match")


# ----------------------------------------------------------------------------
# Packages and main


def test_v1switch_main(tmp_path):
    c = accept(tmp_path, V1_PROGRAM + """
        V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
    """, arch="v1model")
    main = c.decl("main", ir.Instance)
    assert isinstance(main.args[0].value, ir.ConstructorCall)
    assert main.args[0].value.type == t.ObjectT("parser", "MyParser")


def test_v1switch_main_with_explicit_type_arguments_and_named_arguments(tmp_path):
    accept(tmp_path, V1_PROGRAM + """
        V1Switch<headers_t, meta_t>(p = MyParser(), vr = MyVerify(), ig = MyIngress(), eg = MyEgress(),
                                    ck = MyCompute(), dep = MyDeparser()) main;
    """, arch="v1model")


def test_package_arguments_must_fit_the_parameter_types(tmp_path):
    accept(tmp_path, V1_PROGRAM + """
        V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
    """, arch="v1model")
    bad = reject(tmp_path, V1_PROGRAM + """
        V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyDeparser(), MyCompute()) main;
    """, arch="v1model")
    assert bad.errors() == [
        (bad.at("MyDeparser()"), "package V1Switch: argument ck of type control MyDeparser does not match "
                                    "the parameter type control ComputeChecksum<struct headers_t, struct meta_t>"),
        (bad.at("MyCompute()"), "package V1Switch: argument dep of type control MyCompute does not match "
                                   "the parameter type control Deparser<struct headers_t>"),
    ]


def test_a_package_instance_has_the_type_arguments_its_arguments_give(tmp_path):
    nested = """
        parser Parser<IH>(out IH parsed);
        package Ingress<IH>(Parser<IH> p);
        package Switch<IH>(Ingress<IH> ingress);
        struct H { }
        parser ing_parse(out H hdr) { state start { transition accept; } }
        Ingress(ing_parse()) ig1;
    """
    for main in ("Switch(ig1) main;", "Switch<H>(ig1) main;"):
        c = accept(tmp_path, nested + main)
        assert str(c.decl("ig1", ir.Instance).type) == "package Ingress<struct H>"
    bad = reject(tmp_path, nested + "Switch<tuple<>>(ig1) main;")
    assert bad.errors() == [(bad.at("ig1)"), "package Switch: argument ingress of type package Ingress<struct H> "
                                             "does not match the parameter type package Ingress<tuple<>>")]
    # Packages are nominal: another package of the same shape is not an Ingress.
    bad = reject(tmp_path, nested + "package Other<IH>(Parser<IH> p);\nSwitch(Other(ing_parse())) main;")
    assert [message for _, message in bad.errors()] == [
        "package Switch: argument ingress of type package Other<struct H> does not match the parameter type "
        "package Ingress<IH>"]


def test_package_arguments_unify_the_type_parameters(tmp_path):
    accept(tmp_path, V1_PROGRAM + """
        V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
    """, arch="v1model")
    bad = reject(tmp_path, V1_PROGRAM.replace(
        "control MyEgress(inout headers_t hdr, inout meta_t meta",
        "control MyEgress(inout headers_t hdr, inout headers_t meta") + """
        V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
    """, arch="v1model")
    assert bad.errors() == [(bad.at("MyEgress()"), "package V1Switch: argument eg of type control MyEgress "
                                                      "does not match the parameter type control Egress<struct headers_t, struct meta_t>")]


def test_package_arguments_are_parsers_and_controls(tmp_path):
    assert_rule(tmp_path, V1_PROGRAM + """
        V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
    """, V1_PROGRAM + """
        V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), 5) main;
    """, at="5)", message="package V1Switch: argument dep must be a control, not int", arch="v1model")


def test_main_is_a_package(tmp_path):
    assert_rule(tmp_path, """
        control CT();
        package Pk(CT c);
        control C() { apply { } }
        Pk(C()) main;
    """, """
        extern E { E(); }
        E() main;
    """, at="main", message="main: must be an instance of a package")


def test_a_program_without_main_is_accepted(tmp_path):
    accept(tmp_path, V1_PROGRAM, arch="v1model")


# ----------------------------------------------------------------------------
# Generic externs


def test_register_of_the_default_v1model_version(tmp_path):
    c = accept(tmp_path, """
        control C(inout bit<32> v) {
            register<bit<32>>(16) r;
            apply { r.read(v, 3); r.write(0, v + 1); }
        }
    """, arch="v1model")
    assert c.find("r.read", ir.PathExpression).type == t.ExternT("register", (t.Bits(32),))
    assert c.decl("r", ir.Instance).control_name == "C.r"
    assert c.type_of("3);") == "bit<32>"


def test_register_with_an_index_type(tmp_path):
    c = accept(tmp_path, """
        #define V1MODEL_VERSION 20200408
        #include <v1model.p4>
        control C(inout bit<32> v, in bit<8> i) {
            register<bit<32>, bit<8>>(16) r;
            apply { r.read(v, i); r.write(i, v); }
        }
    """, arch=None)
    assert c.find("r.read", ir.PathExpression).type == t.ExternT("register", (t.Bits(32), t.Bits(8)))
    bad = reject(tmp_path, """
        #define V1MODEL_VERSION 20200408
        #include <v1model.p4>
        control C(inout bit<32> v, in bit<16> i) {
            register<bit<32>, bit<8>>(16) r;
            apply { r.read(v, i); }
        }
    """, arch=None)
    assert bad.errors() == [(bad.at("i);"), "read: argument index: cannot convert bit<16> to bit<8>")]


def test_register_element_type_binds_out_arguments(tmp_path):
    assert_rule(tmp_path, """
        control C(inout bit<32> v) { register<bit<32>>(16) r; apply { r.read(v, 3); } }
    """, """
        control C(inout bit<16> v) { register<bit<32>>(16) r; apply { r.read(v, 3); } }
    """, at="v, 3", message="read: argument result has type bit<16>, expected bit<32>", arch="v1model")


def test_number_of_type_arguments(tmp_path):
    assert_rule(tmp_path, """
        control C() { register<bit<32>>(16) r; apply { } }
    """, """
        control C() { register<bit<32>, bit<32>>(16) r; apply { } }
    """, at="register<", message="extern register: expected 1 type arguments, got 2", arch="v1model")


def test_extern_type_arguments_inferred_from_the_constructor(tmp_path):
    c = accept(tmp_path, """
        extern Box<T> { Box(T init); T get(); void set(in T v); }
        control C(inout bit<8> v, inout bit<16> w) {
            Box(8w5) b;
            Box<bit<16>>(7) b2;
            Box<_>(16w7) b3;
            apply { v = b.get(); b.set(v); w = b2.get(); w = b3.get(); }
        }
    """)
    assert c.expr("b.get()").method.expr.type == t.ExternT("Box", (t.Bits(8),))
    assert c.type_of("b.get()") == "bit<8>"
    assert c.type_of("b2.get()") == "bit<16>"
    assert c.type_of("b3.get()") == "bit<16>"
    assert c.type_of("7) b2") == "bit<16>"


def test_explicit_extern_type_arguments_check_the_constructor(tmp_path):
    assert_rule(tmp_path, """
        extern Box<T> { Box(T init); }
        control C() { Box<bit<16>>(16w7) b; apply { } }
    """, """
        extern Box<T> { Box(T init); }
        control C() { Box<bit<16>>(8w7) b; apply { } }
    """, at="8w7", message="Box: argument init: cannot convert bit<8> to bit<16>")


def test_extern_type_argument_cannot_be_inferred_from_an_untyped_integer(tmp_path):
    assert_rule(tmp_path, """
        extern Box<T> { Box(T init); }
        control C() { Box(8w7) b; apply { } }
    """, """
        extern Box<T> { Box(T init); }
        control C() { Box(7) b; apply { } }
    """, at="7)", message="could not infer a width; cast the value")


def test_extern_type_arguments_that_cannot_be_inferred(tmp_path):
    accept(tmp_path, """
        control C(inout bit<32> v) { register<bit<32>>(16) r; apply { r.read(v, 0); } }
    """, arch="v1model")
    reject(tmp_path, """
        control C(inout bit<32> v) { register<_>(16) r; apply { r.read(v, 0); } }
    """, arch="v1model")
    reject(tmp_path, """
        extern Box<T> { Box(); T get(); }
        control C(inout bit<16> v) { Box() b; apply { v = b.get(); } }
    """)
