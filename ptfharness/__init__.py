"""PTF (p4lang's packet test framework) against p4odp switches: `p4odp ptf` (runner.py) and the
base of the tests it runs (base_test.py, which imports ptf)."""
