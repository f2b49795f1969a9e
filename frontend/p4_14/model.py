"""What a P4_14 program declares, and what its parts mean in P4_16: the declarations by name,
the P4_16 names of P4_14 objects, the types of fields and parameters, expressions as P4_16
text, field lists, and the actions the compound ones expand to.  The conversion
(convert.py, actions.py) asks it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Optional

from p4odp.diagnostics import Diagnostics, Loc
from p4odp.frontend.p4_14 import syntax as s

__all__ = ["ProgramModel", "Bits", "INDEX", "ConversionError", "INTRINSIC_INSTANCES", "STANDARD_METADATA",
           "ALGORITHMS", "COUNTER_TYPES", "METER_TYPES", "MATCH_KINDS"]

STANDARD_METADATA = {
    "ingress_port": 9, "egress_spec": 9, "egress_port": 9, "instance_type": 32, "packet_length": 32,
    "enq_timestamp": 32, "enq_qdepth": 19, "deq_timedelta": 32, "deq_qdepth": 19,
    "ingress_global_timestamp": 48, "egress_global_timestamp": 48, "mcast_grp": 16, "egress_rid": 16,
    "checksum_error": 1, "priority": 3,
}

INTRINSIC_INSTANCES = ("standard_metadata", "intrinsic_metadata", "queueing_metadata")


# P4_14's names that are v1model's too.
ALGORITHMS = ("csum16", "crc16", "crc32", "identity", "xor16", "random", "crc16_custom", "crc32_custom")
COUNTER_TYPES = ("packets", "bytes", "packets_and_bytes")
METER_TYPES = ("packets", "bytes")
MATCH_KINDS = ("exact", "ternary", "lpm", "range", "valid")

# The primitives whose operands at these positions take the width of the first, the field written.
_DESTINATION_WIDE = {
    **{name: (1,) for name in ("add_to_field", "subtract_from_field", "bit_not", "shift_left", "shift_right")},
    **{name: (1, 2) for name in ("modify_field", "add", "subtract", "bit_and", "bit_or", "bit_xor", "bit_nand",
                                 "bit_nor", "bit_xnor", "bit_andca", "bit_andcb", "bit_orca", "bit_orcb", "min",
                                 "max", "modify_field_rng_uniform")},
    "modify_field_conditionally": (2,),
    "modify_field_with_shift": (1, 3),
}


@dataclass(frozen=True, slots=True)
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


def _operands(expr: s.Expr) -> list[str]:
    """The bare names an argument combines into its value (not a shift's amount): those that take
    the argument's width."""
    if isinstance(expr, s.Name):
        return [expr.name]
    if isinstance(expr, s.Unary):
        return _operands(expr.operand)
    if isinstance(expr, s.Binary) and expr.op in ("<<", ">>"):
        return _operands(expr.left)
    if isinstance(expr, s.Binary):
        return _operands(expr.left) + _operands(expr.right)
    return []


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



class ProgramModel:
    def __init__(self, program: s.Program, diags: Diagnostics, reserved: frozenset[str]) -> None:
        self.program = program
        self.diags = diags
        # P4_14 gives each kind of object its own names; P4_16 one scope to all: each object's
        # P4_16 name is its own unless another object or the architecture has it already, then
        # NAME_1, NAME_2, ... (its control-plane name stays NAME, as p4c's conversion does).
        self.taken: set[str] = set(reserved)
        self.locals: dict[tuple[str, str], str] = {}
        self.scope = Scope()
        self.param_types: dict[tuple[str, str], int] = {}  # (action, parameter) -> width
        self.preserved_lists: dict[str, int] = {}  # field list -> its @field_list index
        self.field_list_indexes: dict[tuple[str, str], list[int]] = {}  # (instance, field) -> indexes
        self.metered_copies: dict[tuple[str, str], str] = {}  # (table, action) -> its copy's P4_16 name
        # The state being converted, and how many of its statements are (for `latest`).
        self.converting: Optional[s.ParserState] = None
        self.statements_done = 0

    def name_objects(self) -> None:
        self.locals[("state", "start")] = "start"
        self.taken.add("start")
        for kind, table in (("type", self.scope.header_types), ("state", self.scope.states),
                            ("value_set", self.scope.value_sets), ("extern", self.scope.stateful),
                            ("action", self.scope.actions), ("table", self.scope.tables)):
            for name in table:
                self.local(kind, name)

    def local(self, kind: str, name: str, base: Optional[str] = None) -> str:
        """The P4_16 name of the P4_14 object `name` of `kind`: `base` (default `name`), or
        `base`_N where another has that."""
        key = (kind, name)
        if key not in self.locals:
            self.locals[key] = self.free_name(name if base is None else base)
            self.taken.add(self.locals[key])
        return self.locals[key]

    def free_name(self, base: str) -> str:
        """`base`, or the first of `base`_1, `base`_2, ... that no name takes."""
        local, n = base, 0
        while local in self.taken:
            n += 1
            local = f"{base}_{n}"
        return local

    def param_local(self, name: str) -> str:
        """The P4_16 name of an action parameter: its own, unless that would hide a name the action's
        statements use (hdr, meta, an extern, a v1model function): then NAME_1, ... (`@name` keeps
        its control-plane name)."""
        return self.free_name(name)

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
            if instance.metadata and instance.size is not None:
                self.diags.error(instance.loc, f"metadata '{instance.name}' cannot be a stack")
        for declaration in self.scope.stateful.values():
            direct = declaration.properties.get("direct")
            if direct is not None and not (isinstance(direct, s.Name) and direct.name in self.scope.tables):
                self.diags.error(declaration.properties.loc("direct"), "direct: names no table")
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

    def cast(self, expr: s.Expr, to: Optional[Bits], action: Optional[str] = None,
             state: Optional[s.ParserState] = None) -> str:
        """`expr` as a value of type `to` (constants written as its literals)."""
        if isinstance(expr, s.Const) and to is not None:
            return to.literal(expr.value)
        return self.retyped(self.expression(expr, action, state), self.bits(expr, action, state), to)

    @staticmethod
    def retyped(text: str, source: Optional[Bits], to: Optional[Bits]) -> str:
        """The P4_16 expression `text`, of type `source` (None: a number), cast to `to`."""
        if to is None or source == to:
            return text
        if source is not None and source.signed != to.signed and source.width != to.width:
            # P4_16 casts change the width or the sign, not both: the width first, keeping the sign.
            text = f"({Bits(to.width, source.signed)})({text})"
        return f"({to})({text})"

    def bits(self, expr: s.Expr, action: Optional[str] = None, state: Optional[s.ParserState] = None) -> Optional[Bits]:
        """The type of an expression: a field's, a parameter's, `latest.field`'s, `current`'s; of
        an operation, its wider operand's (a shift's, its left one's); None for a constant."""
        if isinstance(expr, s.Latest) and state is not None:
            return self.field_bits(s.FieldRef(self.latest(state, expr.loc), expr.field, expr.loc))
        if isinstance(expr, s.Binary) and expr.op in ("<<", ">>"):
            return self.bits(expr.left, action, state)
        if isinstance(expr, s.Binary) and expr.op in ("|", "&", "^", "+", "-", "*"):
            return self.wider(expr, action, state)
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
            return str(expr.value) if expr.width is None else Bits(expr.width).literal(expr.value)
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
            if not isinstance(expr.ref, (s.HeaderRef, s.FieldRef)):
                raise self.error(expr.ref.loc, "valid() takes a header or a field of one")
            ref = expr.ref.header if isinstance(expr.ref, s.FieldRef) else expr.ref
            return f"{self.header_path(ref)}.isValid()"
        if isinstance(expr, s.HeaderRef):
            return self.header_path(expr)
        if isinstance(expr, s.Name):
            if action is not None and (action, expr.name) in self.param_types:
                return self.param_local(expr.name)
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
        to = self.wider(expr, action, state)
        left, right = self.cast(expr.left, to, action, state), self.cast(expr.right, to, action, state)
        return f"({left} {op} {right})"

    def wider(self, expr: s.Binary, action: Optional[str], state: Optional[s.ParserState]) -> Optional[Bits]:
        """The type two operands meet at, the wider's (P4_16 has no implicit widening); None for two numbers."""
        types = [b for b in (self.bits(expr.left, action, state), self.bits(expr.right, action, state)) if b]
        return max(types, key=lambda b: b.width) if types else None

    def shift_amount(self, expr: s.Expr, action: Optional[str], state: Optional[s.ParserState]) -> str:
        if isinstance(expr, s.Const):
            return str(expr.value)
        return self.expression(expr, action, state)

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
                        untyped = [n for n in _operands(arg) if n in params and (action.name, n) not in self.param_types]
                        width = self.argument_width(action.name, call, position) if untyped else None
                        if width is not None:
                            for name in untyped:
                                self.param_types[(action.name, name)] = width
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

    @staticmethod
    def bind(arg: s.Expr, bindings: dict[str, s.Expr]) -> s.Expr:
        """`arg` with the callee's parameters in it replaced by the caller's arguments."""
        if isinstance(arg, s.Name):
            return bindings.get(arg.name, arg)
        if isinstance(arg, s.Unary):
            return replace(arg, operand=ProgramModel.bind(arg.operand, bindings))
        if isinstance(arg, s.Binary):
            return replace(arg, left=ProgramModel.bind(arg.left, bindings), right=ProgramModel.bind(arg.right, bindings))
        return arg

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

    def expanded_calls(self, action: s.Action):
        """The primitive calls `action` runs, with their arguments: the bodies of the compound
        actions it calls, their parameters bound to the caller's arguments (which name `action`'s
        parameters, the only ones in scope)."""
        def expand(body: list[s.Call], bindings: dict[str, s.Expr], calling: frozenset):
            for call in body:
                args = [self.bind(arg, bindings) for arg in call.args]
                callee = self.scope.actions.get(call.name)
                if callee is None:
                    yield call, args
                    continue
                if callee.name in calling:  # P4_14 has no recursion
                    raise self.error(call.loc, f"action '{callee.name}' calls itself")
                if len(args) != len(callee.params):
                    raise self.error(call.loc, f"action '{callee.name}' takes {len(callee.params)} arguments, "
                                               f"given {len(args)}")
                yield from expand(callee.body, {p.name: a for p, a in zip(callee.params, args)},
                                  calling | {callee.name})

        return expand(action.body, {}, frozenset({action.name}))

    def every_expanded_call(self):
        """expanded_calls of every action."""
        for action in self.scope.actions.values():
            yield from self.expanded_calls(action)

    def number_preserved_lists(self) -> None:
        """Index the field lists that resubmits, recirculations and clones keep, from 1 in the
        order of their names (p4c's), and the metadata fields each keeps."""
        kept = set()
        for call, args in self.every_expanded_call():
            position = {"resubmit": 0, "recirculate": 0, "clone_ingress_pkt_to_egress": 1,
                        "clone_egress_pkt_to_egress": 1}.get(call.name)
            if position is not None and len(args) > position and isinstance(args[position], s.Name):
                kept.add(args[position].name)
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

    def has_payload(self, names: Iterable[s.Name], seen: frozenset = frozenset()) -> bool:
        """Whether field lists end in the packet's payload (`payload` in them or in a list they name)."""
        for name in names:
            if name.name not in self.scope.field_lists or name.name in seen:
                continue
            for entry in self.scope.field_lists[name.name].entries:
                if isinstance(entry, s.Name) and (entry.name == "payload" or
                                                  self.has_payload([entry], seen | {name.name})):
                    return True
        return False

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

    def action_local(self, action: str, table: Optional[str] = None) -> str:
        """The P4_16 name of an action, or of the copy of it that a metered table runs."""
        if table is not None and (table, action) in self.metered_copies:
            return self.metered_copies[(table, action)]
        return self.local("action", action)

    def table_action_names(self, table: str) -> list[str]:
        return [a.name for a in self.table_actions(self.scope.tables[table])]
