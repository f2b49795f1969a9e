"""The l3fwd example as a switch on real interfaces: veth pairs in a network namespace.

The switch runs in a namespace of the test's own with ports 0..3 on veth0..veth3,
through AF_PACKET sockets (target x86, `-i 0=veth0`) or AF_XDP (target x86-xdp,
`-i 0=xdp:veth0`). The test sends the packets of examples/l3fwd/l3fwd.stf and a
burst of routed frames of all sizes into the far ends peer0..peer3, checks that
each port puts out what the STF file and the router's rewrite (MACs, TTL, IPv4
checksum) say, and nothing else, then stops the switch with SIGTERM and checks its
per-port counters. With two workers (`-w 2`, the input sockets a fanout group
spreading flows by a hash) every flow must come out as with one: each packet
rewritten the same, in its order. Root only.
"""

import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from p4odp.diagnostics import Diagnostics
from p4odp.stf.packets import matches
from p4odp.stf.parser import Expect, Packet, parse_stf_file
from support import netns, packet_socket, require_debian, require_root, require_target

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "l3fwd"
PORTS = (0, 1, 2, 3)
TIMEOUT = 120
# Routes of commands.txt: destination prefix -> (next hop MAC, port); the longest prefix wins.
ROUTES = {(10, 0, 1): ("000000000101", 1), (10, 0, 2): ("000000000202", 2), (10, 0, 3): ("000000000303", 3),
          (10, 0, 3, 3): ("000000000333", 3)}

def ipv4_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def udp_frame(rng: random.Random, dst: tuple, length: int) -> bytes:
    """An IPv4/UDP frame from 10.0.0.2 to `dst`, TTL 64, `length` bytes on the wire."""
    ip = bytearray(bytes.fromhex("4500") + (length - 14).to_bytes(2, "big") + rng.randbytes(2) +
                   bytes.fromhex("0000401100000a000002") + bytes(dst))
    ip[10:12] = ipv4_checksum(bytes(ip)).to_bytes(2, "big")
    udp = rng.randbytes(4) + (length - 34).to_bytes(2, "big") + bytes(2)
    head = bytes.fromhex("00000000aa00" "0000000000bb" "0800") + bytes(ip) + udp
    return head + rng.randbytes(length - len(head))


def routed(frame: bytes) -> tuple[int, bytes]:
    """The port and the bytes l3fwd sends `frame` out with: next hop MAC, the old
    destination MAC as source, TTL one less, IPv4 checksum updated."""
    mac, port = ROUTES.get(tuple(frame[30:34])) or ROUTES[tuple(frame[30:33])]
    ip = bytearray(frame[14:34])
    ip[8] -= 1
    ip[10:12] = b"\0\0"
    ip[10:12] = ipv4_checksum(bytes(ip)).to_bytes(2, "big")
    return port, bytes.fromhex(mac) + frame[0:6] + frame[12:14] + bytes(ip) + frame[34:]


def collect(socks: dict, want: dict, deadline: float, linger: float) -> dict:
    """Frames arriving on each port's far end until each has `want[port]` and `linger`
    seconds more passed (to see extra frames), or the deadline."""
    got = {port: [] for port in socks}
    done_at = None
    while time.monotonic() < deadline:
        if done_at is None and all(len(got[p]) >= want.get(p, 0) for p in socks):
            done_at = time.monotonic()
        if done_at is not None and time.monotonic() >= done_at + linger:
            break
        ready, _, _ = select.select(list(socks.values()), [], [], 0.05)
        for port, sock in socks.items():
            if sock in ready:
                got[port].append(sock.recv(65536))
    return got


def counters(stderr: str) -> dict:
    """The per-port counters the switch prints when it stops: port -> (rx, tx, interface)."""
    rows = re.findall(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s*$", stderr, re.M)
    return {int(p): (int(rx), int(tx), name) for p, rx, tx, name in rows}


def drops(stderr: str) -> dict:
    """The drops the switch prints when it stops: reason -> count."""
    return {reason: int(n) for n, reason in re.findall(r"^dropped (\d+): (.*)$", stderr, re.M)}


@pytest.fixture(scope="module", params=["x86", "x86-xdp"])
def switch(request, tmp_path_factory):
    """The l3fwd switch built for the target, and how its ports are named."""
    require_root("switch tests on veth pairs")
    require_debian({"ethtool": "command -v ethtool"}, "switch tests on veth pairs")
    require_target(request.param)
    out = tmp_path_factory.mktemp(f"l3fwd-{request.param}")
    subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(EXAMPLE / "l3fwd.p4"), "--target", request.param,
                    "-o", str(out)], check=True, cwd=ROOT, timeout=TIMEOUT)
    prefix = "xdp:" if request.param == "x86-xdp" else ""
    return request.param, out / "switch", prefix


class VethSwitch:
    """The switch running in a namespace of its own on veth0..veth3, the peers' sockets open."""

    def __init__(self, ns: str, program: Path, prefix: str, args: list[str]):
        for i in PORTS:
            subprocess.run(["ip", "-n", ns, "link", "add", f"veth{i}", "type", "veth", "peer", "name", f"peer{i}"],
                           check=True)
            for ifname in (f"veth{i}", f"peer{i}"):
                subprocess.run(["ip", "netns", "exec", ns, "ethtool", "-K", ifname, "tx", "off", "tso", "off",
                                "gso", "off", "gro", "off"], check=True, capture_output=True)
                subprocess.run(["ip", "-n", ns, "link", "set", ifname, "up"], check=True)
        self.ns = ns
        self.socks = {i: packet_socket(ns, f"peer{i}") for i in PORTS}
        ports = [arg for i in PORTS for arg in ("-i", f"{i}={prefix}veth{i}")]
        self.proc = subprocess.Popen(["ip", "netns", "exec", ns, str(program), *ports, *args,
                                      "--commands", str(EXAMPLE / "commands.txt")],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                                     cwd=program.parent)  # its control socket there, not in the checkout
        self.early = self._wait_ready()

    def _wait_ready(self) -> bytes:
        entries = (EXAMPLE / "commands.txt").read_text().count("\ntable_add")
        end = time.monotonic() + 30
        early = b""
        while early.count(b"Entry has been added") < entries and time.monotonic() < end:
            if select.select([self.proc.stdout], [], [], 0.1)[0]:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                early += chunk
        assert early.count(b"Entry has been added") == entries, (
            f"switch not ready\n{early.decode()}"
            f"{self.proc.stderr.read().decode() if self.proc.poll() is not None else ''}")
        return early

    def stop(self) -> tuple[str, str]:
        """SIGTERM, then what the switch printed: (stdout, stderr)."""
        self.proc.send_signal(signal.SIGTERM)
        out, err = self.proc.communicate(timeout=TIMEOUT)
        return (self.early + out).decode(), err.decode()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()
        for sock in self.socks.values():
            sock.close()


def test_l3fwd_on_veth(switch):
    target, program, prefix = switch
    diags = Diagnostics()
    statements = parse_stf_file(str(EXAMPLE / "l3fwd.stf"), diags)
    assert diags.error_count == 0
    sends = [(s.port, s.data) for s in statements if isinstance(s, Packet)]
    expects = {port: [s.pattern for s in statements if isinstance(s, Expect) and s.port == port] for port in PORTS}
    rng = random.Random(7)
    burst = [udp_frame(rng, (10, 0, rng.choice((1, 2, 3)), rng.randint(1, 254)), rng.randint(60, 1514))
             for _ in range(300)]
    burst_out = {port: [data for p, data in map(routed, burst) if p == port] for port in PORTS}
    want = {port: len(expects[port]) + len(burst_out[port]) for port in PORTS}

    with netns(f"p4odp-l3fwd-{os.getpid()}-{target}") as ns:
        switch = VethSwitch(ns, program, prefix, [])
        try:
            for port, data in sends:
                switch.socks[port].send(data)
            for frame in burst:
                switch.socks[0].send(frame)
            got = collect(switch.socks, want, time.monotonic() + 10, linger=0.3)
            out, err = switch.stop()
        finally:
            switch.close()
        # A clean stop takes the XDP programs away ("prog/xdp", "xdpgeneric" in ip's listing).
        links = subprocess.run(["ip", "-n", ns, "link", "show"], capture_output=True, text=True).stdout

    report = f"exit {switch.proc.returncode}\nstdout:\n{out}\nstderr:\n{err}"
    assert switch.proc.returncode == 0, report
    assert "xdp" not in links, links
    for port in PORTS:
        assert len(got[port]) == want[port], f"port {port}: {len(got[port])} frames, expected {want[port]}\n{report}"
        stf_part, burst_part = got[port][:len(expects[port])], got[port][len(expects[port]):]
        for i, (pattern, data) in enumerate(zip(expects[port], stf_part)):
            assert matches(pattern, data), f"port {port}, STF packet {i}: {data.hex()} is not {pattern}"
        assert burst_part == burst_out[port], f"port {port}: the burst came out changed or reordered"
    stats = counters(err)
    assert stats == {
        0: (len(sends) + len(burst), 0, f"{prefix}veth0"),
        **{port: (0, want[port], f"{prefix}veth{port}") for port in PORTS[1:]},
    }, report
    # Only the program drops: every packet it forwards is sent.
    assert set(drops(err)) <= {"dropped by the program"}, report


def flow_of(frame: bytes) -> bytes:
    """What the input hash keeps together: IPv4 addresses and UDP ports."""
    return frame[26:38]


# Input queues spread by a hash: the socket-mmap fanout group of target x86 (a veth has one AF_XDP queue).
@pytest.mark.parametrize("switch", ["x86"], indirect=True)
def test_two_workers_keep_each_flow(switch):
    """32 flows, 40 frames each, interleaved: with two workers each flow comes out on its port
    rewritten as with one and in its order, and both workers forwarded some."""
    target, program, prefix = switch
    rng = random.Random(11)
    flows = [(10, 0, 1 + i % 3, 1 + i) for i in range(32)]
    frames = [udp_frame(rng, dst, rng.randint(60, 600)) for dst in flows]
    # The same addresses and ports per flow, the payload numbering the frame in it.
    burst = [frames[f][:42] + n.to_bytes(2, "big") + rng.randbytes(len(frames[f]) - 44)
             for n in range(40) for f in range(len(flows))]
    expected: dict = {}
    for frame in burst:
        port, data = routed(frame)
        expected.setdefault((port, flow_of(frame)), []).append(data)
    want = {port: sum(len(v) for (p, _), v in expected.items() if p == port) for port in PORTS}

    with netns(f"p4odp-workers-{os.getpid()}") as ns:
        switch = VethSwitch(ns, program, prefix, ["-w", "2"])
        try:
            for frame in burst:
                switch.socks[0].send(frame)
            got = collect(switch.socks, want, time.monotonic() + 10, linger=0.3)
            out, err = switch.stop()
        finally:
            switch.close()

    report = f"exit {switch.proc.returncode}\nstdout:\n{out}\nstderr:\n{err}"
    assert switch.proc.returncode == 0, report
    received: dict = {}
    for port, frames_out in got.items():
        for data in frames_out:
            received.setdefault((port, flow_of(data)), []).append(data)
    assert received.keys() == expected.keys(), report
    for key, frames_out in expected.items():
        assert received[key] == frames_out, f"port {key[0]}: a flow came out changed or reordered\n{report}"
    load = {int(k): int(n) for k, n in re.findall(r"^worker (\d+) received (\d+)$", err, re.M)}
    assert sum(load.values()) == len(burst) and all(load.get(k) for k in (0, 1)), report
