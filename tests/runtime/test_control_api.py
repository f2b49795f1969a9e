"""Tests of the control-plane API (runtime/include/p4odp_control.h, runtime/core/control_*.c) alone.

Builds tests/runtime/c/control_test.c, which defines a program of its own (tables, an action
selector, counters, a meter, a register, a value set), with the runtime
(support.build_runtime_program), and runs each sub-test as a case of its own: every refused call
returns its error code and changes nothing.
"""

from pathlib import Path

import pytest

from support import build_runtime_program, run_runtime_program

SOURCE = Path(__file__).resolve().parent / "c" / "control_test.c"
SUBTESTS = ["entries", "idle_timeouts", "notes", "profiles", "replication", "externs"]


@pytest.fixture(scope="module")
def control_test(tmp_path_factory):
    return build_runtime_program(SOURCE, tmp_path_factory.mktemp("control_test"))


def test_every_subtest_is_run(control_test):
    assert run_runtime_program(control_test, "--list").stdout.split() == SUBTESTS


@pytest.mark.parametrize("name", SUBTESTS)
def test_control_api(control_test, name):
    assert run_runtime_program(control_test, name).stdout == f"control_test {name}: OK\n"
