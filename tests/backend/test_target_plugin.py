"""The out-of-tree target of examples/target-plugin, installed into a fresh virtual environment,
builds a switch that forwards as x86's does and runs its template override."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from p4odp.stf.pcap import read_packets, write_pcap
from support import venv_beside_this_one

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "target-plugin"
L3FWD = ROOT / "examples" / "l3fwd"


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory) -> Path:
    """A new virtual environment that sees this Python's packages (p4odp, Jinja2) and has the
    plugin installed with pip (which fetches its build backend); returns its python."""
    python = venv_beside_this_one(tmp_path_factory.mktemp("plugin-venv"))
    source = tmp_path_factory.mktemp("plugin-src") / PLUGIN.name
    shutil.copytree(PLUGIN, source)  # setuptools builds in the source folder: not in the repository
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-cache-dir", str(source)],
                             capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stdout + install.stderr
    return python


def _p4odp(python: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "p4odp.cli", *args], capture_output=True, text=True, timeout=300,
                          **kwargs)


def test_plugin_target_is_listed(plugin_env):
    listed = _p4odp(plugin_env, "targets")
    assert listed.returncode == 0, listed.stderr
    assert "x86-trace: x86 with a trace line" in listed.stdout
    # Not in the environment that runs the tests: the core knows nothing of it.
    assert "x86-trace" not in _p4odp(Path(sys.executable), "targets").stdout


def _run_switch(binary: Path, work: Path) -> tuple[dict, str]:
    subprocess.run([sys.executable, str(L3FWD / "make_pcap.py"), str(work / "in.pcap")], check=True)
    write_pcap(str(work / "empty.pcap"), [])
    argv = [str(binary), "--exit-when-done", "--commands", str(L3FWD / "commands.txt"),
            "-i", f"0=pcap:in={work / 'in.pcap'}:out={work / 'out0.pcap'}"]
    for port in (1, 2, 3):
        argv += ["-i", f"{port}=pcap:in={work / 'empty.pcap'}:out={work / f'out{port}.pcap'}"]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return {port: read_packets(str(work / f"out{port}.pcap")) for port in range(4)}, run.stderr


def test_plugin_target_builds_and_runs_a_switch(plugin_env, tmp_path):
    outputs = {}
    for target in ("x86", "x86-trace"):
        out = tmp_path / target
        built = _p4odp(plugin_env, "compile", str(L3FWD / "l3fwd.p4"), "--target", target, "-o", str(out))
        assert built.returncode == 0, built.stderr
        outputs[target] = _run_switch(out / "switch", out)
    packets, trace = outputs["x86-trace"]
    assert packets == outputs["x86"][0]
    sent = [line for line in trace.splitlines() if line.startswith("trace: port 0 -> port ")]
    assert len(sent) == sum(len(p) for p in packets.values()) > 0
    for port, frames in packets.items():
        lengths = [int(line.split(", ")[1].split()[0]) for line in sent if f"-> port {port}," in line]
        assert lengths == [len(frame) for frame in frames]
    assert "trace:" not in outputs["x86"][1]
    assert "target/packet_io.c.j2" in (tmp_path / "x86-trace" / "datapath.c").read_text()


EXTERN_PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
extern void extern_func(out bit<32> d, bit<32> s);
header h_t { bit<32> a; bit<32> b; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 1; extern_func(hdr.h.a, 0xff); }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""


def test_plugin_extern_function_runs_its_own_c(plugin_env, tmp_path):
    (tmp_path / "ext.p4").write_text(EXTERN_PROGRAM)
    (tmp_path / "ext.stf").write_text("packet 0 00000000 000000fe\nexpect 1 000000ff 000000fe $\n")  # a = extern_func's s, 0xff
    passed = _p4odp(plugin_env, "stf", str(tmp_path / "ext.p4"), str(tmp_path / "ext.stf"), "--keep",
                    str(tmp_path / "run"))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "static inline uint32_t trace_extern_func" in (tmp_path / "run" / "datapath.c").read_text()
    # Without the plugin the core refuses the call, with its place, and says how it can be provided.
    refused = _p4odp(Path(sys.executable), "compile", str(tmp_path / "ext.p4"), "-o", str(tmp_path / "core"))
    assert refused.returncode == 1
    assert ("ext.p4:12:33: error: not supported by the C generator yet: the extern function extern_func (v1model "
            "has no extern extern_func: a target plugin can provide its C; see 'To add an extern' in the README)") \
        in refused.stderr, refused.stderr
