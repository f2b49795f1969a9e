"""csum16 checksums: which words the generated C reads from the packet's bytes and which it builds
from field values (behaviour: tests/packets/checksum.stf, checksum_fields.stf and the STF suite)."""

from __future__ import annotations

import re
from pathlib import Path

from midend_snippets import load

from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import PassOptions

PACKETS = Path(__file__).resolve().parents[1] / "packets"


def checksum_c(tmp_path: Path, source: str, options: PassOptions = None) -> list[str]:
    """The generated C of verify_checksum and compute_checksum, in that order."""
    c = generate_c(load(tmp_path, source), source, Diagnostics(), options)["datapath.c"]
    return [re.search(rf"static inline void p4_{block}\(.*?\n}}\n", c, re.S).group(0)
            for block in ("verify_checksum", "compute_checksum")]


def test_ipv4_words_of_fields_nothing_writes_come_from_the_packet(tmp_path: Path):
    verify, compute = checksum_c(tmp_path, (PACKETS / "checksum.p4").read_text())
    for block in (verify, compute):
        # IPv4 after 14 bytes of Ethernet: its first 8 bytes, then the addresses (bytes 12-19);
        # the word of TTL (written by ingress) and protocol from the fields; hdrChecksum is not summed.
        assert "p4odp_csum16_acc(acc" in block and "pc->data + 14, 8)" in block and "pc->data + 26, 8)" in block
        fast, invalid = block.rsplit("} else {", 1)
        assert ".ipv4.ttl)" in fast and ".ipv4.protocol)" in fast and ".ipv4.srcAddr)" not in fast
        # An invalid header is not in the packet: its fields are summed.
        assert ".ipv4.srcAddr)" in invalid
        # The sum of the packet's bytes is kept for the other checksum of the same bytes, and taken
        # from there when the other one kept it.
        assert "if (pc->csum_known & 0x1)" in fast and "= pc->csum_runs[0];" in fast
        assert "pc->csum_runs[0] = sum" in fast and "pc->csum_known |= 0x1;" in fast


def test_fields_out_of_packet_order_and_unaligned_words_come_from_values(tmp_path: Path):
    source = (PACKETS / "checksum.p4").read_text()
    # The addresses swapped: still whole words of the packet, in another order (the sum is the same).
    swapped = source.replace("hdr.ipv4.srcAddr, hdr.ipv4.dstAddr }", "hdr.ipv4.dstAddr, hdr.ipv4.srcAddr }")
    verify, _ = checksum_c(tmp_path, swapped)
    assert "pc->data + 30, 4)" in verify and "pc->data + 26, 4)" in verify
    # verify_checksum without the version: every later field's bits move by 4 in the list, no word
    # is the packet's; update_checksum keeps its whole list.
    shifted = source.replace("{ hdr.ipv4.version, hdr.ipv4.ihl,", "{ hdr.ipv4.ihl,", 1)
    verify, compute = checksum_c(tmp_path, shifted)
    assert "p4odp_csum16_acc" not in verify and "p4odp_csum16_acc" in compute


def test_without_the_in_place_deparser_every_word_comes_from_values(tmp_path: Path):
    source = (PACKETS / "checksum.p4").read_text()
    for block in checksum_c(tmp_path, source, PassOptions(skip=["deparse-in-place"])):
        assert "p4odp_csum16_acc" not in block and ".ipv4.srcAddr)" in block
