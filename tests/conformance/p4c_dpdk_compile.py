#!/usr/bin/env python3
"""Measure how many of the programs p4c-dpdk compiles become switches with `p4odp compile`.

    python3 tests/conformance/p4c_dpdk_compile.py SAMPLES [--outputs DIR] [--target T] [--jobs N]
                                                  [--list-failures] [--timeout S]

The programs are those of SAMPLES (p4c's `testdata/p4_16_samples`) with p4c-dpdk's output
`PROG.p4.spec` in OUTPUTS (default: the sibling `p4_16_samples_outputs`): PSA and PNA programs.
Each is compiled and built for the target.  Outcomes: compiled; refused, when p4odp said why at a
position of the program (`file:line:col: error: ...`); failed, any other non-zero exit; crash
(exit 2, a traceback, a timeout).  A measuring tool: it exits 0 whatever the numbers; it contains
no p4c file.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

_POSITIONED = re.compile(r"^\S+:\d+:\d+: error: (.*)$", re.MULTILINE)


def eligible(directory: str, outputs: str) -> list[str]:
    return [os.path.join(directory, name) for name in sorted(os.listdir(directory))
            if name.endswith(".p4") and os.path.isfile(os.path.join(outputs, name + ".spec"))]


def run_one(path: str, target: str, timeout: float) -> tuple[str, str, str]:
    """(path, outcome, the first error) for one program."""
    with tempfile.TemporaryDirectory(prefix="p4odp-dpdk-") as out:
        command = [sys.executable, "-P", "-m", "p4odp.cli", "compile", path, "--target", target, "-o", out]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return path, "crash", f"timeout after {timeout:.0f} s"
    output = (result.stdout + result.stderr).strip()
    if result.returncode == 0:
        return path, "compiled", ""
    if result.returncode == 2 or "Traceback" in output:
        return path, "crash", output.splitlines()[-1] if output else f"exit {result.returncode}"
    positioned = _POSITIONED.search(output)
    if positioned and "the C compiler failed" not in positioned.group(1):
        return path, "refused", positioned.group(0)
    return path, "failed", output.splitlines()[0] if output else f"exit {result.returncode}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--outputs", help="p4c's expected outputs (default: DIR/../p4_16_samples_outputs)")
    parser.add_argument("--target", default="x86", help="the target to build for (default x86)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--list-failures", action="store_true")
    args = parser.parse_args(argv)
    outputs = args.outputs or os.path.join(os.path.dirname(os.path.abspath(args.directory)), "p4_16_samples_outputs")
    programs = eligible(args.directory, outputs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda path: run_one(path, args.target, args.timeout), programs))
    counts = collections.Counter(outcome for _, outcome, _ in results)
    if args.list_failures:
        for path, outcome, detail in results:
            if outcome != "compiled":
                print(f"{outcome.upper()} {os.path.basename(path)}: {detail[:300]}")
    total = len(results)
    print(f"{args.directory}: {total} programs p4c-dpdk compiles, target {args.target}")
    print(f"compiled: {counts['compiled']} of {total} ({100.0 * counts['compiled'] / max(total, 1):.1f}%)")
    print(f"refused with a position: {counts['refused']}, failed otherwise: {counts['failed']}, "
          f"crashes: {counts['crash']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
