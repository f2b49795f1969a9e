"""PSA, the P4.org Portable Switch Architecture, as BMv2's psa_switch runs it.

Its six blocks run in two halves around the traffic manager (templates/psa/pipeline.c.j2):
ingress parser, ingress and ingress deparser on the packet as received; then, for each copy,
the egress parser on the packet as the ingress deparser left it (or as received, for a clone
made in ingress; as the egress deparser left it, for one made in egress), egress and egress
deparser.  Headers do not travel from ingress to egress: the egress parser parses again, and
only the deparsers' out metadata (normal, clone, resubmit, recirculate) is carried.

The end of ingress is psa_switch's: a clone first (even of a packet dropped), then drop,
resubmit, multicast, unicast; of egress: a clone of the packet deparsed, then drop, then
recirculate when the port is PSA_PORT_RECIRCULATE.

The externs are psa_switch's too, their storage v1model's where they keep state across packets.
InternetChecksum and Checksum keep a sum for one packet in one block (Extern.packet_state); a
Digest is sent when packed, as v1model's digest().
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Refused, Unsupported
from p4odp.transpiler.architectures import Architecture, Extern
from p4odp.transpiler.architectures.core import CORE_EXTERNS
from p4odp.transpiler.architectures.common_externs import (CUSTOM_CRCS, array_storage, check, counter_count,
                                                           data_elements, digest_leaves, direct_counter_storage,
                                                           direct_meter_storage, hash_algorithm, instance_of,
                                                           meter_storage, no_storage, register_access, send_digest)
from p4odp.transpiler.codegen.scope import Binding, ExternInstance
from p4odp.transpiler.passes._walk import walk
from p4odp.transpiler.ctypes_map import bits_of

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext
    from p4odp.transpiler.codegen.program import Generator

__all__ = ["PSA"]

# bmv2/psa.p4's ports, and PSA_PacketPath_t's members by their number (the C generator numbers an
# enum without a representation by declaration order).
CONSTANTS = {
    "P4ODP_PSA_PORT_RECIRCULATE": 0xFFFFFFFA,
    "P4ODP_PSA_PORT_CPU": 0xFFFFFFFD,
    **{f"P4ODP_PSA_PATH_{name}": number for number, name in enumerate(
        ("NORMAL", "NORMAL_UNICAST", "NORMAL_MULTICAST", "CLONE_I2E", "CLONE_E2E", "RESUBMIT", "RECIRCULATE"))},
}

# PSA_HashAlgorithm_t's members as the runtime's algorithms.  TARGET_DEFAULT is CRC16, the one p4c's
# BMv2 back end chooses for psa_switch; ONES_COMPLEMENT16 is csum16, the Internet checksum (v1model's).
HASH_ALGORITHMS = {"IDENTITY": "P4ODP_HASH_IDENTITY", "CRC32": "P4ODP_HASH_CRC32",
                   "CRC32_CUSTOM": "P4ODP_HASH_CRC32_CUSTOM", "CRC16": "P4ODP_HASH_CRC16",
                   "CRC16_CUSTOM": "P4ODP_HASH_CRC16_CUSTOM", "ONES_COMPLEMENT16": "P4ODP_HASH_CSUM16",
                   "TARGET_DEFAULT": "P4ODP_HASH_CRC16"}

# A meter's colour, from the runtime's (0 GREEN, 1 YELLOW, 2 RED) to PSA_MeterColor_t's numbers (RED,
# GREEN, YELLOW in declaration order).
_COLOR_C = """\
static inline uint64_t p4_psa_color(uint32_t runtime_color)
{
	static const uint8_t psa[] = { [P4ODP_METER_GREEN] = 1, [P4ODP_METER_YELLOW] = 2, [P4ODP_METER_RED] = 0 };
	return psa[runtime_color];
}"""


# ----------------------------------------------------------------------
# The deparsers' predicates

def _predicate(condition: str):
    """psa_clone_i2e(istd) and the others: `condition` of the output metadata (`{o}`) and, for
    psa_recirculate, of the egress deparser's input metadata (`{e}`)."""

    def handler(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
        values = [ctx.lvalue(arg).c for arg in args]
        return "(" + condition.format(o=values[0], e=values[1] if len(values) > 1 else "") + ")"

    return handler


# ----------------------------------------------------------------------
# Stateful externs: the storage is v1model's; the methods return their results

def _register_read(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """Register.read(index): the cell's value, 0 past the end."""
    instance = instance_of(ctx, call)
    value = ctx.temp("rv")
    ctx.emit(f"{ctx.gen.member_decl(instance.element, value, call.loc)};")
    with ctx.bindings.bound("$value", Binding(value, instance.element)):
        register_access(ctx, call, ir.PathExpression(call.loc, "$value", type=instance.element), args[0],
                         write=False)
    return value


def _register_write(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    register_access(ctx, call, args[1], args[0], write=True)


def _meter_execute(ctx: FunctionContext, call: ir.MethodCall, args: list, length: str = "pc->len") -> str:
    """Meter.execute(index[, color]): the colour of the packet through cell `index` (GREEN past the
    end, as through a meter whose rates are not set), of `length` bytes for a meter of bytes.  A
    colour-aware call takes the worse of the colour given and the meter's."""
    instance = instance_of(ctx, call)
    index = ctx.temp("ix")
    ctx.emit(f"uint64_t {index} = {ctx.value(args[0])};")
    color = ctx.temp("color")
    ctx.emit(f"uint64_t {color} = p4_psa_color({index} < {instance.size} ? p4odp_meter_execute(pc, "
             f"&STATE->{instance.member}[{index}], {length if instance.bytes else '1'}) : P4ODP_METER_GREEN);")
    return _color_aware(ctx, color, args[1:])


def _meter_dpdk_execute(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """dpdk/psa.p4's Meter.dpdk_execute(index[, color], pkt_len): a meter of bytes meters pkt_len."""
    return _meter_execute(ctx, call, args[:-1], f"(uint64_t)({ctx.value(args[-1])})")


def _direct_meter_execute(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """DirectMeter.execute([color]): the colour the table metered its hit with."""
    instance = instance_of(ctx, call)
    hit, color = ctx.bindings.names.get(f"$hit {instance.name}"), ctx.bindings.names.get(f"$color {instance.name}")
    if hit is None or color is None:
        raise Unsupported(call.loc, f"{instance.name}.execute() outside the actions of the table whose "
                                    "psa_direct_meter property names it (the colour is that of the table's hit)")
    result = ctx.temp("color")
    ctx.emit(f"uint64_t {result} = {hit.c} ? p4_psa_color({color.c}) : p4_psa_color(P4ODP_METER_GREEN);")
    return _color_aware(ctx, result, args)


def _color_aware(ctx: FunctionContext, color: str, given: list) -> str:
    """`color`, or the worse of it and the colour `given` (RED 0 worst, then YELLOW 2, GREEN 1)."""
    if not given:
        return color
    ctx.emit(f"{{ uint64_t given = {ctx.value(given[0])}; "
             f"if (given == 0 || (given == 2 && {color} == 1)) {color} = given; }}")
    return color


def _declaration(ctx: FunctionContext, call: ir.MethodCall) -> ir.Instance:
    """The declaration of the instance whose method `call` calls (its constructor's arguments)."""
    return ctx.bindings.table[instance_of(ctx, call).name]


def _directcounter_count(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """DirectCounter.count([pkt_len]): nothing, the table counts its hits as v1model's do; but a direct
    counter some action counts with dpdk/psa.p4's pkt_len counts where count() is called, the entry
    that hit, of pkt_len bytes (else the packet's length)."""
    instance = instance_of(ctx, call)
    if not instance.counted_by_calls or not instance.size:
        return
    entry = ctx.bindings.names.get("$entry")
    if entry is None:
        raise Unsupported(call.loc, f"{instance.name}.count(...) in a table whose entries the generated code "
                                    "matches (const entries), when another call counts with pkt_len")
    length = f"(uint64_t)({ctx.value(args[0])})" if args else "pc->len"
    ctx.emit(f"if ({entry.c}->index != P4ODP_TABLE_NO_INDEX) "
             f"p4odp_count_packet(WORKER_STATE->{instance.member}[{entry.c}->index], {length});")


def _direct_counter_storage_psa(gen, decl: ir.Instance) -> ExternInstance:
    """A direct counter's cells (direct_counter_storage), counted at its count() calls when one of them
    gives dpdk/psa.p4's pkt_len."""
    instance = direct_counter_storage(gen, decl)
    instance.counted_by_calls = any(
        isinstance(node, ir.MethodCall) and isinstance(node.method, ir.Member) and node.method.member == "count"
        and isinstance(node.method.expr, ir.PathExpression) and node.method.expr.name == decl.name and node.args
        for node in walk(gen.program))
    return instance


def _direct_meter_dpdk_execute(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """dpdk/psa.p4's DirectMeter.dpdk_execute([color], pkt_len): execute(); pkt_len only for a meter of
    packets, which it does not change (the table meters its hit with the packet's own length)."""
    if instance_of(ctx, call).bytes:
        raise Unsupported(args[-1].loc, "DirectMeter.dpdk_execute of a meter of BYTES (the table meters its hit "
                                        "with the packet's own length, not pkt_len)")
    return _direct_meter_execute(ctx, call, args[:-1])


# ----------------------------------------------------------------------
# Hashes, checksums, random numbers and digests

def _data_fields(data: ir.Expression) -> list:
    """The values of hash or checksum data, in order, the fields of the headers, structs and lists in it
    in their place, each of which must be a bit string."""
    found = []
    for element in data_elements(data):
        if isinstance(element, ir.ListExpression) or isinstance(element.type, (t.StructLike, t.TupleT)):
            found += _data_fields(element)
        elif t.bit_width(element.type) is None:
            raise Unsupported(element.loc, f"hash or checksum data of type {element.type} (bit strings, and "
                                           "headers, structs and lists of them)")
        else:
            found.append(element)
    return found


def _hash_storage(gen: Generator, decl: ir.Instance) -> ExternInstance:
    """A Hash keeps no state: its member is its algorithm, the runtime's (P4ODP_HASH_*), or for a custom
    CRC the number of the instance's calculation, whose parameters the control plane sets
    (Generator.crc_calculation)."""
    algorithm = hash_algorithm(gen, decl.args[0].value)
    width = CUSTOM_CRCS.get(algorithm)
    return ExternInstance(decl.name, decl.type.name, str(gen.crc_calculation(width)) if width else algorithm, 0)


def _get_hash(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """Hash.get_hash(data) and get_hash(base, data, max), psa_switch's: the hash of data's fields, their
    bits packed to the right of whole bytes (v1model's hash() packs them to the left); base + hash % max
    (base when max is 0, as v1model's hash()); cut to O."""
    instance = instance_of(ctx, call)
    base, data, limit = args if len(args) == 3 else (None, args[0], None)
    elements = _data_fields(data)
    pad = -sum(t.bit_width(e.type) for e in elements) % 8  # a 0 of that width first
    padding = [ir.IntLiteral(data.loc, 0, width=pad, type=t.Bits(pad))] if pad else []
    buf = ctx.temp("hb")
    size = ctx.pack_bits(buf, padding + elements)
    hashed = f"p4_hash_custom(pc, {instance.member}, {buf}, {size}, false)" if instance.member.isdigit() else \
        f"p4_hash({instance.member}, {buf}, {size})"
    if limit is not None:
        limit_c, base_c = ctx.value(limit), ctx.value(base)
        hashed = f"(({limit_c}) ? (uint64_t)({base_c}) + {hashed} % (uint64_t)({limit_c}) : (uint64_t)({base_c}))"
    return ctx.wrap(hashed, bits_of(call.type))


# The sums of psa_switch's InternetChecksum: a ones' complement sum of 16-bit words kept in 16 bits,
# 0 only while every word added is.  add() is p4odp_csum16's end-around sum (the complement of
# p4odp_csum16_finish's); subtract() adds the words' complements one at a time as psa_switch does,
# skipping the 0 words at the start of the data (their complement would make a sum of 0 0xffff).
_CSUM_C = """\
static inline uint16_t p4_psa_csum_add(uint16_t sum, const uint8_t *buf, uint32_t len)
{
	return (uint16_t)~p4odp_csum16_finish(p4odp_csum16_add(sum, buf, len));
}

static inline uint16_t p4_psa_csum_subtract(uint16_t sum, const uint8_t *buf, uint32_t len)
{
	uint32_t first = 0;

	while (first < len && !buf[first] && !buf[first + 1])
		first += 2;
	for (uint32_t i = len; i > first; i -= 2) {
		uint32_t total = sum + (uint16_t)~(buf[i - 2] << 8 | buf[i - 1]);

		sum = (uint16_t)(total + (total >> 16));
	}
	return sum;
}"""


def _csum_state(ctx: FunctionContext, call: ir.MethodCall) -> str:
    """The C local holding the sum of a checksum instance (Extern.packet_state); a Checksum's algorithm
    must be ONES_COMPLEMENT16."""
    instance = ctx.resolve(call.method.expr) if isinstance(call.method.expr, ir.PathExpression) else None
    if not isinstance(instance, ExternInstance):
        raise Unsupported(call.loc, "a checksum instance declared outside the parser or control that uses it "
                                    "(its sum lasts one packet in one block)")
    decl = ctx.bindings.table[instance.name]
    if instance.kind == "Checksum" and hash_algorithm(ctx.gen, decl.args[0].value) != "P4ODP_HASH_CSUM16":
        raise Unsupported(decl.args[0].loc, "a Checksum of another algorithm than ONES_COMPLEMENT16 (the runtime "
                                            "hashes bytes given whole, not piece by piece)")
    return instance.member


def _csum_clear(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.emit(f"{_csum_state(ctx, call)} = 0;")


def _csum_sum(function: str):
    """InternetChecksum.add and subtract, Checksum.update: the data's fields packed, whole 16-bit words
    as psa_switch requires, summed by `function`."""

    def handler(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
        state = _csum_state(ctx, call)
        elements = _data_fields(args[0])
        bits = sum(t.bit_width(e.type) for e in elements)
        if bits % 16:
            raise Refused(args[0].loc, f"checksum data of {bits} bits: psa_switch sums 16-bit words")
        buf = ctx.temp("ck")
        size = ctx.pack_bits(buf, elements)
        ctx.emit(f"{state} = {function}({state}, {buf}, {size});")

    return handler


def _csum_get(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """get(): the checksum, the sum's complement, cut to the result's width."""
    return ctx.wrap(f"(uint16_t)~{_csum_state(ctx, call)}", bits_of(call.type))


def _csum_get_state(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    return _csum_state(ctx, call)


def _csum_set_state(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.emit(f"{_csum_state(ctx, call)} = (uint16_t)({ctx.value(args[0])});")


def _random_read(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """Random.read(): a number of [min, max], drawn as v1model's random() draws it; psa_switch refuses
    a range whose max is not above its min."""
    decl = _declaration(ctx, call)
    low, high = (ctx.gen.const_int(arg.value) for arg in decl.args)
    if low is None or high is None or not 0 <= low < high:
        raise Refused(decl.loc, "a Random whose min and max are not constants with 0 <= min < max")
    return f"p4odp_random(pc, UINT64_C({low}), UINT64_C({high}))"


def _digest_storage(gen: Generator, decl: ir.Instance) -> ExternInstance:
    """A Digest<T>: the switch's digest of the instance's control-plane name (P4Info's), its messages
    T's fields, whether or not the program packs one."""
    data = ir.PathExpression(decl.loc, decl.name, type=decl.type.type_args[0])
    gen.digest_index(decl.control_name or decl.name, [(width, names) for _, width, names in
                                                      digest_leaves(gen.errors, data)])
    return no_storage(gen, decl)


def _digest_pack(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """Digest.pack(data): the message sent to the control plane at once, as v1model's digest()."""
    decl = _declaration(ctx, call)
    send_digest(ctx, call, decl.control_name or decl.name, args[0])


PSA = Architecture(
    name="psa",
    package="PSA_Switch",
    blocks=("ingress_parser", "ingress", "ingress_deparser", "egress_parser", "egress", "egress_deparser"),
    types={
        "ihdr": ("ingress_parser", 1), "imeta": ("ingress_parser", 2), "ipim": ("ingress_parser", 3),
        "resubmit_meta": ("ingress_parser", 4), "recirculate_meta": ("ingress_parser", 5),
        "iim": ("ingress", 2), "iom": ("ingress", 3),
        "clone_i2e_meta": ("ingress_deparser", 1), "normal_meta": ("ingress_deparser", 3),
        "ehdr": ("egress_parser", 1), "emeta": ("egress_parser", 2), "epim": ("egress_parser", 3),
        "clone_e2e_meta": ("egress_parser", 6),
        "eim": ("egress", 2), "eom": ("egress", 3),
        "edim": ("egress_deparser", 6),
    },
    constants=CONSTANTS,
    pipeline_template="psa/pipeline.c.j2",
    headers=("ihdr", "ehdr"),
    copies=("clone", "recirculate", "resubmit"),
    timed_fields=("ingress_timestamp", "egress_timestamp"),
    include_files=("psa.p4", "bmv2/psa.p4", "dpdk/psa.p4"),
    p4info_arch="psa",
    object_kinds={"Counter": "counter", "DirectCounter": "direct_counter", "Meter": "meter",
                  "DirectMeter": "direct_meter", "Register": "register", "ActionProfile": "action_profile",
                  "ActionSelector": "action_selector", "Digest": "digest"},
    table_externs={"psa_implementation": ("action_profile", "action_selector"),
                   "psa_direct_counter": ("direct_counter",), "psa_direct_meter": ("direct_meter",)},
    idle_timeout_property=("psa_idle_timeout", "NOTIFY_CONTROL"),
    default_table_size=1024,  # psa_switch's
    hash_algorithms=HASH_ALGORITHMS,
    index_type_params={"Counter": 1, "Meter": 0, "Register": 1},  # Counter<W, S>, Meter<S>, Register<T, S>
    externs={e.name: e for e in (
        *CORE_EXTERNS,
        Extern("psa_clone_i2e", {"psa_clone_i2e": _predicate("{o}.clone")}, function=True),
        Extern("psa_resubmit", {"psa_resubmit": _predicate("!{o}.drop && {o}.resubmit")}, function=True),
        Extern("psa_normal", {"psa_normal": _predicate("!{o}.drop && !{o}.resubmit")}, function=True),
        Extern("psa_clone_e2e", {"psa_clone_e2e": _predicate("{o}.clone")}, function=True),
        Extern("psa_recirculate", {"psa_recirculate": _predicate(
            "!{o}.drop && {e}.egress_port == P4ODP_PSA_PORT_RECIRCULATE")}, function=True),
        Extern("assert", {"assert": check("Assert")}, function=True),
        Extern("assume", {"assume": check("Assume")}, function=True),
        Extern("Register", {"read": _register_read, "write": _register_write}, array_storage, atomic=True),
        Extern("Counter", {"count": counter_count}, array_storage),
        Extern("DirectCounter", {"count": _directcounter_count}, _direct_counter_storage_psa),
        Extern("Meter", {"execute": _meter_execute, "dpdk_execute": _meter_dpdk_execute},
               meter_storage, c_code=_COLOR_C),
        Extern("DirectMeter", {"execute": _direct_meter_execute, "dpdk_execute": _direct_meter_dpdk_execute},
               direct_meter_storage, c_code=_COLOR_C),
        Extern("Hash", {"get_hash": _get_hash}, _hash_storage),
        Extern("InternetChecksum", {"clear": _csum_clear, "add": _csum_sum("p4_psa_csum_add"),
                                    "subtract": _csum_sum("p4_psa_csum_subtract"), "get": _csum_get,
                                    "get_state": _csum_get_state, "set_state": _csum_set_state},
               c_code=_CSUM_C, packet_state="uint16_t"),
        Extern("Checksum", {"clear": _csum_clear, "update": _csum_sum("p4_psa_csum_add"), "get": _csum_get},
               c_code=_CSUM_C, packet_state="uint16_t"),
        Extern("Random", {"read": _random_read}, no_storage),
        Extern("Digest", {"pack": _digest_pack}, _digest_storage),
        Extern("ActionProfile", {}, no_storage),
        Extern("ActionSelector", {}, no_storage),
        Extern("PacketReplicationEngine", {}, no_storage),
        Extern("BufferingQueueingEngine", {}, no_storage),
    )},
)
