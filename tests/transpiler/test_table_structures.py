"""table-structures: each table's lookup structure, from its keys, entries and default action."""

from __future__ import annotations

import re

from pathlib import Path

import pytest
from midend_snippets import load, run, the, v1model

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import Inlining, PassManager, PassOptions, TableStructures
from p4odp.transpiler.passes.table_structures import STRUCTURES, choose_structure


def structures(tmp_path: Path, locals: str, body: str = "", globals: str = ""):
    program = run(load(tmp_path, v1model(body, locals, globals)), [Inlining()]).program
    result = run(program, [TableStructures()])
    assert result.program is program  # the IR is not touched: the choice is a side table
    return result.table_structures, result.reports


def table(keys: str, extra: str = "") -> str:
    return f"""
        action set(bit<8> v) {{ hdr.h.a = v; }}
        table t {{
            key = {{ {keys} }}
            actions = {{ set; NoAction; }}
            {extra}
        }}
    """


@pytest.mark.parametrize("keys, structure", [
    ("", "empty"),
    ("hdr.h.a : exact;", "cuckoo"),
    ("hdr.h.a : exact; hdr.h.w : exact;", "cuckoo"),
    ("hdr.h.w : lpm;", "dir-24-8"),
    ("hdr.h.w ++ hdr.h.w : lpm @name(\"w32\");", "dir-24-8"),
    ("hdr.h.w ++ hdr.h.w ++ hdr.h.a : lpm @name(\"w40\");", "trie"),  # wider than 32 bits
    ("hdr.h.a : exact; hdr.h.w : lpm;", "tss-lpm"),
    ("hdr.h.a : ternary;", "tss"),
    ("hdr.h.a : range;", "tss"),
    ("hdr.h.a : optional;", "tss"),
    ("hdr.h.a : exact; hdr.h.w : lpm; hdr.h.b : ternary;", "tss"),
    ("hdr.h.a : exact; hdr.h.w : selector;", "cuckoo"),  # an action selector's key picks no entry
])
def test_match_kinds_choose_the_structure(tmp_path: Path, keys: str, structure: str):
    found, _ = structures(tmp_path, table(keys), "t.apply();")
    assert found == {"Ing.t": structure}
    assert structure in STRUCTURES


@pytest.mark.parametrize("extra", [
    "const entries = { 1 : set(1); 2 : set(2); } const default_action = set(0);",
    "const entries = { 1 : set(1); 2 : set(2); }",
])
def test_const_entries_are_compiled_to_code(tmp_path: Path, extra: str):
    found, reports = structures(tmp_path, table("hdr.h.a : exact;", extra), "t.apply();")
    assert found == {"Ing.t": "code"}
    assert any("table Ing.t: code (2 const entries; exact 8 bits, size 1024)" in r for r in reports)


@pytest.mark.parametrize("keys, entries, structure", [
    # Entries the control plane may change stay in the runtime's structure.
    ("hdr.h.a : exact;", "entries = { 1 : set(1); }", "cuckoo"),
    # Keys of every match kind, up to 64 bits each.
    ("hdr.h.w : lpm; hdr.h.b : ternary; hdr.h.a : range; hdr.h.a : optional @name(\"o\");",
     "const entries = { (0x100 &&& 0xff00, _, 1 .. 2, _) : set(1); }", "code"),
    ("hdr.h.w ++ hdr.h.w ++ hdr.h.w ++ hdr.h.w ++ hdr.h.a : exact @name(\"x\");",
     "const entries = { 1 : set(1); }", "cuckoo"),  # a key field of 72 bits
    # Few enough to try one by one; exact keys of 64 bits at most: one switch.
    ("hdr.h.a : ternary;", "const entries = { " + " ".join(f"{i} : set(1);" for i in range(32)) + " }", "code"),
    ("hdr.h.a : ternary;", "const entries = { " + " ".join(f"{i} : set(1);" for i in range(33)) + " }", "tss"),
    ("hdr.h.a : exact; hdr.h.w : exact;",
     "const entries = { " + " ".join(f"({i}, 1) : set(1);" for i in range(256)) + " }", "code"),
    # Exact fields of 72 bits together: tried one by one.
    ("hdr.h.w ++ hdr.h.w ++ hdr.h.w ++ hdr.h.w : exact @name(\"x\"); hdr.h.a : exact;",
     "const entries = { " + " ".join(f"({i}, 1) : set(1);" for i in range(32)) + " }", "code"),
    ("hdr.h.w ++ hdr.h.w ++ hdr.h.w ++ hdr.h.w : exact @name(\"x\"); hdr.h.a : exact;",
     "const entries = { " + " ".join(f"({i}, 1) : set(1);" for i in range(33)) + " }", "cuckoo"),
])
def test_which_const_entries_are_compiled(tmp_path: Path, keys: str, entries: str, structure: str):
    found, _ = structures(tmp_path, table(keys, entries), "t.apply();")
    assert found == {"Ing.t": structure}


def test_keys_are_control_plane_names(tmp_path: Path):
    found, reports = structures(tmp_path, """
        action set(bit<8> v) { hdr.h.a = v; }
        @name(".routes") table t { key = { hdr.h.w : lpm; } actions = { set; } size = SIZE; }
        @name("inner") table u { key = { hdr.h.a : exact; } actions = { set; } }
        Sub() sub;
    """, "t.apply(); u.apply(); sub.apply(hdr);", globals="""
        const int SIZE = 4096;
        control Sub(inout headers_t hdr) {
            action set_b(bit<8> v) { hdr.h.b = v; }
            table s { key = { hdr.h.b : ternary; } actions = { set_b; } }
            apply { s.apply(); }
        }
    """)
    assert found == {"routes": "dir-24-8", "Ing.inner": "cuckoo", "Sub.s": "tss", "Ing.sub.s": "tss"}
    assert any(r.startswith("table-structures: table routes: dir-24-8 (lpm 16 bits, size 4096) (")
               for r in reports)


def test_choose_structure_says_why(tmp_path: Path):
    program = load(tmp_path, v1model("t.apply();", table("hdr.h.a : exact; hdr.h.w : lpm;")))
    assert choose_structure(the(program, "t", ir.Table)) == ("tss-lpm", "exact 8 bits, lpm 16 bits")


def test_the_switch_builds_the_chosen_structure(tmp_path: Path):
    source = v1model("t.apply(); u.apply(); c.apply();", table("hdr.h.w : lpm;") + """
        table u { key = { hdr.h.a : ternary; } actions = { NoAction; } }
        table c { key = { hdr.h.b : exact; } actions = { set; } const entries = { 7 : set(3); } }
    """)
    program = load(tmp_path, source)
    chosen = generate_c(program, source, Diagnostics())["datapath.c"]
    assert '{ "Ing.t",' in chosen and ", P4ODP_TABLE_DIR24, -1," in chosen and ", P4ODP_TABLE_TSS, -1," in chosen
    # The const entries are matched by the generated C: two lookups go to the runtime, not three.
    assert ", P4ODP_TABLE_CODE, -1," in chosen and len(re.findall(r"p4_table_lookup(_int)?(_burst)?\(pc, \d", chosen)) == 2
    assert "case UINT64_C(7):" in chosen
    # Without the pass the runtime picks from the match kinds itself.
    deferred = generate_c(program, source, Diagnostics(), PassOptions(skip=["table-structures"]))["datapath.c"]
    assert ", P4ODP_TABLE_AUTO, -1," in deferred and "P4ODP_TABLE_DIR24" not in deferred


def test_a_second_lpm_key_is_an_error(tmp_path: Path):
    program = load(tmp_path, v1model("t.apply();", table("hdr.h.w : lpm; hdr.h.a : lpm;")))
    diags = Diagnostics()
    assert PassManager([TableStructures()]).run(program, diags).program is None
    [error] = diags.items
    assert error.message == "table Ing.t: a second lpm key; a table matches one prefix at most (as on BMv2)"
    assert error.loc.line > 0
