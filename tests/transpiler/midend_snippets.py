"""Helpers shared by the midend's tests: v1model programs from snippets, passes run on them.

`v1model(...)` fills a small v1model program (one header `h` of fields `a`,
`b` (bit<8>), `s` (int<8>) and `w` (bit<16>), metadata `m`) with the given
pieces; `load` runs the front end on any source; `run` runs passes through the
pass manager and returns its `PassResult`.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path
from typing import Iterable, Optional

import pytest

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.transpiler.passes import Pass, PassManager, PassOptions, PassResult
from p4odp.transpiler.passes._walk import walk

__all__ = ["v1model", "load", "run", "decl", "nodes", "the", "ingress", "stf", "REPO"]

REPO = Path(__file__).resolve().parents[2]

_TEMPLATE = """\
#include <core.p4>
#include <v1model.p4>

header h_t {{
    bit<8>  a;
    bit<8>  b;
    int<8>  s;
    bit<16> w;
}}
struct headers_t {{ h_t h; }}
struct meta_t {{ bit<8> m; }}

{globals}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
{parser}
}}

control VC(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
{locals}
    apply {{
{body}
    }}
}}

control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{ apply {{ }} }}
control CC(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control Dep(packet_out pkt, in headers_t hdr) {{ apply {{ pkt.emit(hdr.h); }} }}

V1Switch(P(), VC(), Ing(), Eg(), CC(), Dep()) main;
"""

_PARSER = """\
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }"""


def v1model(body: str = "", locals: str = "", globals: str = "", parser: str = _PARSER) -> str:
    """A v1model program: `body` is Ing's apply block, `locals` its declarations."""
    def indent(text: str, by: str) -> str:
        return textwrap.indent(textwrap.dedent(text).strip("\n"), by)

    return _TEMPLATE.format(globals=textwrap.dedent(globals).strip("\n"), parser=indent(parser, ""),
                            locals=indent(locals, "    "), body=indent(body, "        "))


def load(tmp_path: Path, source: str, name: str = "prog.p4") -> ir.Program:
    """The typed IR of `source`, written to `tmp_path/name`; the front end must accept it."""
    path = tmp_path / name
    path.write_text(source)
    diags = Diagnostics(max_errors=1000)
    program = load_program(str(path), FrontendOptions(), diags)
    assert program is not None, [f"{d.loc}: {d.message}" for d in diags.items]
    return program


def run(program: ir.Program, passes: Iterable[Pass], options: Optional[PassOptions] = None,
        diags: Optional[Diagnostics] = None) -> PassResult:
    result = PassManager(passes).run(program, diags or Diagnostics(), options)
    assert result.program is not None, result.reports
    return result


def nodes(root: ir.Node, cls: type = ir.Node) -> list:
    return [n for n in walk(root) if isinstance(n, cls)]


def decl(program: ir.Program, name: str, cls: type = ir.Declaration):
    """The declaration `name` of class `cls` at any depth; None if there is none."""
    found = [n for n in walk(program) if isinstance(n, cls) and getattr(n, "name", None) == name]
    assert len(found) <= 1, f"{len(found)} declarations {name}"
    return found[0] if found else None


def the(program: ir.Program, name: str, cls: type = ir.Declaration):
    found = decl(program, name, cls)
    assert found is not None, f"no {cls.__name__} {name}"
    return found


def ingress(program: ir.Program) -> ir.Control:
    return the(program, "Ing", ir.Control)


def stf(tmp_path: Path, program: ir.Program, source_path: Path, test: str, name: str = "test"):
    """Build `program` into a switch and run the STF test `test` on it; the `StfResult`."""
    from p4odp.backend.build import BuildOptions
    from p4odp.plugins import load_targets
    from p4odp.stf.runner import run_stf

    if shutil.which(os.environ.get("CC", "gcc")) is None:
        pytest.skip("no C compiler")
    stf_path = tmp_path / f"{name}.stf"
    stf_path.write_text(textwrap.dedent(test))
    diags = Diagnostics()
    result = run_stf(program, str(source_path), str(stf_path), load_targets()["targets"]["x86"], BuildOptions(),
                     tmp_path / name, diags)
    assert result is not None, [f"{d.loc}: {d.message}" for d in diags.items]
    return result
