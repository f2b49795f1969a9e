#!/usr/bin/env python3
"""Mutation fuzzing of the front end, and of the midend and C generator behind it, over p4odp's
own P4 programs.

    python3 bench/fuzz_frontend.py [--seconds S | --count N] [--seed N] [--timeout S] [--jobs N]
                                   [--out DIR] [PROGRAM...]

Each mutant is one of the programs (default: every .p4 file git tracks in the repository) changed
once: a token deleted, duplicated, swapped with the next, replaced by another token of the
program, the text cut short, random bytes inserted (control characters, NUL and bytes that are
not UTF-8 among them), or a line deleted.  It goes through what `p4odp compile --emit c` runs
(the front end, then, when accepted, the midend and the C generator) in a worker process, within
--timeout seconds.  A bug is a mutant that raises anything but a reported error (a traceback), a
rejection without a positioned error (FILE:LINE), or one that runs past the timeout (a hang); each
is saved under --out (default fuzz-out/) as KIND-N.p4 with the original's name in its first line,
and the run exits 1.  The mutants are drawn from --seed: a run is repeatable (but for hangs,
which depend on the machine).  A benchmark, not a test: tests/frontend/test_fuzz_frontend.py runs a short
one.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

REPO = Path(__file__).resolve().parents[1]

# The tokens a mutation works on, and the blanks and comments between them, which it leaves alone.
_TOKEN = re.compile(rb'\s+|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_\']*|\S',
                    re.DOTALL)
MUTATIONS = ("delete", "duplicate", "swap", "replace", "truncate", "bytes", "delete-line")


def repository_programs() -> list[Path]:
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "*.p4"], capture_output=True, text=True,
                            check=True).stdout.split()
    return [REPO / name for name in listed]


def mutate(text: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One mutation of `text`: its kind and the mutant."""
    spans = [(m.start(), m.end()) for m in _TOKEN.finditer(text) if not m.group().isspace()
             and not m.group().startswith((b"//", b"/*"))]
    kind = rng.choice(MUTATIONS)
    if not spans or kind == "truncate":
        return "truncate", text[:rng.randrange(len(text) + 1)]
    i = rng.randrange(len(spans))
    start, end = spans[i]
    if kind == "delete":
        return kind, text[:start] + text[end:]
    if kind == "duplicate":
        return kind, text[:end] + b" " + text[start:end] + text[end:]
    if kind == "swap" and i + 1 < len(spans):
        next_start, next_end = spans[i + 1]
        return kind, text[:start] + text[next_start:next_end] + text[end:next_start] + text[start:end] + text[next_end:]
    if kind == "replace":
        other_start, other_end = rng.choice(spans)
        return kind, text[:start] + text[other_start:other_end] + text[end:]
    if kind == "bytes":
        noise = bytes(rng.choice((0, 1, 7, 9, 10, 13, 27, 34, 39, 92, 127, 128, 195, 255, rng.randrange(256)))
                      for _ in range(rng.randint(1, 4)))
        return kind, text[:start] + noise + text[start:]
    lines = text.split(b"\n")
    del lines[rng.randrange(len(lines))]
    return "delete-line", b"\n".join(lines)


def check(path: str, include_dir: str) -> tuple[str, str]:
    """What p4odp makes of the program at `path` (its includes also looked up in `include_dir`):
    ("accepted" | "rejected" | "unpositioned" | "traceback", detail).  Run in a worker."""
    import traceback

    from p4odp.diagnostics import CompileError, Diagnostics
    from p4odp.frontend import FrontendOptions, load_program
    from p4odp.transpiler import generate_c

    diags = Diagnostics()
    try:
        program = load_program(path, FrontendOptions([include_dir], [], []), diags)
        if program is not None:
            generate_c(program, path, diags)
    except CompileError:
        pass
    except Exception:  # noqa: BLE001 - what the fuzzer looks for
        return "traceback", traceback.format_exc()
    errors = [d for d in diags.items if d.severity == "error"]
    if not errors:
        return "accepted", ""
    if not any(d.loc.line > 0 for d in errors):
        return "unpositioned", "\n".join(f"{d.loc}: {d.message}" for d in errors)
    return "rejected", ""


def _serve(connection) -> None:
    """A worker: checks the programs it is sent until it is sent None."""
    while (task := connection.recv()) is not None:
        connection.send(check(*task))


class _Worker:
    """A worker process, replaced when a check overruns its time."""

    def __init__(self) -> None:
        self.connection, theirs = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=_serve, args=(theirs,), daemon=True)
        self.process.start()

    def check(self, path: str, include_dir: str, timeout: float) -> Optional[tuple[str, str]]:
        """The outcome, or None when the check ran past `timeout` (the worker is then killed)."""
        self.connection.send((path, include_dir))
        if self.connection.poll(timeout):
            return self.connection.recv()
        self.process.kill()
        self.process.join()
        return None

    def stop(self) -> None:
        if self.process.is_alive():
            self.connection.send(None)
            self.process.join()


@dataclass
class Results:
    outcomes: dict = field(default_factory=dict)  # outcome -> mutants
    bugs: list = field(default_factory=list)  # (kind, the original, the mutation, the mutant, detail)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, outcome: str, original: Path, mutation: str, mutant: bytes, detail: str) -> None:
        with self.lock:
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
            if outcome not in ("accepted", "rejected"):
                self.bugs.append((outcome, original, mutation, mutant, detail))


def fuzz(programs: list[Path], mutants: Iterator[tuple[Path, str, bytes]], jobs: int, timeout: float,
         work: Path) -> Results:
    results = Results()
    take = threading.Lock()

    def run(number: int) -> None:
        worker = _Worker()
        path = work / f"worker{number}.p4"
        while True:
            with take:
                item = next(mutants, None)
            if item is None:
                break
            original, mutation, mutant = item
            path.write_bytes(mutant)
            outcome = worker.check(str(path), str(original.parent), timeout)
            if outcome is None:
                outcome, worker = ("hang", f"more than {timeout} s"), _Worker()
            results.add(outcome[0], original, mutation, mutant, outcome[1])
        worker.stop()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("programs", nargs="*", type=Path, help="the programs to mutate (default: the repository's)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz (default 60)")
    budget.add_argument("--count", type=int, help="how many mutants to try, whatever the time")
    parser.add_argument("--seed", type=int, default=1, help="the mutants' random seed (default 1)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a mutant may take (default 20)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="worker processes")
    parser.add_argument("--out", type=Path, default=Path("fuzz-out"), help="where the bugs found are saved")
    args = parser.parse_args()
    programs = args.programs or repository_programs()
    texts = [(program, program.read_bytes()) for program in programs]
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds

    def mutants() -> Iterator[tuple[Path, str, bytes]]:
        drawn = 0
        while (drawn < args.count) if args.count is not None else time.monotonic() < deadline:
            program, text = rng.choice(texts)
            drawn += 1
            yield (program, *mutate(text, rng))

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="p4odp-fuzz-") as work:
        results = fuzz(programs, mutants(), args.jobs, args.timeout, Path(work))
    elapsed = time.monotonic() - started
    total = sum(results.outcomes.values())
    print(f"{total} mutants of {len(programs)} programs in {elapsed:.0f} s (seed {args.seed}, {args.jobs} jobs): "
          f"{results.outcomes.get('accepted', 0)} accepted, {results.outcomes.get('rejected', 0)} rejected with a "
          f"positioned error; {results.outcomes.get('traceback', 0)} tracebacks, "
          f"{results.outcomes.get('unpositioned', 0)} rejections without a position, "
          f"{results.outcomes.get('hang', 0)} hangs")
    if not results.bugs:
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for number, (kind, original, mutation, mutant, detail) in enumerate(results.bugs):
        saved = args.out / f"{kind}-{number}.p4"
        saved.write_bytes(f"// {kind}: {mutation} of {original}\n".encode() + mutant)
        last = detail.strip().splitlines()[-1] if detail.strip() else ""
        print(f"{saved}: {kind} ({mutation} of {original.relative_to(REPO) if original.is_relative_to(REPO) else original}): {last}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
