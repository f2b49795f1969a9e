"""PSA's externs on a running switch, against the values BMv2's psa_switch gives (computed here):
Hash (each algorithm, the data's bits packed to the right of whole bytes), InternetChecksum and
Checksum (a sum per packet in the parser or control that declares it, psa_switch's ones'
complement arithmetic to the edge cases), Random, Digest, dpdk/psa.p4's counting and metering with
a packet length, and ActionSelector with PSA's algorithms; what the switch cannot honour is refused
at its place."""

from __future__ import annotations

import random
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from one_header_switch import build_switch, compile_program, run_on_frames, run_with_commands, start_switch
from psa_switch import psa_program
from support import crc16_arc

from p4odp.controlplane.channel import SwitchChannel
from p4odp.stf.pcap import read_packets


def run_stf(folder: Path, program: str, packets: list[tuple[bytes, bytes]]) -> subprocess.CompletedProcess:
    """`p4odp stf` of `program` with a test that sends each packet into port 0 and expects its pair
    out of port 1."""
    (folder / "prog.p4").write_text(program)
    (folder / "prog.stf").write_text("".join(f"packet 0 {sent.hex()}\nexpect 1 {expected.hex()} $\n"
                                             for sent, expected in packets))
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "stf", str(folder / "prog.p4"),
                           str(folder / "prog.stf")], capture_output=True, text=True, timeout=300)


def refusal(folder: Path, program: str) -> str:
    """The diagnostics of a program that must not compile (none of them a crash)."""
    run = compile_program(folder, program, "refused.p4")
    assert run.returncode == 1 and "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    return run.stderr


# ----------------------------------------------------------------------
# BMv2's algorithms

def csum16(data: bytes) -> int:  # BMv2's csum16: the Internet checksum
    data += bytes(len(data) % 2)
    total = sum(int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ones_complement_sum(x: int, y: int) -> int:  # psa_internet_checksum.cpp's
    total = x + y
    return (total + 1 if total >= 0x10000 else total) & 0xFFFF


def psa_sum(state: int, words: list[int], subtract: bool = False) -> int:
    """InternetChecksum.add (subtract) as psa_switch: the data as one number, its 16-bit chunks from
    the least significant while what is left of it is not 0."""
    value = int.from_bytes(b"".join(w.to_bytes(2, "big") for w in words), "big")
    while value:
        chunk = value & 0xFFFF
        state = ones_complement_sum(state, ~chunk & 0xFFFF if subtract else chunk)
        value >>= 16
    return state


# ----------------------------------------------------------------------
# Hash

HASHES = psa_program(
    "bit<8> a; bit<4> b; bit<4> c; bit<16> crc16; bit<32> crc32; bit<16> ident; bit<16> ones; bit<16> dflt; "
    "bit<16> custom;",
    ingress_locals="""\
    Hash<bit<16>>(PSA_HashAlgorithm_t.CRC16) h16;
    Hash<bit<32>>(PSA_HashAlgorithm_t.CRC32) h32;
    Hash<bit<16>>(PSA_HashAlgorithm_t.IDENTITY) hid;
    Hash<bit<16>>(PSA_HashAlgorithm_t.ONES_COMPLEMENT16) hones;
    Hash<bit<16>>(PSA_HashAlgorithm_t.TARGET_DEFAULT) hdflt;
    Hash<bit<16>>(PSA_HashAlgorithm_t.CRC16_CUSTOM) hcustom;""",
    ingress="""\
        hdr.h.crc16 = h16.get_hash({hdr.h.a, hdr.h.b});
        hdr.h.crc32 = h32.get_hash(32w100, {hdr.h.a, hdr.h.b}, 32w1000);
        hdr.h.ident = hid.get_hash({hdr.h.c, hdr.h.a, hdr.h.b});
        hdr.h.ones = hones.get_hash({hdr.h.a, hdr.h.b, hdr.h.c});
        hdr.h.dflt = hdflt.get_hash({hdr.h.a});
        hdr.h.custom = hcustom.get_hash({hdr.h.a});""")


def test_hash_gives_psa_switchs_values_for_each_algorithm(tmp_path: Path):
    rng = random.Random(1)
    packets = []
    for a, b, c in [(0, 0, 0), (0xFF, 0xF, 0xF), *((rng.randrange(256), rng.randrange(16), rng.randrange(16))
                                                     for _ in range(6))]:
        twelve = (a << 4 | b).to_bytes(2, "big")  # 12 bits: padded on the left, not on the right as v1model's
        sent = bytes([a, b << 4 | c]) + bytes(14)
        values = [(crc16_arc(twelve), 2), (100 + zlib.crc32(twelve) % 1000, 4), (c << 12 | a << 4 | b, 2),
                  (csum16(bytes([a, b << 4 | c])), 2),
                  (crc16_arc(bytes([a])), 2),  # TARGET_DEFAULT: CRC16, p4c's choice for psa_switch
                  (crc16_arc(bytes([a])), 2)]  # a custom CRC16 before the control plane sets it
        fields = b"".join(value.to_bytes(size, "big") for value, size in values)
        packets.append((sent, sent[:2] + fields))
    run = run_stf(tmp_path, HASHES, packets)
    assert run.returncode == 0, run.stdout + run.stderr


# ----------------------------------------------------------------------
# InternetChecksum and Checksum

CHECKSUMS = psa_program(
    "bit<16> x; bit<16> y; bit<16> z; bit<16> w; bit<16> init; bit<16> c1; bit<16> c2; bit<16> st; bit<16> c3; "
    "bit<16> parsed; bit<16> cs;",
    meta="bit<16> parsed;",
    parser_locals="    InternetChecksum() pck;",
    parser="pck.add({hdr.h.x, hdr.h.y}); meta.parsed = pck.get();",
    ingress="        hdr.h.parsed = meta.parsed;",
    deparser_locals="""\
    InternetChecksum() ck;
    Checksum<bit<16>>(PSA_HashAlgorithm_t.ONES_COMPLEMENT16) sum;""",
    deparser="""\
        ck.clear();
        ck.add({hdr.h.x, hdr.h.y});
        hdr.h.c1 = ck.get();
        ck.subtract({16w0, hdr.h.z});
        hdr.h.c2 = ck.get();
        hdr.h.st = ck.get_state();
        ck.set_state(hdr.h.init);
        ck.add(hdr.h.w);
        hdr.h.c3 = ck.get();
        sum.clear();
        sum.update({hdr.h.x, hdr.h.y});
        hdr.h.cs = sum.get();""")


def test_internet_checksum_and_checksum_sum_as_psa_switch_does_in_the_block_that_declares_them(tmp_path: Path):
    rng = random.Random(2)
    cases = [(0, 0, 0, 0, 0), (0, 0, 0xFFFF, 0, 0), (0x0001, 0xFFFE, 0, 0xFFFF, 0xFFFF), (0xFFFF, 0xFFFF, 0xFFFF, 0, 1),
             (0x1234, 0xABCD, 0x1111, 0x8000, 0x8000)]
    cases += [tuple(rng.randrange(0x10000) for _ in range(5)) for _ in range(6)]
    packets = []
    for x, y, z, w, init in cases:
        s1 = psa_sum(0, [x, y])
        s2 = psa_sum(s1, [0, z], subtract=True)
        s3 = psa_sum(init, [w])
        sent = b"".join(v.to_bytes(2, "big") for v in (x, y, z, w, init)) + bytes(12)
        out = sent[:10] + b"".join(v.to_bytes(2, "big") for v in (~s1 & 0xFFFF, ~s2 & 0xFFFF, s2, ~s3 & 0xFFFF,
                                                                  ~s1 & 0xFFFF, ~s1 & 0xFFFF))
        packets.append((sent, out))
    run = run_stf(tmp_path, CHECKSUMS, packets)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("locals_, code, at, message", [
    ("Checksum<bit<16>>(PSA_HashAlgorithm_t.CRC16) sum;", "sum.update({hdr.h.x}); hdr.h.x = sum.get();",
     "CRC16) sum", "a Checksum of another algorithm than ONES_COMPLEMENT16"),
    ("InternetChecksum() ck;", "ck.add({hdr.h.x, hdr.h.odd});", "{hdr.h.x, hdr.h.odd}",
     "checksum data of 24 bits: psa_switch sums 16-bit words"),
])
def test_a_checksum_the_switch_cannot_compute_is_refused_at_its_place(tmp_path: Path, locals_: str, code: str,
                                                                     at: str, message: str):
    program = psa_program("bit<16> x; bit<8> odd;", deparser_locals="    " + locals_, deparser="        " + code)
    line, column = next((n, text.index(at) + 1) for n, text in enumerate(program.splitlines(), 1) if at in text)
    stderr = refusal(tmp_path, program)
    assert f"refused.p4:{line}:{column}: error: " in stderr and message in stderr, stderr


# ----------------------------------------------------------------------
# Random

def test_random_reads_every_value_of_its_range_and_none_outside(tmp_path: Path):
    switch = build_switch(tmp_path, psa_program("bit<8> k; bit<8> r;", ingress_locals="    Random<bit<8>>(10, 20) rng;",
                                                ingress="        hdr.h.r = rng.read();"), "random.p4")
    run = run_on_frames(switch, tmp_path, [bytes([i % 256]) + bytes(13) for i in range(1000)], "-w", "2")
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    assert len(out) == 1000 and {p[1] for p in out} == set(range(10, 21))


def test_a_random_whose_range_is_empty_is_refused(tmp_path: Path):
    stderr = refusal(tmp_path, psa_program("bit<8> r;", ingress_locals="    Random<bit<8>>(20, 20) rng;",
                                           ingress="        hdr.h.r = rng.read();"))
    assert "0 <= min < max" in stderr, stderr


# ----------------------------------------------------------------------
# Digest

DIGESTS = psa_program(
    "bit<8> a; bit<16> b;", globals="struct learn_t { bit<8> a; bit<16> b; }\nstruct unused_t { bit<4> n; }",
    deparser_locals="    Digest<learn_t>() learnt;\n    Digest<unused_t>() never;",
    deparser="        if (hdr.h.a != 0) { learnt.pack({hdr.h.a, hdr.h.b}); }")


def test_a_digest_pack_reaches_the_listening_clients_under_the_instances_name(tmp_path: Path):
    switch = build_switch(tmp_path, DIGESTS, "digests.p4")
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(switch, tmp_path, address, (bytes([5, 1, 2]) + bytes(11), bytes([0, 3, 4]) + bytes(11)))
    try:
        with SwitchChannel(address) as listener:
            listener.listen("digest")
            seen = {listener.next_event(timeout=10) for _ in range(50)}
            assert seen == {"digest IDep.learnt 0x5 0x102"}  # none of the packet with a == 0
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


def test_every_digest_instance_is_the_switchs_and_p4infos_packed_or_not(tmp_path: Path):
    sys.path.insert(0, str(Path(__file__).parents[1] / "conformance"))
    from control_plane_walk import mismatches, switch_objects

    from p4odp.diagnostics import Diagnostics
    from p4odp.frontend import FrontendOptions, load_program
    from p4odp.transpiler import transpile

    (tmp_path / "digests.p4").write_text(DIGESTS)
    diags = Diagnostics()
    model = transpile(load_program(str(tmp_path / "digests.p4"), FrontendOptions(), diags), "digests.p4", diags)
    assert model is not None
    assert {("digest", "IDep.learnt"), ("digest", "IDep.never")} <= switch_objects(model)
    assert mismatches(model) == []


# ----------------------------------------------------------------------
# dpdk/psa.p4's counting and metering with a packet length

DPDK = psa_program(
    "bit<8> k; bit<8> green;", include="dpdk/psa.p4",
    ingress_locals="""\
    Counter<bit<32>, bit<8>>(4, PSA_CounterType_t.PACKETS_AND_BYTES) c;
    Meter<bit<8>>(4, PSA_MeterType_t.PACKETS) m;""",
    ingress="""\
        c.count(1, 32w100);
        c.count(2);
        if (m.dpdk_execute(0, 32w64) == PSA_MeterColor_t.GREEN) { hdr.h.green = 1; }""")


def test_dpdk_count_with_a_length_counts_those_bytes_and_a_packet_meter_ignores_it(tmp_path: Path):
    switch = build_switch(tmp_path, DPDK, "dpdk.p4")
    run = run_with_commands(switch, tmp_path, "receive 0\nreceive 0\ncounter_read c 1\ncounter_read c 2\n",
                            [bytes(20), bytes(20)])
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["c[1]= (200 bytes, 2 packets)", "c[2]= (40 bytes, 2 packets)"]
    assert [p[1] for p in read_packets(str(tmp_path / "out.pcap"))] == [1, 1]  # GREEN: the meter's rates are unset


def test_dpdk_execute_meters_the_length_it_is_given_in_a_meter_of_bytes(tmp_path: Path):
    program = DPDK.replace("PSA_MeterType_t.PACKETS", "PSA_MeterType_t.BYTES")
    switch = build_switch(tmp_path, program, "dpdk_bytes.p4")
    # Buckets of 100 bytes that hardly refill: the first 64-byte pkt_len passes, the second does not
    # (20-byte frames, which would both pass).
    run = run_with_commands(switch, tmp_path, "meter_set_rates m 0 0.000001:100 0.000001:100\nreceive 0\nreceive 0\n",
                            [bytes(20), bytes(20)])
    assert run.returncode == 0, run.stderr
    assert [p[1] for p in read_packets(str(tmp_path / "out.pcap"))] == [1, 0]


def test_a_direct_counter_counted_with_a_length_counts_it_where_its_action_runs(tmp_path: Path):
    program = psa_program("bit<8> k;", include="dpdk/psa.p4", ingress="        t.apply();", ingress_locals="""\
    DirectCounter<bit<32>>(PSA_CounterType_t.PACKETS_AND_BYTES) dc;
    action hit() { dc.count(32w64); }
    action other() { }
    table t { key = { hdr.h.k : exact; } actions = { hit; other; } default_action = other; psa_direct_counter = dc; }""")
    switch = build_switch(tmp_path, program, "direct_length.p4")
    # Two hits of the entry (64 bytes each, not the 20 of the frame), and a miss that counts nothing.
    run = run_with_commands(switch, tmp_path, "table_add t hit 0 =>\nreceive 0\nreceive 0\nreceive 0\n"
                                              "counter_read dc 0\n", [bytes(20), bytes([1]) + bytes(19), bytes(20)])
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "dc[0]= (128 bytes, 2 packets)"


@pytest.mark.parametrize("locals_, code, message", [
    ("DirectMeter(PSA_MeterType_t.BYTES) dm;\n"
     "    action hit() { if (dm.dpdk_execute(32w64) == PSA_MeterColor_t.RED) { hdr.h.k = 0; } }\n"
     "    table t { key = { hdr.h.k : exact; } actions = { hit; } psa_direct_meter = dm; }",
     "t.apply();", "DirectMeter.dpdk_execute of a meter of BYTES"),
])
def test_a_packet_length_the_switch_cannot_use_is_refused_at_its_place(tmp_path: Path, locals_: str, code: str,
                                                                      message: str):
    stderr = refusal(tmp_path, psa_program("bit<8> k;", include="dpdk/psa.p4", ingress_locals="    " + locals_,
                                           ingress="        " + code))
    assert "refused.p4:" in stderr and message in stderr, stderr


# ----------------------------------------------------------------------
# ActionSelector

SELECTOR = psa_program(
    "bit<8> k; bit<8> a; bit<8> b; bit<8> r;",
    ingress_locals="""\
    action set_r(bit<8> r) { hdr.h.r = r; }
    ActionSelector(PSA_HashAlgorithm_t.CRC32, 16, 16) sel;
    table t {
        key = { hdr.h.k : exact; hdr.h.a : selector; hdr.h.b : selector; }
        actions = { set_r; NoAction; }
        psa_implementation = sel;
    }""",
    ingress="        t.apply();")


def test_an_action_selector_picks_a_groups_member_by_its_psa_algorithm(tmp_path: Path):
    switch = build_switch(tmp_path, SELECTOR, "selector.p4")
    rng = random.Random(3)
    frames = [bytes([1, rng.randrange(256), rng.randrange(256), 0]) + bytes(10) for _ in range(40)]
    commands = ("".join(f"act_prof_create_member sel set_r {r}\n" for r in (10, 20, 30, 40)) +
                "act_prof_create_group sel\nact_prof_add_member_to_group sel 3 0\n"
                "act_prof_add_member_to_group sel 1 0\nact_prof_add_member_to_group sel 2 0\n"
                "table_indirect_add_with_group t 1 => 0\n")
    run = run_with_commands(switch, tmp_path, commands, frames)
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    group = [20, 30, 40]  # members 1, 2, 3, in handle order
    assert [p[3] for p in out] == [group[zlib.crc32(p[1:3]) % 3] for p in out]
    assert len({p[3] for p in out}) == 3


@pytest.mark.parametrize("ingress, reads",
                         [("", False), ("hdr.h.a = (bit<8>)(TimestampUint_t)istd.ingress_timestamp;", True)],
                         ids=["no-time", "ingress_timestamp"])
def test_the_workers_read_the_clock_only_for_a_program_that_reads_a_time(tmp_path: Path, ingress: str, reads: bool):
    """PSA has no one metadata struct: the time fields it fills (ingress_timestamp,
    egress_timestamp) decide by name whether the workers time their bursts."""
    (tmp_path / "prog.p4").write_text(psa_program("bit<8> a;", ingress=ingress))
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(tmp_path / "prog.p4"), "--emit", "c",
                            "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    assert (".timestamps = true" in (tmp_path / "out" / "datapath.c").read_text()) == reads
