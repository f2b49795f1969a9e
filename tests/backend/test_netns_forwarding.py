"""The l3fwd example as a switch on real interfaces: veth pairs in a network namespace.

The switch runs in a namespace of the test's own with ports 0..3 on veth0..veth3,
through AF_PACKET sockets (target x86, `-i 0=veth0`) or AF_XDP (target x86-xdp,
`-i 0=xdp:veth0`). The test sends the packets of examples/l3fwd/l3fwd.stf and a
burst of routed frames of all sizes into the far ends peer0..peer3, checks that
each port puts out what the STF file and the router's rewrite (MACs, TTL, IPv4
checksum) say, and nothing else, then stops the switch with SIGTERM and checks its
per-port counters. Root only.
"""

import os
import random
import re
import select
import signal
import subprocess
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
    subprocess.run(["python3", "-m", "p4odp.cli", "compile", str(EXAMPLE / "l3fwd.p4"), "--target", request.param,
                    "-o", str(out)], check=True, cwd=ROOT, timeout=TIMEOUT)
    prefix = "xdp:" if request.param == "x86-xdp" else ""
    return request.param, out / "switch", prefix


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
        for i in PORTS:
            subprocess.run(["ip", "-n", ns, "link", "add", f"veth{i}", "type", "veth", "peer", "name", f"peer{i}"],
                           check=True)
            for ifname in (f"veth{i}", f"peer{i}"):
                subprocess.run(["ip", "netns", "exec", ns, "ethtool", "-K", ifname, "tx", "off", "tso", "off",
                                "gso", "off", "gro", "off"], check=True, capture_output=True)
                subprocess.run(["ip", "-n", ns, "link", "set", ifname, "up"], check=True)
        socks = {i: packet_socket(ns, f"peer{i}") for i in PORTS}
        ports = [arg for i in PORTS for arg in ("-i", f"{i}={prefix}veth{i}")]
        proc = subprocess.Popen(["ip", "netns", "exec", ns, str(program), *ports,
                                 "--commands", str(EXAMPLE / "commands.txt")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        try:
            entries = (EXAMPLE / "commands.txt").read_text().count("\ntable_add")
            end = time.monotonic() + 30
            early = b""
            while early.count(b"Entry has been added") < entries and time.monotonic() < end:
                if select.select([proc.stdout], [], [], 0.1)[0]:
                    chunk = os.read(proc.stdout.fileno(), 4096)
                    if not chunk:
                        break
                    early += chunk
            assert early.count(b"Entry has been added") == entries, (
                f"switch not ready\n{early.decode()}{proc.stderr.read().decode() if proc.poll() is not None else ''}")
            for port, data in sends:
                socks[port].send(data)
            for frame in burst:
                socks[0].send(frame)
            got = collect(socks, want, time.monotonic() + 10, linger=0.3)
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=TIMEOUT)
            out, err = (early + out).decode(), err.decode()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
            for sock in socks.values():
                sock.close()
        # A clean stop takes the XDP programs away ("prog/xdp", "xdpgeneric" in ip's listing).
        links = subprocess.run(["ip", "-n", ns, "link", "show"], capture_output=True, text=True).stdout

    report = f"exit {proc.returncode}\nstdout:\n{out}\nstderr:\n{err}"
    assert proc.returncode == 0, report
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
