"""v1model's random() and the `random` hash algorithm on a running switch: every value of the range
comes out and none outside it, with two workers (each draws from a generator of its own)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from p4odp.stf.pcap import read_packets, write_pcap

PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> r; bit<16> x; bit<8> one; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        random(hdr.h.r, 8w10, 8w20);
        hash(hdr.h.x, HashAlgorithm.random, 16w100, { hdr.h.a }, 32w50);
        random(hdr.h.one, 8w7, 8w7);
        sm.egress_spec = 1;
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""


def test_random_numbers_cover_their_range_and_stay_in_it(tmp_path: Path):
    (tmp_path / "random.p4").write_text(PROGRAM)
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(tmp_path / "random.p4"), "-o",
                            str(tmp_path / "out")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    write_pcap(str(tmp_path / "in.pcap"), [bytes([i % 256, 0, 0, 0, 0]) for i in range(2000)])
    run = subprocess.run([str(tmp_path / "out" / "switch"), "-w", "2", "--exit-when-done",
                          "-i", f"0=pcap:in={tmp_path / 'in.pcap'}", "-i", f"1=pcap:out={tmp_path / 'out.pcap'}"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    assert len(out) == 2000
    assert {p[1] for p in out} == set(range(10, 21))  # random(10, 20)
    assert {int.from_bytes(p[2:4], "big") for p in out} == set(range(100, 150))  # 100 + random % 50
    assert {p[4] for p in out} == {7}  # random(7, 7)
