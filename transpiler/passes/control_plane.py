"""control-plane: the program's control-plane objects, listed once.

Run after constant-folding (p4c's P4Info is made from the program its front end leaves: blocks
inlined, their entities named `Caller.instance.name`, constants folded, so that a table applied
only in a branch that cannot run is not listed), it records in `PassResult.control_plane` what a
controller sees, as p4c's P4Info lists it:

* every counter, meter, register, action profile and selector instance, and every digest instance
  (PSA's Digest<T>: P4Info's digest of T under the instance's name), at the top level and in each
  block of `main`, used or not;
* the tables each control applies, wherever the `apply` is (a table applied only after `exit`
  too: the dead-code pass keeps it, so that the switch has it, never applied);
* the actions those tables name (with `NoAction` for a table that names no default action) and
  those the blocks call (an action only other actions call is not one: p4c inlines it);
* the parser value sets a select uses;
* v1model's digests, those the controls send with digest() calls, each named once: a struct or a
  header by its type, anything else `digest_N` in the order of the calls; a call the later passes
  copy (an action called from two places) keeps its name;
* the headers annotated `@controller_header`.

P4Info (controlplane/p4info.py) is printed from it; dead-code keeps the tables and value sets it
lists, table-layout lays out the profiles it lists that no table names, and the C generator
names digests by it: what a controller sees is what the switch has
(tests/conformance/control_plane_walk.py checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc
from p4odp.transpiler.architectures import CORE, Architecture
from p4odp.transpiler.passes._walk import applied_tables, pipeline_blocks, walk
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["ControlPlane", "BlockObjects", "Digest", "ControlPlaneObjects", "property_of", "property_is"]


@dataclass(frozen=True)
class Digest:
    """A digest the program sends."""
    name: str  # as P4Info names it
    type: t.Type  # of the data
    loc: Loc  # of the first call that sends it


@dataclass(frozen=True)
class BlockObjects:
    """What one parser or control of `main` holds for the control plane."""
    block: ir.Node  # the ir.Parser or ir.Control
    actions: tuple  # ir.Action: those its tables name and those it calls, the top-level ones first
    in_tables: frozenset  # the names of the actions its tables name
    instances: tuple  # ir.Instance: its counters, meters, registers, profiles, selectors and digests
    tables: tuple  # ir.Table: those it applies
    digests: tuple  # Digest: those its digest() calls send, each once, in the order of the calls
    digest_calls: dict  # the name of the digest each call sends, by the call's position
    value_sets: tuple  # ir.ValueSet: those a select uses
    calls_extern_functions: bool  # a call of an extern function (P4Info then carries type_info)


@dataclass(frozen=True)
class ControlPlaneObjects:
    """The control-plane objects of a program, and the IR they are of (after constant folding)."""
    program: ir.Program
    architecture: Optional[Architecture]  # of `main`
    top_instances: tuple  # ir.Instance of the control-plane externs (Architecture.object_kinds), at the top level
    blocks: tuple  # BlockObjects of each block of main, in main's order
    controller_headers: tuple  # ir.Header annotated @controller_header and not @hidden

    def local_names(self) -> frozenset:
        """The IR names of the tables and value sets the control plane sees (the blocks' locals)."""
        return frozenset(d.name for block in self.blocks for d in (*block.tables, *block.value_sets))

    def digest_name(self, loc: Loc) -> str | None:
        """The name of the digest the call at `loc` sends (its copies made by later passes keep the
        position)."""
        return next((block.digest_calls[loc] for block in self.blocks if loc in block.digest_calls), None)


def property_of(table: ir.Table, name: str):
    """The table's property `name`, or None."""
    return next((p for p in table.properties if p.name == name), None)


def property_is(prop: ir.TableProperty, meaning: str, constant) -> Optional[bool]:
    """Whether a table property says `meaning`: an enum member of that name (PSA's
    `psa_idle_timeout = PSA_IdleTimeout_t.NOTIFY_CONTROL`) or, for "true", a boolean constant that is
    true (`constant(expr)` its value); None when it is neither a member nor a boolean constant."""
    if isinstance(prop.value, ir.Member) and isinstance(prop.value.type, t.EnumT):
        return prop.value.member == meaning
    value = constant(prop.value)
    return value is (meaning == "true") if isinstance(value, bool) else None


class ControlPlane:
    name = "control-plane"
    required = True  # P4Info and the switch's names are made from what it lists

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        top_actions = {d.name: d for d in program.declarations if isinstance(d, ir.Action)}
        top_functions = {d.name: d for d in program.declarations if isinstance(d, ir.Function)}
        types = {d.name: d for d in program.declarations if isinstance(d, (ir.Struct, ir.Header))}
        arch = ctx.result.architecture
        is_object = (arch or CORE).object_kind
        blocks = tuple(_block_objects(block, top_actions, top_functions, types, is_object)
                       for block in pipeline_blocks(program))
        ctx.result.control_plane = ControlPlaneObjects(
            program=program,
            architecture=arch,
            top_instances=tuple(d for d in program.declarations if is_object(d)),
            blocks=blocks,
            controller_headers=tuple(d for d in program.declarations if isinstance(d, ir.Header) and
                                     _annotation(d, "controller_header") and not _annotation(d, "hidden")))
        return program


def _annotation(decl, name: str) -> bool:
    return any(a.name == name for a in decl.annotations)


def _block_objects(block, top_actions: dict, top_functions: dict, types: dict, is_object) -> BlockObjects:
    instances = tuple(d for d in block.locals if is_object(d))
    if isinstance(block, ir.Parser):
        used = {n.name for state in block.states for n in walk(state) if isinstance(n, ir.PathExpression)}
        return BlockObjects(block, (), frozenset(), instances, (), (), {},
                            tuple(d for d in block.locals if isinstance(d, ir.ValueSet) and d.name in used), False)
    locals_ = {d.name: d for d in block.locals}
    keys = [property_of(d, "key") for d in block.locals if isinstance(d, ir.Table)]
    called = [node.method.name for root in (block.body, *(k for k in keys if k is not None)) for node in walk(root)
              if isinstance(node, ir.MethodCall) and isinstance(node.method, ir.PathExpression)]
    applied = applied_tables(block)
    tables = tuple(d for d in block.locals if isinstance(d, ir.Table) and d.name in applied)
    named: list[str] = []
    for table in tables:
        actions = property_of(table, "actions")
        named.extend(ref.name for ref in (actions.value if actions is not None else ()))
        default = property_of(table, "default_action")
        named.append(default.value.name if default is not None else "NoAction")
        entries = property_of(table, "entries")
        named.extend(entry.action.name for entry in (entries.value if entries is not None else ()))
    names = [n for n in named + called if isinstance(locals_.get(n), ir.Action) or n in top_actions]
    global_first = [n for n in dict.fromkeys(names) if not isinstance(locals_.get(n), ir.Action)]
    actions = tuple([top_actions[n] for n in global_first] +
                    [d for d in block.locals if isinstance(d, ir.Action) and d.name in names])
    listed = {a.name for a in actions}
    callees = {**top_functions, **top_actions, **{n: d for n, d in locals_.items() if isinstance(d, ir.Action)}}
    digests: list[Digest] = []
    calls: dict[Loc, str] = {}
    extern_calls = False
    anonymous = 0  # p4c numbers a block's digests of no named type from 0
    for node, inlined in _calls(block.body, *(a.body for a in actions), callees=callees, listed=listed):
        callee = node.method.name  # an extern function, unless an action or a function
        extern_calls |= not inlined and callee not in callees
        if callee != "digest" or len(node.args) != 2 or node.loc in calls:
            continue
        typ = node.args[1].value.type
        if isinstance(typ, t.StructLike) and typ.kind in ("struct", "header"):
            name = ir.type_control_name(types[typ.name]) if typ.name in types else typ.name
        else:
            name, anonymous = f"digest_{anonymous}", anonymous + 1
        calls[node.loc] = name
        if all(d.name != name for d in digests):
            digests.append(Digest(name, typ, node.loc))
    return BlockObjects(block, actions, frozenset(named), instances, tables, tuple(digests), calls, (), extern_calls)


def _calls(*bodies, callees: dict, listed: set, inlined: bool = False):
    """(call, inlined) of the calls of plain names in `bodies`, in order, and in the bodies of the
    actions (those not `listed`: p4c inlines them) and functions they call, as if inlined there."""
    for body in bodies:
        for node in walk(body):
            if isinstance(node, ir.MethodCall) and isinstance(node.method, ir.PathExpression):
                yield node, inlined
                callee = callees.get(node.method.name)
                if callee is not None and node.method.name not in listed:
                    yield from _calls(callee.body, callees=callees, listed=listed | {node.method.name}, inlined=True)
