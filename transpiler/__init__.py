"""The transpiler: IR passes, then C emission through Jinja2 templates."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.transpiler.codegen import generate_model
from p4odp.transpiler.emit import render_datapath
from p4odp.transpiler.passes import PassOptions, midend

__all__ = ["generate_c"]


def generate_c(program: ir.Program, source: str, diags: Diagnostics,
               options: Optional[PassOptions] = None) -> Optional[dict[str, str]]:
    """The generated C files of `program` by name, or None after reporting why not.

    The midend's passes (`transpiler/passes/`) run first, as `options` say."""
    result = midend(program, diags, options)
    if result.program is None:
        return None
    model = generate_model(result.program, source, diags)
    if model is None:
        return None
    return {"datapath.c": render_datapath(model)}
