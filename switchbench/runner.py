"""`p4odp bench`: build the switch once, then for each frame size run it on replayed traffic and
sample its counters.

Ports: each P4 port the traffic enters on replays the frames of that size from memory, for ever
(the bundled ODP's `pcap:in=F:loops=0:cache`; on x86-dpdk DPDK's `net_pcap` with `infinite_rx=1`,
one file per input queue, dealt by the same flow hash); every other port is a sink (`nullN`; on
x86-dpdk `net_null` with `no-rx=1`).  With N workers each owns one input queue of every port.

Rate: once the switch forwards (it has installed its SIGUSR1 handler) and a warm-up has passed,
SIGUSR1 makes it print its counters with the time since it started forwarding; `rounds + 1` such
samples, `seconds / rounds` apart, give `rounds` rates: packets sent (summed over ports) between
two samples over the time between them.  The median is the result, the rounds its spread.

With --latency (`run_latency`, x86-dpdk): each port a memif link to the generator of
`latency`, which measures one-way latency at loads of the switch's maximum rate; then, unless
told not to, the same through its baseline forwarder.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Optional

from p4odp import ir
from p4odp.backend.build import BuildOptions, build_switch
from p4odp.backend.requirements import debian_hint
from p4odp.backend.target import Target
from p4odp.backend.targets import DPDK_PCAP_EAL
from p4odp.diagnostics import Diagnostics, Loc
from p4odp.switchbench import hugepages, latency
from p4odp.switchbench.counters import CounterParser, CountersBlock
from p4odp.switchbench.linerate import CpuFrequency, cpu_frequency, summarize
from p4odp.switchbench.spec import GenSpec
from p4odp.switchbench.traffic import (FCS_LEN, TrafficError, frames_from_pcap, generate, read_traffic,
                                      split_by_queue, write_frames)
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import PassOptions

__all__ = ["BenchOptions", "BenchResult", "run_bench", "LatencyResult", "run_latency", "parse_list",
           "MAX_TRAFFIC_BYTES", "DPDK_MAX_FRAMES"]

# The replaying devices hold every frame in memory: a bound for one size's frames.
MAX_TRAFFIC_BYTES = 1 << 30
# DPDK's net_pcap with infinite_rx keeps the file's frames in mbufs of the switch's packet pool
# (8,192 packets, most of them needed for forwarding): a bound for the frames of all input ports.
DPDK_MAX_FRAMES = 2048
START_TIMEOUT = 120.0   # seconds for the switch to start forwarding (DPDK's EAL takes a while)
SAMPLE_TIMEOUT = 10.0   # seconds for a SIGUSR1 block to arrive
STOP_TIMEOUT = 30.0
SIGUSR1_MASK = 1 << (signal.SIGUSR1 - 1)

_COMMAND_LINE = Loc("<command line>", 0, 0)


class BenchError(Exception):
    """A run that cannot go on; the message is one line for the user."""


@dataclass
class BenchOptions:
    program: str
    target: Target
    build: BuildOptions
    commands: Optional[str] = None
    traffic: Optional[str] = None        # a pcap file, else `gen`
    gen: Optional[GenSpec] = None
    sizes: list = field(default_factory=lambda: [64, 128, 256, 512, 1024, 1280, 1518])
    workers: int = 1
    cpus: Optional[str] = None
    seconds: float = 5.0
    warmup: float = 1.0
    rounds: int = 5
    ports: list = field(default_factory=lambda: [0, 1, 2, 3])
    in_ports: list = field(default_factory=lambda: [0])
    keep: Optional[Path] = None
    passes: Optional[PassOptions] = None  # the midend's options (passes skipped)
    hugepages: bool = True                # x86-dpdk: on 2 MB hugepages, as DPDK is deployed (switchbench.hugepages)
    latency: Optional[latency.LatencyOptions] = None  # run_latency's
    baseline: bool = True                 # run_latency: the forwarder in the switch's place too


@dataclass
class BenchResult:
    program: str
    target: str
    workers: int
    seconds: float
    cpu: Optional[CpuFrequency]
    results: list  # RateSummary per size
    memory: str = ""  # x86-dpdk: "2 MB hugepages" or why not


@dataclass
class LatencyResult:
    program: str
    target: str
    options: latency.LatencyOptions
    results: list  # (size, the switch's LatencyRun, the baseline's or None) per size


# progress(text, step): what the run does now; `step` marks the end of a step (a line of its
# own in a log), the others only update a progress line.
Progress = Callable[[str, bool], None]


def parse_list(text: str, what: str, low: int, high: int) -> list[int]:
    """'0-3,6' -> [0, 1, 2, 3, 6]; raises ValueError with a one-line message."""
    out: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            a = int(first)
            b = int(last) if dash else a
        except ValueError:
            raise ValueError(f"{what} {text}: expected numbers or ranges such as 0-3,6") from None
        if not (low <= a <= b <= high):
            raise ValueError(f"{what} {text}: '{part.strip()}' is not within {low}..{high}")
        out.extend(n for n in range(a, b + 1) if n not in out)
    return out


def run_bench(program: ir.Program, options: BenchOptions, diags: Diagnostics, progress: Progress
              ) -> Optional[BenchResult]:
    """Build and measure; None after reporting an error in `diags`."""
    try:
        return _run_bench(program, options, diags, progress)
    except (BenchError, TrafficError) as err:
        diags.error(_COMMAND_LINE, str(err))
        return None


def _dpdk(target: Target) -> bool:
    return "dpdk" in target.odp.pktio


def _run_bench(program: ir.Program, options: BenchOptions, diags: Diagnostics, progress: Progress
               ) -> Optional[BenchResult]:
    target = options.target
    wrapper_need = target.wrapper_requirement()
    if wrapper_need is not None and not wrapper_need.found:
        raise BenchError(f"target {target.name} runs the switch under {' or '.join(target.run_wrapper.commands)}, "
                         f"not found{debian_hint(wrapper_need.debian)}")
    system = target.system_odp()
    if system is not None and not _dpdk(target):
        raise BenchError(f"target {target.name} links the system ODP {system} here, which has no in-memory "
                         f"replay device (pcap:...:cache) nor null sink: bench needs the bundled ODP")
    source = read_traffic(options.traffic) if options.traffic else None
    # Check the traffic at the smallest size before building anything: it holds the headers
    # there, so at every size.
    _frames(options, source, min(options.sizes))
    return _generate_and_run(program, options, source, diags, progress, _measure_all)


def run_latency(program: ir.Program, options: BenchOptions, diags: Diagnostics, progress: Progress
                ) -> Optional[LatencyResult]:
    """Build the switch, then measure its latency under load at each size; None after
    reporting an error in `diags`."""
    try:
        return _run_latency(program, options, diags, progress)
    except (BenchError, TrafficError, latency.LatencyError) as err:
        diags.error(_COMMAND_LINE, str(err))
        return None


def _run_latency(program: ir.Program, options: BenchOptions, diags: Diagnostics, progress: Progress
                 ) -> Optional[LatencyResult]:
    target = options.target
    if not _dpdk(target):
        raise BenchError(f"--latency measures through DPDK's net_memif: it needs target x86-dpdk, not {target.name}")
    if len(options.in_ports) != 1:
        raise BenchError(f"--latency sends on one port: --in-ports {','.join(map(str, options.in_ports))}")
    if options.workers != 1:
        raise BenchError("--latency runs the switch with one worker (its CPU is --cpus)")
    reason = latency.generator_missing()
    if reason:
        raise BenchError(reason)
    source = read_traffic(options.traffic) if options.traffic else None
    for size in options.sizes:
        latency.check_frames(_frames(options, source, size), size)
    return _generate_and_run(program, options, source, diags, progress, _latency_all)


def _generate_and_run(program: ir.Program, options: BenchOptions, source: Optional[list[bytes]], diags: Diagnostics,
                      progress: Progress, run: Callable):
    """The program's C, then `run(c_files, work, options, source, diags, progress)` in --keep's
    folder or a temporary one; None when the C could not be generated."""
    if options.keep is not None:
        _check_folder(options.keep)
    progress(f"building {options.program} for {options.target.name}", True)
    c_files = generate_c(program, options.program, diags, options.passes, template_dirs=options.target.template_dirs)
    if c_files is None:
        return None
    if options.keep is not None:
        options.keep.mkdir(parents=True, exist_ok=True)
        return run(c_files, options.keep, options, source, diags, progress)
    with tempfile.TemporaryDirectory(prefix="p4odp-bench-") as work:
        return run(c_files, Path(work), options, source, diags, progress)


def _latency_all(c_files: dict, work: Path, options: BenchOptions, source: Optional[list[bytes]],
                 diags: Diagnostics, progress: Progress) -> Optional[LatencyResult]:
    binary = build_switch(c_files, work, options.target, options.build, diags)
    if binary is None:
        return None
    progress("building the latency generator", True)
    generator = latency.build_generator(work, options.build.verbose)
    lopts = replace(options.latency, hugepages=_memory(options, progress, latency.hugepages_needed())
                                == HUGEPAGES)
    ports = sorted(options.ports)
    args = ["-w", "1", "-c", str(lopts.device_cpu)]
    if options.commands:
        args += ["--commands", options.commands]
    for index, port in enumerate(ports):
        args += ["-i", f"{port}={index}"]
    switch = latency.Device("switch", "p4odp", binary, tuple(args))
    results = []
    for step, size in enumerate(options.sizes, 1):
        where = f"[{step}/{len(options.sizes)}] {size} B"
        frames = _frames(options, source, size)
        runs = []
        for device in (switch, latency.forwarder(generator)) if options.baseline else (switch,):
            say = lambda text, end=False: progress(f"{where}: {text}", end)
            folder = work / f"latency{size}-{device.kind}"
            run = latency.measure(generator, device, frames, len(ports), ports.index(options.in_ports[0]), lopts,
                                  folder, say)
            middle = next((load for load in run.loads if load.load == 50), run.loads[len(run.loads) // 2])
            p99 = f"{middle.p99_us:.1f}" if middle.p99_us is not None else "-"
            say(f"{device.label}: max {run.max_pps / 1e6:.3f} Mpps, p99 {p99} us at {middle.load:g}%", True)
            runs.append(run)
        results.append((size, runs[0], runs[1] if len(runs) > 1 else None))
    return LatencyResult(options.program, options.target.name, lopts, results)


def _frames(options: BenchOptions, source: Optional[list[bytes]], size: int) -> list[bytes]:
    if source is not None:
        frames = frames_from_pcap(source, size, options.traffic)
    else:
        frames = generate(options.gen, size)
    total = len(frames) * (size - FCS_LEN)
    if total > MAX_TRAFFIC_BYTES:
        raise BenchError(f"{len(frames):,} frames of {size} bytes take {total / 2**20:,.0f} MiB, more than the "
                         f"{MAX_TRAFFIC_BYTES >> 20:,} MiB the replaying device may hold: use fewer flows")
    if _dpdk(options.target) and options.latency is None and len(frames) * len(options.in_ports) > DPDK_MAX_FRAMES:
        raise BenchError(f"{options.target.name}: net_pcap's infinite_rx keeps every frame in the switch's packet "
                         f"pool: at most {DPDK_MAX_FRAMES:,} frames over all input ports, not "
                         f"{len(frames) * len(options.in_ports):,} (use fewer flows)")
    return frames


def _measure_all(c_files: dict, work: Path, options: BenchOptions, source: Optional[list[bytes]],
                 diags: Diagnostics, progress: Progress) -> Optional[BenchResult]:
    target = options.target
    binary = build_switch(c_files, work, target, options.build, diags)
    if binary is None:
        return None
    cpu = cpu_frequency()
    memory = _memory(options, progress) if _dpdk(target) else ""
    results = []
    for step, size in enumerate(options.sizes, 1):
        where = f"[{step}/{len(options.sizes)}] {size} B"
        progress(f"{where}: building the traffic", False)
        frames = _frames(options, source, size)
        folder = work / f"size{size}"
        folder.mkdir(exist_ok=True)
        names, env = _ports(folder, frames, options, memory == HUGEPAGES)
        argv = [*target.run_prefix(options.build.sysroot)[0], str(binary), "-w", str(options.workers)]
        if options.cpus:
            argv += ["-c", options.cpus]
        if options.commands:
            argv += ["--commands", options.commands]
        for port in sorted(names):
            argv += ["-i", f"{port}={names[port]}"]
        env = {**os.environ, **target.run_prefix(options.build.sysroot)[1], **env}
        _write_run_script(folder, argv, env)
        rounds, rx_rounds = _sample(argv, env, len(names), options,
                                    lambda text, step=False: progress(f"{where}: {text}", step), size)
        summary = summarize(size, rounds, cpu.hz if cpu else None, options.workers, rx_rounds)
        progress(f"{where}: {summary.mpps:.3f} Mpps (\u00b1{summary.spread:.3f})", True)
        results.append(summary)
    return BenchResult(options.program, target.name, options.workers, options.seconds, cpu, results, memory)


HUGEPAGES = "2 MB hugepages"
HUGEPAGES_MB = 512   # the EAL's -m, as without them (DPDK_PCAP_EAL)


def _memory(options: BenchOptions, progress: Progress, pages: int = HUGEPAGES_MB // hugepages.PAGE_MB + 8) -> str:
    """The DPDK run's memory: `pages` hugepages (HUGEPAGES) unless the user said not or the
    machine cannot have them, then why not; what was reserved or mounted for them is said."""
    if not options.hugepages:
        return "no hugepages (--no-hugepages)"
    try:
        done = hugepages.ensure_hugepages(pages)
    except hugepages.HugepagesError as error:
        progress(f"{error}: running without them (--no-huge)", True)
        return "no hugepages (none to be had)"
    progress(f"hugepages: {done or f'{pages} 2 MB pages needed and free'}", True)
    return HUGEPAGES


def _check_folder(folder: Path) -> None:
    if ":" in str(folder) or "," in str(folder):
        raise BenchError(f"{folder}: a folder whose path has ':' or ',' cannot be named in an interface name "
                         f"(pcap:in=F, DPDK vdev arguments): choose another --keep DIR")


def _ports(folder: Path, frames: list[bytes], options: BenchOptions, on_hugepages: bool = False
           ) -> tuple[dict, dict]:
    """The switch's `-i` names per P4 port, and the environment they need (x86-dpdk: on
    hugepages or not)."""
    _check_folder(folder)
    if not _dpdk(options.target):
        write_frames(folder / "traffic.pcap", frames)
        names = {}
        for port in options.ports:
            if port in options.in_ports:
                # One file name per port: the bundled ODP opens an interface name once.
                path = folder / f"in{port}.pcap"
                if not path.exists():
                    os.link(folder / "traffic.pcap", path)
                names[port] = f"pcap:in={path}:loops=0:cache"
            else:
                names[port] = f"null{port}"
        return names, {}
    # DPDK: net_pcap has no RSS; one rx_pcap per input queue, dealt by the bundled ODP's hash.
    queues = split_by_queue(frames, options.workers)
    for q, share in enumerate(queues):
        if not share:
            raise BenchError(f"with {options.workers} workers, input queue {q} gets none of the traffic's flows "
                             f"(their hash spreads them so): use more flows")
        write_frames(folder / f"queue{q}.pcap", share)
    vdevs, names = [], {}
    for index, port in enumerate(sorted(options.ports)):
        if port in options.in_ports:
            files = ",".join(f"rx_pcap={folder / f'queue{q}.pcap'}" for q in range(len(queues)))
            vdevs.append(f"--vdev net_pcap{index},{files},infinite_rx=1")
        else:
            vdevs.append(f"--vdev net_null{index},no-rx=1")
        names[port] = str(index)
    eal = DPDK_PCAP_EAL
    if on_hugepages:  # their files unlinked once mapped, under a prefix of this run's own
        eal = eal.replace("--no-huge", f"--huge-unlink --file-prefix p4odp-bench-{os.getpid()}")
    return names, {"ODP_PLATFORM_PARAMS": f"{eal} {' '.join(vdevs)}"}


def _write_run_script(folder: Path, argv: list[str], env: dict) -> None:
    """run.sh: the switch as the benchmark ran it (for --keep)."""
    extra = {k: v for k, v in env.items() if os.environ.get(k) != v}
    lines = ["#!/bin/sh", "# The switch as p4odp bench ran it; SIGUSR1 prints its counters, Ctrl-C stops it."]
    lines += [f"export {k}={shlex.quote(v)}" for k, v in sorted(extra.items())]
    lines.append(f"exec {shlex.join(argv)}")
    path = folder / "run.sh"
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o755)


def _handles_sigusr1(pid: int) -> Optional[bool]:
    """Has the process installed a SIGUSR1 handler?  None when Linux's /proc cannot tell."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) & SIGUSR1_MASK)
    except (OSError, ValueError):
        return None
    return None


class _Switch:
    """A running switch whose standard error is parsed as it comes."""

    def __init__(self, argv: list[str], env: dict) -> None:
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE, text=True, env=env)
        except OSError as err:
            raise BenchError(f"cannot run the switch: {err.strerror}: {argv[0]}") from None
        self.parser = CounterParser()
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            with self.lock:
                self.parser.feed(line)

    def samples(self, ports: int) -> list[CountersBlock]:
        with self.lock:
            return self.parser.samples(ports)

    def failure(self, what: str) -> BenchError:
        self.stop()
        with self.lock:
            tail = [line for line in self.parser.other if line.strip()][-3:]
        detail = f": {' / '.join(tail)}" if tail else ""
        return BenchError(f"{what} (exit status {self.proc.returncode}){detail}")

    def stop(self) -> Optional[CountersBlock]:
        """Stop the switch (SIGINT, as Ctrl-C); its last counters."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(timeout=STOP_TIMEOUT)
        with self.lock:
            final = [block for block in self.parser.blocks if block.time is None]
        return final[-1] if final else None


def _sample(argv: list[str], env: dict, ports: int, options: BenchOptions, progress: Progress, size: int
            ) -> tuple[list[float], list[float]]:
    """The rounds' rates (Mpps) sent and received, in one run of the switch."""
    switch = _Switch(argv, env)
    try:
        progress("starting the switch", False)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if switch.proc.poll() is not None:
                raise switch.failure("the switch stopped before forwarding")
            ready = _handles_sigusr1(switch.proc.pid)
            if ready or ready is None or options.target.run_wrapper is not None:
                break  # an emulator catches every signal itself: the warm-up has to do
            if time.monotonic() > deadline:
                raise switch.failure(f"the switch did not start forwarding within {START_TIMEOUT:.0f} s")
            time.sleep(0.02)
        if options.target.run_wrapper is not None:
            time.sleep(2.0)
        progress(f"warming up for {options.warmup:g} s", False)
        time.sleep(options.warmup)
        interval = options.seconds / options.rounds
        blocks: list[CountersBlock] = []
        rates: list[float] = []
        rx_rates: list[float] = []
        next_at = time.monotonic()
        for k in range(options.rounds + 1):
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at = time.monotonic() + interval
            blocks.append(_snapshot(switch, ports, k + 1))
            if k:
                a, b = blocks[-2], blocks[-1]
                if b.time <= a.time:
                    raise BenchError("the switch's counters did not move forward in time")
                rates.append((b.tx - a.tx) / (b.time - a.time) / 1e6)
                rx_rates.append((b.rx - a.rx) / (b.time - a.time) / 1e6)
                progress(f"round {k}/{options.rounds}: {rates[-1]:.3f} Mpps", False)
    except BaseException:
        switch.stop()
        raise
    final = switch.stop()
    if max(rates) <= 0:
        received = blocks[-1].rx - blocks[0].rx
        drops = ", ".join(f"{count:,} {reason}" for reason, count in (final.drops if final else {}).items())
        if received <= 0:
            raise BenchError(f"{size}-byte frames: the switch received nothing (see its ports with --keep DIR "
                             f"and run.sh there)")
        raise BenchError(f"{size}-byte frames: the switch received {received:,} packets and sent none"
                         + (f"; dropped: {drops}" if drops else "")
                         + (" (does the program need --commands?)" if not options.commands else ""))
    return rates, rx_rates


def _snapshot(switch: _Switch, ports: int, count: int) -> CountersBlock:
    """Ask for the counters (SIGUSR1) and wait for the `count`-th block."""
    if switch.proc.poll() is not None:
        raise switch.failure("the switch stopped while measuring")
    switch.proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + SAMPLE_TIMEOUT
    while True:
        samples = switch.samples(ports)
        if len(samples) >= count:
            return samples[count - 1]
        if switch.proc.poll() is not None:
            raise switch.failure("the switch stopped while measuring")
        if time.monotonic() > deadline:
            raise switch.failure(f"the switch printed no counters within {SAMPLE_TIMEOUT:.0f} s of SIGUSR1 "
                                 f"(does it predate SIGUSR1?)")
        time.sleep(0.005)
