"""The P4_14 front end: P4_14 programs read into p4c's v1model conversion of them.

Errors in P4_14 terms at their P4_14 positions (syntax, conversion, and those the P4_16
front end finds in the conversion), the language told by the program or by `--std`, and,
given p4c's testdata (P4C_TESTDATA), the control-plane names of converted samples against
those of p4c's own conversion of them (`p4_14_samples_outputs/*-first.p4`).  The programs'
packet tests are tests/packets/p4_14_*.stf.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from p4odp import cli
from p4odp.controlplane.p4info import program_p4info
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program, parse_file
from p4odp.frontend.typecheck import check_program

ETHERNET = """\
header_type ethernet_t {
    fields {
        dstAddr : 48;
        srcAddr : 48;
        etherType : 16;
    }
}
header ethernet_t ethernet;
"""

SWITCH = ETHERNET + """\
parser start {
    extract(ethernet);
    return ingress;
}
action forward(port) {
    modify_field(standard_metadata.egress_spec, port);
}
ACTIONS
table dmac {
    reads { ethernet.dstAddr : exact; }
    actions { forward; }
}
control ingress {
INGRESS
}
"""


def switch(actions: str = "", ingress: str = "    apply(dmac);") -> str:
    """An Ethernet switch with one table, `actions` declared after `forward`, `ingress` the
    ingress control's body."""
    return SWITCH.replace("ACTIONS", actions).replace("INGRESS", ingress)


def load(tmp_path: Path, text: str, std: str | None = None):
    path = tmp_path / "prog.p4"
    path.write_text(textwrap.dedent(text))
    diags = Diagnostics()
    program = load_program(str(path), FrontendOptions(std=std), diags)
    errors = [(d.loc.line, d.loc.col, d.message) for d in diags.items if d.severity == "error"]
    return program, errors


def test_a_p4_14_program_is_told_by_its_declarations(tmp_path):
    program, errors = load(tmp_path, switch())
    assert errors == [] and program is not None
    tables = [d for d in _declarations(program) if type(d).__name__ == "Table"]
    assert [t.control_name for t in tables] == ["dmac"]


def test_std_p4_16_reads_a_p4_14_program_as_p4_16(tmp_path):
    _, errors = load(tmp_path, switch(), std="p4-16")
    assert errors and "syntax error" in errors[0][2]


@pytest.mark.parametrize("text, line, col, message", [
    # A syntax error, in P4_14's words.
    (ETHERNET.replace("srcAddr : 48;", "srcAddr : 48"), 5, 9, "syntax error: expected ';', found 'etherType'"),
    # Conversion errors, at the construct.
    # (in an action no table uses, as in any other)
    (switch(actions="action a() { frobnicate(ethernet.dstAddr); }"), 16, 14, "no action or primitive action 'frobnicate'"),
    # (a name the converter's own methods could answer to is no primitive either)
    (switch(actions="action a() { calls(ethernet.dstAddr); }"), 16, 14, "no action or primitive action 'calls'"),
    (switch(ingress="    apply(smac);"), 22, 11, "no table 'smac'"),
    (switch(ingress="    apply(dmac) { drop { } }"), 22, 19, "'drop' is not an action of table 'dmac'"),
    (ETHERNET + "parser start { set_metadata(ethernet.etherType, latest.etherType); extract(ethernet); "
                "return ingress; }\ncontrol ingress { }\n",
     9, 49, "'latest' in state 'start' before it extracts a header"),
    (ETHERNET + "header_type m_t { fields { x : 8; } }\nmetadata m_t m;\n"
                "parser start { extract(m); return ingress; }\ncontrol ingress { }\n",
     11, 24, "'m' is metadata: only headers are extracted"),
    (ETHERNET + "parser start { return ingress; }\ntable egress { actions { a; } }\naction a() { }\n"
                "control ingress { }\n", 10, 1, "egress is reserved for the pipeline's egress control"),
])
def test_errors_are_placed_in_the_p4_14_program(tmp_path, text, line, col, message):
    _, errors = load(tmp_path, text)
    assert errors[0] == (line, col, message)


def test_an_error_the_p4_16_front_end_finds_is_placed_at_the_p4_14_construct(tmp_path):
    # A header where a field's value goes: the conversion passes it on as a cast, which the
    # P4_16 front end refuses, on the P4_14 line.
    text = switch(actions="action a() { modify_field(ethernet.dstAddr, ethernet); }")
    _, errors = load(tmp_path, text.replace("actions { forward; }", "actions { forward; a; }"))
    assert [(line, message) for line, _col, message in errors] == \
        [(16, "cast from header ethernet_t to bit<48> is not supported")]


def test_the_command_line_takes_std(tmp_path, capsys):
    path = tmp_path / "prog.p4"
    path.write_text(switch())
    assert cli.main(["check", "--std", "p4-14", str(path)]) == cli.EXIT_OK
    assert cli.main(["check", "--std", "p4-16", str(path)]) == cli.EXIT_USER_ERROR
    assert f"{path}:1:" in capsys.readouterr().err


def test_compound_actions_and_parameter_widths(tmp_path):
    # An action calling another with its own parameter: the inner primitive's field types it.
    text = switch(actions="action to(p) { forward(p); }\naction twice(a, b) { to(a); "
                                 "modify_field(ethernet.etherType, b); }",
                         ingress="    apply(dmac);")
    program, errors = load(tmp_path, text.replace("actions { forward; }", "actions { forward; twice; }"))
    assert errors == []
    twice = next(a for a in _actions(program) if a.name == "twice")
    assert [(p.name, p.type.width) for p in twice.params] == [("a", 9), ("b", 16)]


def _declarations(program):
    for decl in program.declarations:
        yield decl
        yield from getattr(decl, "locals", ())


def _actions(program):
    return [d for d in _declarations(program) if type(d).__name__ == "Action"]


# ---- Against p4c's conversion

# Samples whose control-plane names cover tables, keys of every match kind, header validity,
# stacks, action profiles and selectors, counters, meters, registers and digests.
NAMED_SAMPLES = ["07-MultiProtocol", "basic_routing", "exact_match_valid1", "action_chain1", "selector0",
                 "counter4", "meter", "register", "issue1058", "flowlet_switching"]


def _testdata() -> Path:
    testdata = os.environ.get("P4C_TESTDATA")
    if not testdata:
        pytest.skip("P4C_TESTDATA is not set (point it at p4c's testdata folder to compare the "
                    "conversion's control-plane names with p4c's)")
    return Path(testdata)


def _names(path: Path, std: str) -> dict:
    diags = Diagnostics()
    # p4c's conversion of a sample, read as P4_16, holds its copies of an action as ours does.
    parsed = parse_file(str(path), FrontendOptions(std=std), diags)
    program = check_program(parsed, diags, action_copies=True) if parsed is not None else None
    assert program is not None and not diags.error_count, [str(d.message) for d in diags.items]
    info = program_p4info(program, diags)
    assert info is not None
    return {
        "tables": sorted((t.preamble.name, tuple(m.name for m in t.match_fields),
                          tuple(sorted(r.id for r in t.action_refs)) and len(t.action_refs)) for t in info.tables),
        "actions": sorted((a.preamble.name, tuple(p.name for p in a.params)) for a in info.actions),
        "externs": sorted(e.preamble.name for kind in (info.counters, info.direct_counters, info.meters,
                                                        info.direct_meters, info.registers, info.action_profiles)
                          for e in kind),
        "digests": sorted(d.preamble.name for d in info.digests),
    }


@pytest.mark.parametrize("sample", NAMED_SAMPLES)
def test_control_plane_names_are_p4cs(sample):
    testdata = _testdata()
    ours = _names(testdata / "p4_14_samples" / f"{sample}.p4", "p4-14")
    theirs = _names(testdata / "p4_14_samples_outputs" / f"{sample}-first.p4", "p4-16")
    # The digests' types are named by each conversion its own way; P4Runtime addresses digests by them,
    # so they are compared only in number.
    assert len(ours.pop("digests")) == len(theirs.pop("digests"))
    assert ours == theirs


# ---- The conversion's rules, each on a program that needs it

# A header h, a metadata m, and a parser that extracts h; {decls} and {ingress} complete it.
BASE = """\
header_type h_t { fields { a : 8; b : 16; c : 8; } }
header h_t h;
header_type m_t { fields { x : 8; y : 32; } }
metadata m_t m;
parser start { extract(h); return ingress; }
"""


def converted(tmp_path: Path, text: str) -> str:
    """The P4_16 program of a valid P4_14 one, the front end having accepted it."""
    from p4odp.frontend.lexer import tokenize
    from p4odp.frontend.p4_14 import to_p4_16
    from p4odp.frontend.preprocess import preprocess

    program, errors = load(tmp_path, text)
    assert errors == [] and program is not None, errors
    path = str(tmp_path / "prog.p4")
    diags = Diagnostics()
    p4_16 = to_p4_16(tokenize(preprocess(path, [], [], [], diags), path, diags), path, diags)
    return p4_16[p4_16.index(f'"{path}"'):]  # the conversion, after v1model's declarations


def statements(p4_16: str, needle: str) -> list[str]:
    return [line.strip() for line in p4_16.splitlines() if needle in line]


def test_a_select_case_splits_its_value_and_mask_over_the_keys(tmp_path):
    text = BASE.replace("return ingress; }", "return select(h.b, h.a) { 0x12345 mask 0xfff0f : ingress; "
                                             "0x00ff05 : ingress; default : ingress; } }") + "control ingress { }\n"
    cases = statements(converted(tmp_path, text), ": accept;")
    assert cases == ["(16w0x123 &&& 16w0xfff, 8w0x45 &&& 8w0xf): accept;", "(16w0xff, 8w0x5): accept;",
                     "default: accept;"]


def test_a_compound_action_binds_its_arguments_inside_expressions(tmp_path):
    text = BASE + ("action inner(p) { modify_field(h.a, p + 1); }\naction outer(p, q) { inner(q); }\n"
                   "table t { actions { outer; } }\ncontrol ingress { apply(t); }\n")
    p4_16 = converted(tmp_path, text)
    assert statements(p4_16, "hdr.h.a =") == ["hdr.h.a = (q + 8w0x1);"]
    assert statements(p4_16, "action outer") == ['@name(".outer") action outer(bit<32> p, bit<8> q) {']


def test_ingress_and_egress_share_a_register(tmp_path):
    text = BASE + ("register r { width : 8; instance_count : 4; }\naction w() { register_write(r, 0, h.a); }\n"
                   "action rd() { register_read(h.c, r, 0); }\ntable ti { actions { w; } }\n"
                   "table te { actions { rd; } }\ncontrol ingress { apply(ti); }\ncontrol egress { apply(te); }\n")
    lines = converted(tmp_path, text).splitlines()
    declared = [i for i, line in enumerate(lines) if "register<bit<8>>" in line]
    assert len(declared) == 1 and declared[0] < next(i for i, line in enumerate(lines) if "control ingress" in line)


def test_a_field_list_passed_to_a_compound_action_is_kept_by_its_resubmit(tmp_path):
    text = BASE + ("field_list fl { m.x; }\naction inner(l) { resubmit(l); }\naction outer() { inner(fl); }\n"
                   "table t { actions { outer; } }\ncontrol ingress { apply(t); }\n")
    p4_16 = converted(tmp_path, text)
    assert statements(p4_16, "resubmit") == ["resubmit_preserving_field_list(8w1);"]
    assert "@field_list(1)" in p4_16


def test_signed_fields_meet_unsigned_ones_at_the_wider_type(tmp_path):
    text = BASE + ("header_type s_t { fields { v : 8 (signed); } }\nmetadata s_t s;\n"
                   "action a() { modify_field(s.v, h.b); }\ntable t { actions { a; } }\n"
                   "control ingress { if (s.v < h.b) { apply(t); } }\n")
    p4_16 = converted(tmp_path, text)
    assert statements(p4_16, "meta.s.v =") == ["meta.s.v = (int<8>)((bit<8>)(hdr.h.b));"]
    assert statements(p4_16, "if (") == ["if (((bit<16>)((int<16>)(meta.s.v)) < hdr.h.b)) {"]


def test_a_table_with_a_direct_meter_runs_copies_of_its_actions_that_read_it(tmp_path):
    text = BASE + ("meter mt { type : bytes; direct : t; result : m.x; }\naction a() { no_op(); }\n"
                   "table t { actions { a; } }\ntable u { actions { a; } }\ncontrol ingress { apply(t); apply(u); }\n")
    p4_16 = converted(tmp_path, text)
    assert statements(p4_16, 'action a') == ['@name(".a") action a() {', '@name(".a") action a_1() {']
    assert statements(p4_16, "mt.read") == ["mt.read(meta.m.x);"]
    assert p4_16.index("mt.read") > p4_16.index("action a_1")


def test_a_value_set_over_two_keys_holds_tuples(tmp_path):
    text = BASE.replace("parser start { extract(h); return ingress; }",
                        "parser_value_set pv;\nparser start { extract(h); return select(h.a, h.b) "
                        "{ pv : ingress; default : ingress; } }") + "control ingress { }\n"
    assert statements(converted(tmp_path, text), "value_set<") == ['@name(".pv") value_set<tuple<bit<8>, bit<16>>>(4) pv;']


def test_a_checksum_over_a_nested_payload_takes_the_payload(tmp_path):
    text = BASE + ("field_list p { payload; }\nfield_list fl { h.a; h.c; p; }\n"
                   "field_list_calculation c { input { fl; } algorithm : csum16; output_width : 16; }\n"
                   "calculated_field h.b { update c; }\ncontrol ingress { }\n")
    assert statements(converted(tmp_path, text), "update_checksum") == [
        "update_checksum_with_payload(true, { hdr.h.a, hdr.h.c }, hdr.h.b, HashAlgorithm.csum16);"]


def test_a_parameter_named_as_the_conversions_names_is_renamed_its_control_plane_name_kept(tmp_path):
    text = BASE + "action a(meta) { modify_field(m.x, meta); }\ntable t { actions { a; } }\ncontrol ingress { apply(t); }\n"
    p4_16 = converted(tmp_path, text)
    assert statements(p4_16, "action a(") == ['@name(".a") action a(@name("meta") bit<8> meta_1) {']
    program, _ = load(tmp_path, text)
    info = program_p4info(program, Diagnostics())
    assert [(a.preamble.name, [p.name for p in a.params]) for a in info.actions if a.preamble.name == "a"] == \
        [("a", ["meta"])]


def test_min_and_max_compare_in_their_first_operands_type(tmp_path):
    text = BASE + "action a() { min(m.x, h.b, h.a); }\ntable t { actions { a; } }\ncontrol ingress { apply(t); }\n"
    assert statements(converted(tmp_path, text), "meta.m.x =") == [
        "meta.m.x = (bit<8>)((hdr.h.b < (bit<16>)(hdr.h.a) ? hdr.h.b : (bit<16>)(hdr.h.a)));"]


@pytest.mark.parametrize("decls, ingress, line, message", [
    ("table t { reads { latest.a : exact; } actions { a; } }\naction a() { }", "apply(t);", 6, "a table reads a field"),
    ("table t { actions { a; } }\naction a() { }", "if (valid(latest.a)) { apply(t); }", 8, "valid() takes a header"),
    ("counter c { type : packets; direct : nosuch; }", "", 6, "direct: names no table"),
    ("header_type n_t { fields { z : 8; } }\nmetadata n_t n[2];", "", 7, "metadata 'n' cannot be a stack"),
])
def test_what_the_conversion_refuses_is_placed(tmp_path, decls, ingress, line, message):
    _, errors = load(tmp_path, BASE + decls + f"\ncontrol ingress {{ {ingress} }}\n")
    assert errors and errors[0][0] == line and errors[0][2].startswith(message), errors


def test_mark_for_drop_is_drop(tmp_path):
    text = BASE + "action a() { mark_for_drop(); }\ntable t { actions { a; } }\ncontrol ingress { apply(t); }\n"
    assert statements(converted(tmp_path, text), "mark_to_drop") == ["mark_to_drop(standard_metadata);"]
