"""`p4odp bench --latency`: one-way latency under load, through DPDK's net_memif.

A generator of ours (latency_gen.c, a DPDK program built at run time with pkg-config's
libdpdk and cached) owns the server end of one memif link per port of the device under test
(a switch, DPDK's l2fwd or l3fwd, or the baseline's forwarder), which owns the client ends.
Each runs on one CPU (taskset, and EAL `-l` that CPU).  The generator stamps each frame with
the TSC as it sends it and reads the TSC again when the frame comes back on any port: the
one-way time through the device, both ends read on the generator's CPU.  It first finds the
maximum rate of frames back (sending as fast as its port takes them), then sends at each load
(a share of that maximum) paced by the TSC, and reports per load the frames sent, back, lost,
and the one-way time's p50, p99, p99.9 and maximum.

The baseline: latency_gen.c's --forward in the device's place (port 0's frames to port 1 as
they are, a burst of 32 at a time): the generator's own cost and the path's, two memif copies
and two pollers, with no packet processing.
"""

from __future__ import annotations

import dataclasses
import glob
import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from p4odp.backend.runtime_cache import cache_folder
from p4odp.switchbench.traffic import FCS_LEN, header_length, write_frames

__all__ = ["LatencyError", "LatencyOptions", "Device", "LoadLatency", "LatencyRun", "generator_missing",
           "build_generator", "measure", "forwarder", "pick_cpus", "STAMP_LEN", "MAX_FRAMES", "MAX_SIZE",
           "hugepages_needed"]

SOURCE = Path(__file__).resolve().with_name("latency_gen.c")
STAMP_LEN = 16          # the generator's stamp, in each frame's last bytes
MAX_FRAMES = 65536      # frames the generator holds
MAX_SIZE = 1518         # memif's buffers hold 2,048 bytes; the generator takes frames up to 2,000
# EAL options of both ends: no PCI scan, no files shared between processes, no telemetry.
EAL = ["--no-pci", "--no-shconf", "--no-telemetry", "--log-level=lib.eal:error"]
DEVICE_MEMORY_MB = 512
GENERATOR_MEMORY_MB = 256
READY_TIMEOUT = 30.0    # seconds for the generator to start its ports (its memif servers listen)
READY_LINE = "latency generator: ports started"
STOP_TIMEOUT = 20.0


class LatencyError(Exception):
    """A run that cannot go on; the message is one line (or a line and a log's tail)."""


@dataclasses.dataclass(frozen=True)
class LatencyOptions:
    loads: tuple = (10, 50, 90)   # percent of the maximum rate
    seconds: float = 5.0          # recorded, per load; and the maximum rate's measure
    warmup: float = 1.0           # paced but not recorded, before each load
    generator_cpu: int = 0
    device_cpu: int = 1
    hugepages: bool = False       # else --no-huge
    start_timeout: float = 60.0   # until the first frame comes back


@dataclasses.dataclass(frozen=True)
class Device:
    """What runs between the generator's ports: `command(eal)` gives its argv and extra
    environment, `eal` being its EAL arguments (lcore, memory, file prefix, memif vdevs)."""
    label: str
    kind: str                     # "p4odp" (EAL arguments in ODP_PLATFORM_PARAMS) or "dpdk"
    binary: Path
    args: tuple = ()              # the switch's options, or a DPDK program's after `--`
    env: tuple = ()               # (name, value) pairs

    def command(self, eal: list[str]) -> tuple[list[str], dict[str, str]]:
        env = dict(self.env)
        if self.kind == "p4odp":
            env["ODP_PLATFORM_PARAMS"] = shlex.join(eal)
            return [str(self.binary), *self.args], env
        return [str(self.binary), *eal, "--", *self.args], env


def forwarder(generator: Path) -> Device:
    """The baseline's device: the generator binary's --forward."""
    return Device("baseline (forwarder)", "dpdk", generator, ("--forward",))


@dataclasses.dataclass(frozen=True)
class LoadLatency:
    load: float                   # percent of the maximum
    rate_pps: float
    seconds: float
    sent: int
    received: int                 # distinct frames back
    lost: int                     # sent - received: refused by a full ring, or not back in time
    refused: int
    copies: int                   # frames back more than once (floods, multicast)
    skipped: int                  # paced sends skipped: the generator was held up (its CPU taken)
    backwards: int                # frames back before their stamp by the TSC, counted as 0 us
    min_us: Optional[float]
    mean_us: Optional[float]
    p50_us: Optional[float]
    p99_us: Optional[float]
    p999_us: Optional[float]
    max_us: Optional[float]
    histogram: tuple              # counts of log-spaced bins
    histogram_low_ns: float       # bin k holds [low * 10^(k/per_decade), low * 10^((k+1)/per_decade))
    histogram_per_decade: int


@dataclasses.dataclass(frozen=True)
class LatencyRun:
    label: str
    max_pps: float
    max_sent: int
    max_received: int
    loads: tuple                  # LoadLatency per load
    tsc_hz: int
    command: str                  # the device's command line, as run
    # Of the time the busiest thread of each was ready to run, the share it ran (Linux's
    # schedstat); under 1 when other processes took its CPU.  None when /proc cannot tell.
    device_cpu_share: Optional[float] = None
    generator_cpu_share: Optional[float] = None


Progress = Callable[[str, bool], None]


# ---------------------------------------------------------------------------- the generator

def _run(command: list[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        raise LatencyError(f"cannot run {command[0]}: {error.strerror}") from None


def generator_missing() -> Optional[str]:
    """Why the generator cannot be built or run here, or None."""
    missing = []
    if shutil.which("pkg-config") is None or _run(["pkg-config", "--exists", "libdpdk"]).returncode != 0:
        missing.append("libdpdk-dev and pkg-config (pkg-config libdpdk)")
    elif not _memif_driver():
        missing.append("DPDK's net_memif driver (librte_net_memif, in Debian's librte-net-memif23 or libdpdk-dev)")
    cc = shlex.split(os.environ.get("CC", "cc"))[:1] or ["cc"]
    for tool in (cc[0], "taskset"):
        if shutil.which(tool) is None:
            missing.append(tool)
    return f"--latency needs {', '.join(missing)}" if missing else None


def _memif_driver() -> bool:
    """Is DPDK's memif driver there, among the drivers the EAL loads or linked in?"""
    libdir = _run(["pkg-config", "--variable=libdir", "libdpdk"]).stdout.strip()
    return bool(libdir) and bool(glob.glob(f"{glob.escape(libdir)}/dpdk/pmds-*/librte_net_memif.so*")
                                 or glob.glob(f"{glob.escape(libdir)}/librte_net_memif.*"))


def build_generator(scratch: Path, verbose: bool = False) -> Path:
    """latency_gen.c built against pkg-config's libdpdk: from the cache folder, keyed by the
    source, DPDK's version and flags and the compiler, or built now."""
    reason = generator_missing()
    if reason:
        raise LatencyError(reason)
    flags = {}
    for what in ("--modversion", "--cflags", "--libs"):
        result = _run(["pkg-config", what, "libdpdk"])
        if result.returncode != 0:
            raise LatencyError(f"pkg-config {what} libdpdk failed: {result.stderr.strip()}")
        flags[what] = result.stdout.strip()
    cc = shlex.split(os.environ.get("CC", "cc"))
    version = _run([*cc, "--version"]).stdout.splitlines()
    key = hashlib.sha256()
    for part in (*flags.values(), shlex.join(cc), version[0] if version else ""):
        key.update(part.encode() + b"\0")
    key.update(SOURCE.read_bytes())
    cache = cache_folder("latency-gen")
    folder = cache / key.hexdigest()[:16] if cache is not None else scratch / "latency-gen"
    binary = folder / "latency_gen"
    if binary.exists():
        return binary
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".latency_gen.{os.getpid()}"
    command = [*cc, "-O2", "-g", "-Wall", *shlex.split(flags["--cflags"]), str(SOURCE), "-o", str(partial),
               *shlex.split(flags["--libs"]), "-lm"]
    if verbose:
        print(f"  {shlex.join(command)}", file=sys.stderr, flush=True)
    built = _run(command)
    if built.returncode != 0:
        partial.unlink(missing_ok=True)
        raise LatencyError(f"building the latency generator failed: {shlex.join(command)}\n"
                           + _tail(built.stdout + built.stderr))
    os.replace(partial, binary)  # atomic: a concurrent run finds it whole or not at all
    return binary


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def pick_cpus(device_cpu: Optional[int], generator_cpu: Optional[int]) -> tuple[int, int]:
    """(device's CPU, generator's CPU): two different CPUs this process may use; by default
    the last one for the device and the first other one for the generator."""
    allowed = sorted(os.sched_getaffinity(0))
    device = allowed[-1] if device_cpu is None else device_cpu
    others = [cpu for cpu in allowed if cpu != device]
    generator = (others[0] if others else None) if generator_cpu is None else generator_cpu
    if generator is None:
        raise LatencyError(f"--latency runs the switch and the generator on a CPU each: this process may use "
                           f"only CPU {allowed[0]}")
    for cpu in (device, generator):
        if cpu not in allowed:
            raise LatencyError(f"CPU {cpu}: this process may use CPUs {','.join(map(str, allowed))}")
    if device == generator:
        raise LatencyError(f"the switch and the generator both on CPU {device}: give them different CPUs")
    return device, generator


def hugepages_needed() -> int:
    """2 MB pages for one measure: the device's memory and the generator's, and some slack."""
    return (DEVICE_MEMORY_MB + GENERATOR_MEMORY_MB) // 2 + 16


def check_frames(frames: list[bytes], size: int) -> None:
    """The stamp must fit after every frame's headers."""
    if len(frames) > MAX_FRAMES:
        raise LatencyError(f"{len(frames):,} frames: the latency generator holds at most {MAX_FRAMES:,} (use fewer "
                           f"flows)")
    if size > MAX_SIZE:
        raise LatencyError(f"{size}-byte frames: --latency sends frames of at most {MAX_SIZE} bytes (memif's 2 KiB "
                           f"buffers)")
    longest = max(header_length(frame) for frame in frames)
    if size - FCS_LEN - STAMP_LEN < longest:
        raise LatencyError(f"{size}-byte frames: --latency writes a {STAMP_LEN}-byte stamp at the end of each frame, "
                           f"after its headers ({longest} bytes): use frames of {longest + STAMP_LEN + FCS_LEN} bytes "
                           f"or more")


# ---------------------------------------------------------------------------- one measure

def _memif(index: int, role: str, socket_path: Path) -> list[str]:
    return ["--vdev", f"net_memif{index},role={role},socket={socket_path},socket-abstract=no"]


def _memory(megabytes: int, hugepages: bool) -> list[str]:
    return ["-m", str(megabytes), "--huge-unlink"] if hugepages else ["--no-huge", "-m", str(megabytes)]


def shell_line(argv: list[str], env: dict[str, str]) -> str:
    return " ".join([*(f"{k}={shlex.quote(v)}" for k, v in env.items()), shlex.join(argv)])


class _Process:
    """A process whose standard output and error go to a log file; `lines` relays the
    generator's progress lines."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, on_line=None):
        self.log = log
        self.ready = threading.Event()  # the generator said READY_LINE
        try:
            # A session of its own: with Linux's autogroup scheduling (sched_autogroup_enabled)
            # a session's CPU time is shared among its processes, so that the generator, the
            # device and this process would have one process's share of each CPU against the
            # other sessions' busy processes; and Ctrl-C reaches this process only, which
            # stops the device first.
            self.proc = subprocess.Popen(argv, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                         errors="replace", start_new_session=True)
        except OSError as error:
            raise LatencyError(f"cannot run {argv[0]}: {error.strerror}") from None
        self.reader = threading.Thread(target=self._read, args=(on_line,), daemon=True)
        self.reader.start()

    def _read(self, on_line) -> None:
        with open(self.log, "w") as log:
            for line in self.proc.stdout:
                log.write(line)
                log.flush()
                if line.startswith(READY_LINE):
                    self.ready.set()
                if on_line is not None:
                    on_line(line.rstrip("\n"))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def failure(self, what: str) -> LatencyError:
        self.stop()
        self.reader.join(timeout=5)
        return LatencyError(f"{what} (exit status {self.proc.returncode}); its log, {self.log}:\n"
                            + _tail(self.log.read_text(errors="replace")))

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(timeout=5)


def _schedstat(pid: int) -> dict[int, tuple[int, int]]:
    """Per thread of `pid`: (ns on the CPU, ns ready but waiting for it)."""
    out = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            ran, waited, _ = (int(field) for field in (task / "schedstat").read_text().split())
        except (OSError, ValueError):
            continue
        out[int(task.name)] = (ran, waited)
    return out


def _cpu_share(before: dict, after: dict) -> Optional[float]:
    """run / (run + wait) of the thread that ran most between the two readings."""
    deltas = [(ran - before.get(tid, (0, 0))[0], waited - before.get(tid, (0, 0))[1])
              for tid, (ran, waited) in after.items()]
    if not deltas:
        return None
    ran, waited = max(deltas)
    return ran / (ran + waited) if ran + waited > 0 else None


def measure(generator: Path, device: Device, frames: list[bytes], ports: int, in_port: int,
            options: LatencyOptions, work: Path, progress: Progress) -> LatencyRun:
    """Run the generator and `device` (ports 0..ports-1, memif links; the frames enter on
    `in_port`) and return what the generator measured."""
    work.mkdir(parents=True, exist_ok=True)
    frames_path = work / "frames.pcap"
    write_frames(frames_path, frames)
    report = work / "latency.json"
    report.unlink(missing_ok=True)
    # UNIX socket paths hold 107 bytes at most: a short folder of their own, whatever `work` is.
    sockets = Path(tempfile.mkdtemp(prefix="p4odp-memif-"))
    prefix = f"p4odp-latency-{os.getpid()}-{time.monotonic_ns() % 10**9}"
    links = [sockets / f"port{i}.sock" for i in range(ports)]
    gen_eal = ["-l", str(options.generator_cpu), *_memory(GENERATOR_MEMORY_MB, options.hugepages), *EAL,
               "--file-prefix", f"{prefix}-gen", *[a for i, s in enumerate(links) for a in _memif(i, "server", s)]]
    gen_argv = ["taskset", "-c", str(options.generator_cpu), str(generator), *gen_eal, "--",
                "--frames", str(frames_path), "--in-port", str(in_port),
                "--loads", ",".join(f"{load:g}" for load in options.loads), "--seconds", f"{options.seconds:g}",
                "--warmup", f"{options.warmup:g}", "--max-seconds", f"{options.seconds:g}",
                "--start-timeout", f"{options.start_timeout:g}", "--out", str(report)]
    dev_eal = ["-l", str(options.device_cpu), *_memory(DEVICE_MEMORY_MB, options.hugepages), *EAL,
               "--file-prefix", f"{prefix}-dut", *[a for i, s in enumerate(links) for a in _memif(i, "client", s)]]
    dev_argv, dev_env = device.command(dev_eal)
    dev_argv = ["taskset", "-c", str(options.device_cpu), *dev_argv]
    step = lambda line: progress(f"{device.label}: {line.removeprefix('latency generator: ')}", False) \
        if line.startswith("latency generator: ") else None
    (work / "commands.sh").write_text(f"{shell_line(gen_argv, {})} &\n{shell_line(dev_argv, dev_env)}\n")
    gen = dev = None
    try:
        gen = _Process(gen_argv, {}, work / "generator.log", step)
        # Its memif servers listen before the device's clients connect, which they try once.
        deadline = time.monotonic() + READY_TIMEOUT
        while not gen.ready.wait(0.02):
            if not gen.alive():
                raise gen.failure("the latency generator stopped before starting its ports")
            if time.monotonic() > deadline:
                raise gen.failure(f"the latency generator did not start its ports within {READY_TIMEOUT:.0f} s")
        progress(f"{device.label}: starting it", False)
        dev = _Process(dev_argv, dev_env, work / "device.log")
        started = (_schedstat(gen.proc.pid), _schedstat(dev.proc.pid))
        deadline = time.monotonic() + options.start_timeout + options.seconds * 1.2 + 30 + \
            len(options.loads) * (options.warmup + options.seconds * 1.2 + 3)
        while not report.exists():
            if not dev.alive():
                raise dev.failure(f"{device.label} stopped while measured")
            if not gen.alive() and gen.proc.returncode == 3:
                # What the device says when stopped (a switch: its counters and drops).
                raise dev.failure(f"no frame came back through {device.label} within {options.start_timeout:g} s")
            if not gen.alive():
                raise gen.failure("the latency generator stopped")
            if time.monotonic() > deadline:
                raise gen.failure("the latency generator did not finish in time")
            time.sleep(0.05)
        shares = (_cpu_share(started[0], _schedstat(gen.proc.pid)), _cpu_share(started[1], _schedstat(dev.proc.pid)))
        # The device first: a memif client whose server leaves while it polls may crash.
        dev.stop()
        gen.stop()
    finally:
        for process in (dev, gen):
            if process is not None:
                process.stop()
        shutil.rmtree(sockets, ignore_errors=True)
    try:
        doc = json.loads(report.read_text())
    except ValueError as error:
        raise LatencyError(f"the latency generator's report {report} is not JSON: {error}") from None
    return dataclasses.replace(_run_from(device.label, shell_line(dev_argv, dev_env), doc),
                               generator_cpu_share=shares[0], device_cpu_share=shares[1])


def _run_from(label: str, command: str, doc: dict) -> LatencyRun:
    loads = []
    for entry in doc["loads"]:
        histogram = entry["histogram"]
        loads.append(LoadLatency(
            load=entry["load"], rate_pps=entry["rate_pps"], seconds=entry["seconds"], sent=entry["sent"],
            received=entry["received"], lost=entry["lost"], refused=entry["refused"], copies=entry["copies"],
            skipped=entry["skipped"], backwards=entry["backwards"],
            min_us=entry.get("min_us"), mean_us=entry.get("mean_us"), p50_us=entry.get("p50_us"),
            p99_us=entry.get("p99_us"), p999_us=entry.get("p999_us"), max_us=entry.get("max_us"),
            histogram=tuple(histogram["counts"]), histogram_low_ns=histogram["low_ns"],
            histogram_per_decade=histogram["per_decade"]))
    top = doc["max"]
    return LatencyRun(label, top["rate_pps"], top["sent"], top["received"], tuple(loads), doc["tsc_hz"], command)


def load_to_json(load: LoadLatency) -> dict:
    return {**{f.name: getattr(load, f.name) for f in dataclasses.fields(load) if not f.name.startswith("histogram")},
            "histogram": {"low_ns": load.histogram_low_ns, "per_decade": load.histogram_per_decade,
                          "counts": list(load.histogram)}}


def run_to_json(run: LatencyRun) -> dict:
    return {"label": run.label, "max_pps": run.max_pps, "max_sent": run.max_sent, "max_received": run.max_received,
            "tsc_hz": run.tsc_hz, "command": run.command, "device_cpu_share": run.device_cpu_share,
            "generator_cpu_share": run.generator_cpu_share, "loads": [load_to_json(load) for load in run.loads]}
