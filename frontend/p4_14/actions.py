"""P4_14's actions as P4_16 actions: the primitive actions as v1model's statements and extern
calls, the compound actions inlined with their arguments bound (p4c's conversion rules)."""

from __future__ import annotations

from typing import Optional

from p4odp.diagnostics import Diagnostics
from p4odp.frontend.p4_14 import syntax as s
from p4odp.frontend.p4_14.model import INDEX, Bits, ProgramModel
from p4odp.frontend.p4_14.writer import Writer

__all__ = ["ActionConverter"]

# The primitives that write `form` of their two operands (each of the written field's type)
# to their first (add and subtract, which saturate with their fields, and min and max, which
# compare in their operands' type, have methods of their own).
_BINARY_FORMS = {
    "bit_and": "{a} & {b}", "bit_or": "{a} | {b}", "bit_xor": "{a} ^ {b}", "bit_nand": "~({a} & {b})",
    "bit_nor": "~({a} | {b})", "bit_xnor": "~({a} ^ {b})", "bit_andca": "~{a} & {b}", "bit_andcb": "{a} & ~{b}",
    "bit_orca": "~{a} | {b}", "bit_orcb": "{a} | ~{b}",
}


class ActionConverter(ProgramModel):
    def __init__(self, program: s.Program, diags: Diagnostics, reserved: frozenset[str]) -> None:
        super().__init__(program, diags, reserved)
        self.out = Writer()
        self.emitted_actions: set[str] = set()

    def param_declaration(self, action: s.Action, name: str) -> str:
        local = self.param_local(name)
        annotation = "" if local == name else f'@name("{name}") '
        return f"{annotation}bit<{self.param_types[(action.name, name)]}> {local}"

    def emit_action(self, action: s.Action, meter: Optional[tuple[s.Stateful, str]] = None,
                    table: Optional[str] = None) -> None:
        """An action; with `meter`, the copy of it that metered `table` runs, which reads the
        table's direct meter into its result field first."""
        self.emitted_actions.add(action.name)
        out = self.out
        params = ", ".join(self.param_declaration(action, p.name) for p in action.params)
        if table is not None:
            self.metered_copies[(table, action.name)] = self.local("metered_action", f"{action.name}@{table}", action.name)
        out.open(f'@name(".{action.name}") action {self.action_local(action.name, table)}({params})', action.loc)
        if meter is not None:
            declaration, path = meter
            out.line(f"{self.local('extern', declaration.name)}.read({path});", declaration.loc)
        for call, args in self.expanded_calls(action):
            self.emit_primitive(action, call, args)
        out.close()

    def emit_primitive(self, action: s.Action, call: s.Call, args: list[s.Expr]) -> None:
        """A primitive action as statements; its arguments name `action`'s parameters."""
        if call.name in _BINARY_FORMS:
            self.binary_primitive(action.name, call, args, _BINARY_FORMS[call.name])
            return
        primitive = getattr(self, "primitive_" + call.name, None)
        if primitive is None:
            raise self.error(call.loc, f"no action or primitive action '{call.name}'")
        primitive(action.name, call, args)

    def arity(self, call: s.Call, args: list, low: int, high: Optional[int] = None) -> None:
        high = low if high is None else high
        if not low <= len(args) <= high:
            wanted = str(low) if low == high else f"{low} to {high}"
            raise self.error(call.loc, f"{call.name} takes {wanted} arguments, given {len(args)}")

    def destination(self, call: s.Call, arg: s.Expr) -> tuple[str, Bits]:
        """The field a primitive writes, and its type."""
        if not isinstance(arg, s.FieldRef):
            raise self.error(arg.loc, f"the first argument of {call.name} is a field")
        return self.field_path(arg), self.field_bits(arg)

    def primitive_modify_field(self, action, call, args) -> None:
        self.arity(call, args, 2, 3)
        path, bits = self.destination(call, args[0])
        value = self.cast(args[1], bits, action)
        if len(args) == 3:
            mask = self.cast(args[2], bits, action)
            value = f"({path} & ~{mask}) | ({value} & {mask})"
        self.out.line(f"{path} = {value};", call.loc)

    def saturating(self, args: list) -> bool:
        """Whether a field an arithmetic primitive reads or writes saturates (p4c: then it does)."""
        return any(isinstance(a, s.FieldRef) and self.field_decl(a).saturating for a in args)

    def binary_primitive(self, action, call, args, form: str) -> None:
        """`dst = form` over the two operands `a` and `b`, each of the destination's width."""
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        a, b = self.cast(args[1], bits, action), self.cast(args[2], bits, action)
        self.out.line(f"{path} = {form.format(a=a, b=b)};", call.loc)

    def primitive_add(self, action, call, args) -> None:
        self.binary_primitive(action, call, args, "{a} |+| {b}" if self.saturating(args) else "{a} + {b}")

    def primitive_subtract(self, action, call, args) -> None:
        self.binary_primitive(action, call, args, "{a} |-| {b}" if self.saturating(args) else "{a} - {b}")

    def primitive_min(self, action, call, args) -> None:
        self._extremum(action, call, args, "<")

    def primitive_max(self, action, call, args) -> None:
        self._extremum(action, call, args, ">")

    def _extremum(self, action, call, args, op: str) -> None:
        """min and max compare in the type of their first operand (p4c's rule), then assign."""
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        operands = self.bits(args[1], action) or bits
        a, b = self.cast(args[1], operands, action), self.cast(args[2], operands, action)
        self.out.line(f"{path} = {self.retyped(f'({a} {op} {b} ? {a} : {b})', operands, bits)};", call.loc)

    def primitive_bit_not(self, action, call, args) -> None:
        self.arity(call, args, 2)
        path, bits = self.destination(call, args[0])
        self.out.line(f"{path} = ~{self.cast(args[1], bits, action)};", call.loc)

    def _shift(self, action, call, args, op: str) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        self.out.line(f"{path} = {self.cast(args[1], bits, action)} {op} {self.shift_amount(args[2], action, None)};",
                       call.loc)

    def primitive_shift_left(self, action, call, args) -> None:
        self._shift(action, call, args, "<<")

    def primitive_shift_right(self, action, call, args) -> None:
        self._shift(action, call, args, ">>")

    def primitive_add_to_field(self, action, call, args) -> None:
        self.arity(call, args, 2)
        path, bits = self.destination(call, args[0])
        op = "|+|" if self.saturating(args) else "+"
        self.out.line(f"{path} = {path} {op} {self.cast(args[1], bits, action)};", call.loc)

    def primitive_subtract_from_field(self, action, call, args) -> None:
        self.arity(call, args, 2)
        path, bits = self.destination(call, args[0])
        op = "|-|" if self.saturating(args) else "-"
        self.out.line(f"{path} = {path} {op} {self.cast(args[1], bits, action)};", call.loc)

    def primitive_modify_field_conditionally(self, action, call, args) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        condition = self.expression(args[1], action)
        if self.width(args[1], action) is not None:  # a field or parameter: true where not 0
            condition = f"{condition} != 0"
        self.out.line(f"{path} = ({condition} ? {self.cast(args[2], bits, action)} : {path});", call.loc)

    def primitive_modify_field_with_shift(self, action, call, args) -> None:
        self.arity(call, args, 4)
        path, bits = self.destination(call, args[0])
        mask = self.cast(args[3], bits, action)
        shifted = f"({self.cast(args[1], bits, action)} >> {self.shift_amount(args[2], action, None)})"
        self.out.line(f"{path} = ({path} & ~{mask}) | ({shifted} & {mask});", call.loc)

    def header_argument(self, call: s.Call, arg: s.Expr) -> str:
        ref = s.HeaderRef(arg.name, None, arg.loc) if isinstance(arg, s.Name) else arg
        if not isinstance(ref, s.HeaderRef) or self.instance(ref).metadata:
            raise self.error(arg.loc, f"{call.name} takes a header instance")
        return self.header_path(ref)

    def primitive_add_header(self, action, call, args) -> None:
        self.arity(call, args, 1)
        self.out.line(f"{self.header_argument(call, args[0])}.setValid();", call.loc)

    def primitive_remove_header(self, action, call, args) -> None:
        self.arity(call, args, 1)
        self.out.line(f"{self.header_argument(call, args[0])}.setInvalid();", call.loc)

    def primitive_copy_header(self, action, call, args) -> None:
        self.arity(call, args, 2)
        self.out.line(f"{self.header_argument(call, args[0])} = {self.header_argument(call, args[1])};", call.loc)

    def primitive_drop(self, action, call, args) -> None:
        self.arity(call, args, 0)
        self.out.line("mark_to_drop(standard_metadata);", call.loc)

    def primitive_mark_for_drop(self, action, call, args) -> None:
        self.primitive_drop(action, call, args)  # p4c reads it as drop

    def primitive_no_op(self, action, call, args) -> None:
        self.arity(call, args, 0)

    def stack_argument(self, call: s.Call, arg: s.Expr) -> str:
        if not isinstance(arg, s.Name) or arg.name not in self.scope.instances or self.scope.instances[arg.name].size is None:
            raise self.error(arg.loc, f"{call.name} takes a header stack")
        return f"hdr.{arg.name}"

    def primitive_push(self, action, call, args) -> None:
        """P4_14's push adds valid elements at the front (P4_16's push_front, invalid ones)."""
        self.arity(call, args, 1, 2)
        count = self.constant(args[1]) if len(args) == 2 else 1
        stack = self.stack_argument(call, args[0])
        self.out.line(f"{stack}.push_front({count});", call.loc)
        for index in range(min(count, self.scope.instances[args[0].name].size)):
            self.out.line(f"{stack}[{index}].setValid();", call.loc)

    def primitive_pop(self, action, call, args) -> None:
        self.arity(call, args, 1, 2)
        count = self.constant(args[1]) if len(args) == 2 else 1
        self.out.line(f"{self.stack_argument(call, args[0])}.pop_front({count});", call.loc)

    def primitive_count(self, action, call, args) -> None:
        self.arity(call, args, 2)
        counter = self.stateful_named(args[0], "counter")
        self.out.line(f"{self.local('extern', counter.name)}.count({self.cast(args[1], INDEX, action)});", call.loc)

    def primitive_execute_meter(self, action, call, args) -> None:
        self.arity(call, args, 3)
        meter = self.stateful_named(args[0], "meter")
        path, _width = self.destination(call, args[2])
        self.out.line(f"{self.local('extern', meter.name)}.execute_meter({self.cast(args[1], INDEX, action)}, {path});", call.loc)

    def primitive_register_read(self, action, call, args) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        register = self.stateful_named(args[1], "register")
        if self.register_bits(args[1]) != bits:
            raise self.error(call.loc, f"register '{register.name}' holds {self.register_bits(args[1])}, "
                                       f"the field is {bits}")
        self.out.line(f"{self.local('extern', register.name)}.read({path}, {self.cast(args[2], INDEX, action)});", call.loc)

    def primitive_register_write(self, action, call, args) -> None:
        self.arity(call, args, 3)
        register = self.stateful_named(args[0], "register")
        self.out.line(f"{self.local('extern', register.name)}.write({self.cast(args[1], INDEX, action)}, "
                       f"{self.cast(args[2], self.register_bits(args[0]), action)});",
                       call.loc)

    def primitive_truncate(self, action, call, args) -> None:
        self.arity(call, args, 1)
        self.out.line(f"truncate({self.cast(args[0], INDEX, action)});", call.loc)

    def primitive_modify_field_rng_uniform(self, action, call, args) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        self.out.line(f"random({path}, {self.cast(args[1], bits, action)}, {self.cast(args[2], bits, action)});",
                       call.loc)

    def primitive_modify_field_with_hash_based_offset(self, action, call, args) -> None:
        self.arity(call, args, 4)
        path, bits = self.destination(call, args[0])
        calculation = self.calculation(args[2])
        fields = self.field_list_fields(calculation.inputs, calculation.loc)
        algorithm = self.algorithm(calculation)
        self.out.line(f"hash({path}, HashAlgorithm.{algorithm}, {self.cast(args[1], bits, action)}, "
                       f"{{ {', '.join(fields)} }}, {self.cast(args[3], Bits(2 * bits.width), action)});", call.loc)

    def preserved_list(self, arg: s.Expr) -> int:
        """The index of a field list that a resubmit, recirculate or clone keeps (its
        metadata fields are annotated `@field_list(index)`)."""
        if not isinstance(arg, s.Name) or arg.name not in self.scope.field_lists:
            raise self.error(arg.loc, "expected the name of a field_list")
        return self.preserved_lists[arg.name]

    def primitive_clone_ingress_pkt_to_egress(self, action, call, args) -> None:
        self._clone(action, call, args, "I2E")

    def primitive_clone_egress_pkt_to_egress(self, action, call, args) -> None:
        self._clone(action, call, args, "E2E")

    def _clone(self, action, call, args, kind: str) -> None:
        self.arity(call, args, 1, 2)
        session = self.cast(args[0], INDEX, action)
        if len(args) == 2:
            self.out.line(f"clone_preserving_field_list(CloneType.{kind}, {session}, "
                           f"8w{self.preserved_list(args[1])});", call.loc)
        else:
            self.out.line(f"clone(CloneType.{kind}, {session});", call.loc)

    def primitive_resubmit(self, action, call, args) -> None:
        self.arity(call, args, 0, 1)
        index = self.preserved_list(args[0]) if args else 0
        self.out.line(f"resubmit_preserving_field_list(8w{index});", call.loc)

    def primitive_recirculate(self, action, call, args) -> None:
        self.arity(call, args, 0, 1)
        index = self.preserved_list(args[0]) if args else 0
        self.out.line(f"recirculate_preserving_field_list(8w{index});", call.loc)

    def primitive_generate_digest(self, action, call, args) -> None:
        self.arity(call, args, 2)
        if not isinstance(args[1], s.Name) or args[1].name not in self.scope.field_lists:
            raise self.error(args[1].loc, "generate_digest sends a field_list")
        fields = self.field_list_fields([args[1]], args[1].loc)
        self.out.line(f"digest<{self.local('digest', args[1].name)}>({self.cast(args[0], INDEX, action)}, "
                       f"{{ {', '.join(fields)} }});", call.loc)
