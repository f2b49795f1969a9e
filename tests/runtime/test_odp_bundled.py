"""Tests of the bundled ODP implementation (runtime/odp).

Builds libodp-bundled.a and the C programs tests/runtime/c/odp_test_*.c with each
compiler variant (the default C compiler, clang when installed, and an
AddressSanitizer + UBSan build), with -Werror, runs them, and checks the
pcap files they read and write byte by byte. The socket_mmap test runs on a
veth pair in a network namespace of its own (root only).
"""

import os
import random
import shlex
import struct
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support import ODP_DIR, SANITIZER_REPORTS, build_odp_programs, netns, require_command, require_debian, require_root

PROGRAMS = ["odp_test_pool", "odp_test_loop", "odp_test_pcap", "odp_test_replay", "odp_test_sock",
            "odp_test_misuse"]
WARNINGS = ["-Wall", "-Wextra", "-Werror"]
TIMEOUT = 120

PCAP_USEC = 0xA1B2C3D4
PCAP_NSEC = 0xA1B23C4D


@dataclass
class Build:
    """Library and test programs built with one compiler variant."""

    name: str
    cc: list
    out: Path
    sanitize: bool
    env: dict = field(default_factory=dict)

    def prog(self, name: str) -> Path:
        return self.out / name

    def run(self, args, *, expect_rc=0, timeout=TIMEOUT, prefix=()):
        """Run a test program; fail on an unexpected exit code or a sanitizer report."""
        cmd = [*prefix, str(self.prog(args[0])), *map(str, args[1:])]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, **self.env})
        for report in SANITIZER_REPORTS:
            assert report not in proc.stderr, f"{cmd}: sanitizer report:\n{proc.stderr}"
        assert proc.returncode == expect_rc, (
            f"{cmd} exited {proc.returncode}, expected {expect_rc}\n"
            f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
        return proc


def _variants():
    """Compiler variants: name -> (compiler command, sanitizers on). $CC picks the compiler."""
    cc = shlex.split(os.environ.get("CC", "cc"))
    return {"cc": (cc, False), "clang": (["clang"], False), "asan": (cc, True)}


@pytest.fixture(scope="session", params=list(_variants()))
def build(request, tmp_path_factory):
    name = request.param
    cc, sanitize = _variants()[name]
    require_command(cc[0])
    require_command("make")
    out = build_odp_programs(tmp_path_factory.mktemp(f"odp-{name}"), PROGRAMS, cc=cc, sanitize=sanitize,
                             timeout=TIMEOUT)
    env = {}
    if sanitize:
        env = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0",
               "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
    return Build(name, cc, out, sanitize, env)


# ---- Build and headers ----

def test_makefile_builds_every_source():
    """With every optional packet I/O kind named, the Makefile lists every source."""
    optional = sorted(p.stem.removeprefix("pktio_") for p in ODP_DIR.glob("pktio_*.c")
                      if p.stem not in ("pktio_pcap", "pktio_loop", "pktio_null", "pktio_socket_mmap"))
    listed = subprocess.run(["make", "-s", "-C", str(ODP_DIR), "sources", f"PKTIO={' '.join(optional)}"],
                            check=True, capture_output=True, text=True).stdout.split()
    assert sorted(listed) == sorted(p.name for p in ODP_DIR.glob("*.c"))


def test_headers_strict(build, tmp_path):
    """The public headers build alone, in strict C11 and as C++."""
    src = tmp_path / "hdr.c"
    src.write_text("#include <odp_api.h>\n#include <odp_bundled_ext.h>\n"
                   "int main(void) { odp_packet_t p = ODP_PACKET_INVALID;\n"
                   "  return p != ODP_PACKET_INVALID || ODP_BUNDLED_EXT != 1; }\n")
    subprocess.run([*build.cc, "-std=c11", "-pedantic", *WARNINGS, "-Wshadow",
                    "-Wstrict-prototypes", "-I", str(ODP_DIR / "include"), "-c", str(src),
                    "-o", str(tmp_path / "hdr.o")], check=True, timeout=TIMEOUT)
    cxx, package = {"clang": ("clang++", "clang")}.get(build.name, ("g++", "g++"))
    require_debian({package: f"command -v {cxx}"}, "the headers' C++ check")
    subprocess.run([cxx, "-std=c++17", *WARNINGS, "-x", "c++", "-I", str(ODP_DIR / "include"), "-c", str(src),
                    "-o", str(tmp_path / "hdr_cxx.o")], check=True, timeout=TIMEOUT)


# ---- Pools, packets, threads; the loop pktio ----

def test_pool_packets_threads(build):
    assert "odp_test_pool: OK" in build.run(["odp_test_pool"]).stdout


def test_loop_pktio(build):
    assert "odp_test_loop: OK" in build.run(["odp_test_loop"]).stdout


@pytest.mark.parametrize("build", ["asan"], indirect=True)
@pytest.mark.parametrize("misuse", ["use-after-free", "double-free", "overflow"])
def test_asan_sees_packet_misuse(build, misuse):
    """Free packets and the bytes past a buffer are poisoned in ASan builds."""
    proc = subprocess.run([str(build.prog("odp_test_misuse")), misuse], capture_output=True,
                          text=True, timeout=TIMEOUT, env={**os.environ, **build.env})
    assert proc.returncode != 0
    assert "AddressSanitizer: use-after-poison" in proc.stderr


# ---- pcap ----

def pcap_bytes(records, *, endian="<", magic=PCAP_USEC, linktype=1, snaplen=65535):
    """A classic pcap file; records are (sec, frac, data[, orig_len])."""
    out = [struct.pack(endian + "IHHiIII", magic, 2, 4, 0, 0, snaplen, linktype)]
    for rec in records:
        sec, frac, data = rec[:3]
        orig = rec[3] if len(rec) > 3 else len(data)
        out.append(struct.pack(endian + "IIII", sec, frac, len(data), orig) + data)
    return b"".join(out)


def read_pcap(path):
    """Header fields and records (sec, usec, data, orig_len) of a pcap file."""
    raw = Path(path).read_bytes()
    assert len(raw) >= 24, "no pcap file header"
    magic = struct.unpack("=I", raw[:4])[0]
    assert magic == PCAP_USEC, f"written in host byte order with usec stamps, got {magic:#x}"
    _, major, minor, _, _, snaplen, linktype = struct.unpack("=IHHiIII", raw[:24])
    records = []
    off = 24
    while off < len(raw):
        assert off + 16 <= len(raw), "truncated record header"
        sec, usec, caplen, orig = struct.unpack("=IIII", raw[off:off + 16])
        assert off + 16 + caplen <= len(raw), "truncated record"
        assert usec < 1_000_000
        records.append((sec, usec, raw[off + 16:off + 16 + caplen], orig))
        off += 16 + caplen
    return {"version": (major, minor), "snaplen": snaplen, "linktype": linktype}, records


def random_frames(count, seed, lengths=(60, 1514)):
    rng = random.Random(seed)
    return [rng.randbytes(rng.randint(*lengths)) for _ in range(count)]


def run_fwd(build, devname, pool_num=512, data_room=2048):
    proc = build.run(["odp_test_pcap", "fwd", devname, pool_num, data_room], timeout=TIMEOUT)
    fields = dict(item.split("=") for item in proc.stdout.split())
    return {k: int(v) for k, v in fields.items()}


@pytest.mark.parametrize("endian", ["<", ">"], ids=["le", "be"])
@pytest.mark.parametrize("magic", [PCAP_USEC, PCAP_NSEC], ids=["usec", "nsec"])
def test_pcap_in_out_copy(build, tmp_path, endian, magic):
    frames = random_frames(25, seed=magic ^ ord(endian))
    src = tmp_path / "in.pcap"
    dst = tmp_path / "out.pcap"
    frac = 999_999_999 if magic == PCAP_NSEC else 999_999
    src.write_bytes(pcap_bytes([(1000 + i, frac, f) for i, f in enumerate(frames)],
                               endian=endian, magic=magic))
    before = time.time()
    counts = run_fwd(build, f"pcap:in={src}:out={dst}")
    assert counts == {"rx": 25, "tx": 25, "discards": 0, "errors": 0}
    header, records = read_pcap(dst)
    assert header == {"version": (2, 4), "snaplen": 262144, "linktype": 1}
    assert [r[2] for r in records] == frames
    for sec, _, data, orig in records:
        assert orig == len(data)
        assert before - 5 <= sec <= time.time() + 5, "output stamps are the send time"


def test_pcap_loops_and_small_pool(build, tmp_path):
    frames = random_frames(7, seed=7)
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    dst = tmp_path / "out.pcap"
    # Four packets in the pool: reading stops when it is empty and goes on later.
    counts = run_fwd(build, f"pcap:in={src}:out={dst}:loops=3", pool_num=4)
    assert counts["rx"] == counts["tx"] == 21
    assert [r[2] for r in read_pcap(dst)[1]] == frames * 3


def test_pcap_input_only(build, tmp_path):
    frames = random_frames(5, seed=5)
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    assert run_fwd(build, f"pcap:in={src}")["rx"] == 5


def test_pcap_skips_records_too_long_for_the_pool(build, tmp_path):
    frames = random_frames(6, seed=6, lengths=(60, 1000))
    frames[2] = bytes(1500)
    src = tmp_path / "in.pcap"
    dst = tmp_path / "out.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    counts = run_fwd(build, f"pcap:in={src}:out={dst}", data_room=1024)
    assert counts == {"rx": 5, "tx": 5, "discards": 1, "errors": 0}
    assert [r[2] for r in read_pcap(dst)[1]] == frames[:2] + frames[3:]


def test_pcap_truncated_file(build, tmp_path):
    frames = random_frames(4, seed=4)
    src = tmp_path / "in.pcap"
    dst = tmp_path / "out.pcap"
    raw = pcap_bytes([(1, 0, f) for f in frames])
    src.write_bytes(raw[:-10])
    counts = run_fwd(build, f"pcap:in={src}:out={dst}:loops=5")
    assert counts == {"rx": 3, "tx": 3, "discards": 0, "errors": 1}
    assert [r[2] for r in read_pcap(dst)[1]] == frames[:3]


def test_pcap_snapped_records_keep_captured_bytes(build, tmp_path):
    src = tmp_path / "in.pcap"
    dst = tmp_path / "out.pcap"
    src.write_bytes(pcap_bytes([(1, 0, bytes(range(64)), 1500)], snaplen=64))
    assert run_fwd(build, f"pcap:in={src}:out={dst}")["rx"] == 1
    assert read_pcap(dst)[1][0][2] == bytes(range(64))


def test_pcap_empty_capture_drains_even_when_looping(build, tmp_path):
    src = tmp_path / "in.pcap"
    dst = tmp_path / "out.pcap"
    src.write_bytes(pcap_bytes([]))
    assert run_fwd(build, f"pcap:in={src}:out={dst}:loops=0")["rx"] == 0
    assert read_pcap(dst)[1] == []


def test_pcap_output_only(build, tmp_path):
    dst = tmp_path / "out.pcap"
    build.run(["odp_test_pcap", "gen", f"pcap:out={dst}", 10, dst])
    _, records = read_pcap(dst)
    assert [len(r[2]) for r in records] == list(range(60, 70))
    for i, (_, _, data, orig) in enumerate(records):
        assert data == bytes((i + j) & 0xFF for j in range(60 + i))
        assert orig == len(data)


def test_pcap_bad_names_and_files(build, tmp_path):
    good = tmp_path / "good.pcap"
    good.write_bytes(pcap_bytes([(1, 0, bytes(60))]))
    pcapng = tmp_path / "x.pcapng"
    pcapng.write_bytes(struct.pack("<IIIHHq", 0x0A0D0D0A, 28, 0x1A2B3C4D, 1, 0, -1)
                       + struct.pack("<I", 28))
    raw_ip = tmp_path / "rawip.pcap"
    raw_ip.write_bytes(pcap_bytes([(1, 0, bytes(40))], linktype=101))
    empty = tmp_path / "empty.pcap"
    empty.write_bytes(b"")
    bad = [
        f"pcap:in={tmp_path / 'missing.pcap'}",
        f"pcap:in={pcapng}",
        f"pcap:in={raw_ip}",
        f"pcap:in={empty}",
        f"pcap:in={good}:loops=x",
        f"pcap:in={good}:speed=10",
        f"pcap:out={tmp_path / 'no' / 'such' / 'dir.pcap'}",
        "pcap:",
    ]
    for devname in bad:
        build.run(["odp_test_pcap", "open", devname], expect_rc=3)
    build.run(["odp_test_pcap", "open", f"pcap:in={good}:loops=2"])


# ---- pcap's cache option (replay from memory) and the null sink ----

def udp_frame(src_port, dst_ip=(10, 0, 0, 2), extra=0):
    """Ethernet + IPv4 + UDP; the source port tells the flow."""
    ip = bytes([0x45, 0, 0, 28 + extra, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, *dst_ip])
    return bytes(6) + bytes([2, 0, 0, 0, 0, 1]) + b"\x08\x00" + ip + \
        struct.pack("!HHHH", src_port, 53, 8 + extra, 0) + bytes(range(extra))


def mixed_frames():
    """Frames of every branch of the flow hash: IPv4 UDP and TCP, IPv6, a VLAN tag, non-IP."""
    frames = [udp_frame(1000 + i, extra=i) for i in range(40)]
    frames.append(bytes(12) + b"\x86\xdd" + bytes([0x60, 0, 0, 0, 0, 8, 17, 64]) + bytes(range(32)) + bytes(8))
    frames.append(bytes(6) + bytes([2, 0, 0, 0, 0, 9]) + b"\x81\x00\x00\x05" + udp_frame(7)[12:])
    frames.append(bytes(12) + b"\x88\xb5" + bytes(46))
    frames.append(udp_frame(9)[:14] + bytes([0x45, 0, 0, 40, 0, 0, 0, 0, 64, 6]) + bytes(30))
    return frames


def replay_dump(build, devname, num_in, hash_enable, max_packets, pool_num=512):
    """Per input queue the frames received, in order, and the closing counters."""
    proc = build.run(["odp_test_replay", "dump", devname, num_in, int(hash_enable), max_packets, pool_num])
    lines = proc.stdout.splitlines()
    queues = [[] for _ in range(num_in)]
    for line in lines[:-1]:
        q, data = line.split()
        queues[int(q)].append(bytes.fromhex(data))
    counts = {k: int(v) for k, v in (item.split("=") for item in lines[-1].split())}
    return queues, counts


def test_pcap_cache_replays_the_file_from_memory(build, tmp_path):
    frames = random_frames(20, seed=20)
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    queues, counts = replay_dump(build, f"pcap:in={src}:loops=3:cache", 1, False, 1000)
    assert queues == [frames * 3]
    assert counts == {"rx": 60, "discards": 0, "errors": 0, "done": 1}
    # A pool of 8 packets: bursts are what the pool has, and the replay goes on.
    queues, counts = replay_dump(build, f"pcap:in={src}:loops=2:cache", 1, False, 1000, pool_num=8)
    assert queues == [frames * 2] and counts["done"] == 1


def test_pcap_cache_endless(build, tmp_path):
    frames = random_frames(7, seed=7)
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    queues, counts = replay_dump(build, f"pcap:in={src}:loops=0:cache", 1, False, 7 * 50 + 3)
    assert queues == [(frames * 51)[:7 * 50 + 3]]
    assert counts["done"] == 0


@pytest.mark.parametrize("num_in", [2, 3, 64])
def test_pcap_cache_queues_replay_their_flows(build, tmp_path, num_in):
    """Queue q replays the frames whose flow hash is q modulo the queues: one flow, one queue.
    The hash is the loop device's, and p4odp bench's Python copy (switchbench/traffic.py) agrees."""
    from p4odp.switchbench.traffic import flow_hash, split_by_queue

    frames = mixed_frames() + [udp_frame(2000 + i) for i in range(200 if num_in == 64 else 0)]
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    queues, counts = replay_dump(build, f"pcap:in={src}:cache:loops=2", num_in, True, 10 ** 6)
    expected = split_by_queue(frames, num_in)
    assert queues == [q * 2 for q in expected]
    assert sum(1 for q in expected if q) > 1, "the frames spread over several queues"
    assert counts == {"rx": 2 * len(frames), "discards": 0, "errors": 0, "done": 1}
    assert all(flow_hash(f) % num_in == q for q, frames_q in enumerate(queues) for f in frames_q)


def test_pcap_cache_queues_without_hash_take_turns(build, tmp_path):
    frames = random_frames(10, seed=10)
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    queues, _ = replay_dump(build, f"pcap:in={src}:cache", 3, False, 1000)
    assert queues == [frames[0::3], frames[1::3], frames[2::3]]


def test_pcap_cache_threads_one_queue_each(build, tmp_path):
    frames = mixed_frames()
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames]))
    proc = build.run(["odp_test_replay", "threads", f"pcap:in={src}:cache:loops=300", 4])
    assert proc.stdout.split()[0] == f"rx={300 * len(frames)}"


def test_pcap_cache_bad_records(build, tmp_path):
    frames = random_frames(6, seed=6, lengths=(60, 1000))
    frames[2] = bytes(1700)  # longer than the test pool's 1600-byte packets
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, f) for f in frames])[:-10])
    queues, counts = replay_dump(build, f"pcap:in={src}:cache:loops=2", 1, False, 1000)
    assert queues == [(frames[:2] + frames[3:5]) * 2]
    assert counts == {"rx": 8, "discards": 1, "errors": 1, "done": 1}
    empty = tmp_path / "empty.pcap"
    empty.write_bytes(pcap_bytes([]))
    assert replay_dump(build, f"pcap:in={empty}:cache:loops=0", 2, True, 1000)[1]["done"] == 1


def test_pcap_queue_limits(build, tmp_path):
    src = tmp_path / "in.pcap"
    src.write_bytes(pcap_bytes([(1, 0, bytes(60))]))
    assert build.run(["odp_test_replay", "queues", f"pcap:in={src}:cache"]).stdout.split() == ["in=64", "out=64"]
    assert build.run(["odp_test_replay", "queues", f"pcap:in={src}"]).stdout.split() == ["in=1", "out=1"]
    build.run(["odp_test_pcap", "open", f"pcap:out={tmp_path / 'o.pcap'}:cache"], expect_rc=3)


def test_null_sink(build):
    assert "odp_test_replay null: OK" in build.run(["odp_test_replay", "null"]).stdout


# ---- socket_mmap on a veth pair ----

@pytest.fixture
def veth_netns(build):
    """A network namespace holding an up veth pair (va, vb); removed afterwards."""
    require_root("the socket_mmap test (network namespaces, packet sockets)")
    with netns(f"p4odp-test-{os.getpid()}-{build.name}") as ns:
        for link in (("add", "va", "type", "veth", "peer", "name", "vb"), ("set", "va", "up"), ("set", "vb", "up")):
            subprocess.run(["ip", "-n", ns, "link", *link], check=True, capture_output=True, timeout=30)
        yield ns


def test_socket_mmap_veth(build, veth_netns):
    proc = build.run(["odp_test_sock", "va", "vb"], prefix=("ip", "netns", "exec", veth_netns))
    assert "odp_test_sock: OK" in proc.stdout
