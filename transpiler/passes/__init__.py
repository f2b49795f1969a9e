"""The midend: passes over the typed IR, run by a pass manager before C generation.

    result = midend(program, diags, PassOptions(verbose=True))
    result.program            # the IR after the passes (None after an error)
    result.table_structures   # {"MyIngress.ipv4_lpm": "dir-24-8", ...}

The passes, in the order they run (`p4odp compile --skip-pass NAME` leaves
one out, `--dump-after NAME|all` writes the IR after it):

* `inlining` (inlining.py): parser and control instances inlined where they
  are applied, their constructor parameters replaced by their arguments;
* `unique-names` (unique_names.py): every declaration but top-level ones and
  parameters of actions and functions renamed so that no two share a name;
  later stages look names up in its `NameTable` instead of keeping scopes;
* `constant-folding` (constant_folding.py): constants replaced by their
  values, constant expressions folded, `if (true)`/`if (false)` simplified;
* `control-plane` (control_plane.py): the control-plane objects (tables,
  actions, extern instances, value sets, digests, controller headers) listed
  once in `PassResult.control_plane`, as P4Info lists them: P4Info is printed
  from it, and the switch has each of them;
* `side-effect-ordering` (side_effects.py): every call with an effect made
  a statement of its own (or the whole value of an assignment), in P4's
  left-to-right and short-circuit order, through temporaries `tmp$N`;
* `call-expansion` (call_expansion.py): each call of an action or function
  replaced by the callee's body, parameters copied in and out, `return`
  and `exit` as flags; the actions tables run keep only the parameters the
  control plane supplies (those a table binds make a specialized copy);
* `dead-code` (dead_code.py): unreachable statements and parser states,
  unused tables (but those the control plane sees), actions, functions and
  local variables removed;
* `type-lowering` (type_lowering.py): the C representation of each scalar
  type chosen and recorded in `PassResult.c_types`;
* `packet-alignment` (packet_alignment.py): the parsers and deparsers whose
  every header starts at a whole byte, recorded in `PassResult.byte_aligned`;
* `deparse-in-place` (deparse_in_place.py): when the deparser emits the
  headers the parser read, in that order, and the program only writes their
  fields, the fields it may write per header, recorded in
  `PassResult.deparse_in_place`: the deparser then writes only those, in the
  packet itself (nothing at all for a program that writes no header);
* `table-structures` (table_structures.py): each table's lookup structure
  chosen and recorded in `PassResult.table_structures`;
* `table-layout` (table_layout.py): each table's key layout, actions with
  their ids and data layout, default action, size and const entries, recorded
  in `PassResult.table_layouts` and `PassResult.actions`;
* `burst-lookup` (burst_lookup.py): the tables whose key is whole bytes
  of headers the parser reads at fixed places, with where those bytes are,
  recorded in `PassResult.burst_lookups`: the traffic manager looks a whole
  burst's keys up in them before running it;
* `unread-fields` (unread_fields.py): the header fields nothing reads (with
  deparse-in-place, an L2 switch reads only the destination MAC), recorded
  per header type in `PassResult.unread_fields`: the parser does not load them;
  and the architecture's metadata fields the program reads, in
  `PassResult.metadata_read`: the pipeline sets no others.

Every pass keeps the switch's behaviour: what it cannot prove it leaves alone.

`PassOptions(validate=True)` (`p4odp compile --validate-ir`, or
`P4ODP_VALIDATE_IR=1`) checks the IR's invariants on the front end's output
and after each pass (validate.py); a broken one is an `InternalError` naming
the pass that broke it.
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.transpiler.passes.call_expansion import CallExpansion
from p4odp.transpiler.passes.constant_folding import ConstantFolding
from p4odp.transpiler.passes.control_plane import ControlPlane
from p4odp.transpiler.passes.dead_code import DeadCode
from p4odp.transpiler.passes.deparse_in_place import DeparseInPlace
from p4odp.transpiler.passes.inlining import Inlining
from p4odp.transpiler.passes.manager import Pass, PassContext, PassManager, PassOptions, PassResult, ir_pass
from p4odp.transpiler.passes.packet_alignment import PacketAlignment
from p4odp.transpiler.passes.side_effects import SideEffectOrdering
from p4odp.transpiler.passes.table_layout import TableLayouts
from p4odp.transpiler.passes.burst_lookup import BurstLookup
from p4odp.transpiler.passes.table_structures import TableStructures
from p4odp.transpiler.passes.type_lowering import TypeLowering
from p4odp.transpiler.passes.unique_names import CALLABLES, NameTable, UniqueNames
from p4odp.transpiler.passes.unread_fields import UnreadFields

__all__ = ["Pass", "PassContext", "PassManager", "PassOptions", "PassResult", "ir_pass", "default_passes",
           "midend", "control_plane_passes", "CALLABLES", "NameTable", "Inlining", "UniqueNames", "ConstantFolding",
           "ControlPlane", "DeadCode",
           "SideEffectOrdering", "CallExpansion", "TypeLowering", "PacketAlignment", "DeparseInPlace",
           "TableStructures", "TableLayouts", "BurstLookup", "UnreadFields"]


def control_plane_passes() -> list[Pass]:
    """The first passes of the midend, those that decide the control-plane objects (P4Info alone
    needs no more)."""
    return [Inlining(), UniqueNames(), ConstantFolding(), ControlPlane()]


def default_passes() -> list[Pass]:
    """The midend's passes, in the order they run."""
    return [*control_plane_passes(), SideEffectOrdering(), CallExpansion(), DeadCode(), TypeLowering(),
            PacketAlignment(), DeparseInPlace(), TableStructures(), TableLayouts(), BurstLookup(), UnreadFields()]


def midend(program: ir.Program, diags: Diagnostics, options: Optional[PassOptions] = None) -> PassResult:
    """Run the default passes on `program`."""
    return PassManager(default_passes()).run(program, diags, options)
