"""A v1model switch for one header, compiled and run on pcap ports: what the backend tests of single
externs (random, assert, log_msg, registers) build.  The parser extracts `hdr.h` and nothing
else, the deparser emits it; Ing's and Eg's apply blocks are the test's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from p4odp.stf.pcap import write_pcap

__all__ = ["one_header_program", "compile_program", "build_switch", "run_on_frames"]


def one_header_program(fields: str, ingress: str, egress: str = "", ingress_locals: str = "",
                       globals: str = "") -> str:
    """The program's source: header h_t with `fields`; `ingress_locals` declared in Ing, `globals`
    before the header."""
    declarations = f"{globals}\n" if globals else ""  # no line of its own otherwise: positions stay
    return f"""\
#include <core.p4>
#include <v1model.p4>
{declarations}header h_t {{ {fields} }}
struct headers_t {{ h_t h; }}
struct meta_t {{ }}
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    state start {{ pkt.extract(hdr.h); transition accept; }}
}}
control Nop(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
{ingress_locals}
    apply {{
{ingress}
    }}
}}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{ apply {{ {egress} }} }}
control Dep(packet_out pkt, in headers_t hdr) {{ apply {{ pkt.emit(hdr.h); }} }}
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""


def compile_program(folder: Path, source: str, name: str) -> subprocess.CompletedProcess:
    """`p4odp compile` of `source`, written to `folder/name`, into `folder/out`."""
    (folder / name).write_text(source)
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(folder / name), "-o", str(folder / "out")],
                          capture_output=True, text=True)


def build_switch(folder: Path, source: str, name: str) -> Path:
    """The switch binary of `source`, which must compile."""
    build = compile_program(folder, source, name)
    assert build.returncode == 0, build.stderr
    return folder / "out" / "switch"


def run_on_frames(switch: Path, folder: Path, frames: list[bytes], *options: str) -> subprocess.CompletedProcess:
    """The switch run with `options` until it has forwarded `frames` from port 0 (folder/in.pcap) to
    port 1 (folder/out.pcap)."""
    write_pcap(str(folder / "in.pcap"), frames)
    return subprocess.run([str(switch), *options, "--exit-when-done", "-i", f"0=pcap:in={folder / 'in.pcap'}",
                           "-i", f"1=pcap:out={folder / 'out.pcap'}"], capture_output=True, text=True, timeout=60)
