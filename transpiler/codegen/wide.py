"""Values wider than 64 bits: byte arrays in network order (p4odp_bits.h), computed into temporaries."""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Unsupported

from p4odp.transpiler.ctypes_map import bits_of, is_wide

__all__ = ["WideValues"]

_WIDE_BINARY = {ir.BinaryOp.ADD: "add", ir.BinaryOp.SUB: "sub", ir.BinaryOp.MUL: "mul", ir.BinaryOp.BAND: "and",
                ir.BinaryOp.BOR: "or", ir.BinaryOp.BXOR: "xor", ir.BinaryOp.ADD_SAT: "add_sat",
                ir.BinaryOp.SUB_SAT: "sub_sat"}


class WideValues:
    """Wide values, casts, comparisons and shifts; bits of any width stored into byte arrays."""

    def wide_value(self, expr: ir.Expression) -> str:
        """A C array (or pointer) holding the value of the wide `expr`, in ceil(W/8) bytes."""
        typ = bits_of(expr.type)
        width = typ.width
        nbytes = (width + 7) // 8
        if isinstance(expr, ir.IntLiteral):
            data = (expr.value % (1 << width)).to_bytes(nbytes, "big")
            return "((const uint8_t[]){" + ", ".join(str(b) for b in data) + "})"
        if isinstance(expr, (ir.PathExpression, ir.Member, ir.ArrayIndex, ir.MethodCall)):
            return self.lvalue(expr).c
        tmp = self.temp("w")
        self.emit(f"uint8_t {tmp}[{nbytes}];")
        sizes = f"{nbytes}, {width}"
        if isinstance(expr, ir.Binary) and expr.op in _WIDE_BINARY:
            helper = _WIDE_BINARY[expr.op]
            if typ.signed and expr.op in (ir.BinaryOp.ADD_SAT, ir.BinaryOp.SUB_SAT):
                helper = "s" + helper
            left, right = self.wide_value(expr.left), self.wide_value(expr.right)
            self.emit(f"p4odp_wide_{helper}({tmp}, {left}, {right}, {sizes});")
        elif isinstance(expr, ir.Binary) and expr.op in (ir.BinaryOp.DIV, ir.BinaryOp.MOD):  # bit<W> only
            left, right = self.wide_value(expr.left), self.wide_value(expr.right)
            results = f"{tmp}, NULL" if expr.op is ir.BinaryOp.DIV else f"NULL, {tmp}"
            self.emit(f"p4odp_wide_divmod({results}, {left}, {right}, {nbytes});")
        elif isinstance(expr, ir.Binary) and expr.op in (ir.BinaryOp.SHL, ir.BinaryOp.SHR):
            helper = "shl" if expr.op is ir.BinaryOp.SHL else "sshr" if typ.signed else "shr"
            left, amount = self.wide_value(expr.left), self.shift_amount(expr.right)
            self.emit(f"p4odp_wide_{helper}({tmp}, {left}, {amount}, {sizes});")
        elif isinstance(expr, ir.Binary) and expr.op is ir.BinaryOp.CONCAT:
            self.emit(f"memset({tmp}, 0, sizeof {tmp});")
            offset = nbytes * 8 - width
            for part in (expr.left, expr.right):
                self.store_value(tmp, offset, part)
                offset += t.bit_width(part.type)
        elif isinstance(expr, ir.Unary) and expr.op is not ir.UnaryOp.NOT:
            inner = self.wide_value(expr.expr)
            if expr.op is ir.UnaryOp.PLUS:
                self.emit(f"memcpy({tmp}, {inner}, sizeof {tmp});")
            else:
                self.emit(f"p4odp_wide_{'neg' if expr.op is ir.UnaryOp.NEG else 'not'}({tmp}, {inner}, {sizes});")
        elif isinstance(expr, ir.Cast):
            self.wide_cast(tmp, expr)
        elif isinstance(expr, ir.Slice):
            hi, lo = self.gen.const_int(expr.high), self.gen.const_int(expr.low)
            base_width = bits_of(expr.expr.type).width
            self.emit(f"memset({tmp}, 0, sizeof {tmp});")
            base_pad = (base_width + 7) // 8 * 8 - base_width
            self.emit(f"p4odp_copy_bits({tmp}, {nbytes * 8 - width}, {self.wide_value(expr.expr)}, "
                      f"{base_pad + base_width - 1 - hi}, {hi - lo + 1});")
        elif isinstance(expr, ir.Mux):
            cond = self.value(expr.cond)
            self.emit(f"if ({cond}) {{")
            self.nested_wide_copy(tmp, expr.then)
            self.emit("} else {")
            self.nested_wide_copy(tmp, expr.otherwise)
            self.emit("}")
        else:
            raise Unsupported(expr.loc, f"this operation on values wider than 64 bits ({type(expr).__name__})")
        return tmp

    def nested_wide_copy(self, dst: str, expr: ir.Expression) -> None:
        self.indent += 1
        self.emit(f"memcpy({dst}, {self.wide_value(expr)}, sizeof {dst});")
        self.indent -= 1

    def wide_cast(self, dst: str, expr: ir.Cast) -> None:
        """`dst` = the cast `expr` to a wide bit<W>/int<W>: from a narrower value, sign-extended when signed."""
        to, src = bits_of(expr.type), expr.expr.type
        nbytes, width = (to.width + 7) // 8, to.width
        if not is_wide(src):
            inner = self.value(expr.expr)
            signed = bits_of(src) is not None and bits_of(src).signed
            if signed:
                self.emit(f"p4odp_wide_from_i64({dst}, {nbytes}, {width}, (int64_t)({inner}));")
            else:
                self.emit(f"p4odp_wide_from_u64({dst}, {nbytes}, {width}, (uint64_t)({inner}));")
            return
        inner = self.wide_value(expr.expr)
        src = bits_of(src)
        keep = min(width, src.width)
        src_pad = (src.width + 7) // 8 * 8 - src.width
        self.emit(f"memset({dst}, 0, {nbytes});")
        self.emit(f"p4odp_copy_bits({dst}, {nbytes * 8 - keep}, {inner}, {src_pad + src.width - keep}, {keep});")
        if src.signed and width > src.width:  # sign-extend: move the sign bit to the top and back
            grow = width - src.width
            self.emit(f"p4odp_wide_shl({dst}, {dst}, {grow}, {nbytes}, {width});")
            self.emit(f"p4odp_wide_sshr({dst}, {dst}, {grow}, {nbytes}, {width});")

    def shift_amount(self, expr: ir.Expression) -> str:
        if is_wide(expr.type):  # an amount that does not fit 64 bits shifts everything out
            amount = self.wide_value(expr)
            nbytes = (bits_of(expr.type).width + 7) // 8
            return f"(p4odp_wide_is_zero({amount}, {nbytes} - 8) ? p4odp_wide_to_u64({amount}, {nbytes}) : UINT64_MAX)"
        return f"(uint64_t)({self.value(expr)})"

    def store_value(self, buf: str, offset, expr: ir.Expression) -> None:
        """Write the bits of `expr` (any width) at bit `offset` of the byte array `buf`."""
        width = t.bit_width(expr.type)
        if is_wide(expr.type):
            pad = (width + 7) // 8 * 8 - width
            self.emit(f"p4odp_copy_bits({buf}, {offset}, {self.wide_value(expr)}, {pad}, {width});")
        elif width:
            self.emit(f"p4odp_store_bits({buf}, {offset}, {width}, (uint64_t)({self.value(expr)}));")

    def pack_bits(self, buf: str, elements: list) -> int:
        """Declare the byte array `buf` holding the bits of `elements` one after the other, as BMv2 packs
        a field list (hash data, an action selector's keys); the number of bytes."""
        total = sum(t.bit_width(e.type) for e in elements)
        self.emit(f"uint8_t {buf}[{max((total + 7) // 8, 1)}] = {{0}};")
        offset = 0
        for element in elements:
            self.store_value(buf, offset, element)
            offset += t.bit_width(element.type)
        return (total + 7) // 8

    def wide_compare(self, expr: ir.Binary) -> str:
        ltype = bits_of(expr.left.type)
        nbytes = (ltype.width + 7) // 8
        left, right = self.wide_value(expr.left), self.wide_value(expr.right)
        if ltype.signed:
            return f"(p4odp_wide_scmp({left}, {right}, {nbytes}, {ltype.width}) {expr.op.value} 0)"
        return f"(p4odp_wide_cmp({left}, {right}, {nbytes}) {expr.op.value} 0)"

    def wide_bit_offset(self, typ, low: str, width: int) -> str:
        """Where the `width` bits from bit `low` (counted from the least significant) of a wide `typ` value
        start in its bytes."""
        bits = bits_of(typ).width
        return f"({(bits + 7) // 8 * 8} - {low} - {width})"

    def wide_low_bits(self, expr: ir.Expression, high: int, low: int) -> str:
        """Bits `high`..`low` (at most 64) of the wide `expr`, as a uint64_t."""
        width = bits_of(expr.type).width
        pad = (width + 7) // 8 * 8 - width
        return f"p4odp_load_bits({self.wide_value(expr)}, {pad + width - 1 - high}, {high - low + 1})"
