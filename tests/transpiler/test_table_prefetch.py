"""table-prefetch: which tables' keys are read from the packet, and the C the generator prints for
them (which tables: golden/table-prefetch.p4; behaviour: tests/packets/big_table.stf)."""

from __future__ import annotations

from pathlib import Path

from midend_snippets import REPO, load

from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import PassOptions, midend


def big(example: str) -> str:
    """The example's P4 with its table declared a million entries big."""
    return (REPO / "examples" / example / f"{example}.p4").read_text().replace("size = 1024;", "size = 1 << 20;")


def prefetch(tmp_path: Path, source: str) -> dict:
    result = midend(load(tmp_path, source), Diagnostics(), PassOptions(validate=True))
    return {result.table_layouts[name].name: parts for name, parts in result.table_prefetch.items()}


def test_the_keys_of_big_tables_are_read_from_the_packet(tmp_path: Path):
    # l2fwd: the destination MAC, the first 6 bytes; l3fwd: the IPv4 destination after 14 + 16 bytes.
    assert prefetch(tmp_path, big("l2fwd")) == {"L2Ingress.dmac": ((0, 0, 6),)}
    assert prefetch(tmp_path, big("l3fwd")) == {"L3Ingress.ipv4_lpm": ((0, 30, 4),)}
    # As the examples are, 1,024 entries: l2fwd's cuckoo hash stays in the caches; l3fwd's
    # DIR-24-8 has 2^24 first-level slots whatever its size.
    assert prefetch(tmp_path, (REPO / "examples/l2fwd/l2fwd.p4").read_text()) == {}
    assert prefetch(tmp_path, (REPO / "examples/l3fwd/l3fwd.p4").read_text()) == {"L3Ingress.ipv4_lpm": ((0, 30, 4),)}


def test_the_generator_prefetches_the_burst_s_keys_from_the_packet_bytes(tmp_path: Path):
    source = str(tmp_path / "l3fwd.p4")
    c = generate_c(load(tmp_path, big("l3fwd")), source, Diagnostics())["datapath.c"]
    function = c[c.index("static void p4_prefetch("):]
    function = function[:function.index("\n}\n")]
    assert "if (len >= 34) {" in function
    assert "memcpy(key + 0, data + 30, 4);" in function
    assert "p4odp_prefetch_lookup(sw, 0, key);" in function
    assert ".prefetch = p4_prefetch," in c


def test_a_program_without_such_a_table_has_no_prefetch(tmp_path: Path):
    source = REPO / "examples/l2fwd/l2fwd.p4"
    c = generate_c(load(tmp_path, source.read_text()), str(source), Diagnostics())["datapath.c"]
    assert "p4_prefetch" not in c and ".prefetch" not in c
