"""v1model, BMv2 simple_switch's architecture: its blocks, constants and externs.

Semantics are simple_switch's, so that programs and tests written for BMv2 behave
the same.  An extern or method missing here is refused by the C generator with a
positioned error (digest, clone, ...), never
compiled to nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError, Refused, Unsupported
from p4odp.transpiler.architectures import Architecture, Extern
from p4odp.transpiler.architectures.common_externs import (CUSTOM_CRCS, array_storage, check, counter_count,
                                                           data_elements, direct_counter_storage, direct_meter_storage,
                                                           hash_algorithm, instance_of, meter_storage, no_storage,
                                                           register_access, send_digest)
from p4odp.transpiler.architectures.core import CORE_EXTERNS
from p4odp.transpiler.codegen.checksums import csum16_sum
from p4odp.transpiler.codegen.scope import Binding
from p4odp.transpiler.ctypes_map import c_ident, c_string

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext

__all__ = ["V1MODEL", "DROP_PORT"]

# simple_switch's drop port (its default for a 9-bit port: 511), and the
# standard_metadata.instance_type it gives each copy (BMV2_V1MODEL_INSTANCE_TYPE_*).
DROP_PORT = 511
CONSTANTS = {
    "P4ODP_V1MODEL_DROP_PORT": DROP_PORT,
    "P4ODP_V1MODEL_INSTANCE_NORMAL": 0,
    "P4ODP_V1MODEL_INSTANCE_INGRESS_CLONE": 1,
    "P4ODP_V1MODEL_INSTANCE_EGRESS_CLONE": 2,
    "P4ODP_V1MODEL_INSTANCE_RECIRC": 4,
    "P4ODP_V1MODEL_INSTANCE_REPLICATION": 5,
    "P4ODP_V1MODEL_INSTANCE_RESUBMIT": 6,
}
METADATA = "standard_metadata_t"


# ----------------------------------------------------------------------
# Extern functions

def _mark_to_drop(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    sm = ctx.lvalue(args[0]).c if args else _standard_metadata(ctx, call)
    ctx.emit(f"{sm}.egress_spec = P4ODP_V1MODEL_DROP_PORT;")
    ctx.emit(f"{sm}.mcast_grp = 0;")


def _truncate(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.gen.truncates = True
    ctx.emit(f"p4odp_truncate(pc, (uint64_t)({ctx.value(args[0])}));")


def _log_msg(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """log_msg(message[, values]): BMv2's format, each `{...}` replaced by the next value in decimal,
    `\\{` and `\\}` braces themselves; printed by p4odp_log_msg when the switch runs with --log-msg."""
    message = args[0]
    if not isinstance(message, ir.StringLiteral):
        raise Unsupported(message.loc, "log_msg with a message that is not a string literal")
    values = data_elements(args[1]) if len(args) > 1 else []
    pieces = _message_pieces(message)
    if len(pieces) != len(values) + 1:
        raise Unsupported(call.loc, f"log_msg with {len(pieces) - 1} {{}} in its message for {len(values)} value(s)")
    fmt, c_values = c_string(pieces[0].replace("%", "%%")), []
    for value, piece in zip(values, pieces[1:]):
        fmt += _log_value(ctx, value, c_values) + " " + c_string(piece.replace("%", "%%"))
    ctx.emit(f"p4odp_log_msg(pc, {fmt}{''.join(', ' + v for v in c_values)});")


def _digest(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """digest(receiver, data): data sent (send_digest) under the name the control-plane pass gave the
    call, P4Info's; the receiver is not used, as on BMv2."""
    name = ctx.gen.control_plane.digest_name(call.loc)
    if name is None:
        raise InternalError(f"{call.loc}: a digest call the control-plane pass did not list")
    send_digest(ctx, call, name, args[1])


def _log_value(ctx: FunctionContext, value: ir.Expression, c_values: list) -> str:
    """The printf format of one log_msg value, its C values appended to c_values: a number in
    decimal; a header or struct as BMv2 prints it, `(name:value,...)` (an invalid header's fields
    0, as BMv2's); an enum without a representation or an error as the number BMv2 prints, p4c's:
    the member's place in its declaration, from 0."""
    typ = value.type
    if isinstance(typ, t.StructLike):
        parts = []
        for f in typ.fields:
            member = ir.Member(value.loc, value, f.name, type=f.type)
            parts.append(f'"{f.name}:" ' + _log_value(ctx, member, c_values))
        return '"(" ' + ' "," '.join(parts) + ' ")"'
    numbered = isinstance(typ, t.ErrorT) or isinstance(typ, t.EnumT) and typ.underlying is None
    bits = 32 if numbered else t.bit_width(typ)
    if bits is None or bits > 64:
        raise Unsupported(value.loc, f"log_msg of a value of type {typ}")
    signed = isinstance(typ, t.Bits) and typ.signed
    c_values.append(f"({'int64_t' if signed else 'uint64_t'})({ctx.value(value)})")
    return f'"%" {"PRId64" if signed else "PRIu64"}'


def _message_pieces(message: ir.StringLiteral) -> list:
    """The text of a log_msg message around its `{...}` placeholders (BMv2's reading: a brace after a
    backslash is text)."""
    pieces, text, i, value = [], "", 0, message.value
    while i < len(value):
        if value[i] == "\\" and value[i + 1:i + 2] in ("{", "}"):
            text += value[i + 1]
            i += 2
        elif value[i] == "{":
            end = value.find("}", i)
            if end < 0:
                raise Unsupported(message.loc, "a log_msg message with a { and no }")
            pieces.append(text)
            text, i = "", end + 1
        else:
            text += value[i]
            i += 1
    return pieces + [text]


def _standard_metadata(ctx: FunctionContext, call: ir.MethodCall) -> str:
    """The standard_metadata visible where the old `mark_to_drop()` without argument is called."""
    for p in ctx.decl.params:  # after unique-names, what the block calls its standard_metadata
        binding = ctx.resolve(ir.PathExpression(p.loc, p.name))
        if isinstance(binding, Binding) and isinstance(binding.type, t.StructLike) and binding.type.name == METADATA:
            return binding.c
    raise Unsupported(call.loc, f"mark_to_drop() without {METADATA} in scope")


def _hash(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    result, algo, base, data, limit = args
    if not (isinstance(algo, ir.Member) and isinstance(algo.expr.type, t.TypeT)):
        raise Unsupported(call.loc, "hash algorithms that are not constants")
    buf = ctx.temp("hb")
    size = _pack_bits(ctx, buf, data, call)
    hashed = "p4odp_random(pc, 0, UINT32_MAX)" if algo.member == "random" else _hashed(ctx, algo, buf, size, False)
    limit_c, base_c = ctx.value(limit), ctx.value(base)
    target = ctx.lvalue(result)
    value = f"(({limit_c}) ? (uint64_t)({base_c}) + {hashed} % (uint64_t)({limit_c}) : (uint64_t)({base_c}))"
    ctx.emit(f"{target.c} = {ctx.wrap(value, target.type)};")


# The runtime's custom CRCs, by their width.


def _hashed(ctx: FunctionContext, algo: ir.Member, buf: str, size: int, with_payload: bool) -> str:
    """The C of hash algorithm `algo` over `size` bytes at `buf` (then the payload): a custom CRC is
    a calculation of its own, whose parameters the control plane sets (Generator.crc_calculation)."""
    algorithm = hash_algorithm(ctx.gen, algo)
    if algorithm in CUSTOM_CRCS:
        calc = ctx.gen.crc_calculation(CUSTOM_CRCS[algorithm])
        return f"p4_hash_custom(pc, {calc}, {buf}, {size}, {'true' if with_payload else 'false'})"
    return f"p4_hash_with_payload(pc, {algorithm}, {buf}, {size})" if with_payload else \
        f"p4_hash({algorithm}, {buf}, {size})"


def _pack_bits(ctx: FunctionContext, buf: str, data: ir.Expression, call: ir.MethodCall) -> int:
    """Declare `buf` holding the fields of `data` bit after bit; the number of bytes."""
    elements = data_elements(data)
    if any(t.bit_width(e.type) is None for e in elements):
        raise Unsupported(call.loc, "hash data that is not a list of bit<> fields")
    return ctx.pack_bits(buf, elements)


def _random(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    target = ctx.lvalue(args[0])
    ctx.emit(f"{target.c} = p4odp_random(pc, (uint64_t)({ctx.value(args[1])}), (uint64_t)({ctx.value(args[2])}));")


def _checksum(name: str):
    """verify_checksum, update_checksum and their `_with_payload` forms: the algorithm's value of the
    fields (and of the bytes the parser did not extract), cut to the checksum field's width as BMv2
    writes and compares it.  csum16 adds the fields' words (csum16_sum); the others hash the fields'
    bits packed as hash() packs them."""

    def handler(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
        cond, data, field_expr, algo = args[0], args[1], args[2], args[3]
        if not (isinstance(algo, ir.Member) and isinstance(algo.expr.type, t.TypeT)):
            raise Unsupported(call.loc, "checksum algorithms that are not constants")
        if algo.member == "random":
            raise Refused(algo.loc, "the random algorithm for a checksum (its value would never verify)")
        with_payload = name.endswith("_with_payload")
        ctx.emit("{")
        ctx.indent += 1
        if _is_csum16(algo):
            elements = _csum16_fields(args)
            if elements is None:
                raise Unsupported(data.loc, "checksum data that is not a list of fields")
            total = csum16_sum(ctx, elements)
            if with_payload:
                total = f"p4odp_csum16_add({total}, pc->data + p4odp_parsed_bytes(pc), pc->len - p4odp_parsed_bytes(pc))"
            value = f"p4odp_csum16_finish({total})"
        else:
            buf = ctx.temp("ck")
            size = _pack_bits(ctx, buf, data, call)
            value = _hashed(ctx, algo, buf, size, with_payload)
        target = ctx.lvalue(field_expr)
        width = t.bit_width(field_expr.type)
        if not isinstance(field_expr.type, t.Bits) or not width or width > 64:
            raise Unsupported(field_expr.loc, f"a checksum field of type {field_expr.type} (a bit<W> of up to 64 bits)")
        if name.startswith("verify_checksum"):
            ctx.emit(f"if (({ctx.value(cond)}) && (uint64_t)({target.c}) != (uint64_t){ctx.wrap(value, target.type)})")
            ctx.emit("\tpc->checksum_error = 1;")
        else:
            ctx.emit(f"if ({ctx.value(cond)})")
            ctx.emit(f"\t{target.c} = {ctx.wrap(value, target.type)};")
        ctx.indent -= 1
        ctx.emit("}")

    return handler


def _is_csum16(algo: ir.Expression) -> bool:
    return isinstance(algo, ir.Member) and algo.member == "csum16"


def _csum16_fields(args: list) -> Optional[list]:
    """The fields a checksum call sums with csum16_sum: its data list when the algorithm is csum16."""
    data, algo = args[1], args[3]
    if not _is_csum16(algo) or not isinstance(data, ir.ListExpression):
        return None
    return list(data.elements)


# ----------------------------------------------------------------------
# Copies: clone, resubmit, recirculate (the traffic manager makes them, see traffic_manager.c)

def _clone(form: str):
    """clone(type, session), clone_preserving_field_list(type, session, index) and the older
    clone3(type, session, data).  As on BMv2, the block a clone is asked in decides whether it is an
    ingress or an egress clone, not `type`; the session is cut to BMv2's 15 bits."""

    def handler(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
        fields = 0 if form == "clone" else _field_list(ctx, form, args[2])
        ctx.gen.copies.add("clone")
        ctx.emit(f"pc->tm.clone_sessions[0] = 1 + (uint32_t)(({ctx.value(args[1])}) & 0x7FFF);")
        ctx.emit(f"pc->tm.clone_fields = {fields};")

    return handler


def _again(kind: str, form: str):
    """resubmit_preserving_field_list(index) and the older resubmit(data); the same for recirculate.
    A resubmit is refused outside ingress, as p4c's BMv2 back end refuses it (simple_switch would
    ignore it).  A recirculate in ingress is BMv2's: the packet's own copy carries it to the end of
    its egress (the traffic manager)."""

    def handler(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
        if kind == "resubmit" and ctx.role != "ingress":
            raise Refused(call.loc, f"'resubmit' can only be invoked in ingress, not in {ctx.role}")
        ctx.gen.copies.add(kind)
        ctx.emit(f"pc->tm.{kind} = 1 + {_field_list(ctx, form, args[0])};")

    return handler


def _field_list(ctx: FunctionContext, form: str, arg: ir.Expression) -> int:
    """The number of the field list a copy keeps: the metadata fields annotated @field_list(index)
    for the *_preserving_field_list forms, the fields `arg` lists for the older ones."""
    if form == "index":
        index = ctx.gen.const_int(arg)
        if index is None:
            raise Unsupported(arg.loc, "a field list index that is not a compile-time constant")
        return ctx.gen.annotated_field_list(index)
    members = []
    for element in data_elements(arg):
        member = _state_member(ctx, element)
        if member is None:
            raise Unsupported(element.loc, f"keeping a value that is not a field of the user metadata or of "
                                           f"{METADATA}")
        members.append(member)
    return ctx.gen.field_list(tuple(members))


def _state_member(ctx: FunctionContext, expr: ir.Expression) -> Optional[str]:
    """`expr`, a field of the block's metadata or standard_metadata parameter, as a member of struct
    p4odp_packet_state ("meta.a.b", "std.ingress_port"); None for anything else."""
    path = []
    while isinstance(expr, ir.Member):
        path.insert(0, c_ident(expr.member))
        expr = expr.expr
    if not isinstance(expr, ir.PathExpression):
        return None
    param = next((p for p in ctx.decl.params if p.name == expr.name), None)
    for role in ("meta", "std"):
        if param is not None and param.type == ctx.gen.state_types.get(role):
            return ".".join([role, *path])
    return None


# ----------------------------------------------------------------------
# Extern objects: registers, counters, meters


def _directcounter_count(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """Nothing: as on BMv2, the table counts every hit whether or not its action calls count()."""


def _checksum16_get(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """The deprecated Checksum16.get(data): the Internet checksum (csum16) of the fields of `data`."""
    return f"p4odp_csum16_finish({csum16_sum(ctx, data_elements(args[0]))})"


def _register_read(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    register_access(ctx, call, args[0], args[1], write=False)


def _register_write(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    register_access(ctx, call, args[1], args[0], write=True)


def _execute_meter(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """The packet's colour through cell `index` (GREEN through one past the end, as through a meter
    whose rates are not set)."""
    instance = instance_of(ctx, call)
    index = ctx.temp("ix")
    ctx.emit(f"uint64_t {index} = {ctx.value(args[0])};")
    color = (f"{index} < {instance.size} ? p4odp_meter_execute(pc, &STATE->{instance.member}[{index}], "
             f"{'pc->len' if instance.bytes else '1'}) : P4ODP_METER_GREEN")
    _set_color(ctx, call, args[1], color)


def _direct_meter_read(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """The colour the table metered the entry's hit with; on a miss, nothing: the result keeps its
    value (BMv2 writes it only when the table hits)."""
    instance = instance_of(ctx, call)
    hit, color = ctx.bindings.names.get(f"$hit {instance.name}"), ctx.bindings.names.get(f"$color {instance.name}")
    if hit is None or color is None:
        raise Refused(call.loc, f"{instance.name}.read() outside the actions of the table whose `meters` "
                                f"property names it (the colour is that of the table's hit)")
    ctx.emit(f"if ({hit.c}) {{")
    ctx.indent += 1
    _set_color(ctx, call, args[0], color.c)
    ctx.indent -= 1
    ctx.emit("}")


def _set_color(ctx: FunctionContext, call: ir.MethodCall, result: ir.Expression, color: str) -> None:
    """result = color (0 GREEN, 1 YELLOW, 2 RED), cut to its width as BMv2 writes a field."""
    target = ctx.lvalue(result)
    width = t.bit_width(result.type)
    if not isinstance(result.type, t.Bits) or not width:
        raise Unsupported(call.loc, f"a meter colour of type {result.type} (a bit<W> field)")
    ctx.emit(f"{target.c} = ({color}){' & 1' if width == 1 else ''};")


V1MODEL = Architecture(
    name="v1model",
    package="V1Switch",
    blocks=("parser", "verify_checksum", "ingress", "egress", "compute_checksum", "deparser"),
    types={"headers": ("parser", 1), "meta": ("parser", 2), "std": ("parser", 3)},
    constants=CONSTANTS,
    pipeline_template="v1model/pipeline.c.j2",
    metadata=METADATA,
    timed_fields=("ingress_global_timestamp", "egress_global_timestamp", "enq_timestamp"),
    include_files=("v1model.p4",),
    p4info_arch="v1model",
    object_kinds={kind: kind for kind in ("counter", "direct_counter", "meter", "direct_meter", "register",
                                          "action_profile", "action_selector")},
    table_externs={"implementation": ("action_profile", "action_selector"), "counters": ("direct_counter",),
                   "meters": ("direct_meter",)},
    idle_timeout_property=("support_timeout", "true"),
    default_table_size=1024,  # simple_switch's
    hash_algorithms={name: f"P4ODP_HASH_{name.upper()}" for name in (
        "crc32", "crc32_custom", "crc16", "crc16_custom", "random", "identity", "csum16", "xor16")},
    externs={e.name: e for e in (
        *CORE_EXTERNS,
        Extern("mark_to_drop", {"mark_to_drop": _mark_to_drop}, function=True, reads_arguments=False),
        Extern("truncate", {"truncate": _truncate}, function=True),
        Extern("assert", {"assert": check("Assert")}, function=True),
        Extern("assume", {"assume": check("Assume")}, function=True),
        Extern("log_msg", {"log_msg": _log_msg}, function=True),
        Extern("digest", {"digest": _digest}, function=True),
        Extern("hash", {"hash": _hash}, function=True),
        Extern("clone", {"clone": _clone("clone")}, function=True),
        Extern("clone_preserving_field_list", {"clone_preserving_field_list": _clone("index")}, function=True),
        Extern("clone3", {"clone3": _clone("data")}, function=True),
        Extern("resubmit_preserving_field_list", {"resubmit_preserving_field_list": _again("resubmit", "index")},
               function=True),
        Extern("resubmit", {"resubmit": _again("resubmit", "data")}, function=True),
        Extern("recirculate_preserving_field_list",
               {"recirculate_preserving_field_list": _again("recirculate", "index")}, function=True),
        Extern("recirculate", {"recirculate": _again("recirculate", "data")}, function=True),
        Extern("random", {"random": _random}, function=True),
        *(Extern(name, {name: _checksum(name)}, function=True, csum16_fields=_csum16_fields)
          for name in ("verify_checksum", "update_checksum", "verify_checksum_with_payload",
                       "update_checksum_with_payload")),
        Extern("register", {"read": _register_read, "write": _register_write}, array_storage, atomic=True),
        Extern("counter", {"count": counter_count}, array_storage),
        Extern("direct_counter", {"count": _directcounter_count}, direct_counter_storage),
        Extern("meter", {"execute_meter": _execute_meter}, meter_storage),
        Extern("direct_meter", {"read": _direct_meter_read}, direct_meter_storage),
        Extern("action_profile", {}, no_storage),
        Extern("action_selector", {}, no_storage),
        Extern("Checksum16", {"get": _checksum16_get}, no_storage),
    )},
)
