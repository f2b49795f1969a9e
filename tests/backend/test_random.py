"""v1model's random() and the `random` hash algorithm on a running switch: every value of the range
comes out and none outside it, with two workers (each draws from a generator of its own)."""

from __future__ import annotations

from pathlib import Path

from one_header_switch import build_switch, one_header_program, run_on_frames

from p4odp.stf.pcap import read_packets

PROGRAM = one_header_program("bit<8> a; bit<8> r; bit<16> x; bit<8> one;", """\
        random(hdr.h.r, 8w10, 8w20);
        hash(hdr.h.x, HashAlgorithm.random, 16w100, { hdr.h.a }, 32w50);
        random(hdr.h.one, 8w7, 8w7);
        sm.egress_spec = 1;""")


def test_random_numbers_cover_their_range_and_stay_in_it(tmp_path: Path):
    switch = build_switch(tmp_path, PROGRAM, "random.p4")
    run = run_on_frames(switch, tmp_path, [bytes([i % 256, 0, 0, 0, 0]) for i in range(2000)], "-w", "2")
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    assert len(out) == 2000
    assert {p[1] for p in out} == set(range(10, 21))  # random(10, 20)
    assert {int.from_bytes(p[2:4], "big") for p in out} == set(range(100, 150))  # 100 + random % 50
    assert {p[4] for p in out} == {7}  # random(7, 7)
