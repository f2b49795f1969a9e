"""Packets: parser states and their transitions, headers extracted from and emitted into packets."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc, Unsupported
from p4odp.transpiler.codegen._types import is_union, value_set_widths
from p4odp.transpiler.codegen.scope import ExternInstance
from p4odp.transpiler.passes._walk import member_path
from p4odp.transpiler.ctypes_map import bits_of, c_ident, is_wide

__all__ = ["Packets"]


class Packets:
    """Parsers, and headers in and out of packets: `extract`, `lookahead`, `advance`, `emit`."""

    # ------------------------------------------------------------------
    # Parsers

    def parser_body(self, decl: ir.Parser) -> list[str]:
        self.states(decl)
        self.lines.append("st_accept:")
        self.emit("return 1;")
        self.lines.append("st_reject:")
        self.emit("return 0;")
        return self.lines

    def states(self, decl: ir.Parser) -> None:
        self.emit(f"goto {self.state_label('start')};")
        for state in decl.states:
            # An empty statement after the label: a declaration may come first, and a label
            # before a declaration is C23 (GCC takes it earlier, clang 14 refuses it).
            self.lines.append(f"{self.state_label(state.name)}: ;")
            self.loc_line(state.loc)
            for stmt in state.components:
                self.statement(stmt)
            self.line_directive(state.transition.loc)
            self.transition(state.transition)

    def state_label(self, name: str) -> str:
        """The C label of a parser state, distinct for each state (inlined states have dotted names)."""
        if name in ("accept", "reject"):
            return f"st_{name}"
        label = self.state_labels.get(name)
        if label is None:
            label = base = f"st_{c_ident(name)}"
            while label in self.state_labels.values() or label in ("st_accept", "st_reject"):
                label = f"{base}_{next(self.gen.tmp)}"
            self.state_labels[name] = label
        return label

    def transition(self, expr: ir.Expression) -> None:
        if isinstance(expr, ir.PathExpression):
            self.emit(f"goto {self.state_label(expr.name)};")
            return
        assert isinstance(expr, ir.SelectExpression)
        keys = []
        for key in expr.keys:
            name = self.temp("k")
            if is_wide(key.type):  # its bytes, in network order
                self.emit(f"const uint8_t *{name} = {self.wide_value(key)};")
            else:
                self.emit(f"uint64_t {name} = {self.value(key)};")
            keys.append((name, key.type))
        for case in expr.cases:
            cond = self.keyset_match(case.keyset, keys)
            self.emit(f"if ({cond})")
            self.emit(f"\tgoto {self.state_label(case.state.name)};")
        self.emit(f"pc->error = {self.gen.error_code('NoMatch')};")
        self.emit("goto st_reject;")

    def wide_keyset_match(self, keyset: ir.Expression, key: str, key_type: t.Type) -> str:
        """keyset_match for a key wider than 64 bits (its bytes at `key`): bytes compared in network
        order, which is the numbers' order."""
        nbytes = (bits_of(key_type).width + 7) // 8
        if isinstance(keyset, ir.Binary) and keyset.op is ir.BinaryOp.MASK:
            return (f"p4odp_wide_masked_eq({key}, {self.wide_value(keyset.left)}, {self.wide_value(keyset.right)}, "
                    f"{nbytes})")
        if isinstance(keyset, ir.Binary) and keyset.op is ir.BinaryOp.RANGE:
            return (f"p4odp_wide_cmp({key}, {self.wide_value(keyset.left)}, {nbytes}) >= 0 && "
                    f"p4odp_wide_cmp({key}, {self.wide_value(keyset.right)}, {nbytes}) <= 0")
        if isinstance(keyset.type, t.SetT):
            raise Unsupported(keyset.loc, "this keyset")
        return f"p4odp_wide_cmp({key}, {self.wide_value(keyset)}, {nbytes}) == 0"

    def packed_keys(self, value_set: ExternInstance, keys: list, loc: Loc) -> str:
        """The select keys as one value of the value set, in network order in a buffer this emits: a
        struct's fields one after the other, the first in the high bits (as BMv2 packs a value
        set's members); the buffer's name."""
        widths = value_set_widths(value_set.element)
        if len(widths) != len(keys):
            raise Unsupported(loc, f"value set {value_set.name} of {len(widths)} field(s) for {len(keys)} select key(s)")
        nbytes = (sum(widths) + 7) // 8
        packed = self.temp("packed")
        self.emit(f"uint8_t {packed}[{nbytes}] = {{ 0 }};")
        offset = nbytes * 8 - sum(widths)
        for (name, key_type), width in zip(keys, widths):
            if is_wide(key_type):  # its bytes, the value in their low bits
                self.emit(f"p4odp_copy_bits({packed}, {offset}, {name}, {(width + 7) // 8 * 8 - width}, {width});")
            else:
                self.emit(f"p4odp_store_bits({packed}, {offset}, {width}, {name});")
            offset += width
        return packed

    def keyset_match(self, keyset: ir.Expression, keys: list) -> str:
        if isinstance(keyset, (ir.DefaultExpression, ir.DontCare)):
            return "1"
        if isinstance(keyset, ir.ListExpression) and len(keys) > 1:
            parts = [self.keyset_match(e, [k]) for e, k in zip(keyset.elements, keys)]
            return " && ".join(f"({p})" for p in parts) or "1"
        if isinstance(keyset, ir.ListExpression) and len(keyset.elements) == 1:
            return self.keyset_match(keyset.elements[0], keys)
        value_set = self.resolve(keyset) if isinstance(keyset, ir.PathExpression) and isinstance(keyset.type, t.SetT) \
            else None
        if isinstance(value_set, ExternInstance) and value_set.kind == "value_set":
            packed = self.packed_keys(value_set, keys, keyset.loc)
            return (f"p4odp_value_set_has(&STATE->{value_set.member}[0].used, {value_set.size}, "
                    f"sizeof STATE->{value_set.member}[0], {packed}, sizeof {packed})")
        key, key_type = keys[0]
        if is_wide(key_type):
            return self.wide_keyset_match(keyset, key, key_type)
        if isinstance(keyset, ir.Binary) and keyset.op is ir.BinaryOp.MASK:
            mask = self.value(keyset.right)
            return f"({key} & {mask}) == ({self.value(keyset.left)} & {mask})"
        if isinstance(keyset, ir.Binary) and keyset.op is ir.BinaryOp.RANGE:
            high = f"{key} <= {self.value(keyset.right)}"
            if isinstance(keyset.left, ir.IntLiteral) and keyset.left.value == 0:
                return high  # `key >= 0` is always true of the uint64_t key (-Wtype-limits)
            return f"{key} >= {self.value(keyset.left)} && {high}"
        if isinstance(keyset.type, t.SetT):
            raise Unsupported(keyset.loc, "this keyset")
        return f"{key} == (uint64_t){self.value(keyset)}"

    # ------------------------------------------------------------------
    # Headers in and out of packets

    def extract(self, target: ir.Expression, varbit_size: Optional[str] = None) -> None:
        typ = target.type
        if not isinstance(typ, t.StructLike) or typ.kind != "header":
            raise Unsupported(target.loc, f"extract into {typ}")
        stack_expr = _next_of(target)
        if stack_expr is not None:
            stack = self.lvalue(stack_expr)
            self.emit(f"if (p4odp_unlikely({stack.c}._next >= {stack.type.size})) {{ "
                      f"pc->error = {self.gen.error_code('StackOutOfBounds')}; goto st_reject; }}")
        dst = self.lvalue(target).c
        fixed = t.packet_width(typ)
        width = str(fixed)
        if varbit_size is not None:
            varbit = next(f for f in typ.fields if isinstance(f.type, t.Varbit))
            size = self.temp("vb")
            self.emit(f"uint32_t {size} = (uint32_t)({varbit_size});")
            # As BMv2: a size that is not whole bytes is ParserInvalidArgument, one past the
            # varbit's maximum HeaderTooShort.
            self.emit(f"if (p4odp_unlikely({size} % 8)) {{ "
                      f"pc->error = {self.gen.error_code('ParserInvalidArgument')}; goto st_reject; }}")
            self.emit(f"if (p4odp_unlikely({size} > {varbit.type.width})) {{ "
                      f"pc->error = {self.gen.error_code('HeaderTooShort')}; goto st_reject; }}")
            width = f"({fixed} + {size})"
        self.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
                  f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
        offset = "0"
        unread = self.gen.unread_fields.get(typ.name, ())
        for f in typ.fields:
            if f.name in unread:  # nothing reads it (unread-fields pass)
                offset = f"{offset} + {t.packet_width(f.type)}"
                continue
            if isinstance(f.type, t.Varbit):
                member = f"{dst}.{c_ident(f.name)}"
                self.emit(f"{member}.len = {size};")
                self.emit(f"memset({member}.b, 0, sizeof {member}.b);")
                self.emit(f"p4odp_copy_bits({member}.b, 0, pc->data, pc->cursor + {offset}, {size});")
                offset = f"{offset} + {size}"
                continue
            offset = f"{offset} + {self.field_io(f, dst, offset, target.loc, load=True, checked=fixed)}"
        self.emit(f"{dst}._valid = 1;")
        self.emit(f"pc->cursor += {width};")
        if isinstance(target, ir.Member) and is_union(target.expr.type):
            self.invalidate_union_siblings(target)
        if stack_expr is not None:
            self.emit(f"{self.lvalue(stack_expr).c}._next++;")

    def skip_bits(self, amount, loc: Loc) -> None:
        """Move the parser's cursor `amount` bits on (PacketTooShort past the end)."""
        if amount is None:
            raise Unsupported(loc, "skipping a header of this type")
        self.emit(f"if (p4odp_unlikely(pc->cursor + ({amount}) > pc->len * 8)) {{ "
                  f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
        self.emit(f"pc->cursor += (uint32_t)({amount});")

    def invalidate_union_siblings(self, member: ir.Member) -> None:
        """A header union holds one valid member at most: the others of `member`'s union become invalid."""
        union = self.lvalue(member.expr).c
        for f in member.expr.type.fields:
            if f.name != member.member:
                self.emit(f"{union}.{c_ident(f.name)}._valid = 0;")

    def lookahead_struct(self, typ: t.StructLike, loc: Loc) -> str:
        """A copy of the header or struct that starts at the parser's cursor, which does not move: every
        header in it valid."""
        width = t.packet_width(typ)
        if width is None:
            raise Unsupported(loc, f"lookahead of {typ}")
        tmp = self.temp("la")
        self.emit(f"{self.gen.type_c(typ, loc)} {tmp};")
        self.emit(f"memset(&{tmp}, 0, sizeof {tmp});")
        self.emit(f"if (p4odp_unlikely(pc->cursor + {width} > pc->len * 8)) {{ "
                  f"pc->error = {self.gen.error_code('PacketTooShort')}; goto st_reject; }}")
        offset = 0
        for f in typ.fields:
            offset += self.field_io(f, tmp, str(offset), loc, load=True, checked=width)
        if typ.kind == "header":
            self.emit(f"{tmp}._valid = 1;")
        return tmp

    def field_io(self, f: t.Field, dst: str, offset: str, loc: Loc, load: bool, checked: Optional[int] = None) -> int:
        """Load field `f` of `dst` from the packet at bit `offset` after the cursor, or emit it; the
        bits it takes (a struct inside a header, a header inside a looked-ahead struct: its fields one
        after the other).  `checked`: the bits after the cursor that the packet is known to hold;
        `loc`, the place of the extract, lookahead or emit."""
        ftype = f.type
        if isinstance(ftype, t.StructLike) and (ftype.kind == "struct" or ftype.kind == "header" and load):
            member, width = f"{dst}.{c_ident(f.name)}", 0
            for inner in ftype.fields:
                width += self.field_io(inner, member, f"{offset} + {width}", loc, load, checked)
            if ftype.kind == "header":
                self.emit(f"{member}._valid = 1;")
            return width
        if isinstance(ftype, t.Stack) and not t.is_bits_array(ftype) and load:  # a looked-ahead header stack
            if ftype.element.kind != "header":
                raise Unsupported(loc, f"lookahead of a stack of {ftype.element}")
            member, width = f"{dst}.{c_ident(f.name)}", 0
            for i in range(ftype.size):
                for inner in ftype.element.fields:
                    width += self.field_io(inner, f"{member}.e[{i}]", f"{offset} + {width}", loc, load, checked)
                self.emit(f"{member}.e[{i}]._valid = 1;")
            self.emit(f"{member}._next = {ftype.size};")
            return width
        if isinstance(ftype, t.Varbit) and not load:
            member = f"{dst}.{c_ident(f.name)}"
            self.emit(f"p4odp_copy_bits(pc->out, pc->out_bits, {member}.b, 0, {member}.len); "
                      f"pc->out_bits += {member}.len;")
            return 0
        member = f"{dst}.{c_ident(f.name)}"
        if t.is_bits_array(ftype):  # its elements one after the other
            width = 0
            for i in range(ftype.size):
                width += self.value_io(f"{member}.e[{i}]", ftype.element, f"{offset} + {width}", loc, load,
                                       checked)
            return width
        return self.value_io(member, ftype, offset, loc, load, checked)

    def value_io(self, member: str, ftype: t.Type, offset: str, loc: Loc, load: bool,
                 checked: Optional[int]) -> int:
        """Load the C lvalue `member` of type `ftype` (a bit string) from the packet at bit `offset`
        after the cursor, or emit it (field_io's arguments); its bits."""
        while isinstance(ftype, (t.EnumT, t.NewTypeT)):  # a `type` may be of another `type`
            ftype = ftype.underlying if isinstance(ftype, t.EnumT) else ftype.base
        if isinstance(ftype, t.Bool):
            ftype = t.Bits(1)
        if not isinstance(ftype, t.Bits):
            raise Unsupported(loc, f"header fields of type {ftype}")
        width = ftype.width
        if width > 64:
            pad = (width + 7) // 8 * 8 - width
            if load:
                self.emit(f"p4odp_copy_bits({member}, {pad}, pc->data, pc->cursor + {offset}, {width});")
            elif self.byte_aligned:
                self.emit(f"p4odp_copy_bits(pc->out + pc->out_bits / 8, {offset}, {member}, {pad}, {width});")
            else:
                self.emit(f"p4odp_copy_bits(pc->out, pc->out_bits, {member}, {pad}, {width}); "
                          f"pc->out_bits += {width};")
            return width
        if load:
            # At a whole byte the offset from the header's first byte is a constant the C compiler folds.
            at = f"pc->data + pc->cursor / 8, {offset}" if self.byte_aligned else f"pc->data, pc->cursor + {offset}"
            load_bits = "p4odp_load_bits_in8" if self.byte_aligned and _pieces_in_8_bytes(offset, width, checked) \
                else "p4odp_load_bits"
            value = f"{load_bits}({at}, {width})"
            if ftype.signed:
                value = f"p4odp_sext({value}, {width})"
            self.emit(f"{member} = {value};")
        elif self.byte_aligned:  # `emit_header` moves the position once, after the header
            self.emit(f"p4odp_store_bits(pc->out + pc->out_bits / 8, {offset}, {width}, (uint64_t){member});")
        else:
            self.emit(f"p4odp_store_bits(pc->out, pc->out_bits, {width}, (uint64_t){member}); "
                      f"pc->out_bits += {width};")
        return width

    def emit_header(self, target: ir.Expression) -> None:
        typ = target.type
        if isinstance(typ, t.StructLike) and typ.kind == "struct":
            for f in typ.fields:
                self.emit_header(ir.Member(target.loc, target, f.name, type=f.type))
            return
        if isinstance(typ, t.Stack):
            for i in range(typ.size):
                self.emit_header(ir.ArrayIndex(target.loc, target, ir.IntLiteral(target.loc, i, type=t.InfInt()),
                                               type=typ.element))
            return
        if isinstance(typ, t.StructLike) and typ.kind == "header_union":
            for f in typ.fields:
                self.emit_header(ir.Member(target.loc, target, f.name, type=f.type))
            return
        if not isinstance(typ, t.StructLike) or typ.kind != "header":
            raise Unsupported(target.loc, f"emit of {typ}")
        src = self.lvalue(target).c
        if self.gen.deparse_in_place is not None:
            self.write_in_place(target, typ, src)
            return
        width = sum(f.type.width if isinstance(f.type, t.Varbit) else t.packet_width(f.type) or 0 for f in typ.fields)
        self.emit(f"if ({src}._valid && p4odp_emit_room(pc, {width})) {{")
        self.indent += 1
        offset = 0
        for f in typ.fields:
            offset += self.field_io(f, src, str(offset), target.loc, load=False)
        if self.byte_aligned:
            self.emit(f"pc->out_bits += {offset};")
        self.indent -= 1
        self.emit("}")


    def write_in_place(self, target: ir.Expression, typ: t.StructLike, src: str) -> None:
        """The fields of header `target` the program may have written, stored where the parser read
        them in this copy's packet (the deparse-in-place pass's plan), when it is valid."""
        header = self.gen.deparse_in_place[member_path(target)[1]]
        if not header.written:
            return
        self.emit(f"if ({src}._valid) {{")
        self.indent += 1
        offset = header.offset
        for f in typ.fields:
            width = t.packet_width(f.type)
            if f.name in header.written:
                member = f"{src}.{c_ident(f.name)}"
                if t.is_bits_array(f.type):
                    element = t.packet_width(f.type.element)
                    for i in range(f.type.size):
                        self.store_in_place(f"{member}.e[{i}]", offset + i * element, element)
                else:
                    self.store_in_place(member, offset, width)
            offset += width
        self.indent -= 1
        self.emit("}")

    def store_in_place(self, member: str, offset: int, width: int) -> None:
        """The bit string `member` written at bit `offset` of this copy's packet."""
        if width > 64:
            pad = (width + 7) // 8 * 8 - width
            self.emit(f"p4odp_copy_bits(pc->data, {offset}, {member}, {pad}, {width});")
        else:
            self.emit(f"p4odp_store_bits(pc->data, {offset}, {width}, (uint64_t){member});")


def _next_of(target: ir.Expression) -> Optional[ir.Expression]:
    """The stack whose `next` element `target` is (`s.next`, or a member of a union stack's `s.next`)."""
    if isinstance(target, ir.Member) and target.member == "next":
        return target.expr
    if isinstance(target, ir.Member) and is_union(target.expr.type):
        return _next_of(target.expr)
    return None


def _pieces_in_8_bytes(offset: str, width: int, checked: Optional[int]) -> bool:
    """Whether the field of `width` bits at bit `offset` (a sum of constants, else not known) spans
    3, 5, 6 or 7 bytes, which p4odp_load_bits reads in pieces, and the 8 bytes from its first one
    lie within the first `checked` bits after the cursor (p4odp_load_bits_in8 reads them at once)."""
    terms = [term.strip() for term in offset.split("+")]
    if checked is None or not all(term.isdigit() for term in terms):
        return False
    bit = sum(map(int, terms))
    return (bit % 8 + width + 7) // 8 in (3, 5, 6, 7) and bit // 8 + 8 <= checked // 8
