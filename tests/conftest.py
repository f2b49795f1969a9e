"""Options shared by the test suites, the order the tests run in, and the check that they test
this checkout's code."""

import os
import random
import signal
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[1]

# Every compile of the suite checks the IR's invariants before the first midend pass and after each
# (transpiler/passes/validate.py), in the test processes and in the p4odp commands they run, which inherit
# the environment.  P4ODP_VALIDATE_IR=0 turns it off.
os.environ.setdefault("P4ODP_VALIDATE_IR", "1")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden files (IR dumps, generated C) from the current output")
    parser.addoption("--test-order", default="collected", metavar="SEED|reverse|collected",
                     help="run the test modules, and the tests in each, shuffled by the integer SEED or "
                          "reversed: a test that passes only after another has run then fails")


def pytest_configure(config):
    _check_order(config.getoption("--test-order"))
    # The tests stop the programs they start with SIGINT, as a user's Ctrl-C does.  A suite started
    # with SIGINT ignored (a background job of a shell, nohup) would hand that on to them: a handler
    # of its own is not, the programs it starts get the default.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # A p4odp installed from another checkout (its editable install on the same Python) would be
    # tested in this one's name.
    how = f"run them with `make test`, or with {CHECKOUT / '.venv/bin/python'} (`make setup` makes it)"
    try:
        import p4odp.frontend
    except ImportError as err:
        raise pytest.UsageError(f"these tests are {CHECKOUT}'s, but this Python cannot import p4odp ({err}): "
                                f"{how}") from None
    for module in (p4odp, p4odp.frontend):
        where = Path(module.__file__).resolve()
        if not where.is_relative_to(CHECKOUT):
            raise pytest.UsageError(f"these tests are {CHECKOUT}'s, but {module.__name__} is imported from "
                                    f"{where.parent}: {how}")


def pytest_report_header(config):
    order = config.getoption("--test-order")
    if order == "reverse":
        return "test order: reversed"
    if order != "collected":
        return f"test order: shuffled with seed {order} (--test-order={order} repeats it)"
    return None


def pytest_collection_modifyitems(config, items):
    """Reorder the tests as --test-order asks: whole modules move, so that each module's fixtures
    are still made once, and the tests inside each module move too."""
    order = config.getoption("--test-order")
    if order == "collected":
        return
    modules: dict[Path, list] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    groups = list(modules.values())
    if order == "reverse":
        groups = [group[::-1] for group in reversed(groups)]
    else:
        # Every pytest-xdist worker collects for itself: the same seed gives each the same order.
        shuffle = random.Random(int(order)).shuffle
        shuffle(groups)
        for group in groups:
            shuffle(group)
    items[:] = [item for group in groups for item in group]


def _check_order(order: str) -> None:
    if order not in ("collected", "reverse") and not order.lstrip("-").isdigit():
        raise pytest.UsageError(f"--test-order: expected an integer seed, 'reverse' or 'collected', got {order!r}")

