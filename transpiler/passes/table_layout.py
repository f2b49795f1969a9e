"""table-layout: how each table of the pipeline is keyed, which actions it runs with which data.

For each table declared in a block of `main` (after inlining, every table the
switch applies), this pass decides what the C generator then only prints and
records it in `PassResult.table_layouts` (by the table's name in the IR):

* the key: each field's control-plane name (its `@name`, else its text, as
  p4c names it), width, match kind, and where its bits go in the key bytes:
  fields in order, each in whole bytes, right-aligned (big-endian);
* the actions and the layout of the action data the control plane
  supplies: after call-expansion, every parameter of a table's action, each
  in whole bytes, in order; action ids are program-wide
  (`PassResult.actions`), in order of first use;
* the default action (`NoAction` when the table names none) and its data;
* the size (simple_switch's 1024 when none is given) and the lookup
  structure the table-structures pass chose;
* const entries as control-plane commands: `ACTION KEY... => DATA...
  [PRIORITY]`, with the smaller priority winning as in simple_switch_CLI;
  and, for the tables the table-structures pass compiles to code, as
  value/mask pairs and ranges with their action data, in the order a lookup
  tries them (the first that matches wins, as the runtime's rules say).

* the direct counter its `counters` property names, which counts each hit
  of an entry in the cell of the entry's index, and the direct meter its
  `meters` property names, which meters each hit in the same way.
* the action profile or selector its `implementation` property names or
  constructs (`PassResult.action_profiles`, shared by the tables that name
  the same instance): its entries then name a member or a group of members
  of the profile (4 bytes of data, a handle), not an action, and a
  selector's `selector` key fields, which are not looked up, pick a member
  of a group by their hash.

* whether its entries have idle timeouts (`support_timeout = true`): the
  runtime then keeps the time each entry was last hit, per worker, and
  reports entries idle past the timeout the control plane gave them.

Table properties other than `key`, `actions`, `default_action`, `size`,
`entries`, `counters`, `meters`, `implementation` and `support_timeout` are refused, with their
position, unless they are a constant `false` (e.g. `add_on_miss = false`), which asks for nothing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Refused, Unsupported
from p4odp.frontend.const_eval import evaluate
from p4odp.frontend.tables import PRIORITIZED_MATCH_KINDS, entry_priority_source, keyset_elements
from p4odp.transpiler.architectures import CORE
from p4odp.transpiler.key_names import key_name, param_name
from p4odp.transpiler.passes._walk import error_names, pipeline_blocks
from p4odp.transpiler.passes.control_plane import property_is
from p4odp.transpiler.passes.manager import PassContext
from p4odp.transpiler.passes.table_structures import table_size, top_level_constants
from p4odp.transpiler.passes.unique_names import NameTable

__all__ = ["TableLayout", "KeyField", "TableAction", "ActionLayout", "DataField", "TableLayouts", "FieldMatch",
           "ConstEntry", "ProfileLayout", "MATCH_KINDS", "INDIRECT_DATA_BYTES"]

MATCH_KINDS = ("exact", "lpm", "ternary", "range", "optional")
# Properties of the architectures that change what a table does, which p4odp does not do yet; any
# other property the program names is a target's own, ignored with a warning.
_SEMANTIC_PROPERTIES = ("add_on_miss", "idle_timeout_with_auto_delete")
_MAX_PRIORITY = (1 << 24) - 1
_INT32_MAX = (1 << 31) - 1
INDIRECT_DATA_BYTES = 4  # an indirect table's entry: the handle of a member or a group


@dataclass(frozen=True)
class KeyField:
    name: str  # control-plane name
    width: int
    match_kind: str  # one of MATCH_KINDS
    expr: ir.Expression  # what is looked up
    bit_offset: int  # where its bits start in the key bytes
    signed: bool  # an int<W>


@dataclass(frozen=True)
class DataField:
    name: str  # the parameter's control-plane name
    width: int
    byte_offset: int  # where it starts in the action data
    signed: bool  # an int<W>


@dataclass(frozen=True)
class ActionLayout:
    id: int
    name: str  # control-plane name
    data: tuple  # tuple[DataField, ...]: the parameters the control plane supplies


@dataclass(frozen=True)
class TableAction:
    action: str  # the action's name in the IR
    id: int


@dataclass(frozen=True)
class FieldMatch:
    """How one key field matches: (key & mask) == value, and low <= key <= high."""

    value: int
    mask: int  # 0: any value (range fields: 0)
    low: int
    high: int  # the field's largest value unless it is a range


@dataclass(frozen=True)
class ConstEntry:
    """A const entry: what the runtime's table is given at start, and what the generated C of a table
    compiled to code tries."""

    matches: tuple  # tuple[FieldMatch, ...], one per key field
    priority: int  # the runtime's (P4Runtime's: the larger wins); 0 where priorities do not count
    action: str  # the action's name in the IR
    action_id: int
    data: tuple  # its action data bytes, as the control plane would lay them out


@dataclass(frozen=True)
class ProfileLayout:
    """An action profile, or with `algorithm` an action selector: the members (an action and its data)
    and groups of members that the entries of its tables name."""

    index: int  # profiles are numbered in the order the tables name them
    name: str  # control-plane name
    size: int  # members, and groups
    algorithm: Optional[str]  # a selector's HashAlgorithm member; None for an action_profile
    actions: tuple = ()  # the ids of its tables' actions: those a member may run
    data_bytes: int = 0  # the largest action data of those


def _selector_algorithm(args: tuple) -> Optional[str]:
    """The HashAlgorithm member an action_selector's first argument names, None when it is no constant."""
    algo = args[0].value if args else None
    return algo.member if isinstance(algo, ir.Member) and isinstance(algo.expr.type, t.TypeT) else None


@dataclass(frozen=True)
class TableLayout:
    index: int  # tables are numbered in the order of the pipeline's blocks
    name: str  # control-plane name
    keys: tuple  # tuple[KeyField, ...]
    key_bytes: int
    actions: tuple  # tuple[TableAction, ...]
    data_bytes: int  # the largest action data
    default_action: int
    default_data: tuple  # its data bytes
    default_const: bool
    size: int
    entries: tuple  # tuple[ConstEntry, ...]: the const entries in program order
    structure: str  # the table-structures pass's choice, "auto" when it did not run
    code_entries: tuple = ()  # structure "code": its entries in the order they are tried
    direct_counter: str = ""  # the IR name of the direct_counter instance its `counters` property names
    direct_meter: str = ""  # the IR name of the direct_meter instance its `meters` property names
    profile: str = ""  # its `implementation`: the key of its ProfileLayout in PassResult.action_profiles
    selector: tuple = ()  # tuple[KeyField, ...]: an action selector's key fields, which the lookup ignores
    idle_timeout: bool = False  # `support_timeout = true`: its entries' hits are timed
    learner: bool = False  # PNA's `add_on_miss = true`: the datapath adds its entries (add_entry)


class TableLayouts:
    name = "table-layout"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        builder = _Builder(program, ctx)
        for block in pipeline_blocks(program):
            for decl in block.locals:
                if isinstance(decl, ir.Table):
                    layout = builder.table(decl)
                    if layout is not None:
                        ctx.result.table_layouts[decl.name] = layout
                        ctx.report(f"table {layout.name}: {layout.key_bytes}-byte key, {len(layout.actions)} "
                                   f"action(s), {layout.data_bytes}-byte action data", decl.loc)
        # A profile or selector no table names is a control-plane object all the same (P4Info lists
        # every instance): the switch has it, with no action its members may run.
        objects = ctx.result.control_plane
        for instance in (*objects.top_instances, *(d for found in objects.blocks for d in found.instances)):
            kind = builder.arch.object_kind(instance)
            if kind in ("action_profile", "action_selector") and instance.name not in ctx.result.action_profiles:
                builder.profile_layout(instance.name, instance.control_name or instance.name, kind,
                                       instance.args, _selector_algorithm(instance.args))
        return program


class _Builder:
    def __init__(self, program: ir.Program, ctx: PassContext) -> None:
        self.names = NameTable(program)
        self.ctx = ctx
        self.arch = ctx.result.architecture or CORE
        self.constants = top_level_constants(program)
        self.error_codes = {name: code for code, name in enumerate(error_names(program))}
        self.actions = ctx.result.actions

    def table(self, table: ir.Table) -> Optional[TableLayout]:
        try:
            return self.layout(table)
        except Unsupported as err:
            self.ctx.diags.error(err.loc, str(err))
            return None

    def const_int(self, expr: Optional[ir.Expression]) -> Optional[int]:
        if expr is None:
            return None
        if isinstance(expr, ir.Member) and isinstance(expr.expr.type, t.TypeT) and \
                isinstance(expr.expr.type.of, t.ErrorT):  # an error key or argument: its code
            return self.error_codes.get(expr.member)
        value = evaluate(expr, self.constants.get)
        return int(value) if value is not None else None

    def layout(self, table: ir.Table) -> TableLayout:
        arch = self.arch
        props = {p.name: p for p in table.properties}
        for prop in table.properties:
            if prop.name in arch.table_properties or _is_false(prop):
                continue
            if prop.name in _SEMANTIC_PROPERTIES or prop.name.startswith(("psa_", "pna_")):
                raise Unsupported(prop.loc, f"the table property {prop.name}")
            self.ctx.diags.warning(prop.loc, f"table {table.name}: the table property {prop.name} means nothing to "
                                             f"{arch.name}; ignored")
        keys, selector, offset = [], [], 0
        for element in props["key"].value if "key" in props else ():
            width = t.bit_width(element.expr.type)
            if width is None:
                raise Unsupported(element.loc, f"table keys of type {element.expr.type}")
            if element.match_kind == "selector":
                selector.append(KeyField(key_name(element), width, element.match_kind, element.expr, 0,
                                         t.is_signed(element.expr.type)))
                continue
            if element.match_kind not in MATCH_KINDS:
                raise Unsupported(element.loc, f"the match kind {element.match_kind}")
            nbytes = (width + 7) // 8
            keys.append(KeyField(key_name(element), width, element.match_kind, element.expr,
                                 offset * 8 + nbytes * 8 - width, t.is_signed(element.expr.type)))
            offset += nbytes
        actions = [self.table_action(ref) for ref in (props["actions"].value if "actions" in props else ())]
        default_id, default_data, default_const = 0, [], False
        if "default_action" in props:
            ref = props["default_action"].value
            default_const = props["default_action"].is_const
            chosen = next((a for a in actions if a.action == ref.name), None)
            if chosen is not None:
                default_id = chosen.id
                for field, arg in zip(self.actions[chosen.action].data, ref.args):
                    value = self.const_int(arg.value) or 0
                    default_data += list((value % (1 << field.width)).to_bytes((field.width + 7) // 8, "big"))
        else:
            default_id = next((a.id for a in actions if a.action == "NoAction"), 0)
            if not default_id and isinstance(self.names.get("NoAction", is_global=True), ir.Action):
                actions.append(self.table_action(ir.ActionRef(table.loc, "NoAction", is_global=True)))
                default_id = actions[-1].id
        name = table.control_name or table.name
        largest_wins = self.const_int(props["largest_priority_wins"].value) != 0 \
            if "largest_priority_wins" in props else True
        data_bytes = max((sum((f.width + 7) // 8 for f in self.actions[a.action].data) for a in actions), default=0)
        entries = tuple(self.const_entry(e, i, keys, data_bytes, largest_wins)
                        for i, e in enumerate(props["entries"].value)) if "entries" in props else ()
        size = table_size(table, self.constants) or arch.default_table_size  # `size = 0` too, as the runtime always did
        structure = self.ctx.result.table_structures.get(name, "auto")
        code_entries = self.code_entries(props["entries"].value, entries, keys) if structure == "code" else ()
        counters, meters = props.get(arch.table_property("direct_counter")), props.get(arch.table_property("direct_meter"))
        direct_counter = self.direct_instance(counters, "direct_counter") if counters is not None else ""
        direct_meter = self.direct_instance(meters, "direct_meter") if meters is not None else ""
        profile = ""
        implementation = props.get(arch.table_property("action_profile"))
        if implementation is not None:
            if entries:
                raise Unsupported(props["entries"].loc, "entries in a table with an implementation (an action "
                                                        "profile's members are the control plane's)")
            profile = self.profile(table, implementation, actions, data_bytes, selector)
            data_bytes = max(data_bytes, INDIRECT_DATA_BYTES)
        elif selector:
            raise Unsupported(selector[0].expr.loc, "a selector key in a table without an action_selector")
        idle_property, idle_value = arch.idle_timeout_property
        idle_timeout = self.means(props[idle_property], idle_value) if idle_property in props else False
        learner = arch.learner_property in props and self.means(props[arch.learner_property], "true")
        if learner:
            size = 1 << (size - 1).bit_length()  # each worker's slots, by a hash: a power of 2
            if entries or any(k.match_kind != "exact" for k in keys) or selector:
                raise Refused(props[arch.learner_property].loc, f"table {table.name}: an add_on_miss table's keys are "
                                                                "all exact, and it has no const entries")
            # A direct counter's cells are per worker, as the learnt entries are; a meter's are shared.
            if implementation is not None or meters is not None:
                raise Unsupported(props[arch.learner_property].loc, f"table {table.name}: an add_on_miss table with "
                                                                    "a direct meter or a profile")
            # Its entries expire by their expire-time profiles, as p4c-dpdk's learners' do (whatever
            # pna_idle_timeout says): they are deleted, not reported.
            idle_timeout = False
        return TableLayout(len(self.ctx.result.table_layouts), name, tuple(keys), offset, tuple(actions), data_bytes,
                           default_id, tuple(default_data), default_const, size, entries, structure, code_entries,
                           direct_counter, direct_meter, profile, tuple(selector), idle_timeout, learner)

    def means(self, prop: ir.TableProperty, meaning: str) -> bool:
        """Whether a table property says `meaning` (control_plane.property_is); refused when it is
        neither an enum member nor a boolean constant."""
        found = property_is(prop, meaning, lambda expr: evaluate(expr, self.constants.get))
        if found is None:
            raise Refused(prop.loc, f"the table property {prop.name} must be a boolean constant or an enum member")
        return found

    def profile(self, table: ir.Table, prop: ir.TableProperty, actions: list, data_bytes: int, selector: list) -> str:
        """The key in PassResult.action_profiles of the action profile or selector that `implementation`
        names (an instance, shared by the tables that name it) or constructs (the table's own, named by the
        property's @name, as p4c names it), with this table's actions added to those of its members."""
        value = prop.value
        if isinstance(value, ir.PathExpression):
            instance = self.names.get(value.name)
            if not isinstance(instance, ir.Instance):
                raise Unsupported(prop.loc, "an implementation that is not an action_profile or action_selector")
            key, name, typ, args = instance.name, instance.control_name or instance.name, instance.type, instance.args
        elif isinstance(value, ir.ConstructorCall):
            key = f"{table.name}.implementation"
            name, typ, args = ir.name_annotation(prop) or key, value.type, value.args
        else:
            raise Unsupported(prop.loc, "an implementation that is not an action_profile or action_selector")
        kind = self.arch.object_kinds.get(typ.name, "") if isinstance(typ, t.ExternT) else ""
        if kind not in ("action_profile", "action_selector"):
            raise Unsupported(prop.loc, f"the implementation {kind or value} (an action_profile or action_selector)")
        if kind == "action_selector" and not selector:
            raise Unsupported(prop.loc, "an action_selector in a table without selector keys")
        if kind == "action_profile" and selector:
            raise Unsupported(selector[0].expr.loc, "selector keys in a table whose implementation is an "
                                                    "action_profile")
        algorithm = _selector_algorithm(args) if kind == "action_selector" else None
        if kind == "action_selector" and self.arch.hash_algorithms.get(algorithm) in (None, "P4ODP_HASH_RANDOM"):
            raise Unsupported(args[0].loc, f"an {typ.name}'s algorithm that is not a constant hash algorithm other "
                                           "than random")
        known = self.profile_layout(key, name, kind, args, algorithm)
        ids = tuple(dict.fromkeys(known.actions + tuple(a.id for a in actions)))
        self.ctx.result.action_profiles[key] = dataclasses.replace(known, actions=ids,
                                                                   data_bytes=max(known.data_bytes, data_bytes))
        return key

    def profile_layout(self, key: str, name: str, kind: str, args: tuple, algorithm: Optional[str]) -> ProfileLayout:
        """The profile or selector (`kind`) under `key` in PassResult.action_profiles, numbered when first
        seen, with no action yet."""
        profiles = self.ctx.result.action_profiles
        if key not in profiles:
            size = self.const_int(args[1 if kind == "action_selector" else 0].value) if args else None
            profiles[key] = ProfileLayout(len(profiles), name, size or self.arch.default_table_size, algorithm)
        return profiles[key]

    def direct_instance(self, prop: ir.TableProperty, kind: str) -> str:
        """The instance of `kind` (direct_counter, direct_meter) that a table property names (v1model's
        `counters = NAME;`, PSA's `psa_direct_counter = NAME;`)."""
        instance = self.names.get(prop.value.name) if isinstance(prop.value, ir.PathExpression) else None
        if self.arch.object_kind(instance) != kind:
            raise Unsupported(prop.loc, f"a table's {prop.name} other than a {' or '.join(self.arch.extern_types((kind,)))} "
                                        "instance")
        return instance.name

    def table_action(self, ref: ir.ActionRef) -> TableAction:
        action = self.names.get(ref.name, ref.is_global)
        if not isinstance(action, ir.Action):
            raise Unsupported(ref.loc, f"the action {ref.name}")
        if action.name not in self.actions:
            data, offset = [], 0
            for p in action.params:
                width = t.bit_width(p.type)
                if width is None:
                    raise Unsupported(p.loc, "action parameters that are not bit<W>, int<W> or bool")
                data.append(DataField(param_name(p), width, offset, t.is_signed(p.type)))
                offset += (width + 7) // 8
            self.actions[action.name] = ActionLayout(len(self.actions) + 1, action.control_name or action.name,
                                                     tuple(data))
        return TableAction(action.name, self.actions[action.name].id)

    # ------------------------------------------------------------------
    # Const entries

    def const_entry(self, entry: ir.Entry, position: int, keys: list, data_bytes: int,
                    largest_wins: bool) -> ConstEntry:
        elements = keyset_elements(entry.keyset, len(keys))
        matches = tuple(self.field_match(element, key) for element, key in zip(elements, keys))
        action = self.actions[entry.action.name]
        data = bytearray(data_bytes)
        for field, arg in zip(action.data, entry.action.args):
            nbytes = (field.width + 7) // 8
            value = (self.const_int(arg.value) or 0) % (1 << field.width)
            data[field.byte_offset:field.byte_offset + nbytes] = value.to_bytes(nbytes, "big")
        priority = 0
        if any(k.match_kind in PRIORITIZED_MATCH_KINDS for k in keys):
            # The runtime's priorities are P4Runtime's (the larger wins): the entry's as
            # simple_switch_CLI would take it, p, is INT32_MAX - p there, as the switch's CLI converts.
            priority = _INT32_MAX - self.entry_priority(entry, position, largest_wins)
        return ConstEntry(matches, priority, entry.action.name, action.id, tuple(data))

    def code_entries(self, written: tuple, entries: tuple, keys: list) -> tuple:
        """The entries as the generated C tries them: by priority, then in program order where
        priorities count; longest prefix first in lpm tables.  Two that match the same keys with
        the same priority are refused (the front end refuses those it can tell; keys made of
        constructor arguments are known only here)."""
        found = []
        for position, (entry, const) in enumerate(zip(written, entries)):
            if any(k.match_kind in PRIORITIZED_MATCH_KINDS for k in keys):
                rank = (-const.priority, position)
            else:  # lpm: the longest prefix wins; exact: one entry matches at most
                rank = (-sum(bin(m.mask).count("1") for m, k in zip(const.matches, keys) if k.match_kind == "lpm"),
                        position)
            if any(const.matches == other.matches and rank[0] == other_rank[0] for other_rank, other in found):
                raise Refused(entry.loc, "this entry's key is that of an earlier entry, with the constructor "
                                         "arguments given")
            found.append((rank, const))
        return tuple(const for _, const in sorted(found, key=lambda f: f[0]))

    def field_match(self, element: ir.Expression, key: KeyField) -> FieldMatch:
        """One key of a const entry."""
        top = (1 << key.width) - 1

        def known(expr: ir.Expression) -> int:
            value = self.const_int(expr)
            if value is None:
                raise Unsupported(expr.loc, "this entry key")
            return value & top

        if isinstance(element, (ir.DefaultExpression, ir.DontCare)):
            return FieldMatch(0, 0, 0, top)
        if isinstance(element, ir.Binary) and element.op is ir.BinaryOp.RANGE:
            return FieldMatch(0, 0, known(element.left), known(element.right))
        if isinstance(element, ir.Binary) and element.op is ir.BinaryOp.MASK:
            if key.match_kind == "exact":  # p4c's front end lets it be (the spec's spec-ex25 has one)
                raise Refused(element.loc, "an exact key takes a value, not a mask: match it ternary")
            value, mask = known(element.left), known(element.right)
            if key.match_kind == "lpm":  # VALUE/LENGTH, the length the mask's bits
                mask = top ^ (top >> bin(mask).count("1"))
        else:
            value, mask = known(element), top
        if key.match_kind == "range":
            return FieldMatch(0, 0, value, value)
        return FieldMatch(value & mask, mask, 0, top)

    def entry_priority(self, entry: ir.Entry, position: int, largest_wins: bool) -> int:
        """simple_switch_CLI's priority of an entry (the smaller wins).

        `priority = N` (P4_16; the front end gives every entry of a table with
        one its priority): the larger N wins, the smaller with
        `largest_priority_wins = false`.  `@priority(N)` (BMv2's annotation):
        the smaller N wins.  No priority: the earlier entry wins.
        """
        source, value = entry_priority_source(entry, position)
        if source == "written":
            written = self.const_int(value) or 0
            priority = _MAX_PRIORITY - written if largest_wins else written
        elif source == "annotated":
            priority = self.const_int(value) or 0
        else:
            priority = value
        return max(priority, 0)

def _is_false(prop: ir.TableProperty) -> bool:
    return isinstance(prop.value, ir.BoolLiteral) and not prop.value.value
