"""`p4odp fuzz PROG.p4`: the program's datapath under libFuzzer, with its tables filled.

The build is a switch whose main is libFuzzer's (BuildOptions.fuzz: runtime/fuzz/fuzz.c
in place of main.c, clang's coverage and AddressSanitizer and UndefinedBehaviorSanitizer
in every object).  Each input is a frame received on a port (its first byte, modulo the
ports, is the port), run through the worker's burst; the commands file fills the tables
first, as the switch's --commands does.  A crash (a sanitizer's report, a false assert()
with --asserts, an input that hangs) is written as a reproducer: a pcap file of the frame
and the switch command line that replays it on the program's ordinary switch, which is
built then and run on it once.

Everything lands in the output folder: the fuzzer and its build, corpus/ (libFuzzer's
inputs worth keeping, unless --corpus names another folder), fuzz.log (libFuzzer's
output), crash-HASH (the input) and crash-HASH.portN.pcap, and the switch.
"""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from p4odp import ir
from p4odp.backend.build import FUZZ_CFLAGS, FUZZ_LDFLAGS, BuildOptions, build_switch
from p4odp.backend.requirements import debian_hint
from p4odp.backend.target import Target
from p4odp.diagnostics import Diagnostics, Loc
from p4odp.stf.pcap import write_pcap
from p4odp.transpiler import generate_c

__all__ = ["Crash", "FuzzOptions", "FuzzResult", "fuzz_compiler", "fuzz_program", "libfuzzer_problem"]

_COMMAND_LINE = Loc("<command line>", 0, 0)
# runtime/fuzz/fuzz.c's exit status when it cannot set the switch up (a bad commands file).
_SETUP_FAILED = 3
# clang alone lacks libFuzzer's runtime on Debian: libclang-rt-dev has it.
_LIBFUZZER_PACKAGES = ("clang", "libclang-rt-dev")
# An input that runs longer than this is a hang, reported as a crash.
INPUT_TIMEOUT_S = 10
# libFuzzer stops itself after --seconds; it is killed if it runs this much longer.
_GRACE_S = 120


@dataclass
class FuzzOptions:
    seconds: float
    out: Path
    commands: Optional[Path] = None
    corpus: Optional[Path] = None
    ports: int = 4
    asserts: bool = False
    build: BuildOptions = field(default_factory=BuildOptions)


@dataclass
class Crash:
    what: str  # the report's line that says what happened
    input: Path  # libFuzzer's artifact: the port's byte, then the frame
    port: int
    pcap: Path  # the frame alone
    replay: list[str]  # the switch command line that replays it
    replayed: str  # what the switch did when it ran that


@dataclass
class FuzzResult:
    execs: int = 0
    execs_per_s: int = 0
    coverage: int = 0  # the edges libFuzzer's coverage counters saw
    features: int = 0
    corpus: int = 0  # the inputs in the corpus at the end
    seconds: float = 0.0
    log: Optional[Path] = None
    crash: Optional[Crash] = None


def fuzz_compiler(cc: Optional[str]) -> list[str]:
    """The compiler of a fuzz build: --cc, else $CC, else clang."""
    return shlex.split(cc or os.environ.get("CC") or "clang")


@functools.lru_cache(maxsize=None)
def libfuzzer_problem(compiler: tuple) -> Optional[str]:
    """None when `compiler` builds a libFuzzer fuzzer with the sanitizers, else why not."""
    if shutil.which(compiler[0]) is None:
        return (f"p4odp fuzz needs clang with libFuzzer: {compiler[0]} not found (set CC or --cc)"
                f"{debian_hint(_LIBFUZZER_PACKAGES)}")
    with tempfile.TemporaryDirectory(prefix="p4odp-fuzz-probe-") as folder:
        source = Path(folder) / "probe.c"
        source.write_text("#include <stddef.h>\n#include <stdint.h>\n"
                          "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
        result = subprocess.run([*compiler, *FUZZ_CFLAGS, *FUZZ_LDFLAGS, str(source), "-o", str(Path(folder) / "probe")],
                                capture_output=True, text=True)
    if result.returncode != 0:
        first = next((line for line in result.stderr.splitlines() if "error" in line), result.stderr.strip()[:300])
        return (f"p4odp fuzz needs clang with libFuzzer: {' '.join(compiler)} cannot build a fuzzer "
                f"(-fsanitize=fuzzer): {first} (set CC or --cc to a clang){debian_hint(_LIBFUZZER_PACKAGES)}")
    return None


def fuzz_program(program: ir.Program, program_path: str, target: Target, options: FuzzOptions,
                 diags: Diagnostics) -> Optional[FuzzResult]:
    """Build the program's fuzzer in options.out and run it for options.seconds; None after
    reporting why it could not run (a build failure, a bad commands file)."""
    if target.run_wrapper is not None or target.toolchain.cross_compile:
        diags.error(_COMMAND_LINE, f"target {target.name} is built for another machine: p4odp fuzz runs the "
                                   f"datapath here, so it takes a native target (x86)")
        return None
    compiler = fuzz_compiler(options.build.cc)
    problem = libfuzzer_problem(tuple(compiler))
    if problem is not None:
        diags.error(_COMMAND_LINE, problem)
        return None
    c_files = generate_c(program, program_path, diags, template_dirs=target.template_dirs)
    if c_files is None:
        return None
    out = options.out
    build = BuildOptions(cc=shlex.join(compiler), verbose=options.build.verbose, fuzz=True)
    fuzzer = build_switch(c_files, out, target, build, diags)
    if fuzzer is None:
        return None
    corpus = options.corpus or out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    dictionary = out / "fuzz.dict"
    dictionary.write_text("".join(f'"{_escaped(word)}"\n' for word in _words(program, options.commands)))
    # No -use_value_profile: it takes a select case's constant bit by bit, which the dictionary
    # gives whole, and makes the inputs five times slower.
    argv = [str(fuzzer), f"-max_total_time={max(1, round(options.seconds))}", f"-timeout={INPUT_TIMEOUT_S}",
            f"-artifact_prefix={out}/", "-print_final_stats=1", f"-dict={dictionary}", str(corpus),
            *_switch_flags(options)]
    log = out / "fuzz.log"
    status = _run_logged(argv, log, options.seconds + _GRACE_S, options.build.verbose)
    text = log.read_text(errors="replace")
    if status == _SETUP_FAILED:
        _report_setup_failure(text, diags)
        return None
    result = _statistics(text)
    result.log = log
    artifact = _artifact(text)
    if artifact is None:
        if status != 0:
            last = "\n".join(text.strip().splitlines()[-5:])
            diags.error(Loc(str(fuzzer), 0, 0), f"the fuzzer failed (exit {status}) without a crash report: "
                                                f"{last}; full output in {log}")
            return None
        return result
    result.crash = _reproduce(artifact, _what_crashed(text), c_files, target, options, diags)
    return result if result.crash is not None else None


# libFuzzer's dictionary: at most this many words.
_MAX_WORDS = 2000
# A command's key or value as simple_switch_CLI writes it: a MAC, an IPv4 or IPv6 address, a
# number (decimal, 0x, 0b), each possibly with /LEN, &&&MASK or ->HIGH.
_MAC = re.compile(r"^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$")


def _words(program: ir.Program, commands: Optional[Path]) -> list[bytes]:
    """The values a frame must hold to take the program's branches and hit its tables: the
    program's literals of two bytes or more (select cases, compared constants) and the
    commands' keys and values, each as the bytes a header holds it in (big-endian)."""
    words: dict[bytes, None] = {}
    for value, width in _literals(program):
        size = (width + 7) // 8 if width else max(1, (value.bit_length() + 7) // 8)
        if size >= 2 and 0 <= value < 1 << (8 * size):
            words[value.to_bytes(size, "big")] = None
    if commands is not None:
        for line in commands.read_text(errors="replace").splitlines():
            for token in re.split(r"\s+|=>|&&&|->|/", line)[1:]:
                word = _value_bytes(token)
                if word is not None and len(word) >= 2:
                    words[word] = None
    return list(words)[:_MAX_WORDS]


def _literals(node) -> list[tuple[int, Optional[int]]]:
    """Every integer literal under `node` with its width in bits (None when it has none)."""
    found = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ir.IntLiteral):
            width = getattr(item.type, "width", None) or item.width
            found.append((item.value, width))
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
        elif isinstance(item, ir.Node):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found


def _value_bytes(token: str) -> Optional[bytes]:
    """A command's value as bytes, None when it is no value (a name, a handle is one anyway)."""
    if _MAC.match(token):
        return bytes.fromhex(token.replace(":", ""))
    try:
        return ipaddress.ip_address(token).packed
    except ValueError:
        pass
    try:
        value = int(token, 0)
    except ValueError:
        return None
    return value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big") if value >= 0 else None


def _escaped(word: bytes) -> str:
    return "".join(f"\\x{byte:02x}" for byte in word)


def _switch_flags(options: FuzzOptions) -> list[str]:
    """The fuzzer's own flags (runtime/fuzz/fuzz.c; libFuzzer ignores those that start with --)."""
    flags = [f"--ports={options.ports}"]
    if options.commands is not None:
        flags.append(f"--commands={options.commands}")
    return flags + ["--asserts"] * options.asserts


def _run_logged(argv: list[str], log: Path, timeout: float, verbose: bool) -> int:
    """Run argv with its output in `log` (and on stderr with `verbose`), killed after `timeout`
    seconds; its exit status."""
    with open(log, "w") as out:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   errors="replace", stdin=subprocess.DEVNULL)
        deadline = threading.Timer(timeout, process.kill)
        deadline.start()
        try:
            for line in process.stdout:
                out.write(line)
                if verbose:
                    sys.stderr.write(line)
            return process.wait()
        finally:
            deadline.cancel()
            if process.poll() is None:
                process.kill()
                process.wait()


# FILE:LINE: error: MESSAGE, as the switch's --commands reports a bad line.
_COMMAND_ERROR = re.compile(r"^(.+?):(\d+): error: (.*)$", re.M)


def _report_setup_failure(text: str, diags: Diagnostics) -> None:
    """The fuzzer could not set the switch up: its commands file's bad line, positioned, or what it said."""
    found = _COMMAND_ERROR.search(text)
    if found:
        diags.error(Loc(found.group(1), int(found.group(2)), 0), found.group(3))
        return
    said = [line for line in text.splitlines() if line.startswith(("p4odp fuzz: ", "error: "))
            or ": error: " in line]
    diags.error(_COMMAND_LINE, said[-1].removeprefix("p4odp fuzz: ") if said else text.strip()[-500:])


_STAT = re.compile(r"^stat::(\w+):\s+(\d+)$", re.M)
_PROGRESS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/\S+(?: lim: \d+)? exec/s: (\d+)", re.M)
_DONE = re.compile(r"^Done \d+ runs in (\d+) second", re.M)


def _statistics(text: str) -> FuzzResult:
    """What libFuzzer's final statistics say, else (a sanitizer's report ends the run before
    them) its last progress line."""
    stats = {name: int(value) for name, value in _STAT.findall(text)}
    progress = _PROGRESS.findall(text)
    execs, cov, ft, corp, rate = map(int, progress[-1]) if progress else (0, 0, 0, 0, 0)
    result = FuzzResult(execs=stats.get("number_of_executed_units", execs),
                        execs_per_s=stats.get("average_exec_per_sec", rate), coverage=cov, features=ft, corpus=corp)
    done = _DONE.search(text)
    if done:
        result.seconds = float(done.group(1))
    elif result.execs_per_s:
        result.seconds = result.execs / result.execs_per_s
    return result


_ARTIFACT = re.compile(r"Test unit written to (\S+)")


def _artifact(text: str) -> Optional[Path]:
    """The input libFuzzer saved for a crash, hang or leak of this run, if any."""
    found = _ARTIFACT.search(text)
    return Path(found.group(1)) if found and Path(found.group(1)).is_file() else None


def _what_crashed(text: str) -> str:
    """The line of the report that says what happened: a false assert() or assume(), a sanitizer's
    finding with its place, or libFuzzer's (a deadly signal, a timeout)."""
    lines = text.splitlines()
    for pattern in (r"^(Assert|Assume) error: ", r"runtime error: "):
        found = next((line.strip() for line in lines if re.search(pattern, line)), None)
        if found:
            return found
    summary = next((line.removeprefix("SUMMARY: ") for line in lines if line.startswith("SUMMARY: ")), None)
    if summary and "deadly signal" not in summary:
        return summary
    error = next((re.sub(r"^==\d+==\s*ERROR: ", "", line) for line in lines if "ERROR: " in line), None)
    return error or summary or "a crash (see the log)"


def _reproduce(artifact: Path, what: str, c_files: dict, target: Target, options: FuzzOptions,
               diags: Diagnostics) -> Optional[Crash]:
    """The crash's frame as a pcap file, the program's switch built, and its replay run once."""
    data = artifact.read_bytes()
    port = data[0] % options.ports if data else 0
    pcap = artifact.with_name(f"{artifact.name}.port{port}.pcap")
    write_pcap(str(pcap), [data[1:]])
    # The switch as `p4odp compile` builds it (the target's compiler, not the fuzzer's).
    switch_options = BuildOptions(verbose=options.build.verbose)
    switch = build_switch(c_files, options.out, target, switch_options, diags)
    if switch is None:
        return None
    replay = [str(switch)]
    for index in range(options.ports):
        replay += ["-i", f"{index}=pcap:in={pcap}:out=/dev/null" if index == port else f"{index}=null{index}"]
    if options.commands is not None:
        replay += ["--commands", str(options.commands)]
    replay += ["--exit-when-done"] + ["--asserts"] * options.asserts
    return Crash(what, artifact, port, pcap, replay, _replayed(replay))


def _replayed(replay: list[str]) -> str:
    """What the switch did with the frame: crashed (how), or not."""
    try:
        run = subprocess.run(replay, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "the switch did not stop within 60 s"
    if run.returncode < 0:
        said = next((line for line in run.stderr.splitlines() if re.search(r"^(Assert|Assume) error: ", line)), "")
        return f"the switch was killed by {signal.Signals(-run.returncode).name}" + (f": {said}" if said else "")
    if run.returncode != 0:
        return f"the switch failed (exit {run.returncode}): {run.stderr.strip()[-300:]}"
    return "the switch forwards it without a crash (the sanitizers of the fuzz build see what it does not)"
