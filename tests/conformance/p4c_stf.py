#!/usr/bin/env python3
"""Measure `p4odp stf` against p4c's STF tests of one architecture (v1model by default).

    python3 tests/conformance/p4c_stf.py DIR [--architecture A] [--target T] [--jobs N] [--list-failures]
                                             [--timeout S]

Runs `p4odp stf PROG.p4 PROG.stf` for every program of DIR (p4c's
`testdata/p4_16_samples`) that has a sibling `.stf`, includes one of the
architecture's files (v1model.p4; psa.p4, bmv2/psa.p4, ...) and otherwise
only core.p4 or local files.  `--architecture p4-14` takes every program of DIR
with a sibling `.stf` (p4c's `testdata/p4_14_samples`) as P4_14.  Outcomes: pass, fail (the
packets differ, or the switch failed), unsupported (the C generator said
what it cannot translate yet) and crash (exit 2, a traceback, a timeout).
A measuring tool: it exits 0 whatever the numbers; it contains no p4c file.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from p4c_corpus import include_problem  # noqa: E402  (the same include rule as the front-end harness)

def includes_architecture(path: str, architecture: str) -> bool:
    """Whether the program at `path` includes one of the files of p4odp's `architecture` (v1model,
    psa, pna) by a name programs include it by (`bmv2/psa.p4`, ...)."""
    from p4odp.transpiler.architectures import load_architectures

    names = next(arch.include_files for arch in load_architectures().values() if arch.name == architecture)
    pattern = re.compile(r'^\s*#\s*include\s*[<"](' + "|".join(map(re.escape, names)) + r')[>"]', re.MULTILINE)
    with open(path, encoding="utf-8", errors="replace") as source:
        return pattern.search(source.read()) is not None


P4_14 = "p4-14"  # the `--architecture` of P4_14 programs, which p4odp converts to v1model


def eligible(directory: str, architecture: str) -> list[str]:
    programs = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.endswith(".p4") or not os.path.isfile(path):
            continue
        if not os.path.isfile(path[:-3] + ".stf") or include_problem(path) is not None:
            continue
        if architecture == P4_14 or includes_architecture(path, architecture):
            programs.append(path)
    return programs


def run_one(path: str, target: str, timeout: float, workers: int, architecture: str) -> tuple[str, str, str]:
    command = [sys.executable, "-P", "-m", "p4odp.cli", "stf", path, path[:-3] + ".stf", "--target", target,
               "--workers", str(workers), *(["--std", P4_14] if architecture == P4_14 else [])]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return path, "crash", f"timeout after {timeout:.0f} s"
    output = result.stdout + result.stderr
    if result.returncode == 0:
        return path, "pass", ""
    if result.returncode == 2 or "Traceback" in output:
        return path, "crash", output.strip().splitlines()[-1] if output.strip() else f"exit {result.returncode}"
    unsupported = re.search(r"not supported by the C generator yet: (.*)", output)
    if unsupported:
        return path, "unsupported", unsupported.group(1)
    lines = [line for line in output.splitlines() if line.strip()]
    return path, "fail", lines[0] if lines else f"exit {result.returncode}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--list-failures", action="store_true")
    parser.add_argument("--target", default="x86", help="the target to build and run for (default x86)")
    parser.add_argument("--workers", type=int, default=1, help="the switch's workers (default 1)")
    parser.add_argument("--architecture", default="v1model", help="the programs of this architecture (v1model, "
                                                                    "psa, pna, or p4-14 for P4_14 programs; "
                                                                    "default v1model)")
    args = parser.parse_args(argv)
    programs = eligible(args.directory, args.architecture)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda p: run_one(p, args.target, args.timeout, args.workers, args.architecture),
                                programs))
    counts = collections.Counter(outcome for _, outcome, _ in results)
    if args.list_failures:
        for path, outcome, detail in results:
            if outcome != "pass":
                print(f"{outcome.upper()} {os.path.basename(path)}: {detail}")
        reasons = collections.Counter(detail for _, outcome, detail in results if outcome == "unsupported")
        for reason, n in reasons.most_common(25):
            print(f"  {n:4} unsupported: {reason}")
    total = len(results)
    print(f"{args.directory}: {total} {args.architecture} programs with an STF test, target {args.target}, "
          f"{args.workers} worker(s)")
    print(f"passed: {counts['pass']} of {total} ({100.0 * counts['pass'] / max(total, 1):.1f}%)")
    print(f"failed: {counts['fail']}, unsupported: {counts['unsupported']}, crashes: {counts['crash']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
