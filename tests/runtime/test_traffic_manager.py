"""Tests of the traffic manager (runtime/core/traffic_manager.c) alone, under a fake pipeline.

Builds tests/runtime/c/tm_test.c, which defines its own `p4odp_program`, with the runtime's
sources (runtime/core but main.c, runtime/tables but the benchmark) and the bundled ODP's (as
its Makefile lists them), with -Werror and, when the compiler has them, AddressSanitizer and
UBSan; runs each sub-test of tm_test as a case of its own. See tm_test.c for what each checks.
As in a switch, tm_test.c and the runtime's per-packet sources are one translation unit (the
traffic manager keeps the program's struct p4odp_packet_state in a local).
"""

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from p4odp.backend.build import PER_PACKET_SOURCES
from support import ODP_DIR, SANITIZE, SANITIZER_REPORTS, require_command

RUNTIME = Path(__file__).resolve().parents[2] / "runtime"
SOURCE = Path(__file__).resolve().parent / "c" / "tm_test.c"
SUBTESTS = ["unicast", "multicast", "multicast_changes", "egress_drop", "empty_group", "drop", "no_port",
            "headers_too_long", "burst_flush", "big_group", "tx_full", "no_buffer", "counters", "cpu_port",
            "meter_workers"]
WARNINGS = ["-Wall", "-Wextra", "-Werror"]
SANITIZER_ENV = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0",
                 "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
TIMEOUT = 300


def _sanitizers_work(cc: list[str], tmp: Path) -> bool:
    """Can `cc` build and run a program with SANITIZE?"""
    src = tmp / "san_probe.c"
    src.write_text("#include <stdlib.h>\nint main(void) { free(malloc(1)); return 0; }\n")
    build = subprocess.run([*cc, *SANITIZE, str(src), "-o", str(tmp / "san_probe")], capture_output=True,
                           timeout=TIMEOUT)
    return build.returncode == 0 and subprocess.run([str(tmp / "san_probe")], capture_output=True,
                                                    timeout=TIMEOUT).returncode == 0


@pytest.fixture(scope="module")
def tm_test(tmp_path_factory):
    """(the tm_test program, its environment)."""
    cc = shlex.split(os.environ.get("CC", "cc"))
    require_command(cc[0])
    require_command("make")
    out = tmp_path_factory.mktemp("tm_test")
    listed = subprocess.run(["make", "-s", "-C", str(ODP_DIR), "sources", "defines"], check=True,
                            capture_output=True, text=True, timeout=TIMEOUT).stdout.split()
    odp_sources = [str(ODP_DIR / word) for word in listed if word.endswith(".c")]
    defines = [word for word in listed if word.startswith("-D")]
    per_packet = [RUNTIME / "core" / name for name in PER_PACKET_SOURCES]
    unit = out / "tm_unit.c"
    unit.write_text("".join(f'#include "{path}"\n' for path in (SOURCE, *per_packet)))
    runtime = sorted(str(p) for p in (RUNTIME / "core").glob("*.c") if p.name != "main.c" and p not in per_packet)
    runtime += sorted(str(p) for p in (RUNTIME / "tables").glob("*.c") if not p.name.startswith("bench"))
    sanitize = _sanitizers_work(cc, out)
    prog = out / "tm_test"
    subprocess.run([*cc, "-std=gnu11", "-pthread", *WARNINGS, "-O1", "-g", *(SANITIZE if sanitize else []),
                    "-I", str(RUNTIME / "include"), "-I", str(RUNTIME / "core"), "-I", str(ODP_DIR / "include"),
                    "-DP4ODP_ODP_BUNDLED", *defines, str(unit), *runtime, *odp_sources, "-o", str(prog)],
                   check=True, timeout=TIMEOUT)
    return prog, {**os.environ, **(SANITIZER_ENV if sanitize else {})}


def _run(tm_test, *args: str) -> subprocess.CompletedProcess:
    prog, env = tm_test
    proc = subprocess.run([str(prog), *args], capture_output=True, text=True, timeout=TIMEOUT, env=env)
    # The exit code first: a failed check exits early, and LeakSanitizer then reports what it left.
    assert proc.returncode == 0, (f"tm_test {' '.join(args)} exited {proc.returncode}\n"
                                  f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    for report in SANITIZER_REPORTS:
        assert report not in proc.stderr, f"tm_test {' '.join(args)}: sanitizer report:\n{proc.stderr}"
    return proc


def test_every_subtest_is_run(tm_test):
    assert _run(tm_test, "--list").stdout.split() == SUBTESTS


@pytest.mark.parametrize("name", SUBTESTS)
def test_traffic_manager(tm_test, name):
    assert _run(tm_test, name).stdout == f"tm_test {name}: OK\n"
