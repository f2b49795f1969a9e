"""Meters (v1model's meter and direct_meter) on a running switch: the colours BMv2's two-rate
three-colour marker gives the packets once the commands (simple_switch_CLI's meter_set_rates,
meter_array_set_rates) set the rates, what meter_get_rates prints, and bad lines refused with the
line's place.  The rates are so low (one token per 1,000 s) that only the bursts count, which
makes the colours exact."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, compile_program, one_header_program, run_with_commands

from p4odp.stf.pcap import read_packets

# Each packet: h.pkt its colour through packet meter mp[0], h.byte through byte meter mb[0], h.over
# through mp[5] (past the end), h.direct through the direct meter of table t (key h.src), whose
# default action reads it too: on a miss h.direct keeps the frame's value.
PROGRAM = one_header_program("bit<8> pkt; bit<8> byte; bit<8> over; bit<8> direct; bit<48> src;", """\
        mp.execute_meter((bit<32>) 0, hdr.h.pkt);
        mb.execute_meter((bit<32>) 0, hdr.h.byte);
        mp.execute_meter((bit<32>) 5, hdr.h.over);
        t.apply();
        sm.egress_spec = 1;""", ingress_locals="""\
    meter(2, MeterType.packets) mp;
    meter(1, MeterType.bytes) mb;
    direct_meter<bit<8>>(MeterType.packets) dm;
    action read_dm() { dm.read(hdr.h.direct); }
    table t {
        key = { hdr.h.src: exact; }
        actions = { read_dm; }
        default_action = read_dm;
        meters = dm;
        size = 2;
    }""")

SLOW = "0.000000001"  # units per microsecond: one per 1,000 s


def _frame(src: int) -> bytes:
    """20 bytes: the header (h.direct 0x33), then 10 of payload."""
    return bytes([0x11, 0x22, 0x44, 0x33]) + src.to_bytes(6, "big") + bytes(10)


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("meters"), PROGRAM, "meters.p4")


def test_colours_follow_the_buckets_as_on_bmv2(switch: Path, tmp_path: Path):
    run = run_with_commands(switch, tmp_path, f"""\
meter_set_rates mp 0 {SLOW}:2 {SLOW}:3
meter_array_set_rates mb {SLOW}:20 {SLOW}:100
table_add t read_dm 1 =>
table_add t read_dm 2 =>
meter_set_rates dm 0 {SLOW}:1 {SLOW}:2
""", [_frame(1)] * 5 + [_frame(2)] * 2 + [_frame(3)])
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    # Packet meter (peak burst 3, committed 2): green while both buckets have a token, yellow while
    # the peak one has, then red.  Byte meter (20-byte packets; 100 and 20 bytes): green, then
    # yellow for the peak bucket's next 4 packets, then red.  mp[5] does not exist: green.
    assert [p[0] for p in out] == [0, 0, 1, 2, 2, 2, 2, 2]
    assert [p[1] for p in out] == [0, 1, 1, 1, 1, 2, 2, 2]
    assert [p[2] for p in out] == [0] * 8
    # Entry 0 (src 1; bursts 2 and 1), entry 1 (src 2) without rates: green; src 3 misses.
    assert [p[3] for p in out] == [0, 1, 2, 2, 2, 0, 0, 0x33]


def test_an_unconfigured_meter_is_green(switch: Path, tmp_path: Path):
    run = run_with_commands(switch, tmp_path, "table_add t read_dm 1 =>\n", [_frame(1)] * 4)
    assert run.returncode == 0, run.stderr
    assert {p[:4] for p in read_packets(str(tmp_path / "out.pcap"))} == {bytes(4)}


def test_meter_get_rates_prints_as_simple_switch_cli(switch: Path, tmp_path: Path):
    run = run_with_commands(switch, tmp_path, """\
meter_set_rates mp 0 0.5:1000 2:3000
meter_get_rates mp 0
meter_get_rates mp 1
meter_array_set_rates Ing.mb 0.0001:1 123.456:2
meter_get_rates mb 0
meter_set_rates mp 1 1e-05:7 10000000:8
meter_get_rates mp 1
table_add t read_dm 1 =>
meter_get_rates dm 0
meter_set_rates dm 0 0:0 0:0
meter_get_rates dm 0
""", [])
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "0: info rate = 0.5, burst size = 1000",
        "1: info rate = 2.0, burst size = 3000",
        "WARNING: expected 2 rates but only received 0",
        "0: info rate = 0.0001, burst size = 1",
        "1: info rate = 123.456, burst size = 2",
        "0: info rate = 1e-05, burst size = 7",
        "1: info rate = 10000000.0, burst size = 8",
        "Entry has been added with handle 0",
        "WARNING: expected 2 rates but only received 0",
        "0: info rate = 0.0, burst size = 0",
        "1: info rate = 0.0, burst size = 0",
    ]


def test_an_entry_in_the_place_of_a_deleted_one_has_its_direct_meter_unset(switch: Path, tmp_path: Path):
    # Bursts of 0: every packet of entry 0 red.  The table holds 2 entries: the third add takes the
    # entry index (and meter cell) the delete freed, with a handle of the next generation (2^32).
    run = run_with_commands(switch, tmp_path, f"""\
table_add t read_dm 1 =>
meter_set_rates dm 0 {SLOW}:0 {SLOW}:0
table_delete t 0
table_add t read_dm 2 =>
table_add t read_dm 1 =>
meter_get_rates dm 4294967296
""", [_frame(1)])
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[:4] == ["Entry has been added with handle 0", "Entry has been added with handle 1",
                                           "Entry has been added with handle 4294967296",
                                           "WARNING: expected 2 rates but only received 0"]
    assert read_packets(str(tmp_path / "out.pcap"))[0][3] == 0


@pytest.mark.parametrize("line, message", [
    ("meter_set_rates mp 2 1:1 2:2", "index 2 is out of range for meter Ing.mp of size 2"),
    ("meter_set_rates mp 0 2:1 1:2", "the committed rate 2:1 is above the peak rate 1:2"),
    ("meter_set_rates mp 0 x:1 1:2", "'x:1' is not RATE:BURST"),
    ("meter_set_rates mp 0 -1:1 1:2", "'-1:1' is not RATE:BURST"),
    ("meter_set_rates mp 0 nan:1 1:2", "'nan:1' is not RATE:BURST"),
    ("meter_set_rates mp 0 1:-1 1:2", "'1:-1' is not RATE:BURST"),
    ("meter_set_rates mp 0 1 1:2", "'1' is not RATE:BURST"),
    ("meter_set_rates mp 0 1:1", "usage: meter_set_rates METER INDEX CIR:CBS PIR:PBS"),
    ("meter_set_rates dm 7 1:1 1:1", "table Ing.t has no entry with handle 7"),
    ("meter_array_set_rates nothing 1:1 1:1", "no meter named 'nothing'"),
    ("meter_get_rates mp", "usage: meter_get_rates METER INDEX"),
])
def test_a_bad_line_is_refused_with_its_place_and_changes_nothing(switch: Path, tmp_path: Path, line: str,
                                                                   message: str):
    run = run_with_commands(switch, tmp_path, f"meter_set_rates mp 0 {SLOW}:1 {SLOW}:1\n{line}\n", [])
    assert run.returncode != 0 and f"commands.txt:2: error: {message}" in run.stderr, run.stderr


def test_direct_meter_read_outside_its_tables_actions_is_refused(tmp_path: Path):
    source = one_header_program("bit<8> c;", "dm.read(hdr.h.c);", ingress_locals="""\
    direct_meter<bit<8>>(MeterType.packets) dm;""")
    build = compile_program(tmp_path, source, "stray.p4")
    assert build.returncode != 0
    assert "stray.p4:13:4: error: dm.read() outside the actions of the table" in build.stderr, build.stderr
