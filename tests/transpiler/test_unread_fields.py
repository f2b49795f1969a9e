"""unread-fields: which header fields the parser leaves unloaded because nothing reads them, and the
C the generator prints for them (behaviour: tests/packets, where every program runs with the pass,
and the STF suite)."""

from __future__ import annotations

from pathlib import Path

from midend_snippets import load, run
from test_deparse_in_place import two_headers

from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import DeparseInPlace, PassOptions, UnreadFields


def unread(tmp_path: Path, source: str) -> dict:
    """{header type: unread fields}, after deparse-in-place as in the default passes."""
    found = run(load(tmp_path, source), [DeparseInPlace(), UnreadFields()], PassOptions(validate=True)).unread_fields
    return {name: set(fields) for name, fields in found.items()}


def test_a_field_only_the_parser_selects_on_is_loaded_and_the_others_are_not(tmp_path: Path):
    # a.t is read by the select; nothing reads a.x or b.y, and the deparser writes nothing.
    assert unread(tmp_path, two_headers()) == {"a_t": {"x"}, "b_t": {"y"}}


def test_reads_in_expressions_keys_and_compound_assignments_keep_a_field(tmp_path: Path):
    assert unread(tmp_path, two_headers(ingress="sm.egress_spec = (bit<9>)hdr.a.x;")) == {"b_t": {"y"}}
    assert unread(tmp_path, two_headers(ingress="hdr.b.y = hdr.b.y + 1;")) == {"a_t": {"x"}}
    assert unread(tmp_path, two_headers(ingress="hdr.b.y[3:0] = 1;")) == {"a_t": {"x"}}
    table = """
    action set(bit<9> p) { sm.egress_spec = p; }
    table t { key = { hdr.a.x : exact; } actions = { set; } }
"""
    source = two_headers(ingress="t.apply();").replace("    apply { t.apply(); }", table + "    apply { t.apply(); }")
    assert "table t" in source and unread(tmp_path, source) == {"b_t": {"y"}}


def test_a_field_written_in_place_is_loaded_and_one_written_under_a_whole_deparser_is_not(tmp_path: Path):
    # In place, the deparser stores b.y from the struct: when the write does not run, that is the
    # packet's value, so it must be loaded.
    assert unread(tmp_path, two_headers(ingress="if (hdr.a.t == 2) { hdr.b.y = 7; }")) == {"a_t": {"x"}}
    # Emitted whole (the emit order differs from the parser's), every emitted field is read.
    assert unread(tmp_path, two_headers(deparser="pkt.emit(hdr.b); pkt.emit(hdr.a);")) == {}


def test_a_header_used_whole_keeps_every_field(tmp_path: Path):
    source = two_headers(ingress="headers_t copy = hdr; if (copy.a.isValid()) { sm.egress_spec = 2; }")
    assert unread(tmp_path, source) == {}
    # Validity alone reads no field.
    assert unread(tmp_path, two_headers(ingress="if (hdr.b.isValid()) { sm.egress_spec = 2; }")) == \
        {"a_t": {"x"}, "b_t": {"y"}}


def test_the_generated_parser_skips_the_unread_fields_but_keeps_the_offsets(tmp_path: Path):
    source = two_headers(ingress="sm.egress_spec = (bit<9>)hdr.b.y;")
    program = load(tmp_path, source)
    c = generate_c(program, source, Diagnostics())["datapath.c"]
    assert "(*hdr).a.x =" not in c and "(*hdr).a.t =" in c
    # b.y is still found after a's 16 bits.
    assert "(*hdr).b.y = p4odp_load_bits(pc->data + pc->cursor / 8, 0, 16);" in c
    skipped = generate_c(program, source, Diagnostics(), PassOptions(skip=["unread-fields"]))["datapath.c"]
    assert "(*hdr).a.x =" in skipped



def test_checksum_fields_summed_from_the_packet_bytes_are_not_loaded(tmp_path: Path):
    source = (Path(__file__).resolve().parents[1] / "packets" / "checksum.p4").read_text()
    # The IPv4 checksum adds the packet's bytes for every word but TTL and protocol (TTL is
    # written), and the deparser stores TTL and the checksum from the struct.
    assert unread(tmp_path, source)["ipv4_t"] == {"version", "ihl", "diffserv", "totalLen", "identification",
                                                  "flags", "fragOffset", "srcAddr", "dstAddr"}
    # Without the version, verify_checksum's words are no longer the packet's: it sums field values.
    shifted = source.replace("{ hdr.ipv4.version, hdr.ipv4.ihl,", "{ hdr.ipv4.ihl,", 1)
    assert unread(tmp_path, shifted)["ipv4_t"] == {"version"}


def metadata_read(tmp_path: Path, source: str):
    found = run(load(tmp_path, source), [DeparseInPlace(), UnreadFields()], PassOptions(validate=True)).metadata_read
    return None if found is None else set(found)


def test_the_standard_metadata_fields_read_are_the_only_ones_the_pipeline_sets(tmp_path: Path):
    assert metadata_read(tmp_path, two_headers()) == set()  # egress_spec is only written
    assert metadata_read(tmp_path, two_headers(ingress="if (sm.ingress_port == 1) { mark_to_drop(sm); }")) == \
        {"ingress_port"}  # mark_to_drop only writes its argument
    assert metadata_read(tmp_path, two_headers(ingress="sm.egress_spec = sm.egress_spec + 1;")) == {"egress_spec"}
    # Used whole, it may read any field.
    assert metadata_read(tmp_path, two_headers(ingress="standard_metadata_t copy = sm; sm.egress_spec = "
                                                       "copy.egress_port;")) is None
    c = generate_c(load(tmp_path, two_headers()), two_headers(), Diagnostics())["datapath.c"]
    assert "p->std.ingress_port" not in c and "p->std.instance_type" not in c and "p->std.mcast_grp = 0;" in c
