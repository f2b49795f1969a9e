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

from dataclasses import dataclass, field
from typing import Iterable, Optional

from p4odp.diagnostics import Diagnostics, Loc
from p4odp.frontend.p4_14 import syntax as s

# v1model's standard_metadata_t: the fields P4_14's standard and intrinsic metadata map to.
STANDARD_METADATA = {
    "ingress_port": 9, "egress_spec": 9, "egress_port": 9, "instance_type": 32, "packet_length": 32,
    "enq_timestamp": 32, "enq_qdepth": 19, "deq_timedelta": 32, "deq_qdepth": 19,
    "ingress_global_timestamp": 48, "egress_global_timestamp": 48, "mcast_grp": 16, "egress_rid": 16,
    "checksum_error": 1, "priority": 3,
}
# Metadata instances whose fields are standard_metadata's where it has them (p4c's rule).
INTRINSIC_INSTANCES = ("standard_metadata", "intrinsic_metadata", "queueing_metadata")

# P4_14's names that are v1model's too.
ALGORITHMS = ("csum16", "crc16", "crc32", "identity", "xor16", "random", "crc16_custom", "crc32_custom")
COUNTER_TYPES = ("packets", "bytes", "packets_and_bytes")
METER_TYPES = ("packets", "bytes")
MATCH_KINDS = ("exact", "ternary", "lpm", "range", "valid")
# The primitives that write `form` of their two operands (each of the written field's type)
# to their first (add and subtract, which saturate with their fields, have methods of their own).
_BINARY_FORMS = {
    "bit_and": "{a} & {b}", "bit_or": "{a} | {b}", "bit_xor": "{a} ^ {b}", "bit_nand": "~({a} & {b})",
    "bit_nor": "~({a} | {b})", "bit_xnor": "~({a} ^ {b})", "bit_andca": "~{a} & {b}", "bit_andcb": "{a} & ~{b}",
    "bit_orca": "~{a} | {b}", "bit_orcb": "{a} | ~{b}", "min": "({a} < {b} ? {a} : {b})",
    "max": "({a} > {b} ? {a} : {b})",
}
# The primitives whose operands at these positions take the width of the first, the field written.
_DESTINATION_WIDE = {
    **{name: (1,) for name in ("add_to_field", "subtract_from_field", "bit_not", "shift_left", "shift_right")},
    **{name: (1, 2) for name in ("modify_field", "add", "subtract", "bit_and", "bit_or", "bit_xor", "bit_nand", "bit_nor", "bit_xnor",
                                 "bit_andca", "bit_andcb", "bit_orca", "bit_orcb", "min", "max",
                                 "modify_field_rng_uniform")},
    "modify_field_conditionally": (2,),
    "modify_field_with_shift": (1, 3),
}


@dataclass(frozen=True)
class Bits:
    """A P4_16 bit-string type: `bit<W>`, or `int<W>` for a signed P4_14 field."""

    width: int
    signed: bool = False

    def __str__(self) -> str:
        return f"{'int' if self.signed else 'bit'}<{self.width}>"

    def literal(self, value: int) -> str:
        """`value`, wrapped to the type, as a literal of it."""
        unsigned = f"{self.width}w{value % (1 << self.width):#x}"
        return f"({self}){unsigned}" if self.signed else unsigned


INDEX = Bits(32)  # what an extern's index and a clone session are


class ConversionError(Exception):
    """Unwinds a construct whose error is reported."""


@dataclass
class Scope:
    """The declarations of a program, by name."""

    header_types: dict[str, s.HeaderType] = field(default_factory=dict)
    instances: dict[str, s.Instance] = field(default_factory=dict)
    field_lists: dict[str, s.FieldList] = field(default_factory=dict)
    calculations: dict[str, s.FieldListCalculation] = field(default_factory=dict)
    calculated: list[s.CalculatedField] = field(default_factory=list)
    value_sets: dict[str, s.ValueSet] = field(default_factory=dict)
    states: dict[str, s.ParserState] = field(default_factory=dict)
    exceptions: dict[str, s.ParserException] = field(default_factory=dict)
    stateful: dict[str, s.Stateful] = field(default_factory=dict)
    actions: dict[str, s.Action] = field(default_factory=dict)
    tables: dict[str, s.Table] = field(default_factory=dict)
    profiles: dict[str, s.ActionProfile] = field(default_factory=dict)
    selectors: dict[str, s.ActionSelector] = field(default_factory=dict)
    controls: dict[str, s.Control] = field(default_factory=dict)


_KINDS = (
    (s.HeaderType, "header_types"), (s.Instance, "instances"), (s.FieldList, "field_lists"),
    (s.FieldListCalculation, "calculations"), (s.ValueSet, "value_sets"), (s.ParserState, "states"),
    (s.ParserException, "exceptions"), (s.Stateful, "stateful"), (s.Action, "actions"), (s.Table, "tables"),
    (s.ActionProfile, "profiles"), (s.ActionSelector, "selectors"), (s.Control, "controls"),
)


class _Writer:
    """P4_16 text, each construct after a line marker naming its P4_14 line (P4_16's lines
    are indented by depth only where no P4_14 position says otherwise)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str, loc: Optional[Loc] = None) -> None:
        """A line of P4_16; one that comes from `loc` begins at its column, so that an error in
        its first token is reported where the P4_14 construct is."""
        if loc is not None and loc.line > 0:
            self.lines.append(f'# {loc.line} "{_quote(loc.file)}"')
            self.lines.append(" " * (loc.col - 1) + text)
        else:
            self.lines.append("    " * self.depth + text)

    def open(self, text: str, loc: Optional[Loc] = None) -> None:
        self.line(text + " {", loc)
        self.depth += 1

    def close(self) -> None:
        self.depth -= 1
        self.line("}")

    def otherwise(self) -> None:
        """`} else {`: the block open ends, its else branch begins."""
        self.depth -= 1
        self.open("} else")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _quote(file: str) -> str:
    return file.replace("\\", "\\\\").replace('"', '\\"')


class Converter:
    def __init__(self, program: s.Program, diags: Diagnostics, reserved: frozenset[str]) -> None:
        self.program = program
        self.diags = diags
        # P4_14 gives each kind of object its own names; P4_16 one scope to all: each object's
        # P4_16 name is its own unless another object or the architecture has it already, then
        # NAME_1, NAME_2, ... (its control-plane name stays NAME, as p4c's conversion does).
        self.taken: set[str] = set(reserved)
        self.locals: dict[tuple[str, str], str] = {}
        self.scope = Scope()
        self.out = _Writer()
        self.param_types: dict[tuple[str, str], int] = {}  # (action, parameter) -> width
        self.preserved_lists: dict[str, int] = {}  # field list -> its @field_list index
        self.field_list_indexes: dict[tuple[str, str], list[int]] = {}  # (instance, field) -> indexes
        self.emitted_actions: set[str] = set()
        # The state being converted, and how many of its statements are (for `latest`).
        self.converting: Optional[s.ParserState] = None
        self.statements_done = 0

    # ---- entry

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

    def name_objects(self) -> None:
        self.locals[("state", "start")] = "start"
        self.taken.add("start")
        for kind, table in (("type", self.scope.header_types), ("state", self.scope.states),
                            ("value_set", self.scope.value_sets), ("extern", self.scope.stateful),
                            ("action", self.scope.actions), ("table", self.scope.tables)):
            for name in table:
                self.local(kind, name)

    def local(self, kind: str, name: str) -> str:
        """The P4_16 name of the P4_14 object `name` of `kind`."""
        key = (kind, name)
        if key not in self.locals:
            local, n = name, 0
            while local in self.taken:
                n += 1
                local = f"{name}_{n}"
            self.taken.add(local)
            self.locals[key] = local
        return self.locals[key]

    def program_loc(self) -> Loc:
        """Where the program begins: its first declaration."""
        for declaration in self.program.declarations:
            return declaration.loc  # type: ignore[attr-defined]
        return Loc("<input>", 0, 0)

    def parser_reaches_a_control(self) -> bool:
        seen: set[str] = set()
        pending = ["start"]
        while pending:
            state = self.scope.states.get(pending.pop())
            if state is None or state.name in seen:
                continue
            seen.add(state.name)
            end = state.end
            targets = [end.target.name] if end.target is not None else [c.target.name for c in end.cases]
            if any(t in self.scope.controls for t in targets):
                return True
            pending += targets
        return False

    def error(self, loc: Loc, message: str) -> ConversionError:
        self.diags.error(loc, message)
        return ConversionError()

    def collect(self) -> None:
        for declaration in self.program.declarations:
            if isinstance(declaration, s.CalculatedField):
                self.scope.calculated.append(declaration)
                continue
            for kind, attribute in _KINDS:
                if isinstance(declaration, kind):
                    table = getattr(self.scope, attribute)
                    name = declaration.name  # type: ignore[attr-defined]
                    if name in table:
                        self.diags.error(declaration.loc, f"'{name}' is declared twice (first at {table[name].loc})")  # type: ignore[attr-defined]
                    else:
                        table[name] = declaration
        for instance in self.scope.instances.values():
            if instance.type_name not in self.scope.header_types:
                self.diags.error(instance.loc, f"no header_type '{instance.type_name}'")
        self.check_reserved_names()

    def check_reserved_names(self) -> None:
        """v1model's names: `standard_metadata` is only its metadata, `standard_metadata_t` only its
        type, `ingress` and `egress` only the pipeline's controls."""
        for kind, attribute in _KINDS:
            for name, declaration in getattr(self.scope, attribute).items():
                if name == "standard_metadata_t":
                    self.diags.error(declaration.loc, "standard_metadata_t is reserved: it is v1model's type")
                elif name == "standard_metadata" and not (kind is s.Instance and declaration.metadata):
                    self.diags.error(declaration.loc, "standard_metadata is reserved for v1model's metadata")
                elif name in ("ingress", "egress") and kind is not s.Control:
                    self.diags.error(declaration.loc, f"{name} is reserved for the pipeline's {name} control")

    # ---- references and widths

    def instance(self, ref: s.HeaderRef) -> s.Instance:
        found = self.scope.instances.get(ref.instance)
        if found is None:
            if ref.instance == "standard_metadata":
                return s.Instance(True, "standard_metadata_t", "standard_metadata", None, [], ref.loc)
            raise self.error(ref.loc, f"no header or metadata instance '{ref.instance}'")
        return found

    def is_valid_field(self, ref: s.Expr) -> bool:
        """Whether `ref` is P4 v1.1's `header.valid`, the header's validity (where its type has
        no field of that name)."""
        if not isinstance(ref, s.FieldRef) or ref.field != "valid":
            return False
        instance = self.instance(ref.header)
        return not instance.metadata and all(f.name != "valid" for f in self.scope.header_types[instance.type_name].fields)

    def field_decl(self, ref: s.FieldRef) -> s.FieldDecl:
        if self.is_valid_field(ref):
            return s.FieldDecl("valid", 1, False, False, ref.loc)
        instance = self.instance(ref.header)
        if instance.name in INTRINSIC_INSTANCES and ref.field in STANDARD_METADATA:
            return s.FieldDecl(ref.field, STANDARD_METADATA[ref.field], False, False, ref.loc)
        if instance.name == "standard_metadata":
            raise self.error(ref.loc, f"v1model's standard_metadata has no field '{ref.field}'")
        for decl in self.scope.header_types[instance.type_name].fields:
            if decl.name == ref.field:
                return decl
        raise self.error(ref.loc, f"header type '{instance.type_name}' of '{instance.name}' has no field '{ref.field}'")

    def header_path(self, ref: s.HeaderRef) -> str:
        instance = self.instance(ref)
        if instance.metadata:
            if ref.index is not None:
                raise self.error(ref.loc, f"metadata '{instance.name}' is not a stack")
            return f"meta.{instance.name}"
        if ref.index is None:
            return f"hdr.{instance.name}"
        if instance.size is None:
            raise self.error(ref.loc, f"header '{instance.name}' is not a stack")
        if isinstance(ref.index, int):
            if not 0 <= ref.index < instance.size:
                raise self.error(ref.loc, f"index {ref.index} is outside the stack '{instance.name}[{instance.size}]'")
            return f"hdr.{instance.name}[{ref.index}]"
        return f"hdr.{instance.name}.{ref.index}"

    def field_path(self, ref: s.FieldRef) -> str:
        self.field_decl(ref)
        instance = self.instance(ref.header)
        if instance.name in INTRINSIC_INSTANCES and ref.field in STANDARD_METADATA:
            return f"standard_metadata.{ref.field}"
        return f"{self.header_path(ref.header)}.{ref.field}"

    def width(self, expr: s.Expr, action: Optional[str] = None) -> Optional[int]:
        """The width of a field, a parameter or a `current`; None for a constant or a mixed
        expression, which take the width of where they go."""
        if isinstance(expr, s.FieldRef):
            return self.field_decl(expr).width
        if isinstance(expr, s.Name) and action is not None:
            return self.param_types.get((action, expr.name))
        if isinstance(expr, s.Current):
            return expr.width
        return None

    # ---- types

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
                    fixed = sum(f.width or 0 for f in header_type.fields)
                    out.line(f"varbit<{header_type.max_length * 8 - fixed}> {decl.name};", decl.loc)
                else:
                    out.line(f"{'int' if decl.signed else 'bit'}<{decl.width}> {decl.name};", decl.loc)
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

    # ---- the parser

    def emit_parser(self) -> None:
        out = self.out
        out.open("parser ParserImpl(packet_in packet, out headers hdr, inout metadata meta, "
                 "inout standard_metadata_t standard_metadata)", self.scope.states["start"].loc)
        self.emit_lookaheads()
        for value_set in self.scope.value_sets.values():
            width = self.value_set_width(value_set)
            size = self.pragma_value("parser_value_set_size", value_set.name) or 4
            out.line(f'@name(".{value_set.name}") value_set<bit<{width}>>({size}) '
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
            self.out.open(f"header {self.local('fixed_type', header_type.name + '_fixed')}", header_type.loc)
            for decl in header_type.fields[: self.variable_field(header_type)]:
                self.out.line(f"{Bits(decl.width, decl.signed)} {decl.name};", decl.loc)  # type: ignore[arg-type]
            self.out.close()

    def emit_lookaheads(self) -> None:
        for header_type in self.variable_headers():
            self.out.line(f"{self.local('fixed_type', header_type.name + '_fixed')} {self.local('lookahead', header_type.name + '_ahead')};")

    def varbit_length(self, header_type: s.HeaderType, ahead: str) -> str:
        """The bits of a header's variable-length field: its length in bytes (the header type's
        `length`, over the fields read ahead) times 8, less its fixed fields."""
        fixed = [f.name for f in header_type.fields[: self.variable_field(header_type)]]
        fixed_bits = sum(f.width or 0 for f in header_type.fields)

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

        return f"({bits32(header_type.length)} << 3) - 32w{fixed_bits}"  # type: ignore[arg-type]

    def pragma_value(self, pragma: str, name: str) -> Optional[int]:
        for words, _loc in self.program.pragmas:
            if len(words) >= 4 and words[1] == pragma and words[2] == name and words[3].isdigit():
                return int(words[3])
        return None

    def value_set_width(self, value_set: s.ValueSet) -> int:
        for state in self.scope.states.values():
            for case in state.end.cases:
                for value, _mask in case.values or []:
                    if isinstance(value, s.Name) and value.name == value_set.name:
                        return sum(self.key_bits(state, key).width for key in state.end.keys)
        return 32

    def latest(self, state: s.ParserState, loc: Loc) -> s.HeaderRef:
        """The header `latest` means: the one the state extracted last before the statement being
        converted (in its select, the last it extracts)."""
        done = self.statements_done if self.converting is state else len(state.statements)
        extracts = [statement for statement in state.statements[:done] if isinstance(statement, s.Extract)]
        if not extracts:
            raise self.error(loc, f"'latest' in state '{state.name}' before it extracts a header")
        header = extracts[-1].header
        return s.HeaderRef(header.instance, "last" if header.index == "next" else header.index, loc)

    def key_bits(self, state: s.ParserState, key: s.Expr) -> Bits:
        """The type of a select key."""
        bits = self.bits(key, state=state)
        if bits is None:
            raise self.error(key.loc, "a select key is a field, latest.field, current(offset, width) "
                                      "or an expression of them")
        return bits

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
        for self.statements_done, statement in enumerate(state.statements):
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
                ahead = self.local("lookahead", header_type.name + "_ahead")
                out.line(f"{ahead} = packet.lookahead<{self.local('fixed_type', header_type.name + '_fixed')}>();", statement.loc)
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

    def constant(self, expr: s.Expr) -> int:
        if isinstance(expr, s.Const):
            return expr.value
        if isinstance(expr, s.Binary) and expr.op in ("+", "-", "*", "<<", ">>", "&", "|", "^"):
            left, right = self.constant(expr.left), self.constant(expr.right)
            return {"+": left + right, "-": left - right, "*": left * right, "<<": left << right,
                    ">>": left >> right, "&": left & right, "|": left | right, "^": left ^ right}[expr.op]
        if isinstance(expr, s.Unary) and expr.op in ("-", "~"):
            inner = self.constant(expr.operand)
            return -inner if expr.op == "-" else ~inner
        raise self.error(expr.loc, "expected a constant")

    # ---- expressions

    def cast(self, expr: s.Expr, to: Optional[Bits], action: Optional[str] = None,
             state: Optional[s.ParserState] = None) -> str:
        """`expr` as a value of type `to` (constants written as its literals)."""
        if isinstance(expr, s.Const) and to is not None:
            return to.literal(expr.value)
        text = self.expression(expr, action, state)
        if to is not None and self.bits(expr, action, state) != to:
            return f"({to})({text})"
        return text

    def bits(self, expr: s.Expr, action: Optional[str] = None, state: Optional[s.ParserState] = None) -> Optional[Bits]:
        """The type of an expression: a field's, a parameter's, `latest.field`'s, `current`'s; of
        an operation, its wider operand's (a shift's, its left one's); None for a constant."""
        if isinstance(expr, s.Latest) and state is not None:
            return self.field_bits(s.FieldRef(self.latest(state, expr.loc), expr.field, expr.loc))
        if isinstance(expr, s.Binary) and expr.op in ("<<", ">>"):
            return self.bits(expr.left, action, state)
        if isinstance(expr, s.Binary) and expr.op in ("|", "&", "^", "+", "-", "*"):
            operands = [b for b in (self.bits(expr.left, action, state), self.bits(expr.right, action, state)) if b]
            return max(operands, key=lambda b: b.width) if operands else None
        if isinstance(expr, s.Unary) and expr.op in ("-", "~"):
            return self.bits(expr.operand, action, state)
        width = self.width(expr, action)
        if width is None:
            return None
        return Bits(width, isinstance(expr, s.FieldRef) and self.field_decl(expr).signed)

    def field_bits(self, ref: s.FieldRef) -> Bits:
        decl = self.field_decl(ref)
        if decl.width is None:
            raise self.error(ref.loc, f"'{ref.header.instance}.{ref.field}' is a variable-length field")
        return Bits(decl.width, decl.signed)

    def expression(self, expr: s.Expr, action: Optional[str] = None, state: Optional[s.ParserState] = None) -> str:
        if isinstance(expr, s.Const):
            return str(expr.value) if expr.width is None else f"{expr.width}w{expr.value % (1 << expr.width):#x}"
        if isinstance(expr, s.Bool):
            return "true" if expr.value else "false"
        if self.is_valid_field(expr):
            return f"(bit<1>)({self.header_path(expr.header)}.isValid())"  # type: ignore[union-attr]
        if isinstance(expr, s.FieldRef):
            return self.field_path(expr)
        if isinstance(expr, s.Latest):
            if state is None:
                raise self.error(expr.loc, "'latest' is only in a parser state")
            return self.field_path(s.FieldRef(self.latest(state, expr.loc), expr.field, expr.loc))
        if isinstance(expr, s.Current):
            return f"packet.lookahead<bit<{expr.offset + expr.width}>>()[{expr.width - 1}:0]"
        if isinstance(expr, s.Valid):
            ref = expr.ref.header if isinstance(expr.ref, s.FieldRef) else expr.ref
            return f"{self.header_path(ref)}.isValid()"
        if isinstance(expr, s.HeaderRef):
            return self.header_path(expr)
        if isinstance(expr, s.Name):
            if action is not None and (action, expr.name) in self.param_types:
                return expr.name
            if expr.name in self.scope.instances:
                return self.header_path(s.HeaderRef(expr.name, None, expr.loc))
            raise self.error(expr.loc, f"no field, parameter or instance '{expr.name}'")
        if isinstance(expr, s.Unary):
            operand = self.expression(expr.operand, action, state)
            return f"!({operand})" if expr.op == "not" else f"{expr.op}({operand})"
        if isinstance(expr, s.Binary):
            return self.binary(expr, action, state)
        raise self.error(expr.loc, "unexpected expression")

    def binary(self, expr: s.Binary, action: Optional[str], state: Optional[s.ParserState]) -> str:
        op = {"and": "&&", "or": "||"}.get(expr.op, expr.op)
        if op in ("&&", "||"):
            return f"({self.expression(expr.left, action, state)} {op} {self.expression(expr.right, action, state)})"
        if op in ("<<", ">>"):
            return f"({self.expression(expr.left, action, state)} {op} {self.shift_amount(expr.right, action, state)})"
        # Operands of different types meet at the wider (P4_16 has no implicit widening).
        types = [b for b in (self.bits(expr.left, action, state), self.bits(expr.right, action, state)) if b is not None]
        to = max(types, key=lambda b: b.width) if types else None
        left, right = self.cast(expr.left, to, action, state), self.cast(expr.right, to, action, state)
        return f"({left} {op} {right})"

    def shift_amount(self, expr: s.Expr, action: Optional[str], state: Optional[s.ParserState]) -> str:
        if isinstance(expr, s.Const):
            return str(expr.value)
        return self.expression(expr, action, state)

    # ---- actions

    def infer_parameters(self) -> None:
        """Each action parameter's width, from where it is used (p4c's rule): the field it is
        written to or combined with, the index of an extern (32 bits); 32 bits where no use says."""
        for action in self.scope.actions.values():
            params = {p.name for p in action.params}
            if len(params) != len(action.params):
                self.diags.error(action.loc, f"action '{action.name}' names a parameter twice")
        changed = True
        while changed:
            changed = False
            for action in self.scope.actions.values():
                params = {p.name for p in action.params}
                for call in action.body:
                    for position, arg in enumerate(call.args):
                        if not (isinstance(arg, s.Name) and arg.name in params):
                            continue
                        if (action.name, arg.name) in self.param_types:
                            continue
                        width = self.argument_width(action.name, call, position)
                        if width is not None:
                            self.param_types[(action.name, arg.name)] = width
                            changed = True
        for action in self.scope.actions.values():
            for param in action.params:
                self.param_types.setdefault((action.name, param.name), 32)

    def argument_width(self, action: str, call: s.Call, position: int) -> Optional[int]:
        """The width an argument of `call` takes at `position`, where the other arguments tell."""
        args = call.args
        try:
            if call.name in self.scope.actions:
                callee = self.scope.actions[call.name]
                if position < len(callee.params):
                    return self.param_types.get((callee.name, callee.params[position].name))
                return None
            if call.name in _DESTINATION_WIDE and position in _DESTINATION_WIDE[call.name]:
                return self.width(args[0], action)
            if call.name in ("shift_left", "shift_right", "modify_field_with_shift") and position == 2:
                return 8
            if call.name in ("count", "execute_meter", "register_read", "register_write") and position == 1:
                return 32
            if call.name == "register_write" and position == 2:
                register = self.register_bits(args[0])
                return register.width if register else None
            if call.name in ("clone_ingress_pkt_to_egress", "clone_egress_pkt_to_egress", "truncate") and position == 0:
                return 32
        except ConversionError:
            return None
        return None

    def register_bits(self, ref: s.Expr) -> Optional[Bits]:
        register = self.stateful_named(ref, "register")
        width = register.properties.get("width")
        attributes = register.properties.get("attributes")
        attributes = attributes if isinstance(attributes, list) else [attributes]
        signed = any(isinstance(a, s.Name) and a.name == "signed" for a in attributes)
        return Bits(width.value, signed) if isinstance(width, s.Const) else None

    def stateful_named(self, ref: s.Expr, kind: str) -> s.Stateful:
        found = self.scope.stateful.get(ref.name) if isinstance(ref, s.Name) else None
        if found is None or found.kind != kind:
            raise self.error(ref.loc, f"expected the name of a {kind}")
        return found

    def emit_action(self, action: s.Action, table_meters: dict[str, tuple[s.Stateful, str]]) -> None:
        self.emitted_actions.add(action.name)
        out = self.out
        params = ", ".join(f"bit<{self.param_types[(action.name, p.name)]}> {p.name}" for p in action.params)
        out.open(f'@name(".{action.name}") action {self.local("action", action.name)}({params})', action.loc)
        if action.name in table_meters:
            meter, path = table_meters[action.name]
            out.line(f"{self.local('extern', meter.name)}.read({path});", meter.loc)
        for call in action.body:
            self.emit_call(action, call, {}, set())
        out.close()

    def emit_call(self, action: s.Action, call: s.Call, bindings: dict[str, s.Expr], calling: set[str]) -> None:
        """A primitive action as statements, or a compound action's body with its arguments."""
        args = [self.bind(arg, bindings) for arg in call.args]
        if call.name in self.scope.actions:
            callee = self.scope.actions[call.name]
            if callee.name in calling or callee.name == action.name:  # P4_14 has no recursion
                raise self.error(call.loc, f"action '{callee.name}' calls itself")
            if len(args) != len(callee.params):
                raise self.error(call.loc, f"action '{callee.name}' takes {len(callee.params)} arguments, given {len(args)}")
            # The callee's parameters bound to the caller's arguments, which name the outermost
            # action's parameters: that action's are the only ones in scope.
            inner = {p.name: arg for p, arg in zip(callee.params, args)}
            for inner_call in callee.body:
                self.emit_call(action, inner_call, inner, calling | {callee.name})
            return
        if call.name in _BINARY_FORMS:
            self.binary_primitive(action.name, call, args, _BINARY_FORMS[call.name])
            return
        primitive = getattr(self, "primitive_" + call.name, None)
        if primitive is None:
            raise self.error(call.loc, f"no action or primitive action '{call.name}'")
        primitive(action.name, call, args)

    @staticmethod
    def bind(arg: s.Expr, bindings: dict[str, s.Expr]) -> s.Expr:
        if isinstance(arg, s.Name) and arg.name in bindings:
            return bindings[arg.name]
        return arg

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

    def statement(self, text: str, loc: Loc) -> None:
        self.out.line(text, loc)

    def primitive_modify_field(self, action, call, args) -> None:
        self.arity(call, args, 2, 3)
        path, bits = self.destination(call, args[0])
        value = self.cast(args[1], bits, action)
        if len(args) == 3:
            mask = self.cast(args[2], bits, action)
            value = f"({path} & ~{mask}) | ({value} & {mask})"
        self.statement(f"{path} = {value};", call.loc)

    def saturating(self, args: list) -> bool:
        """Whether a field an arithmetic primitive reads or writes saturates (p4c: then it does)."""
        return any(isinstance(a, s.FieldRef) and self.field_decl(a).saturating for a in args)

    def binary_primitive(self, action, call, args, form: str) -> None:
        """`dst = form` over the two operands `a` and `b`, each of the destination's width."""
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        a, b = self.cast(args[1], bits, action), self.cast(args[2], bits, action)
        self.statement(f"{path} = {form.format(a=a, b=b)};", call.loc)

    def primitive_add(self, action, call, args) -> None:
        self.binary_primitive(action, call, args, "{a} |+| {b}" if self.saturating(args) else "{a} + {b}")

    def primitive_subtract(self, action, call, args) -> None:
        self.binary_primitive(action, call, args, "{a} |-| {b}" if self.saturating(args) else "{a} - {b}")

    def primitive_bit_not(self, action, call, args) -> None:
        self.arity(call, args, 2)
        path, bits = self.destination(call, args[0])
        self.statement(f"{path} = ~{self.cast(args[1], bits, action)};", call.loc)

    def _shift(self, action, call, args, op: str) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        self.statement(f"{path} = {self.cast(args[1], bits, action)} {op} {self.shift_amount(args[2], action, None)};",
                       call.loc)

    def primitive_shift_left(self, action, call, args) -> None:
        self._shift(action, call, args, "<<")

    def primitive_shift_right(self, action, call, args) -> None:
        self._shift(action, call, args, ">>")

    def primitive_add_to_field(self, action, call, args) -> None:
        self.arity(call, args, 2)
        path, bits = self.destination(call, args[0])
        op = "|+|" if self.saturating(args) else "+"
        self.statement(f"{path} = {path} {op} {self.cast(args[1], bits, action)};", call.loc)

    def primitive_subtract_from_field(self, action, call, args) -> None:
        self.arity(call, args, 2)
        path, bits = self.destination(call, args[0])
        op = "|-|" if self.saturating(args) else "-"
        self.statement(f"{path} = {path} {op} {self.cast(args[1], bits, action)};", call.loc)

    def primitive_modify_field_conditionally(self, action, call, args) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        condition = self.expression(args[1], action)
        if self.width(args[1], action) is not None:  # a field or parameter: true where not 0
            condition = f"{condition} != 0"
        self.statement(f"{path} = ({condition} ? {self.cast(args[2], bits, action)} : {path});", call.loc)

    def primitive_modify_field_with_shift(self, action, call, args) -> None:
        self.arity(call, args, 4)
        path, bits = self.destination(call, args[0])
        mask = self.cast(args[3], bits, action)
        shifted = f"({self.cast(args[1], bits, action)} >> {self.shift_amount(args[2], action, None)})"
        self.statement(f"{path} = ({path} & ~{mask}) | ({shifted} & {mask});", call.loc)

    def header_argument(self, call: s.Call, arg: s.Expr) -> str:
        ref = s.HeaderRef(arg.name, None, arg.loc) if isinstance(arg, s.Name) else arg
        if not isinstance(ref, s.HeaderRef) or self.instance(ref).metadata:
            raise self.error(arg.loc, f"{call.name} takes a header instance")
        return self.header_path(ref)

    def primitive_add_header(self, action, call, args) -> None:
        self.arity(call, args, 1)
        self.statement(f"{self.header_argument(call, args[0])}.setValid();", call.loc)

    def primitive_remove_header(self, action, call, args) -> None:
        self.arity(call, args, 1)
        self.statement(f"{self.header_argument(call, args[0])}.setInvalid();", call.loc)

    def primitive_copy_header(self, action, call, args) -> None:
        self.arity(call, args, 2)
        self.statement(f"{self.header_argument(call, args[0])} = {self.header_argument(call, args[1])};", call.loc)

    def primitive_drop(self, action, call, args) -> None:
        self.arity(call, args, 0)
        self.statement("mark_to_drop(standard_metadata);", call.loc)

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
        self.statement(f"{stack}.push_front({count});", call.loc)
        for index in range(min(count, self.scope.instances[args[0].name].size)):
            self.statement(f"{stack}[{index}].setValid();", call.loc)

    def primitive_pop(self, action, call, args) -> None:
        self.arity(call, args, 1, 2)
        count = self.constant(args[1]) if len(args) == 2 else 1
        self.statement(f"{self.stack_argument(call, args[0])}.pop_front({count});", call.loc)

    def primitive_count(self, action, call, args) -> None:
        self.arity(call, args, 2)
        counter = self.stateful_named(args[0], "counter")
        self.statement(f"{self.local('extern', counter.name)}.count({self.cast(args[1], INDEX, action)});", call.loc)

    def primitive_execute_meter(self, action, call, args) -> None:
        self.arity(call, args, 3)
        meter = self.stateful_named(args[0], "meter")
        path, _width = self.destination(call, args[2])
        self.statement(f"{self.local('extern', meter.name)}.execute_meter({self.cast(args[1], INDEX, action)}, {path});", call.loc)

    def primitive_register_read(self, action, call, args) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        register = self.stateful_named(args[1], "register")
        if self.register_bits(args[1]) != bits:
            raise self.error(call.loc, f"register '{register.name}' holds {self.register_bits(args[1])}, "
                                       f"the field is {bits}")
        self.statement(f"{self.local('extern', register.name)}.read({path}, {self.cast(args[2], INDEX, action)});", call.loc)

    def primitive_register_write(self, action, call, args) -> None:
        self.arity(call, args, 3)
        register = self.stateful_named(args[0], "register")
        self.statement(f"{self.local('extern', register.name)}.write({self.cast(args[1], INDEX, action)}, "
                       f"{self.cast(args[2], self.register_bits(args[0]), action)});",
                       call.loc)

    def primitive_truncate(self, action, call, args) -> None:
        self.arity(call, args, 1)
        self.statement(f"truncate({self.cast(args[0], INDEX, action)});", call.loc)

    def primitive_modify_field_rng_uniform(self, action, call, args) -> None:
        self.arity(call, args, 3)
        path, bits = self.destination(call, args[0])
        self.statement(f"random({path}, {self.cast(args[1], bits, action)}, {self.cast(args[2], bits, action)});",
                       call.loc)

    def primitive_modify_field_with_hash_based_offset(self, action, call, args) -> None:
        self.arity(call, args, 4)
        path, bits = self.destination(call, args[0])
        calculation = self.calculation(args[2])
        fields = self.field_list_fields(calculation.inputs, calculation.loc)
        algorithm = self.algorithm(calculation)
        self.statement(f"hash({path}, HashAlgorithm.{algorithm}, {self.cast(args[1], bits, action)}, "
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
            self.statement(f"clone_preserving_field_list(CloneType.{kind}, {session}, "
                           f"8w{self.preserved_list(args[1])});", call.loc)
        else:
            self.statement(f"clone(CloneType.{kind}, {session});", call.loc)

    def primitive_resubmit(self, action, call, args) -> None:
        self.arity(call, args, 0, 1)
        index = self.preserved_list(args[0]) if args else 0
        self.statement(f"resubmit_preserving_field_list(8w{index});", call.loc)

    def primitive_recirculate(self, action, call, args) -> None:
        self.arity(call, args, 0, 1)
        index = self.preserved_list(args[0]) if args else 0
        self.statement(f"recirculate_preserving_field_list(8w{index});", call.loc)

    def primitive_generate_digest(self, action, call, args) -> None:
        self.arity(call, args, 2)
        if not isinstance(args[1], s.Name) or args[1].name not in self.scope.field_lists:
            raise self.error(args[1].loc, "generate_digest sends a field_list")
        fields = self.field_list_fields([args[1]], args[1].loc)
        self.statement(f"digest<{self.digest_type(args[1].name)}>({self.cast(args[0], INDEX, action)}, "
                       f"{{ {', '.join(fields)} }});", call.loc)

    def digest_type(self, field_list: str) -> str:
        return self.local("digest", field_list)

    def emit_digest_types(self) -> None:
        """A struct for each field list a digest sends, a field for each of its fields."""
        digested = []
        for action in self.scope.actions.values():
            for call in action.body:
                if call.name == "generate_digest" and len(call.args) == 2 and isinstance(call.args[1], s.Name) \
                        and call.args[1].name in self.scope.field_lists and call.args[1].name not in digested:
                    digested.append(call.args[1].name)
        for name in digested:
            field_list = self.scope.field_lists[name]
            self.out.open(f"struct {self.digest_type(name)}", field_list.loc)
            taken: set[str] = set()
            for entry in self.flattened(field_list):
                if isinstance(entry, s.FieldRef):
                    member = entry.field if entry.field not in taken else f"{entry.header.instance}_{entry.field}"
                    kind = str(self.field_bits(entry))
                elif isinstance(entry, s.Name) and entry.name in self.scope.instances | {"standard_metadata": None}:
                    member = entry.name
                    kind = "standard_metadata_t" if entry.name == "standard_metadata" else \
                        self.local("type", self.scope.instances[entry.name].type_name)
                else:
                    raise self.error(entry.loc, "a digest's field list holds fields, headers and metadata")
                taken.add(member)
                self.out.line(f"{kind} {member};", entry.loc)
            self.out.close()

    def flattened(self, field_list: s.FieldList, seen: frozenset = frozenset()) -> list[s.Expr]:
        """The entries of a field list, the field lists it names expanded, `payload` left out."""
        entries: list[s.Expr] = []
        for entry in field_list.entries:
            if isinstance(entry, s.Name) and entry.name in self.scope.field_lists:
                if entry.name in seen or entry.name == field_list.name:
                    raise self.error(entry.loc, f"field_list '{entry.name}' contains itself")
                entries += self.flattened(self.scope.field_lists[entry.name], seen | {field_list.name})
            elif not (isinstance(entry, s.Name) and entry.name == "payload"):
                entries.append(entry)
        return entries

    def number_preserved_lists(self) -> None:
        """Index the field lists that resubmits, recirculations and clones keep, from 1 in the
        order of their names (p4c's), and the metadata fields each keeps."""
        kept = set()
        for action in self.scope.actions.values():
            for call in action.body:
                position = {"resubmit": 0, "recirculate": 0, "clone_ingress_pkt_to_egress": 1,
                            "clone_egress_pkt_to_egress": 1}.get(call.name)
                if position is not None and len(call.args) > position and isinstance(call.args[position], s.Name):
                    kept.add(call.args[position].name)
        self.preserved_lists = {name: i + 1 for i, name in enumerate(sorted(kept & set(self.scope.field_lists)))}
        self.field_list_indexes = {}
        for name, index in self.preserved_lists.items():
            for entry in self.flattened(self.scope.field_lists[name]):
                if isinstance(entry, s.FieldRef):
                    kept_fields = [(entry.header.instance, entry.field)]
                elif isinstance(entry, s.Name) and entry.name in self.scope.instances:  # all its fields
                    instance = self.scope.instances[entry.name]
                    kept_fields = [(instance.name, f.name) for f in self.scope.header_types[instance.type_name].fields]
                else:
                    continue
                for key in kept_fields:
                    self.field_list_indexes.setdefault(key, []).append(index)

    def calculation(self, ref: s.Expr) -> s.FieldListCalculation:
        found = self.scope.calculations.get(ref.name) if isinstance(ref, s.Name) else None
        if found is None:
            raise self.error(ref.loc, "expected the name of a field_list_calculation")
        return found

    def algorithm(self, calculation: s.FieldListCalculation) -> str:
        if calculation.algorithm not in ALGORITHMS:
            raise self.error(calculation.loc, f"unknown algorithm '{calculation.algorithm}' "
                                              f"(known: {', '.join(ALGORITHMS)})")
        return calculation.algorithm

    def field_list_fields(self, names: Iterable[s.Name], loc: Loc) -> list[str]:
        """The P4_16 expressions of the fields of field lists, nested lists flattened; `payload`
        is left out (the caller asks `has_payload`)."""
        fields: list[str] = []
        for name in names:
            found = self.scope.field_lists.get(name.name)
            if found is None:
                raise self.error(name.loc, f"no field_list '{name.name}'")
            for entry in self.flattened(found):
                if isinstance(entry, s.Name) and entry.name == "standard_metadata":
                    fields.append("standard_metadata")
                elif isinstance(entry, s.Name) and entry.name in self.scope.instances:
                    fields.append(self.header_path(s.HeaderRef(entry.name, None, entry.loc)))
                else:
                    fields.append(self.expression(entry))
        return fields

    def has_payload(self, names: Iterable[s.Name]) -> bool:
        return any(isinstance(e, s.Name) and e.name == "payload"
                   for n in names if n.name in self.scope.field_lists for e in self.scope.field_lists[n.name].entries)

    # ---- controls and tables

    def control_tree(self, root: str) -> tuple[list[str], list[s.Statement]]:
        """The tables the control `root` applies, itself or through the controls it calls, in order."""
        tables: list[str] = []

        def walk(statements: list[s.Statement], stack: tuple[str, ...]) -> None:
            for statement in statements:
                if isinstance(statement, s.Apply):
                    if statement.table.name not in self.scope.tables:
                        raise self.error(statement.table.loc, f"no table '{statement.table.name}'")
                    if statement.table.name not in tables:
                        tables.append(statement.table.name)
                    for case in statement.cases or []:
                        walk(case.body, stack)
                elif isinstance(statement, s.If):
                    walk(statement.then, stack)
                    walk(statement.otherwise, stack)
                else:
                    callee = self.scope.controls.get(statement.name.name)
                    if callee is None:
                        raise self.error(statement.name.loc, f"no control '{statement.name.name}'")
                    if callee.name in stack:
                        raise self.error(statement.loc, f"control '{callee.name}' calls itself")
                    walk(callee.body, stack + (callee.name,))

        control = self.scope.controls.get(root)
        if control is not None:
            walk(control.body, (root,))
        return tables, control.body if control is not None else []

    def emit_controls(self) -> None:
        for name in ("ingress", "egress"):
            self.emit_control(name)
        # The actions no table uses are left out (as p4c leaves them), but checked all the same,
        # but those other actions call: their parameters may be fields, checked where called.
        called = {call.name for action in self.scope.actions.values() for call in action.body}
        used = self.out
        self.out = _Writer()
        for action in self.scope.actions.values():
            if action.name not in self.emitted_actions and action.name not in called:
                self.emit_action(action, {})
        self.out = used

    def emit_control(self, name: str) -> None:
        out = self.out
        tables, body = self.control_tree(name)
        control = self.scope.controls.get(name)
        out.open(f"control {name}(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata)",
                 control.loc if control else None)
        actions: list[str] = []
        for table_name in tables:
            table = self.scope.tables[table_name]
            default = [table.default_action.name] if table.default_action and table.default_action.name in self.scope.actions else []
            for action_name in [a.name for a in self.table_actions(table)] + default:
                if action_name not in actions:
                    actions.append(action_name)
        externs = self.externs_of(tables, actions)
        for declaration in externs:
            self.emit_extern(declaration, tables)
        table_meters = self.direct_meters(tables)
        for action_name in actions:
            self.emit_action(self.scope.actions[action_name], table_meters)
        for table_name in tables:
            self.emit_table(self.scope.tables[table_name])
        out.open("apply")
        self.emit_statements(body)
        out.close()
        out.close()

    def table_actions(self, table: s.Table) -> list[s.Name]:
        names = table.actions
        if table.profile is not None:
            profile = self.scope.profiles.get(table.profile.name)
            if profile is None:
                raise self.error(table.profile.loc, f"no action_profile '{table.profile.name}'")
            names = profile.actions
        for name in names:
            if name.name not in self.scope.actions:
                raise self.error(name.loc, f"no action '{name.name}'")
        return [self.scope.actions[n.name] for n in names]  # type: ignore[misc]

    def externs_of(self, tables: list[str], actions: list[str]) -> list[s.Stateful]:
        """The counters, meters and registers the control's actions use, or bound to its tables."""
        used: list[s.Stateful] = []

        def visit(action: s.Action, seen: set[str]) -> None:
            for call in action.body:
                if call.name in self.scope.actions and call.name not in seen:
                    visit(self.scope.actions[call.name], seen | {call.name})
                for arg in call.args:
                    if isinstance(arg, s.Name) and arg.name in self.scope.stateful:
                        declaration = self.scope.stateful[arg.name]
                        if declaration not in used:
                            used.append(declaration)

        for name in actions:
            visit(self.scope.actions[name], {name})
        for declaration in self.scope.stateful.values():
            direct = declaration.properties.get("direct")
            if isinstance(direct, s.Name) and direct.name in tables and declaration not in used:
                used.append(declaration)
        return used

    def direct_meters(self, tables: list[str]) -> dict[str, tuple[s.Stateful, str]]:
        """The direct meters of the tables, by each action of their table: the meter and its result field."""
        meters: dict[str, tuple[s.Stateful, str]] = {}
        for declaration in self.scope.stateful.values():
            direct = declaration.properties.get("direct")
            if declaration.kind != "meter" or not isinstance(direct, s.Name) or direct.name not in tables:
                continue
            result = declaration.properties.get("result")
            if not isinstance(result, s.FieldRef):
                raise self.error(declaration.loc, f"direct meter '{declaration.name}' needs a result field")
            for action in self.table_actions(self.scope.tables[direct.name]):
                meters[action.name] = (declaration, self.field_path(result))
        return meters

    def emit_extern(self, declaration: s.Stateful, tables: list[str]) -> None:
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
            out.line(f"{self.local('action', action.name)};")
        default = table.default_action
        if default is None:
            out.line("@defaultonly NoAction;")
        elif default.name not in [a.name for a in actions]:
            if default.name not in self.scope.actions:
                raise self.error(default.loc, f"no action '{default.name}'")
            out.line(f"@defaultonly {self.local('action', default.name)};", default.loc)  # p4c's reading of such a default
            actions = actions + [self.scope.actions[default.name]]
        out.close()
        size = table.properties.get("size") or table.properties.get("max_size")
        if isinstance(size, s.Const):
            out.line(f"size = {size.value};", table.properties.loc("size") or table.properties.loc("max_size"))
        if table.properties.get("support_timeout") is not None:
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
            const = "const " if table.properties.get("const_default_action") else ""
            out.line(f"{const}default_action = {self.local('action', default.name)}({args});", default.loc)
        out.close()

    def key_element(self, read: s.Read) -> str:
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
        return self.local("action", label.name)

    # ---- checksums and the deparser

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
