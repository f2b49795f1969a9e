#!/usr/bin/env python3
"""The examples' switches side by side with DPDK's own l2fwd and l3fwd.

    python3 bench/dpdk_side_by_side.py [--rounds N] [--seconds S] [--warmup S] [--sizes 64,128,...]
                                       [--cpu C] [--workers N] [--worker-cpus LIST] [--no-hugepages]
                                       [--routes LIST] [--destinations LIST]
                                       [--json FILE] [--no-instructions] [--skip-unavailable] [-v]

A benchmark, not a test: it prints packet rates and their ratios, and fails only when
something cannot be built or run.

What runs.  DPDK's l2fwd and l3fwd, built with their own Makefiles from the sources
Debian's dpdk-doc package installs (/usr/share/dpdk/examples, or $DPDK_EXAMPLES) against
pkg-config's libdpdk, in a tree of symbolic links under the cache folder
($P4ODP_CACHE_DIR, else $XDG_CACHE_HOME/p4odp, else ~/.cache/p4odp: dpdk-examples/KEY,
keyed by DPDK's version, flags, the sources, the compiler and any patch below); nothing of
theirs enters this repository.  As they are, unless a sweep needs more than they hold: for
more than 1,024 routes, l3fwd_lpm.c's IPV4_L3FWD_LPM_MAX_RULES (1024, a plain #define that
-D cannot override) is raised to the sweep's largest table in a patched copy of that file in
the build tree; for more frames than 8192 mbufs hold (net_pcap's infinite_rx keeps every
frame of the pcap in an mbuf), the 8192 floor of l2fwd's and l3fwd's mbuf pools is raised
the same way.  Against them, examples/l2fwd and examples/l3fwd compiled for x86-dpdk, their
tables' `size = 1024` raised in a copy in the scratch folder where a sweep point needs
more entries.  As root, missing Debian packages (dpdk-doc, libdpdk-dev, pkg-config) are
installed first.

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

Sweeps, only when asked (each replaces the default rows by one row per point):
  --routes 1000,100000,1000000: l3fwd with route tables of N routes: the traffic and the
    1,000 routes it hits stay the default's, the other N - 1,000 are /24 routes that no
    frame hits (none holds or is held by a route hit).  Both sides get all N.  Loading a
    million routes takes ours a few seconds (`--commands`); DPDK 22.11's l3fwd much longer,
    each rte_lpm_add() comparing the new rule with every rule of its depth (100,000 routes
    about 5 s, 300,000 about 40 s, a million several minutes, each run): its start timeout
    grows with the square of the routes.
  --destinations 1000,10000,100000: l2fwd and l3fwd with N frames, each to a destination of
    its own: l2fwd N MACs (ours N `dmac` entries), l3fwd N addresses over the 1,000 routes.
    Both sides get pools large enough to hold the N frames (net_pcap copies them all in).

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

Memory.  Every program runs with 2 MB hugepages, as DPDK is deployed: 512 MB each (more
for a destination sweep's large pools), one program at a time.  Where too few are free
and this runs as root, it reserves the missing ones (/proc/sys/vm/nr_hugepages) and mounts
hugetlbfs on /dev/hugepages when nothing is mounted, and prints what it did; the pages stay
reserved afterwards.  Where it cannot (not root), it says why and runs without them.
`--no-hugepages` runs every program without them (`--no-huge`), to compare: the rates and
ratios differ a lot between the two, so compare runs of one kind only.

Then it counts, with valgrind's callgrind (bench/pipeline_instructions.py), the
instructions per packet of each example's pipeline with the same entries and traffic (the
smallest frame size), x86 target; skipped without valgrind, with --no-instructions or
with a sweep.
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
from typing import Callable, Optional

from p4odp.backend.requirements import install_debian_packages
from p4odp.backend.runtime_cache import cache_folder
from p4odp.stf.pcap import write_pcap
from p4odp.switchbench import hugepages
from p4odp.switchbench.traffic import FCS_LEN, MIN_SIZE, split_by_queue

REPO = Path(__file__).resolve().parents[1]
SHIM = Path(__file__).resolve().parent / "dpdk_offload_shim.c"
DPDK_EXAMPLES = Path(os.environ.get("DPDK_EXAMPLES", "/usr/share/dpdk/examples"))
DEBIAN = ["dpdk-doc", "libdpdk-dev", "pkg-config"]
# Without PCI or files shared between processes; telemetry stays on: the benchmark reads
# the ports' counters through it.  Memory (-m, of hugepages or --no-huge) is each program's.
EAL = ["--no-pci", "--no-shconf"]
NO_HUGEPAGES = ("--no-huge",)
MEMORY_MB = 512         # each program's memory, unless its pool needs more
HUGEPAGE_SLACK = 16     # 2 MB pages more than one program's memory
ENTRIES = 1000          # table entries, routes
FRAMES = 2000           # frames in each pcap
POOL_FLOOR = 8192       # mbufs of DPDK's examples' pools at least, packets of our switch's pool
OUR_BUFFER = 9600 + 512  # bytes a packet buffer of ours takes (P4ODP_MAX_PACKET and headers)
DPDK_BUFFER = 2176 + 320  # bytes an mbuf of DPDK's examples takes (RTE_MBUF_DEFAULT_BUF_SIZE and headers)
LPM_RULES = 1024        # DPDK 22.11 l3fwd's IPV4_L3FWD_LPM_MAX_RULES
TABLE_SIZE = 1024       # the examples' tables' `size`
NEXT_HOP = "00:00:00:00:01:01"
MAX_SIZE = 1518         # DPDK's examples' buffers hold 2 KiB, and infinite_rx takes no chained ones
IN_PORT, OUT_PORT = 0, 1
TARGET = 0.9            # the ratio to DPDK's program that issue 39 asks for, with hugepages
WORKER_SCALING = 0.9    # N workers against one: 0.9 N (1.8 for 2, as issue 39 asks)
START_TIMEOUT = 60.0    # seconds until the first packet leaves
# DPDK 22.11's rte_lpm_add() looks for the new rule among all those of its depth, one by one:
# N routes take l3fwd's start a time in N squared (here 5 s for 100,000, 40 s for 300,000).
LPM_ADD_SECONDS = 1e-9  # seconds per N squared allowed for it, about twice that
STOP_TIMEOUT = 20.0


class BenchError(Exception):
    """Something the benchmark cannot do, said to the user as is."""


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, capture_output=True, text=True, **kwargs)
    except OSError as error:
        raise BenchError(f"cannot run {command[0]}: {error.strerror}") from None


# ---------------------------------------------------------------------------- DPDK's programs

def dpdk_missing(examples: tuple[str, ...] = ("l2fwd", "l3fwd")) -> Optional[str]:
    """Why DPDK's `examples` cannot be built here, or None."""
    missing = []
    if shutil.which("pkg-config") is None or run(["pkg-config", "--exists", "libdpdk"]).returncode != 0:
        missing.append("libdpdk-dev (pkg-config libdpdk)")
    if not all((DPDK_EXAMPLES / name / "Makefile").is_file() for name in examples) \
            or not (DPDK_EXAMPLES / "common").is_dir():
        missing.append(f"DPDK's example sources (dpdk-doc) in {DPDK_EXAMPLES}")
    for tool in ("make", os.environ.get("CC", "cc"), "taskset"):
        if shutil.which(tool) is None:
            missing.append(tool)
    if not missing:
        return None
    return f"needs {', '.join(missing)} (Debian: apt-get install {' '.join(DEBIAN)})"


def ensure_dpdk(examples: tuple[str, ...] = ("l2fwd", "l3fwd")) -> Optional[str]:
    """None when DPDK's `examples` can be built, after installing Debian's packages as root;
    else why not."""
    reason = dpdk_missing(examples)
    if reason and os.geteuid() == 0:
        installed, what = install_debian_packages(DEBIAN)
        reason = dpdk_missing(examples) if installed else f"{reason}; {what}"
    return reason


def pkg_config(*args: str) -> str:
    result = run(["pkg-config", *args, "libdpdk"])
    if result.returncode != 0:
        raise BenchError(f"pkg-config {' '.join(args)} libdpdk failed: {result.stderr.strip()}")
    return result.stdout.strip()


@dataclasses.dataclass(frozen=True)
class Patch:
    """One text replacement in a copy of one of DPDK's example sources (`path` relative to
    the examples' folder), made in the build tree only."""
    path: str
    old: str
    new: str


def build_examples(examples: tuple[str, ...], scratch: Path, verbose: bool, patches: tuple[Patch, ...] = (),
                   shim: bool = False) -> tuple[str, Path]:
    """DPDK's `examples` (folder names under DPDK_EXAMPLES, each built by its Makefile into
    its build/ folder), with `patches` made, and the offload shim when `shim`: DPDK's version
    and the folder that holds them, from the cache or built now."""
    version = pkg_config("--modversion")
    cflags, libs = pkg_config("--cflags"), pkg_config("--libs")
    cc = os.environ.get("CC", "cc")
    key = hashlib.sha256()
    compiler = run([cc, "--version"]).stdout.splitlines()
    for part in (version, cflags, libs, cc, compiler[0] if compiler else ""):
        key.update(part.encode() + b"\0")
    folders = ("common", *examples)
    sources = sorted((str(p.relative_to(DPDK_EXAMPLES)), p)
                     for name in folders for p in (DPDK_EXAMPLES / name).rglob("*") if p.is_file())
    if shim:
        sources.insert(0, (SHIM.name, SHIM))
    for name, source in sources:
        key.update(name.encode() + b"\0" + source.read_bytes())
    for patch in patches:
        key.update(f"patch\0{patch.path}\0{patch.old}\0{patch.new}\0".encode())
    cache = cache_folder("dpdk-examples")
    folder = cache / key.hexdigest()[:16] if cache else scratch / f"dpdk-examples-{key.hexdigest()[:16]}"
    if (folder / "built").exists():
        return version, folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    print(f"building DPDK {version}'s {' and '.join(examples)} from {DPDK_EXAMPLES} in {folder}"
          + (f" ({len(patches)} patched line(s): {', '.join(sorted({p.path for p in patches}))})" if patches else ""),
          file=sys.stderr, flush=True)
    work = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".build-"))
    try:
        for name in folders:
            _link_tree(DPDK_EXAMPLES / name, work / name)
        for patch in patches:
            _apply(patch, work)
        commands = [["make", "-s", "-C", str(work / name)] for name in examples]
        if shim:
            commands.append([cc, "-O2", "-shared", "-fPIC", *shlex.split(cflags), str(SHIM), "-o",
                             str(work / "dpdk_offload_shim.so"), *shlex.split(libs), "-ldl"])
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
    return version, folder


def _apply(patch: Patch, tree: Path) -> None:
    """`patch` made in a copy of its file, which replaces the symbolic link in `tree`."""
    target = tree / patch.path
    text = (DPDK_EXAMPLES / patch.path).read_text()
    if text.count(patch.old) != 1:
        raise BenchError(f"cannot patch {DPDK_EXAMPLES / patch.path}: {patch.old!r} is there "
                         f"{text.count(patch.old)} times, not once (another DPDK version?)")
    target.unlink()
    target.write_text(text.replace(patch.old, patch.new))


@dataclasses.dataclass(frozen=True)
class DpdkBuild:
    version: str
    l2fwd: Path
    l3fwd: Path
    shim: Path


def build_dpdk(scratch: Path, verbose: bool, lpm_rules: int = LPM_RULES, mbufs: int = POOL_FLOOR) -> DpdkBuild:
    """DPDK's l2fwd and l3fwd and the offload shim, from the cache or built now: l3fwd holding
    `lpm_rules` IPv4 routes at least, both pools `mbufs` mbufs at least (patched copies of
    their defines where that is more than they hold as they are)."""
    patches = []
    if lpm_rules > LPM_RULES:
        patches.append(Patch("l3fwd/l3fwd_lpm.c", f"#define IPV4_L3FWD_LPM_MAX_RULES         {LPM_RULES}\n",
                             f"#define IPV4_L3FWD_LPM_MAX_RULES         {lpm_rules}\n"))
    if mbufs > POOL_FLOOR:
        patches.append(Patch("l2fwd/main.c", f"nb_lcores * MEMPOOL_CACHE_SIZE), {POOL_FLOOR}U);",
                             f"nb_lcores * MEMPOOL_CACHE_SIZE), {mbufs}U);"))
        patches.append(Patch("l3fwd/main.c", f"(unsigned){POOL_FLOOR})", f"(unsigned){mbufs})"))
    version, folder = build_examples(("l2fwd", "l3fwd"), scratch, verbose, tuple(patches), shim=True)
    return DpdkBuild(version, folder / "l2fwd" / "build" / "l2fwd", folder / "l3fwd" / "build" / "l3fwd",
                     folder / "dpdk_offload_shim.so")


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

def compile_switch(example: str, out: Path, sizes: Optional[dict[str, int]] = None) -> Path:
    """examples/EXAMPLE compiled for x86-dpdk into `out`; with `sizes`, from a copy in `out`
    whose tables named there have that `size` instead of TABLE_SIZE."""
    source = REPO / "examples" / example / f"{example}.p4"
    return compile_program(source, out, sizes)


def compile_program(source: Path, out: Path, sizes: Optional[dict[str, int]] = None) -> Path:
    """SOURCE compiled for x86-dpdk into `out`, its switch's path; `sizes` as compile_switch's."""
    if sizes:
        text = source.read_text()
        for table, size in sizes.items():
            start = text.index(f"table {table} {{")
            at = text.index(f"size = {TABLE_SIZE};", start)
            text = text[:at] + f"size = {size};" + text[at + len(f"size = {TABLE_SIZE};"):]
        out.mkdir(parents=True, exist_ok=True)
        source = out / source.name
        source.write_text(text)
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
    entries: int = ENTRIES  # in the table that grows with a sweep: dmac, ipv4_lpm
    keys: list = dataclasses.field(default_factory=list)  # its keys: MACs (bytes), routes (prefix, length)


def l2_traffic(sizes: list[int], work: Path, name: str = "l2fwd", destinations: Optional[int] = None) -> Traffic:
    """ENTRIES MACs, FRAMES frames over them; with `destinations`, that many MACs, one frame
    to each."""
    rng = random.Random(2)
    count = destinations or ENTRIES
    macs: set[bytes] = set()
    while len(macs) < count:  # locally administered unicast
        macs.add(bytes([0x02]) + rng.randbytes(5))
    ordered = sorted(macs)
    if destinations:
        targets = list(ordered)
    else:
        targets = ordered * (FRAMES // ENTRIES) + rng.sample(ordered, FRAMES % ENTRIES)
    rng.shuffle(targets)
    source = bytes.fromhex("0200000000fe")
    traffic = Traffic(commands=work / f"{name}-commands.txt", entries=count, keys=ordered)
    traffic.commands.write_text(f"table_add smac NoAction {mac_text(source)} =>\n" +  # a known source: no digest
                                "".join(f"table_add dmac forward {mac_text(mac)} => {OUT_PORT}\n" for mac in ordered))
    for size in sizes:
        traffic.frames[size] = [dst + source + b"\x88\xb5" + bytes(size - FCS_LEN - 14) for dst in targets]
    return traffic


def l3_traffic(sizes: list[int], work: Path, name: str = "l3fwd", routes: int = ENTRIES,
               destinations: Optional[int] = None) -> Traffic:
    """ENTRIES routes, each hit, and FRAMES frames to random addresses over them; with
    `destinations`, that many frames, each to an address of its own; with `routes` more than
    ENTRIES, /24 routes besides that no frame hits."""
    rng = random.Random(3)
    lengths = [16] * 50 + [20] * 50 + [24] * 750 + [28] * 50 + [32] * 100
    firsts = [n for n in range(1, 224) if n not in (10, 127)]  # 10/8 holds the source
    hit: set[tuple[int, int]] = set()
    while len(hit) < ENTRIES:
        length = lengths[len(hit)]
        address = rng.choice(firsts) << 24 | rng.getrandbits(24)
        hit.add((address >> (32 - length) << (32 - length), length))
    ordered = sorted(hit)
    count = destinations or FRAMES
    picks = ordered[:count] + [rng.choice(ordered) for _ in range(count - len(ordered))]
    rng.shuffle(picks)
    addresses: list[int] = []
    seen: set[int] = set()
    for prefix, length in picks:
        while True:
            address = prefix | rng.getrandbits(32 - length) if length < 32 else prefix
            if not destinations or address not in seen:
                break
            prefix, length = rng.choice(ordered)  # a /32 taken already: another route
        seen.add(address)
        addresses.append(address)
    unhit = _unhit_routes(ordered, routes - ENTRIES, rng, firsts)
    traffic = Traffic(commands=work / f"{name}-commands.txt", rules_v4=work / f"{name}-rules-v4.cfg",
                      rules_v6=work / f"{name}-rules-v6.cfg", entries=ENTRIES + len(unhit), keys=ordered + unhit)
    with open(traffic.commands, "w") as commands, open(traffic.rules_v4, "w") as rules:
        commands.write("table_set_default ipv4_lpm drop\n")
        for p, n in ordered + unhit:
            commands.write(f"table_add ipv4_lpm ipv4_forward {ipv4_text(p)}/{n} => {NEXT_HOP} {OUT_PORT}\n")
            rules.write(f"R{ipv4_text(p)}/{n} {OUT_PORT}\n")
    # l3fwd reads rule files only when given both; no IPv6 packet is sent.
    traffic.rules_v6.write_text(f"R2001:db8::/32 {OUT_PORT}\n")
    for size in sizes:
        traffic.frames[size] = udp_frames(addresses, size)
    return traffic


def udp_frames(destinations: list[int], size: int) -> list[bytes]:
    """IPv4 UDP frames of `size` bytes (with FCS) from 10.0.0.1, one to each destination."""
    ethernet = bytes.fromhex("020000000001" "0200000000fe" "0800")
    frames = []
    for dst in destinations:
        total = size - FCS_LEN - 14
        header = struct.pack("!BBHHHBBHII", 0x45, 0, total, 0, 0, 64, 17, 0, 0x0A000001, dst)
        header = header[:10] + struct.pack("!H", ipv4_checksum(header)) + header[12:]
        udp = struct.pack("!HHHH", 1024, 2048, total - 20, 0)
        frames.append(ethernet + header + udp + bytes(total - 28))
    return frames


def _unhit_routes(hit: list[tuple[int, int]], count: int, rng: random.Random,
                  firsts: list[int]) -> list[tuple[int, int]]:
    """`count` /24 routes that neither hold nor lie in any of the `hit` routes, so that no
    frame to those hits them."""
    taken: set[int] = set()  # /24s (address >> 8) that a hit route covers or lies in
    for prefix, length in hit:
        if length <= 24:
            taken.update(range(prefix >> 8, (prefix >> 8) + (1 << (24 - length))))
        else:
            taken.add(prefix >> 8)
    routes: set[int] = set()
    while len(routes) < count:
        block = rng.choice(firsts) << 16 | rng.getrandbits(16)
        if block not in taken:
            routes.add(block)
    return sorted((block << 8, 24) for block in routes)


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
    kind: str            # "dpdk-l2fwd", "dpdk-l3fwd", "dpdk-pipeline", "p4odp"
    binary: Path
    cpus: str            # taskset list; the first is the EAL's lcore
    pcaps: tuple         # one per RX queue of net_pcap0
    args: tuple = ()     # after the EAL's for DPDK's programs, the switch's options for ours
    preload: Optional[Path] = None
    hugepages: bool = True
    megabytes: int = MEMORY_MB
    lcores: Optional[str] = None  # the EAL's lcores, the first the main one (default: cpus' first)
    errors: tuple = ()   # what its log says when it started wrong (its rate is then no measure)
    env: tuple = ()      # (name, value) pairs of its environment besides this process's
    start_timeout: float = START_TIMEOUT  # seconds from its start to its first packet out

    def command(self, prefix: str) -> tuple[list[str], dict[str, str]]:
        if self.lcores:
            lcores = ["-l", self.lcores, "--main-lcore", self.lcores.split(",")[0]]
        else:
            lcores = ["-l", self.cpus.replace("-", ",").split(",")[0]]
        memory = ["-m", str(self.megabytes), *(() if self.hugepages else NO_HUGEPAGES)]
        eal = [*lcores, *memory, *EAL, "--file-prefix", prefix, *vdevs(self.pcaps)]
        env = dict(self.env)
        if self.preload:
            env["LD_PRELOAD"] = str(self.preload)
        if self.kind == "p4odp":
            env["ODP_PLATFORM_PARAMS"] = shlex.join(eal)
            return ["taskset", "-c", self.cpus, str(self.binary), *self.args], env
        return ["taskset", "-c", self.cpus, str(self.binary), *eal, "--", *self.args], env


def hugepages_needed(megabytes: int) -> int:
    """2 MB pages free for one program of `megabytes` at a time."""
    return -(-megabytes // 2) + HUGEPAGE_SLACK


def ensure_hugepages(megabytes: int) -> Optional[str]:
    """None when the 2 MB pages one program of `megabytes` needs are free and hugetlbfs is
    mounted, after reserving and mounting them when root (and saying so: they stay reserved);
    else why not."""
    try:
        done = hugepages.ensure_hugepages(hugepages_needed(megabytes))
    except hugepages.HugepagesError as error:
        return str(error)
    if done:
        print(f"hugepages: {done} for {megabytes} MB a program (they stay reserved)", file=sys.stderr, flush=True)
    return None


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
        self.socket.settimeout(30.0)  # its thread shares the CPUs of a busy-polling program
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
        if program.hugepages:  # other programs on the machine may have taken pages since the last run
            reason = ensure_hugepages(program.megabytes)
            if reason:
                raise BenchError(f"{program.label}: {reason}")
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
        deadline = time.monotonic() + program.start_timeout
        telemetry = None
        try:
            while telemetry is None:
                self._check_alive(program, log_path)
                if time.monotonic() > deadline:
                    raise BenchError(f"{program.label}: no telemetry socket {sock} after "
                                     f"{program.start_timeout:.0f} s")
                try:
                    telemetry = Telemetry(sock)
                except (OSError, ValueError):
                    time.sleep(0.1)
            while telemetry.port(OUT_PORT)["opackets"] == 0:
                self._check_alive(program, log_path)
                if time.monotonic() > deadline:
                    raise BenchError(f"{program.label}: no packet sent after {program.start_timeout:.0f} s\n"
                                     + _tail(log_path.read_text(errors="replace")))
                time.sleep(0.05)
            log = log_path.read_text(errors="replace")
            wrong = [line for line in log.splitlines() if any(error in line for error in program.errors)]
            if wrong:
                raise BenchError(f"{program.label} did not start as asked: {wrong[0].strip()}\n" + _tail(log))
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
    point: dict = dataclasses.field(default_factory=dict)  # a sweep's point: {"routes": N}, ...
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


def run_rounds(rows: list[Row], runner: Runner, rounds: int) -> None:
    """Every row's two programs once a round, back to back, in alternating order from round
    to round (so that a drift in the machine's load favours neither side)."""
    try:
        for r in range(rounds):
            for row in rows:
                for side in ("reference", "ours") if r % 2 == 0 else ("ours", "reference"):
                    sample = runner.measure(row.reference if side == "reference" else row.ours)
                    row.rates[side].append(sample.mpps)
                    row.delivered[side].append(sample.delivered)
                print(f"round {r + 1}/{rounds}, {row.name}, {row.size} B: {row.reference.label} "
                      f"{row.rates['reference'][-1]:.2f} Mpps, {row.ours.label} {row.rates['ours'][-1]:.2f} Mpps",
                      file=sys.stderr, flush=True)
    finally:
        runner.stop()


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


def parse_counts(low: int, high: int):
    """An argparse type: numbers from `low` to `high` separated by commas (1,000 or 1e6 too)."""
    def parse(text: str) -> list[int]:
        try:
            counts = [int(float(part.replace("_", ""))) for part in text.split(",") if part]
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected numbers separated by commas, not {text!r}") from None
        if not counts or any(count < low or count > high for count in counts):
            raise argparse.ArgumentTypeError(f"each is {low:,} to {high:,}")
        return counts
    return parse


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """--rounds, --seconds and --warmup, as every side by side takes them."""
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per run (default 3)")
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="seconds between the first packet sent and the measure (default 1)")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cpus = sorted(os.sched_getaffinity(0))
    add_run_options(parser)
    parser.add_argument("--sizes", type=parse_sizes, default=[64], help="frame sizes with FCS (default 64)")
    parser.add_argument("--cpu", type=int, default=cpus[-1], help=f"the one CPU of each run (default {cpus[-1]})")
    parser.add_argument("--workers", type=int, default=min(2, len(cpus)),
                        help="N > 1 adds ours with N workers against ours with one, l2fwd (default: 2 "
                             "with 2 CPUs or more)")
    parser.add_argument("--worker-cpus", help="CPUs of the N workers (default: the first N this process may use)")
    parser.add_argument("--no-hugepages", action="store_true",
                        help="run every program without hugepages (--no-huge) instead of with 2 MB hugepages")
    parser.add_argument("--routes", type=parse_counts(ENTRIES, 1 << 24), metavar="LIST",
                        help="sweep l3fwd's route table: N routes each (the default traffic: 1,000 of them hit, "
                             "the others /24 routes no frame hits), e.g. 1000,100000,1000000")
    parser.add_argument("--destinations", type=parse_counts(1, 1 << 20), metavar="LIST",
                        help="sweep the distinct destinations of l2fwd and l3fwd: N frames, each to a destination "
                             "of its own, e.g. 1000,10000,100000")
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


def pool_size(frames: int) -> int:
    """Packets of each program's pool for a pcap of `frames` (net_pcap's infinite_rx holds
    them all): POOL_FLOOR as DPDK's examples have, or that much on top of the frames."""
    return POOL_FLOOR if frames + 2048 <= POOL_FLOOR else frames + POOL_FLOOR


def memory_mb(packets: int, buffer: int) -> int:
    return max(MEMORY_MB, -(-packets * buffer // (1 << 20)) + 256)


def use_hugepages(args: argparse.Namespace, megabytes: int) -> bool:
    """Whether the programs run with hugepages: unless --no-hugepages, when they are there
    or could be reserved (said when not)."""
    if args.no_hugepages:
        return False
    reason = ensure_hugepages(megabytes)
    if reason:
        print(f"hugepages: {reason}; running without (--no-huge)", file=sys.stderr, flush=True)
        return False
    return True


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
    sweep = bool(args.routes or args.destinations)
    frames = max([FRAMES, *(args.destinations or [])])
    pool = pool_size(frames)
    setup = Setup(args, pool, memory_mb(pool, DPDK_BUFFER), memory_mb(pool, OUR_BUFFER))
    setup.hugepages = use_hugepages(args, max(setup.dpdk_mb, setup.ours_mb))
    with tempfile.TemporaryDirectory(prefix="p4odp-dpdk-bench-") as tmp:
        work = Path(tmp)
        setup.work = work
        setup.dpdk = build_dpdk(work, args.verbose, lpm_rules=max([LPM_RULES, *(args.routes or [])]), mbufs=pool)
        rows: list[Row] = []
        l2 = l3 = None
        if not sweep:
            l2, l3 = l2_traffic(args.sizes, work), l3_traffic(args.sizes, work)
            for size in args.sizes:
                rows += setup.default_rows(size, l2, l3)
        for routes in args.routes or []:
            traffic = l3_traffic(args.sizes, work, f"l3fwd-{routes}-routes", routes=routes)
            for size in args.sizes:
                rows.append(setup.l3_row(f"l3fwd, {routes:,} routes", size, traffic, {"routes": routes}))
        for count in args.destinations or []:
            l2d = l2_traffic(args.sizes, work, f"l2fwd-{count}-destinations", destinations=count)
            l3d = l3_traffic(args.sizes, work, f"l3fwd-{count}-destinations", destinations=count)
            for size in args.sizes:
                rows.append(setup.l2_row(f"l2fwd, {count:,} destinations", size, l2d, {"destinations": count}))
                rows.append(setup.l3_row(f"l3fwd, {count:,} destinations", size, l3d, {"destinations": count}))
        logs = work / "logs"
        logs.mkdir()
        run_rounds(rows, Runner(logs, args.seconds, args.warmup, args.verbose), args.rounds)
        print_table(rows, f"DPDK {setup.dpdk.version} examples vs p4odp (x86-dpdk), {args.rounds} round(s), "
                          f"alternating, {args.seconds:g} s each after {args.warmup:g} s; one core (CPU {args.cpu}) "
                          f"per run; {'2 MB hugepages' if setup.hugepages else 'no hugepages'}; "
                          f"net_pcap infinite_rx ({frames:,} frames at most) -> net_null; Mpps median (min-max)")
        instructions = {}
        if not args.no_instructions and not sweep:
            instructions = count_instructions(l2, l3, min(args.sizes), work)
        if args.json:
            write_json(args.json, rows,
                       {"dpdk": setup.dpdk.version, "rounds": args.rounds, "seconds": args.seconds, "warmup": args.warmup, "cpu": args.cpu,
                        "hugepages": setup.hugepages, "instructions_per_packet": instructions})
    return 0


class Setup:
    """What the rows' programs share: the options, DPDK's build, the pools and memory, and
    our switches, compiled once for each table size."""

    def __init__(self, args: argparse.Namespace, pool: int, dpdk_mb: int, ours_mb: int):
        self.args, self.pool, self.dpdk_mb, self.ours_mb = args, pool, dpdk_mb, ours_mb
        self.hugepages = True
        self.dpdk: Optional[DpdkBuild] = None
        self.work = Path()
        self.switches: dict[tuple[str, int], Path] = {}

    def switch(self, example: str, entries: int) -> Path:
        """Our example compiled, its growing table (l2fwd's dmac, l3fwd's ipv4_lpm) holding `entries`."""
        size = max(TABLE_SIZE, entries)
        if (example, size) not in self.switches:
            print(f"compiling examples/{example} for x86-dpdk" + (f", {size:,} entries" if size > TABLE_SIZE else ""),
                  file=sys.stderr, flush=True)
            table = {"l2fwd": "dmac", "l3fwd": "ipv4_lpm"}[example]
            self.switches[example, size] = compile_switch(
                example, self.work / f"{example}-{size}", {table: size} if size > TABLE_SIZE else None)
        return self.switches[example, size]

    def pcap(self, traffic: Traffic, name: str, size: int) -> Path:
        if size not in traffic.pcaps:
            traffic.pcaps[size] = self.work / f"{name}-{size}.pcap"
            write_pcap(str(traffic.pcaps[size]), traffic.frames[size])
        return traffic.pcaps[size]

    def ours(self, label: str, example: str, traffic: Traffic, pcaps: tuple, cpus: str, workers: int = 1) -> Program:
        args = ("-i", f"{IN_PORT}=0", "-i", f"{OUT_PORT}=1", "--commands", str(traffic.commands),
                "-w", str(workers), "-c", cpus)
        if self.pool > POOL_FLOOR:
            args += ("--packets", str(self.pool))
        return Program(label, "p4odp", self.switch(example, traffic.entries), cpus, pcaps, args=args,
                       hugepages=self.hugepages, megabytes=self.ours_mb)

    def l2_row(self, name: str, size: int, traffic: Traffic, point: Optional[dict] = None) -> Row:
        cpu = str(self.args.cpu)
        pcap = self.pcap(traffic, traffic.commands.stem.removesuffix("-commands"), size)
        return Row(name, size,
                   Program("DPDK l2fwd", "dpdk-l2fwd", self.dpdk.l2fwd, cpu, (pcap,),
                           args=("-p", "0x3", "-q", "2", "--portmap", f"({IN_PORT},{OUT_PORT})", "-T", "0"),
                           hugepages=self.hugepages, megabytes=self.dpdk_mb),
                   self.ours("p4odp l2fwd", "l2fwd", traffic, (pcap,), cpu), TARGET, point or {})

    def l3_row(self, name: str, size: int, traffic: Traffic, point: Optional[dict] = None) -> Row:
        cpu = str(self.args.cpu)
        pcap = self.pcap(traffic, traffic.commands.stem.removesuffix("-commands"), size)
        return Row(name, size,
                   Program("DPDK l3fwd (LPM)", "dpdk-l3fwd", self.dpdk.l3fwd, cpu, (pcap,),
                           args=("-p", "0x3", "--config", f"({IN_PORT},0,{cpu}),({OUT_PORT},0,{cpu})",
                                 "--lookup", "lpm", "--parse-ptype", "--rule_ipv4", str(traffic.rules_v4),
                                 "--rule_ipv6", str(traffic.rules_v6), "--eth-dest", f"{OUT_PORT},{NEXT_HOP}"),
                           preload=self.dpdk.shim, hugepages=self.hugepages, megabytes=self.dpdk_mb,
                           start_timeout=START_TIMEOUT + LPM_ADD_SECONDS * traffic.entries ** 2),
                   self.ours("p4odp l3fwd", "l3fwd", traffic, (pcap,), cpu), TARGET, point or {})

    def default_rows(self, size: int, l2: Traffic, l3: Traffic) -> list[Row]:
        """The rows of one frame size: DPDK's l2fwd and l3fwd against ours, and ours with N
        workers against ours with one."""
        rows = [self.l2_row("l2fwd, 1,000 MACs", size, l2), self.l3_row("l3fwd, 1,000 routes", size, l3)]
        n = self.args.workers
        if n > 1:
            one = dataclasses.replace(rows[0].ours, label="p4odp l2fwd, 1 worker")
            many = self.ours(f"p4odp l2fwd, {n} workers", "l2fwd", l2,
                             queue_pcaps(l2, "l2fwd", size, n, self.work), self.args.worker_cpus, workers=n)
            rows.append(Row(f"l2fwd, {n} workers vs 1", size, one, many, round(WORKER_SCALING * n, 2)))
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


def write_json(path: Path, rows: list[Row], extra: dict) -> None:
    """Every row's every round, the commands that ran, and `extra` (the run's settings)."""
    results = []
    for row in rows:
        results.append({
            "comparison": row.name, "size": row.size, "target": row.target, **row.point,
            "reference": {"program": row.reference.label, "mpps": row.rates["reference"],
                          "delivered": row.delivered["reference"],
                          "command": shell_line(*row.reference.command("PREFIX"))},
            "p4odp": {"program": row.ours.label, "mpps": row.rates["ours"], "delivered": row.delivered["ours"],
                      "command": shell_line(*row.ours.command("PREFIX"))},
            "ratios": row.ratios, "median": statistics.median(row.ratios),
            "min": min(row.ratios), "max": max(row.ratios),
        })
    document = {**extra, "results": results}
    try:
        path.write_text(json.dumps(document, indent=1) + "\n")
    except OSError as error:
        raise BenchError(f"cannot write {path}: {error.strerror}") from None


def run_script(name: str, main: Callable[[], int]) -> None:
    """A benchmark script's `main` run as a command: its exit status; a BenchError or an
    interrupt in one line; a bug in one line too, its traceback with P4ODP_TRACEBACK=1."""
    try:
        sys.exit(main())
    except BenchError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:  # a bug here: one line, the traceback on request
        if os.environ.get("P4ODP_TRACEBACK"):
            raise
        print(f"{name}: internal error: {type(error).__name__}: {error} "
              f"(P4ODP_TRACEBACK=1 shows the traceback)", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    run_script("dpdk_side_by_side", main)
