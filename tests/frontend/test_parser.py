"""Unit tests of `p4odp.frontend.parser`: P4_16 snippets in, IR shapes out.

Snippets are tokenized and parsed directly (no preprocessor), so each one
declares what it uses.  Expression trees are compared through `sx`, a
compact prefix rendering: `a + b * c` is `(+ a (* b c))`.
"""

from __future__ import annotations

import textwrap

import pytest

from p4odp import ir
from p4odp.diagnostics import Diagnostics, Loc
from p4odp.frontend import parser as parser_module
from p4odp.frontend.lexer import tokenize
from p4odp.frontend.parser import parse_program

# ----------------------------------------------------------------------------
# Helpers


def parse(src: str) -> tuple[ir.Program, Diagnostics]:
    diags = Diagnostics(max_errors=10_000)
    text = textwrap.dedent(src)
    program = parse_program(tokenize(text, "t.p4", diags), diags, text)
    return program, diags


def messages(diags: Diagnostics) -> list[tuple[str, str]]:
    return [(str(d.loc), d.message) for d in diags.items]


def decls(src: str) -> tuple:
    """The declarations of a snippet that must parse without diagnostics."""
    program, diags = parse(src)
    assert messages(diags) == []
    return program.declarations


def decl(src: str):
    """The last declaration of a snippet."""
    return decls(src)[-1]


def expr(text: str, prelude: str = "") -> ir.Expression:
    """`text` parsed as the initializer of a constant."""
    return decl(textwrap.dedent(prelude) + f"\nconst bit<8> c__ = {text};\n").value


def stmts(body: str, prelude: str = "", params: str = "inout bit<8> x, inout bit<8> y") -> tuple:
    """The statements of a function whose body is `body`."""
    src = textwrap.dedent(prelude) + f"\nvoid f__({params}) {{\n" + textwrap.dedent(body) + "\n}\n"
    return decl(src).body.statements


def ty(t: ir.TypeRef) -> str:
    match t:
        case ir.BitsType():
            return f"{'int' if t.signed else 'bit'}<{sx(t.width)}>"
        case ir.VarbitType():
            return f"varbit<{sx(t.width)}>"
        case ir.TypeName():
            return ("." if t.is_global else "") + t.name
        case ir.SpecializedType():
            return f"{ty(t.base)}<{', '.join(ty(a) for a in t.args)}>"
        case ir.StackType():
            return f"{ty(t.element)}[{sx(t.size)}]"
        case ir.TupleType():
            return f"tuple<{', '.join(ty(a) for a in t.elements)}>"
        case ir.ListType():
            return f"list<{ty(t.element)}>"
    return {ir.BoolType: "bool", ir.StringType: "string", ir.IntType: "int", ir.VoidType: "void",
            ir.ErrorType: "error", ir.MatchKindType: "match_kind", ir.DontCareType: "_"}[type(t)]


def sx(e) -> str:
    """A compact prefix rendering of an expression tree."""
    match e:
        case ir.PathExpression():
            return ("." if e.is_global else "") + e.name
        case ir.IntLiteral():
            return str(e.value) if e.width is None else f"{e.width}{'s' if e.signed else 'w'}{e.value}"
        case ir.BoolLiteral():
            return "true" if e.value else "false"
        case ir.StringLiteral():
            return f'"{e.value}"'
        case ir.Binary():
            return f"({e.op.value} {sx(e.left)} {sx(e.right)})"
        case ir.Unary():
            return f"({e.op.value} {sx(e.expr)})"
        case ir.Mux():
            return f"(? {sx(e.cond)} {sx(e.then)} {sx(e.otherwise)})"
        case ir.Member():
            return f"{sx(e.expr)}.{e.member}"
        case ir.ArrayIndex():
            return f"{sx(e.expr)}[{sx(e.index)}]"
        case ir.Slice():
            return f"{sx(e.expr)}[{sx(e.high)}:{sx(e.low)}]"
        case ir.IndexedSlice():
            return f"{sx(e.expr)}[{sx(e.low)} +: {sx(e.width)}]"
        case ir.Cast():
            return f"(cast {ty(e.to)} {sx(e.expr)})"
        case ir.MethodCall():
            targs = f"<{', '.join(ty(t) for t in e.type_args)}>" if e.type_args else ""
            return f"{sx(e.method)}{targs}({', '.join(sx(a) for a in e.args)})"
        case ir.Argument():
            value = "_" if e.value is None else sx(e.value)
            return f"{e.name}={value}" if e.name else value
        case ir.TypeNameExpression():
            return ty(e.type_ref)
        case ir.ListExpression():
            return "{" + ", ".join([sx(x) for x in e.elements] + (["..."] if e.dots else [])) + "}"
        case ir.StructExpression():
            fields = [f"{f.name}={sx(f.value)}" for f in e.fields] + (["..."] if e.dots else [])
            prefix = ty(e.type_ref) + " " if e.type_ref else ""
            return prefix + "{" + ", ".join(fields) + "}"
        case ir.InvalidExpression():
            return "{#}"
        case ir.DefaultExpression():
            return "default"
        case ir.DontCare():
            return "_"
        case ir.DefaultInitializer():
            return "..."
        case ir.ThisExpression():
            return "this"
    raise AssertionError(f"sx: unexpected {e!r}")


def loc_of(src: str, needle: str, occurrence: int = 1) -> Loc:
    """Where the `occurrence`-th `needle` stands in `src` as `parse` sees it."""
    text = textwrap.dedent(src)
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return Loc("t.p4", text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index))


def names(items) -> list[str]:
    return [item.name for item in items]


# ----------------------------------------------------------------------------
# Type declarations


def test_header_fields_and_their_types():
    h = decl("""
        header h_t {
            bit<8> a;
            @name("bee") int<16> b;
            varbit<320> opts;
            bit flag;
        }
    """)
    assert isinstance(h, ir.Header)
    assert h.name == "h_t"
    assert h.loc == Loc("t.p4", 2, 8)
    assert [(f.name, ty(f.type_ref)) for f in h.fields] == [
        ("a", "bit<8>"), ("b", "int<16>"), ("opts", "varbit<320>"), ("flag", "bit<1>"),
    ]
    assert [a.name for a in h.fields[1].annotations] == ["name"]
    assert h.type_params == ()


def test_header_union():
    u = decl("""
        header a_t { bit<8> x; }
        header b_t { bit<16> y; }
        header_union u_t { a_t a; b_t b; }
    """)
    assert isinstance(u, ir.HeaderUnion)
    assert [(f.name, ty(f.type_ref)) for f in u.fields] == [("a", "a_t"), ("b", "b_t")]


def test_struct_with_type_params_and_stack_fields():
    s = decl("""
        header h_t { bit<8> x; }
        struct Pair<T, U> { T first; U second; h_t[4] stack; bit<8>[2] bytes; }
    """)
    assert isinstance(s, ir.Struct)
    assert names(s.type_params) == ["T", "U"]
    assert [(f.name, ty(f.type_ref)) for f in s.fields] == [
        ("first", "T"), ("second", "U"), ("stack", "h_t[4]"), ("bytes", "bit<8>[2]"),
    ]


def test_type_params_are_scoped_to_their_declaration():
    # Inside `Pair`, T names a type; afterwards `(T) - 1` is a subtraction.
    f = decl("""
        struct Pair<T> { T first; }
        bit<8> g(in bit<8> T) { return (T) - 1; }
    """)
    assert sx(f.body.statements[0].value) == "(- T 1)"


def test_enum():
    e = decl("enum Color { Red, Green, Blue, }")
    assert isinstance(e, ir.Enum)
    assert e.underlying is None
    assert names(e.members) == ["Red", "Green", "Blue"]
    assert all(m.value is None for m in e.members)


def test_serializable_enum_with_values():
    e = decl("enum bit<8> Kind { A = 1, B = 8w2, C = 0x10 }")
    assert ty(e.underlying) == "bit<8>"
    assert [(m.name, sx(m.value)) for m in e.members] == [("A", "1"), ("B", "8w2"), ("C", "16")]


def test_typedef_and_new_type():
    t, n = decls("typedef bit<32> ip_t;\ntype bit<9> port_t;")
    assert isinstance(t, ir.Typedef) and (t.name, ty(t.type_ref)) == ("ip_t", "bit<32>")
    assert isinstance(n, ir.NewType) and (n.name, ty(n.type_ref)) == ("port_t", "bit<9>")


def test_typedef_of_a_derived_type_declares_both():
    s, t = decls("typedef struct S { bit<1> q; } S_t;")
    assert isinstance(s, ir.Struct) and s.name == "S"
    assert isinstance(t, ir.Typedef) and (t.name, ty(t.type_ref)) == ("S_t", "S")


def test_typedef_names_become_types_for_casts():
    f = decl("""
        typedef bit<8> B;
        type bit<8> N;
        bit<8> g(in bit<8> v) { return (B) v + (N) - 1; }
    """)
    assert sx(f.body.statements[0].value) == "(+ (cast B v) (cast N (- 1)))"


def test_error_and_match_kind_declarations():
    e, m = decls("error { NoError, PacketTooShort }\nmatch_kind { exact, ternary, lpm }")
    assert isinstance(e, ir.ErrorDeclaration)
    assert names(e.members) == ["NoError", "PacketTooShort"]
    assert isinstance(m, ir.MatchKindDeclaration)
    assert names(m.members) == ["exact", "ternary", "lpm"]
    assert m.members[2].loc == Loc("t.p4", 2, 30)


def test_constants():
    a, b, c = decls("""
        const bit<16> ETH_IP = 0x0800;
        const int N = 4;
        @hidden const bool ON = true;
    """)
    assert (a.name, ty(a.type_ref), sx(a.value)) == ("ETH_IP", "bit<16>", "2048")
    assert a.value.base == 16
    assert (b.name, ty(b.type_ref), sx(b.value)) == ("N", "int", "4")
    assert [x.name for x in c.annotations] == ["hidden"]
    assert sx(c.value) == "true"


def test_other_types():
    ts = decls("""
        struct G<T> { T f; }
        typedef tuple<bit<8>, bool> tp_t;
        typedef G<bit<8>> gb_t;
        typedef .G<G<int<4>>> ggi_t;
        typedef int i_t;
        typedef error e_t;
        typedef string s_t;
        typedef list<bit<8>> l_t;
    """)[1:]
    assert [ty(t.type_ref) for t in ts] == [
        "tuple<bit<8>, bool>", "G<bit<8>>", ".G<G<int<4>>>", "int", "error", "string", "list<bit<8>>",
    ]


# ----------------------------------------------------------------------------
# Externs, parser/control types, packages


def test_extern_function():
    f = decl("extern T hash<T, D>(in D data, out bit<8> sum, inout bit<8> acc, bit<8> plain);")
    assert isinstance(f, ir.ExternFunction)
    proto = f.prototype
    assert (f.name, proto.name) == ("hash", "hash")
    assert ty(proto.return_type) == "T"
    assert names(proto.type_params) == ["T", "D"]
    assert [(p.direction, ty(p.type_ref), p.name) for p in proto.params] == [
        ("in", "D", "data"), ("out", "bit<8>", "sum"), ("inout", "bit<8>", "acc"), ("", "bit<8>", "plain"),
    ]


def test_extern_object_with_constructors_generic_and_abstract_methods():
    e = decl("""
        extern Checksum<W> {
            Checksum(bit<8> kind);
            Checksum<U>(U seed);
            W get<D>(in D data);
            abstract bit<16> hash(in bit<8> x);
            @pure void clear();
            void set(in bit<8> v = 0);
        }
    """)
    assert isinstance(e, ir.Extern)
    assert names(e.type_params) == ["W"]
    ctor, gctor, get, hsh, clear, set_ = e.methods
    assert (ctor.name, ctor.return_type, names(ctor.params)) == ("Checksum", None, ["kind"])
    assert (gctor.return_type, names(gctor.type_params), ty(gctor.params[0].type_ref)) == (None, ["U"], "U")
    assert (ty(get.return_type), names(get.type_params), ty(get.params[0].type_ref)) == ("W", ["D"], "D")
    assert hsh.abstract and not get.abstract
    assert ty(hsh.return_type) == "bit<16>"
    assert ty(clear.return_type) == "void" and [a.name for a in clear.annotations] == ["pure"]
    assert sx(set_.params[0].default) == "0"


def test_extern_function_returning_a_specialized_type_is_not_an_object():
    f = decl("struct G<T> { T f; }\nextern G<bit<8>> make();")
    assert isinstance(f, ir.ExternFunction)
    assert ty(f.prototype.return_type) == "G<bit<8>>"


def test_parser_type_control_type_and_package():
    p, c, pkg = decls("""
        parser Prs<H>(packet_in b, out H hdr);
        control Ctl<H>(inout H hdr, inout bit<9> port);
        package Pipe<H>(Prs<H> p, Ctl<H> c);
    """)
    assert isinstance(p, ir.ParserType) and names(p.type_params) == ["H"]
    assert [(x.direction, ty(x.type_ref)) for x in p.params] == [("", "packet_in"), ("out", "H")]
    assert isinstance(c, ir.ControlType) and names(c.params) == ["hdr", "port"]
    assert isinstance(pkg, ir.Package)
    assert [ty(x.type_ref) for x in pkg.params] == ["Prs<H>", "Ctl<H>"]


# ----------------------------------------------------------------------------
# Parsers

PARSER_PRELUDE = """
    error { NoError }
    extern packet_in { void extract<T>(out T hdr); T lookahead<T>(); }
    header h_t { bit<8> a; bit<16> t; }
    struct hdrs_t { h_t h; h_t[2] st; }
    extern Checksum { Checksum(); }
"""


def test_parser_locals_and_states():
    p = decl(PARSER_PRELUDE + """
        parser MyP(packet_in pkt, out hdrs_t hdr)(bit<8> ctor_arg) {
            value_set<bit<16>>(4) pvs;
            bit<8> tmp = 1;
            const bit<8> K = 2;
            Checksum() ck;
            state start {
                pkt.extract<h_t>(hdr.h);
                pkt.extract(hdr.st.next);
                tmp = pkt.lookahead<bit<8>>();
                transition parse_next;
            }
            @name("nxt") state parse_next { transition accept; }
            state empty { }
        }
    """)
    assert isinstance(p, ir.Parser)
    assert names(p.params) == ["pkt", "hdr"]
    assert names(p.ctor_params) == ["ctor_arg"]
    vs, var, const, inst = p.locals
    assert isinstance(vs, ir.ValueSet) and (vs.name, ty(vs.element_type), sx(vs.size)) == ("pvs", "bit<16>", "4")
    assert isinstance(var, ir.Variable) and sx(var.init) == "1"
    assert isinstance(const, ir.Constant) and const.name == "K"
    assert isinstance(inst, ir.Instance) and (inst.name, ty(inst.type_ref), inst.args) == ("ck", "Checksum", ())
    start, nxt, empty = p.states
    assert names(p.states) == ["start", "parse_next", "empty"]
    assert [sx(s.call) for s in start.components[:2]] == ["pkt.extract<h_t>(hdr.h)", "pkt.extract(hdr.st.next)"]
    assign = start.components[2]
    assert isinstance(assign, ir.Assignment)
    assert sx(assign.value) == "pkt.lookahead<bit<8>>()"
    assert sx(start.transition) == "parse_next"
    assert [a.name for a in nxt.annotations] == ["name"] and sx(nxt.transition) == "accept"
    assert empty.components == () and empty.transition is None


def test_select_with_tuple_keysets_masks_ranges_and_defaults():
    src = PARSER_PRELUDE + """
        parser MyP(packet_in pkt, out hdrs_t hdr) {
            value_set<bit<8>>(4) pvs;
            state start {
                transition select(hdr.h.a, hdr.h.t) {
                    (1, 0x800): s1;
                    (2 &&& 3, 5 .. 10): s1;
                    (_, pvs): accept;
                    (default, _): reject;
                    default: accept;
                }
            }
            state s1 {
                transition select(hdr.h.a) {
                    8w1 &&& 8w0xF0: accept;
                    1 .. 7: accept;
                    pvs: accept;
                    _: reject;
                }
            }
        }
    """
    p = decl(src)
    sel = p.states[0].transition
    assert isinstance(sel, ir.SelectExpression)
    assert [sx(k) for k in sel.keys] == ["hdr.h.a", "hdr.h.t"]
    assert [(sx(c.keyset), c.state.name) for c in sel.cases] == [
        ("{1, 2048}", "s1"),
        ("{(&&& 2 3), (.. 5 10)}", "s1"),
        ("{default, pvs}", "accept"),
        ("{default, default}", "reject"),
        ("default", "accept"),
    ]
    sel1 = p.states[1].transition
    assert [(sx(c.keyset), c.state.name) for c in sel1.cases] == [
        ("(&&& 8w1 8w240)", "accept"),
        ("(.. 1 7)", "accept"),
        ("pvs", "accept"),
        ("default", "reject"),
    ]
    assert sel1.cases[3].keyset.loc == loc_of(src, "_: reject")


def test_local_after_a_state_is_an_error():
    src = PARSER_PRELUDE + """
        parser MyP(packet_in pkt) {
            state start { transition accept; }
            bit<8> late;
        }
    """
    _, diags = parse(src)
    assert messages(diags)[0] == (str(loc_of(src, "bit<8> late")), "syntax error, unexpected 'bit', expecting 'state'")


# ----------------------------------------------------------------------------
# Controls and tables

CONTROL_PRELUDE = """
    match_kind { exact, ternary, lpm }
    extern counter { counter(bit<32> n); void count(in bit<32> i); }
    extern action_profile { action_profile(bit<32> size); }
    action NoAction() { }
"""


def test_control_locals_and_apply():
    c = decl(CONTROL_PRELUDE + """
        control C(inout bit<8> x)(bit<8> arg) {
            counter(32w1024) cnt;
            counter(16) many[4];
            bit<8> tmp;
            const bit<8> K = 1;
            action drop() { exit; }
            action set(bit<8> v, @optional bit<8> w) { x = v; }
            apply { cnt.count(0); }
        }
    """)
    assert isinstance(c, ir.Control)
    assert names(c.params) == ["x"] and names(c.ctor_params) == ["arg"]
    cnt, many, tmp, k, drop, set_ = c.locals
    assert isinstance(cnt, ir.Instance) and [sx(a) for a in cnt.args] == ["32w1024"]
    assert isinstance(many, ir.Instance) and ty(many.type_ref) == "counter[4]"
    assert isinstance(tmp, ir.Variable) and tmp.init is None
    assert isinstance(k, ir.Constant)
    assert isinstance(drop, ir.Action) and isinstance(drop.body.statements[0], ir.ExitStatement)
    assert names(set_.params) == ["v", "w"]
    assert [a.name for a in set_.params[1].annotations] == ["optional"]
    assert [sx(s.call) for s in c.body.statements] == ["cnt.count(0)"]


def test_control_without_apply_is_an_error():
    _, diags = parse("control C() { bit<8> x; }")
    assert messages(diags) == [("t.p4:1:25", "syntax error, unexpected '}', expecting 'apply'")]


def test_table_properties():
    src = CONTROL_PRELUDE + """
        control C(inout bit<8> x, inout bit<16> y) {
            action drop() { }
            action set(bit<8> v, bit<8> w) { x = v; }
            @name("tbl") table t {
                key = {
                    x : exact @name("kx");
                    y[7:0] : ternary;
                }
                actions = { set; @defaultonly drop; .NoAction }
                const default_action = set(1, 2);
                size = 1024;
                implementation = action_profile(128);
                @hidden largest_priority_wins = false;
            }
            apply { }
        }
    """
    c = decl(src)
    table = c.locals[2]
    assert isinstance(table, ir.Table) and table.name == "t"
    assert [a.name for a in table.annotations] == ["name"]
    key, actions, default, size, impl, lpw = table.properties
    assert names(table.properties) == ["key", "actions", "default_action", "size", "implementation",
                                       "largest_priority_wins"]
    assert [(sx(k.expr), k.match_kind) for k in key.value] == [("x", "exact"), ("y[7:0]", "ternary")]
    assert [a.name for a in key.value[0].annotations] == ["name"]
    assert key.value[1].match_kind_loc == loc_of(src, "ternary", 2)
    assert [(a.name, a.is_global, [x.name for x in a.annotations]) for a in actions.value] == [
        ("set", False, []), ("drop", False, ["defaultonly"]), ("NoAction", True, []),
    ]
    assert default.is_const and isinstance(default.value, ir.ActionRef)
    ref = default.value
    assert (ref.name, ref.has_call, [sx(a) for a in ref.args]) == ("set", True, ["1", "2"])
    assert sx(size.value) == "1024" and not size.is_const
    assert sx(impl.value) == "action_profile(128)"
    assert sx(lpw.value) == "false" and [a.name for a in lpw.annotations] == ["hidden"]


def test_default_action_without_call():
    c = decl(CONTROL_PRELUDE + """
        control C() {
            table t { actions = { NoAction; } default_action = NoAction; }
            apply { }
        }
    """)
    default = c.locals[0].properties[1].value
    assert (default.name, default.has_call, default.args) == ("NoAction", False, ())


def test_const_entries_with_priorities():
    c = decl(CONTROL_PRELUDE + """
        control C(inout bit<8> x, inout bit<8> y) {
            action a(bit<8> v) { }
            action b() { }
            table t {
                key = { x : ternary; y : exact; }
                actions = { a; b; }
                const entries = {
                    priority = 10 : (1, 2 &&& 3) : a(4);
                    (2, _) : b() @note("n");
                    priority = (1 + 2) : (default, 1 .. 3) : b;
                    0x0a &&& 0xff : b;
                }
            }
            apply { }
        }
    """)
    entries = c.locals[2].properties[2]
    assert entries.name == "entries" and entries.is_const
    rows = [(sx(e.keyset), e.action.name, [sx(a) for a in e.action.args],
             None if e.priority is None else sx(e.priority), e.is_const) for e in entries.value]
    assert rows == [
        ("{1, (&&& 2 3)}", "a", ["4"], "10", True),
        ("{2, default}", "b", [], None, True),
        ("{default, (.. 1 3)}", "b", [], "(+ 1 2)", True),
        ("(&&& 10 255)", "b", [], None, True),
    ]
    assert [a.name for a in entries.value[1].annotations] == ["note"]
    assert entries.value[1].action.has_call and not entries.value[2].action.has_call


def test_non_const_entries_with_const_rows():
    c = decl(CONTROL_PRELUDE + """
        control C(inout bit<8> x) {
            action b() { }
            table t {
                key = { x : exact; }
                actions = { b; }
                entries = { const 1 : b; 2 : b; }
            }
            apply { }
        }
    """)
    entries = c.locals[1].properties[2]
    assert not entries.is_const
    assert [(sx(e.keyset), e.is_const) for e in entries.value] == [("1", True), ("2", False)]


# ----------------------------------------------------------------------------
# Functions and instantiations


def test_function_declaration():
    f = decl("""
        T twice<T>(in T v, out bit<8> flag) {
            flag = 1;
            return (T) (v + v);
        }
    """)
    assert isinstance(f, ir.Function)
    assert (f.name, ty(f.return_type), names(f.type_params), names(f.params)) == ("twice", "T", ["T"], ["v", "flag"])
    assert sx(f.body.statements[1].value) == "(cast T (+ v v))"


def test_instantiations():
    e, c, pkg, inst, arr, main = decls("""
        extern E { E(bit<8> k); abstract bit<8> f(in bit<8> x); }
        control ctl() { apply { } }
        package Pk(ctl c);
        @name("the_e") E(1) e = {
            bit<8> f(in bit<8> x) { return x + 1; }
        };
        E(2) arr[4];
        Pk(ctl()) main;
    """)
    assert isinstance(inst, ir.Instance)
    assert (inst.name, ty(inst.type_ref), [sx(a) for a in inst.args]) == ("e", "E", ["1"])
    assert [a.name for a in inst.annotations] == ["name"]
    [impl] = inst.initializer
    assert isinstance(impl, ir.Function) and impl.name == "f"
    assert sx(impl.body.statements[0].value) == "(+ x 1)"
    assert (arr.name, ty(arr.type_ref), [sx(a) for a in arr.args]) == ("arr", "E[4]", ["2"])
    assert (main.name, ty(main.type_ref), [sx(a) for a in main.args]) == ("main", "Pk", ["ctl()"])


def test_instantiation_of_a_specialized_type():
    i = decl("extern R<T> { R(bit<32> n); }\nR<bit<16>>(8) regs;")
    assert (ty(i.type_ref), [sx(a) for a in i.args]) == ("R<bit<16>>", ["8"])


def test_contextual_keywords_as_names():
    h, f = decls("""
        header h_t { bit<16> type; bit<8> key; bit<8> state; bit<8> apply; bit<8> priority; bit<8> entries; }
        void f(inout h_t h) { bit<8> actions = h.apply; h.type = (bit<16>) h.state; }
    """)
    assert names(h.fields) == ["type", "key", "state", "apply", "priority", "entries"]
    decl_, assign = f.body.statements
    assert decl_.decl.name == "actions" and sx(decl_.decl.init) == "h.apply"
    assert (sx(assign.target), sx(assign.value)) == ("h.type", "(cast bit<16> h.state)")


def test_locations_follow_line_markers():
    text = '# 1 "user.p4"\nheader h_t {\n# 40 "user.p4"\n    bit<8> a;\n}\n'
    diags = Diagnostics()
    [h] = parse_program(tokenize(text, "<preprocessed>", diags), diags, text).declarations
    assert diags.items == []
    assert h.loc == Loc("user.p4", 1, 8)
    assert h.fields[0].loc == Loc("user.p4", 40, 12)


# ----------------------------------------------------------------------------
# Statements


def test_assignments_and_compound_assignments():
    ss = stmts("x = 1; x += 2; x -= 1; x *= 3; x >>= 3; x <<= 1; x |+|= 1; x |-|= 1; x &= y; x ^= y; x |= y;")
    assert all(isinstance(s, ir.Assignment) for s in ss)
    assert [(s.op, sx(s.target), sx(s.value)) for s in ss] == [
        (None, "x", "1"), ("+", "x", "2"), ("-", "x", "1"), ("*", "x", "3"), (">>", "x", "3"), ("<<", "x", "1"),
        ("|+|", "x", "1"), ("|-|", "x", "1"), ("&", "x", "y"), ("^", "x", "y"), ("|", "x", "y"),
    ]
    assert ss[0].loc == Loc("t.p4", 3, 3)  # the '=' token


def test_assignment_targets():
    ss = stmts("h.a = 1; h.st[0].a = 2; x[7:4] = 3; h.st.next.a = 4; _ = 5;",
               prelude="header g_t { bit<8> a; }\nstruct s_t { bit<8> a; g_t[2] st; }",
               params="inout s_t h, inout bit<8> x")
    assert [sx(s.target) for s in ss] == ["h.a", "h.st[0].a", "x[7:4]", "h.st.next.a", "_"]


def test_method_call_statements_with_named_and_dont_care_arguments():
    ss = stmts("g(1, 2); g(b = 1, a = 2); g(_, 1); g(a = _, b = y == 1); h.setValid();",
               prelude="extern void g(in bit<8> a, in bit<8> b);\nheader h_t { bit<8> a; }",
               params="inout h_t h, inout bit<8> y")
    assert all(isinstance(s, ir.MethodCallStatement) for s in ss)
    assert [sx(s.call) for s in ss] == [
        "g(1, 2)", "g(b=1, a=2)", "g(_, 1)", "g(a=_, b=(== y 1))", "h.setValid()",
    ]
    assert ss[2].call.args[0].value is None and ss[2].call.args[0].name is None


def test_if_else_chain():
    [s] = stmts("if (x == 1) { y = 1; } else if (x == 2) y = 2; else { }")
    assert isinstance(s, ir.IfStatement) and sx(s.cond) == "(== x 1)"
    assert isinstance(s.then, ir.Block)
    inner = s.otherwise
    assert isinstance(inner, ir.IfStatement) and sx(inner.cond) == "(== x 2)"
    assert isinstance(inner.then, ir.Assignment)
    assert isinstance(inner.otherwise, ir.Block) and inner.otherwise.statements == ()


def test_dangling_else_binds_to_the_nearest_if():
    [s] = stmts("if (x == 1) if (y == 1) x = 2; else x = 3;")
    assert s.otherwise is None
    assert isinstance(s.then, ir.IfStatement) and isinstance(s.then.otherwise, ir.Assignment)


def test_switch_with_fall_through_labels_and_default():
    c = decl(CONTROL_PRELUDE + """
        control C(inout bit<8> x) {
            action a() { }
            action b() { }
            table t { actions = { a; b; } }
            apply {
                switch (t.apply().action_run) {
                    a:
                    b: { x = 0; }
                    default: { }
                }
                switch (x) { 1: { } 2: }
            }
        }
    """)
    sw, sw2 = c.body.statements
    assert isinstance(sw, ir.SwitchStatement)
    assert sx(sw.expr) == "t.apply().action_run"
    assert [(sx(case.label), case.body is None) for case in sw.cases] == [
        ("a", True), ("b", False), ("default", False),
    ]
    assert isinstance(sw.cases[2].label, ir.DefaultExpression)
    assert [(sx(case.label), case.body is None) for case in sw2.cases] == [("1", False), ("2", True)]


def test_block_return_exit_and_empty_statements():
    ss = stmts("{ x = 1; { } } ; return; exit;")
    block, empty, ret, ex = ss
    assert isinstance(block, ir.Block) and isinstance(block.statements[1], ir.Block)
    assert isinstance(empty, ir.EmptyStatement)
    assert isinstance(ret, ir.ReturnStatement) and ret.value is None
    assert isinstance(ex, ir.ExitStatement)
    [ret] = stmts("return x + 1;")
    assert sx(ret.value) == "(+ x 1)"


def test_local_declarations():
    ss = stmts("""
        bit<8> a = 3;
        const bit<8> k = 4;
        B b;
        S s = {f = 1};
        h_t[4] stack;
        E(7) e;
        bool flag = a == k;
        error err = error.NoError;
    """, prelude="""
        error { NoError }
        typedef bit<8> B;
        struct S { bit<8> f; }
        header h_t { bit<8> f; }
        extern E { E(bit<8> n); }
    """)
    assert all(isinstance(s, ir.DeclarationStatement) for s in ss)
    rows = [(type(s.decl).__name__, s.decl.name) for s in ss]
    assert rows == [("Variable", "a"), ("Constant", "k"), ("Variable", "b"), ("Variable", "s"),
                    ("Variable", "stack"), ("Instance", "e"), ("Variable", "flag"), ("Variable", "err")]
    assert [ty(s.decl.type_ref) for s in ss] == ["bit<8>", "bit<8>", "B", "S", "h_t[4]", "E", "bool", "error"]
    assert sx(ss[3].decl.init) == "{f=1}"
    assert [sx(a) for a in ss[5].decl.args] == ["7"]
    assert sx(ss[7].decl.init) == "error.NoError"


def test_declaration_of_an_undeclared_type_name():
    [s] = stmts("mystery_t m;")
    assert isinstance(s, ir.DeclarationStatement) and ty(s.decl.type_ref) == "mystery_t"


def test_c_style_for():
    s1, s2, s3 = stmts("""
        for (bit<8> i = 0; i < 4; i = i + 1, x = x + 1) { if (i == 2) break; else continue; }
        for (x = 0; x < 2; x >>= 1) ;
        for (;;) { }
    """)
    assert isinstance(s1, ir.ForStatement)
    [init] = s1.init
    assert isinstance(init, ir.DeclarationStatement) and (init.decl.name, sx(init.decl.init)) == ("i", "0")
    assert sx(s1.cond) == "(< i 4)"
    assert [(sx(u.target), sx(u.value)) for u in s1.updates] == [("i", "(+ i 1)"), ("x", "(+ x 1)")]
    cond = s1.body.statements[0]
    assert isinstance(cond.then, ir.BreakStatement) and isinstance(cond.otherwise, ir.ContinueStatement)
    assert isinstance(s2.init[0], ir.Assignment) and s2.updates[0].op == ">>"
    assert isinstance(s2.body, ir.EmptyStatement)
    assert (s3.init, s3.cond, s3.updates) == ((), None, ())


def test_for_in_and_unroll_annotation():
    s1, s2 = stmts("""
        for (bit<8> j in 1 .. 4) { x = j; }
        @unroll for (h_t h in hs) { }
    """, prelude="header h_t { bit<8> a; }", params="inout h_t[4] hs, inout bit<8> x")
    assert isinstance(s1, ir.ForInStatement)
    assert (s1.var.name, ty(s1.var.type_ref), s1.var.init) == ("j", "bit<8>", None)
    assert sx(s1.collection) == "(.. 1 4)"
    assert isinstance(s2, ir.ForInStatement) and sx(s2.collection) == "hs"


def test_annotated_block_keeps_its_annotations():
    [b] = stmts("@atomic { x = 1; }")
    assert isinstance(b, ir.Block) and [a.name for a in b.annotations] == ["atomic"]


# ----------------------------------------------------------------------------
# Expressions

TYPES = """
    typedef bit<8> B;
    struct S { bit<8> a; bit<8> b; }
    header h_t { bit<8> a; }
"""


@pytest.mark.parametrize(
    "text, shape",
    [
        ("a + b * c", "(+ a (* b c))"),
        ("a * b + c", "(+ (* a b) c)"),
        ("a - b - c", "(- (- a b) c)"),
        ("a % b / c", "(/ (% a b) c)"),
        ("a << 1 + 2", "(<< a (+ 1 2))"),
        ("a ++ b + c", "(+ (++ a b) c)"),
        ("a ++ b ++ c", "(++ (++ a b) c)"),
        ("a |+| b * c", "(|+| a (* b c))"),
        ("a |+| b |-| c", "(|-| (|+| a b) c)"),
        ("a == b && c", "(&& (== a b) c)"),
        ("a || b && c", "(|| a (&& b c))"),
        ("a | b ^ c & d", "(| a (^ b (& c d)))"),
        ("a & b == c", "(== (& a b) c)"),
        ("a < b == c", "(== (< a b) c)"),
        ("a == b != c", "(!= (== a b) c)"),
        ("a <= b | c", "(<= a (| b c))"),
        ("a >> 2", "(>> a 2)"),
        ("a >> 2 + 1", "(>> a (+ 2 1))"),
        ("a << b >> c", "(>> (<< a b) c)"),
        ("a >= b >> 1", "(>= a (>> b 1))"),
        ("a > b", "(> a b)"),
        ("-a * b", "(* (- a) b)"),
        ("!a && b", "(&& (! a) b)"),
        ("~a & +b", "(& (~ a) (+ b))"),
        ("- -a", "(- (- a))"),
        ("-a.b", "(- a.b)"),
        ("a * (b + c)", "(* a (+ b c))"),
        ("x ? y : z", "(? x y z)"),
        ("a || b ? c : d", "(? (|| a b) c d)"),
        ("a ? b : c ? d : e", "(? a b (? c d e))"),
        ("a ? b ? c : d : e", "(? a (? b c d) e)"),
        ("a < b ? 1 : 2", "(? (< a b) 1 2)"),
    ],
)
def test_operator_precedence(text, shape):
    assert sx(expr(text)) == shape


def test_binary_location_is_the_operator():
    e = expr("a  +  b")
    assert e.loc == Loc("t.p4", 2, 23)  # `const bit<8> c__ = a  +  b;`


def test_shift_is_two_adjacent_greater_than_tokens():
    _, diags = parse("const bit<8> c = a > > 2;")
    assert messages(diags) == [("t.p4:1:22", "syntax error, unexpected '>', expecting an expression")]


def test_literals():
    assert [sx(expr(t)) for t in ["8w5", "4s3", "0xFF", "true", "false", '"s"', "this"]] == [
        "8w5", "4s3", "255", "true", "false", '"s"', "this",
    ]
    lit = expr("16w0x0800")
    assert (lit.value, lit.width, lit.signed, lit.base) == (2048, 16, False, 16)


@pytest.mark.parametrize(
    "text, shape",
    [
        ("a[7:0]", "a[7:0]"),
        ("a[i +: 8]", "a[i +: 8]"),
        ("a[3]", "a[3]"),
        ("a[1][2:1]", "a[1][2:1]"),
        ("a[c ? 7 : 6 : 0]", "a[(? c 7 6):0]"),
        ("h.st[i + 1].a[3:0]", "h.st[(+ i 1)].a[3:0]"),
        ("f()[7:0]", "f()[7:0]"),
    ],
)
def test_indexing_and_slices(text, shape):
    assert sx(expr(text)) == shape


def test_indexed_slice_node():
    e = expr("a[i +: 8]")
    assert isinstance(e, ir.IndexedSlice) and (sx(e.low), sx(e.width)) == ("i", "8")


@pytest.mark.parametrize(
    "text, shape",
    [
        ("(bit<8>)x", "(cast bit<8> x)"),
        ("(bit<8>) a + b", "(+ (cast bit<8> a) b)"),
        ("(int<4>)-1", "(cast int<4> (- 1))"),
        ("(bool)1", "(cast bool 1)"),
        ("(B)x", "(cast B x)"),
        ("(B) - 1", "(cast B (- 1))"),
        ("(x) - 1", "(- x 1)"),
        ("(x)", "x"),
        ("- (bit<8>) a", "(- (cast bit<8> a))"),
        ("(bit<8>) a[3:0]", "(cast bit<8> a[3:0])"),
        ("(bit<8>)(x >> 1)", "(cast bit<8> (>> x 1))"),
        ("(S){a = 1, b = 2}", "(cast S {a=1, b=2})"),
        ("(.B) x", "(cast .B x)"),
    ],
)
def test_casts_and_parentheses(text, shape):
    assert sx(expr(text, TYPES)) == shape


@pytest.mark.parametrize(
    "text, shape",
    [
        ("p.extract<h_t>(h)", "p.extract<h_t>(h)"),
        ("p.lookahead<bit<8>>()", "p.lookahead<bit<8>>()"),
        ("f<B>(1)", "f<B>(1)"),
        ("f<G<bit<8>>>(x)", "f<G<bit<8>>>(x)"),
        ("f<tuple<bit<8>, bool>>()", "f<tuple<bit<8>, bool>>()"),
        ("f<_>(x)", "f<_>(x)"),
        ("h.isValid()", "h.isValid()"),
        ("t.apply().hit", "t.apply().hit"),
        ("!t.apply().miss", "(! t.apply().miss)"),
        ("error.NoError", "error.NoError"),
        ("E.A", "E.A"),
        ("sizeInBits(bit<8>)", "sizeInBits(bit<8>)"),
        (".g(x)", ".g(x)"),
        ("a < b && c > d", "(&& (< a b) (> c d))"),
    ],
)
def test_calls_members_and_type_arguments(text, shape):
    assert sx(expr(text, TYPES + "struct G<T> { T f; }")) == shape


def test_error_member_is_a_type_name_expression():
    e = expr("error.NoError")
    assert isinstance(e, ir.Member) and isinstance(e.expr, ir.TypeNameExpression)
    assert isinstance(e.expr.type_ref, ir.ErrorType)


@pytest.mark.parametrize(
    "text, shape",
    [
        ("{1, 2}", "{1, 2}"),
        ("{}", "{}"),
        ("{a = 1, b = 2}", "{a=1, b=2}"),
        ("{a = 1, ...}", "{a=1, ...}"),
        ("S {a = 1}", "S {a=1}"),
        ("{#}", "{#}"),
        ("...", "..."),
        ("{x, {y, 1}}", "{x, {y, 1}}"),
    ],
)
def test_initializers(text, shape):
    assert sx(expr(text, TYPES)) == shape


def test_struct_expression_with_type_name():
    e = expr("S {a = 1, b = x + 1}", TYPES)
    assert isinstance(e, ir.StructExpression)
    assert ty(e.type_ref) == "S" and names(e.fields) == ["a", "b"]


def test_brace_after_a_non_type_is_not_an_initializer():
    # `x` is not a type: `if (c == x) { ... }` must keep its block.
    [s] = stmts("if (y == x) { y = 1; }")
    assert sx(s.cond) == "(== y x)" and isinstance(s.then, ir.Block)


# ----------------------------------------------------------------------------
# Type widths and nested type lists


def test_bit_widths_that_are_expressions():
    w1, w2, w3, w4 = decls("""
        const int N = 3;
        const int a = 2;
        typedef bit<(N + 1)> w1_t;
        typedef bit<a < 3 ? 5 : 4> w2_t;
        typedef int<N> w3_t;
        typedef varbit<(N * 8)> w4_t;
    """)[2:]
    assert [ty(t.type_ref) for t in (w1, w2, w3, w4)] == [
        "bit<(+ N 1)>", "bit<(? (< a 3) 5 4)>", "int<N>", "varbit<(* N 8)>",
    ]


def test_shift_inside_parenthesized_width():
    t = decl("const int N = 16;\ntypedef bit<(N >> 1)> half_t;")
    assert ty(t.type_ref) == "bit<(>> N 1)>"


def test_nested_type_lists_closed_by_adjacent_greater_than():
    g, vs = decls("""
        const int bit_width = 8;
        struct G<T> { T f; }
        typedef G<bit<bit_width>> gb_t;
        parser P() { value_set<tuple<bit<8>, bit<16>>>(4) pvs; state start { transition accept; } }
    """)[2:]
    assert ty(g.type_ref) == "G<bit<bit_width>>"
    assert ty(vs.locals[0].element_type) == "tuple<bit<8>, bit<16>>"


# ----------------------------------------------------------------------------
# Annotations


def anno_of(src: str) -> tuple:
    return decl(src + "\nconst bit<8> c__ = 0;").annotations


def test_unstructured_annotation_with_expression_items():
    [a] = anno_of('@e(1, "two", a.b + 1)')
    assert (a.name, a.structured) == ("e", False)
    assert [sx(i) for i in a.items] == ["1", '"two"', "(+ a.b 1)"]
    assert a.body is not None and '"two"' in a.body


def test_unstructured_annotation_keeps_a_non_expression_body_as_text():
    [a] = anno_of("@d(x y = + 1 ++ zz $)")
    assert a.items == ()
    assert a.body == "x y = + 1 ++ zz $"
    assert a.loc == Loc("t.p4", 1, 1)


def test_annotation_without_body_and_with_empty_body():
    a, b = anno_of("@hidden @empty()")
    assert (a.name, a.body, a.items) == ("hidden", None, ())
    assert (b.name, b.body, b.items) == ("empty", "", ())


def test_annotation_body_with_nested_brackets():
    [a] = anno_of("@n(f(1, [2]), {3})")
    assert a.body.replace(" ", "") == "f(1,[2]),{3}"
    assert a.items == ()  # `[2]` is no expression


def test_structured_annotations():
    kv, exprs, empty = anno_of('@kv[k=1, s="x",] @ex[1, 2 + 3] @none[]')
    assert kv.structured and exprs.structured and empty.structured
    assert [(i.key, sx(i.value)) for i in kv.items] == [("k", "1"), ("s", '"x"')]
    assert all(isinstance(i, ir.KeyValue) for i in kv.items)
    assert [sx(i) for i in exprs.items] == ["1", "(+ 2 3)"]
    assert empty.items == ()


def test_pragma_runs_to_the_end_of_its_line():
    c = decl("@pragma my_pragma a b 3\nconst bit<8> q = 1;")
    [a] = c.annotations
    assert (a.name, a.body, a.items) == ("my_pragma", "a b 3", ())  # not a list of expressions
    assert c.name == "q"
    # `@pragma name "x"` is `@name("x")` (p4c's pragma-string).
    [named] = decl('@pragma name "renamed"\nconst bit<8> r = 1;').annotations
    assert [sx(i) for i in named.items] == ['"renamed"']


def test_annotations_on_many_constructs():
    c = decl(CONTROL_PRELUDE + """
        @ctl control C(@p inout bit<8> x) {
            @act action a() { }
            @tbl table t { @prop key = { x : exact @k; } actions = { @ar a; } }
            apply { }
        }
    """)
    assert [a.name for a in c.annotations] == ["ctl"]
    assert [a.name for a in c.params[0].annotations] == ["p"]
    act, tbl = c.locals
    assert [a.name for a in act.annotations] == ["act"] and [a.name for a in tbl.annotations] == ["tbl"]
    key, actions = tbl.properties
    assert [a.name for a in key.annotations] == ["prop"]
    assert [a.name for a in key.value[0].annotations] == ["k"]
    assert [a.name for a in actions.value[0].annotations] == ["ar"]


def test_enum_member_annotation():
    e = decl("enum E { @first A, B }")
    assert [a.name for a in e.members[0].annotations] == ["first"]


def test_unterminated_annotation_body_is_an_error():
    _, diags = parse("@a(1, 2\nconst bit<8> c = 0;")
    assert messages(diags) == [("t.p4:1:3", "syntax error, unterminated annotation body")]


# ----------------------------------------------------------------------------
# Syntax errors and recovery


def test_missing_semicolon_is_reported_at_the_next_token():
    src = """
        control C(inout bit<8> x) {
            apply {
                x = 1
                x = 2;
            }
        }
    """
    _, diags = parse(src)
    assert messages(diags)[0] == ("t.p4:5:9", "syntax error, unexpected 'x', expecting ';'")
    assert loc_of(src, "x = 2") == Loc("t.p4", 5, 9)


def test_missing_semicolon_at_end_of_input():
    _, diags = parse("const bit<8> a = 1")
    assert messages(diags) == [("t.p4:1:19", "syntax error, unexpected end of input, expecting ';'")]


def test_unexpected_bad_character_and_integer():
    _, diags = parse("const bit<8> a = 1 2;\nconst bit<8> b = $;")
    assert messages(diags) == [
        ("t.p4:1:20", "syntax error, unexpected '2', expecting ';'"),
        ("t.p4:2:18", "syntax error, unexpected '$', expecting an expression"),
    ]


def test_unexpected_string_literal_message():
    _, diags = parse('const bit<8> a = "s" "t";')
    assert messages(diags) == [("t.p4:1:22", "syntax error, unexpected string literal, expecting ';'")]


def test_independent_errors_are_all_reported():
    program, diags = parse("""
        const bit<8> a = 1
        const bit<8> b = 2;
        struct S { bit<8> x }
        header H { bit<8> y; }
        const bit<8> d = ;
        const bit<8> e = 3;
    """)
    assert messages(diags) == [
        ("t.p4:3:1", "syntax error, unexpected 'const', expecting ';'"),
        ("t.p4:4:21", "syntax error, unexpected '}', expecting ';'"),
        ("t.p4:6:18", "syntax error, unexpected ';', expecting an expression"),
    ]
    # What follows each error is still parsed.
    assert names(program.declarations) == ["b", "H", "e"]


def test_errors_in_separate_bodies_are_all_reported():
    src = """
        control A(inout bit<8> x) {
            apply {
                x = 1
            }
        }
        parser P(in bit<8> y) {
            state start {
                y = ;
                transition accept;
            }
        }
        control B(inout bit<8> x) { apply { x = 2; } }
    """
    program, diags = parse(src)
    found = messages(diags)
    assert (str(loc_of(src, "}")), "syntax error, unexpected '}', expecting ';'") in found
    assert (str(loc_of(src, ";")), "syntax error, unexpected ';', expecting an expression") in found
    assert program.declarations[-1].name == "B"


def test_error_inside_a_body_causes_no_cascade():
    src = """
        control A(inout bit<8> x) {
            apply {
                x = 1
            }
        }
        control B(inout bit<8> x) { apply { x = 2; } }
    """
    _, diags = parse(src)
    assert messages(diags) == [(str(loc_of(src, "}")), "syntax error, unexpected '}', expecting ';'")]


SAMPLE = """
    error { NoError }
    match_kind { exact }
    extern packet_in { void extract<T>(out T hdr); }
    header h_t { bit<8> a; bit<16> t; }
    struct hs_t { h_t h; h_t[2] st; }
    @name("p") parser P(packet_in b, out hs_t hdr) {
        value_set<bit<8>>(2) vs;
        state start {
            b.extract<h_t>(hdr.h);
            transition select(hdr.h.a, hdr.h.t) { (1, 2 &&& 3): accept; (vs, _): reject; default: accept; }
        }
    }
    control C(inout hs_t hdr) {
        action set(bit<8> v) { hdr.h.a = v; hdr.h.t = (bit<16>) v << 2; }
        table t { key = { hdr.h.a : exact; } actions = { set; } const entries = { 1 : set(2); } }
        apply {
            if (hdr.h.isValid() && t.apply().hit) { hdr.h.a = hdr.h.a[7:1] ++ 1w0; }
            switch (t.apply().action_run) { set: { } default: }
            for (bit<8> i in 0 .. 3) { hdr.h.t = hdr.h.t >> 1; }
        }
    }
    package Pkg(P p, C c);
    Pkg(P(), C()) main;
"""


def test_sample_program_parses_cleanly():
    program = decls(SAMPLE)
    assert [type(d).__name__ for d in program] == [
        "ErrorDeclaration", "MatchKindDeclaration", "Extern", "Header", "Struct", "Parser", "Control",
        "Package", "Instance",
    ]


def test_parser_never_raises_on_broken_programs():
    text = textwrap.dedent(SAMPLE)
    tokens = tokenize(text, "t.p4", Diagnostics())
    body, eof = tokens[:-1], tokens[-1]
    variants = [body[:i] + [eof] for i in range(len(body))]
    variants += [body[:i] + body[i + 1 :] + [eof] for i in range(len(body))]
    variants += [body[:i] + [body[(i * 7) % len(body)]] + body[i:] + [eof] for i in range(len(body))]
    for toks in variants:
        diags = Diagnostics(max_errors=10_000)
        program = parse_program(toks, diags, text)  # must not raise
        assert isinstance(program, ir.Program)
        # Syntax errors, or a declaration where P4 has none of its kind ("x: functions can only be ...").
        assert all(d.severity == "error" and d.loc is not None and
                   (d.message.startswith("syntax error") or " can" in d.message) for d in diags.items)
    # Cutting a declaration short is reported.
    cut = next(i for i, t in enumerate(body) if t.text == "transition")
    diags = Diagnostics()
    parse_program(body[:cut] + [eof], diags, text)
    assert messages(diags) == [(str(eof.loc), "syntax error, unexpected end of input, expecting '}'")]


# ----------------------------------------------------------------------------
# Former bugs, kept as regression tests


def test_comparisons_in_arguments_are_not_type_arguments():
    [s] = stmts("g(a < b, d > (e));", prelude="extern void g(in bool x, in bool y);",
                params="in bit<8> a, in bit<8> b, in bit<8> d, in bit<8> e")
    assert sx(s.call) == "g((< a b), (> d e))"


def test_structured_annotation_after_a_space():
    [a] = anno_of("@kv [k=1]")
    assert a.structured and [(i.key, sx(i.value)) for i in a.items] == [("k", "1")]


def test_unstructured_annotation_body_is_the_raw_text():
    [a] = anno_of("@n(a.b+1, x>>2)")
    assert a.body == "a.b+1, x>>2"


def test_parenthesized_single_keyset_is_the_expression():
    p = decl(PARSER_PRELUDE + """
        parser MyP(packet_in pkt, out hdrs_t hdr) {
            state start { transition select(hdr.h.a) { (1): accept; default: reject; } }
        }
    """)
    assert sx(p.states[0].transition.cases[0].keyset) == "1"


def test_deeply_nested_parentheses():
    e = expr("(" * 200 + "1" + ")" * 200)
    assert sx(e) == "1"


def test_nested_list_with_parentheses_is_parsed_in_linear_time(monkeypatch):
    calls = 0
    original = parser_module.Parser.primary

    def counting(self):
        nonlocal calls
        calls += 1
        return original(self)

    monkeypatch.setattr(parser_module.Parser, "primary", counting)
    depth = 10
    e = expr("{(" * depth + "1" + ")}" * depth)
    assert sx(e) == "{" * depth + "1" + "}" * depth
    assert calls <= 10 * depth
