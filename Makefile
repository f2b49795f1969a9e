# p4odp: the two first commands are `make example` and `make test`; both set
# themselves up on a fresh Debian machine (see `setup`).
#
#   make setup        install the tools and the p4odp package (editable, with test extras);
#                     TARGETS="x86-dpdk arm64 ..." also installs what those targets need (as root)
#   make example      run the main job on a bundled example (EXAMPLE=l3fwd by default)
#   make test         run the test suite
#   make bench        time the front end; instructions per packet of the examples; the
#                     examples' switches side by side with DPDK's l2fwd and l3fwd; 10,000
#                     P4Runtime inserts while forwarding; a minute of table churn under
#                     traffic (soak); a minute of front-end fuzzing; the examples' datapaths
#                     fuzzed for 10 s each
#   make conformance  measure the front end on p4c's corpus (P4C_TESTDATA=.../p4c/testdata)

PYTHON ?= python3
# Run as a module so that it works wherever pip put the console script.
P4ODP ?= $(PYTHON) -m p4odp.cli
BUILD ?= build
EXAMPLE ?= l3fwd
TARGETS ?=
EXAMPLE_P4 = examples/$(EXAMPLE)/$(EXAMPLE).p4
P4C_TESTDATA ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CONFORMANCE_FLAGS ?=

# Debian packages, each with the command that tells whether it is there.
DEBIAN_NEEDS = cpp:"command -v cpp" gcc:"command -v gcc" make:"command -v make" \
               python3-pip:"$(PYTHON) -m pip --version"

# Debian packages some tests need (the others skip them, saying why): installed by
# `make test` when it runs as root, else named.  clang's libFuzzer runs the smoke fuzz
# (p4odp fuzz), valgrind the memcheck of the examples.
TEST_DEBIAN_WANTS = clang:"command -v clang" \
                    libclang-rt-dev:"ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a" \
                    valgrind:"command -v valgrind"

# $(call install_missing,WHO,NEEDS,ELSE): of NEEDS (package:"command telling it is there"), the
# packages missing ($$missing), installed with apt-get when root, else the shell command ELSE runs.
install_missing = missing=""; \
	for need in $(2); do \
	    package=$${need%%:*}; test=$${need\#*:}; \
	    sh -c "$$test" >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        echo "$(1): installing Debian packages:$$missing"; \
	        apt-get update -q && apt-get install -y -q --no-install-recommends $$missing || exit 1; \
	    else \
	        $(3); \
	    fi; \
	fi

# Never wait for an answer (CI has no standard input).
export DEBIAN_FRONTEND = noninteractive
export PIP_NO_INPUT = 1
export PIP_DISABLE_PIP_VERSION_CHECK = 1
export PIP_ROOT_USER_ACTION = ignore

SETUP_STAMP = $(BUILD)/.setup-done

.PHONY: setup example test bench conformance clean

# 1. Debian packages that are missing (apt-get update only then).
# 2. `pip install -e .[test]`, unless this checkout is already installed and
#    setup.py has not changed since; --break-system-packages on a Python that
#    is externally managed (Debian's own) outside a virtual environment.
setup:
	@$(call install_missing,setup,$(DEBIAN_NEEDS),\
	    echo "setup: missing:$$missing; install them (Debian: apt-get install$$missing)" >&2; exit 1)
	@if [ -f $(SETUP_STAMP) ] && [ ! setup.py -nt $(SETUP_STAMP) ] && \
	    $(PYTHON) -P -c 'import sys, p4odp.frontend, jinja2, pytest; \
	        sys.exit(p4odp.frontend.__file__ != sys.argv[1])' "$(CURDIR)/frontend/__init__.py" 2>/dev/null; then \
	    echo "setup: p4odp is installed from this checkout"; \
	else \
	    flags="--use-pep517"; \
	    if $(PYTHON) -c 'import os, sys, sysconfig; sys.exit(not (sys.prefix == sys.base_prefix and \
	        os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))))'; then \
	        flags="$$flags --break-system-packages"; \
	    fi; \
	    echo "setup: $(PYTHON) -m pip install $$flags -e '.[test]'"; \
	    $(PYTHON) -m pip install -q $$flags -e '.[test]' && \
	    mkdir -p $(BUILD) && touch $(SETUP_STAMP); \
	fi
	@if [ -n "$(TARGETS)" ]; then $(P4ODP) targets --install $(TARGETS); fi

# The main job on a bundled example: compile it into a switch, feed the switch
# a pcap made by the example's script through its commands file, then run its
# STF test.  Port 0 reads build/EXAMPLE/in.pcap; port N writes build/EXAMPLE/outN.pcap.
example: setup
	$(P4ODP) compile $(EXAMPLE_P4) --target x86 -o $(BUILD)/$(EXAMPLE)
	$(PYTHON) examples/$(EXAMPLE)/make_pcap.py $(BUILD)/$(EXAMPLE)/in.pcap
	$(PYTHON) -c 'from p4odp.stf.pcap import write_pcap; write_pcap("$(BUILD)/$(EXAMPLE)/empty.pcap", [])'
	$(BUILD)/$(EXAMPLE)/switch --exit-when-done --commands examples/$(EXAMPLE)/commands.txt \
	    -i 0=pcap:in=$(BUILD)/$(EXAMPLE)/in.pcap:out=$(BUILD)/$(EXAMPLE)/out0.pcap \
	    $(foreach p,1 2 3,-i $(p)=pcap:in=$(BUILD)/$(EXAMPLE)/empty.pcap:out=$(BUILD)/$(EXAMPLE)/out$(p).pcap)
	$(P4ODP) stf $(EXAMPLE_P4) examples/$(EXAMPLE)/$(EXAMPLE).stf

# Tests run in parallel, one process per core (pytest-xdist); TEST_JOBS=0 runs them in one.
TEST_JOBS ?= auto
test: setup
	@$(call install_missing,test,$(TEST_DEBIAN_WANTS),\
	    echo "test: without$$missing the tests that need them are skipped (Debian: apt-get install$$missing)")
	$(PYTHON) -m pytest -q -n $(TEST_JOBS) tests

# The side by side with DPDK says why and is skipped where DPDK's examples cannot be built.
bench: setup
	$(PYTHON) bench/frontend_speed.py
	$(PYTHON) bench/pipeline_instructions.py
	$(PYTHON) bench/build_time.py
	$(PYTHON) bench/burst_lookup.py
	$(PYTHON) bench/dpdk_side_by_side.py --skip-unavailable
	$(PYTHON) bench/p4runtime_inserts.py
	$(PYTHON) bench/soak.py
	$(PYTHON) bench/frontend_fuzz.py --out $(BUILD)/fuzz-out
	$(PYTHON) bench/datapath_fuzz.py --examples --seconds 10 --out $(BUILD)/datapath-fuzz

conformance: setup
	@if [ -z "$(P4C_TESTDATA)" ]; then \
	    echo "conformance: set P4C_TESTDATA to the testdata folder of a p4c checkout, e.g." >&2; \
	    echo "    git clone --depth 1 https://github.com/p4lang/p4c /tmp/p4c" >&2; \
	    echo "    make conformance P4C_TESTDATA=/tmp/p4c/testdata" >&2; \
	    echo "(keep it outside this repository: p4c's files are never committed here)" >&2; \
	    exit 1; \
	fi
	$(PYTHON) tests/conformance/p4c_corpus.py $(P4C_TESTDATA)/p4_16_samples --jobs $(JOBS) $(CONFORMANCE_FLAGS)
	$(PYTHON) tests/conformance/p4c_corpus.py $(P4C_TESTDATA)/p4_16_errors --jobs $(JOBS) $(CONFORMANCE_FLAGS)

clean:
	rm -rf $(BUILD)
