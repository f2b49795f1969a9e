"""Options shared by the test suites."""

import os

# Every compile of the suite checks the IR's invariants before the first midend pass and after each
# (transpiler/passes/validate.py), in the test processes and in the p4odp commands they run, which inherit
# the environment.  P4ODP_VALIDATE_IR=0 turns it off.
os.environ.setdefault("P4ODP_VALIDATE_IR", "1")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden files (IR dumps, generated C) from the current output")
