"""The p4odp intermediate representation.

The IR is the only contract between the front end and the later stages
(passes, transpiler, target plugins).  It is a tree of immutable nodes, one
class per P4_16 construct, each with the `loc` of the source text it came
from.  Passes never mutate nodes; they build new ones with
`dataclasses.replace`.

Layout of the tree:

* `Program` holds the top-level declarations in source order, the
  architecture's included ones first.
* Declarations (`Header`, `Struct`, `Parser`, `Control`, `Table`, ...) hold
  *syntax types* (`TypeName`, `BitsType`, ...) as the user wrote them.
* Statements and expressions form the bodies.  After type checking every
  `Expression` carries its semantic type in `type` (a `p4odp.types.Type`);
  straight from the parser `type` is None.  The JSON dump prints types as
  P4 spells them (`bit<8>`, `header ethernet_t`).
* Control-plane names: tables, actions, value sets and extern instances carry
  `control_name`, the fully qualified name p4c would give them (honouring
  `@name`), filled in by the front end.

`to_json` dumps any node; that dump is what `p4odp compile --emit ir` prints.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from p4odp.diagnostics import Loc
from p4odp.types import Type

node = dataclass(frozen=True, slots=True, eq=False)


@node
class Node:
    loc: Loc


# --------------------------------------------------------------------------
# Annotations


@node
class Annotation(Node):
    """`@name`, `@name(tokens)` (unstructured: `body` is the raw text) or
    `@name[...]` (structured: `items` are expressions or `KeyValue`s)."""

    name: str
    body: Optional[str] = None
    items: tuple = ()
    structured: bool = False


@node
class KeyValue(Node):
    key: str
    value: "Expression"


Annotations = tuple  # tuple[Annotation, ...]


# --------------------------------------------------------------------------
# Syntax types: types as written in the program


@node
class TypeRef(Node):
    pass


@node
class TypeName(TypeRef):
    """A named type; `is_global` for the `.T` form."""

    name: str
    is_global: bool = False


@node
class SpecializedType(TypeRef):
    base: TypeName
    args: tuple  # tuple[TypeRef, ...]


@node
class BitsType(TypeRef):
    """`bit<W>` / `int<W>`; plain `bit` is `bit<1>`.  `width` is an expression."""

    width: "Expression"
    signed: bool


@node
class VarbitType(TypeRef):
    width: "Expression"


@node
class BoolType(TypeRef):
    pass


@node
class StringType(TypeRef):
    pass


@node
class IntType(TypeRef):
    """`int`: the arbitrary-precision integer type of compile-time values."""


@node
class VoidType(TypeRef):
    pass


@node
class ErrorType(TypeRef):
    pass


@node
class MatchKindType(TypeRef):
    pass


@node
class DontCareType(TypeRef):
    """`_` used as a type argument: the type is to be inferred."""


@node
class StackType(TypeRef):
    element: TypeRef
    size: "Expression"


@node
class TupleType(TypeRef):
    elements: tuple


@node
class ListType(TypeRef):
    element: TypeRef


# --------------------------------------------------------------------------
# Expressions


@node
class Expression(Node):
    type: Any = field(default=None, kw_only=True)


@node
class IntLiteral(Expression):
    """`value` is the mathematical value; `width`/`signed` come from `8w5`,
    `4s3` prefixes (width None: an untyped `int` literal)."""

    value: int
    width: Optional[int] = None
    signed: bool = False
    base: int = 10


@node
class BoolLiteral(Expression):
    value: bool


@node
class StringLiteral(Expression):
    value: str


@node
class PathExpression(Expression):
    name: str
    is_global: bool = False


@node
class TypeNameExpression(Expression):
    """A type used where an expression stands: `error.X`, `E.A`, `bit<8>`
    as the argument of `sizeInBits`, `T(...)` constructor calls."""

    type_ref: TypeRef


@node
class Member(Expression):
    expr: Expression
    member: str


@node
class ArrayIndex(Expression):
    expr: Expression
    index: Expression


@node
class Slice(Expression):
    expr: Expression
    high: Expression
    low: Expression


@node
class IndexedSlice(Expression):
    """`e[low +: width]`: `width` bits starting at bit `low`."""

    expr: Expression
    low: Expression
    width: Expression


class UnaryOp(str, enum.Enum):
    NEG = "-"
    PLUS = "+"
    NOT = "!"
    CMPL = "~"


@node
class Unary(Expression):
    op: UnaryOp
    expr: Expression


class BinaryOp(str, enum.Enum):
    MUL = "*"
    DIV = "/"
    MOD = "%"
    ADD = "+"
    SUB = "-"
    ADD_SAT = "|+|"
    SUB_SAT = "|-|"
    SHL = "<<"
    SHR = ">>"
    LE = "<="
    GE = ">="
    LT = "<"
    GT = ">"
    EQ = "=="
    NE = "!="
    BAND = "&"
    BXOR = "^"
    BOR = "|"
    CONCAT = "++"
    AND = "&&"
    OR = "||"
    MASK = "&&&"
    RANGE = ".."


@node
class Binary(Expression):
    op: BinaryOp
    left: Expression
    right: Expression


@node
class Mux(Expression):
    """`cond ? then : otherwise`."""

    cond: Expression
    then: Expression
    otherwise: Expression


@node
class Cast(Expression):
    to: TypeRef
    expr: Expression


@node
class Argument(Node):
    """A call argument; `name` for `f(x = 1)`; `value` None for `_` (don't care)."""

    value: Optional[Expression]
    name: Optional[str] = None


@node
class MethodCall(Expression):
    method: Expression
    type_args: tuple = ()  # tuple[TypeRef, ...]
    args: tuple = ()  # tuple[Argument, ...]


@node
class ConstructorCall(Expression):
    """`T(args)` in an expression, where T names an extern, parser, control or package."""

    type_ref: TypeRef
    args: tuple = ()


@node
class ListExpression(Expression):
    """`{a, b}`; a trailing `...` in a select keyset sets `dots`."""

    elements: tuple
    dots: bool = False


@node
class NamedExpression(Node):
    name: str
    value: Expression


@node
class StructExpression(Expression):
    """`{a = 1, b = 2}`, optionally `T {...}` / `(T){...}` with `type_ref`."""

    fields: tuple  # tuple[NamedExpression, ...]
    type_ref: Optional[TypeRef] = None
    dots: bool = False


@node
class InvalidExpression(Expression):
    """`{#}`: the invalid header or header union."""


@node
class DefaultExpression(Expression):
    """`default` (and `_` in a keyset)."""


@node
class DontCare(Expression):
    """`_` as an l-value or out argument."""


@node
class DefaultInitializer(Expression):
    """`...` as an initializer: the default value of the declared type."""


@node
class ThisExpression(Expression):
    pass


# --------------------------------------------------------------------------
# Declarations


@node
class Declaration(Node):
    name: str
    annotations: tuple = field(default=(), kw_only=True)


@node
class Parameter(Declaration):
    """`type` is the semantic type of `type_ref`, set by the type checker (as for `Variable`, `Constant`)."""

    direction: str  # "", "in", "out", "inout"
    type_ref: TypeRef
    default: Optional[Expression] = None
    type: Any = field(default=None, kw_only=True)


@node
class StructField(Declaration):
    type_ref: TypeRef
    type: Any = field(default=None, kw_only=True)  # its semantic type, set by the type checker


@node
class Header(Declaration):
    fields: tuple
    type_params: tuple = ()


@node
class HeaderUnion(Declaration):
    fields: tuple
    type_params: tuple = ()


@node
class Struct(Declaration):
    fields: tuple
    type_params: tuple = ()


@node
class EnumMember(Declaration):
    value: Optional[Expression] = None


@node
class Enum(Declaration):
    """`enum E {...}`; `underlying` is set for serializable `enum bit<8> E {...}`."""

    members: tuple
    underlying: Optional[TypeRef] = None


@node
class ErrorDeclaration(Node):
    members: tuple  # tuple[EnumMember, ...]


@node
class MatchKindDeclaration(Node):
    members: tuple


@node
class Typedef(Declaration):
    type_ref: TypeRef


@node
class NewType(Declaration):
    """`type T1 T2;`: a new type distinct from its representation."""

    type_ref: TypeRef


@node
class Constant(Declaration):
    type_ref: TypeRef
    value: Expression
    type: Any = field(default=None, kw_only=True)


@node
class Variable(Declaration):
    type_ref: TypeRef
    init: Optional[Expression] = None
    type: Any = field(default=None, kw_only=True)


@node
class Instance(Declaration):
    """`T(args) name;`, optionally with a block implementing abstract methods."""

    type_ref: TypeRef
    args: tuple
    initializer: tuple = ()  # tuple[Function, ...]
    control_name: str = ""
    type: Any = field(default=None, kw_only=True)  # the instance's semantic type, type arguments inferred


@node
class MethodPrototype(Declaration):
    """An extern method, constructor or extern function signature."""

    return_type: Optional[TypeRef]  # None for constructors
    type_params: tuple
    params: tuple
    abstract: bool = False


@node
class ExternFunction(Declaration):
    prototype: MethodPrototype


@node
class Extern(Declaration):
    type_params: tuple
    methods: tuple  # tuple[MethodPrototype, ...]


@node
class Function(Declaration):
    return_type: TypeRef
    type_params: tuple
    params: tuple
    body: "Block"


@node
class Action(Declaration):
    params: tuple
    body: "Block"
    control_name: str = ""


@node
class ParserType(Declaration):
    type_params: tuple
    params: tuple


@node
class ControlType(Declaration):
    type_params: tuple
    params: tuple


@node
class Package(Declaration):
    type_params: tuple
    params: tuple  # constructor parameters


@node
class ParserState(Declaration):
    components: tuple  # statements
    transition: Optional[Expression]  # PathExpression or SelectExpression


@node
class SelectCase(Node):
    keyset: Expression
    state: PathExpression


@node
class SelectExpression(Expression):
    keys: tuple
    cases: tuple


@node
class Parser(Declaration):
    type_params: tuple
    params: tuple
    ctor_params: tuple
    locals: tuple
    states: tuple


@node
class Control(Declaration):
    type_params: tuple
    params: tuple
    ctor_params: tuple
    locals: tuple
    body: "Block"


@node
class KeyElement(Node):
    expr: Expression
    match_kind: str
    annotations: tuple = ()
    match_kind_loc: Optional[Loc] = None


@node
class ActionRef(Node):
    """An action as named in a table: `a` or `a(args)` (bound arguments)."""

    name: str
    args: tuple = ()
    is_global: bool = False
    annotations: tuple = ()
    has_call: bool = False


@node
class Entry(Node):
    keyset: Expression
    action: ActionRef
    priority: Optional[Expression] = None
    is_const: bool = False
    annotations: tuple = ()


@node
class TableProperty(Declaration):
    """One property of a table.  `value` is a tuple of `KeyElement` for
    `key`, of `ActionRef` for `actions`, of `Entry` for `entries`, an
    `ActionRef` for `default_action`, or an expression for the others."""

    value: Any
    is_const: bool = False


@node
class Table(Declaration):
    properties: tuple
    control_name: str = ""


@node
class ValueSet(Declaration):
    """`type` is its SetT of the element type, set by the type checker."""

    element_type: TypeRef
    size: Expression
    control_name: str = ""
    type: Any = field(default=None, kw_only=True)


# --------------------------------------------------------------------------
# Statements


@node
class Statement(Node):
    pass


@node
class Block(Statement):
    statements: tuple
    annotations: tuple = ()


@node
class Assignment(Statement):
    target: Expression
    value: Expression
    op: Optional[str] = None  # compound assignment: "+", "-", "<<", ...


@node
class MethodCallStatement(Statement):
    call: MethodCall


@node
class IfStatement(Statement):
    cond: Expression
    then: Statement
    otherwise: Optional[Statement] = None


@node
class SwitchCase(Node):
    """`label: body`; `body` None for a fall-through label."""

    label: Expression
    body: Optional[Block]


@node
class SwitchStatement(Statement):
    expr: Expression
    cases: tuple


@node
class ReturnStatement(Statement):
    value: Optional[Expression] = None


@node
class ExitStatement(Statement):
    pass


@node
class EmptyStatement(Statement):
    pass


@node
class BreakStatement(Statement):
    pass


@node
class ContinueStatement(Statement):
    pass


@node
class ForStatement(Statement):
    """C-style `for (init; cond; updates) body`."""

    init: tuple
    cond: Optional[Expression]
    updates: tuple
    body: Statement


@node
class ForInStatement(Statement):
    """`for (T x in collection) body`; `var` is a `Variable` without init."""

    var: Variable
    collection: Expression
    body: Statement


@node
class DeclarationStatement(Statement):
    """A local `Variable`, `Constant` or `Instance` inside a block."""

    decl: Declaration


# --------------------------------------------------------------------------
# The whole program


@node
class Program(Node):
    declarations: tuple


Decl = Union[Declaration, ErrorDeclaration, MatchKindDeclaration]


def string_value(expr: Expression) -> Optional[str]:
    """The value of a string literal or of a `++` of string literals, else None."""
    if isinstance(expr, StringLiteral):
        return expr.value
    if isinstance(expr, Binary) and expr.op is BinaryOp.CONCAT:
        left, right = string_value(expr.left), string_value(expr.right)
        if left is not None and right is not None:
            return left + right
    return None


def name_annotation(node: Node) -> Optional[str]:
    """The string of `node`'s `@name("...")` annotation, None when it has none."""
    for anno in getattr(node, "annotations", ()):
        if anno.name == "name" and len(anno.items) == 1:
            return string_value(anno.items[0])
    return None


def type_control_name(decl: Node) -> str:
    """A type declaration's name in the control plane (P4Info's, a digest's): its `@name` without
    a leading dot, else its name."""
    name = name_annotation(decl)
    return (name[1:] if name and name.startswith(".") else name) or decl.name


def to_json(value: Any) -> Any:
    """A JSON-ready rendering of an IR node; semantic types print as P4 spells them."""
    if isinstance(value, Type):
        return str(value)
    if isinstance(value, Loc):
        return f"{value.file}:{value.line}:{value.col}"
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        out: dict[str, Any] = {"node": type(value).__name__}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is None or item == () or item == "":
                continue
            out[f.name] = to_json(item)
        return out
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    return value
