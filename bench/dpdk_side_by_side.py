#!/usr/bin/env python3
"""The examples' switches side by side with DPDK's own l2fwd and l3fwd.

    python3 bench/dpdk_side_by_side.py [--rounds N] [--seconds S] [--warmup S] [--sizes 64,128,...]
                                       [--cpu C] [--workers N] [--worker-cpus LIST] [--hugepages]
                                       [--json FILE] [--no-instructions] [--skip-unavailable] [-v]

A benchmark, not a test: it prints packet rates and their ratios, and fails only when
something cannot be built or run.

What runs.  DPDK's l2fwd and l3fwd, built with their own Makefiles from the sources
Debian's dpdk-doc package installs (/usr/share/dpdk/examples, or $DPDK_EXAMPLES) against
pkg-config's libdpdk, in a tree of symbolic links under the cache folder
($P4ODP_CACHE_DIR, else $XDG_CACHE_HOME/p4odp, else ~/.cache/p4odp: dpdk-examples/KEY,
keyed by DPDK's version, flags, the sources and the compiler); nothing of theirs enters this
repository.  Against them, examples/l2fwd and examples/l3fwd compiled for x86-dpdk.  As
root, missing Debian packages (dpdk-doc, libdpdk-dev, pkg-config) are installed first.

Traffic.  Each program reads one pcap from memory (`net_pcap0,rx_pcap=F,infinite_rx=1`,
2,000 frames) and sends into `net_null0,no-rx=1`: the same two vdevs and the same file for
both sides.  A frame of size S is S - 4 bytes in the pcap (the 4-byte FCS is not there).
  l2fwd: 1,000 random unicast MACs, each the destination of two frames, in random order;
    ours has 1,000 `table_add dmac forward MAC => 1` entries (exact match) and the frames' one
    source in `smac` (a known source: no digest to learn it).  DPDK's l2fwd
    looks nothing up: it sends everything from port 0 to port 1, rewriting both MACs.
  l3fwd: 1,000 IPv4 routes (/16 to /32, mostly /24; those longer than /24 take a
    second-level lookup in both), each the route of at least one frame's destination,
    the others random over the routes.  Ours gets them as `table_add ipv4_lpm
    ipv4_forward P/L => 00:00:00:00:01:01 1`; DPDK's l3fwd (`--lookup lpm`) as a rule file
    (`--rule_ipv4`, `R P/L 1`; 22.11 reads its routes from rule files when given both
    --rule_ipv4 and --rule_ipv6, otherwise from arrays compiled in).  Every destination
    hits a route in both.  What differs: DPDK's l3fwd does not verify the IPv4 checksum
    and updates it incrementally (RFC 1812 checks); ours verifies it and computes it again,
    as the P4 program says; DPDK's needs `--parse-ptype` (a software packet-type parser on
    RX, as net_pcap gives none), and asks for RX checksum offload, which software vdevs do
    not have: bench/dpdk_offload_shim.c, preloaded into l3fwd only, keeps of the RX
    offloads asked for those the device has (l3fwd's LPM path never reads them).

How.  One core each: every program runs under `taskset -c CPU` (all its threads) with
EAL `-l CPU`, ours with `-w 1 -c CPU` too, one program at a time, in rounds; in each round
the reference and ours run back to back, in alternating order from round to round.  The
rate is the output port's packet counter (`opackets` of net_null) over `--seconds`, from
`--warmup` seconds after the first packet out.  It is read through DPDK's telemetry socket,
the same way for every program (DPDK's l3fwd prints no counters, and one counter read
one way keeps the ratio free of differences in how programs count).  Each round gives a
ratio ours / reference; the table shows the median and the range (min-max) over rounds.
With `--workers N` (default 2 where there are 2 CPUs), a third row compares ours with N
workers (pinned to N CPUs) to ours with one, on the same frames: for N workers they are
dealt to N files, N RX queues of net_pcap0, by the flow hash `p4odp bench` uses.  The
rates are only as steady as the machine: other load on the CPUs shows in the range.

Memory.  Every program runs without hugepages (`--no-huge -m 512`) unless `--hugepages` is
given: then with 512 MB of 2 MB pages each, as DPDK is deployed (reserved through
/proc/sys/vm/nr_hugepages, and hugetlbfs mounted on /dev/hugepages, when root and missing).
The rates and ratios differ a lot between the two: compare runs of one kind only.

Then it counts, with valgrind's callgrind (bench/pipeline_instructions.py), the
instructions per packet of each example's pipeline with the same entries and traffic (the
smallest frame size), x86 target; skipped without valgrind or with --no-instructions.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import random
import shlex
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

from p4odp.backend.requirements import install_debian_packages
from p4odp.backend.runtime_cache import cache_dir
from p4odp.stf.pcap import write_pcap
from p4odp.throughput.traffic import FCS_LEN, MIN_SIZE, split_by_queue

REPO = Path(__file__).resolve().parents[1]
SHIM = Path(__file__).resolve().parent / "dpdk_offload_shim.c"
DPDK_EXAMPLES = Path(os.environ.get("DPDK_EXAMPLES", "/usr/share/dpdk/examples"))
DEBIAN = ["dpdk-doc", "libdpdk-dev", "pkg-config"]
# Without PCI or files shared between processes; telemetry stays on: the benchmark reads
# the ports' counters through it.  512 MB of memory, of hugepages or (--no-huge) not.
EAL = ["--no-pci", "--no-shconf", "-m", "512"]
NO_HUGEPAGES = ("--no-huge",)
HUGEPAGES_NEEDED = 512 // 2 + 16   # 2 MB pages: one program's 512 MB at a time, and some slack
ENTRIES = 1000          # table entries, routes
FRAMES = 2000           # frames in each pcap
NEXT_HOP = "00:00:00:00:01:01"
MAX_SIZE = 1518         # DPDK's examples' buffers hold 2 KiB, and infinite_rx takes no chained ones
IN_PORT, OUT_PORT = 0, 1
TARGET = 0.8            # the ratio to DPDK's program that issue 9 asks for
WORKER_SCALING = 0.85   # N workers against one: 0.85 N (1.7 for 2, as issue 9 asks)
START_TIMEOUT = 60.0    # seconds until the first packet leaves
STOP_TIMEOUT = 20.0


class BenchError(Exception):
    """Something the benchmark cannot do, said to the user as is."""


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, capture_output=True, text=True, **kwargs)
    except OSError as error:
        raise BenchError(f"cannot run {command[0]}: {error.strerror}") from None


# ---------------------------------------------------------------------------- DPDK's programs

def dpdk_missing() -> Optional[str]:
    """Why DPDK's examples cannot be built here, or None."""
    missing = []
    if shutil.which("pkg-config") is None or run(["pkg-config", "--exists", "libdpdk"]).returncode != 0:
        missing.append("libdpdk-dev (pkg-config libdpdk)")
    if not all((DPDK_EXAMPLES / name / "Makefile").is_file() for name in ("l2fwd", "l3fwd")) \
            or not (DPDK_EXAMPLES / "common").is_dir():
        missing.append(f"DPDK's example sources (dpdk-doc) in {DPDK_EXAMPLES}")
    for tool in ("make", os.environ.get("CC", "cc"), "taskset"):
        if shutil.which(tool) is None:
            missing.append(tool)
    if not missing:
        return None
    return f"needs {', '.join(missing)} (Debian: apt-get install {' '.join(DEBIAN)})"


def ensure_dpdk() -> Optional[str]:
    """None when DPDK's examples can be built, after installing Debian's packages as root;
    else why not."""
    reason = dpdk_missing()
    if reason and os.geteuid() == 0:
        installed, what = install_debian_packages(DEBIAN)
        reason = dpdk_missing() if installed else f"{reason}; {what}"
    return reason


def pkg_config(*args: str) -> str:
    result = run(["pkg-config", *args, "libdpdk"])
    if result.returncode != 0:
        raise BenchError(f"pkg-config {' '.join(args)} libdpdk failed: {result.stderr.strip()}")
    return result.stdout.strip()


@dataclasses.dataclass(frozen=True)
class DpdkBuild:
    version: str
    l2fwd: Path
    l3fwd: Path
    shim: Path


def build_dpdk(scratch: Path, verbose: bool) -> DpdkBuild:
    """DPDK's l2fwd and l3fwd and the offload shim, from the cache or built now."""
    version = pkg_config("--modversion")
    cflags, libs = pkg_config("--cflags"), pkg_config("--libs")
    cc = os.environ.get("CC", "cc")
    key = hashlib.sha256()
    compiler = run([cc, "--version"]).stdout.splitlines()
    for part in (version, cflags, libs, cc, compiler[0] if compiler else ""):
        key.update(part.encode() + b"\0")
    sources = [(SHIM.name, SHIM)] + sorted((str(p.relative_to(DPDK_EXAMPLES)), p)
                                           for name in ("common", "l2fwd", "l3fwd")
                                           for p in (DPDK_EXAMPLES / name).rglob("*") if p.is_file())
    for name, source in sources:
        key.update(name.encode() + b"\0" + source.read_bytes())
    cache = cache_dir()
    folder = cache / "dpdk-examples" / key.hexdigest()[:16] if cache else None
    if folder is None or not _writable(folder.parent):
        folder = scratch / "dpdk-examples"
    result = DpdkBuild(version, folder / "l2fwd" / "build" / "l2fwd", folder / "l3fwd" / "build" / "l3fwd",
                       folder / "dpdk_offload_shim.so")
    if (folder / "built").exists():
        return result
    print(f"building DPDK {version}'s l2fwd and l3fwd from {DPDK_EXAMPLES} in {folder}", file=sys.stderr, flush=True)
    work = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".build-"))
    try:
        for name in ("common", "l2fwd", "l3fwd"):
            _link_tree(DPDK_EXAMPLES / name, work / name)
        commands = [["make", "-s", "-C", str(work / "l2fwd")], ["make", "-s", "-C", str(work / "l3fwd")],
                    [cc, "-O2", "-shared", "-fPIC", *shlex.split(cflags), str(SHIM), "-o",
                     str(work / "dpdk_offload_shim.so"), *shlex.split(libs), "-ldl"]]
        for command in commands:
            if verbose:
                print(f"  {shlex.join(command)}", file=sys.stderr)
            built = run(command)
            if built.returncode != 0:
                raise BenchError(f"building DPDK's examples failed: {shlex.join(command)}\n"
                                 + _tail(built.stdout + built.stderr))
        (work / "built").touch()
        try:
            os.replace(work, folder)
        except OSError:
            if not (folder / "built").exists():  # not another run's build that won the race
                raise BenchError(f"cannot move the build into {folder}") from None
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return result


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def _link_tree(source: Path, target: Path) -> None:
    """`target` mirrors `source`: real folders, files as symbolic links (builds write only
    into their own build/ folder there)."""
    for folder, _, files in os.walk(source):
        mirror = target / Path(folder).relative_to(source)
        mirror.mkdir(parents=True, exist_ok=True)
        for name in files:
            (mirror / name).symlink_to(Path(folder) / name)


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


# ---------------------------------------------------------------------------- our switches

def compile_switch(example: str, out: Path) -> Path:
    source = REPO / "examples" / example / f"{example}.p4"
    result = run([sys.executable, "-m", "p4odp.cli", "compile", str(source), "--target", "x86-dpdk",
                  "-o", str(out)])
    if result.returncode != 0:
        raise BenchError(f"p4odp compile {source} --target x86-dpdk failed:\n" + _tail(result.stdout + result.stderr))
    return out / "switch"


# ---------------------------------------------------------------------------- traffic

def mac_text(mac: bytes) -> str:
    return ":".join(f"{b:02x}" for b in mac)


def ipv4_text(address: int) -> str:
    return ".".join(str(address >> shift & 255) for shift in (24, 16, 8, 0))


def ipv4_checksum(header: bytes) -> int:
    total = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


@dataclasses.dataclass
class Traffic:
    """What one example's side by side needs: its frames (one list per size), our commands,
    and DPDK's rule files."""
    frames: dict[int, list[bytes]] = dataclasses.field(default_factory=dict)
    pcaps: dict[int, Path] = dataclasses.field(default_factory=dict)
    commands: Optional[Path] = None
    rules_v4: Optional[Path] = None
    rules_v6: Optional[Path] = None


def l2_traffic(sizes: list[int], work: Path) -> Traffic:
    rng = random.Random(2)
    macs: set[bytes] = set()
    while len(macs) < ENTRIES:  # locally administered unicast
        macs.add(bytes([0x02]) + rng.randbytes(5))
    ordered = sorted(macs)
    destinations = ordered * (FRAMES // ENTRIES) + rng.sample(ordered, FRAMES % ENTRIES)
    rng.shuffle(destinations)
    source = bytes.fromhex("0200000000fe")
    traffic = Traffic(commands=work / "l2fwd-commands.txt")
    traffic.commands.write_text(f"table_add smac NoAction {mac_text(source)} =>\n" +  # a known source: no digest
                                "".join(f"table_add dmac forward {mac_text(mac)} => {OUT_PORT}\n" for mac in ordered))
    for size in sizes:
        traffic.frames[size] = [dst + source + b"\x88\xb5" + bytes(size - FCS_LEN - 14) for dst in destinations]
    return traffic


def l3_traffic(sizes: list[int], work: Path) -> Traffic:
    rng = random.Random(3)
    lengths = [16] * 50 + [20] * 50 + [24] * 750 + [28] * 50 + [32] * 100
    routes: set[tuple[int, int]] = set()
    while len(routes) < ENTRIES:
        first = rng.choice([n for n in range(1, 224) if n not in (10, 127)])  # 10/8 holds the source
        length = lengths[len(routes)]
        address = first << 24 | rng.getrandbits(24)
        routes.add((address >> (32 - length) << (32 - length), length))
    ordered = sorted(routes)
    picks = ordered + [rng.choice(ordered) for _ in range(FRAMES - len(ordered))]
    rng.shuffle(picks)
    destinations = [prefix | rng.getrandbits(32 - length) if length < 32 else prefix for prefix, length in picks]
    traffic = Traffic(commands=work / "l3fwd-commands.txt", rules_v4=work / "l3fwd-rules-v4.cfg",
                      rules_v6=work / "l3fwd-rules-v6.cfg")
    traffic.commands.write_text("table_set_default ipv4_lpm drop\n" + "".join(
        f"table_add ipv4_lpm ipv4_forward {ipv4_text(p)}/{n} => {NEXT_HOP} {OUT_PORT}\n" for p, n in ordered))
    traffic.rules_v4.write_text("".join(f"R{ipv4_text(p)}/{n} {OUT_PORT}\n" for p, n in ordered))
    # l3fwd reads rule files only when given both; no IPv6 packet is sent.
    traffic.rules_v6.write_text(f"R2001:db8::/32 {OUT_PORT}\n")
    ethernet = bytes.fromhex("020000000001" "0200000000fe" "0800")
    for size in sizes:
        frames = []
        for dst in destinations:
            total = size - FCS_LEN - 14
            header = struct.pack("!BBHHHBBHII", 0x45, 0, total, 0, 0, 64, 17, 0, 0x0A000001, dst)
            header = header[:10] + struct.pack("!H", ipv4_checksum(header)) + header[12:]
            udp = struct.pack("!HHHH", 1024, 2048, total - 20, 0)
            frames.append(ethernet + header + udp + bytes(total - 28))
        traffic.frames[size] = frames
    return traffic


def write_pcaps(traffic: Traffic, name: str, work: Path) -> None:
    for size, frames in traffic.frames.items():
        traffic.pcaps[size] = work / f"{name}-{size}.pcap"
        write_pcap(str(traffic.pcaps[size]), frames)


def queue_pcaps(traffic: Traffic, name: str, size: int, queues: int, work: Path) -> tuple[Path, ...]:
    """The frames of one size dealt to `queues` files by the bundled ODP's flow hash, as
    `p4odp bench` deals them to the RX queues of net_pcap (it has no RSS)."""
    paths = []
    for queue, frames in enumerate(split_by_queue(traffic.frames[size], queues)):
        if not frames:
            raise BenchError(f"{name}: the flow hash gives RX queue {queue} of {queues} none of the frames")
        paths.append(work / f"{name}-{size}-queue{queue}of{queues}.pcap")
        write_pcap(str(paths[-1]), frames)
    return tuple(paths)


# ---------------------------------------------------------------------------- running and measuring

def vdevs(pcaps: tuple[Path, ...]) -> list[str]:
    """net_pcap0 replays each file as one RX queue; net_null1 takes what is sent."""
    rx = ",".join(f"rx_pcap={pcap}" for pcap in pcaps)
    return ["--vdev", f"net_pcap0,{rx},infinite_rx=1", "--vdev", "net_null0,no-rx=1"]


@dataclasses.dataclass(frozen=True)
class Program:
    """One program on one traffic: `command(prefix)` gives its argv and extra environment
    for a run whose DPDK file prefix is `prefix`."""
    label: str
    kind: str            # "dpdk-l2fwd", "dpdk-l3fwd", "p4odp"
    binary: Path
    cpus: str            # taskset list; the first is the EAL's lcore
    pcaps: tuple         # one per RX queue of net_pcap0
    args: tuple = ()     # after the EAL's for DPDK's programs, the switch's options for ours
    preload: Optional[Path] = None
    memory: tuple = NO_HUGEPAGES  # EAL options of its memory: none for hugepages

    def command(self, prefix: str) -> tuple[list[str], dict[str, str]]:
        lcore = self.cpus.replace("-", ",").split(",")[0]
        eal = ["-l", lcore, *self.memory, *EAL, "--file-prefix", prefix, *vdevs(self.pcaps)]
        env = {"LD_PRELOAD": str(self.preload)} if self.preload else {}
        if self.kind == "p4odp":
            env["ODP_PLATFORM_PARAMS"] = shlex.join(eal)
            return ["taskset", "-c", self.cpus, str(self.binary), *self.args], env
        return ["taskset", "-c", self.cpus, str(self.binary), *eal, "--", *self.args], env


def free_hugepages() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("HugePages_Free:"):
            return int(line.split()[1])
    return 0


def ensure_hugepages() -> None:
    """HUGEPAGES_NEEDED free 2 MB pages and a hugetlbfs mount: reserved and mounted when
    root and missing; BenchError saying what is missing otherwise."""
    mounted = any(line.split()[2] == "hugetlbfs" for line in Path("/proc/mounts").read_text().splitlines())
    missing = HUGEPAGES_NEEDED - free_hugepages()
    if os.getuid() == 0:
        if missing > 0:
            total = Path("/proc/sys/vm/nr_hugepages")
            total.write_text(f"{int(total.read_text()) + missing}\n")
        if not mounted:
            Path("/dev/hugepages").mkdir(exist_ok=True)
            mounted = run(["mount", "-t", "hugetlbfs", "nodev", "/dev/hugepages"]).returncode == 0
        missing = HUGEPAGES_NEEDED - free_hugepages()
    if missing > 0 or not mounted:
        raise BenchError(f"--hugepages needs {HUGEPAGES_NEEDED} free 2 MB pages (free: {free_hugepages()}) "
                         f"and a hugetlbfs mount ({'there' if mounted else 'none'}); as root this benchmark "
                         "reserves and mounts them")


def runtime_dir(prefix: str) -> Path:
    """Where DPDK puts a process's runtime files (its telemetry socket): as
    eal_create_runtime_dir() decides."""
    if os.getuid() == 0:
        base = "/var/run"
    else:
        base = os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return Path(base) / "dpdk" / prefix


class Telemetry:
    """A client of DPDK's telemetry socket (v2: JSON over SOCK_SEQPACKET)."""

    def __init__(self, path: Path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket.settimeout(5.0)
        self.socket.connect(str(path))
        json.loads(self.socket.recv(16384))  # the greeting: version, pid, max_output_len

    def query(self, command: str) -> dict:
        self.socket.send(command.encode())
        return json.loads(self.socket.recv(1 << 16))[command.split(",")[0]]

    def port(self, port: int) -> dict:
        return self.query(f"/ethdev/stats,{port}")

    def close(self) -> None:
        self.socket.close()


@dataclasses.dataclass(frozen=True)
class Sample:
    mpps: float
    delivered: float     # packets sent to the output port / packets received, in the window


class Runner:
    """Runs programs one at a time, each with its own DPDK file prefix and log."""

    def __init__(self, logs: Path, seconds: float, warmup: float, verbose: bool):
        self.logs, self.seconds, self.warmup, self.verbose = logs, seconds, warmup, verbose
        self.runs = 0
        self.shown: set[str] = set()
        self.process: Optional[subprocess.Popen] = None

    def measure(self, program: Program) -> Sample:
        self.runs += 1
        prefix = f"p4odp-bench-{os.getpid()}-{self.runs}"
        argv, extra = program.command(prefix)
        if self.verbose and program.label not in self.shown:
            self.shown.add(program.label)
            print(f"  {program.label}: {shell_line(argv, extra)}", file=sys.stderr, flush=True)
        log_path = self.logs / f"{self.runs:03d}-{program.kind}.log"
        with open(log_path, "w") as log:
            try:
                self.process = subprocess.Popen(argv, env={**os.environ, **extra}, stdin=subprocess.DEVNULL,
                                                stdout=log, stderr=subprocess.STDOUT)
            except OSError as error:
                raise BenchError(f"cannot run {argv[0]}: {error.strerror}") from None
            try:
                return self._sample(program, prefix, log_path)
            finally:
                self.stop()
                _remove_empty(runtime_dir(prefix))

    def _sample(self, program: Program, prefix: str, log_path: Path) -> Sample:
        sock = runtime_dir(prefix) / "dpdk_telemetry.v2"
        deadline = time.monotonic() + START_TIMEOUT
        telemetry = None
        try:
            while telemetry is None:
                self._check_alive(program, log_path)
                if time.monotonic() > deadline:
                    raise BenchError(f"{program.label}: no telemetry socket {sock} after {START_TIMEOUT:.0f} s")
                try:
                    telemetry = Telemetry(sock)
                except (OSError, ValueError):
                    time.sleep(0.1)
            while telemetry.port(OUT_PORT)["opackets"] == 0:
                self._check_alive(program, log_path)
                if time.monotonic() > deadline:
                    raise BenchError(f"{program.label}: no packet sent after {START_TIMEOUT:.0f} s\n"
                                     + _tail(log_path.read_text(errors="replace")))
                time.sleep(0.05)
            time.sleep(self.warmup)
            t0, out0, in0 = self._counters(telemetry)
            time.sleep(self.seconds)
            t1, out1, in1 = self._counters(telemetry)
        except (OSError, ValueError, KeyError) as error:
            self._check_alive(program, log_path)
            raise BenchError(f"{program.label}: reading its counters through telemetry failed: {error}") from None
        finally:
            if telemetry is not None:
                telemetry.close()
        return Sample((out1 - out0) / (t1 - t0) / 1e6, (out1 - out0) / max(in1 - in0, 1))

    @staticmethod
    def _counters(telemetry: Telemetry) -> tuple[float, int, int]:
        before = time.monotonic()
        sent = telemetry.port(OUT_PORT)["opackets"]
        after = time.monotonic()
        received = telemetry.port(IN_PORT)["ipackets"]
        return (before + after) / 2, sent, received

    def _check_alive(self, program: Program, log_path: Path) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise BenchError(f"{program.label} stopped (exit status {self.process.returncode}):\n"
                             + _tail(log_path.read_text(errors="replace")))

    def stop(self) -> None:
        """SIGINT to the program started last (they all stop cleanly on it), SIGKILL if it
        does not stop."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _remove_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


def shell_line(argv: list[str], env: dict[str, str]) -> str:
    return " ".join([*(f"{k}={shlex.quote(v)}" for k, v in env.items()), shlex.join(argv)])


# ---------------------------------------------------------------------------- the side by side

@dataclasses.dataclass
class Row:
    """One comparison at one size: reference and ours, one rate each per round."""
    name: str
    size: int
    reference: Program
    ours: Program
    target: float
    rates: dict[str, list[float]] = dataclasses.field(default_factory=lambda: {"reference": [], "ours": []})
    delivered: dict[str, list[float]] = dataclasses.field(default_factory=lambda: {"reference": [], "ours": []})

    @property
    def ratios(self) -> list[float]:
        return [o / r if r else 0.0 for o, r in zip(self.rates["ours"], self.rates["reference"])]


def spread(values: list[float], digits: int = 2) -> str:
    if not values:
        return "-"
    low, high = min(values), max(values)
    return f"{statistics.median(values):.{digits}f} ({low:.{digits}f}-{high:.{digits}f})"


def print_table(rows: list[Row], header: str) -> None:
    print(header)
    names = ["comparison", "frame", "reference Mpps", "p4odp Mpps", "ratio", "ratio min-max", "target"]
    table = [names]
    for row in rows:
        ratios = row.ratios
        table.append([row.name, f"{row.size} B", f"{row.reference.label}: {spread(row.rates['reference'])}",
                      spread(row.rates["ours"]), f"{statistics.median(ratios):.2f}x" if ratios else "-",
                      f"{min(ratios):.2f}-{max(ratios):.2f}" if ratios else "-", f">= {row.target}x"])
    widths = [max(len(line[i]) for line in table) for i in range(len(names))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
    for row in rows:
        for side in ("reference", "ours"):
            lost = [1 - d for d in row.delivered[side] if d < 0.99]
            if lost:
                label = row.reference.label if side == "reference" else row.ours.label
                print(f"note: {row.name}, {row.size} B: {label} did not send up to {max(lost):.1%} of what it "
                      f"received in {len(lost)} round(s)")


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes in bytes separated by commas, not {text!r}") from None
    if not sizes or any(size < MIN_SIZE or size > MAX_SIZE for size in sizes):
        raise argparse.ArgumentTypeError(f"frame sizes are {MIN_SIZE} to {MAX_SIZE} bytes (DPDK's examples "
                                         f"receive into 2 KiB buffers)")
    return sizes


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cpus = sorted(os.sched_getaffinity(0))
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per run (default 3)")
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="seconds between the first packet sent and the measure (default 1)")
    parser.add_argument("--sizes", type=parse_sizes, default=[64], help="frame sizes with FCS (default 64)")
    parser.add_argument("--cpu", type=int, default=cpus[-1], help=f"the one CPU of each run (default {cpus[-1]})")
    parser.add_argument("--workers", type=int, default=min(2, len(cpus)),
                        help="N > 1 adds ours with N workers against ours with one, l2fwd (default: 2 "
                             "with 2 CPUs or more)")
    parser.add_argument("--worker-cpus", help="CPUs of the N workers (default: the first N this process may use)")
    parser.add_argument("--hugepages", action="store_true",
                        help="run every program with 512 MB of 2 MB hugepages (reserved and mounted when root) "
                             "instead of --no-huge")
    parser.add_argument("--json", type=Path, help="also write every round's figures to this file")
    parser.add_argument("--no-instructions", action="store_true", help="do not count instructions with callgrind")
    parser.add_argument("--skip-unavailable", action="store_true",
                        help="without DPDK's examples or libdpdk, say why and exit 0 (make bench)")
    parser.add_argument("-v", "--verbose", action="store_true", help="show the build and every command run")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0 or args.warmup < 0 or args.workers < 1:
        parser.error("--rounds and --workers are at least 1, --seconds more than 0, --warmup at least 0")
    if args.cpu not in cpus:
        parser.error(f"--cpu {args.cpu}: this process may use CPUs {','.join(map(str, cpus))}")
    if args.workers > 1 and args.worker_cpus is None:
        if len(cpus) < args.workers:
            parser.error(f"{args.workers} workers need {args.workers} CPUs; this process may use {len(cpus)}")
        args.worker_cpus = ",".join(map(str, cpus[:args.workers]))
    return args


def main() -> int:
    args = parse_args()
    # Stopped by SIGTERM, it stops the program it runs first (the `finally`s do).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    reason = ensure_dpdk()
    if reason:
        if args.skip_unavailable:
            print(f"dpdk_side_by_side: skipped: {reason}")
            return 0
        raise BenchError(reason)
    if args.hugepages:
        ensure_hugepages()
    with tempfile.TemporaryDirectory(prefix="p4odp-dpdk-bench-") as tmp:
        work = Path(tmp)
        dpdk = build_dpdk(work, args.verbose)
        print("compiling examples/l2fwd and examples/l3fwd for x86-dpdk", file=sys.stderr, flush=True)
        switches = {example: compile_switch(example, work / example) for example in ("l2fwd", "l3fwd")}
        l2, l3 = l2_traffic(args.sizes, work), l3_traffic(args.sizes, work)
        write_pcaps(l2, "l2fwd", work)
        write_pcaps(l3, "l3fwd", work)
        rows = [row for size in args.sizes for row in comparisons(size, dpdk, switches, l2, l3, args, work)]
        logs = work / "logs"
        logs.mkdir()
        runner = Runner(logs, args.seconds, args.warmup, args.verbose)
        try:
            for r in range(args.rounds):
                for row in rows:
                    # Alternate the order, so that a drift in the machine's load does not
                    # favour one side.
                    for side in ("reference", "ours") if r % 2 == 0 else ("ours", "reference"):
                        sample = runner.measure(row.reference if side == "reference" else row.ours)
                        row.rates[side].append(sample.mpps)
                        row.delivered[side].append(sample.delivered)
                    print(f"round {r + 1}/{args.rounds}, {row.name}, {row.size} B: {row.reference.label} "
                          f"{row.rates['reference'][-1]:.2f} Mpps, {row.ours.label} {row.rates['ours'][-1]:.2f} Mpps",
                          file=sys.stderr, flush=True)
        finally:
            runner.stop()
        print_table(rows, f"DPDK {dpdk.version} examples vs p4odp (x86-dpdk), {args.rounds} round(s), alternating, "
                          f"{args.seconds:g} s each after {args.warmup:g} s; one core (CPU {args.cpu}) per run; "
                          f"{'2 MB hugepages' if args.hugepages else 'no hugepages'}; "
                          f"net_pcap infinite_rx ({FRAMES} frames) -> net_null; Mpps median (min-max)")
        instructions = {} if args.no_instructions else count_instructions(l2, l3, min(args.sizes), work)
        if args.json:
            write_json(args.json, dpdk, rows, instructions, args)
    return 0


def comparisons(size: int, dpdk: DpdkBuild, switches: dict[str, Path], l2: Traffic, l3: Traffic,
                args: argparse.Namespace, work: Path) -> list[Row]:
    """The rows of one frame size: DPDK's l2fwd and l3fwd against ours, and ours with N
    workers against ours with one."""
    cpu = str(args.cpu)
    ports = ("-i", f"{IN_PORT}=0", "-i", f"{OUT_PORT}=1")
    memory = () if args.hugepages else NO_HUGEPAGES
    ours_l2 = Program("p4odp l2fwd", "p4odp", switches["l2fwd"], cpu, (l2.pcaps[size],),
                      args=(*ports, "--commands", str(l2.commands), "-w", "1", "-c", cpu), memory=memory)
    rows = [
        Row("l2fwd, 1,000 MACs", size,
            Program("DPDK l2fwd", "dpdk-l2fwd", dpdk.l2fwd, cpu, (l2.pcaps[size],),
                    args=("-p", "0x3", "-q", "2", "--portmap", f"({IN_PORT},{OUT_PORT})", "-T", "0"),
                    memory=memory),
            ours_l2, TARGET),
        Row("l3fwd, 1,000 routes", size,
            Program("DPDK l3fwd (LPM)", "dpdk-l3fwd", dpdk.l3fwd, cpu, (l3.pcaps[size],),
                    args=("-p", "0x3", "--config", f"({IN_PORT},0,{cpu}),({OUT_PORT},0,{cpu})", "--lookup", "lpm",
                          "--parse-ptype", "--rule_ipv4", str(l3.rules_v4), "--rule_ipv6", str(l3.rules_v6),
                          "--eth-dest", f"{OUT_PORT},{NEXT_HOP}"),
                    preload=dpdk.shim, memory=memory),
            Program("p4odp l3fwd", "p4odp", switches["l3fwd"], cpu, (l3.pcaps[size],),
                    args=(*ports, "--commands", str(l3.commands), "-w", "1", "-c", cpu), memory=memory),
            TARGET)]
    n = args.workers
    if n > 1:
        rows.append(Row(f"l2fwd, {n} workers vs 1", size, dataclasses.replace(ours_l2, label="p4odp l2fwd, 1 worker"),
                        Program(f"p4odp l2fwd, {n} workers", "p4odp", switches["l2fwd"], args.worker_cpus,
                                queue_pcaps(l2, "l2fwd", size, n, work),
                                args=(*ports, "--commands", str(l2.commands), "-w", str(n), "-c", args.worker_cpus),
                                memory=memory),
                        round(WORKER_SCALING * n, 2)))
    return rows


def count_instructions(l2: Traffic, l3: Traffic, size: int, work: Path) -> dict[str, float]:
    """Pipeline instructions per packet of each example, on this benchmark's entries and frames."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("instructions per packet: skipped (needs valgrind; Debian: apt-get install valgrind)")
        return {}
    from pipeline_instructions import FUNCTION, instructions_per_packet
    counts = {}
    for example, traffic in (("l2fwd", l2), ("l3fwd", l3)):
        folder = work / f"callgrind-{example}"
        folder.mkdir()
        try:
            counts[example] = instructions_per_packet(example, 20000, folder, traffic.commands, traffic.frames[size])
        except subprocess.CalledProcessError as error:
            raise BenchError(f"counting {example}'s instructions failed: {shlex.join(map(str, error.cmd))}\n"
                             + _tail((error.stderr or b"").decode(errors="replace"))) from None
    print(f"pipeline instructions per packet ({FUNCTION}, callgrind, x86 target, these entries, {size} B frames): "
          + ", ".join(f"{example} {count:.0f}" for example, count in counts.items()))
    return counts


def write_json(path: Path, dpdk: DpdkBuild, rows: list[Row], instructions: dict, args: argparse.Namespace) -> None:
    results = []
    for row in rows:
        results.append({
            "comparison": row.name, "size": row.size, "target": row.target,
            "reference": {"program": row.reference.label, "mpps": row.rates["reference"],
                          "command": shell_line(*row.reference.command("PREFIX"))},
            "p4odp": {"program": row.ours.label, "mpps": row.rates["ours"],
                      "command": shell_line(*row.ours.command("PREFIX"))},
            "ratios": row.ratios, "median": statistics.median(row.ratios),
            "min": min(row.ratios), "max": max(row.ratios),
        })
    document = {"dpdk": dpdk.version, "rounds": args.rounds, "seconds": args.seconds, "warmup": args.warmup,
                "cpu": args.cpu, "hugepages": args.hugepages, "results": results,
                "instructions_per_packet": instructions}
    try:
        path.write_text(json.dumps(document, indent=1) + "\n")
    except OSError as error:
        raise BenchError(f"cannot write {path}: {error.strerror}") from None


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        print(f"dpdk_side_by_side: error: {error}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("dpdk_side_by_side: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:  # a bug here: one line, the traceback on request
        if os.environ.get("P4ODP_TRACEBACK"):
            raise
        print(f"dpdk_side_by_side: internal error: {type(error).__name__}: {error} "
              f"(P4ODP_TRACEBACK=1 shows the traceback)", file=sys.stderr)
        sys.exit(2)
