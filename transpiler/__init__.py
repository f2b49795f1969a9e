"""The transpiler: IR passes, then C emission through Jinja2 templates."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.transpiler.codegen import generate_model
from p4odp.transpiler.emit import render_datapath
from p4odp.transpiler.model import CProgram
from p4odp.transpiler.passes import PassOptions, midend

__all__ = ["transpile", "generate_c"]


def transpile(program: ir.Program, source: str, diags: Diagnostics, options: Optional[PassOptions] = None,
              line_directives: bool = True) -> Optional[CProgram]:
    """The C model of `program`: the midend's passes (`transpiler/passes/`), as `options`
    say, then code generation (`#line`s back to the P4 source unless told not to), with the
    program's P4Info, printed from the control-plane objects the midend listed; None after
    reporting why not."""
    from p4odp.controlplane.p4info import p4info  # here: it imports the transpiler's passes

    result = midend(program, diags, options)
    if result.program is None:
        return None
    info = p4info(result.control_plane, diags)
    if info is None:
        return None
    model = generate_model(result, source, diags, line_directives)
    if model is not None:
        model.p4info = info.SerializeToString(deterministic=True)
    return model


def generate_c(program: ir.Program, source: str, diags: Diagnostics, options: Optional[PassOptions] = None,
               line_directives: bool = True, template_dirs: tuple = ()) -> Optional[dict[str, str]]:
    """The generated C files of `program` by name, or None after reporting why not.
    `template_dirs` are searched before the built-in templates (a target's overrides)."""
    model = transpile(program, source, diags, options, line_directives)
    if model is None:
        return None
    return {"datapath.c": render_datapath(model, template_dirs, diags=diags)}
