"""The externs of core.p4, which every architecture shares: packet_in, packet_out and verify."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Unsupported
from p4odp.transpiler.architectures import Extern

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext

__all__ = ["CORE_EXTERNS"]


def _extract(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    if len(args) == 1 and isinstance(args[0], ir.DontCare):  # skip a header's bits
        ctx.skip_bits(_header_width(args[0].type), call.loc)
    elif len(args) == 1:
        ctx.extract(args[0])
    else:
        ctx.extract(args[0], ctx.value(args[1]))


def _lookahead(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    if isinstance(call.type, t.StructLike):
        return ctx.lookahead_struct(call.type, call.loc)
    width = t.bit_width(call.type)
    if width is None:
        raise Unsupported(call.loc, f"lookahead of {call.type}")
    ctx.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
             f"pc->error = {ctx.gen.error_code('PacketTooShort')}; goto st_reject; }}")
    if width <= 64:
        return f"p4odp_load_bits(pc->data, pc->cursor, {width})"
    # A value wider than 64 bits: its bytes in network order, right-aligned as wide values are.
    value = ctx.temp("la")
    ctx.emit(f"uint8_t {value}[{(width + 7) // 8}];")
    ctx.emit(f"p4odp_copy_bits({value}, {(width + 7) // 8 * 8 - width}, pc->data, pc->cursor, {width});")
    return value


def _advance(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.skip_bits(ctx.value(args[0]), call.loc)


def _length(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    return "(uint64_t)pc->len"


def _emit(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.emit_header(args[0])


def _verify(ctx: FunctionContext, call: ir.MethodCall, args: list) -> None:
    ctx.emit(f"if (!({ctx.value(args[0])})) {{ pc->error = {ctx.value(args[1])}; goto st_reject; }}")


def _header_width(typ: t.Type) -> Optional[int]:
    """The bits of a fixed-size header in a packet; None for anything else."""
    if not isinstance(typ, t.StructLike) or typ.kind != "header" or any(isinstance(f.type, t.Varbit)
                                                                         for f in typ.fields):
        return None
    return t.packet_width(typ)


def _static_assert(ctx: FunctionContext, call: ir.MethodCall, args: list) -> str:
    """true: the front end refused the program where the condition is false (a compile-time check)."""
    return "1"


CORE_EXTERNS = (
    Extern("packet_in", {"extract": _extract, "lookahead": _lookahead, "advance": _advance, "length": _length}),
    Extern("packet_out", {"emit": _emit}),
    Extern("verify", {"verify": _verify}, function=True),
    Extern("static_assert", {"static_assert": _static_assert}, function=True),
)
