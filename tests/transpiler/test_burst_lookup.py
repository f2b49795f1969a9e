"""burst-lookup: which tables' keys are read from the packet, and the C the generator prints for
them (which tables: golden/burst-lookup.p4; behaviour: tests/packets/big_table.stf and
tests/backend/test_burst_forwarding.py)."""

from __future__ import annotations

from pathlib import Path

from midend_snippets import REPO, load

from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import PassOptions, midend


def sized(example: str, size: str) -> str:
    """The example's P4 with its table declared `size` entries big."""
    return (REPO / "examples" / example / f"{example}.p4").read_text().replace("size = 1024;", f"size = {size};")


def burst_lookups(tmp_path: Path, source: str) -> dict:
    result = midend(load(tmp_path, source), Diagnostics(), PassOptions(validate=True))
    return {result.table_layouts[name].name: parts for name, parts in result.burst_lookups.items()}


def generated(tmp_path: Path, source: str) -> str:
    return generate_c(load(tmp_path, source), str(tmp_path / "prog.p4"), Diagnostics())["datapath.c"]


def function(c: str, head: str) -> str:
    body = c[c.index(head):]
    return body[:body.index("\n}\n")]


def test_the_keys_of_tables_beyond_the_first_level_cache_are_read_from_the_packet(tmp_path: Path):
    # l2fwd: the source MAC, bytes 6 to 11, and the destination MAC, the first 6 bytes; l3fwd: the
    # IPv4 destination after 14 + 16 bytes.
    assert burst_lookups(tmp_path, sized("l2fwd", "1024")) == {"L2Ingress.smac": ((0, 6, 6),),
                                                               "L2Ingress.dmac": ((0, 0, 6),)}
    assert burst_lookups(tmp_path, sized("l3fwd", "1024")) == {"L3Ingress.ipv4_lpm": ((0, 30, 4),)}
    # 256 entries: l2fwd's cuckoo hash stays in the first-level cache; l3fwd's DIR-24-8 has 2^24
    # first-level slots whatever its size.
    assert burst_lookups(tmp_path, sized("l2fwd", "256")) == {}
    assert burst_lookups(tmp_path, sized("l3fwd", "256")) == {"L3Ingress.ipv4_lpm": ((0, 30, 4),)}


def test_the_burst_s_integer_keys_are_read_from_the_packet_bytes_and_taken_back_by_the_pipeline(tmp_path: Path):
    c = generated(tmp_path, sized("l3fwd", "1024"))
    stage = function(c, "static void p4_lookup_burst(")
    assert "uint32_t len = odp_packet_seg_len(pkts[i]);" in stage
    assert "len < 34 ? 0 :" in stage  # the bytes in one piece at data
    assert "p4odp_load_bits_in8(data + 30, 0, 32) << 0;" in stage
    assert ("p4odp_table_apply_burst_int(sw, 0, P4ODP_TABLE_DIR24, 4, ws->tbl_L3Ingress_ipv4_lpm_burst_keys, n,"
            in stage)
    assert "uint64_t tbl_L3Ingress_ipv4_lpm_burst_keys[P4ODP_BURST];" in c
    assert "const struct p4odp_table_entry *tbl_L3Ingress_ipv4_lpm_burst_entries[P4ODP_BURST];" in c
    assert ("p4_table_lookup_int_burst(pc, 0, P4ODP_TABLE_DIR24, 4, key, "
            "WORKER_STATE->tbl_L3Ingress_ipv4_lpm_burst_keys, WORKER_STATE->tbl_L3Ingress_ipv4_lpm_burst_entries, "
            "&hit") in c
    assert ".lookup_burst = p4_lookup_burst," in c


def test_keys_of_several_fields_are_shifted_into_place(tmp_path: Path):
    source = (REPO / "tests" / "transpiler" / "golden" / "burst-lookup.p4").read_text()
    stage = function(generated(tmp_path, source), "static void p4_lookup_burst(")
    # pairs: ip.src (4 bytes at 26) then ip.tos (1 byte at 15), a 5-byte key.
    assert "p4odp_load_bits_in8(data + 26, 0, 32) << 8" in stage
    assert "| p4odp_load_bits_in8(data + 15, 0, 8) << 0;" in stage


def test_the_integer_keys_of_several_tables_are_read_and_hashed_in_one_pass_and_found_in_another(tmp_path: Path):
    stage = function(generated(tmp_path, sized("l2fwd", "1024")), "static void p4_lookup_burst(")
    assert stage.count("for (uint32_t i = 0; i < n; i++)") == 2
    assert stage.count("odp_packet_data(pkts[i])") == 1
    begin = stage.index("p4odp_cuckoo_burst_begin(&hash1, p4odp_table_of(sw, 1));")
    smac = stage.index("ws->tbl_L2Ingress_smac_burst_keys[i] = len < 12 ? 0 :")
    smac_hashed = stage.index("p4odp_cuckoo_burst_locate(&hash0, i, 6, ws->tbl_L2Ingress_smac_burst_keys[i]);")
    dmac = stage.index("ws->tbl_L2Ingress_dmac_burst_keys[i] = len < 6 ? 0 :")
    dmac_hashed = stage.index("p4odp_cuckoo_burst_locate(&hash1, i, 6, ws->tbl_L2Ingress_dmac_burst_keys[i]);")
    second_pass = stage.index("for (uint32_t i = 0; i < n; i++)", dmac_hashed)
    found = stage.index("ws->tbl_L2Ingress_smac_burst_entries[i] = p4odp_cuckoo_burst_find(&hash0, i);")
    assert begin < smac < smac_hashed < dmac < dmac_hashed < second_pass < found
    assert "p4odp_table_apply_burst_int(" not in stage  # every table is a cuckoo hash


def test_keys_over_8_bytes_are_copied_as_bytes(tmp_path: Path):
    source = sized("l2fwd", "1024").replace("hdr.ethernet.dstAddr : exact;",
                                            "hdr.ethernet.dstAddr : exact; hdr.ethernet.srcAddr : exact;")
    c = generated(tmp_path, source)
    stage = function(c, "static void p4_lookup_burst(")
    assert "memcpy(key + 0, data + 0, 6);" in stage and "memcpy(key + 6, data + 6, 6);" in stage
    assert "p4odp_table_apply_burst(sw, 1, keys, n, ws->tbl_L2Ingress_dmac_burst_entries);" in stage  # smac is 0
    assert "uint8_t tbl_L2Ingress_dmac_burst_keys[P4ODP_BURST][12];" in c
    assert "p4_table_lookup_burst(pc, 1, key, 12, WORKER_STATE->tbl_L2Ingress_dmac_burst_keys," in c


def test_a_program_without_such_a_table_has_no_burst_lookup(tmp_path: Path):
    c = generated(tmp_path, sized("l2fwd", "256"))
    assert "static void p4_lookup_burst(" not in c and ".lookup_burst" not in c and "_burst_keys" not in c
