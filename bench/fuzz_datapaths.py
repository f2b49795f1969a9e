#!/usr/bin/env python3
"""`p4odp fuzz` over p4odp's own programs: every example and every program of tests/packets.

    python3 bench/fuzz_datapaths.py [--seconds S] [--jobs N] [--only NAME]... [--examples]
                                   [--asserts] [--out DIR] [--resume]

Each program's datapath runs under libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer
for --seconds (default 600) with its tables filled: an example by its commands.txt, a program
of tests/packets by the table entries of its STF test (its `add`, `setdefault`, `remove all`
and CLI lines, translated as `p4odp stf` translates them).  The frames of its STF test seed the
corpus (each on its port), so that the fuzzer starts from packets that go deep.  Prints a table
(program, seconds, inputs, inputs/s, coverage, crashes), then each crash's report with its
reproducer, and exits 1 if there was a crash (2 if a program could not be fuzzed).
Everything lands in --out (default build/datapath-fuzz), a folder per program, with the
program's row in result.json once it is done; --resume takes the rows of the programs already
fuzzed clean for --seconds there instead of fuzzing them again (a long run in parts).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.stf import parser as stf
from p4odp.stf.runner import switch_commands
from p4odp.transpiler import transpile

REPO = Path(__file__).resolve().parents[1]
# The ports a program is fuzzed on: at least these, more when its STF test uses more.
MIN_PORTS = 4


@dataclass
class Program:
    name: str
    path: Path
    commands: Optional[Path]  # an example's own; None: made from the STF test
    stf: Optional[Path]


@dataclass
class Row:
    name: str
    seconds: float = 0.0
    execs: int = 0
    execs_per_s: int = 0
    coverage: int = 0
    crashed: bool = False
    error: str = ""
    report: str = ""
    asserts: bool = False
    sources: str = ""  # what was fuzzed: fingerprint()


def programs(examples_only: bool) -> list[Program]:
    found = []
    for path in sorted(REPO.glob("examples/*/*.p4")):
        commands = path.parent / "commands.txt"
        stf_file = path.with_suffix(".stf")
        found.append(Program(path.stem, path, commands if commands.exists() else None,
                             stf_file if stf_file.exists() else None))
    if not examples_only:
        for path in sorted(REPO.glob("tests/packets/*.p4")):
            stf_file = path.with_suffix(".stf")
            found.append(Program(path.stem, path, None, stf_file if stf_file.exists() else None))
    return found


def prepare(program: Program, folder: Path) -> tuple[Optional[Path], int, str]:
    """The commands file of `program` (made from its STF test when it has none), the ports to
    fuzz it on, and an error (""); its STF test's frames written to folder/corpus as seeds."""
    folder.mkdir(parents=True, exist_ok=True)
    if program.stf is None:
        return program.commands, MIN_PORTS, ""
    diags = Diagnostics()
    statements = stf.parse_stf_file(str(program.stf), diags)
    packets = [s for s in statements if isinstance(s, stf.Packet)]
    ports = max([MIN_PORTS] + [p.port + 1 for p in packets if p.port < 64])
    corpus = folder / "corpus"
    corpus.mkdir(exist_ok=True)
    for packet in packets:
        if packet.port < ports and packet.data:
            seed = bytes([packet.port]) + packet.data
            (corpus / f"stf-{hashlib.sha1(seed).hexdigest()}").write_bytes(seed)
    if program.commands is not None:
        return program.commands, ports, ""
    entries = [s for s in statements if isinstance(s, (stf.Add, stf.SetDefault, stf.RemoveAll, stf.CliCommand))]
    if not entries:
        return None, ports, ""
    loaded = load_program(str(program.path), FrontendOptions(), diags)
    model = transpile(loaded, str(program.path), diags) if loaded is not None else None
    script = switch_commands(entries, model, diags) if model is not None else None
    if script is None:
        return None, ports, "; ".join(d.message for d in diags.items)[:200] or "its STF test does not translate"
    commands = folder / "commands.txt"
    commands.write_text("".join(line + "\n" for line in script[0]))
    return commands, ports, ""


def fingerprint(program: Program) -> str:
    """A hash of the files a program's run is made of: the program, its commands, its STF test."""
    digest = hashlib.sha1()
    for path in (program.path, program.commands, program.stf):
        digest.update(path.read_bytes() if path is not None else b"-")
    return digest.hexdigest()


_SUMMARY = re.compile(r"(\d+) inputs in ([\d.]+) s \((\d+)/s\), coverage (\d+) edges")


def fuzz(program: Program, out: Path, seconds: float, asserts: bool) -> Row:
    row = Row(program.name, asserts=asserts, sources=fingerprint(program))
    folder = out / program.name
    (folder / "result.json").unlink(missing_ok=True)
    commands, ports, error = prepare(program, folder)
    if error:
        row.error = error
        return row
    argv = [sys.executable, "-m", "p4odp.cli", "fuzz", str(program.path), "--seconds", str(seconds), "-o",
            str(folder), "--ports", str(ports), *(["--commands", str(commands)] if commands else []),
            *(["--asserts"] if asserts else [])]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 600)
    found = _SUMMARY.search(run.stdout)
    if run.returncode == 2 or found is None:
        row.error = (run.stderr.strip() or run.stdout.strip()).splitlines()[0][:200] if run.stderr or run.stdout \
            else f"exit {run.returncode}"
        return row
    row.execs, row.seconds, row.execs_per_s, row.coverage = int(found[1]), float(found[2]), int(found[3]), \
        int(found[4])
    row.crashed = run.returncode == 1
    row.report = run.stdout if row.crashed else ""
    (folder / "result.json").write_text(json.dumps(dataclasses.asdict(row)))
    return row


def earlier(program: Program, out: Path, seconds: float, asserts: bool) -> Optional[Row]:
    """The row of an earlier clean run in `out` of `program` as it is now, of at least
    `seconds`, with `asserts` as asked, if any."""
    saved = out / program.name / "result.json"
    if not saved.exists():
        return None
    row = Row(**json.loads(saved.read_text()))
    same = row.asserts == asserts and row.sources == fingerprint(program)
    return row if same and not row.crashed and not row.error and row.seconds >= seconds else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600, help="fuzzing time per program (default 600)")
    parser.add_argument("--jobs", type=int, default=1, help="programs fuzzed at once (default 1)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="only the programs whose name contains NAME (repeatable)")
    parser.add_argument("--examples", action="store_true", help="only the examples")
    parser.add_argument("--asserts", action="store_true", help="a false assert() or assume() is a crash")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "datapath-fuzz", metavar="DIR",
                        help="a folder per program (default build/datapath-fuzz)")
    parser.add_argument("--resume", action="store_true",
                        help="take the rows of the programs fuzzed clean for --seconds in DIR already")
    args = parser.parse_args()
    chosen = [p for p in programs(args.examples) if not args.only or any(n in p.name for n in args.only)]
    if not chosen:
        print("fuzz_datapaths: no program matches", file=sys.stderr)
        return 2

    def one(program: Program) -> Row:
        row = earlier(program, args.out, args.seconds, args.asserts) if args.resume else None
        again = row is not None
        row = row or fuzz(program, args.out, args.seconds, args.asserts)
        # The figures too: a run of many programs may be interrupted before the table.
        figures = f"{row.execs:,} inputs in {row.seconds:.0f} s ({row.execs_per_s:,}/s), coverage {row.coverage} edges"
        state = f"error: {row.error}" if row.error else \
            f"{'CRASH' if row.crashed else 'clean'}{' (an earlier run)' if again else ''}, {figures}"
        print(f"fuzz_datapaths: {row.name}: {state}", file=sys.stderr, flush=True)
        return row

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(one, chosen))
    print(f"{'program':32} {'seconds':>7} {'inputs':>11} {'inputs/s':>9} {'coverage':>8}  crashes")
    for row in rows:
        crashes = f"error: {row.error}" if row.error else "1" if row.crashed else "0"
        print(f"{row.name:32} {row.seconds:7.0f} {row.execs:11,} {row.execs_per_s:9,} {row.coverage:8}  {crashes}")
    for row in rows:
        if row.crashed:
            print(f"\n{row.name}:\n{row.report.rstrip()}")
    return 1 if any(row.crashed for row in rows) else 2 if any(row.error for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
