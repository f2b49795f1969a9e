#!/usr/bin/env python3
"""What looking up a burst's keys before it runs is worth, on a routing table too big for the caches.

    python3 bench/burst_lookup.py [--rounds N] [--seconds S] [--target T] [--cpus LIST]

Runs `p4odp bench` on tests/packets/big_table.p4 (an lpm table declared 2^20 entries big) with
65,536 /16 routes that cover every IPv4 address, so that random destinations touch the whole
DIR-24-8 first level (64 MiB), 64-byte frames to random destinations; with the burst-lookup
pass and without it (`--skip-pass burst-lookup`), alternating, N rounds, and prints the two
rates (median of the rounds, with their range) and their ratio.  A benchmark, not a test: the
figures depend on the machine's caches and memory, and on what else it runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROGRAM = REPO / "tests" / "packets" / "big_table.p4"


def rate(extra: list[str], commands: Path, args: argparse.Namespace) -> float:
    command = [sys.executable, "-m", "p4odp.cli", "bench", str(PROGRAM), "--target", args.target,
               "--commands", str(commands), "--gen", "udp:flows=20000,dst-ip=0.0.0.0/0", "--sizes", "64",
               "--seconds", str(args.seconds), "--rounds", "3", "--cpus", args.cpus, "--json", "-", *extra]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"p4odp bench failed:\n{run.stderr.strip()}")
    return json.loads(run.stdout)["results"][0]["mpps"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per run (default 3)")
    parser.add_argument("--target", default="x86")
    parser.add_argument("--cpus", default="1", help="the worker's CPU (default 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        commands = Path(tmp) / "routes.txt"
        commands.write_text("table_set_default BtIngress.routes drop\n" + "".join(
            f"table_add BtIngress.routes to {n >> 8}.{n & 255}.0.0/16 => 1\n" for n in range(1 << 16)))
        rates: dict[str, list[float]] = {"burst": [], "per packet": []}
        for n in range(args.rounds):
            order = [("burst", []), ("per packet", ["--skip-pass", "burst-lookup"])]
            for name, extra in order if n % 2 == 0 else reversed(order):
                rates[name].append(rate(extra, commands, args))
                print(f"round {n + 1}/{args.rounds}: {name} {rates[name][-1]:.2f} Mpps", file=sys.stderr, flush=True)
    with_, without = (statistics.median(rates[k]) for k in ("burst", "per packet"))
    print(f"big_table.p4, 65,536 /16 routes, random destinations, 64 B, {args.target}, one worker:")
    for name, values in rates.items():
        print(f"  {name:12} {statistics.median(values):6.2f} Mpps ({min(values):.2f}-{max(values):.2f})")
    print(f"  ratio        {with_ / without:6.2f}x")


if __name__ == "__main__":
    main()
