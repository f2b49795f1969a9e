"""The syntax of P4_14 (v1.0.x, with the v1.1 additions p4c reads): tokens to declarations.

The tokens are the P4_16 lexer's (the two languages share their words, numbers and
operators), the grammar the P4_14 specification's.  Every node keeps the position of its
first token, so that the conversion and the P4_16 front end behind it report errors in the
user's P4_14 file.  Errors are reported to the diagnostics and parsing resumes at the next
declaration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from p4odp.diagnostics import Diagnostics, Loc
from p4odp.frontend.lexer import Token, TokenCursor

# ---- Expressions and references -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Const:
    value: int
    width: Optional[int]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Name:
    """A bare name: an action parameter, a field list, a header or a metadata instance."""

    name: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class HeaderRef:
    instance: str
    index: Union[int, str, None]  # a number, "last", "next", or None for no index
    loc: Loc


@dataclass(frozen=True, slots=True)
class FieldRef:
    header: HeaderRef
    field: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class Latest:
    """`latest.field` in a parser state: the field of the header extracted last."""

    field: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class Current:
    """`current(offset, width)`: bits of the packet ahead of the parser."""

    offset: int
    width: int
    loc: Loc


@dataclass(frozen=True, slots=True)
class Valid:
    ref: Union[HeaderRef, FieldRef]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-", "~", "not"
    operand: "Expr"
    loc: Loc


@dataclass(frozen=True, slots=True)
class Binary:
    op: str
    left: "Expr"
    right: "Expr"
    loc: Loc


@dataclass(frozen=True, slots=True)
class Bool:
    value: bool
    loc: Loc


Expr = Union[Const, Name, HeaderRef, FieldRef, Latest, Current, Valid, Unary, Binary, Bool]

# ---- Declarations -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldDecl:
    name: str
    width: Optional[int]  # None: `*`, the variable-length field
    signed: bool
    saturating: bool
    loc: Loc


@dataclass(frozen=True, slots=True)
class HeaderType:
    name: str
    fields: list[FieldDecl]
    length: Optional[Expr]
    max_length: Optional[int]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Instance:
    metadata: bool
    type_name: str
    name: str
    size: Optional[int]  # a header stack's
    initializer: list[tuple[str, Expr, Loc]]
    loc: Loc


@dataclass(frozen=True, slots=True)
class FieldList:
    name: str
    entries: list[Expr]  # field and header references, constants, names of field lists, Name("payload")
    loc: Loc


@dataclass(frozen=True, slots=True)
class FieldListCalculation:
    name: str
    inputs: list[Name]
    algorithm: str
    output_width: int
    loc: Loc


@dataclass(frozen=True, slots=True)
class CalculatedUpdate:
    verify: bool  # else update
    calculation: Name
    condition: Optional[Expr]
    loc: Loc


@dataclass(frozen=True, slots=True)
class CalculatedField:
    field: FieldRef
    specs: list[CalculatedUpdate]
    loc: Loc


@dataclass(frozen=True, slots=True)
class ValueSet:
    name: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class Extract:
    header: HeaderRef
    loc: Loc


@dataclass(frozen=True, slots=True)
class SetMetadata:
    field: FieldRef
    value: Expr
    loc: Loc


@dataclass(frozen=True, slots=True)
class SelectCase:
    values: Optional[list[tuple[Expr, Optional[Expr]]]]  # (value or value set name, mask); None: default
    target: Name  # a state or a control, or with parse_error a parser exception
    parse_error: bool
    loc: Loc


@dataclass(frozen=True, slots=True)
class Return:
    """A state's end: `return NAME;` (a state or a control), `return parse_error NAME;`, or a
    select over `keys` (each case's target a state or a control)."""

    target: Optional[Name]
    parse_error: bool
    keys: list[Expr]
    cases: list[SelectCase]
    loc: Loc


@dataclass(frozen=True, slots=True)
class ParserState:
    name: str
    statements: list[Union[Extract, SetMetadata]]
    end: Return
    loc: Loc


@dataclass(frozen=True, slots=True)
class ParserException:
    name: str
    statements: list[SetMetadata]
    target: Optional[Name]  # a control; None: `parser_drop`
    loc: Loc


@dataclass(frozen=True, slots=True)
class Properties:
    """The `name : value ;` and `name : NAME ;` properties of a counter, meter, register,
    table, action profile or selector, by name, each with its position."""

    values: dict[str, tuple[object, Loc]] = field(default_factory=dict)

    def get(self, key: str, default=None):
        return self.values[key][0] if key in self.values else default

    def loc(self, key: str) -> Optional[Loc]:
        return self.values[key][1] if key in self.values else None


@dataclass(frozen=True, slots=True)
class Stateful:
    """A counter, meter or register."""

    kind: str  # "counter", "meter", "register"
    name: str
    properties: Properties
    loc: Loc


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    args: list[Expr]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Action:
    name: str
    params: list[Name]
    body: list[Call]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Read:
    ref: Union[HeaderRef, FieldRef]
    mask: Optional[Expr]
    match_kind: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    reads: list[Read]
    actions: list[Name]
    profile: Optional[Name]
    properties: Properties
    default_action: Optional[Call]
    const_default: bool  # `const default_action`, p4c's extension: the control plane cannot change it
    loc: Loc


@dataclass(frozen=True, slots=True)
class ActionProfile:
    name: str
    actions: list[Name]
    properties: Properties
    loc: Loc


@dataclass(frozen=True, slots=True)
class ActionSelector:
    name: str
    properties: Properties
    loc: Loc


@dataclass(frozen=True, slots=True)
class ApplyCase:
    labels: list[Name]  # actions' names, or one of "hit", "miss", "default"
    body: list["Statement"]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Apply:
    table: Name
    cases: Optional[list[ApplyCase]]
    loc: Loc


@dataclass(frozen=True, slots=True)
class If:
    condition: Expr
    then: list["Statement"]
    otherwise: list["Statement"]
    loc: Loc


@dataclass(frozen=True, slots=True)
class ControlCall:
    name: Name
    loc: Loc


Statement = Union[Apply, If, ControlCall]


@dataclass(frozen=True, slots=True)
class Control:
    name: str
    body: list[Statement]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Program:
    declarations: list[object]
    pragmas: list[tuple[list[str], Loc]]


# ---- The parser -----------------------------------------------------------------------

# Operators of expressions, loosest first: p4c's P4_14 precedence, where `&`, `^` and `|` bind
# tighter than comparisons (C's are looser).
_BINARY_LEVELS = (
    ("or",),
    ("and",),
    ("==", "!="),
    ("<", "<=", ">", ">="),
    ("|",),
    ("^",),
    ("&",),
    ("<<", ">>"),
    ("+", "-"),
    ("*",),
)

_PROPERTY_BLOCKS = {"counter", "meter", "register", "action_selector"}


class _Stop(Exception):
    """Unwinds a declaration with a syntax error in it (already reported)."""


class _Parser(TokenCursor):
    def __init__(self, tokens: list[Token], diags: Diagnostics) -> None:
        super().__init__(tokens)
        self.diags = diags
        self.pragmas: list[tuple[list[str], Loc]] = []

    # -- tokens

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.pos += 1
            return True
        return False

    def fail(self, expected: str) -> None:
        self.diags.error(self.tok.loc, f"syntax error: expected {expected}, found '{self.tok.text}'")
        raise _Stop

    def expect(self, text: str) -> Token:
        if not self.at(text):
            self.fail(f"'{text}'")
        token = self.tok
        self.pos += 1
        return token

    def name(self, what: str = "a name") -> Name:
        if self.tok.kind not in ("id", "kw"):
            self.fail(what)
        token = self.tok
        self.pos += 1
        return Name(token.text, token.loc)

    def integer(self) -> int:
        negative = self.accept("-")
        if self.tok.kind != "int":
            self.fail("a number")
        value = self.tok.value[0]
        self.pos += 1
        return -value if negative else value

    # -- the program

    def program(self) -> Program:
        declarations: list[object] = []
        while self.tok.kind != "eof":
            start = self.pos
            try:
                declaration = self.declaration()
                if declaration is not None:
                    declarations.append(declaration)
            except _Stop:
                self.skip_declaration(start)
        return Program(declarations, self.pragmas)

    def skip_declaration(self, start: int) -> None:
        """Past the rest of a declaration with an error: to the end of its braces or its `;`."""
        self.pos = max(self.pos, start + 1)
        depth = sum(1 for t in self.tokens[start : self.pos] if t.text == "{") - sum(
            1 for t in self.tokens[start : self.pos] if t.text == "}"
        )
        while self.tok.kind != "eof":
            if self.at("{"):
                depth += 1
            elif self.at("}"):
                depth -= 1
                if depth <= 0:
                    self.pos += 1
                    return
            elif self.at(";") and depth <= 0:
                self.pos += 1
                return
            self.pos += 1

    def declaration(self) -> object:
        token = self.tok
        word = token.text
        if token.is_("op", "@"):
            self.pragma()
            return None
        handlers = {
            "header_type": self.header_type,
            "header": lambda: self.instance(False),
            "metadata": lambda: self.instance(True),
            "field_list": self.field_list,
            "field_list_calculation": self.field_list_calculation,
            "calculated_field": self.calculated_field,
            "parser_value_set": self.value_set,
            "parser": self.parser_state,
            "parser_exception": self.parser_exception,
            "action": self.action,
            "table": self.table,
            "action_profile": self.action_profile,
            "control": self.control,
        }
        if word in handlers and token.kind in ("id", "kw"):
            self.pos += 1
            return handlers[word]()
        if word in _PROPERTY_BLOCKS and token.kind == "id":
            self.pos += 1
            name = self.name()
            properties = self.properties()
            if word == "action_selector":
                return ActionSelector(name.name, properties, token.loc)
            return Stateful(word, name.name, properties, token.loc)
        self.fail("a P4_14 declaration (header_type, header, metadata, parser, action, table, control, ...)")
        return None

    def pragma(self) -> None:
        """`@pragma words...` to the end of its line."""
        at = self.tok
        self.pos += 1
        words: list[str] = []
        while self.tok.kind != "eof" and self.tok.loc.line == at.loc.line and self.tok.loc.file == at.loc.file:
            words.append(self.tok.text)
            self.pos += 1
        self.pragmas.append((words, at.loc))

    # -- headers and instances

    def header_type(self) -> HeaderType:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a header type's name")
        self.expect("{")
        self.expect("fields")
        self.expect("{")
        fields: list[FieldDecl] = []
        while not self.accept("}"):
            if (self.at("bit") or self.at("int")) and self.peek().text == "<":  # P4 v1.1's `bit<W> name;`
                signed = self.tok.text == "int"
                self.pos += 2
                width = self.integer()
                self.expect(">")
                field_name = self.name("a field's name")
                self.expect(";")
                fields.append(FieldDecl(field_name.name, width, signed, False, field_name.loc))
                continue
            field_name = self.name("a field's name")
            self.expect(":")
            width = None if self.accept("*") else self.integer()
            signed = saturating = False
            if self.accept("("):
                while True:
                    attribute = self.name("signed or saturating")
                    if attribute.name not in ("signed", "saturating"):
                        self.diags.error(attribute.loc, f"unknown field attribute '{attribute.name}': signed or saturating")
                    signed |= attribute.name == "signed"
                    saturating |= attribute.name == "saturating"
                    if not self.accept(","):
                        break
                self.expect(")")
            self.expect(";")
            fields.append(FieldDecl(field_name.name, width, signed, saturating, field_name.loc))
        length = max_length = None
        while not self.accept("}"):
            key = self.name("length, max_length or '}'")
            self.expect(":")
            if key.name == "length":
                length = self.expression()
            elif key.name == "max_length":
                max_length = self.integer()
            else:
                self.diags.error(key.loc, f"unknown header type attribute '{key.name}': length or max_length")
                self.expression()
            self.expect(";")
        return HeaderType(name.name, fields, length, max_length, loc)

    def instance(self, metadata: bool) -> Instance:
        loc = self.tokens[self.pos - 1].loc
        type_name = self.name("a header type's name")
        name = self.name("an instance's name")
        size = None
        if self.accept("["):
            size = self.integer()
            self.expect("]")
        initializer: list[tuple[str, Expr, Loc]] = []
        if metadata and self.accept("{"):
            while not self.accept("}"):
                field_name = self.name("a field's name")
                self.expect(":")
                initializer.append((field_name.name, self.expression(), field_name.loc))
                self.expect(";")
            self.accept(";")
        else:
            self.expect(";")
        return Instance(metadata, type_name.name, name.name, size, initializer, loc)

    def header_ref(self) -> HeaderRef:
        name = self.name("a header or metadata instance")
        index: Union[int, str, None] = None
        if self.accept("["):
            if self.at("last") or self.at("next"):
                index = self.tok.text
                self.pos += 1
            else:
                index = self.integer()
            self.expect("]")
        return HeaderRef(name.name, index, name.loc)

    def reference(self) -> Union[HeaderRef, FieldRef, Name]:
        """A field or header reference, or a bare name (a header, a parameter, a field list)."""
        start = self.tok
        header = self.header_ref()
        if self.accept("."):
            field_name = self.name("a field's name")
            if header.instance == "latest" and header.index is None:
                return Latest(field_name.name, start.loc)
            return FieldRef(header, field_name.name, start.loc)
        if header.index is None:
            return Name(header.instance, start.loc)
        return header

    # -- field lists and calculations

    def field_list(self) -> FieldList:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a field list's name")
        self.expect("{")
        entries: list[Expr] = []
        while not self.accept("}"):
            entries.append(self.primary())
            self.expect(";")
        return FieldList(name.name, entries, loc)

    def field_list_calculation(self) -> FieldListCalculation:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a calculation's name")
        self.expect("{")
        inputs: list[Name] = []
        algorithm, output_width = "", 0
        while not self.accept("}"):
            key = self.name("input, algorithm or output_width")
            if key.name == "input":
                self.expect("{")
                while not self.accept("}"):
                    inputs.append(self.name("a field list's name"))
                    self.expect(";")
                continue
            self.expect(":")
            if key.name == "algorithm":
                algorithm = self.name("an algorithm").name
            elif key.name == "output_width":
                output_width = self.integer()
            else:
                self.diags.error(key.loc, f"unknown attribute '{key.name}' of a field_list_calculation")
                self.expression()
            self.expect(";")
        return FieldListCalculation(name.name, inputs, algorithm, output_width, loc)

    def calculated_field(self) -> CalculatedField:
        loc = self.tokens[self.pos - 1].loc
        target = self.reference()
        if not isinstance(target, FieldRef):
            self.diags.error(target.loc, "a calculated_field names a field: header.field")
            raise _Stop
        self.expect("{")
        specs: list[CalculatedUpdate] = []
        while not self.accept("}"):
            kind = self.name("update or verify")
            if kind.name not in ("update", "verify"):
                self.diags.error(kind.loc, f"expected update or verify, found '{kind.name}'")
                raise _Stop
            calculation = self.name("a field_list_calculation's name")
            condition = None
            if self.accept("if"):
                self.expect("(")
                condition = self.expression()
                self.expect(")")
            self.expect(";")
            specs.append(CalculatedUpdate(kind.name == "verify", calculation, condition, kind.loc))
        return CalculatedField(target, specs, loc)

    def value_set(self) -> ValueSet:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a value set's name")
        self.expect(";")
        return ValueSet(name.name, loc)

    # -- the parser

    def parser_state(self) -> ParserState:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a parser state's name")
        self.expect("{")
        statements: list[Union[Extract, SetMetadata]] = []
        while not self.at("return"):
            statements.append(self.parser_statement())
        end = self.parser_return()
        self.expect("}")
        return ParserState(name.name, statements, end, loc)

    def parser_statement(self) -> Union[Extract, SetMetadata]:
        if self.peek().text != "(":
            assignment = self.assignment("set_metadata")
            self.expect(";")
            if not isinstance(assignment.args[0], FieldRef):
                self.diags.error(assignment.loc, "an assignment in a parser state sets a field: instance.field")
                raise _Stop
            return SetMetadata(assignment.args[0], assignment.args[1], assignment.loc)
        word = self.name("extract, set_metadata or return")
        self.expect("(")
        if word.name == "extract":
            header = self.header_ref()
            self.expect(")")
            self.expect(";")
            return Extract(header, word.loc)
        if word.name == "set_metadata":
            target = self.reference()
            if not isinstance(target, FieldRef):
                self.diags.error(target.loc, "set_metadata sets a field: instance.field")
                raise _Stop
            self.expect(",")
            value = self.expression()
            self.expect(")")
            self.expect(";")
            return SetMetadata(target, value, word.loc)
        self.diags.error(word.loc, f"'{word.name}' is not a parser statement: extract or set_metadata")
        raise _Stop

    def parser_return(self) -> Return:
        loc = self.expect("return").loc
        if self.accept("select"):
            self.expect("(")
            keys = [self.expression()]
            while self.accept(","):
                keys.append(self.expression())
            self.expect(")")
            self.expect("{")
            cases: list[SelectCase] = []
            while not self.accept("}"):
                cases.append(self.select_case())
            return Return(None, False, keys, cases, loc)
        parse_error = self.accept("parse_error")
        target = self.name("a parser state or control")
        self.expect(";")
        return Return(target, parse_error, [], [], loc)

    def select_case(self) -> SelectCase:
        loc = self.tok.loc
        values: Optional[list[tuple[Expr, Optional[Expr]]]] = None
        if not self.accept("default"):
            values = [self.select_value()]
            while self.accept(","):
                values.append(self.select_value())
        self.expect(":")
        parse_error = self.accept("parse_error")
        target = self.name("a parser exception" if parse_error else "a parser state or control")
        self.expect(";")
        return SelectCase(values, target, parse_error, loc)

    def select_value(self) -> tuple[Expr, Optional[Expr]]:
        value = self.expression()
        mask = self.expression() if self.accept("mask") else None
        return value, mask

    def parser_exception(self) -> ParserException:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a parser exception's name")
        self.expect("{")
        statements: list[SetMetadata] = []
        while self.at("set_metadata"):
            statement = self.parser_statement()
            statements.append(statement)  # type: ignore[arg-type]
        target: Optional[Name] = None
        if not self.accept("parser_drop"):
            self.expect("return")
            target = self.name("a control")
        self.expect(";")
        self.expect("}")
        return ParserException(name.name, statements, target, loc)

    # -- actions, tables, controls

    def properties(self) -> Properties:
        """`{ key : value ; key : NAME ; flag ; }`, values expressions or names."""
        self.expect("{")
        properties = Properties()
        while not self.accept("}"):
            key = self.name("a property")
            value: object = True
            if self.accept(":"):
                value = self.expression()
                if self.at(","):  # a list: a register's attributes
                    value = [value]
                    while self.accept(","):
                        value.append(self.expression())
            self.expect(";")
            if key.name in properties.values:
                self.diags.error(key.loc, f"'{key.name}' is given twice")
            properties.values[key.name] = (value, key.loc)
        return properties

    def action(self) -> Action:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("an action's name")
        self.expect("(")
        params: list[Name] = []
        if not self.accept(")"):
            params.append(self.name("a parameter"))
            while self.accept(","):
                params.append(self.name("a parameter"))
            self.expect(")")
        self.expect("{")
        body: list[Call] = []
        while not self.accept("}"):
            body.append(self.call() if self.peek().text == "(" else self.assignment("modify_field"))
            self.expect(";")
        return Action(name.name, params, body, loc)

    def assignment(self, primitive: str) -> Call:
        """P4 v1.1's `field = expression`, read as the primitive that does it."""
        loc = self.tok.loc
        target = self.reference()
        self.expect("=")
        return Call(primitive, [target, self.expression()], loc)

    def call(self) -> Call:
        name = self.name("a primitive action or an action")
        self.expect("(")
        args: list[Expr] = []
        if not self.accept(")"):
            args.append(self.expression())
            while self.accept(","):
                args.append(self.expression())
            self.expect(")")
        return Call(name.name, args, name.loc)

    def action_list(self) -> list[Name]:
        self.expect("{")
        actions: list[Name] = []
        while not self.accept("}"):
            actions.append(self.name("an action's name"))
            self.expect(";")
        return actions

    def table(self) -> Table:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a table's name")
        self.expect("{")
        reads: list[Read] = []
        actions: list[Name] = []
        profile: Optional[Name] = None
        default_action: Optional[Call] = None
        const_default = False
        properties = Properties()
        while not self.accept("}"):
            const = self.accept("const")
            key = self.name("reads, actions, action_profile, size or another table property")
            if const and key.name != "default_action":
                self.diags.error(key.loc, "only default_action can be const")
            if key.name == "reads":
                self.expect("{")
                while not self.accept("}"):
                    ref = self.reference()
                    if isinstance(ref, Name):
                        ref = HeaderRef(ref.name, None, ref.loc)
                    mask = self.primary() if self.accept("mask") else None
                    self.expect(":")
                    kind = self.name("a match type")
                    self.expect(";")
                    reads.append(Read(ref, mask, kind.name, ref.loc))
            elif key.name == "actions":
                actions = self.action_list()
            elif key.name == "action_profile":
                self.expect(":")
                profile = self.name("an action profile's name")
                self.expect(";")
            elif key.name == "default_action":
                self.expect(":")
                default_action = self.call() if self.peek().text == "(" else Call(self.name().name, [], key.loc)
                self.expect(";")
                const_default = const
            else:
                self.expect(":")
                properties.values[key.name] = (self.expression(), key.loc)
                self.expect(";")
        return Table(name.name, reads, actions, profile, properties, default_action, const_default, loc)

    def action_profile(self) -> ActionProfile:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("an action profile's name")
        self.expect("{")
        actions: list[Name] = []
        properties = Properties()
        while not self.accept("}"):
            key = self.name("actions, size or dynamic_action_selection")
            if key.name == "actions":
                actions = self.action_list()
                continue
            self.expect(":")
            properties.values[key.name] = (self.expression(), key.loc)
            self.expect(";")
        return ActionProfile(name.name, actions, properties, loc)

    def control(self) -> Control:
        loc = self.tokens[self.pos - 1].loc
        name = self.name("a control's name")
        return Control(name.name, self.block(), loc)

    def block(self) -> list[Statement]:
        self.expect("{")
        body: list[Statement] = []
        while not self.accept("}"):
            body.append(self.statement())
        return body

    def statement(self) -> Statement:
        loc = self.tok.loc
        if self.accept("apply"):
            self.expect("(")
            table = self.name("a table's name")
            self.expect(")")
            if self.accept(";"):
                return Apply(table, None, loc)
            self.expect("{")
            cases: list[ApplyCase] = []
            while not self.accept("}"):
                labels = [self.name("hit, miss, default or an action's name")]
                while self.accept(","):
                    labels.append(self.name("an action's name"))
                cases.append(ApplyCase(labels, self.block(), labels[0].loc))
            return Apply(table, cases, loc)
        if self.accept("if"):
            self.expect("(")
            condition = self.expression()
            self.expect(")")
            then = self.block()
            otherwise: list[Statement] = []
            if self.accept("else"):
                otherwise = [self.statement()] if self.at("if") else self.block()
            return If(condition, then, otherwise, loc)
        name = self.name("apply, if or a control's name")
        self.expect("(")
        self.expect(")")
        self.expect(";")
        return ControlCall(name, loc)

    # -- expressions

    def expression(self, level: int = 0) -> Expr:
        if level == len(_BINARY_LEVELS):
            return self.unary()
        left = self.expression(level + 1)
        while True:
            op = self.operator()
            if op not in _BINARY_LEVELS[level]:
                return left
            loc = self.tok.loc
            self.pos += 2 if op == ">>" else 1
            left = Binary(op, left, self.expression(level + 1), loc)

    def operator(self) -> str:
        """The operator at the cursor: the lexer leaves `>>` as two adjacent `>`."""
        if self.tok.kind not in ("op", "id"):
            return ""
        if self.at(">") and self.peek().is_("op", ">") and self.peek().start == self.tok.end:
            return ">>"
        return self.tok.text

    def unary(self) -> Expr:
        token = self.tok
        if self.at("not") or self.at("-") or self.at("~") or self.at("!"):
            self.pos += 1
            op = "not" if token.text in ("not", "!") else token.text
            operand = self.unary()
            if op == "-" and isinstance(operand, Const):
                return Const(-operand.value, operand.width, token.loc)
            return Unary(op, operand, token.loc)
        return self.primary()

    def primary(self) -> Expr:
        token = self.tok
        if self.accept("("):
            inner = self.expression()
            self.expect(")")
            return inner
        if token.kind == "int":
            self.pos += 1
            value, width, _signed, _base = token.value
            if self.tok.is_("bad", "'") and self.peek().kind == "int":  # P4_14's width'value
                width, value = value, self.peek().value[0]
                self.pos += 2
            return Const(value, width, token.loc)
        if self.at("-") and self.peek().kind == "int":  # a negative value in a select case or field list
            value, width, _signed, _base = self.peek().value
            self.pos += 2
            return Const(-value, width, token.loc)
        if self.at("true") or self.at("false"):
            self.pos += 1
            return Bool(token.text == "true", token.loc)
        if self.at("current") and self.peek().text == "(":
            self.pos += 2
            offset = self.integer()
            self.expect(",")
            width = self.integer()
            self.expect(")")
            return Current(offset, width, token.loc)
        if self.at("valid") and self.peek().text == "(":
            self.pos += 2
            ref = self.reference()
            if isinstance(ref, Name):
                ref = HeaderRef(ref.name, None, ref.loc)
            self.expect(")")
            return Valid(ref, token.loc)
        if token.kind in ("id", "kw"):
            return self.reference()
        self.fail("an expression")
        return Bool(False, token.loc)


def parse(tokens: list[Token], diags: Diagnostics) -> Program:
    """The declarations of a P4_14 program's tokens; errors go to `diags`."""
    return _Parser(tokens, diags).program()
