"""deparse-in-place: which programs' deparsers write only the fields they change, in the packet itself,
and the C the generator prints for them (behaviour: tests/packets/unchanged_packet.stf,
in_place_fields.stf, multicast.stf and the STF suite)."""

from __future__ import annotations

from pathlib import Path

import pytest
from midend_snippets import load, run, v1model

from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import DeparseInPlace, PassOptions

TWO_HEADERS = """\
#include <core.p4>
#include <v1model.p4>

header a_t {{ bit<8> t; bit<8> x; }}
header b_t {{ bit<16> y; }}
struct headers_t {{ a_t a; b_t b; }}
struct meta_t {{ bit<8> m; }}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
{parser}
}}
control VC(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    apply {{ {ingress} }}
}}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{ apply {{ }} }}
control CC(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control Dep(packet_out pkt, in headers_t hdr) {{ apply {{ {deparser} }} }}

V1Switch(P(), VC(), Ing(), Eg(), CC(), Dep()) main;
"""

IN_ORDER = """\
    state start { pkt.extract(hdr.a); transition select(hdr.a.t) { 1: b; default: accept; } }
    state b { pkt.extract(hdr.b); transition accept; }"""


def plan(tmp_path: Path, source: str):
    """{header: (offset, written fields)}, or None: deparsed whole."""
    found = run(load(tmp_path, source), [DeparseInPlace()], PassOptions(validate=True)).deparse_in_place
    return None if found is None else {".".join(path): (h.offset, set(h.written)) for path, h in found.items()}


def unchanged(tmp_path: Path, source: str) -> bool:
    found = plan(tmp_path, source)
    return found is not None and not any(written for _, written in found.values())


def two_headers(parser: str = IN_ORDER, ingress: str = "sm.egress_spec = 1;",
                deparser: str = "pkt.emit(hdr.a); pkt.emit(hdr.b);") -> str:
    return TWO_HEADERS.format(parser=parser, ingress=ingress, deparser=deparser)


def test_headers_read_and_emitted_in_the_same_order_and_never_written_leave_unchanged(tmp_path: Path):
    assert unchanged(tmp_path, v1model("sm.egress_spec = (bit<9>)hdr.h.a; meta.m = hdr.h.b;"))
    assert unchanged(tmp_path, two_headers())
    assert unchanged(tmp_path, two_headers(deparser="pkt.emit(hdr);"))  # a struct: its headers in order
    # A state reached on several paths, a header some paths skip.
    assert unchanged(tmp_path, two_headers(parser="""\
        state start { pkt.extract(hdr.a); transition select(hdr.a.t) { 1: b; 2: c; default: accept; } }
        state c { transition b; }
        state b { pkt.extract(hdr.b); transition accept; }"""))


@pytest.mark.parametrize("ingress, written", [
    ("hdr.h.a = 1;", {"a"}),
    ("hash(hdr.h.w, HashAlgorithm.crc16, 16w0, { hdr.h.a }, 16w100);", {"w"}),
    ("hdr.h.b[3:0] = 4w1; hdr.h.s = hdr.h.s + 1;", {"b", "s"}),
    ("h_t copy = hdr.h; copy.a = 2; meta.m = copy.a;", set()),  # a local copy is not the packet
])
def test_fields_written_are_written_in_place(tmp_path: Path, ingress: str, written: set):
    assert plan(tmp_path, v1model(ingress)) == {"h": (0, written)}


def test_a_field_is_written_where_every_parser_path_reads_its_header(tmp_path: Path):
    assert plan(tmp_path, two_headers(ingress="hdr.b.y = 7; hdr.a.x = 1;")) == {"a": (0, {"x"}), "b": (16, {"y"})}
    # b is after a 16-bit or a 32-bit prefix: it cannot be written, a can.
    skip = """\
        state start { pkt.extract(hdr.a); transition select(hdr.a.t) { 1: b; 2: c; default: accept; } }
        state c { pkt.extract(hdr.c); transition b; }
        state b { pkt.extract(hdr.b); transition accept; }"""
    three = two_headers(parser=skip, ingress="hdr.a.x = 1;", deparser="pkt.emit(hdr.a); pkt.emit(hdr.c); "
                                                                    "pkt.emit(hdr.b);")
    three = three.replace("struct headers_t { a_t a; b_t b; }", "struct headers_t { a_t a; b_t b; b_t c; }")
    assert plan(tmp_path, three) == {"a": (0, {"x"}), "c": (16, set()), "b": (None, set())}
    assert plan(tmp_path, three.replace("hdr.a.x = 1;", "hdr.b.y = 1;")) is None


@pytest.mark.parametrize("ingress", [
    "hdr.h.setInvalid();",
    "hdr.h.setValid();",
    "h_t copy = hdr.h; copy.a = 2; hdr.h = copy;",
    "hdr = { { 1, 2, 3, 4 } };",
])
def test_a_header_made_valid_invalid_or_written_whole_is_deparsed(tmp_path: Path, ingress: str):
    assert plan(tmp_path, v1model(ingress)) is None


@pytest.mark.parametrize("parser, deparser", [
    ("state start { pkt.extract(hdr.b); pkt.extract(hdr.a); transition accept; }",
     "pkt.emit(hdr.a); pkt.emit(hdr.b);"),  # read in another order than emitted
    (IN_ORDER, "pkt.emit(hdr.a);"),  # a header read is not emitted
    (IN_ORDER, "pkt.emit(hdr.a); if (hdr.a.t == 1) { pkt.emit(hdr.b); }"),  # the deparser decides
    (IN_ORDER, "pkt.emit(hdr.a); pkt.emit(hdr.b); pkt.emit(hdr.a);"),  # a header emitted twice
    ("state start { pkt.extract(hdr.a); pkt.advance(8); pkt.extract(hdr.b); transition accept; }",
     "pkt.emit(hdr.a); pkt.emit(hdr.b);"),  # bits skipped are not put back
    ("state start { a_t tmp; pkt.extract(tmp); pkt.extract(hdr.b); transition accept; }",
     "pkt.emit(hdr.a); pkt.emit(hdr.b);"),  # a header read into a local is dropped
    ("state start { pkt.extract(hdr.a); transition select(hdr.a.t) { 1: start; default: accept; } }",
     "pkt.emit(hdr.a);"),  # a loop reads a header twice
])
def test_a_parser_and_deparser_that_do_not_match_are_deparsed(tmp_path: Path, parser: str, deparser: str):
    assert plan(tmp_path, two_headers(parser=parser, deparser=deparser)) is None


def test_the_generator_writes_the_fields_written_in_the_packet_and_sends_it_as_it_is(tmp_path: Path):
    source = str(tmp_path / "prog.p4")
    c = generate_c(load(tmp_path, v1model("sm.egress_spec = 1;")), source, Diagnostics())["datapath.c"]
    egress = c[c.index("static bool p4_pipeline_egress"):]
    assert "p4_send(pc, copy->port, pc->data, " in egress and "uint8_t out[" not in egress
    assert "p4odp_store_bits" not in c[c.index("static inline void p4_deparser"):]
    c = generate_c(load(tmp_path, v1model("hdr.h.b = 1;")), source, Diagnostics())["datapath.c"]
    deparser = c[c.index("static inline void p4_deparser"):c.index("static bool p4_pipeline_egress")]
    assert "p4odp_store_bits(pc->data, 8, 8, (uint64_t)(*hdr).h.b);" in deparser
    assert deparser.count("p4odp_store_bits") == 1
    c = generate_c(load(tmp_path, v1model("hdr.h.setInvalid();")), source, Diagnostics())["datapath.c"]
    egress = c[c.index("static bool p4_pipeline_egress"):]
    assert "p4_deparser(pc, &p->hdr);" in egress and "p4_send(pc, copy->port, out, " in egress
