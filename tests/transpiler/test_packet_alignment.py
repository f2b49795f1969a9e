"""packet-alignment: which parsers and deparsers have every header at a whole byte, and the C
the generator prints for their fields (behaviour: tests/packets and the STF suite)."""

from __future__ import annotations

from pathlib import Path

from midend_snippets import load, run, v1model

from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import PacketAlignment, PassOptions

NIBBLES = "header n_t { bit<4> x; }"


def aligned(tmp_path: Path, parser: str, globals: str = "") -> set:
    program = load(tmp_path, v1model(globals=globals, parser=parser))
    return run(program, [PacketAlignment()], PassOptions(validate=True)).byte_aligned


def test_whole_byte_headers_and_advances_keep_the_parser_and_deparser_aligned(tmp_path: Path):
    assert aligned(tmp_path, "state start { pkt.extract(hdr.h); pkt.advance(32); transition accept; }") == \
        {"P", "Dep"}


def test_an_advance_by_a_run_time_amount_or_a_nibble_header_is_not(tmp_path: Path):
    assert aligned(tmp_path, "state start { pkt.extract(hdr.h); pkt.advance((bit<32>)hdr.h.a); "
                             "transition accept; }") == {"Dep"}
    nibble = "state start { n_t n; pkt.extract(n); pkt.extract(hdr.h); transition accept; }"
    assert aligned(tmp_path, nibble, NIBBLES) == {"Dep"}
    assert aligned(tmp_path, "state start { pkt.extract<n_t>(_); pkt.extract(hdr.h); transition accept; }",
                   NIBBLES) == {"Dep"}


def test_fields_of_an_aligned_block_are_read_and_written_at_constant_offsets(tmp_path: Path):
    source = tmp_path / "prog.p4"
    program = load(tmp_path, v1model("hdr.h.setValid();"))  # deparsed whole, not in place
    c = generate_c(program, str(source), Diagnostics())["datapath.c"]
    assert "p4odp_load_bits(pc->data + pc->cursor / 8, 0 + 8, 8)" in c  # h.b: 8 bits after the header's start
    assert "p4odp_store_bits(pc->out + pc->out_bits / 8, 8, 8, " in c
    assert "pc->out_bits += 40;" in c  # the position moves once per header
    unaligned = load(tmp_path, v1model(globals=NIBBLES, parser="state start { n_t n; pkt.extract(n); "
                                                             "pkt.extract(hdr.h); transition accept; }"))
    c = generate_c(unaligned, str(source), Diagnostics())["datapath.c"]
    assert "p4odp_load_bits(pc->data, pc->cursor + 0 + 8, 8)" in c


def test_a_field_of_several_pieces_is_one_8_byte_load_where_the_length_check_covers_8_bytes(tmp_path: Path):
    """p4odp_load_bits reads a 6-byte field as 4 + 2 bytes; where the header's length check
    covers the 8 bytes from its first, p4odp_load_bits_in8 reads them at once; never past it."""
    globals = "header m_t { bit<48> x; bit<48> y; bit<8> z; }"  # 13 bytes
    parser = """state start {
        m_t m;
        pkt.extract(m);
        pkt.extract(hdr.h);
        hdr.h.a = (bit<8>)(m.x ^ m.y) ^ m.z;
        transition accept;
    }"""
    program = load(tmp_path, v1model(globals=globals, parser=parser))
    c = generate_c(program, str(tmp_path / "prog.p4"), Diagnostics())["datapath.c"]
    assert "p4odp_load_bits_in8(pc->data + pc->cursor / 8, 0, 48)" in c  # bytes 0-7 of 13
    assert "p4odp_load_bits(pc->data + pc->cursor / 8, 0 + 48, 48)" in c  # bytes 6-13: one past the header
    assert "p4odp_load_bits(pc->data + pc->cursor / 8, 0 + 48 + 48, 8)" in c  # one byte: one load anyway
