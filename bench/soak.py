#!/usr/bin/env python3
"""A soak under table churn: workers forwarding at full rate while the control plane rewrites
their tables' entries thousands of times a second, and not one packet forwarded by an entry read
half-written.

    python3 bench/soak.py [--seconds S] [--workers N] [--rate R] [--warmup S] [--max-rss-growth MIB]
                          [--target T] [--keep DIR]

Builds bench/soak.p4 and runs its switch with N workers, port 0 replaying 256 frames of 64 flows
from memory for ever (each worker gets its share of the flows), ports 1-4 sinks.  Each flow has an
entry in two tables, each version of which writes its number into every byte of 18 bytes of
action data, in one of two parameter orders (two actions): exact on the MAC address (a cuckoo
hash, 76% of its slots taken by 1,300 more entries no frame matches) and lpm on the IPv4 address
(DIR-24-8: /32 routes, each in a second-level group of its own, and /24 routes, under a /8 whose
action is the miss's).  The program sends a packet out of port 1 when each entry it used was
whole and its flow's, out of port 2 when one was not (torn), out of port 3 when a table had no
entry for an even flow, whose entries are deleted and added again (legitimate), out of port 4
when it had none for an odd flow, whose entries are only modified (lost).

Meanwhile one control-channel client (SwitchChannel.commands, lines pipelined) changes the flows'
entries in turn, for --warmup then --seconds seconds, each change the next version: by
table_modify, alternating the actions, but every fourth change of an even flow's entry by
table_delete and table_add; between them it replaces the oldest fillers by others at new random
addresses (adds that move entries between their cuckoo buckets, the flows' too); at R updates a
second (0: as fast as the switch answers).

Prints the updates a second (the average, and the min, median and max of the whole seconds), the
packets received and where each went, and the switch's resident memory after the warm-up and at
the end.  Exits 1 on a torn or lost entry, a refused command, a switch that stops (or exits
non-zero at SIGTERM), a packet not accounted for (received != sent + dropped), resident memory
grown by more than --max-rss-growth, or an average below R.  A benchmark, not a test:
tests/controlplane/test_soak.py runs a short one.
"""

from __future__ import annotations

import argparse
import collections
import functools
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from p4odp.controlplane.channel import ChannelError, SwitchChannel
from p4odp.stf.pcap import write_pcap
from p4odp.switchbench.counters import parse_counters

REPO = Path(__file__).resolve().parents[1]
PROGRAM = REPO / "bench" / "soak.p4"
FLOWS = 64
TABLES = ("by_mac", "by_ip")
FORWARDED, TORN, MISSED, LOST = 1, 2, 3, 4  # the program's output ports
OUTPUTS = (FORWARDED, TORN, MISSED, LOST)
# Versions are 128..255, above every flow number: a version byte read as the owner (the other
# action's parameter order) never passes for the flow's.
FIRST_VERSION, VERSIONS = 128, 128
FILLERS = 1300  # by_mac's entries besides the flows': with them, 76% of its cuckoo slots are taken
ENTRIES_PER_WINDOW = 128  # flows' entries changed per round trip of the channel (each once at most)
FILLERS_PER_WINDOW = 16  # fillers replaced per round trip
_HANDLE = re.compile(r"Entry has been added with handle (\d+)")


def frames() -> list[bytes]:
    """4 frames of each flow k (to 02:00:00:00:00:k and 10.0.k.1); their source addresses spread
    the flows over the replaying device's input queues (its flow hash)."""
    out = []
    for n in range(4 * FLOWS):
        flow = n % FLOWS
        ethernet = bytes([2, 0, 0, 0, 0, flow, 2, 0, 0, 0, 1, n & 255]) + b"\x08\x00"
        ipv4 = bytes([0x45, 0, 0, 46]) + bytes(8) + bytes([192, 168, 0, n // FLOWS, 10, 0, flow, 1])
        out.append(ethernet + ipv4 + bytes(26))
    return out


def entry_key(table: str, flow: int) -> str:
    if table == "by_mac":
        return f"02:00:00:00:00:{flow:02x}"
    return f"10.0.{flow}.1/32" if flow % 4 < 2 else f"10.0.{flow}.0/24"


@functools.cache  # the client's time is the churn's too
def action_data(action: str, version: int, flow: int) -> str:
    """Version `version` of flow `flow`'s parameters, in `action`'s order: the version in every
    byte of a, b and c, the flow in owner."""
    a, b, c = (f"0x{version:02x}" + f"{version:02x}" * (size - 1) for size in (6, 4, 8))
    return f"{a} {b} {c} {flow}" if action == "version_a" else f"{c} {flow} {b} {a}"


class Churn:
    """The entries of every flow in both tables, changed in turn: each change makes the next
    version (128 to 255, then 128 again), by table_modify (alternating the actions), but every fourth
    change of an even flow's entry by table_delete and table_add.  Between them by_mac's fillers
    are replaced, the oldest first, by others at new random addresses: adds into a table 76% full,
    which move entries between their buckets, the flows' too."""

    def __init__(self) -> None:
        self.entries = [(table, flow) for flow in range(FLOWS) for table in TABLES]
        self.changes = dict.fromkeys(self.entries, 0)
        self.next = 0  # the entry changed next
        self.random = random.Random(1)
        # Random addresses: consecutive ones would spread over the buckets too evenly to fill any.
        self.fillers = collections.deque(self.random.sample(range(1 << 32), FILLERS))  # the oldest first
        self.in_use = set(self.fillers)
        # The handle of each flow's entry, (table, flow), and of each filler, its address.
        self.handles: dict[tuple[str, int] | int, int] = {}

    def initial_commands(self) -> str:
        """The first version of every entry, then by_mac's fillers and by_ip's /8, as a commands
        file: in place before the first frame.  The flows' entries come first in each table, in
        flow order, then the fillers in theirs, so their handles are 0, 1, 2, ..."""
        self.handles = {(table, flow): flow for table, flow in self.entries}
        self.handles.update((address, FLOWS + n) for n, address in enumerate(self.fillers))
        first = (self._add(entry, FIRST_VERSION, "version_a") for entry in self.entries)
        return "".join(line + "\n" for line in (*first,
                                                *(_filler(address) for address in self.fillers),
                                                "table_add by_ip missed 10.0.0.0/8 =>"))

    def window(self) -> list[tuple[str, tuple[str, int] | int | None]]:
        """The lines of the next ENTRIES_PER_WINDOW changes and FILLERS_PER_WINDOW replacements,
        each with the entry whose handle its answer gives (a table_add's), else None."""
        lines = []
        for _ in range(ENTRIES_PER_WINDOW):
            entry = self.entries[self.next]
            self.next = (self.next + 1) % len(self.entries)
            n = self.changes[entry] = self.changes[entry] + 1
            version, action = FIRST_VERSION + n % VERSIONS, ("version_a", "version_b")[n % 2]
            table, flow = entry
            if flow % 2 == 0 and n % 4 == 3:
                lines.append((f"table_delete {table} {self.handles.pop(entry)}", None))
                lines.append((self._add(entry, version, action), entry))
            else:
                lines.append((f"table_modify {table} {action} {self.handles[entry]} => "
                              f"{action_data(action, version, flow)}", None))
        for _ in range(FILLERS_PER_WINDOW):
            old = self.fillers.popleft()
            self.in_use.remove(old)
            while (new := self.random.getrandbits(32)) in self.in_use:
                pass
            self.fillers.append(new)
            self.in_use.add(new)
            lines.append((f"table_delete by_mac {self.handles.pop(old)}", None))
            lines.append((_filler(new), new))
        return lines

    def _add(self, entry: tuple[str, int], version: int, action: str) -> str:
        table, flow = entry
        return f"table_add {table} {action} {entry_key(table, flow)} => {action_data(action, version, flow)}"

    def answered(self, entry: tuple[str, int] | int | None, text: str) -> None:
        if entry is not None:
            self.handles[entry] = int(_HANDLE.search(text).group(1))


def _filler(address: int) -> str:
    mac = ":".join(f"{byte:02x}" for byte in (2, 1, *address.to_bytes(4, "big")))
    return f"table_add by_mac version_a {mac} => {action_data('version_a', FIRST_VERSION, 0)}"


@dataclass
class Result:
    """What a soak saw: the control plane's side, then the switch's."""

    seconds: float = 0.0  # of the measured churn
    updates: int = 0  # answered ok, in the measured seconds
    per_second: list[int] = field(default_factory=list)  # updates in each whole second of them
    slowest: float = 0.0  # seconds, the longest a window of lines waited for its answers
    refused: list[str] = field(default_factory=list)  # the lines refused, with why
    received: int = 0
    ports: dict[int, int] = field(default_factory=dict)  # output port -> packets sent
    dropped: int = 0
    rss_start_kib: int = 0  # after the warm-up
    rss_end_kib: int = 0
    stopped: str = ""  # how the switch stopped, when it did before SIGTERM
    exit_status: int | None = None  # at SIGTERM

    @property
    def rate(self) -> float:
        return self.updates / self.seconds if self.seconds else 0.0

    @property
    def torn(self) -> int:
        return self.ports.get(TORN, 0)

    @property
    def missed(self) -> int:
        return self.ports.get(MISSED, 0)

    @property
    def lost(self) -> int:
        return self.ports.get(LOST, 0)

    def failures(self, rate: float, max_rss_growth_kib: int) -> list[str]:
        out = []
        if self.stopped:
            out.append(f"the switch stopped: {self.stopped}")
        elif self.exit_status != 0:
            out.append(f"the switch exited with status {self.exit_status} at SIGTERM")
        if self.torn:
            out.append(f"{self.torn} packets forwarded by a torn or misplaced entry")
        if self.lost:
            out.append(f"{self.lost} packets missed an entry that was never deleted")
        if self.refused:
            out.append(f"{len(self.refused)} commands refused, the first: {self.refused[0]}")
        if self.received != sum(self.ports.values()) + self.dropped:
            out.append(f"{self.received} packets received, {sum(self.ports.values())} sent and {self.dropped} dropped")
        if not self.ports.get(FORWARDED):
            out.append("no packet forwarded")
        if self.rss_start_kib and self.rss_end_kib - self.rss_start_kib > max_rss_growth_kib:  # measured
            out.append(f"resident memory grew by {self.rss_end_kib - self.rss_start_kib} KiB")
        if self.rate < rate * 0.99:  # the pacing's own slack
            out.append(f"{self.rate:,.0f} updates a second, below {rate:,.0f}")
        return out


def build(folder: Path, target: str = "x86") -> Path:
    """The switch of soak.p4, built in `folder`."""
    subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(PROGRAM), "--target", target,
                    "-o", str(folder / "out")], check=True)
    return folder / "out" / "switch"


def resident_kib(pid: int) -> int:
    """The process's resident memory (0 once it has stopped)."""
    resident = re.search(r"^VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(resident.group(1)) if resident else 0


def soak(switch: Path, folder: Path, seconds: float, workers: int = 2, rate: float = 0, warmup: float = 2) -> Result:
    """Run `switch` (soak.p4's) in `folder` under churn for `warmup` then `seconds` seconds."""
    write_pcap(str(folder / "in.pcap"), frames())
    churn = Churn()
    (folder / "commands.txt").write_text(churn.initial_commands())
    control = folder / "control.sock"
    result = Result()
    with open(folder / "switch.log", "w+") as log:
        process = subprocess.Popen([str(switch), "-w", str(workers), "--control", f"unix:{control}",
                                    "--commands", str(folder / "commands.txt"),
                                    "-i", f"0=pcap:in={folder / 'in.pcap'}:loops=0:cache",
                                    *(arg for port in OUTPUTS for arg in ("-i", f"{port}=null{port}"))],
                                   stdout=subprocess.DEVNULL, stderr=log)
        try:
            channel = _connect(f"unix:{control}", process, Path(log.name))
            try:
                _churn(channel, churn, process, result, seconds, rate, warmup)
            except ChannelError as err:
                result.stopped = str(err)
            finally:
                channel.close()
            if result.stopped:  # the channel failed: the switch is gone, or going
                try:
                    result.stopped += f" (exit status {process.wait(timeout=10)})"
                except subprocess.TimeoutExpired:
                    result.stopped += " (still running: killed)"
            elif process.poll() is None:
                process.send_signal(signal.SIGTERM)
                result.exit_status = process.wait(timeout=30)
            else:
                result.stopped = f"exit status {process.returncode}"
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        log.seek(0)
        report = log.read()
    if result.stopped:
        result.stopped += f"; its last words: {report[-2000:]}"
    result.received, result.ports, result.dropped = final_counters(report)
    return result


def final_counters(report: str) -> tuple[int, dict[int, int], int]:
    """From what the switch printed when it stopped: the packets received on port 0, those sent
    out of each output port, and those dropped (0 and {} when it printed no counters)."""
    blocks = parse_counters(report).blocks
    if not blocks or blocks[-1].time is not None:
        return 0, {}, 0
    ports = blocks[-1].ports
    return (ports[0].rx if 0 in ports else 0, {port: ports[port].tx for port in OUTPUTS if port in ports},
            sum(blocks[-1].drops.values()))


def _connect(address: str, process: subprocess.Popen, log: Path) -> SwitchChannel:
    deadline = time.monotonic() + 30
    while True:
        try:
            return SwitchChannel(address)
        except ChannelError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the switch did not open its control channel: {log.read_text()[-2000:]}")
            time.sleep(0.05)


def _churn(channel: SwitchChannel, churn: Churn, process: subprocess.Popen, result: Result, seconds: float,
           rate: float, warmup: float) -> None:
    started = time.monotonic()
    measured_from = started + warmup
    ends = measured_from + seconds
    sent = 0  # updates since `started`, for the pacing
    per_second = [0] * int(seconds)
    measuring = False
    while (now := time.monotonic()) < ends:
        if not measuring and now >= measured_from:
            measuring, measured_from = True, now
            ends = now + seconds
            result.rss_start_kib = resident_kib(process.pid)
        if rate and sent > (now - started) * rate:
            time.sleep(min(sent / rate - (now - started), ends - now))
            continue
        done = _run(channel, churn, churn.window(), result)
        if result.refused:  # an entry's handle may be unknown from here on
            break
        result.slowest = max(result.slowest, time.monotonic() - now)
        sent += done
        if measuring:
            result.updates += done
            second = int(time.monotonic() - measured_from)
            if second < len(per_second):
                per_second[second] += done
    result.seconds = time.monotonic() - measured_from
    result.per_second = per_second
    result.rss_end_kib = resident_kib(process.pid)


def _run(channel: SwitchChannel, churn: Churn, lines: list, result: Result) -> int:
    """Send the lines, take their answers; how many were answered ok."""
    answers = channel.commands([line for line, _ in lines])
    for (line, entry), (ok, text) in zip(lines, answers):
        if ok:
            churn.answered(entry, text)
        else:
            result.refused.append(f"{line}: {text.strip()}")
    return sum(ok for ok, _ in answers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="of churn measured, after the warm-up (default 60)")
    parser.add_argument("--workers", type=int, default=2, help="the switch's workers (default 2)")
    parser.add_argument("--rate", type=float, default=10000,
                        help="table updates a second to keep up (default 10000; 0: as fast as the switch answers)")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of churn before measuring (default 2)")
    parser.add_argument("--max-rss-growth", type=float, default=4, metavar="MIB",
                        help="resident memory the switch may gain from the warm-up's end to the end (default 4 MiB)")
    parser.add_argument("--target", default="x86")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="build and run in DIR and keep it (switch.log)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        result = soak(build(folder, args.target), folder, args.seconds, args.workers, args.rate, args.warmup)
    print(report(result, args))
    failures = result.failures(args.rate, int(args.max_rss_growth * 1024))
    for failure in failures:
        print(f"FAIL: {failure}")
    sys.exit(1 if failures else 0)


def report(result: Result, args: argparse.Namespace) -> str:
    target = f"{args.rate:,.0f} a second" if args.rate else "as fast as the switch answers"
    spread = (f"; per second min {min(result.per_second):,}, median {statistics.median(result.per_second):,.0f}, "
              f"max {max(result.per_second):,}") if result.per_second else ""
    ports = result.ports
    growth = result.rss_end_kib - result.rss_start_kib
    return "\n".join([
        f"soak: {args.workers} workers, {len(TABLES) * FLOWS} entries ({FLOWS} flows x {len(TABLES)} tables) and "
        f"{FILLERS:,} fillers changed for {result.seconds:.1f} s after {args.warmup:g} s of warm-up, target {target}",
        f"  updates   {result.updates:,} ({result.rate:,.0f} a second{spread}), {len(result.refused)} refused, "
        f"longest round trip {result.slowest * 1000:,.0f} ms",
        f"  packets   {result.received:,} received: {ports.get(FORWARDED, 0):,} forwarded (port 1), "
        f"torn {result.torn:,} (port 2), missed {result.missed:,} (port 3), lost {result.lost:,} (port 4), "
        f"dropped {result.dropped:,}",
        f"  memory    resident {result.rss_start_kib / 1024:.1f} MiB after the warm-up, "
        f"{result.rss_end_kib / 1024:.1f} MiB at the end: {growth / 1024:+.2f} MiB (bound {args.max_rss_growth:g} MiB)",
        f"  switch    {'stopped: ' + result.stopped if result.stopped else f'exit status {result.exit_status} at SIGTERM'}",
    ])


if __name__ == "__main__":
    main()
