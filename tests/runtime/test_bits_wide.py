"""Tests of the wide-value helpers of runtime/include/p4odp_bits.h.

Builds tests/runtime/c/bits_wide.c with each compiler variant (the default C
compiler, clang, an AddressSanitizer + UBSan build, and the armhf and arm64
targets, run under qemu-user: armhf has no __int128 and a 32-bit long), with
-Werror, and runs it: every helper against a bit-by-bit reference on edge and
random values of widths 65 to 256, with dst apart from and the same as its
operands; and field loads and stores of 1 to 64 bits at every shift, through
the byte loop, the one-word helpers and with constant offsets and widths (the
path the generated code takes).
"""

import os
import subprocess
from pathlib import Path

import pytest

from support import require_command, require_target

ROOT = Path(__file__).resolve().parents[2]
INCLUDE_DIR = ROOT / "runtime" / "include"
SOURCE = Path(__file__).resolve().parent / "c" / "bits_wide.c"
WARNINGS = ["-Wall", "-Wextra", "-Werror"]
ASAN = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "runtime error:")
# Native variants: compiler (None: $CC) and flags.  The cross ones are the targets armhf and
# arm64: their toolchain builds, their run wrapper (qemu-user) runs.
VARIANTS = {"cc": (None, []), "clang": ("clang", []), "asan": (None, ASAN), "armhf": None, "arm64": None}
TIMEOUT = 120


@pytest.mark.parametrize("variant", VARIANTS)
def test_bits_wide(variant, tmp_path):
    run, run_env = [], {}
    if VARIANTS[variant] is None:
        target = require_target(variant)
        cc, flags = target.toolchain.compiler(), []
        run, run_env = target.run_prefix()
    else:
        name, flags = VARIANTS[variant]
        cc = [name or os.environ.get("CC", "cc")]
        require_command(cc[0])
    exe = tmp_path / "bits_wide"
    subprocess.run([*cc, "-std=c11", *WARNINGS, "-O1", "-g", *flags, "-I", str(INCLUDE_DIR),
                    str(SOURCE), "-o", str(exe)], check=True, timeout=TIMEOUT)
    seed = {"cc": 1, "clang": 2, "asan": 3, "armhf": 4, "arm64": 5}[variant]  # other values for each build
    proc = subprocess.run([*run, str(exe), str(seed)], capture_output=True, text=True, timeout=TIMEOUT,
                          env={**os.environ, **run_env, "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"})
    for report in SANITIZER_REPORTS:
        assert report not in proc.stderr, f"sanitizer report:\n{proc.stderr}"
    assert proc.returncode == 0, f"exited {proc.returncode}\n{proc.stdout}{proc.stderr}"
    assert "bits_wide: OK" in proc.stdout
