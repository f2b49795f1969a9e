#!/usr/bin/env python3
"""Instructions per packet of a whole worker loop, split by stage: the examples' switches on
x86-dpdk against DPDK's own l2fwd and l3fwd, counted by valgrind's callgrind.

    python3 bench/worker_instructions.py [--seconds S] [--keep DIR] [--skip-unavailable] [-v]
                                         [EXAMPLE...]

Each program replays the same frames as bench/dpdk_side_by_side.py (its l2fwd and l3fwd
traffic and entries, 64-byte frames, `net_pcap` with infinite_rx into `net_null`, no
hugepages: callgrind counts instructions, not time) for S seconds under callgrind, counting
only inside the forwarding loop (`--toggle-collect`: the switch's worker_main, l2fwd's
l2fwd_launch_one_lcore, l3fwd's lpm_main_loop), so that start-up and the table loads are
not in the figures.

Stages.  The switch is the one `p4odp compile` builds, everything of a burst inlined into
one loop; callgrind counts each instruction address (--dump-instr), and addr2line's chain
of inlined functions at that address tells the stage it belongs to, the innermost that
names one:
  drivers           the DPDK PMDs (net_pcap's copy of each frame into a new mbuf, net_null's
                    frees and its empty receive polls), their mempool handler and the
                    loader's __tls_get_addr (their per-lcore variables): shared with DPDK's
                    programs
  receive, ODP      odp_pktin_recv() and the bundled ODP's DPDK receive, but the driver
  lookups           the table lookups (p4odp_table.h, the lookup templates), those of the
                    whole burst before it runs and the pipeline's use of their results
  burst keys        reading each packet's keys for the burst's lookups (p4_lookup_burst)
  parser, verify checksum, ingress, egress, compute checksum, deparser
                    the program's blocks, with their actions, but their lookups
  pipeline glue     the architecture's pipeline around them (p4_pipeline_ingress/egress)
  send staging      p4odp_send: each packet deparsed in place and queued to its port
  traffic manager   the rest of p4odp_tm_burst: contexts, the copies' decisions, frees
  send, ODP         odp_pktout_send() and the bundled ODP's DPDK send, but the driver
  worker loop       the rest: polling the ports, the control plane's checks
For DPDK's programs: the drivers, as above, and the rest, the program's own loop.  Their
packets are counted through the driver: net_pcap's receive costs the same instructions per
packet in every program (bursts of 32, always full with infinite_rx), which the switch's
own count of the packets it received (printed when it stops) gives in the same run.

Needs valgrind (callgrind) and binutils' addr2line, and DPDK (libdpdk-dev, dpdk-doc) as
bench/dpdk_side_by_side.py does; `--skip-unavailable` says what is missing and exits 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dpdk_side_by_side as side  # noqa: E402  (the traffic, the entries, DPDK's builds)

from p4odp.backend.build import valgrind_build_env  # noqa: E402
from p4odp.stf.pcap import write_pcap  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FRAME_SIZE = 64
EAL = ["-l", "0", "--no-huge", "--no-pci", "--no-shconf", "-m", "512"]
RX_DRIVER = "librte_net_pcap"
DRIVERS = ("/dpdk/pmds-", "librte_mempool", "ld-linux")


@dataclasses.dataclass
class Profile:
    """One callgrind run: its instructions, by object file, and by instruction address
    within `binary` (addresses as the file has them: the load base taken off)."""
    total: int
    objects: dict[str, int]
    addresses: dict[int, int]

    def object_cost(self, fragment: str) -> int:
        return sum(cost for obj, cost in self.objects.items() if fragment in obj)


def read_profile(path: Path, binary: Optional[Path] = None, entry: str = "") -> Profile:
    """The self costs of a profile written with --dump-instr=yes (positions: instr line),
    read from callgrind's format: compressed names `(id) name`, subpositions `+n`, `-n`, `*`,
    and after each `calls=` line the call's own line, whose cost is the callee's."""
    names: dict[str, str] = {}
    objects: dict[str, int] = {}
    by_address: dict[int, int] = {}
    first: dict[str, int] = {}     # the lowest address seen of each function of `binary`
    obj = function = ""
    last = [0, 0]
    skip_next = False
    with open(path) as profile:
        for line in profile:
            head = line[:1]
            if head.isdigit() or head in "+-*" or line.startswith("0x"):
                fields = line.split()
                for i in range(2):
                    field = fields[i]
                    if field == "*":
                        continue
                    if field[0] in "+-":
                        last[i] += int(field)
                    else:
                        last[i] = int(field, 0)
                if skip_next:
                    skip_next = False
                    continue
                cost = int(fields[2]) if len(fields) > 2 else 0
                objects[obj] = objects.get(obj, 0) + cost
                if binary is not None and obj == str(binary):
                    by_address[last[0]] = by_address.get(last[0], 0) + cost
                    if last[0] < first.get(function, 1 << 64):
                        first[function] = last[0]
                continue
            key, _, value = line.rstrip("\n").partition("=")
            if key in ("ob", "fn", "fl", "fi", "fe", "cob", "cfn", "cfi", "cfl"):
                match = re.match(r"\((\d+)\)(?: (.*))?", value)
                if match:
                    kind = "ob" if key in ("ob", "cob") else "fn" if key in ("fn", "cfn") else "fl"
                    table_key = kind + match.group(1)
                    if match.group(2) is not None:
                        names[table_key] = match.group(2)
                    value = names.get(table_key, "")
                if key == "ob":
                    obj = value
                elif key == "fn":
                    function = value
            elif key == "calls":
                skip_next = True
    total = sum(objects.values())
    if binary is not None:
        base = first.get(entry)
        if base is None:
            raise side.BenchError(f"{entry} is not in the profile of {binary}")
        symbols = subprocess.run(["nm", str(binary)], check=True, capture_output=True, text=True).stdout
        linked = next((int(line.split()[0], 16) for line in symbols.splitlines() if line.endswith(" " + entry)), None)
        if linked is None:
            raise side.BenchError(f"nm finds no {entry} in {binary}")
        by_address = {address - base + linked: cost for address, cost in by_address.items()}
    return Profile(total, objects, by_address)


# The stage of an instruction: the innermost function of its inline chain found here.
# The stage of an instruction: the innermost function of its inline chain found here, or a
# block of the program (p4_<block>: v1model's parser, ingress, ..., PNA's main control, ...).
STAGE_OF = {"p4_lookup_burst": "burst keys", "p4_pipeline_ingress": "pipeline glue",
            "p4_pipeline_egress": "pipeline glue", "p4odp_send": "send staging",
            "odp_pktin_recv": "receive, ODP", "dpdk_recv": "receive, ODP", "odp_pktout_send": "send, ODP",
            "dpdk_send": "send, ODP", "p4odp_tm_burst": "traffic manager", "worker_main": "worker loop"}
LOOKUP_FILES = ("p4odp_table.h", "tables.c")          # the lookups' code, and
LOOKUP_FUNCTIONS = ("p4odp_table", "p4_table_")      # the runtime's and the templates' calls of it
BLOCK_PREFIX = "p4_"
FIRST = ["drivers", "receive, ODP", "burst keys", "lookups"]   # then the blocks, in the order they run
BLOCKS = ["parser", "main parser", "ingress parser", "verify checksum", "pre control", "ingress", "main control",
          "ingress deparser", "egress parser", "egress", "compute checksum", "egress deparser", "deparser",
          "main deparser"]
LAST = ["pipeline glue", "send staging", "traffic manager", "send, ODP", "worker loop", "other"]


def stage(chain: list[str], innermost_file: str) -> str:
    if innermost_file in LOOKUP_FILES:
        return "lookups"
    for function in chain:  # innermost first
        if function.startswith(LOOKUP_FUNCTIONS):
            return "lookups"
        name = function.split(".")[0]  # a compiler suffix: .isra.0, .constprop.0
        if name in STAGE_OF:
            return STAGE_OF[name]
        if name.startswith(BLOCK_PREFIX) and name.endswith(("_reset", "_clear_invalid")):
            return "pipeline glue"  # a struct of headers' validity reset around the parser
        if name.startswith(BLOCK_PREFIX):
            return name[len(BLOCK_PREFIX):].replace("_", " ")
    return "other"


def stages(profile: Profile, binary: Path) -> dict[str, int]:
    """The binary's instructions by stage, from addr2line's inline chains."""
    addresses = sorted(profile.addresses)
    text = subprocess.run(["addr2line", "-e", str(binary), "-i", "-f", "-a"],
                          input="".join(f"{a:#x}\n" for a in addresses), check=True, capture_output=True,
                          text=True).stdout
    # For each address: the address, then a function and its file:line for each inline level.
    costs: dict[str, int] = {}
    groups = re.split(r"^(0x[0-9a-f]+)$", text, flags=re.M)[1:]
    for address, body in zip(groups[0::2], groups[1::2]):
        lines = body.strip("\n").splitlines()
        name = stage(lines[0::2], lines[1].rpartition("/")[2].partition(":")[0] if len(lines) > 1 else "")
        costs[name] = costs.get(name, 0) + profile.addresses.get(int(address, 16), 0)
    return costs


def callgrind(argv: list[str], env: dict, collect: str, seconds: float, out: Path, log: Path) -> str:
    """Runs argv under callgrind for `seconds`, then stops it as a user would (SIGINT); its output."""
    with open(log, "w") as sink:
        process = subprocess.Popen(["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}",
                                    f"--toggle-collect={collect}", *argv], env=env, stdin=subprocess.DEVNULL,
                                   stdout=sink, stderr=subprocess.STDOUT)
        try:
            process.wait(timeout=seconds)
            raise side.BenchError(f"{argv[0]} ended before it was stopped; see {log}")
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            raise side.BenchError(f"{argv[0]} did not stop on SIGINT; see {log}") from None
    if not out.exists():
        raise side.BenchError(f"callgrind wrote no profile; see {log}")
    return log.read_text()


def switch_packets(output: str) -> int:
    """Packets received on port 0, from the counters the switch prints when it stops."""
    match = re.search(r"^\s*0\s+(\d+)\s+\d+\s", output, re.M)
    if not match:
        raise side.BenchError("the switch printed no counters when it stopped")
    return int(match.group(1))


@dataclasses.dataclass
class Result:
    label: str
    rows: list[tuple[str, float]]   # (stage, instructions per packet)
    total: float


def profile_switch(example: str, traffic: side.Traffic, work: Path, seconds: float,
                   verbose: bool) -> tuple[Result, float]:
    """Our switch's result, and the driver's receive instructions per packet."""
    out = work / example
    built = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile",
                            str(REPO / "examples" / example / f"{example}.p4"), "--target", "x86-dpdk",
                            "-o", str(out)], capture_output=True, text=True, env=valgrind_build_env())
    if built.returncode != 0:
        raise side.BenchError(f"compiling {example} failed:\n{built.stdout}{built.stderr}")
    prefix = f"p4odp-instr-{os.getpid()}-{example}"
    env = {**os.environ, "ODP_PLATFORM_PARAMS": " ".join([*EAL, "--file-prefix", prefix,
                                                          *side.vdevs((traffic.pcaps[FRAME_SIZE],))])}
    binary = out / "switch"
    argv = [str(binary), "-i", "0=0", "-i", "1=1", "--control", "none", "--commands", str(traffic.commands)]
    if verbose:
        print(f"  {' '.join(argv)}", file=sys.stderr)
    path = work / f"{example}.callgrind"
    packets = switch_packets(callgrind(argv, env, "worker_main", seconds, path, work / f"{example}.log"))
    profile = read_profile(path, binary, "worker_main")
    costs = stages(profile, binary)
    costs["drivers"] = driver_cost(profile)
    costs["other"] = costs.get("other", 0) + profile.total - sum(costs.values())
    others = sorted(name for name in costs if name not in FIRST + BLOCKS + LAST)
    order = FIRST + BLOCKS + others + LAST
    rows = [(name, costs[name] / packets) for name in order if costs.get(name)]
    return Result(f"p4odp {example}", rows, profile.total / packets), profile.object_cost(RX_DRIVER) / packets


def driver_cost(profile: Profile) -> int:
    return sum(cost for obj, cost in profile.objects.items() if any(part in obj for part in DRIVERS))


def dpdk_result(label: str, profile: Profile, rx_per_packet: float) -> Result:
    packets = profile.object_cost(RX_DRIVER) / rx_per_packet
    drivers = driver_cost(profile)
    rows = [("drivers", drivers), ("program", profile.total - drivers)]
    return Result(label, [(name, cost / packets) for name, cost in rows], profile.total / packets)


def show(results: list[Result]) -> None:
    names: list[str] = []
    for result in results:
        names += [name for name, _ in result.rows if name not in names]
    print(f"{'instructions per packet':28}" + "".join(f"{r.label:>18}" for r in results))
    for name in names:
        cells = [dict(r.rows).get(name) for r in results]
        print(f"{name:28}" + "".join(f"{'' if c is None else f'{c:.1f}':>18}" for c in cells))
    print(f"{'total':28}" + "".join(f"{r.total:>18.1f}" for r in results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", metavar="EXAMPLE", help="l2fwd, l3fwd (default both)")
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="seconds each program runs under callgrind (default 40)")
    parser.add_argument("--skip-unavailable", action="store_true",
                        help="without valgrind or DPDK, say why and exit 0")
    parser.add_argument("--keep", metavar="DIR", help="build and profile in DIR, and keep it")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    args.examples = args.examples or ["l2fwd", "l3fwd"]
    if not set(args.examples) <= {"l2fwd", "l3fwd"}:
        parser.error("the examples are l2fwd and l3fwd")
    missing = side.ensure_dpdk()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        missing = "needs valgrind and callgrind_annotate (Debian: apt install valgrind)"
    if missing:
        if args.skip_unavailable:
            print(f"worker_instructions: skipped: {missing}")
            return
        raise SystemExit(f"worker_instructions: {missing}")
    try:
        with tempfile.TemporaryDirectory(prefix="p4odp-instr-") as tmp:
            work = Path(args.keep or tmp)
            work.mkdir(parents=True, exist_ok=True)
            dpdk = side.build_dpdk(work, args.verbose)
            for example in args.examples:
                traffic = (side.l2_traffic if example == "l2fwd" else side.l3_traffic)([FRAME_SIZE], work)
                traffic.pcaps[FRAME_SIZE] = work / f"{example}-{FRAME_SIZE}.pcap"
                write_pcap(str(traffic.pcaps[FRAME_SIZE]), traffic.frames[FRAME_SIZE])
                ours, rx_per_packet = profile_switch(example, traffic, work, args.seconds, args.verbose)
                show([ours, dpdk_result(f"DPDK {example}", profile_dpdk(example, dpdk, traffic, work,
                                                                        args.seconds), rx_per_packet)])
                print(flush=True)
    except side.BenchError as error:
        raise SystemExit(f"worker_instructions: {error}") from None


def profile_dpdk(example: str, dpdk: side.DpdkBuild, traffic: side.Traffic, work: Path, seconds: float) -> Profile:
    eal = [*EAL, "--file-prefix", f"p4odp-instr-{os.getpid()}-dpdk-{example}",
           *side.vdevs((traffic.pcaps[FRAME_SIZE],))]
    env = dict(os.environ)
    if example == "l2fwd":
        args = ["-p", "0x3", "-q", "2", "--portmap", f"({side.IN_PORT},{side.OUT_PORT})", "-T", "0"]
        argv, collect = [str(dpdk.l2fwd), *eal, "--", *args], "l2fwd_launch_one_lcore"
    else:
        env["LD_PRELOAD"] = str(dpdk.shim)
        args = ["-p", "0x3", "--config", f"({side.IN_PORT},0,0),({side.OUT_PORT},0,0)", "--lookup", "lpm",
                "--parse-ptype", "--rule_ipv4", str(traffic.rules_v4), "--rule_ipv6", str(traffic.rules_v6),
                "--eth-dest", f"{side.OUT_PORT},{side.NEXT_HOP}"]
        argv, collect = [str(dpdk.l3fwd), *eal, "--", *args], "lpm_main_loop"
    path = work / f"dpdk-{example}.callgrind"
    callgrind(argv, env, collect, seconds, path, work / f"dpdk-{example}.log")
    return read_profile(path)


if __name__ == "__main__":
    main()
