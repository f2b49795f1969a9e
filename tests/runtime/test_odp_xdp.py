"""Tests of the bundled ODP's AF_XDP packet I/O (make PKTIO=xdp, runtime/odp/pktio_xdp.c).

tests/runtime/c/odp_test_xdp.c forwards between xdp:a0 (a veth with four queues)
and xdp:b0 in a network namespace of the test's own; the test sends frames into
the far ends a1 and b1 through packet sockets and checks that each comes out of
the other pair byte for byte, then the counters the program prints. a0 runs in
native XDP mode, b0 in the generic mode the pktio falls back to. The program
itself checks the interface properties, that a start failing half way and a stop
leave no XDP program behind, restart and close. Root only; built with the default
C compiler and with AddressSanitizer + UBSan.
"""

import os
import random
import select
import shlex
import socket
import struct
import subprocess
import time

import pytest

from support import (SANITIZER_REPORTS, build_odp_programs, netns, packet_socket, require_command, require_debian,
                     require_root)

TIMEOUT = 60
MAGIC = b"P4ODPXDP"


@pytest.fixture(scope="module", params=["cc", "asan"])
def xdp_build(request, tmp_path_factory):
    """libodp-bundled.a with PKTIO=xdp and odp_test_xdp, plain or with sanitizers."""
    require_root("AF_XDP tests")
    require_debian({"pkgconf": "command -v pkg-config", "libxdp-dev": "pkg-config --exists libxdp",
                    "libbpf-dev": "pkg-config --exists libbpf"},
                   "AF_XDP tests")
    require_command("make")
    libs = subprocess.run(["pkg-config", "--libs", "libxdp", "libbpf"], check=True, capture_output=True,
                          text=True).stdout.split()
    out = build_odp_programs(tmp_path_factory.mktemp(f"odp-xdp-{request.param}"), ["odp_test_xdp"],
                             cc=shlex.split(os.environ.get("CC", "cc")), pktio="xdp", libs=libs,
                             sanitize=request.param == "asan", timeout=TIMEOUT)
    return request.param, out / "odp_test_xdp"


def udp_frame(rng: random.Random, seq: int, flow: int, length: int) -> bytes:
    """IPv4/UDP frame (flows differ in the source port) with MAGIC and seq after the UDP header."""
    eth = bytes.fromhex("02aabbccdd01 02aabbccdd02 0800".replace(" ", ""))
    ip_len = length - 14
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, ip_len, seq & 0xFFFF, 0, 64, 17, 0,
                     bytes([10, 0, 0, 1]), bytes([10, 0, 1, 1]))
    udp = struct.pack("!HHHH", 1024 + flow, 4791, ip_len - 20, 0)
    head = eth + ip + udp + MAGIC + struct.pack("!I", seq)
    return head + rng.randbytes(length - len(head))


def collect(sock: socket.socket, want: int, deadline: float) -> dict:
    """Test frames arriving on `sock` (not those it sends) by sequence number, until `want` or the deadline."""
    got = {}
    while len(got) < want and time.monotonic() < deadline:
        ready, _, _ = select.select([sock], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        data = sock.recv(65536)
        if data[42:50] != MAGIC:
            continue
        seq = struct.unpack("!I", data[50:54])[0]
        assert seq not in got, f"frame {seq} arrived twice"
        got[seq] = data
    return got


def read_line(proc: subprocess.Popen, timeout: float) -> str:
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    return proc.stdout.readline() if ready else ""


@pytest.mark.parametrize("a_queues", ["all", "one"])
def test_xdp_forwarding_on_veth(xdp_build, a_queues):
    """a0 opened with all four queues, or with one input queue: that queue must
    still get the frames of all four device queues (the switch opens one)."""
    variant, prog = xdp_build
    ns_name = f"p4odp-xdp-{os.getpid()}-{variant}-{a_queues}"
    with netns(ns_name) as ns:
        ip = ["ip", "-n", ns, "link"]
        subprocess.run([*ip, "add", "a0", "numtxqueues", "4", "numrxqueues", "4", "type", "veth",
                        "peer", "name", "a1", "numtxqueues", "4", "numrxqueues", "4"], check=True)
        subprocess.run([*ip, "add", "b0", "type", "veth", "peer", "name", "b1"], check=True)
        # veth refuses native XDP on b0 when its peer's MTU exceeds a page (for programs
        # without multi-buffer support, as libxdp's): b0 falls back to generic mode.
        subprocess.run([*ip, "set", "b1", "mtu", "4000"], check=True)
        for ifname in ("a0", "a1", "b0", "b1"):
            subprocess.run([*ip, "set", ifname, "up"], check=True)
        env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0",
               "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
        proc = subprocess.Popen(["ip", "netns", "exec", ns, str(prog), "a0", "b0", a_queues], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            ready = read_line(proc, 20)
            assert ready.split() == ["ready", f"queues={4 if a_queues == 'all' else 1}", "mode_a=native",
                                    "mode_b=generic"], (
                f"not ready: {ready!r}\n{proc.stderr.read() if proc.poll() is not None else ''}")
            a1 = packet_socket(ns, "a1")
            b1 = packet_socket(ns, "b1")
            rng = random.Random(1)
            forward = [udp_frame(rng, i, i % 64, rng.choice([60, 64, 1514, rng.randint(61, 1513)]))
                       for i in range(256)]
            backward = [udp_frame(rng, 1000 + i, i, rng.randint(60, 1514)) for i in range(64)]
            for i, frame in enumerate(forward):
                a1.send(frame)
                if i < len(backward):
                    b1.send(backward[i])
            deadline = time.monotonic() + 5
            at_b1 = collect(b1, len(forward), deadline)
            at_a1 = collect(a1, len(backward), deadline)
            a1.close()
            b1.close()
            out, err = proc.communicate(timeout=TIMEOUT)  # closes stdin: the program stops
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        report = f"exit {proc.returncode}\nstdout:\n{out}\nstderr:\n{err}"
        for sanitizer in SANITIZER_REPORTS:
            assert sanitizer not in err, report
        assert proc.returncode == 0, report
        assert sorted(at_b1) == list(range(len(forward))), f"frames lost from a1 to b1\n{report}"
        assert [at_b1[i] for i in range(len(forward))] == forward
        assert sorted(at_a1) == [1000 + i for i in range(len(backward))], f"frames lost from b1 to a1\n{report}"
        assert [at_a1[1000 + i] for i in range(len(backward))] == backward
        assert "odp_test_xdp: OK" in out
        counts = {k: int(v) for k, v in (item.split("=") for item in out.split() if "=" in item)}
        octets_fwd = sum(map(len, forward))
        octets_back = sum(map(len, backward))
        if a_queues == "all":
            assert counts["a_queues_used"] >= 2, "the flows were spread over a0's four queues"
        assert (counts["a_in"], counts["a_in_octets"]) == (len(forward), octets_fwd)
        assert (counts["b_out"], counts["b_out_octets"]) == (len(forward), octets_fwd)
        assert (counts["b_in"], counts["b_in_octets"]) == (len(backward), octets_back)
        assert (counts["a_out"], counts["a_out_octets"]) == (len(backward), octets_back)
        for key, value in counts.items():
            if key.endswith(("discards", "errors")):
                assert value == 0, f"{key}={value}"
