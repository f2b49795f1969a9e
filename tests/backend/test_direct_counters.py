"""Direct counters (`counters = c;` on a table): each hit of an entry counted in the cell of that
entry, read, written and reset by entry handle as on simple_switch_CLI, started from 0 again for
an entry that takes a deleted one's index, and bad lines refused with their place."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, compile_program, one_header_program, run_with_commands

from p4odp.stf.pcap import read_packets

TABLE = """\
    direct_counter(CounterType.packets_and_bytes) hits;
    action set(bit<8> v) { hdr.h.v = v; hits.count(); }
    action keep() { }
    table t {
        key = { hdr.h.k : exact; }
        actions = { set; keep; }
        default_action = keep();
        counters = hits;
        size = 2;  // so that an added entry takes a deleted one's index
    }"""
PROGRAM = one_header_program("bit<8> k; bit<8> v;", "        t.apply();\n        sm.egress_spec = 1;",
                             ingress_locals=TABLE)
FRAME_LEN = 14


def frame(k: int) -> bytes:
    return bytes([k, 0]) + bytes(FRAME_LEN - 2)


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("direct"), PROGRAM, "direct.p4")


def test_hits_are_counted_per_entry_and_misses_not_at_all(switch: Path, tmp_path: Path):
    frames = [frame(1), frame(2), frame(1), frame(9), frame(1)]
    run = run_with_commands(switch, tmp_path, "table_add t set 1 => 0x11\ntable_add t set 2 => 0x22\n" +
               "receive 0\n" * len(frames) + "counter_read hits 0\ncounter_read hits 1\n", frames)
    assert run.returncode == 0, run.stderr
    told = "this is the direct counter for table Ing.t"
    assert run.stdout.splitlines() == [
        "Entry has been added with handle 0", "Entry has been added with handle 1",
        told, f"hits[0]= ({3 * FRAME_LEN} bytes, 3 packets)",
        told, f"hits[1]= ({FRAME_LEN} bytes, 1 packets)"]
    assert [p[1] for p in read_packets(str(tmp_path / "out.pcap"))] == [0x11, 0x22, 0x11, 0, 0x11]


def test_a_new_entry_in_a_deleted_ones_index_starts_from_zero(switch: Path, tmp_path: Path):
    reused = 1 << 32 | 0  # index 0 in its second use
    run = run_with_commands(switch, tmp_path, "table_add t set 1 => 0x11\ntable_add t set 2 => 0x22\nreceive 0\n"
                                 f"table_delete t 0\ntable_add t set 3 => 0x33\ncounter_read hits {reused}\n"
                                 f"counter_write hits {reused} 7 700\ncounter_read hits {reused}\n"
                                 f"counter_reset hits\ncounter_read hits {reused}\n", [frame(1)])
    assert run.returncode == 0, run.stderr
    told = "this is the direct counter for table Ing.t"
    assert run.stdout.splitlines() == [
        "Entry has been added with handle 0", "Entry has been added with handle 1",
        f"Entry has been added with handle {reused}",
        told, f"hits[{reused}]= (0 bytes, 0 packets)",
        "writing to direct counter for table Ing.t",
        told, f"hits[{reused}]= (700 bytes, 7 packets)",
        told, told, f"hits[{reused}]= (0 bytes, 0 packets)"]


@pytest.mark.parametrize("line, message", [
    ("counter_read hits 5", "table Ing.t has no entry with handle 5"),
    ("counter_read hits -1", "'-1' is not an entry handle"),
    ("counter_write hits 7 1 1", "table Ing.t has no entry with handle 7"),
])
def test_a_bad_handle_is_refused_with_its_place(switch: Path, tmp_path: Path, line: str, message: str):
    run = run_with_commands(switch, tmp_path, f"table_add t set 1 => 0x11\n{line}\n", [frame(1)])
    assert run.returncode != 0 and f"commands.txt:2: error: {message}" in run.stderr, run.stderr


def test_counters_naming_anything_but_a_direct_counter_are_refused(tmp_path: Path):
    source = PROGRAM.replace("direct_counter(CounterType.packets_and_bytes) hits;",
                             "counter(4, CounterType.packets) hits;").replace("hits.count();", "")
    build = compile_program(tmp_path, source, "bad.p4")
    assert build.returncode != 0
    assert "bad.p4:" in build.stderr and "a table's counters other than a direct_counter instance" in build.stderr
