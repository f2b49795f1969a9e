"""The transpiler: IR passes, then C emission through Jinja2 templates."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.transpiler.codegen import generate_model
from p4odp.transpiler.emit import render_datapath

__all__ = ["generate_c"]


def generate_c(program: ir.Program, source: str, diags: Diagnostics) -> Optional[dict[str, str]]:
    """The generated C files of `program` by name, or None after reporting why not."""
    model = generate_model(program, source, diags)
    if model is None:
        return None
    return {"datapath.c": render_datapath(model)}
