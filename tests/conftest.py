"""Options shared by the test suites."""


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden files (IR dumps, generated C) from the current output")
