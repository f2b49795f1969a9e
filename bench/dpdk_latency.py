#!/usr/bin/env python3
"""One-way latency under load: the examples' switches and DPDK's own l2fwd and l3fwd.

    python3 bench/dpdk_latency.py [--seconds S] [--warmup S] [--loads 10,50,90] [--size BYTES]
                                  [--device-cpu C] [--generator-cpu C] [--no-hugepages]
                                  [--json FILE] [--plot FILE.svg|.png] [--keep DIR] [--skip-unavailable] [-v]

A benchmark, not a test: it prints latencies and their ratios, and fails only when something
cannot be built or run.

What runs.  `p4odp bench --latency`'s generator (switchbench/latency_gen.c, a DPDK program
built with pkg-config's libdpdk into the cache folder) owns the server ends of two DPDK
net_memif links; the program measured owns the client ends, as its ports 0 and 1.  The
generator sends into port 0 and takes the frames back from port 1, the TSC stamped in each
frame's last 16 bytes when sent and read again when its burst comes back, both on the
generator's CPU: one-way time through the program.  Each program, in turn:
  baseline: the generator's --forward (port 0's frames to port 1, untouched, a burst of 32
    at a time), in the program's place: what the path and the generator cost by themselves;
  DPDK l2fwd (`-p 0x3 -q 2 --portmap (0,1) -T 0`) and p4odp's examples/l2fwd (x86-dpdk,
    1,000 `dmac` entries), on dpdk_side_by_side.py's l2fwd frames (1,000 MACs);
  DPDK l3fwd (`--lookup lpm`, 1,000 routes from a rule file, `--parse-ptype`, with
    bench/dpdk_offload_shim.c preloaded) and p4odp's examples/l3fwd (the same routes as
    `table_add` lines), on dpdk_side_by_side.py's l3fwd frames.
DPDK's programs are built by dpdk_side_by_side.py's build_dpdk (from Debian's dpdk-doc
sources, cached; nothing of theirs enters this repository), the entries and frames by its
l2_traffic and l3_traffic.  DPDK's l2fwd and l3fwd buffer what they send and flush a buffer
when it holds 32 packets or every 100 us (BURST_TX_DRAIN_US): at low loads that is their
latency; p4odp's switch sends what each received burst gives at the end of the burst.

How.  The program on one CPU (`taskset -c C`, EAL `-l C`, ours `-w 1 -c C`; default the last
CPU), the generator on another (default the first), each in a session of its own (Linux's
autogroup scheduling shares a session's CPU time among its processes); the script's own
Python sleeps meanwhile.  The table's "CPU got" is, of the time each side's polling thread
was ready to run, the share it ran: under 100%, other processes took its CPU, and the tails
measure the scheduler.  For each program: its maximum rate through this path (the generator sending
as fast as the link takes frames, for S seconds: frames back per second), then at each load
(10%, 50% and 90% of that maximum, each program its own) W seconds paced and unrecorded, then
S seconds recorded: frames sent, lost (refused by a full ring, dropped, or not back by the
end of the drain), and the one-way time's p50, p99, p99.9 and maximum.  The ratio reported is
p4odp's p99 over DPDK's at 50% load, for l2fwd and l3fwd; issue 39 asks for l3fwd's within
2x.  The machine's other load shows in the tails: one run is indicative only.

Memory.  Every program and the generator run with 2 MB hugepages (512 MB and 256 MB, EAL
`--huge-unlink`), as DPDK is deployed: as root the script reserves the pages missing through
/proc/sys/vm/nr_hugepages and mounts hugetlbfs on /dev/hugepages, and says so.
`--no-hugepages` runs them all with `--no-huge` instead: compare runs of one kind only.

Output: a table per program, the ratios, `--json FILE` (every figure, the commands run) and
`--plot FILE` (.svg or .png; needs matplotlib): p50/p99/p99.9 against load, and the
histograms at 50% load.  `--keep DIR` builds and runs in DIR and keeps it: per program
runN/commands.sh (the generator's and the program's command lines), their logs and the
generator's report.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
from pathlib import Path

from dpdk_side_by_side import (IN_PORT, NEXT_HOP, OUT_PORT, BenchError, build_dpdk, compile_switch, ensure_dpdk,
                               l2_traffic, l3_traffic, run_script)

from p4odp.switchbench import latency
from p4odp.switchbench.hugepages import HugepagesError, ensure_hugepages
from p4odp.switchbench.report import (BASELINE_NOTE, PlotUnavailable, check_plot, latency_header, latency_rows,
                                     plot_latency_runs)
from p4odp.switchbench.traffic import MIN_SIZE

TARGET = 2.0            # p4odp's p99 at 50% load over DPDK l3fwd's: issue 39's bound


def devices(dpdk, switches: dict, l2, l3, cpu: int) -> list[tuple[latency.Device, list[bytes]]]:
    ports = ("-i", f"{IN_PORT}=0", "-i", f"{OUT_PORT}=1", "-w", "1", "-c", str(cpu))
    return [
        (latency.Device("DPDK l2fwd", "dpdk", dpdk.l2fwd,
                        ("-p", "0x3", "-q", "2", "--portmap", f"({IN_PORT},{OUT_PORT})", "-T", "0")), l2),
        (latency.Device("p4odp l2fwd", "p4odp", switches["l2fwd"], (*ports, "--commands", str(l2.commands))), l2),
        (latency.Device("DPDK l3fwd (LPM)", "dpdk", dpdk.l3fwd,
                        ("-p", "0x3", "--config", f"({IN_PORT},0,{cpu}),({OUT_PORT},0,{cpu})", "--lookup", "lpm",
                         "--parse-ptype", "--rule_ipv4", str(l3.rules_v4), "--rule_ipv6", str(l3.rules_v6),
                         "--eth-dest", f"{OUT_PORT},{NEXT_HOP}"),
                        (("LD_PRELOAD", str(dpdk.shim)),)), l3),
        (latency.Device("p4odp l3fwd", "p4odp", switches["l3fwd"], (*ports, "--commands", str(l3.commands))), l3),
    ]


def at_load(run: latency.LatencyRun, load: float):
    return next((entry for entry in run.loads if entry.load == load), None)


def ratio(ours: latency.LatencyRun, reference: latency.LatencyRun, load: float):
    a, b = at_load(ours, load), at_load(reference, load)
    if a is None or b is None or a.p99_us is None or not b.p99_us:
        return None
    return a.p99_us / b.p99_us


def parse_loads(text: str) -> tuple:
    try:
        loads = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected percentages such as 10,50,90, not {text!r}") from None
    if not loads or not all(0 < load <= 100 for load in loads) or 50 not in loads:
        raise argparse.ArgumentTypeError("percentages more than 0 and at most 100, 50 among them (the ratio's)")
    return loads


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cpus = sorted(os.sched_getaffinity(0))
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="recorded seconds per load, and the maximum rate's measure (default 5)")
    parser.add_argument("--warmup", type=float, default=1.0, help="paced, unrecorded seconds before each load "
                                                                  "(default 1)")
    parser.add_argument("--loads", type=parse_loads, default=(10.0, 50.0, 90.0),
                        help="percentages of each program's maximum rate (default 10,50,90)")
    parser.add_argument("--size", type=int, default=64, help=f"frame size with FCS, {MIN_SIZE} to "
                                                             f"{latency.MAX_SIZE} (default 64)")
    parser.add_argument("--device-cpu", type=int, help=f"the measured program's CPU (default {cpus[-1]})")
    parser.add_argument("--generator-cpu", type=int, help="the generator's CPU (default the first other one)")
    parser.add_argument("--no-hugepages", action="store_true", help="run everything with --no-huge")
    parser.add_argument("--json", type=Path, help="write every figure and the commands run to this file")
    parser.add_argument("--plot", type=Path, help="write the plot to this file (.svg or .png; needs matplotlib)")
    parser.add_argument("--keep", type=Path, help="build and run in this folder and keep it (logs, commands)")
    parser.add_argument("--skip-unavailable", action="store_true",
                        help="without DPDK's examples, libdpdk or the hugepages, say why and exit 0 (make bench)")
    parser.add_argument("-v", "--verbose", action="store_true", help="show every command run")
    args = parser.parse_args()
    if args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds is more than 0, --warmup at least 0")
    if not MIN_SIZE <= args.size <= latency.MAX_SIZE:
        parser.error(f"--size {args.size}: {MIN_SIZE} to {latency.MAX_SIZE}")
    if args.plot:
        try:
            check_plot()
        except PlotUnavailable as error:
            parser.error(str(error))
    return args


def main() -> int:
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    reason = ensure_dpdk() or latency.generator_missing()
    if reason:
        if args.skip_unavailable:
            print(f"dpdk_latency: skipped: {reason}")
            return 0
        raise BenchError(reason)
    try:
        device_cpu, generator_cpu = latency.pick_cpus(args.device_cpu, args.generator_cpu)
    except latency.LatencyError as error:
        raise BenchError(str(error)) from None
    memory = "no hugepages (--no-huge)"
    if not args.no_hugepages:
        try:
            needed = latency.hugepages_needed()
            print(f"hugepages: {ensure_hugepages(needed) or f'{needed} 2 MB pages needed and free'}", file=sys.stderr,
                  flush=True)
        except HugepagesError as error:
            if args.skip_unavailable:
                print(f"dpdk_latency: skipped: {error}")
                return 0
            raise BenchError(f"{error}; or --no-hugepages") from None
        memory = "2 MB hugepages"
    options = latency.LatencyOptions(loads=args.loads, seconds=args.seconds, warmup=args.warmup,
                                     generator_cpu=generator_cpu, device_cpu=device_cpu,
                                     hugepages=not args.no_hugepages)
    with tempfile.TemporaryDirectory(prefix="p4odp-dpdk-latency-") as tmp:
        work = Path(tmp) if args.keep is None else args.keep.resolve()
        work.mkdir(parents=True, exist_ok=True)
        dpdk = build_dpdk(work, args.verbose)
        generator = latency.build_generator(work, args.verbose)
        print("compiling examples/l2fwd and examples/l3fwd for x86-dpdk", file=sys.stderr, flush=True)
        switches = {example: compile_switch(example, work / example) for example in ("l2fwd", "l3fwd")}
        l2, l3 = l2_traffic([args.size], work), l3_traffic([args.size], work)
        plan = [(latency.forwarder(generator), l2.frames[args.size])]
        plan += [(device, traffic.frames[args.size]) for device, traffic in devices(dpdk, switches, l2, l3, device_cpu)]
        runs = []
        for index, (device, frames) in enumerate(plan):
            latency.check_frames(frames, args.size)

            def progress(text: str, _end: bool) -> None:
                if args.verbose:
                    print(f"  {text}", file=sys.stderr, flush=True)

            print(f"[{index + 1}/{len(plan)}] {device.label}", file=sys.stderr, flush=True)
            try:
                run_ = latency.measure(generator, device, frames, 2, IN_PORT, options, work / f"run{index}", progress)
            except latency.LatencyError as error:
                raise BenchError(f"{device.label}: {error}") from None
            if args.verbose:
                print(f"  {run_.command}", file=sys.stderr, flush=True)
            runs.append(run_)
    by_label = {run_.label: run_ for run_ in runs}
    print(f"one-way latency through DPDK {dpdk.version} net_memif links, {args.size}-byte frames; the program on "
          f"CPU {device_cpu}, the generator on CPU {generator_cpu} (taskset, one lcore each); {memory}; "
          f"{args.seconds:g} s per load after {args.warmup:g} s; loads are shares of each program's own maximum")
    print(latency_header())
    for run_ in runs:
        for line in latency_rows(run_, run_.label):
            print(line)
    print(BASELINE_NOTE)
    ratios = {}
    for example, reference in (("l2fwd", "DPDK l2fwd"), ("l3fwd", "DPDK l3fwd (LPM)")):
        value = ratio(by_label[f"p4odp {example}"], by_label[reference], 50)
        ratios[example] = value
        verdict = "" if example != "l3fwd" or value is None else \
            f" (issue 39: within {TARGET:g}x: {'yes' if value <= TARGET else 'no'})"
        print(f"p99 at 50% load, p4odp {example} / {reference}: " +
              (f"{value:.2f}x{verdict}" if value is not None else "-"))
    if args.json:
        document = {"dpdk": dpdk.version, "size": args.size, "seconds": args.seconds, "warmup": args.warmup,
                    "loads": list(args.loads), "hugepages": not args.no_hugepages,
                    "cpus": {"program": device_cpu, "generator": generator_cpu},
                    "p99_ratio_at_50": ratios, "target_l3fwd": TARGET,
                    "runs": [latency.run_to_json(run_) for run_ in runs]}
        args.json.write_text(json.dumps(document, indent=1) + "\n")
    if args.plot:
        plot_latency_runs(runs, str(args.plot), f"one-way latency through memif, {args.size}-byte frames, "
                                                f"{memory}; each program at shares of its own maximum")
    return 0


if __name__ == "__main__":
    run_script("dpdk_latency", main)
