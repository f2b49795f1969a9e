"""A P4_14 program as the v1model P4_16 program p4c's conversion makes of it.

The output is P4_16 text for the P4_16 front end, to follow core.p4 and v1model.p4, with a
line marker before every construct, so that whatever the front end finds is reported at
the P4_14 line it came from.  The rules are p4c's (its `-first.p4` outputs show them):
  - header types become headers, metadata types structs; the instances fields of
    `struct headers` (`hdr.NAME`) and `struct metadata` (`meta.NAME`), each `@name(".NAME")`;
    the fields of `intrinsic_metadata` and `queueing_metadata` that v1model's
    standard_metadata has are standard_metadata's;
  - the parser states are states of `ParserImpl` (`return CONTROL` is `accept`, a
    `parse_error` `reject`), its select cases split over the keys, `latest` the header
    extracted last; a header of variable length read ahead for its length;
  - the controls `ingress` and `egress`, the controls they call inlined, each with the
    actions and tables it applies declared in it, `@name(".NAME")`; a table's key fields
    `@name("header.field")`, `@defaultonly NoAction` its default where it names none;
  - the action parameters typed by their uses, the primitive actions v1model's statements
    and externs, compound actions inlined;
  - the calculated fields `verify_checksum` and `update_checksum` calls;
  - the deparser emitting the headers the parser extracts, in p4c's order (deparse_order);
  - P4_14's names, which each kind of object has apart, P4_16 names of their own where
    they clash (NAME_1, ...), their control-plane names kept.
"""

from __future__ import annotations

from typing import Optional

from p4odp.diagnostics import Diagnostics, Loc
from p4odp.frontend.p4_14 import syntax as s
from p4odp.frontend.p4_14.actions import ActionConverter
from p4odp.frontend.p4_14.model import COUNTER_TYPES, INTRINSIC_INSTANCES, MATCH_KINDS, METER_TYPES, Bits, ConversionError
from p4odp.frontend.p4_14.writer import Writer

__all__ = ["convert"]


class Converter(ActionConverter):
    """The whole program: the types, the parser, the controls with their tables and externs, the
    checksum controls, the deparser and `main`."""

    def convert(self) -> Optional[str]:
        self.collect()
        if self.diags.error_count:
            return None
        if "start" not in self.scope.states:
            self.diags.error(self.program_loc(), "the program has no parser state 'start'")
            return None
        start = self.scope.states["start"].loc
        if not self.parser_reaches_a_control():
            self.diags.error(start, "no parser state goes on to a control: the parser never ends")
            return None
        if "ingress" not in self.scope.controls:
            self.diags.error(start, "the program has no control 'ingress', where its parser goes on to")
            return None
        self.infer_parameters()
        self.name_objects()
        out = self.out
        for emit in (self.number_preserved_lists, self.emit_types, self.emit_fixed_types, self.emit_digest_types,
                     self.emit_parser, self.emit_controls, self.emit_checksums, self.emit_deparser):
            try:
                emit()
            except ConversionError:
                return None
        if self.diags.error_count:
            return None
        out.line("V1Switch(ParserImpl(), verifyChecksum(), ingress(), egress(), computeChecksum(), DeparserImpl()) main;")
        return out.text()

    def emit_types(self) -> None:
        out = self.out
        header_types = {i.type_name for i in self.scope.instances.values() if not i.metadata}
        for header_type in self.scope.header_types.values():
            metadata_use = any(i.metadata and i.type_name == header_type.name and i.name not in INTRINSIC_INSTANCES
                               for i in self.scope.instances.values())
            if header_type.name in header_types and metadata_use:
                raise self.error(header_type.loc, f"header type '{header_type.name}' is used for both a header and metadata")
            if header_type.name not in header_types and not metadata_use:
                continue
            out.open(f"{'header' if header_type.name in header_types else 'struct'} {self.local('type', header_type.name)}",
                     header_type.loc)
            instances = [i.name for i in self.scope.instances.values() if i.type_name == header_type.name]
            for decl in header_type.fields:
                indexes = sorted({x for i in instances for x in self.field_list_indexes.get((i, decl.name), [])})
                if indexes and header_type.name not in header_types:
                    out.line(f"@field_list({', '.join(map(str, indexes))})")
                if decl.width is None:
                    if header_type.max_length is None:
                        raise self.error(decl.loc, f"variable-length field '{decl.name}' needs the header type's max_length")
                    out.line(f"varbit<{header_type.max_length * 8 - self.fixed_bits(header_type)}> {decl.name};", decl.loc)
                else:
                    out.line(f"{Bits(decl.width, decl.signed)} {decl.name};", decl.loc)
            out.close()
        out.open("struct metadata")
        for instance in self.scope.instances.values():
            if instance.metadata and instance.name not in INTRINSIC_INSTANCES:
                out.line(f'@name(".{instance.name}") {self.local("type", instance.type_name)} {instance.name};',
                         instance.loc)
        out.close()
        out.open("struct headers")
        for instance in self.scope.instances.values():
            if not instance.metadata:
                stack = f"[{instance.size}]" if instance.size is not None else ""
                out.line(f'@name(".{instance.name}") {self.local("type", instance.type_name)}{stack} {instance.name};',
                         instance.loc)
        out.close()

    def emit_parser(self) -> None:
        out = self.out
        out.open("parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, "
                 "inout standard_metadata_t standard_metadata)", self.scope.states["start"].loc)
        self.emit_lookaheads()
        for value_set in self.scope.value_sets.values():
            size = self.pragma_value("parser_value_set_size", value_set.name) or 4
            out.line(f'@name(".{value_set.name}") value_set<{self.value_set_type(value_set)}>({size}) '
                     f'{self.local("value_set", value_set.name)};', value_set.loc)
        initial = [(i, name, value, loc) for i in self.scope.instances.values() if i.metadata
                   for name, value, loc in i.initializer]
        for state in self.scope.states.values():
            self.emit_state(state, initial if state.name == "start" else [])
        out.close()

    def variable_field(self, header_type: s.HeaderType) -> Optional[int]:
        """The position of a header type's variable-length field, None where it has none."""
        return next((i for i, f in enumerate(header_type.fields) if f.width is None), None)

    def variable_headers(self) -> list[s.HeaderType]:
        """The extracted header types with a variable-length field."""
        extracted = {self.instance(st.header).type_name for state in self.scope.states.values()
                     for st in state.statements if isinstance(st, s.Extract)}
        return [h for h in self.scope.header_types.values()
                if h.name in extracted and self.variable_field(h) is not None]

    def emit_fixed_types(self) -> None:
        """For each header of variable length, a header of its fields before the variable one,
        which the parser reads ahead to learn the length."""
        for header_type in self.variable_headers():
            if header_type.length is None:
                raise self.error(header_type.loc, f"header type '{header_type.name}' has a variable-length "
                                                  f"field: it needs a length")
            self.out.open(f"header {self.fixed_type(header_type)}", header_type.loc)
            for decl in header_type.fields[: self.variable_field(header_type)]:
                self.out.line(f"{Bits(decl.width, decl.signed)} {decl.name};", decl.loc)  # type: ignore[arg-type]
            self.out.close()

    def emit_lookaheads(self) -> None:
        for header_type in self.variable_headers():
            self.out.line(f"{self.fixed_type(header_type)} {self.lookahead(header_type)};")

    def fixed_type(self, header_type: s.HeaderType) -> str:
        """The header of the fields a variable-length header's length is read from."""
        return self.local("fixed_type", header_type.name + "_fixed")

    def lookahead(self, header_type: s.HeaderType) -> str:
        """The parser's variable of that header, read ahead."""
        return self.local("lookahead", header_type.name + "_ahead")

    @staticmethod
    def fixed_bits(header_type: s.HeaderType) -> int:
        return sum(f.width or 0 for f in header_type.fields)

    def varbit_length(self, header_type: s.HeaderType, ahead: str) -> str:
        """The bits of a header's variable-length field: its length in bytes (the header type's
        `length`, over the fields read ahead) times 8, less its fixed fields."""
        fixed = [f.name for f in header_type.fields[: self.variable_field(header_type)]]

        def bits32(expr: s.Expr) -> str:
            if isinstance(expr, s.Const):
                return f"32w{expr.value}"
            if isinstance(expr, s.Name) and expr.name in fixed:
                return f"(bit<32>){ahead}.{expr.name}"
            if isinstance(expr, s.Binary) and expr.op in ("+", "-", "*", "<<", ">>"):
                right = str(expr.right.value) if expr.op in ("<<", ">>") and isinstance(expr.right, s.Const) \
                    else bits32(expr.right)
                return f"({bits32(expr.left)} {expr.op} {right})"
            raise self.error(expr.loc, "a header's length is an expression of numbers and the fields "
                                       "before its variable-length one")

        return f"({bits32(header_type.length)} << 3) - 32w{self.fixed_bits(header_type)}"  # type: ignore[arg-type]

    def pragma_value(self, pragma: str, name: str) -> Optional[int]:
        for words, _loc in self.program.pragmas:
            if len(words) >= 4 and words[1] == pragma and words[2] == name and words[3].isdigit():
                return int(words[3])
        return None

    def value_set_type(self, value_set: s.ValueSet) -> str:
        """The type of a value set's members: its select's key's, a tuple of them over several
        keys (as p4c's conversion types it); bit<32> for a value set no select uses."""
        for state in self.scope.states.values():
            for case in state.end.cases:
                for value, _mask in case.values or []:
                    if isinstance(value, s.Name) and value.name == value_set.name:
                        types = [str(self.key_bits(state, key)) for key in state.end.keys]
                        return types[0] if len(types) == 1 else f"tuple<{', '.join(types)}>"
        return str(Bits(32))

    def target(self, name: s.Name, parse_error: bool = False) -> str:
        """A state's successor: a state, `accept` for a control, `reject` for a parse error
        (v1model's parser has no handlers: the packet goes on to ingress with the error)."""
        if parse_error:
            return "reject"
        if name.name in self.scope.states:
            return self.local("state", name.name)
        if name.name in self.scope.controls:
            return "accept"
        raise self.error(name.loc, f"no parser state or control '{name.name}'")

    def emit_state(self, state: s.ParserState, initial: list) -> None:
        out = self.out
        out.open(f'@name(".{state.name}") state {self.local("state", state.name)}', state.loc)
        for instance, name, value, loc in initial:
            target = s.FieldRef(s.HeaderRef(instance.name, None, loc), name, loc)
            out.line(f"{self.field_path(target)} = {self.cast(value, self.field_bits(target))};", loc)
        self.converting = state
        for done, statement in enumerate(state.statements):
            self.statements_done = done
            if isinstance(statement, s.Extract):
                ref = statement.header
                instance = self.instance(ref)
                if instance.metadata:
                    raise self.error(ref.loc, f"'{instance.name}' is metadata: only headers are extracted")
                header_type = self.scope.header_types[instance.type_name]
                if self.variable_field(header_type) is None:
                    out.line(f"packet.extract({self.header_path(ref)});", statement.loc)
                    continue
                # Its length is in its fixed fields: read them ahead first.
                ahead = self.lookahead(header_type)
                out.line(f"{ahead} = packet.lookahead<{self.fixed_type(header_type)}>();", statement.loc)
                out.line(f"packet.extract({self.header_path(ref)}, {self.varbit_length(header_type, ahead)});",
                         statement.loc)
            else:
                out.line(f"{self.field_path(statement.field)} = "
                         f"{self.cast(statement.value, self.field_bits(statement.field), state=state)};",
                         statement.loc)
        self.converting = None
        end = state.end
        if end.target is not None:
            out.line(f"transition {self.target(end.target, end.parse_error)};", end.loc)
            out.close()
            return
        types = [self.key_bits(state, key) for key in end.keys]
        keys = ", ".join(self.expression(key, state=state) for key in end.keys)
        out.open(f"transition select({keys})", end.loc)
        for case in end.cases:
            target = self.target(case.target, case.parse_error)
            if case.values is None:
                out.line(f"default: {target};", case.loc)
                continue
            for value, mask in case.values:
                out.line(f"{self.select_value(value, mask, types)}: {target};", case.loc)
        out.close()
        out.close()

    def select_value(self, value: s.Expr, mask: Optional[s.Expr], types: list[Bits]) -> str:
        """A case of a select: P4_14's one value (and mask) over the keys side by side, split
        into one per key, a part whose mask is all ones exact."""
        if isinstance(value, s.Name) and value.name in self.scope.value_sets:
            if mask is not None:
                raise self.error(value.loc, "a value set takes no mask")
            return self.local("value_set", value.name)
        number = self.constant(value)
        total = sum(t.width for t in types)
        mask_number = self.constant(mask) if mask is not None else (1 << total) - 1
        parts = []
        shift = total
        for bits in types:
            shift -= bits.width
            full = (1 << bits.width) - 1
            part, part_mask = (number >> shift) & full, (mask_number >> shift) & full
            exact = bits.literal(part)
            parts.append(exact if part_mask == full else f"{exact} &&& {bits.literal(part_mask)}")
        return parts[0] if len(parts) == 1 else f"({', '.join(parts)})"

    def emit_digest_types(self) -> None:
        """A struct for each field list a digest sends, a field for each of its fields."""
        digested = []
        for call, args in self.every_expanded_call():
            if call.name == "generate_digest" and len(args) == 2 and isinstance(args[1], s.Name) \
                    and args[1].name in self.scope.field_lists and args[1].name not in digested:
                digested.append(args[1].name)
        for name in digested:
            field_list = self.scope.field_lists[name]
            self.out.open(f"struct {self.local('digest', name)}", field_list.loc)
            taken: set[str] = set()
            for entry in self.flattened(field_list):
                if isinstance(entry, s.FieldRef):
                    member = entry.field if entry.field not in taken else f"{entry.header.instance}_{entry.field}"
                    kind = str(self.field_bits(entry))
                elif isinstance(entry, s.Name) and entry.name == "standard_metadata":
                    member, kind = entry.name, "standard_metadata_t"
                elif isinstance(entry, s.Name) and entry.name in self.scope.instances:
                    member, kind = entry.name, self.local("type", self.scope.instances[entry.name].type_name)
                else:
                    raise self.error(entry.loc, "a digest's field list holds fields, headers and metadata")
                taken.add(member)
                self.out.line(f"{kind} {member};", entry.loc)
            self.out.close()

    def emit_controls(self) -> None:
        plans = {name: self.control_plan(name) for name in ("ingress", "egress")}
        # Counters, meters and registers by index are the program's, which ingress and egress
        # share (p4c declares them at the top level); direct ones are their table's control's.
        shared: list[s.Stateful] = []
        for _tables, actions, _body in plans.values():
            shared += [d for d in self.externs_used_by(actions) if d not in shared]
        for declaration in shared:
            self.emit_extern(declaration)
        for name, (tables, actions, body) in plans.items():
            self.emit_control(name, tables, actions, body)
        # The actions no table uses are left out (as p4c leaves them), but checked all the same;
        # not those that other actions call, whose parameters may stand for fields: they are
        # checked where called, with their arguments.
        called = {call.name for action in self.scope.actions.values() for call in action.body}
        used = self.out
        self.out = Writer()
        for action in self.scope.actions.values():
            if action.name not in self.emitted_actions and action.name not in called:
                self.emit_action(action)
        self.out = used

    def control_plan(self, name: str) -> tuple[list[str], list[str], list[s.Statement]]:
        """The tables control `name` applies, the actions they run, and its statements."""
        tables, body = self.control_tree(name)
        actions: list[str] = []
        for table_name in tables:
            table = self.scope.tables[table_name]
            default = [table.default_action.name] if table.default_action and table.default_action.name in self.scope.actions else []
            for action_name in [a.name for a in self.table_actions(table)] + default:
                if action_name not in actions:
                    actions.append(action_name)
        return tables, actions, body

    def emit_control(self, name: str, tables: list[str], actions: list[str], body: list[s.Statement]) -> None:
        out = self.out
        control = self.scope.controls.get(name)
        out.open(f"control {name}(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata)",
                 control.loc if control else None)
        for declaration in self.scope.stateful.values():
            direct = declaration.properties.get("direct")
            if isinstance(direct, s.Name) and direct.name in tables:
                self.emit_extern(declaration)
        meters = self.direct_meters(tables)
        metered = {table for table, _action in meters}
        for action_name in actions:
            if any(action_name in self.table_action_names(t) for t in tables if t not in metered) \
                    or action_name not in {a for _t, a in meters}:
                self.emit_action(self.scope.actions[action_name])
        for (table, action_name), meter in meters.items():
            self.emit_action(self.scope.actions[action_name], meter, table)
        for table_name in tables:
            self.emit_table(self.scope.tables[table_name])
        out.open("apply")
        self.emit_statements(body)
        out.close()
        out.close()

    def externs_used_by(self, actions: list[str]) -> list[s.Stateful]:
        """The counters, meters and registers that `actions` name, themselves or through the actions they call."""
        used: list[s.Stateful] = []
        for name in actions:
            for _call, args in self.expanded_calls(self.scope.actions[name]):
                for arg in args:
                    if isinstance(arg, s.Name) and arg.name in self.scope.stateful \
                            and self.scope.stateful[arg.name] not in used:
                        used.append(self.scope.stateful[arg.name])
        return used

    def direct_meters(self, tables: list[str]) -> dict[tuple[str, str], tuple[s.Stateful, str]]:
        """The direct meters of the tables, by (table, action) for each action of a metered table:
        the meter and its result field.  Such a table runs copies of its actions of its own (as
        p4c's conversion makes them, under the same control-plane names), which read the meter
        into the result field first (v1model's direct_meter.read)."""
        meters: dict[tuple[str, str], tuple[s.Stateful, str]] = {}
        for declaration in self.scope.stateful.values():
            direct = declaration.properties.get("direct")
            if declaration.kind != "meter" or not isinstance(direct, s.Name) or direct.name not in tables:
                continue
            result = declaration.properties.get("result")
            if not isinstance(result, s.FieldRef):
                raise self.error(declaration.loc, f"direct meter '{declaration.name}' needs a result field")
            for action in self.table_actions(self.scope.tables[direct.name]):
                meters[(direct.name, action.name)] = (declaration, self.field_path(result))
        return meters

    def emit_extern(self, declaration: s.Stateful) -> None:
        properties = declaration.properties
        direct = properties.get("direct")
        count = properties.get("instance_count")
        kind = properties.get("type")
        loc = declaration.loc
        if direct is not None and count is not None:
            raise self.error(properties.loc("instance_count"), "a direct counter, meter or register has no instance_count")
        if direct is None and not isinstance(count, s.Const):
            raise self.error(loc, f"'{declaration.name}' needs instance_count (or direct: TABLE)")
        size = f"32w{count.value}" if isinstance(count, s.Const) else ""
        name = f'@name(".{declaration.name}") '
        local = self.local("extern", declaration.name)
        if declaration.kind == "counter":
            counter_type = self.kind_name(kind, COUNTER_TYPES, "counter type", loc)
            if direct is not None:
                self.out.line(f"{name}direct_counter(CounterType.{counter_type}) {local};", loc)
            else:
                self.out.line(f"{name}counter({size}, CounterType.{counter_type}) {local};", loc)
        elif declaration.kind == "meter":
            meter_type = self.kind_name(kind, METER_TYPES, "meter type", loc)
            if direct is not None:
                result = properties.get("result")
                width = self.width(result) if isinstance(result, s.FieldRef) else 2
                self.out.line(f"{name}direct_meter<bit<{width}>>(MeterType.{meter_type}) {local};", loc)
            else:
                self.out.line(f"{name}meter({size}, MeterType.{meter_type}) {local};", loc)
        else:
            width = properties.get("width")
            if not isinstance(width, s.Const):
                raise self.error(loc, f"register '{declaration.name}' needs a width")
            if direct is not None:
                raise self.error(properties.loc("direct"), "direct registers are not supported by v1model")
            self.out.line(f"{name}register<{self.register_bits(s.Name(declaration.name, loc))}>({size}) {local};", loc)

    def kind_name(self, value: object, known: tuple[str, ...], what: str, loc: Loc) -> str:
        if not isinstance(value, s.Name) or value.name not in known:
            raise self.error(loc, f"expected a {what}: {', '.join(known)}")
        return value.name

    def emit_table(self, table: s.Table) -> None:
        out = self.out
        out.open(f'@name(".{table.name}") table {self.local("table", table.name)}', table.loc)
        if table.reads:
            out.open("key =")
            for read in table.reads:
                out.line(self.key_element(read), read.loc)
            out.close()
        actions = self.table_actions(table)
        out.open("actions =")
        for action in actions:
            out.line(f"{self.action_local(action.name, table.name)};")
        default = table.default_action
        if default is None:
            out.line("@defaultonly NoAction;")
        elif default.name not in [a.name for a in actions]:
            if default.name not in self.scope.actions:
                raise self.error(default.loc, f"no action '{default.name}'")
            out.line(f"@defaultonly {self.action_local(default.name, table.name)};", default.loc)  # p4c's reading of such a default
        out.close()
        size = table.properties.get("size") or table.properties.get("max_size")
        if isinstance(size, s.Const):
            out.line(f"size = {size.value};", table.properties.loc("size") or table.properties.loc("max_size"))
        timeout = table.properties.get("support_timeout")
        if isinstance(timeout, s.Bool) and timeout.value:
            out.line("support_timeout = true;")
        if table.profile is not None:
            self.emit_implementation(table)
        for declaration in self.scope.stateful.values():
            direct = declaration.properties.get("direct")
            if isinstance(direct, s.Name) and direct.name == table.name and declaration.kind in ("counter", "meter"):
                out.line(f"{declaration.kind}s = {self.local('extern', declaration.name)};", declaration.loc)
        if default is None:
            out.line("default_action = NoAction();")
        else:
            action = self.scope.actions[default.name]
            if len(default.args) != len(action.params):
                raise self.error(default.loc, f"action '{action.name}' takes {len(action.params)} arguments")
            args = ", ".join(self.cast(arg, Bits(self.param_types[(action.name, p.name)]))
                             for arg, p in zip(default.args, action.params))
            const = "const " if table.const_default else ""
            out.line(f"{const}default_action = {self.action_local(default.name, table.name)}({args});", default.loc)
        out.close()

    def key_element(self, read: s.Read) -> str:
        if not isinstance(read.ref, (s.HeaderRef, s.FieldRef)):
            raise self.error(read.loc, "a table reads a field, or a header's validity")
        if read.match_kind not in MATCH_KINDS:
            raise self.error(read.loc, f"unknown match type '{read.match_kind}' ({', '.join(MATCH_KINDS)})")
        if isinstance(read.ref, s.HeaderRef) or read.match_kind == "valid" or self.is_valid_field(read.ref):
            header = read.ref if isinstance(read.ref, s.HeaderRef) else read.ref.header
            if read.match_kind != "valid" and not self.is_valid_field(read.ref):
                raise self.error(read.loc, "a header is matched with 'valid'")
            name = header.instance if header.index is None else f"{header.instance}[{header.index}]"
            kind = "exact" if read.match_kind == "valid" else read.match_kind
            return f'{self.header_path(header)}.isValid(): {kind} @name("{name}.$valid$");'
        path = self.field_path(read.ref)
        header = read.ref.header
        name = f"{header.instance}{'' if header.index is None else f'[{header.index}]'}.{read.ref.field}"
        if read.mask is not None:
            path = f"{path} & {self.cast(read.mask, self.field_bits(read.ref))}"
        return f'{path}: {read.match_kind} @name("{name}");'

    def emit_implementation(self, table: s.Table) -> None:
        profile = self.scope.profiles[table.profile.name]  # type: ignore[union-attr]
        size = profile.properties.get("size")
        size_text = f"32w{size.value}" if isinstance(size, s.Const) else "32w1024"
        selector_name = profile.properties.get("dynamic_action_selection")
        if selector_name is None:
            self.out.line(f'@name(".{profile.name}") implementation = action_profile({size_text});', profile.loc)
            return
        selector = self.scope.selectors.get(selector_name.name) if isinstance(selector_name, s.Name) else None
        if selector is None:
            raise self.error(profile.loc, "dynamic_action_selection names no action_selector")
        key = selector.properties.get("selection_key")
        calculation = self.calculation(key) if isinstance(key, s.Name) else None
        if calculation is None:
            raise self.error(selector.loc, f"action_selector '{selector.name}' needs a selection_key")
        self.out.line(f'@name(".{profile.name}") implementation = action_selector(HashAlgorithm.'
                      f'{self.algorithm(calculation)}, {size_text}, 32w{calculation.output_width});', profile.loc)

    def emit_statements(self, statements: list[s.Statement]) -> None:
        """The control's statements, the controls it calls inlined (control_tree has checked them)."""
        out = self.out
        for statement in statements:
            if isinstance(statement, s.Apply):
                self.emit_apply(statement)
            elif isinstance(statement, s.If):
                out.open(f"if ({self.expression(statement.condition)})", statement.loc)
                self.emit_statements(statement.then)
                if statement.otherwise:
                    out.otherwise()
                    self.emit_statements(statement.otherwise)
                out.close()
            else:
                callee = self.scope.controls[statement.name.name]
                self.emit_statements(callee.body)

    def emit_apply(self, apply: s.Apply) -> None:
        out = self.out
        table = apply.table.name
        local = self.local("table", table)
        if not apply.cases:
            out.line(f"{local}.apply();", apply.loc)
            return
        labels = [label.name for case in apply.cases for label in case.labels]
        if set(labels) & {"hit", "miss"}:
            if not set(labels) <= {"hit", "miss"} or len(labels) != len(set(labels)):
                raise self.error(apply.loc, "an apply block has either hit and miss cases or action cases")
            cases = {case.labels[0].name: case for case in apply.cases}
            first = "hit" if "hit" in cases else "miss"
            out.open(f"if ({'' if first == 'hit' else '!'}{local}.apply().hit)", apply.loc)
            self.emit_statements(cases[first].body)
            other = cases.get("miss" if first == "hit" else "hit")
            if other is not None:
                out.otherwise()
                self.emit_statements(other.body)
            out.close()
            return
        actions = {a.name for a in self.table_actions(self.scope.tables[table])}
        out.open(f"switch ({local}.apply().action_run)", apply.loc)
        for case in apply.cases:
            for label in case.labels[:-1]:
                out.line(f"{self.case_label(label, actions, table)}:", label.loc)
            out.open(f"{self.case_label(case.labels[-1], actions, table)}:", case.loc)
            self.emit_statements(case.body)
            out.close()
        out.close()

    def case_label(self, label: s.Name, actions: set[str], table: str) -> str:
        if label.name == "default":
            return "default"
        if label.name not in actions:
            raise self.error(label.loc, f"'{label.name}' is not an action of table '{table}'")
        return self.action_local(label.name, table)

    def emit_checksums(self) -> None:
        for verify, control in ((True, "verifyChecksum"), (False, "computeChecksum")):
            self.out.open(f"control {control}(inout headers hdr, inout metadata meta)")
            self.out.open("apply")
            for calculated in self.scope.calculated:
                for spec in calculated.specs:
                    if spec.verify == verify:
                        self.emit_checksum(calculated, spec)
            self.out.close()
            self.out.close()

    def emit_checksum(self, calculated: s.CalculatedField, spec: s.CalculatedUpdate) -> None:
        calculation = self.calculation(spec.calculation)
        algorithm = self.algorithm(calculation)
        fields = self.field_list_fields(calculation.inputs, calculation.loc)
        suffix = "_with_payload" if self.has_payload(calculation.inputs) else ""
        condition = self.expression(spec.condition) if spec.condition is not None else "true"
        function = ("verify_checksum" if spec.verify else "update_checksum") + suffix
        self.out.line(f"{function}({condition}, {{ {', '.join(fields)} }}, {self.field_path(calculated.field)}, "
                      f"HashAlgorithm.{algorithm});", spec.loc)

    def emit_deparser(self) -> None:
        out = self.out
        out.open("control DeparserImpl(packet_out packet, in headers hdr)")
        out.open("apply")
        for instance in self.deparse_order():
            out.line(f"packet.emit(hdr.{instance});")
        out.close()
        out.close()

    def deparse_order(self) -> list[str]:
        """The headers the parser extracts, in p4c's order: a graph of which header follows
        which (through the states that extract none), sorted from the first header of `start`
        by its strongly connected components (Tarjan's), the last component first."""
        follows: dict[object, list[object]] = {}

        def edge(a: object, b: object) -> None:
            if a != b and b not in follows.setdefault(a, []):
                follows[a].append(b)

        def extracted(state: s.ParserState) -> list[object]:
            headers = [st.header.instance for st in state.statements if isinstance(st, s.Extract)]
            return headers or [("state", state.name)]  # a state of no header stands for itself

        for state in self.scope.states.values():
            headers = extracted(state)
            for a, b in zip(headers, headers[1:]):
                edge(a, b)
            end = state.end
            for target in [end.target] if end.target is not None else [c.target for c in end.cases]:
                if target.name in self.scope.states:
                    edge(headers[-1], extracted(self.scope.states[target.name])[0])
        order: list[object] = []
        index: dict[object, int] = {}
        low: dict[object, int] = {}
        stack: list[object] = []

        def connect(node: object) -> None:
            index[node] = low[node] = len(index)
            stack.append(node)
            for successor in follows.get(node, []):
                if successor not in index:
                    connect(successor)
                    low[node] = min(low[node], low[successor])
                elif successor in stack:
                    low[node] = min(low[node], low[successor])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    order.append(member)
                    if member == node:
                        break

        connect(extracted(self.scope.states["start"])[0])
        return [node for node in reversed(order) if isinstance(node, str)]


def convert(program: s.Program, diags: Diagnostics, reserved: frozenset[str]) -> Optional[str]:
    """The P4_16 text of a parsed P4_14 program, or None after reporting its errors; `reserved`
    are the names the architecture's declarations and P4_16 take."""
    return Converter(program, diags, reserved).convert()
