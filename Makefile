# p4odp: the two first commands are `make example` and `make test`; both set
# themselves up on a fresh Debian machine (see `setup`).
#
#   make setup        install the Debian packages it needs (as root) and p4odp with its test
#                     extras, editable, into this checkout's own virtual environment (.venv);
#                     TARGETS="x86-dpdk arm64 ..." also installs what those targets need (as root)
#   make example      run the main job on a bundled example: EXAMPLE=NAME, a folder of examples/
#                     that holds NAME.p4 (l3fwd by default)
#   make test         run the test suite (TEST_JOBS, TEST_ORDER, TESTS: see below)
#   make bench        time the front end; instructions per packet of the examples (their
#                     pipelines, and their whole worker loops by stage beside DPDK's); the
#                     examples' switches side by side with DPDK's l2fwd and l3fwd, and their
#                     latency under load; 10,000 P4Runtime inserts while forwarding; a
#                     minute of table churn under traffic (soak); a minute of front-end
#                     fuzzing; the examples' datapaths fuzzed for 10 s each
#   make conformance  measure the front end on p4c's corpus, P4_16 and P4_14 (P4C_TESTDATA=.../p4c/testdata)
#   make docs         build the documentation site (docs/, mkdocs.yml) into build/site, strictly:
#                     a broken link fails (make test checks the same); .venv/bin/mkdocs serve shows it
#   make fresh-check  the two first commands on a brand-new Debian root (as root; long)

# The Python that makes the virtual environment; everything else runs in it, so that the
# tests of this checkout run this checkout's code whatever another checkout installed.
PYTHON ?= python3
VENV ?= .venv
VENV_PYTHON = $(VENV)/bin/python
P4ODP ?= $(VENV_PYTHON) -m p4odp.cli
BUILD ?= build
EXAMPLE ?= l3fwd
TARGETS ?=
EXAMPLE_P4 = examples/$(EXAMPLE)/$(EXAMPLE).p4
P4C_TESTDATA ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CONFORMANCE_FLAGS ?=

# Debian packages, each with the command that tells whether it is there.
# gcc alone does not bring the C library's headers: libc6-dev does.  python3-venv brings
# ensurepip, without which Debian's Python makes no virtual environment.
DEBIAN_NEEDS = cpp:"command -v cpp" gcc:"command -v gcc" libc6-dev:"test -e /usr/include/stdio.h" \
               make:"command -v make" python3-venv:"$(PYTHON) -m ensurepip --version"

# Never wait for an answer (CI has no standard input).
export DEBIAN_FRONTEND = noninteractive
export PIP_NO_INPUT = 1
export PIP_DISABLE_PIP_VERSION_CHECK = 1
export PIP_ROOT_USER_ACTION = ignore

SETUP_STAMP = $(BUILD)/.setup-done

.PHONY: setup example test bench conformance docs fresh-check clean

# 1. Debian packages that are missing (apt-get update only then).
# 2. The virtual environment, unless it is there and works.
# 3. `pip install -e .[test]` into it, unless it already imports p4odp from this checkout
#    and setup.py has not changed since.
setup:
	@missing=""; \
	for need in $(DEBIAN_NEEDS); do \
	    package=$${need%%:*}; test=$${need#*:}; \
	    sh -c "$$test" >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        echo "setup: installing Debian packages:$$missing"; \
	        apt-get update -q && apt-get install -y -q --no-install-recommends $$missing || exit 1; \
	    else \
	        echo "setup: missing:$$missing; install them (Debian: apt-get install$$missing)" >&2; exit 1; \
	    fi; \
	fi
	@if ! $(VENV_PYTHON) -c '' 2>/dev/null; then \
	    echo "setup: $(PYTHON) -m venv $(VENV)"; \
	    $(PYTHON) -m venv --clear $(VENV) || exit 1; \
	fi
	@if [ -f $(SETUP_STAMP) ] && [ ! setup.py -nt $(SETUP_STAMP) ] && \
	    $(VENV_PYTHON) -P -c 'import sys, p4odp.frontend, jinja2, pytest; \
	        sys.exit(p4odp.frontend.__file__ != sys.argv[1])' "$(CURDIR)/frontend/__init__.py" 2>/dev/null; then \
	    echo "setup: p4odp is installed from this checkout in $(VENV)"; \
	else \
	    echo "setup: $(VENV_PYTHON) -m pip install -e '.[test]'"; \
	    $(VENV_PYTHON) -m pip install -q --use-pep517 -e '.[test]' && \
	    mkdir -p $(BUILD) && touch $(SETUP_STAMP); \
	fi
	@if [ -n "$(TARGETS)" ]; then $(P4ODP) targets --install $(TARGETS); fi

# The main job on a bundled example: compile it into a switch, feed the switch
# a pcap made by the example's script through its commands file, then run its
# STF test.  Port 0 reads build/EXAMPLE/in.pcap; port N writes build/EXAMPLE/outN.pcap.
example: setup
	$(P4ODP) compile $(EXAMPLE_P4) --target x86 -o $(BUILD)/$(EXAMPLE)
	$(VENV_PYTHON) examples/$(EXAMPLE)/make_pcap.py $(BUILD)/$(EXAMPLE)/in.pcap
	$(VENV_PYTHON) -c 'from p4odp.stf.pcap import write_pcap; write_pcap("$(BUILD)/$(EXAMPLE)/empty.pcap", [])'
	$(BUILD)/$(EXAMPLE)/switch --exit-when-done --commands examples/$(EXAMPLE)/commands.txt \
	    -i 0=pcap:in=$(BUILD)/$(EXAMPLE)/in.pcap:out=$(BUILD)/$(EXAMPLE)/out0.pcap \
	    $(foreach p,1 2 3,-i $(p)=pcap:in=$(BUILD)/$(EXAMPLE)/empty.pcap:out=$(BUILD)/$(EXAMPLE)/out$(p).pcap)
	$(P4ODP) stf $(EXAMPLE_P4) examples/$(EXAMPLE)/$(EXAMPLE).stf

# Tests run in parallel, one process per core (pytest-xdist); TEST_JOBS=0 runs them in one.
# TEST_ORDER=SEED shuffles the test modules and the tests in each, TEST_ORDER=reverse reverses
# them: a test that passes only after another has run fails in some order.  TESTS: what to run.
# -rfEs lists every failed, erroring and skipped test, each skip with its reason.
TEST_JOBS ?= auto
TEST_ORDER ?= collected
TESTS ?= tests
# A test that needs a Debian package installs it when run as root, else is skipped, saying why.
test: setup
	$(VENV_PYTHON) -m pytest -q -rfEs -n $(TEST_JOBS) --test-order=$(TEST_ORDER) $(TESTS)

# The side by side with DPDK says why and is skipped where DPDK's examples cannot be built.
bench: setup
	$(VENV_PYTHON) bench/frontend_speed.py
	$(VENV_PYTHON) bench/pipeline_instructions.py
	$(VENV_PYTHON) bench/worker_instructions.py --skip-unavailable
	$(VENV_PYTHON) bench/build_time.py
	$(VENV_PYTHON) bench/burst_lookup.py
	$(VENV_PYTHON) bench/dpdk_side_by_side.py --skip-unavailable
	$(VENV_PYTHON) bench/dpdk_latency.py --skip-unavailable
	$(VENV_PYTHON) bench/swx_side_by_side.py --skip-unavailable
	$(VENV_PYTHON) bench/p4runtime_inserts.py
	$(VENV_PYTHON) bench/control_plane_load.py
	$(VENV_PYTHON) bench/soak.py
	$(VENV_PYTHON) bench/fuzz_frontend.py --out $(BUILD)/fuzz-out
	$(VENV_PYTHON) bench/fuzz_datapaths.py --examples --seconds 10 --out $(BUILD)/datapath-fuzz

conformance: setup
	@if [ -z "$(P4C_TESTDATA)" ]; then \
	    echo "conformance: set P4C_TESTDATA to the testdata folder of a p4c checkout, e.g." >&2; \
	    echo "    git clone --depth 1 https://github.com/p4lang/p4c /tmp/p4c" >&2; \
	    echo "    make conformance P4C_TESTDATA=/tmp/p4c/testdata" >&2; \
	    echo "(keep it outside this repository: p4c's files are never committed here)" >&2; \
	    exit 1; \
	fi
	$(VENV_PYTHON) tests/conformance/p4c_corpus.py $(P4C_TESTDATA)/p4_16_samples --jobs $(JOBS) $(CONFORMANCE_FLAGS)
	$(VENV_PYTHON) tests/conformance/p4c_corpus.py $(P4C_TESTDATA)/p4_16_errors --jobs $(JOBS) $(CONFORMANCE_FLAGS)
	$(VENV_PYTHON) tests/conformance/p4c_corpus.py $(P4C_TESTDATA)/p4_14_samples --jobs $(JOBS) $(CONFORMANCE_FLAGS)
	$(VENV_PYTHON) tests/conformance/p4c_corpus.py $(P4C_TESTDATA)/p4_14_errors --jobs $(JOBS) $(CONFORMANCE_FLAGS)

docs: setup
	$(VENV)/bin/mkdocs build --strict --site-dir $(CURDIR)/$(BUILD)/site

# The README's two commands on a brand-new Debian 12 root, a new clone of HEAD in it (as root;
# 12 to 30 minutes).  TEST_ORDER (a new random seed unless given), TEST_JOBS and TESTS apply.
fresh-check:
	TEST_ORDER="$(filter-out collected,$(TEST_ORDER))" TEST_JOBS="$(TEST_JOBS)" TESTS="$(TESTS)" .ci/fresh-check

# The virtual environment stays: `rm -rf .venv` to make it anew.
clean:
	rm -rf $(BUILD)
