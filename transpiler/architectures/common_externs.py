"""The C of what the architectures' externs share: the storage of registers, counters and meters (and
their direct forms, and of the instances without state), a register's read and write, assert() and
assume() with BMv2's message, digests' messages, hash algorithms by the runtime's names and the
values of a data list.  v1model, PSA and PNA name their externs' methods after these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Unsupported, source_line
from p4odp.transpiler.codegen.scope import Binding, ExternInstance
from p4odp.transpiler.ctypes_map import c_ident, c_string
from p4odp.transpiler.model import CCounter, CMeter, CRegister

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext
    from p4odp.transpiler.codegen.program import Generator

__all__ = ["check", "counter_count", "send_digest", "digest_leaves", "CUSTOM_CRCS", "hash_algorithm", "data_elements",
           "instance_of",
           "array_storage", "direct_counter_storage", "meter_storage", "direct_meter_storage", "no_storage",
           "register_access"]


def check(kind: str):
    """assert() and assume(): p4odp_check with BMv2's message for a false check."""

    def handler(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
        loc = call.loc
        failure = f"{kind} error: {_source_fragment(loc)} failed, file {loc.file}, line {loc.line}"
        ctx.emit(f"p4odp_check(pc, {ctx.value(args[0])}, {c_string(failure)});")

    return handler


def _source_fragment(loc) -> str:
    """The call at `loc` as the program writes it, to its closing parenthesis on that line (BMv2's
    source fragment); the rest of the line when it goes on."""
    line = source_line(loc)
    if line is None:
        return "the check"
    text, depth = line[max(loc.col - 1, 0):], 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ")" and depth == 0:
            return text[:i + 1]
    return text.strip()


def send_digest(ctx: FunctionContext, call: ir.MethodCall, name: str, data: ir.Expression) -> None:
    """A message of data's fields, each big-endian in whole bytes, handed to p4odp_digest for the
    control plane as digest `name` (v1model's digest(), PSA's Digest.pack)."""
    leaves = digest_leaves(ctx.gen.errors, data)
    fields = [(width, names) for _, width, names in leaves]
    index = ctx.gen.digest_index(name, fields)
    if ctx.gen.digests[index].fields != fields:
        raise Unsupported(call.loc, f"digest {name} sent with fields of other widths than before")
    message = f"digest{next(ctx.gen.tmp)}"
    size = sum((width + 7) // 8 for width in (w for w, _ in fields))
    if size > DIGEST_BYTES:
        raise Unsupported(call.loc, f"a digest of {size} bytes (at most {DIGEST_BYTES})")
    ctx.emit(f"uint8_t {message}[{max(size, 1)}] = {{0}};")
    offset = 0
    for value, width, names in leaves:
        pad = (width + 7) // 8 * 8 - width
        if names is not None and not isinstance(value.type, t.ErrorT):  # an enum without representation: its number
            ctx.emit(f"p4odp_store_bits({message}, {offset + pad}, {width}, (uint64_t)({ctx.value(value)}));")
        else:
            ctx.store_value(message, offset + pad, value)
        offset += pad + width
    ctx.emit(f"p4odp_digest(pc, {index}, {message});")


DIGEST_BYTES = 256  # P4ODP_DIGEST_BYTES


def digest_leaves(errors: list, data: ir.Expression) -> list:
    """The fields of a digest's data, nested structs flattened: (value, bits, member names or None);
    `errors` names the program's errors by code."""
    leaves = []
    for value in data_elements(data):
        typ = value.type
        if isinstance(typ, t.StructLike) and typ.kind == "struct":
            leaves += digest_leaves(errors, value)
        elif isinstance(typ, t.ErrorT):
            leaves.append((value, 32, tuple(errors)))
        elif isinstance(typ, t.EnumT) and typ.underlying is None:
            leaves.append((value, 32, tuple(name for name, _ in typ.members)))
        elif t.bit_width(typ) is not None:
            leaves.append((value, t.bit_width(typ), None))
        else:
            raise Unsupported(value.loc, f"a digest field of type {typ}")
    return leaves


CUSTOM_CRCS = {"P4ODP_HASH_CRC16_CUSTOM": 16, "P4ODP_HASH_CRC32_CUSTOM": 32}


def hash_algorithm(gen: Generator, algo: ir.Expression) -> str:
    """The runtime's hash algorithm (P4ODP_HASH_*) that `algo`, a member of the architecture's enum
    of them, names."""
    found = gen.architecture.hash_algorithms.get(algo.member) if isinstance(algo, ir.Member) else None
    if found is None:
        raise Unsupported(algo.loc, "a hash algorithm that is not a constant member of "
                                    f"{gen.architecture.name}'s enum of them")
    return found


def data_elements(data: ir.Expression) -> list:
    """The values a list, struct or tuple argument (hash data, log_msg values) holds, in order; a
    value alone is a list of one."""
    if isinstance(data, ir.ListExpression):
        return list(data.elements)
    if isinstance(data, ir.StructExpression):
        return [f.value for f in data.fields]
    if isinstance(data.type, t.StructLike):
        return [ir.Member(data.loc, data, f.name, type=f.type) for f in data.type.fields]
    if isinstance(data.type, t.TupleT):
        return [ir.ArrayIndex(data.loc, data, ir.IntLiteral(data.loc, i, type=t.InfInt()), type=e)
                for i, e in enumerate(data.type.elements)]
    return [data]


def instance_of(ctx: FunctionContext, call: ir.MethodCall) -> ExternInstance:
    target = call.method.expr
    instance = ctx.resolve(target) if isinstance(target, ir.PathExpression) else None
    if not isinstance(instance, ExternInstance):
        raise Unsupported(call.loc, "this extern instance")
    return instance


def array_storage(gen: Generator, decl: ir.Instance) -> ExternInstance:
    """A register or counter, its size the first argument: a register is an array in `struct p4_state`,
    which the workers share; a counter's cells are in `struct p4_worker_state`, one array per worker,
    so that counting never writes a cache line another worker writes (the control plane sums them)."""
    typ: t.ExternT = decl.type
    member = _member(decl)
    size = gen.const_int(decl.args[0].value) if decl.args else 1
    element = None
    if gen.architecture.object_kinds.get(typ.name) == "register":
        element = typ.type_args[0]
        gen.state.append(gen.member_decl(element, f"{member}[{max(size, 1)}]", decl.loc))
        # The control plane reads and writes cells of a bit string (bit<W>, int<W>, bool, a
        # serializable enum), or of a struct of them.
        fields = _register_fields(element, "")
        name = decl.control_name or decl.name
        if isinstance(element, t.StructLike) and fields:
            gen.registers.append(CRegister(name, size or 0, member, 8 * sum((w + 7) // 8 for _, w, _ in fields), False,
                                           gen.type_c(element, decl.loc), fields))
        elif fields:
            [(_, width, signed)] = fields
            gen.registers.append(CRegister(name, size or 0, member, width, signed))
    else:
        gen.worker_state.append(f"uint64_t {member}[{max(size, 1)}][2]")
        gen.counters.append(CCounter(decl.control_name or decl.name, size or 0, member))
    return ExternInstance(decl.name, typ.name, member, size or 0, element)


def _register_fields(typ: t.Type, path: str) -> Optional[list]:
    """The values a register cell of type `typ` holds for the control plane: (its C member path
    under `path`, width, signed) of a bit string, or of each leaf of a struct of them, in order;
    None for any other type."""
    if isinstance(typ, t.StructLike) and typ.kind == "struct" and typ.fields:
        leaves = [_register_fields(f.type, f"{path}.{c_ident(f.name)}".lstrip(".")) for f in typ.fields]
        return None if None in leaves else [leaf for found in leaves for leaf in found]
    width = t.bit_width(typ)
    if not isinstance(typ, (t.Bits, t.Bool, t.EnumT)) or not width:
        return None
    bits = typ.underlying if isinstance(typ, t.EnumT) else typ
    return [(path, width, isinstance(bits, t.Bits) and bits.signed)]


def _attached_table(gen: Generator, decl: ir.Instance):
    """The layout of the table whose `counters` or `meters` property names the direct counter or
    meter `decl`, or None."""
    return next((layout for layout in gen.table_layouts.values()
                 if decl.name in (layout.direct_counter, layout.direct_meter)), None)


def direct_counter_storage(gen: Generator, decl: ir.Instance) -> ExternInstance:
    """A direct counter's cells, per worker as a counter's: one per entry index of the table whose
    `counters` property names it (the table apply counts its hits, table-layout)."""
    table = _attached_table(gen, decl)
    member = _member(decl)
    if table is None:  # attached to no table that the pipeline applies: it counts nothing
        return ExternInstance(decl.name, decl.type.name, member, 0, None)
    gen.worker_state.append(f"uint64_t {member}[{table.size}][2]")
    gen.counters.append(CCounter(decl.control_name or decl.name, table.size, member, table.index))
    return ExternInstance(decl.name, decl.type.name, member, table.size, None)


def meter_storage(gen: Generator, decl: ir.Instance) -> ExternInstance:
    """A meter's cells in `struct p4_state`: the workers share them (a cell is metered under its lock,
    so that every worker's packets take from the same buckets)."""
    member = _member(decl)
    size = gen.const_int(decl.args[0].value) if decl.args else 1
    of_bytes = _meters_bytes(decl.args[1].value if len(decl.args) > 1 else None)
    gen.state.append(f"struct p4odp_meter {member}[{max(size or 0, 1)}]")
    gen.meters.append(CMeter(decl.control_name or decl.name, size or 0, member, -1, of_bytes))
    return ExternInstance(decl.name, decl.type.name, member, size or 0, None, of_bytes)


def direct_meter_storage(gen: Generator, decl: ir.Instance) -> ExternInstance:
    """A direct meter's cells, shared as a meter's: one per entry index of the table whose `meters`
    property names it (the table apply meters its hits, table-layout)."""
    table = _attached_table(gen, decl)
    member = _member(decl)
    of_bytes = _meters_bytes(decl.args[0].value if decl.args else None)
    if table is None:  # attached to no table that the pipeline applies: it meters nothing
        return ExternInstance(decl.name, decl.type.name, member, 0, None, of_bytes)
    gen.state.append(f"struct p4odp_meter {member}[{table.size}]")
    gen.meters.append(CMeter(decl.control_name or decl.name, table.size, member, table.index, of_bytes))
    return ExternInstance(decl.name, decl.type.name, member, table.size, None, of_bytes)


def _meters_bytes(kind: Optional[ir.Expression]) -> bool:
    """Whether a meter's MeterType argument is MeterType.bytes."""
    return isinstance(kind, ir.Member) and kind.member.lower() == "bytes"  # v1model's bytes, PSA's BYTES


def no_storage(gen: Generator, decl: ir.Instance) -> ExternInstance:
    """An instance without C state: a Checksum16; an action_profile or action_selector, whose members
    and groups the runtime holds (p4odp_profile_action) for the tables whose `implementation` names
    it (table-layout)."""
    return ExternInstance(decl.name, decl.type.name, "", 0, None)


def _member(decl: ir.Instance) -> str:
    """The C name of an extern instance's storage (a member of p4_state or p4_worker_state)."""
    return c_ident(f"{decl.type.name}_{decl.control_name or decl.name}")


def register_access(ctx: FunctionContext, call: ir.MethodCall, value: ir.Expression, index_expr: ir.Expression,
                     write: bool) -> None:
    instance = instance_of(ctx, call)
    index = ctx.temp("ix")
    ctx.emit(f"uint64_t {index} = {ctx.value(index_expr)};")
    cell = Binding(f"STATE->{instance.member}[{index}]", instance.element)
    ctx.emit(f"if ({index} < {instance.size}) {{")
    ctx.indent += 1
    if write:
        ctx.assign(cell, value, call.loc)
    else:
        target = ctx.lvalue(value)
        with ctx.bindings.bound("$cell", cell):
            ctx.assign(target, ir.PathExpression(call.loc, "$cell", type=instance.element), call.loc)
        ctx.indent -= 1
        ctx.emit("} else {")  # a cell past the end reads as 0
        ctx.indent += 1
        ctx.emit(f"memset(&{target.c}, 0, sizeof {target.c});")
    ctx.indent -= 1
    ctx.emit("}")


def counter_count(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    """count(index[, pkt_len]) of v1model's counter and PSA's Counter: a packet, of pkt_len bytes with
    dpdk/psa.p4's overload, else of its own length; nothing past the end."""
    instance = instance_of(ctx, call)
    index = ctx.value(args[0])
    length = f"(uint64_t)({ctx.value(args[1])})" if len(args) > 1 else "pc->len"
    ctx.emit(f"if (({index}) < {instance.size}) "
             f"p4odp_count_packet(WORKER_STATE->{instance.member}[{index}], {length});")
