"""Tests of the match-table library (runtime/tables).

Builds libp4odp_tables.a and the C programs tests/runtime/c/table_*.c with
each compiler variant (the default C compiler, clang when installed, an
AddressSanitizer + UBSan build and, for the concurrent programs, a
ThreadSanitizer build when it works on this machine), with -Werror, and runs
them:

- table_api: targeted checks (exact tables end to end, errno of bad specs and
  matches with no change of state, defaults, dumps, priorities, bursts of
  every structure against lookups one by one);
- table_model: random entries against a brute-force model, for lpm of widths
  8 to 203 (DIR-24-8, the trie) and with exact fields (tuple space), exact,
  ternary, range, optional; adds and deletes interleaved; nothing left once
  every entry is deleted;
- table_concurrent: two reader threads look up while the writer updates;
- table_rcu: the QSBR semantics and a use-after-free stress.
"""

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support import require_command

ROOT = Path(__file__).resolve().parents[2]
TABLES_DIR = ROOT / "runtime" / "tables"
INCLUDE_DIR = ROOT / "runtime" / "include"
C_DIR = Path(__file__).resolve().parent / "c"
PROGRAMS = ["table_api", "table_model", "table_concurrent", "table_rcu"]
THREADED = ["table_concurrent", "table_rcu"]
WARNINGS = ["-Wall", "-Wextra", "-Werror"]
ASAN = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
TSAN = ["-fsanitize=thread"]
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                     "WARNING: ThreadSanitizer")
TIMEOUT = 300

API_TESTS = ["exact", "exact_sizes", "burst_and_full", "burst_kinds", "code", "spec", "invalid", "default",
             "empty", "handles", "iterate", "iterate_lpm", "priorities"]
MODEL_CONFIGS = ["lpm8", "lpm12", "lpm25", "lpm32", "lpm33", "lpm48", "lpm64", "lpm128", "lpm128_any",
                 "lpm40_any", "lpm203", "exact16_lpm32", "exact8_lpm128_exact9", "exact", "exact_long",
                 "ternary", "ternary_wide", "range", "optional", "mixed"]
CONCURRENT_KINDS = ["exact", "dir", "lpm128", "lpm128_tss", "ternary"]


@dataclass
class Build:
    """Library and test programs built with one compiler variant."""

    name: str
    cc: str
    out: Path
    flags: list
    env: dict = field(default_factory=dict)

    def run(self, args, *, timeout=TIMEOUT):
        """Run a test program; fail on a nonzero exit or a sanitizer report."""
        cmd = [str(self.out / args[0]), *map(str, args[1:])]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, **self.env})
        for report in SANITIZER_REPORTS:
            assert report not in proc.stderr, f"{cmd}: sanitizer report:\n{proc.stderr}"
        assert proc.returncode == 0, (
            f"{cmd} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
        return proc


def _cc():
    return os.environ.get("CC", "cc")


def _tsan_works(cc, tmp):
    """ThreadSanitizer needs runtime support (and a kernel whose address
    layout it accepts): try a threaded program first."""
    src = tmp / "tsan_probe.c"
    src.write_text("#include <pthread.h>\nstatic void *f(void *a) { return a; }\n"
                   "int main(void) { pthread_t t; pthread_create(&t, 0, f, 0);\n"
                   "  return pthread_join(t, 0); }\n")
    exe = tmp / "tsan_probe"
    try:
        subprocess.run([cc, *TSAN, str(src), "-pthread", "-o", str(exe)], check=True,
                       capture_output=True, timeout=TIMEOUT)
        return subprocess.run([str(exe)], capture_output=True, timeout=60).returncode == 0
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError):
        return False


VARIANTS = [("cc", None, []), ("clang", "clang", []), ("asan", None, ASAN), ("tsan", None, TSAN)]


def _build(name, tmp_path_factory):
    _, cc, flags = next(v for v in VARIANTS if v[0] == name)
    cc = cc or _cc()
    require_command(cc)
    require_command("make")
    out = tmp_path_factory.mktemp(f"tables-{name}")
    if name == "tsan" and not _tsan_works(cc, out):
        pytest.skip("ThreadSanitizer does not work here")
    subprocess.run(["make", "-s", "-C", str(TABLES_DIR), f"O={out}", f"CC={cc}",
                    f"EXTRA_CFLAGS={' '.join(['-Werror', *flags])}"], check=True,
                   timeout=TIMEOUT)
    lib = out / "libp4odp_tables.a"
    assert lib.is_file()
    for prog in THREADED if name == "tsan" else PROGRAMS:
        subprocess.run([cc, "-std=c11", *WARNINGS, "-O1", "-g", *flags, "-I", str(INCLUDE_DIR),
                        str(C_DIR / f"{prog}.c"), str(lib), "-pthread", "-o",
                        str(out / prog)], check=True, timeout=TIMEOUT)
    env = {}
    if flags == ASAN:
        env = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0",
               "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
    if flags == TSAN:
        env = {"TSAN_OPTIONS": "halt_on_error=1:second_deadlock_stack=1"}
    return Build(name, cc, out, flags, env)


_builds = {}


@pytest.fixture(scope="session")
def builds(tmp_path_factory):
    def get(name):
        if name not in _builds:
            try:
                _builds[name] = _build(name, tmp_path_factory)
            except pytest.skip.Exception as skip:
                _builds[name] = skip
        if isinstance(_builds[name], pytest.skip.Exception):
            pytest.skip(str(_builds[name]))
        return _builds[name]
    return get


# ---- Build ----

def test_makefile_lists_every_source():
    listed = subprocess.run(["make", "-s", "-C", str(TABLES_DIR), "sources"], check=True,
                            capture_output=True, text=True).stdout.split()
    library = {p.name for p in TABLES_DIR.glob("*.c")} - {"bench_tables.c"}
    assert sorted(listed) == sorted(library)


@pytest.mark.parametrize("variant", ["cc", "clang"])
def test_headers_strict(builds, variant, tmp_path):
    """The headers build alone in strict C11, define no variables (two units
    linked with -fno-common) and inline the lookup."""
    build = builds(variant)
    unit = ("#include <p4odp_table.h>\n#include <p4odp_rcu.h>\n"
            "const struct p4odp_table_entry *f{n}(const struct p4odp_table *t,"
            " const uint8_t *k) {{ return p4odp_table_lookup(t, k); }}\n")
    a, b = tmp_path / "a.c", tmp_path / "b.c"
    a.write_text(unit.format(n=1) + "int main(void) { return 0; }\n")
    b.write_text(unit.format(n=2))
    subprocess.run([build.cc, "-std=c11", "-pedantic", *WARNINGS, "-Wshadow",
                    "-Wstrict-prototypes", "-fno-common", "-I", str(INCLUDE_DIR), str(a), str(b),
                    str(build.out / "libp4odp_tables.a"), "-pthread", "-o",
                    str(tmp_path / "hdr")], check=True, timeout=TIMEOUT)


def test_bench_builds_and_reports(tmp_path):
    require_command("make")
    proc = subprocess.run(["make", "-s", "-C", str(TABLES_DIR), f"O={tmp_path}", "bench",
                           "BENCH_ARGS=--quick", "EXTRA_CFLAGS=-Werror"], check=True,
                          capture_output=True, text=True, timeout=TIMEOUT)
    rates = dict(re.findall(r"^(\w+)\s+\S+\s+\d+ entries\s+([\d.]+) Mlookups/s", proc.stdout,
                            re.M))
    assert set(rates) == {"exact", "mac", "lpm", "lpm128", "lpm128_tss", "ternary"}, proc.stdout
    assert all(float(r) > 0 for r in rates.values())
    assert "hits 100%" in proc.stdout


# ---- Single-threaded behaviour ----

@pytest.mark.parametrize("variant", ["cc", "clang", "asan"])
@pytest.mark.parametrize("test", API_TESTS)
def test_api(builds, variant, test):
    assert f"table_api {test}: OK" in builds(variant).run(["table_api", test]).stdout


@pytest.mark.parametrize("variant", ["cc", "asan"])
@pytest.mark.parametrize("config", MODEL_CONFIGS)
def test_model(builds, variant, config):
    """Random entries against the brute-force model (a fixed seed per
    variant, so that each compiler sees other tables)."""
    seed = {"cc": 1, "asan": 3}[variant]
    entries = [1000] if variant == "asan" else []  # the model is quadratic
    proc = builds(variant).run(["table_model", config, seed, *entries])
    assert f"table_model {config}: OK" in proc.stdout


@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("config", ["lpm32", "lpm128", "lpm128_any", "ternary", "mixed"])
def test_model_more_seeds(builds, config, seed):
    assert "OK" in builds("cc").run(["table_model", config, seed, 1000]).stdout


# ---- Readers and writer ----

@pytest.mark.parametrize("variant", ["cc", "asan", "tsan"])
@pytest.mark.parametrize("test", ["semantics", "stress"])
def test_rcu(builds, variant, test):
    assert f"table_rcu {test}: OK" in builds(variant).run(["table_rcu", test, 700]).stdout


@pytest.mark.parametrize("variant", ["cc", "clang", "asan", "tsan"])
@pytest.mark.parametrize("kind", CONCURRENT_KINDS)
def test_concurrent(builds, variant, kind):
    proc = builds(variant).run(["table_concurrent", kind, 1000])
    assert f"table_concurrent {kind}: OK" in proc.stdout
    stats = {k: int(v) for v, k in re.findall(r"(\d+) (writes|lookups|hits)", proc.stdout)}
    assert stats["writes"] > 100 and stats["hits"] > 0
