#!/usr/bin/env python3
"""Instructions per packet of the examples' switches, counted by valgrind's callgrind.

    python3 bench/pipeline_instructions.py [--packets N] [EXAMPLE...]

For each example (default: l2fwd and l3fwd) it compiles the program for the
x86 target, replays N copies of the frames its make_pcap.py writes through
pcap ports under callgrind, and prints the instructions executed per packet
received by the traffic manager's burst function (`p4odp_tm_burst`: parser,
pipeline, replication, building the packets sent, the frees), inclusive, but
for the transmission by the pcap device (`odp_pktout_send`), which is not the
switch's work.  Callgrind counts
instructions, not time, so the figure is the same on every run of one build:
it is tracked across commits, where a timing would need hardware counters
these machines do not have.  Needs valgrind (callgrind_annotate too).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

from p4odp.backend.build import valgrind_build_env
from p4odp.stf.pcap import read_packets, write_pcap

REPO = Path(__file__).resolve().parents[1]
FUNCTION = "p4odp_tm_burst"
DEVICE = "odp_pktout_send"  # called by FUNCTION: the packet-I/O device's transmission


def instructions_per_packet(example: str, packets: int, work: Path, commands: Optional[Path] = None,
                            frames: Optional[list[bytes]] = None) -> float:
    """Instructions per packet of `example` (in examples/) replaying `packets` packets, cycling
    through `frames` (default: those its make_pcap.py writes), with the entries of `commands`
    (default: its commands.txt)."""
    source = REPO / "examples" / example / f"{example}.p4"
    out = work / example
    subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(source), "--target", "x86", "-o", str(out)],
                   check=True, capture_output=True, env=valgrind_build_env())
    if frames is None:
        sample = work / f"{example}-sample.pcap"
        subprocess.run([sys.executable, str(REPO / "examples" / example / "make_pcap.py"), str(sample)], check=True)
        frames = read_packets(str(sample))
    traffic = work / f"{example}-in.pcap"
    write_pcap(str(traffic), [frames[i % len(frames)] for i in range(packets)])
    empty = work / "empty.pcap"
    write_pcap(str(empty), [])
    ports = ["-i", f"0=pcap:in={traffic}:out={work / 'out0.pcap'}"]
    for port in (1, 2, 3):
        ports += ["-i", f"{port}=pcap:in={empty}:out={work / f'out{port}.pcap'}"]
    profile = work / f"{example}.callgrind"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}",
                    str(out / "switch"), "--exit-when-done", "--commands",
                    str(commands or REPO / "examples" / example / "commands.txt"), *ports],
                   check=True, capture_output=True)
    return (_calls_cost(profile, FUNCTION, example) - _calls_cost(profile, DEVICE, example)) / packets


def _calls_cost(profile: Path, function: str, example: str) -> int:
    """The instructions of every call of `function`, callees included, summed over its call sites
    (`=> FILE:function (Nx)` in the annotated callers).  Not its own inclusive line: code inlined
    into it from other files (the program, the lookups, p4odp_bits.h) splits that line by file."""
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--auto=yes", str(profile)], check=True,
                               capture_output=True, text=True).stdout
    calls = [int(m.group(1).replace(",", "")) for m in re.finditer(rf"^\s*([\d,]+) .*=> \S*:{function} \(", annotated,
                                                                re.M)]
    if function == FUNCTION and not calls:
        raise SystemExit(f"{example}: {FUNCTION} is not in the profile")
    return sum(calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", default=["l2fwd", "l3fwd"])
    parser.add_argument("--packets", type=int, default=20000, help="packets replayed (default 20000)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        raise SystemExit("needs valgrind and callgrind_annotate (Debian: apt install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'example':10} instructions/packet in {FUNCTION} but {DEVICE} ({args.packets} packets, x86 target)")
        for example in args.examples:
            print(f"{example:10} {instructions_per_packet(example, args.packets, Path(tmp)):.0f}", flush=True)


if __name__ == "__main__":
    main()
