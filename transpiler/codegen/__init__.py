"""From the typed IR of a program to the C-shaped model of its datapath.

The walk starts at `main`, the instance of its architecture's package: each of
its parsers and controls becomes a C function (the architecture's pipeline
template joins them), its tables and actions become control-plane metadata.
Parser and control instances are gone by then (the midend's inlining pass).
Calls of actions and functions are gone too (call-expansion): a table's
actions are printed in its switch, their parameters loaded from the action data.

What this generator cannot translate yet is reported as a positioned error,
never as a crash.

`program` walks the program; `function` generates each block's C function from the mixins
of `statements`, `expressions`, `wide`, `calls`, `packets` and `tables`; `scope` says what
names mean.
"""

from __future__ import annotations

from typing import Optional

from p4odp.diagnostics import Diagnostics, Loc, Unsupported
from p4odp.transpiler.architectures import broken_plugins
from p4odp.transpiler.codegen.program import Generator
from p4odp.transpiler.model import CProgram
from p4odp.transpiler.passes.manager import PassResult

__all__ = ["generate_model"]

PLUGINS = Loc("<plugins>", 0, 0)


def generate_model(result: PassResult, source: str, diags: Diagnostics,
                   line_directives: bool = True) -> Optional[CProgram]:
    """The C model of the midend's `result`: its program, its scalar types stored as `c_types` says,
    its tables as `table_layouts` lays them out (the type-lowering and table-layout passes'
    choices); `line_directives` adds `#line`s back to the P4 source."""
    for broken in broken_plugins():  # what it would have added may be what the program needs
        diags.warning(PLUGINS, f"{broken}; left out")
    try:
        return Generator(result, source, line_directives).run()
    except Unsupported as err:
        diags.error(err.loc, str(err))
        return None
