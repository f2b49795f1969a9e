#!/usr/bin/env python3
"""p4odp side by side with DPDK's SWX pipeline on the same programs.

    python3 bench/swx_side_by_side.py [--rounds N] [--seconds S] [--warmup S] [--size BYTES]
                                      [--cpu C] [--main-cpu C] [--no-hugepages]
                                      [--p4c-testdata DIR] [--samples LIST] [--dpdk-source DIR]
                                      [--json FILE] [--skip-unavailable] [-v]

A benchmark, not a test: it prints packet rates and their ratios (issue 39 asks p4odp for
3 times SWX's rate on the same program), and fails only when something cannot be built
or run.

What runs.  DPDK's SWX pipeline application (examples/pipeline of the sources Debian's
dpdk-doc installs), built with its own Makefile against pkg-config's libdpdk and cached
as bench/dpdk_side_by_side.py builds DPDK's l2fwd and l3fwd (the same code).  It runs a CLI
script this benchmark writes: `pipeline codegen SPEC C` and `pipeline libbuild C SO` (DPDK
22.11 loads no spec as such: it translates the spec to C and compiles that with gcc into a
shared object, at every start), the two vdevs as `ethdev`s, `pipeline PIPELINE0 build lib
SO io IO`, each table's entries by `pipeline PIPELINE0 table T add FILE`, `commit`, and
`thread CPU pipeline PIPELINE0 enable`.  libbuild compiles against a DPDK source tree
($RTE_INSTALL_DIR for the application): the generated C includes the pipeline library's
internal headers (rte_swx_pipeline_internal.h, rte_swx_pipeline_spec.h), which no Debian
package installs.  They come from `--dpdk-source DIR` (or $DPDK_SOURCE: a DPDK source tree
of the installed version), else, as root, from Debian's source package of the installed
libdpdk (`apt-get source`, through a sources list and package lists of its own in the cache
folder, the system's left as they are), kept in the cache folder; the other headers are the
installed ones.  Nothing of DPDK's enters this repository.

The programs.
  l2fwd: bench/swx/l2fwd.spec (written for this benchmark: examples/l2fwd's smac and dmac
    lookups, exact) against examples/l2fwd, with dpdk_side_by_side.py's l2fwd traffic and
    entries: 1,000 MACs in dmac (SWX: `match MAC action forward port 1`), the one source in
    smac, 2,000 frames.
  With --p4c-testdata DIR (default $P4C_TESTDATA: p4c's testdata folder), p4c's own SWX
    specs (p4_16_samples_outputs/NAME.p4.spec) against NAME.p4 compiled by p4odp, for the
    samples of --samples (default pna-dpdk-small_sample, pna-example-template: an exact and
    an LPM table on the IPv4 destination, whose action next_hop sends to a port):
    1,000 entries to port 1 (exact: 1,000 addresses, each the destination of two frames;
    LPM: dpdk_side_by_side.py's 1,000 l3fwd routes and 2,000 frames), given to ours as
    `table_add` lines, to SWX as a table file.  Nothing of p4c's is copied.

How.  As dpdk_side_by_side.py: `net_pcap0,rx_pcap=F,infinite_rx=1` into `net_null0,no-rx=1`
(SWX's ports: in 0 net_pcap0, out 0 net_pcap0, out 1 net_null0, out 2 a sink, the last
port being where SWX's `drop` sends), the rate is net_null0's `opackets` read through DPDK's
telemetry socket, rounds alternating the two programs, median and min-max over rounds.  Ours
runs on one CPU (`taskset -c CPU`, `-w 1 -c CPU`).  SWX's pipeline thread runs alone on the
same CPU, but the application's main thread (its CLI) polls a TCP socket without pause, so
it gets a second CPU (`--main-cpu`, `-l MAIN,CPU --main-lcore MAIN`): SWX's datapath has a
core of its own where ours shares its core with our (sleeping) control thread.  With 2 MB
hugepages by default (reserved and mounted as root, as dpdk_side_by_side.py does),
`--no-hugepages` for none.  The machine's other load shows in the range.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import shlex
import shutil
import signal
import socket
import sys
import tempfile
from pathlib import Path
from typing import Optional

import dpdk_side_by_side as dpdk
from dpdk_side_by_side import BenchError, Program, Row, ipv4_text, run, run_script, _tail
from p4odp.backend.runtime_cache import cache_dir
from p4odp.stf.pcap import write_pcap

HERE = Path(__file__).resolve().parent
L2_SPEC = HERE / "swx" / "l2fwd.spec"
TARGET = 3.0            # p4odp / SWX that issue 39 asks for
SAMPLES = "pna-dpdk-small_sample,pna-example-template"
# The SWX application says these when a line of its script fails.
CLI_ERRORS = ("Error", "failed", "Unknown command", "not implemented", "arguments for command", "Argument \"",
              "Invalid value", "Not enough")
# Where libbuild's gcc looks for headers under $RTE_INSTALL_DIR, the first for the
# internal ones, the others given the installed headers' folders in turn.
INSTALL_INCLUDES = ("lib/eal/include", "config", "build", "lib/eal/linux/include", "lib/eal/x86/include",
                    "lib/eal/include/generic", "lib/meter", "lib/port", "lib/table")


@dataclasses.dataclass(frozen=True)
class Sample:
    """A p4c sample this benchmark knows how to fill: one table on the IPv4 destination
    whose action sends to the port its argument names."""
    table: str
    match: str           # "exact" or "lpm"
    action: str = "next_hop"
    argument: str = "vport"


KNOWN = {
    "pna-dpdk-small_sample": Sample("ipv4_da", "exact"),
    "pna-example-template": Sample("ipv4_da_lpm", "lpm"),
    "pna-example-pass-2": Sample("ipv4_da_lpm", "lpm"),
}


@dataclasses.dataclass
class Case:
    """One program on both sides: SWX's spec and its table files, our P4 source and commands."""
    name: str
    spec: Path
    p4: Path
    frames: list[bytes]
    commands: Path
    tables: dict[str, Path]   # SWX table -> its entries' file


# ---------------------------------------------------------------------------- SWX's build

def internal_headers(version: str, source: Optional[Path], verbose: bool) -> tuple[Optional[Path], str]:
    """The folder holding the pipeline library's internal headers of DPDK `version`, and
    where they came from; (None, why not) when they cannot be had."""
    names = ("rte_swx_pipeline_internal.h", "rte_swx_pipeline_spec.h")
    if source is not None:
        folder = source / "lib" / "pipeline"
        if not all((folder / name).is_file() for name in names):
            return None, f"{source} is no DPDK source tree (no lib/pipeline/{names[0]})"
        return folder, str(source)
    cache = cache_dir()
    if cache is None:
        return None, "no cache folder for DPDK's source package"
    folder = cache / "dpdk-source" / version / "lib" / "pipeline"
    if all((folder / name).is_file() for name in names):
        return folder, f"Debian's dpdk source package, {folder}"
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return None, ("SWX's libbuild needs DPDK's source (lib/pipeline's internal headers): give "
                      "--dpdk-source DIR, or run as root to fetch Debian's dpdk source package")
    apt = cache / "dpdk-source" / "apt"
    (apt / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (apt / "sources.d").mkdir(exist_ok=True)
    sources = []
    for path in Path("/etc/apt/sources.list.d").glob("*.sources"):
        sources += [line.replace("Types: deb", "Types: deb-src") if line.strip() == "Types: deb" else line
                    for line in path.read_text().splitlines()] + [""]
    (apt / "sources.d" / "debian-src.sources").write_text("\n".join(sources) + "\n")
    if Path("/etc/apt/sources.list").is_file():
        (apt / "sources.list").write_text("".join(
            line.replace("deb ", "deb-src ", 1) + "\n" for line in Path("/etc/apt/sources.list").read_text().splitlines()
            if line.startswith("deb ")))
    else:
        (apt / "sources.list").write_text("")
    options = ["-o", f"Dir::Etc::SourceList={apt / 'sources.list'}", "-o", f"Dir::Etc::SourceParts={apt / 'sources.d'}",
               "-o", f"Dir::State::Lists={apt / 'lists'}", "-q"]
    print(f"fetching Debian's dpdk {version} source package for SWX's libbuild (apt-get source, "
          f"package lists of its own in {apt})", file=sys.stderr, flush=True)
    download = Path(tempfile.mkdtemp(dir=apt, prefix=".source-"))
    try:
        for command, where in ((["apt-get", *options, "update"], None),
                               (["apt-get", *options, "source", "--download-only", "dpdk"], download)):
            if verbose:
                print(f"  {shlex.join(command)}", file=sys.stderr)
            result = run(command, cwd=where, timeout=600)
            if result.returncode != 0:
                return None, f"{shlex.join(command)} failed: {_tail(result.stdout + result.stderr, 5)}"
        tarballs = sorted(download.glob(f"dpdk_{version}*.orig.tar.*"))
        if not tarballs:
            found = ", ".join(p.name for p in download.iterdir()) or "nothing"
            return None, f"Debian's dpdk source package is not of the installed {version} (got {found})"
        members = run(["tar", "-tf", str(tarballs[0])]).stdout.split()
        wanted = [m for m in members if m.endswith(tuple(f"lib/pipeline/{name}" for name in names))]
        if len(wanted) != len(names):
            return None, f"{tarballs[0].name} has no lib/pipeline/{names[0]}"
        extracted = run(["tar", "-xf", str(tarballs[0]), "-C", str(download), *wanted])
        if extracted.returncode != 0:
            return None, f"cannot unpack {tarballs[0].name}: {extracted.stderr.strip()}"
        folder.mkdir(parents=True, exist_ok=True)
        for member in wanted:
            shutil.copy(download / member, folder / Path(member).name)
    finally:
        shutil.rmtree(download, ignore_errors=True)
    return folder, f"Debian's dpdk source package, {folder}"


def install_dir(headers: Path, work: Path) -> Path:
    """A folder to give SWX's libbuild as $RTE_INSTALL_DIR: lib/pipeline holds the internal
    headers and the installed ones, its other include folders the installed ones."""
    installed = [Path(flag[2:]).resolve() for flag in shlex.split(dpdk.pkg_config("--cflags-only-I"))
                 if flag.startswith("-I")]
    root = work / "rte-install"
    pipeline = root / "lib" / "pipeline"
    pipeline.mkdir(parents=True)
    for header in headers.iterdir():
        (pipeline / header.name).symlink_to(header)
    for folder, include in zip(installed, INSTALL_INCLUDES):
        (root / include).parent.mkdir(parents=True, exist_ok=True)
        (root / include).symlink_to(folder)
    return root


# ---------------------------------------------------------------------------- the programs

def l2_case(size: int, work: Path) -> Case:
    traffic = dpdk.l2_traffic([size], work)
    smac, dmac = work / "l2fwd-smac.txt", work / "l2fwd-dmac.txt"
    smac.write_text("match 0x0200000000fe action NoAction\n")  # the frames' one source, as ours has it
    dmac.write_text("".join(f"match 0x{mac.hex()} action forward port {dpdk.OUT_PORT}\n" for mac in traffic.keys))
    return Case("l2fwd (bench/swx/l2fwd.spec)", L2_SPEC, dpdk.REPO / "examples" / "l2fwd" / "l2fwd.p4",
                traffic.frames[size], traffic.commands, {"smac": smac, "dmac": dmac})


def sample_case(name: str, sample: Sample, testdata: Path, size: int, work: Path) -> Case:
    spec = testdata / "p4_16_samples_outputs" / f"{name}.p4.spec"
    p4 = testdata / "p4_16_samples" / f"{name}.p4"
    for path in (spec, p4):
        if not path.is_file():
            raise BenchError(f"{name}: no {path}")
    commands, table = work / f"{name}-commands.txt", work / f"{name}-{sample.table}.txt"
    if sample.match == "exact":
        rng = random.Random(4)
        addresses: set[int] = set()
        while len(addresses) < dpdk.ENTRIES:
            addresses.add(rng.choice([n for n in range(1, 224) if n not in (10, 127)]) << 24 | rng.getrandbits(24))
        keys = sorted(addresses)
        destinations = keys * (dpdk.FRAMES // len(keys))
        rng.shuffle(destinations)
        frames = dpdk.udp_frames(destinations, size)
        ours = [ipv4_text(a) for a in keys]
        swx = [f"0x{a:08x}" for a in keys]
    else:
        traffic = dpdk.l3_traffic([size], work, f"{name}-routes")
        frames = traffic.frames[size]
        ours = [f"{ipv4_text(p)}/{n}" for p, n in traffic.keys]
        swx = [f"0x{p:08x}/0x{(0xFFFFFFFF << (32 - n)) & 0xFFFFFFFF:08x}" for p, n in traffic.keys]
    commands.write_text("".join(f"table_add {sample.table} {sample.action} {key} => {dpdk.OUT_PORT}\n"
                                for key in ours))
    table.write_text("".join(f"match {key} action {sample.action} {sample.argument} {dpdk.OUT_PORT}\n"
                             for key in swx))
    return Case(f"{name} (p4c's spec)", spec, p4, frames, commands, {sample.table: table})


def free_tcp_port() -> int:
    """A TCP port nothing listens on now, for the SWX application's CLI server."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def swx_program(case: Case, index: int, pcap: Path, binary: Path, rte_install: Path, args: argparse.Namespace,
                hugepages: bool, work: Path) -> Program:
    """The SWX application running `case`: its I/O spec and CLI script written into `work`."""
    stem = work / f"swx{index}"
    io = stem.with_suffix(".io")
    io.write_text(f"port in {dpdk.IN_PORT} ethdev net_pcap0 rxq 0 bsz 32\n"
                  f"port out {dpdk.IN_PORT} ethdev net_pcap0 txq 0 bsz 32\n"
                  f"port out {dpdk.OUT_PORT} ethdev net_null0 txq 0 bsz 32\n"
                  f"port out {dpdk.OUT_PORT + 1} sink file none\n")  # the last port: where `drop` sends
    pool = dpdk.pool_size(len(case.frames))
    script = stem.with_suffix(".cli")
    script.write_text("\n".join([
        f"pipeline codegen {case.spec} {stem}.c",
        f"pipeline libbuild {stem}.c {stem}.so",
        f"mempool MEMPOOL0 buffer 2304 pool {pool} cache 256 cpu 0",
        "ethdev net_pcap0 rxq 1 128 MEMPOOL0 txq 1 512 promiscuous off",
        "ethdev net_null0 rxq 1 128 MEMPOOL0 txq 1 512 promiscuous off",
        f"pipeline PIPELINE0 build lib {stem}.so io {io} numa 0",
        *(f"pipeline PIPELINE0 table {table} add {entries}" for table, entries in case.tables.items()),
        "pipeline PIPELINE0 commit",
        f"thread {args.cpu} pipeline PIPELINE0 enable", ""]))
    lcores = f"{args.main_cpu},{args.cpu}"
    return Program(f"SWX {case.name.split(' ')[0]}", "dpdk-pipeline", binary, lcores, (pcap,),
                   args=("-s", str(script), "-p", str(free_tcp_port())), hugepages=hugepages,
                   megabytes=dpdk.memory_mb(pool, dpdk.DPDK_BUFFER), lcores=lcores, errors=CLI_ERRORS,
                   env=(("RTE_INSTALL_DIR", str(rte_install)),))


def our_program(case: Case, pcap: Path, switch: Path, args: argparse.Namespace, hugepages: bool) -> Program:
    cpu = str(args.cpu)
    pool = dpdk.pool_size(len(case.frames))
    return Program(f"p4odp {case.name.split(' ')[0]}", "p4odp", switch, cpu, (pcap,),
                   args=("-i", f"{dpdk.IN_PORT}=0", "-i", f"{dpdk.OUT_PORT}=1", "--commands", str(case.commands),
                         "-w", "1", "-c", cpu, *(("--packets", str(pool)) if pool > dpdk.POOL_FLOOR else ())),
                   hugepages=hugepages, megabytes=dpdk.memory_mb(pool, dpdk.OUR_BUFFER))


# ---------------------------------------------------------------------------- main

def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cpus = sorted(os.sched_getaffinity(0))
    dpdk.add_run_options(parser)
    parser.add_argument("--size", type=int, default=64, help="frame size with FCS (default 64)")
    parser.add_argument("--cpu", type=int, default=cpus[-1],
                        help=f"the CPU of ours and of SWX's pipeline thread (default {cpus[-1]})")
    parser.add_argument("--main-cpu", type=int, default=cpus[0] if len(cpus) > 1 else None,
                        help=f"the CPU of SWX's main thread (its CLI; default {cpus[0]})")
    parser.add_argument("--no-hugepages", action="store_true", help="run every program without hugepages (--no-huge)")
    parser.add_argument("--p4c-testdata", type=Path, default=os.environ.get("P4C_TESTDATA") or None,
                        help="p4c's testdata folder: also compare on its samples' specs (default $P4C_TESTDATA)")
    parser.add_argument("--samples", default=SAMPLES,
                        help=f"p4c samples to compare on, of {', '.join(KNOWN)} (default {SAMPLES})")
    parser.add_argument("--dpdk-source", type=Path, default=os.environ.get("DPDK_SOURCE") or None,
                        help="a DPDK source tree of the installed version, for SWX's libbuild (default $DPDK_SOURCE; "
                             "as root, Debian's source package otherwise)")
    parser.add_argument("--json", type=Path, help="also write every round's figures to this file")
    parser.add_argument("--skip-unavailable", action="store_true",
                        help="without DPDK's pipeline application or what it needs, say why and exit 0")
    parser.add_argument("-v", "--verbose", action="store_true", help="show the build and every command run")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--rounds is at least 1, --seconds more than 0, --warmup at least 0")
    if args.cpu not in cpus or args.main_cpu not in cpus or args.main_cpu == args.cpu:
        parser.error(f"--cpu and --main-cpu are two CPUs of {','.join(map(str, cpus))} (SWX's main thread "
                     "spins on its own CPU)")
    if not dpdk.MIN_SIZE <= args.size <= dpdk.MAX_SIZE:
        parser.error(f"--size is {dpdk.MIN_SIZE} to {dpdk.MAX_SIZE}")
    args.samples = [name for name in args.samples.split(",") if name]
    unknown = [name for name in args.samples if name not in KNOWN]
    if unknown:
        parser.error(f"--samples: this benchmark does not know how to fill {', '.join(unknown)}")
    return args


def main() -> int:
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    reason = dpdk.ensure_dpdk(("pipeline",))
    if reason is None:
        version = dpdk.pkg_config("--modversion")
        headers, where = internal_headers(version, args.dpdk_source, args.verbose)
        if headers is None:
            reason = where
    if reason:
        if args.skip_unavailable:
            print(f"swx_side_by_side: skipped: {reason}")
            return 0
        raise BenchError(reason)
    hugepages = dpdk.use_hugepages(args, dpdk.MEMORY_MB)
    with tempfile.TemporaryDirectory(prefix="p4odp-swx-bench-") as tmp:
        work = Path(tmp)
        version, folder = dpdk.build_examples(("pipeline",), work, args.verbose)
        binary = folder / "pipeline" / "build" / "pipeline"
        rte_install = install_dir(headers, work)
        if args.verbose:
            print(f"  SWX's libbuild: RTE_INSTALL_DIR={rte_install} (internal headers: {where})", file=sys.stderr)
        cases = [l2_case(args.size, work)]
        if args.p4c_testdata:
            cases += [sample_case(name, KNOWN[name], args.p4c_testdata, args.size, work) for name in args.samples]
        else:
            print("p4c's samples: skipped (give --p4c-testdata or P4C_TESTDATA)", file=sys.stderr)
        rows = []
        for index, case in enumerate(cases):
            pcap = work / f"case{index}-{args.size}.pcap"
            write_pcap(str(pcap), case.frames)
            print(f"compiling {case.p4.name} for x86-dpdk", file=sys.stderr, flush=True)
            switch = dpdk.compile_program(case.p4, work / f"ours{index}")
            rows.append(Row(case.name, args.size, swx_program(case, index, pcap, binary, rte_install, args,
                                                              hugepages, work),
                            our_program(case, pcap, switch, args, hugepages), TARGET))
        logs = work / "logs"
        logs.mkdir()
        dpdk.run_rounds(rows, dpdk.Runner(logs, args.seconds, args.warmup, args.verbose), args.rounds)
        dpdk.print_table(rows, f"DPDK {version} SWX pipeline vs p4odp (x86-dpdk), {args.rounds} round(s), "
                               f"alternating, {args.seconds:g} s each after {args.warmup:g} s; ours and SWX's "
                               f"pipeline thread on CPU {args.cpu} (SWX's main thread on CPU {args.main_cpu}); "
                               f"{'2 MB hugepages' if hugepages else 'no hugepages'}; net_pcap infinite_rx -> "
                               f"net_null; Mpps median (min-max)")
        if args.json:
            dpdk.write_json(args.json, rows, {"dpdk": version, "reference": "DPDK SWX pipeline (examples/pipeline)",
                                              "rounds": args.rounds, "seconds": args.seconds, "warmup": args.warmup,
                                              "cpu": args.cpu, "main_cpu": args.main_cpu, "hugepages": hugepages})
    return 0


if __name__ == "__main__":
    run_script("swx_side_by_side", main)
