"""Burst lookups (the burst-lookup pass) end to end: the traffic manager looks up the keys of a
whole burst received before the pipeline runs, and the pipeline takes a packet's entry from there
only when the key it builds is the same.  Frames in bursts of many packets (a pcap read 32 at a
time) must leave exactly as a per-packet lookup sends them: hits and misses, integer keys in a
cuckoo hash and a DIR-24-8, a 12-byte key, a key the program changes before its lookup, a frame
too short for the key, entries of the same key in consecutive packets."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from p4odp.stf.pcap import read_packets, write_pcap

REPO = Path(__file__).resolve().parents[2]
PORTS = 8

PROGRAM = """
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header ipv4_t { bit<8> vihl; bit<8> tos; bit<16> len; bit<64> middle; bit<32> src; bit<32> dst; }
struct headers_t { ethernet_t eth; ipv4_t ip; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) { 0x0800: ip; default: accept; }
    }
    state ip { pkt.extract(hdr.ip); transition accept; }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action to(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table macs { key = { hdr.eth.dst : exact; } actions = { to; drop; } default_action = drop(); size = 4096; }
    table routes { key = { hdr.ip.dst : lpm; } actions = { to; drop; } default_action = drop(); size = 4096; }
    table pairs {
        key = { hdr.eth.dst : exact; hdr.eth.src : exact; }
        actions = { to; NoAction; }
        default_action = NoAction();
        size = 4096;
    }
    apply {
        // The key of `macs` is no longer the received bytes: the burst's lookup must not be used.
        if (hdr.eth.type == 0x88b6) { hdr.eth.dst = 2; }
        if (hdr.ip.isValid()) { routes.apply(); } else { macs.apply(); }
        pairs.apply();
    }
}

control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.ip); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""

MACS = {0: 5, 1: 1, 2: 2, 3: 3}  # MAC 0 is the key of a frame too short for Ethernet
ROUTES = [(0x0A010000, 16, 1), (0x0A010200, 24, 2), (0x0B000000, 8, 3)]
PAIRS = {(3, 9): 6}


def expected(frame: bytes):
    """Where the program sends a frame, by the tables' entries above (None: dropped), and as what."""
    valid_eth = len(frame) >= 14
    dst = int.from_bytes(frame[0:6], "big") if valid_eth else 0
    src = int.from_bytes(frame[6:12], "big") if valid_eth else 0
    ether_type = int.from_bytes(frame[12:14], "big") if valid_eth else 0
    if ether_type == 0x88B6:
        dst = 2
        frame = dst.to_bytes(6, "big") + frame[6:]
    if ether_type == 0x0800 and len(frame) >= 34:
        address = int.from_bytes(frame[30:34], "big")
        matches = [(length, port) for prefix, length, port in ROUTES
                   if address >> (32 - length) == prefix >> (32 - length)]
        port = max(matches)[1] if matches else None
    else:
        port = MACS.get(dst)
    return PAIRS.get((dst, src), port), frame


def frames(rng: random.Random) -> list[bytes]:
    made = []
    for _ in range(400):
        kind = rng.randrange(6)
        dst, src = rng.choice([1, 2, 3, 4, 0x0200000000AB]), rng.choice([9, 10])
        eth = dst.to_bytes(6, "big") + src.to_bytes(6, "big")
        if kind == 0:  # IPv4, to one of the routes or none
            address = rng.choice([0x0A010203, 0x0A01FF01, 0x0B123456, 0x0C000001])
            made.append(eth + b"\x08\x00" + bytes(16) + address.to_bytes(4, "big") + bytes(10))
        elif kind == 1:  # IPv4 cut short: by MAC
            made.append(eth + b"\x08\x00" + bytes(rng.randrange(1, 20)))
        elif kind == 2:  # the program rewrites the destination
            made.append(eth + b"\x88\xb6" + bytes(50))
        elif kind == 3:  # shorter than Ethernet
            made.append(bytes(rng.randrange(1, 14)))
        else:  # by MAC, several in a row with the same key
            made += [eth + b"\x88\xb5" + bytes(46)] * rng.randrange(1, 4)
    return made


def test_bursts_of_packets_leave_as_per_packet_lookups_send_them(tmp_path: Path):
    source = tmp_path / "burst.p4"
    source.write_text(PROGRAM)
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(source), "-o", str(tmp_path / "out")],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    datapath = (tmp_path / "out" / "datapath.c").read_text()
    assert "p4odp_cuckoo_burst_begin(&hash0, p4odp_table_of(sw, 0));" in datapath  # macs
    assert "p4odp_table_apply_burst_int(sw, 1, P4ODP_TABLE_DIR24" in datapath  # routes
    assert "p4odp_table_apply_burst(sw, 2, keys" in datapath  # pairs, 12 bytes
    commands = [f"table_add macs to {mac:012x} => {port}" for mac, port in MACS.items()]
    commands += [f"table_add routes to {prefix >> 24}.{prefix >> 16 & 255}.{prefix >> 8 & 255}.{prefix & 255}/{length}"
                 f" => {port}" for prefix, length, port in ROUTES]
    commands += [f"table_add pairs to {dst:012x} {src:012x} => {port}" for (dst, src), port in PAIRS.items()]
    (tmp_path / "commands.txt").write_text("\n".join(commands) + "\n")
    sent = frames(random.Random(7))
    write_pcap(str(tmp_path / "in0.pcap"), sent)
    write_pcap(str(tmp_path / "empty.pcap"), [])
    ports = [f"{n}=pcap:in={tmp_path / ('in0.pcap' if n == 0 else 'empty.pcap')}:out={tmp_path / f'out{n}.pcap'}"
             for n in range(PORTS)]
    run = subprocess.run([str(tmp_path / "out" / "switch"), "--exit-when-done", "--commands",
                          str(tmp_path / "commands.txt"), *(a for p in ports for a in ("-i", p))],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    outputs = [expected(frame) for frame in sent]
    by_port = {n: [frame for port, frame in outputs if port == n] for n in range(PORTS)}
    assert sum(map(len, by_port.values())) > 250 and all(by_port[n] for n in (1, 2, 3, 5, 6))
    assert {n: read_packets(str(tmp_path / f"out{n}.pcap")) for n in range(PORTS)} == by_port
