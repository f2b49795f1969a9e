"""`p4odp ptf`: PTF (the ptf package, from an environment of its own, build/ptf-VERSION) runs test
suites against a switch on veth pairs in a network namespace the run makes and removes, the
switch programmed through P4Runtime by the tests (p4odp.ptfharness.base_test)."""

from __future__ import annotations

import ast
import contextlib
import os
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import pytest
from support import netns, pip_environment, require_debian, require_root

REPO = Path(__file__).resolve().parents[2]
PTF_VERSION = "0.12.0"
SCAPY_VERSION = "2.8.0"


@pytest.fixture(scope="module", autouse=True)
def namespaces_usable():
    """p4odp ptf makes network namespaces: a skip, saying why, where it cannot."""
    require_root("p4odp ptf, which makes network namespaces,")
    with netns(f"p4odp-probe-{os.getpid()}"):
        pass


@pytest.fixture(scope="module")
def ptf_command() -> Path:
    """The ptf command of an environment that also sees p4odp; a skip when ptf cannot be installed."""
    # ptf's netifaces has no wheel for every Python: pip builds it, with Python's headers.
    require_debian({"python3-dev": f"test -e {sysconfig.get_path('include')}/Python.h"}, "ptf's netifaces")
    python = pip_environment(f"ptf-{PTF_VERSION}", [f"ptf=={PTF_VERSION}", f"scapy=={SCAPY_VERSION}"],
                             beside_tests=True)
    return python.parent / "ptf"


def p4odp_ptf(ptf_command: Path, *args: str) -> subprocess.CompletedProcess:
    """The run; its `args` are followed by the process id, which names its namespace."""
    process = subprocess.Popen([sys.executable, "-m", "p4odp.cli", "ptf", *args, "--ptf", str(ptf_command)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    stdout, stderr = process.communicate(timeout=600)
    return subprocess.CompletedProcess([*args, process.pid], process.returncode, stdout, stderr)


def running(binary: Path) -> list[int]:
    """The processes whose command line names `binary` (what procps's pgrep -f finds)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            if str(binary).encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
    return found


def namespaces() -> list[str]:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in listed.splitlines()]


def ptf_tests(folder: Path) -> int:
    """The number of tests in a folder of PTF test modules: the classes that define runTest."""
    return sum(isinstance(node, ast.ClassDef) and any(isinstance(item, ast.FunctionDef) and item.name == "runTest"
                                                      for item in node.body)
               for module in folder.glob("*.py") for node in ast.parse(module.read_text()).body)


EXAMPLES = sorted(p.name for p in (REPO / "examples").iterdir() if (p / "ptf").is_dir())


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_examples_ptf_suites_pass(ptf_command: Path, example: str):
    tests = ptf_tests(REPO / "examples" / example / "ptf")
    run = p4odp_ptf(ptf_command, f"examples/{example}/{example}.p4", f"examples/{example}/ptf")
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Ran {tests} tests" in run.stderr and "\nOK" in run.stderr


def test_every_example_has_a_ptf_suite():
    assert {"l2fwd", "l3fwd"} <= set(EXAMPLES)
    programs = [p.name for p in (REPO / "examples").iterdir() if (p / f"{p.name}.p4").exists()]
    missing = sorted(set(programs) - set(EXAMPLES))
    assert not missing, f"examples without a ptf/ folder: {missing}"


# A program that sends LLDP frames to the CPU port and a controller's packets where their header says.
PACKET_IO = """\
#include <core.p4>
#include <v1model.p4>
@controller_header("packet_in") header packet_in_t { bit<9> ingress_port; bit<7> _pad; }
@controller_header("packet_out") header packet_out_t { bit<9> egress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> ether_type; }
struct headers_t { packet_out_t packet_out; packet_in_t packet_in; ethernet_t ethernet; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition select(sm.ingress_port) { 64: from_cpu; default: ethernet; } }
    state from_cpu { pkt.extract(hdr.packet_out); transition ethernet; }
    state ethernet { pkt.extract(hdr.ethernet); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else if (hdr.ethernet.ether_type == 0x88cc) {
            sm.egress_spec = 64;
        } else {
            mark_to_drop(sm);
        }
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (sm.egress_port == 64) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = sm.ingress_port;
        }
    }
}
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.ethernet); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""

PACKET_IO_TESTS = '''\
from ptf import testutils
from p4odp.ptfharness.base_test import P4RuntimeTest

LLDP = testutils.simple_eth_packet(eth_dst="01:80:c2:00:00:0e", eth_src="00:00:00:00:00:07", eth_type=0x88cc)
OTHER = testutils.simple_eth_packet(eth_dst="00:00:00:00:00:02", eth_src="00:00:00:00:00:07", eth_type=0x88b5)


class PacketIn(P4RuntimeTest):
    def runTest(self):
        testutils.send_packet(self, 1, LLDP)
        payload, metadata = self.packet_in()
        self.assertEqual((payload, metadata), (bytes(LLDP), {"ingress_port": 1, "_pad": 0}))
        testutils.send_packet(self, 1, OTHER)
        self.assertIsNone(self.packet_in(timeout=0.3))


class PacketOut(P4RuntimeTest):
    def runTest(self):
        self.packet_out(bytes(OTHER), egress_port=2, _pad=0)
        testutils.verify_packets(self, OTHER, [2])
'''


def test_packet_in_and_packet_out_through_the_cpu_port(ptf_command: Path, tmp_path: Path):
    (tmp_path / "packet_io.p4").write_text(PACKET_IO)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "packet_io_tests.py").write_text(PACKET_IO_TESTS)
    run = p4odp_ptf(ptf_command, str(tmp_path / "packet_io.p4"), str(tmp_path / "tests"), "--ports", "3",
                    "--cpu-port", "64")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Ran 2 tests" in run.stderr


PSA_ROUTES_TESTS = '''\
from ptf import testutils
from p4odp.ptfharness.base_test import P4RuntimeTest


class RoutedByItsEntry(P4RuntimeTest):
    def runTest(self):
        self.insert("routes", {"hdr.h.a": 7}, "fwd", port=2, cell=1)
        testutils.send_packet(self, 1, bytes([7, 0]) + bytes(58))
        testutils.verify_packets(self, bytes([7, 0]) + bytes(58), [2])
        testutils.send_packet(self, 1, bytes([8, 0]) + bytes(58))  # no entry: PSA drops it
        testutils.verify_no_other_packets(self)
'''


def test_a_psa_program_is_tested_the_same_way(ptf_command: Path, tmp_path: Path):
    from psa_switch import psa_program

    program = psa_program("bit<8> a; bit<8> b;", ingress="        ingress_drop(ostd);\n        routes.apply();",
                          ingress_locals="""\
    Counter<bit<32>, bit<8>>(16, PSA_CounterType_t.PACKETS) hits;
    action fwd(PortId_t port, bit<8> cell) { send_to_port(ostd, port); hits.count(cell); }
    table routes { key = { hdr.h.a: exact; } actions = { fwd; NoAction; } }""")
    (tmp_path / "psa_routes.p4").write_text(program)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "psa_routes_tests.py").write_text(PSA_ROUTES_TESTS)
    run = p4odp_ptf(ptf_command, str(tmp_path / "psa_routes.p4"), str(tmp_path / "tests"), "--ports", "3")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Ran 1 test" in run.stderr


def test_a_failing_test_fails_the_run_which_leaves_nothing_behind(ptf_command: Path, tmp_path: Path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "wrong_tests.py").write_text(textwrap.dedent('''\
        from ptf import testutils
        from p4odp.ptfharness.base_test import P4RuntimeTest

        class WrongPort(P4RuntimeTest):
            def runTest(self):
                self.insert("ipv4_lpm", {"dstAddr": ("10.0.1.0", 24)}, "ipv4_forward",
                            dstAddr="00:00:00:00:01:01", port=1)
                packet = testutils.simple_tcp_packet(ip_dst="10.0.1.5")
                testutils.send_packet(self, 0, packet)
                testutils.verify_packets(self, packet, [2])  # it goes to port 1, rewritten
        '''))
    run = p4odp_ptf(ptf_command, "examples/l3fwd/l3fwd.p4", str(tmp_path / "tests"), "--keep", str(tmp_path / "run"))
    assert run.returncode == 1
    assert "wrong_tests.WrongPort ... FAIL" in run.stderr
    assert f"p4odp-ptf-{run.args[-1]}" not in namespaces()
    assert (tmp_path / "run" / "ptf.log").exists() and (tmp_path / "run" / "switch.log").exists()


def test_a_missing_test_folder_is_an_error(ptf_command: Path):
    run = p4odp_ptf(ptf_command, "examples/l3fwd/l3fwd.p4", "no/such/folder")
    assert run.returncode == 1 and "no/such/folder: no such folder of PTF tests" in run.stderr


def test_sigterm_ends_the_run_and_removes_what_it_made(ptf_command: Path, tmp_path: Path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "slow_tests.py").write_text(textwrap.dedent('''\
        import time
        from p4odp.ptfharness.base_test import P4RuntimeTest

        class Slow(P4RuntimeTest):
            def runTest(self):
                time.sleep(120)
        '''))
    run = tmp_path / "run"
    process = subprocess.Popen([sys.executable, "-m", "p4odp.cli", "ptf", "examples/l3fwd/l3fwd.p4",
                                str(tmp_path / "tests"), "--keep", str(run), "--ptf", str(ptf_command)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        deadline = time.monotonic() + 120
        while not (run / "ptf.log").exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
        assert f"p4odp-ptf-{process.pid}" in namespaces()
        process.terminate()
        process.communicate(timeout=60)
    finally:
        process.kill()
    assert f"p4odp-ptf-{process.pid}" not in namespaces()
    assert not running(run / "switch")  # none left
