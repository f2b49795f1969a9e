#!/usr/bin/env python3
"""Measure p4odp's P4Info against the P4Info p4c emits for its samples of one architecture.

    python3 tests/conformance/p4c_p4info.py SAMPLES [--architecture A] [--outputs DIR] [--jobs N]
                                            [--list-failures]

For every program of SAMPLES (p4c's `testdata/p4_16_samples`) that includes
one of the architecture's files (v1model.p4 by default) and has p4c's `PROG.p4.p4info.txtpb` in OUTPUTS (default: the
sibling `p4_16_samples_outputs`), runs `p4odp compile PROG --emit p4info
--p4runtime-files OUT.txtpb` and compares the two entity by entity: each
table, action, profile, counter, meter, register, digest, value set and
controller header by name, and pkg_info and type_info whole.  Docs and the
order of repeated fields are left out.  A program counts as identical when
every entity is.  A measuring tool: it exits 0 whatever the numbers; it
contains no p4c file.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

from google.protobuf import json_format, text_format

from p4odp.controlplane.protos import p4info_pb2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from p4c_corpus import include_problem  # noqa: E402  (the same include rule as the front-end harness)
from p4c_stf import includes_architecture  # noqa: E402

# The P4Info fields that list named entities, each compared by preamble name.
ENTITY_FIELDS = ("tables", "actions", "action_profiles", "counters", "direct_counters", "meters",
                 "direct_meters", "controller_packet_metadata", "value_sets", "registers", "digests")


def eligible(directory: str, outputs: str, architecture: str) -> list[tuple[str, str]]:
    programs = []
    for name in sorted(os.listdir(directory)):
        path, golden = os.path.join(directory, name), os.path.join(outputs, name + ".p4info.txtpb")
        if not name.endswith(".p4") or not os.path.isfile(golden) or include_problem(path) is not None:
            continue
        if includes_architecture(path, architecture):
            programs.append((path, golden))
    return programs


def _canonical(value):
    """`value` (a message as a dict) without docs, its lists in a fixed order."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items() if k != "doc"}
    if isinstance(value, list):
        return sorted((_canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def entities(info: p4info_pb2.P4Info) -> dict[tuple[str, str], object]:
    """Each entity of `info` in canonical form, by (field, name); pkg_info and type_info whole."""
    found = {}
    for field in ENTITY_FIELDS:
        for entity in getattr(info, field):
            found[(field, entity.preamble.name)] = _canonical(json_format.MessageToDict(entity))
    for field in ("pkg_info", "type_info"):
        found[(field, "")] = _canonical(json_format.MessageToDict(getattr(info, field)))
    return found


def compare(ours: p4info_pb2.P4Info, theirs: p4info_pb2.P4Info) -> list[str]:
    """What differs, one line per entity (empty when the two are identical but for docs and order)."""
    a, b = entities(ours), entities(theirs)
    differences = []
    for key in sorted(set(a) | set(b)):
        field, name = key
        if key not in a:
            differences.append(f"{field} {name}: missing")
        elif key not in b:
            differences.append(f"{field} {name}: not in p4c's")
        elif a[key] != b[key]:
            differences.append(f"{field} {name}: ours {json.dumps(a[key], sort_keys=True)} "
                               f"p4c's {json.dumps(b[key], sort_keys=True)}")
    return differences


def run_one(path: str, golden: str, timeout: float) -> tuple[str, str, list[str], int, int]:
    """(path, outcome, differences, entities matched, entities in p4c's) for one program."""
    theirs = text_format.Parse(open(golden, encoding="utf-8").read(), p4info_pb2.P4Info())
    total = len(entities(theirs))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "p4info.txtpb")
        command = [sys.executable, "-P", "-m", "p4odp.cli", "compile", path, "--emit", "p4info",
                   "--p4runtime-files", out, "-o", tmp]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return path, "crash", [f"timeout after {timeout:.0f} s"], 0, total
        output = (result.stdout + result.stderr).strip()
        if result.returncode == 2 or "Traceback" in output:
            return path, "crash", [output.splitlines()[-1] if output else f"exit {result.returncode}"], 0, total
        if result.returncode != 0 or not os.path.isfile(out):
            return path, "refused", [output.splitlines()[0] if output else f"exit {result.returncode}"], 0, total
        ours = text_format.Parse(open(out, encoding="utf-8").read(), p4info_pb2.P4Info())
    differences = compare(ours, theirs)
    matched = total - sum(1 for d in differences if not d.split(": ", 1)[1].startswith("not in p4c"))
    return path, "identical" if not differences else "different", differences, matched, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--outputs", help="p4c's expected outputs (default: DIR/../p4_16_samples_outputs)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--list-failures", action="store_true")
    parser.add_argument("--architecture", default="v1model", help="the programs of this architecture (v1model, "
                                                                    "psa, pna; default v1model)")
    args = parser.parse_args(argv)
    outputs = args.outputs or os.path.join(os.path.dirname(os.path.abspath(args.directory)), "p4_16_samples_outputs")
    programs = eligible(args.directory, outputs, args.architecture)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda p: run_one(*p, args.timeout), programs))
    counts = collections.Counter(outcome for _, outcome, _, _, _ in results)
    if args.list_failures:
        kinds = collections.Counter()
        for path, outcome, differences, _, _ in results:
            for line in differences if outcome != "identical" else ():
                print(f"{outcome.upper()} {os.path.basename(path)}: {line[:400]}")
                kinds[line.split(" ", 1)[0] if outcome == "different" else outcome] += 1
        for kind, n in kinds.most_common():
            print(f"  {n:5} differences in {kind}")
    total = len(results)
    matched, entity_total = sum(r[3] for r in results), sum(r[4] for r in results)
    print(f"{args.directory}: {total} {args.architecture} programs with p4c's P4Info")
    print(f"identical: {counts['identical']} of {total} ({100.0 * counts['identical'] / max(total, 1):.1f}%)")
    print(f"entities identical: {matched} of {entity_total} ({100.0 * matched / max(entity_total, 1):.1f}%)")
    print(f"different: {counts['different']}, refused: {counts['refused']}, crashes: {counts['crash']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
