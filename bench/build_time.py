#!/usr/bin/env python3
"""How long `p4odp compile` takes from P4 to a switch binary, cold and warm, and where the warm time goes.

    python3 bench/build_time.py [--rounds N] [--target T] [PROGRAM.p4]

Cold: each round with an empty runtime cache ($P4ODP_CACHE_DIR, a new folder), so the
runtime and the bundled ODP are compiled too.  Warm: the cache filled once beforehand,
as after a user's first build.  Every round is `p4odp compile PROGRAM --target T -o DIR`
in a fresh process, timed end to end; the median and the spread (lowest, highest) are
printed.  The warm time is then split, from fresh processes too (each phase's imports
are in its figure):

- Python's start and the command line's imports: `p4odp --version`;
- the front end (preprocessor, parser, type checker), the midend passes and the C
  generation (model and templates): the functions `p4odp compile` calls, timed one
  after the other in one process;
- the build: every command it runs timed as it runs (make listing the bundled ODP's
  sources, the compiler's identity for the runtime cache key, the compiler on the
  generated C), and that compiler command run again in two halves, compiling (`-c`)
  and linking, to tell them apart.

The goal is "l3fwd from P4 to binary under 2 s warm" (the default program); the script
prints the figures and exits 0 either way: it is a benchmark, not a test.  Timings on
a machine shared with other work are noisy; the spread says how much.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOAL = 2.0  # seconds, warm

# Run in a fresh interpreter for each round: the front end, the passes and the C generation as
# run_compile in p4odp/cli.py runs them, then build_switch with every subprocess timed.
_PHASES = r"""
import json, subprocess, sys, time
from pathlib import Path
program, target_name, out = sys.argv[1:4]
times, commands = {}, []
clock = time.perf_counter()
def lap(name):
    global clock
    now = time.perf_counter()
    times[name] = times.get(name, 0.0) + now - clock
    clock = now
from p4odp.diagnostics import Diagnostics
from p4odp.plugins import load_targets
diags = Diagnostics()
target = load_targets()["targets"][target_name]
lap("targets")
from p4odp.frontend import FrontendOptions, load_program
ast = load_program(program, FrontendOptions([], [], []), diags)
lap("front end")
from p4odp.transpiler.passes import PassOptions, midend
result = midend(ast, diags, PassOptions())
lap("midend passes")
from p4odp.transpiler.codegen import generate_model
from p4odp.transpiler.emit import render_datapath
model = generate_model(result, program, diags, True)
c_files = {"datapath.c": render_datapath(model, target.template_dirs, diags=diags)}
lap("C generation")
from p4odp.backend.build import BuildOptions, build_switch
run = subprocess.run
def timed_run(command, *args, **kwargs):
    start = time.perf_counter()
    try:
        return run(command, *args, **kwargs)
    finally:
        commands.append((list(command), time.perf_counter() - start))
subprocess.run = timed_run
binary = build_switch(c_files, Path(out), target, BuildOptions(), diags)
lap("build")
if binary is None or diags.error_count:
    sys.exit("the build failed")
print(json.dumps({"times": times, "commands": commands}))
"""


def _compile(program: Path, target: str, out: Path, env: dict) -> float:
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(program), "--target", target,
                             "-o", str(out)], capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"p4odp compile failed:\n{result.stderr}")
    return elapsed


def _timed(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stderr}")
    return elapsed


def _is_switch_build(command: list[str]) -> bool:
    """Whether `command` is the build's compiler command: `CC FLAGS -o DIR/switch SOURCES LIBRARY LDFLAGS`."""
    return "-o" in command and command.index("-o") + 1 < len(command) and \
        Path(command[command.index("-o") + 1]).name == "switch"


def _split_compile_and_link(command: list[str], out: Path) -> tuple[list[list[str]], list[str]]:
    """The build's compiler command as `CC FLAGS -c SOURCE -o DIR/SOURCE.o` for each of its C
    sources, and `CC FLAGS -o DIR/switch OBJECTS LIBRARY LDFLAGS`."""
    at = command.index("-o")
    sources = [arg for arg in command[at + 2:] if arg.endswith(".c")]
    objects = {source: str(out / f"{Path(source).stem}.bench.o") for source in sources}
    flags = command[:at] + [arg for arg in command[at + 2:] if arg not in objects and not arg.endswith(".a")
                            and not arg.startswith(("-l", "-L", "-Wl"))]
    compiles = [flags + ["-c", source, "-o", obj] for source, obj in objects.items()]
    return compiles, [objects.get(arg, arg) for arg in command]


def _label(command: list[str]) -> str:
    if Path(command[0]).name == "make":
        return "make: the bundled ODP's sources and defines"
    if "--version" in command or "-dumpmachine" in command:
        return "the compiler's identity (runtime cache key)"
    if Path(command[0]).name == "pkg-config":
        return "pkg-config"
    if _is_switch_build(command):
        sources = ", ".join(Path(arg).name for arg in command if arg.endswith(".c"))
        return f"compiler: {sources}, compiled and linked"
    return " ".join(command[:2])


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):5.2f} s  [{min(values):.2f} .. {max(values):.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program", nargs="?", default=str(REPO / "examples" / "l3fwd" / "l3fwd.p4"))
    parser.add_argument("--target", default="x86")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each measure (default 5)")
    args = parser.parse_args()
    program = Path(args.program).resolve()

    with tempfile.TemporaryDirectory(prefix="p4odp-build-time-") as tmp:
        work = Path(tmp)
        env = dict(os.environ)
        cold = []
        for i in range(args.rounds):
            env["P4ODP_CACHE_DIR"] = str(work / f"cache-cold-{i}")
            cold.append(_compile(program, args.target, work / "out", env))
        env["P4ODP_CACHE_DIR"] = str(work / "cache")
        _compile(program, args.target, work / "out", env)  # fills the cache
        warm = [_compile(program, args.target, work / "out", env) for _ in range(args.rounds)]

        startup = [_timed([sys.executable, "-m", "p4odp.cli", "--version"], env) for _ in range(args.rounds)]
        phases: dict[str, list[float]] = {}
        commands: dict[str, list[float]] = {}
        compile_only, link_only = [], []
        for _ in range(args.rounds):
            result = subprocess.run([sys.executable, "-c", _PHASES, str(program), args.target, str(work / "out")],
                                    capture_output=True, text=True, env=env)
            if result.returncode != 0:
                raise SystemExit(f"timing the phases failed:\n{result.stderr}")
            report = json.loads(result.stdout.splitlines()[-1])
            for name, seconds in report["times"].items():
                phases.setdefault(name, []).append(seconds)
            for label in {_label(command) for command, _ in report["commands"]}:
                commands.setdefault(label, []).append(sum(seconds for command, seconds in report["commands"]
                                                          if _label(command) == label))
            cc = next(command for command, _ in report["commands"] if _is_switch_build(command))
            compile_commands, link_command = _split_compile_and_link(cc, work / "out")
            compile_only.append(sum(_timed(command, env) for command in compile_commands))
            link_only.append(_timed(link_command, env))

    name = Path(args.program).name
    print(f"p4odp compile {name} --target {args.target}: median [lowest .. highest] of {args.rounds} rounds")
    print(f"  cold (empty runtime cache)  {_spread(cold)}")
    print(f"  warm                        {_spread(warm)}   goal < {GOAL:.0f} s: "
          f"{'met' if statistics.median(warm) < GOAL else 'NOT met'}")
    print("where the warm time goes (fresh processes, medians):")
    print(f"  Python start, command-line imports      {statistics.median(startup):5.2f} s")
    for phase in ("targets", "front end", "midend passes", "C generation"):
        label = "target plugins" if phase == "targets" else phase
        print(f"  {label:40} {statistics.median(phases[phase]):5.2f} s")
    build = statistics.median(phases["build"])
    print(f"  {'build':40} {build:5.2f} s, of which:")
    for label, seconds in sorted(commands.items(), key=lambda item: -statistics.median(item[1])):
        print(f"    {label:46} {statistics.median(seconds):5.2f} s")
    print(f"      run again in two halves: compiling {statistics.median(compile_only):.2f} s, "
          f"linking {statistics.median(link_only):.2f} s")
    rest = max(0.0, build - sum(statistics.median(seconds) for seconds in commands.values()))  # medians of parts
    print(f"    {'the rest (cache key hashing, writing files)':46} {rest:5.2f} s")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: without cached bytecode every run compiles p4odp's "
              "Python modules again, which users with a normal install do not pay")


if __name__ == "__main__":
    main()
