"""Tests of the traffic manager (runtime/core/traffic_manager.c) alone, under a fake pipeline.

Builds tests/runtime/c/tm_test.c, which defines its own `p4odp_program`, with the runtime
(support.build_runtime_program) and runs each sub-test of tm_test as a case of its own. See
tm_test.c for what each checks.
"""

from pathlib import Path

import pytest

from support import build_runtime_program, run_runtime_program

SOURCE = Path(__file__).resolve().parent / "c" / "tm_test.c"
SUBTESTS = ["unicast", "multicast", "multicast_changes", "egress_drop", "empty_group", "drop", "no_port",
            "headers_too_long", "burst_flush", "big_group", "tx_full", "no_buffer", "counters", "cpu_port",
            "meter_workers"]


@pytest.fixture(scope="module")
def tm_test(tmp_path_factory):
    """(the tm_test program, its environment)."""
    return build_runtime_program(SOURCE, tmp_path_factory.mktemp("tm_test"))


def test_every_subtest_is_run(tm_test):
    assert run_runtime_program(tm_test, "--list").stdout.split() == SUBTESTS


@pytest.mark.parametrize("name", SUBTESTS)
def test_traffic_manager(tm_test, name):
    assert run_runtime_program(tm_test, name).stdout == f"tm_test {name}: OK\n"
