"""PNA, the P4.org Portable NIC Architecture, as p4c-dpdk compiles it.

One pass per packet (templates/pna/pipeline.c.j2): main parser, pre control, main control, then,
for each copy, the main deparser.  Where the packet goes is what the main control's last call
of send_to_port() or drop_packet() said (dropped when neither ran); mirror_packet() sends a
copy of the packet as deparsed to a clone session's ports; recirculate() sends the packet as
deparsed through the pipeline again (its pass number one more).

Its direction is HOST_TO_NET for a packet received on a port the switch was given with
--host-port, NET_TO_HOST for any other.  A table with `add_on_miss = true` is a learner: the
datapath adds its entries (add_entry in its default action), each worker its own, and they
expire by their expire-time profiles (runtime/core/learners.c).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p4odp import ir
from p4odp.diagnostics import Refused, Unsupported
from p4odp.transpiler.architectures import Architecture, Extern
from p4odp.transpiler.architectures.core import CORE_EXTERNS
from p4odp.transpiler.architectures.psa import PSA
from p4odp.transpiler.architectures.common_externs import data_elements

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext

__all__ = ["PNA"]

# PNA_Direction_t's members by their number (the C generator numbers an enum without a
# representation by declaration order).
CONSTANTS = {"P4ODP_PNA_NET_TO_HOST": 0, "P4ODP_PNA_HOST_TO_NET": 1}


# Where the packet goes: the last call of drop_packet(), send_to_port() or recirculate() decides.

def _drop_packet(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.emit("pc->tm.drop = 1;")
    ctx.emit("pc->tm.recirculate = 0;")


def _send_to_port(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.emit(f"pc->tm.port = (uint32_t)({ctx.value(args[0])});")
    ctx.emit("pc->tm.drop = 0;")
    ctx.emit("pc->tm.recirculate = 0;")


MIRROR_SLOTS = 4  # P4ODP_CLONE_SLOTS, as p4c-dpdk's pipelines have them


def _mirror_packet(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """mirror_packet(slot, session): a copy to the clone session's ports, one per slot (the last call
    of a slot counts)."""
    slot = ctx.gen.const_int(args[0])
    if slot is not None and not 0 <= slot < MIRROR_SLOTS:
        raise Refused(args[0].loc, f"mirror slot {slot}: the switch has {MIRROR_SLOTS} (0 to {MIRROR_SLOTS - 1})")
    index = slot if slot is not None else f"(uint32_t)({ctx.value(args[0])}) % {MIRROR_SLOTS}"
    ctx.gen.copies.add("clone")
    ctx.emit(f"pc->tm.clone_sessions[{index}] = 1 + (uint32_t)({ctx.value(args[1])});")


def _recirculate(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.gen.copies.add("recirculate")
    ctx.emit("pc->tm.recirculate = 1;")
    ctx.emit("pc->tm.drop = 0;")


def _port_kind(host: bool):
    """is_host_port(p) and is_net_port(p), by the switch's --host-port."""

    def handler(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
        return f"{'' if host else '!'}p4odp_is_host_port(pc, (uint64_t)({ctx.value(args[0])}))"

    return handler


def _select_by_direction(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    return f"(({ctx.value(args[0])}) == P4ODP_PNA_NET_TO_HOST ? ({ctx.value(args[1])}) : ({ctx.value(args[2])}))"


def _learner(ctx: FunctionContext, call: ir.MethodCall):
    """(the learner's number, its table's layout, the C name of its apply's hit flag) of the
    add-on-miss table whose action is being generated."""
    learner = ctx.bindings.names.get("$learner")
    if learner is None:
        raise Refused(call.loc, f"{call.method.name}() outside the actions of an add_on_miss table")
    return learner.c, learner.type, ctx.bindings.names["$learner hit"].c


def _add_entry(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """add_entry(action_name, action_params, expire_time_profile_id): an entry of the key just
    looked up, running the action named with the parameters given; true when added."""
    number, layout, _ = _learner(ctx, call)
    name = args[0]
    if not isinstance(name, ir.StringLiteral):
        raise Unsupported(name.loc, "add_entry with an action name that is not a string literal")
    action = next((ctx.gen.actions[a.action] for a in layout.actions
                   if name.value in (ctx.gen.actions[a.action].name, ctx.gen.actions[a.action].name.split(".")[-1])),
                  None)
    if action is None:
        raise Refused(name.loc, f"add_entry: the table {layout.name} has no action {name.value}")
    params = args[1]
    while isinstance(params, ir.Cast):  # `(hit_params_t) {...}`: the struct expression's fields
        params = params.expr
    values = data_elements(params)
    if len(values) != len(action.data):
        raise Refused(args[1].loc, f"add_entry: {action.name} takes {len(action.data)} parameter(s), "
                                   f"{len(values)} given")
    data = ctx.temp("ad")
    ctx.emit(f"uint8_t {data}[{max(layout.data_bytes, 1)}] = {{0}};")
    for field, value in zip(action.data, values):
        ctx.store_value(data, field.byte_offset * 8 + (field.width + 7) // 8 * 8 - field.width, value)
    added = ctx.temp("added")
    ctx.emit(f"bool {added} = p4odp_learner_add(pc, {number}, key, {action.id}, {data}, "
             f"(uint32_t)({ctx.value(args[2])}));")
    return added


def _set_entry_expire_time(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    number, _, hit = _learner(ctx, call)
    ctx.emit(f"if ({hit}) p4odp_learner_expire_in(pc, {number}, entry, (uint32_t)({ctx.value(args[0])}));")


def _restart_expire_timer(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    number, _, hit = _learner(ctx, call)
    ctx.emit(f"if ({hit}) p4odp_learner_expire_in(pc, {number}, entry, P4ODP_EXPIRE_SAME);")


def _allocate_flow_id(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    return "p4odp_flow_id(pc)"


# The stateful and hashing externs are PSA's, under the same names.
_SHARED = ("assert", "assume", "Register", "Counter", "DirectCounter", "Meter", "DirectMeter", "ActionProfile",
           "ActionSelector", "Hash", "Checksum", "InternetChecksum", "Random", "Digest")

PNA = Architecture(
    name="pna",
    package="PNA_NIC",
    blocks=("main_parser", "pre_control", "main_control", "main_deparser"),
    types={
        "headers": ("main_parser", 1), "meta": ("main_parser", 2), "mpim": ("main_parser", 3),
        "pre_headers": ("pre_control", 0), "pre_meta": ("pre_control", 1),
        "preim": ("pre_control", 2), "preom": ("pre_control", 3),
        "mim": ("main_control", 2), "mom": ("main_control", 3),
    },
    same_types=(("pre_headers", "headers"), ("pre_meta", "meta")),
    constants=CONSTANTS,
    pipeline_template="pna/pipeline.c.j2",
    metadata="pna_main_input_metadata_t",
    timed_fields=("timestamp",),
    include_files=("pna.p4", "dpdk/pna.p4"),
    p4info_arch="pna",
    object_kinds={**PSA.object_kinds},
    table_externs={"pna_implementation": ("action_profile", "action_selector"),
                   "pna_direct_counter": ("direct_counter",), "pna_direct_meter": ("direct_meter",)},
    idle_timeout_property=("pna_idle_timeout", "NOTIFY_CONTROL"),
    learner_property="add_on_miss",
    learner_properties=("idle_timeout_with_auto_delete", "default_idle_timeout_for_data_plane_added_entries"),
    default_table_size=1024,
    hash_algorithms={**PSA.hash_algorithms, "TOEPLITZ": "P4ODP_HASH_TOEPLITZ"},
    index_type_params=PSA.index_type_params,
    externs={e.name: e for e in (
        *CORE_EXTERNS,
        *(PSA.externs[name] for name in _SHARED if name in PSA.externs),
        Extern("drop_packet", {"drop_packet": _drop_packet}, function=True),
        Extern("send_to_port", {"send_to_port": _send_to_port}, function=True),
        Extern("mirror_packet", {"mirror_packet": _mirror_packet}, function=True),
        Extern("recirculate", {"recirculate": _recirculate}, function=True),
        Extern("SelectByDirection", {"SelectByDirection": _select_by_direction}, function=True),
        Extern("is_host_port", {"is_host_port": _port_kind(True)}, function=True),
        Extern("is_net_port", {"is_net_port": _port_kind(False)}, function=True),
        Extern("add_entry", {"add_entry": _add_entry}, function=True),
        Extern("set_entry_expire_time", {"set_entry_expire_time": _set_entry_expire_time}, function=True),
        Extern("restart_expire_timer", {"restart_expire_timer": _restart_expire_timer}, function=True),
        Extern("allocate_flow_id", {"allocate_flow_id": _allocate_flow_id}, function=True),
    )},
)
