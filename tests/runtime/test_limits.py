"""runtime/limits.py: the switch's limits as the C headers define them, read for the Python side."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from p4odp.runtime import limits

RUNTIME = Path(limits.__file__).parent


def test_the_limits_are_the_values_the_compiled_runtime_sees(tmp_path: Path):
    names = ["P4ODP_MAX_PORTS", "P4ODP_MAX_WORKERS", "P4ODP_PORT_NUMBERS", "P4ODP_MAX_MC_GROUPS",
             "P4ODP_MAX_GROUP_NODES", "P4ODP_MAX_MIRROR_SESSIONS", "P4ODP_MAX_PACKET", "P4ODP_CONTROL_LINE"]
    program = tmp_path / "limits.c"
    program.write_text('#include <stdio.h>\n#include "switch.h"\nint main(void)\n{\n' +
                       "".join(f'\tprintf("%lld\\n", (long long)({n}));\n' for n in names) + "\treturn 0;\n}\n")
    build = subprocess.run(["cc", "-std=gnu11", f"-I{RUNTIME / 'include'}", f"-I{RUNTIME / 'core'}",
                            f"-I{RUNTIME / 'odp' / 'include'}", "-DP4ODP_ODP_BUNDLED", str(program), "-o",
                            str(tmp_path / "limits")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    printed = subprocess.run([str(tmp_path / "limits")], capture_output=True, text=True, check=True).stdout
    assert [int(v) for v in printed.split()] == [limits.defines()[n] for n in names]
    assert (limits.MAX_PORTS, limits.PORT_NUMBERS, limits.MAX_PACKET) == (64, 512, 9600)


@pytest.mark.parametrize("text, value", [
    ("64", 64), ("0x40", 64), ("512u", 512), ("1UL << 9", 512), ("(P4ODP_A / 16)", 4),
    ("(2 * P4ODP_A + 1024)	/* comment */", 1152), ("P4ODP_A | 1", 65), ("64 // C++ comment", 64),
])
def test_integer_defines_are_evaluated_as_c_does(text: str, value: int):
    assert limits.integer(text, {"P4ODP_A": 64}) == value


@pytest.mark.parametrize("text", ['"a string"', "UINT64_C(1) << 63", "1_000", "P4ODP_UNKNOWN + 1", "1.5"])
def test_what_is_not_an_integer_c_expression_is_none(text: str):
    assert limits.integer(text, {}) is None


def test_defines_are_read_however_the_directive_is_spaced(tmp_path: Path):
    for header in limits.HEADERS:
        (tmp_path / header).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / limits.HEADERS[0]).write_text("#define P4ODP_A 8\n  #  define P4ODP_B\t(P4ODP_A * 2)\n"
                                              "#define P4ODP_NAME \"x\"\n#define OTHER 1\n")
    (tmp_path / limits.HEADERS[1]).write_text("#define P4ODP_C P4ODP_B\n")
    for header in limits.HEADERS[2:]:
        (tmp_path / header).write_text("")
    assert limits.defines(tmp_path) == {"P4ODP_A": 8, "P4ODP_B": 16, "P4ODP_C": 16}
