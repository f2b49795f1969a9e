"""Tests of the bundled ODP built with DPDK packet I/O (make PKTIO=dpdk).

Real DPDK, no hugepages: each program gets its EAL arguments (vdevs) from
ODP_PLATFORM_PARAMS, without shared files (--no-shconf) or telemetry socket,
so tests run in parallel with each other and with other DPDK processes.
tests/runtime/c/odp_test_dpdk.c forwards between net_pcap ports, passes
packets through a net_ring pair and a net_null port on several queues, and
checks that every received packet is its mbuf (zero copy). The pcap and loop
pktios are checked in the same build with the programs of test_odp_bundled.py.
"""

import os
import shlex
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from support import build_odp_programs, require_command, require_debian, require_root
from test_odp_bundled import PCAP_USEC, pcap_bytes, random_frames

TIMEOUT = 60
# --in-memory would be the usual choice, but DPDK 22.11 refuses it with --no-huge.
EAL = "--no-huge --no-pci --no-shconf -m 128 --no-telemetry --log-level=error"


@dataclass
class DpdkBuild:
    out: Path

    def run(self, args, eal, *, expect_rc=0, env=None):
        cmd = [str(self.out / args[0]), *map(str, args[1:])]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT,
                              env={**os.environ, "ODP_PLATFORM_PARAMS": f"{EAL} {eal}".strip(),
                                   **(env or {})})
        assert proc.returncode == expect_rc, (
            f"{cmd} with {eal!r} exited {proc.returncode}, expected {expect_rc}\n"
            f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
        return proc


@pytest.fixture(scope="module")
def dpdk(tmp_path_factory):
    require_debian({"libdpdk-dev": "pkg-config --exists libdpdk"}, "DPDK tests")
    require_command("make")
    libs = subprocess.run(["pkg-config", "--libs", "libdpdk"], check=True, capture_output=True,
                          text=True).stdout.split()
    programs = {"odp_test_dpdk": ["-lrte_net_ring"], "odp_test_pcap": [], "odp_test_loop": []}
    # The Makefile adds DPDK's cflags with PKTIO=dpdk; the programs get them from pkg-config too.
    cflags = subprocess.run(["pkg-config", "--cflags", "libdpdk"], check=True, capture_output=True,
                            text=True).stdout.split()
    return DpdkBuild(build_odp_programs(tmp_path_factory.mktemp("odp-dpdk"), programs,
                                        cc=shlex.split(os.environ.get("CC", "cc")), pktio="dpdk",
                                        cflags=cflags, libs=libs, timeout=300))


def pcap_frames(path):
    """The frames of a pcap file in either time stamp resolution (net_pcap writes ns)."""
    raw = Path(path).read_bytes()
    assert struct.unpack("=I", raw[:4])[0] in (PCAP_USEC, 0xA1B23C4D)
    frames = []
    off = 24
    while off < len(raw):
        _, _, caplen, orig = struct.unpack("=IIII", raw[off:off + 16])
        assert caplen == orig
        frames.append(raw[off + 16:off + 16 + caplen])
        off += 16 + caplen
    assert off == len(raw)
    return frames


def counts(proc):
    return {k: int(v) for k, v in (item.split("=") for item in proc.stdout.split())}


def test_eal_failure_names_the_variable(dpdk):
    proc = dpdk.run(["odp_test_dpdk", "init"], "--no-such-eal-option", expect_rc=3)
    assert "DPDK EAL initialization failed" in proc.stderr
    assert "ODP_PLATFORM_PARAMS=" in proc.stderr and "--no-huge" in proc.stderr


def test_odp_linux_variable(dpdk):
    env = {k: v for k, v in os.environ.items() if k != "ODP_PLATFORM_PARAMS"}
    proc = subprocess.run([str(dpdk.out / "odp_test_dpdk"), "init"], capture_output=True, text=True,
                          timeout=TIMEOUT, env={**env, "ODP_PKTIO_DPDK_PARAMS": EAL})
    assert proc.returncode == 0, proc.stderr


def test_pcap_vdevs_forward_byte_for_byte(dpdk, tmp_path):
    frames = random_frames(40, seed=11)
    # Longer than the pool's packets: net_pcap chains mbufs, the pktio drops the chain.
    frames.insert(5, bytes(range(256)) * 12)
    src, dst = tmp_path / "in.pcap", tmp_path / "out.pcap"
    src.write_bytes(pcap_bytes([(1, i, f) for i, f in enumerate(frames)]))
    eal = (f"--vdev net_pcap_a{os.getpid()},rx_pcap={src},tx_pcap={tmp_path / 'back.pcap'} "
           f"--vdev net_pcap_b{os.getpid()},tx_pcap={dst}")
    assert counts(dpdk.run(["odp_test_dpdk", "fwd", 0, 1, 2048], eal)) == {
        "rx": 40, "tx": 40, "discards": 1}
    assert pcap_frames(dst) == frames[:5] + frames[6:]


@pytest.mark.parametrize("queues", [1, 4])
def test_ring_pair_queues_zero_copy(dpdk, queues):
    assert "ring: OK" in dpdk.run(["odp_test_dpdk", "ring", queues], "").stdout


def test_null_vdev_queues(dpdk):
    eal = f"--vdev net_null_t{os.getpid()}"
    assert "null: OK" in dpdk.run(["odp_test_dpdk", "null", 4], eal).stdout


@pytest.mark.parametrize("ports", [1, 4])
def test_small_pool_starts_ports_that_fill_their_rx_rings(dpdk, ports):
    """net_tap takes an mbuf per RX descriptor at start: 1024 descriptors did not start
    with a pool of 512 packets, and a quarter of the pool for each of 4 ports left the
    application nothing; the ports share the pool's share."""
    require_root("the net_tap vdev")
    if not os.path.exists("/dev/net/tun"):
        pytest.skip("no /dev/net/tun")
    eal = " ".join(f"--vdev net_tap_t{os.getpid()}_{i},iface=p4t{os.getpid()}_{i}"
                   for i in range(ports))
    assert "tap: OK" in dpdk.run(["odp_test_dpdk", "tap", ports], eal).stdout


def test_pcap_pktio_in_dpdk_build(dpdk, tmp_path):
    frames = random_frames(25, seed=3)
    src, dst = tmp_path / "in.pcap", tmp_path / "out.pcap"
    src.write_bytes(pcap_bytes([(1, i, f) for i, f in enumerate(frames)]))
    proc = dpdk.run(["odp_test_pcap", "fwd", f"pcap:in={src}:out={dst}:loops=2", 8, 2048], "")
    assert counts(proc) == {"rx": 50, "tx": 50, "discards": 0, "errors": 0}
    assert pcap_frames(dst) == frames * 2


def test_loop_pktio_and_threads_in_dpdk_build(dpdk):
    assert "odp_test_loop: OK" in dpdk.run(["odp_test_loop"], "").stdout
