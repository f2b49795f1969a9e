"""Recursive-descent parser for P4_16 (language specification 1.2.x).

Hand-written rather than generated, for two reasons: the error messages
(`unexpected X, expecting Y` at the user's token, and recovery so one run
reports several syntax errors) and speed.

P4 needs to know which identifiers name types in two places: a cast
`(T) e` and a declaration statement `T x;`.  As p4c's lexer does, the parser
keeps the set of type names declared so far (type parameters are scoped);
declarations statements are also found by trying `type name` first and
falling back to an expression statement.
"""

from __future__ import annotations

import sys
from typing import Callable, Optional, TypeVar

from p4odp import ir
from p4odp.diagnostics import Diagnostics, Loc
from p4odp.frontend.lexer import Token, TokenCursor

T = TypeVar("T")

_RECURSION_LIMIT = 20_000

_BASE_TYPE_WORDS = frozenset({"bit", "int", "varbit", "bool", "string", "error", "void", "tuple", "match_kind"})

_COMPOUND_ASSIGN = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "&=": "&", "|=": "|",
                    "^=": "^", "<<=": "<<", "|+|=": "|+|", "|-|=": "|-|", "++=": "++"}

# Binary operators by precedence level, loosest first (p4c's table).
_BINARY_LEVELS: list[tuple[str, ...]] = [
    ("||",),
    ("&&",),
    ("==", "!="),
    ("<", ">", "<=", ">="),
    ("|",),
    ("^",),
    ("&",),
    ("<<", ">>"),
    ("++", "+", "-", "|+|", "|-|"),
    ("*", "/", "%"),
]

_TOP_LEVEL_STARTERS = frozenset({"const", "extern", "action", "parser", "control", "package", "header",
                                 "header_union", "struct", "enum", "typedef", "error", "match_kind", "@"})


# Annotations whose unstructured body is a `KEY = VALUE, ...` list, as p4c parses them (its
# P4Runtime back end @platform_property).
KEY_VALUE_ANNOTATIONS = ("pkginfo", "platform_property")


class ParseError(Exception):
    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


def parse_program(tokens: list[Token], diags: Diagnostics, text: str) -> ir.Program:
    """Parse `tokens`; `text` is the source they came from, kept for annotation bodies."""
    # Each nesting level of an expression takes about a dozen Python frames;
    # Python 3.11 keeps those off the C stack, so a higher limit is safe.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), _RECURSION_LIMIT))
    return Parser(tokens, diags, text).program()


class Parser(TokenCursor):
    def __init__(self, tokens: list[Token], diags: Diagnostics, text: str) -> None:
        super().__init__(tokens)
        self.text = text
        self.diags = diags
        self.type_names: set[str] = set()
        self.type_param_scopes: list[set[str]] = []
        self.in_angles = False

    # ------------------------------------------------------------------
    # Token helpers

    def at_op(self, text: str) -> bool:
        return self.tok.kind == "op" and self.tok.text == text

    def accept(self, text: str) -> Optional[Token]:
        if self.at(text):
            tok = self.tok
            self.pos += 1
            return tok
        return None

    def expect(self, text: str) -> Token:
        if self.at(text):
            tok = self.tok
            self.pos += 1
            return tok
        raise self.error(f"expecting '{text}'")

    def error(self, expecting: str = "") -> ParseError:
        tok = self.tok
        if tok.kind == "eof":
            what = "end of input"
        elif tok.kind == "str":
            what = "string literal"
        else:
            what = repr(tok.text)
        message = f"syntax error, unexpected {what}"
        if expecting:
            message += f", {expecting}"
        return ParseError(tok.loc, message)

    def try_parse(self, rule: Callable[[], T]) -> Optional[T]:
        """Run `rule`; on a syntax error rewind and return None."""
        start = self.pos
        try:
            return rule()
        except ParseError:
            self.pos = start
            return None

    def is_type_name(self, name: str) -> bool:
        return name in self.type_names or any(name in scope for scope in self.type_param_scopes)

    def name(self) -> tuple[str, Loc]:
        """An identifier (contextual keywords included)."""
        tok = self.tok
        if tok.kind == "id":
            self.pos += 1
            return tok.text, tok.loc
        raise self.error("expecting a name")

    # ------------------------------------------------------------------
    # Program and top-level declarations

    def program(self) -> ir.Program:
        decls: list = []
        while self.tok.kind != "eof":
            start = self.pos
            try:
                decl = self.top_level_declaration()
                if isinstance(decl, tuple):  # `typedef struct S {...} T;`
                    decls.extend(decl)
                elif decl is not None:
                    decls.append(decl)
            except ParseError as err:
                self.diags.error(err.loc, err.message)
                self.recover(start)
            except RecursionError:
                self.diags.error(self.tokens[start].loc, "this declaration is nested too deeply to compile")
                self.recover(start)
        return ir.Program(self.tokens[0].loc, tuple(decls))

    def recover(self, start: int) -> None:
        """Skip the whole declaration that failed to parse, from its first token.

        Braces are matched from the declaration's start, so an error deep in
        a body does not leave its closing braces behind as more errors.  A
        declaration keyword in the first column after the error also ends the
        skip, in case the broken declaration lost a brace.
        """
        error_pos = max(self.pos, start + 1)
        self.pos = start
        depth = 0
        while self.tok.kind != "eof":
            tok = self.tok
            if self.pos >= error_pos and tok.loc.col == 1 and tok.text in _TOP_LEVEL_STARTERS:
                return
            self.pos += 1
            if tok.kind != "op":
                continue
            if tok.text == "{":
                depth += 1
            elif tok.text == "}":
                depth = max(depth - 1, 0)
                if depth == 0 and self.pos > error_pos:
                    self.accept(";")
                    return
            elif tok.text == ";" and depth == 0 and self.pos > error_pos:
                return

    def annotations(self) -> tuple:
        annos = []
        while self.at_op("@"):
            annos.append(self.annotation())
        return tuple(annos)

    def annotation(self) -> ir.Annotation:
        at = self.expect("@")
        tok = self.tok
        if tok.kind not in ("id", "kw"):
            raise self.error("expecting an annotation name")
        self.pos += 1
        if self.at_op("["):
            return self.structured_annotation(at.loc, tok.text)
        if tok.text == "pragma":
            return self.pragma(at.loc, tok)
        if self.at_op("("):
            open_index = self.pos
            depth = 0
            while True:
                cur = self.tok
                if cur.kind == "eof":
                    raise ParseError(self.tokens[open_index].loc, "syntax error, unterminated annotation body")
                if cur.kind == "op" and cur.text in "([{":
                    depth += 1
                elif cur.kind == "op" and cur.text in ")]}":
                    depth -= 1
                    if depth == 0:
                        break
                self.pos += 1
            close_index = self.pos
            self.pos += 1
            inner = self.tokens[open_index + 1 : close_index]
            body = self.text[inner[0].start : inner[-1].end] if inner else ""
            items = self.key_value_body(open_index, close_index) if tok.text in KEY_VALUE_ANNOTATIONS \
                else self.annotation_items(open_index, close_index)
            return ir.Annotation(at.loc, tok.text, body=body, items=items)
        if tok.text in KEY_VALUE_ANNOTATIONS:
            raise ParseError(at.loc, f"syntax error, @{tok.text} needs (KEY = VALUE, ...)")
        return ir.Annotation(at.loc, tok.text)

    def pragma(self, loc: Loc, pragma_tok: Token) -> ir.Annotation:
        """`@pragma name tokens...` runs to the end of its line."""
        line_tokens = []
        while self.tok.kind != "eof" and self.tok.loc.line == pragma_tok.loc.line \
                and self.tok.loc.file == pragma_tok.loc.file:
            line_tokens.append(self.tok)
            self.pos += 1
        if not line_tokens:
            raise self.error("expecting a pragma name")
        body = " ".join(t.text for t in line_tokens[1:])
        name_index = self.pos - len(line_tokens)
        return ir.Annotation(loc, line_tokens[0].text, body=body, items=self.annotation_items(name_index, self.pos))

    def annotation_items(self, open_index: int, close_index: int) -> tuple:
        """Expressions of an unstructured body, the tokens strictly between these two, when it is
        a list of them."""
        saved = self.pos
        self.pos = open_index + 1
        try:
            items = []
            while self.pos < close_index:
                items.append(self.expression())
                if self.pos == close_index:
                    break
                self.expect(",")
            return tuple(items) if self.pos == close_index else ()
        except ParseError:
            return ()
        finally:
            self.pos = saved

    def key_value_body(self, open_index: int, close_index: int) -> tuple:
        """An unstructured body that must be `KEY = VALUE, ...` (p4c's @pkginfo), the tokens strictly
        between these two: its pairs, or a syntax error where it stops being one."""
        saved = self.pos
        self.pos = open_index + 1
        items = self.key_values(")")
        if self.pos != close_index:
            raise self.error("expecting ',' or ')'")
        self.pos = saved
        return items

    def key_values(self, closing: str) -> tuple:
        """`KEY = VALUE, ...` up to `closing` (a trailing comma allowed), at least one pair."""
        items = []
        while True:
            key, key_loc = self.name()
            self.expect("=")
            items.append(ir.KeyValue(key_loc, key, self.expression()))
            if not self.accept(",") or self.at_op(closing):
                return tuple(items)

    def structured_annotation(self, loc: Loc, name: str) -> ir.Annotation:
        self.expect("[")
        items: list = []
        if not self.at_op("]"):
            if self.tok.kind == "id" and self.peek().is_("op", "="):
                items.extend(self.key_values("]"))
            else:
                while True:
                    items.append(self.expression())
                    if not self.accept(","):
                        break
                    if self.at_op("]"):
                        break
        self.expect("]")
        return ir.Annotation(loc, name, items=tuple(items), structured=True)

    def top_level_declaration(self):
        if self.accept(";"):
            return None
        annos = self.annotations()
        tok = self.tok
        text = tok.text if tok.kind in ("kw", "id") else None
        if text == "const":
            return self.constant(annos)
        if text == "extern":
            return self.extern(annos)
        if text == "action":
            return self.action(annos)
        if text == "parser":
            return self.parser_declaration(annos)
        if text == "control":
            return self.control_declaration(annos)
        if text == "package":
            return self.package(annos)
        if text in ("header", "header_union", "struct", "enum", "typedef") or (
            text == "type" and tok.kind == "id" and self.peek().kind in ("id", "kw", "op") and not self.peek().is_("op", "(")
        ):
            return self.type_declaration(annos)
        if text == "error" and self.peek().is_("op", "{"):
            return self.error_declaration()
        if text == "match_kind":
            return self.match_kind_declaration()
        return self.function_or_instantiation(annos, allow_function=True)

    def function_or_instantiation(self, annos: tuple, allow_function: bool):
        loc = self.tok.loc
        type_ref = self.type_or_void()
        if self.at_op("("):
            return self.instantiation_rest(annos, type_ref, loc)
        if not allow_function:
            raise self.error("expecting '('")
        name, name_loc = self.name()
        if self.at_op(";") or self.at_op("="):
            raise ParseError(name_loc, f"{name}: variables cannot be declared at the top level (a constant can: "
                                       "`const`; state kept across packets is a register)")
        type_params = self.opt_type_params()
        self.type_param_scopes.append(set(type_params_names(type_params)))
        try:
            params = self.parameter_list()
            if not self.at_op("{"):
                raise self.error("expecting '{'")
            body = self.block()
        finally:
            self.type_param_scopes.pop()
        return ir.Function(name_loc, name, type_ref, type_params, params, body, annotations=annos)

    def instantiation_rest(self, annos: tuple, type_ref: ir.TypeRef, loc: Loc) -> ir.Instance:
        args = self.argument_list()
        name, name_loc = self.name()
        type_ref = self.stack_suffix(type_ref)  # `T() name[N];`: an array of instances
        initializer: tuple = ()
        if self.accept("="):
            self.expect("{")
            items = []
            while not self.at_op("}"):
                if self.tok.kind == "eof":
                    raise self.error("expecting '}'")
                inner_annos = self.annotations()
                items.append(self.function_or_instantiation(inner_annos, allow_function=True))
            self.expect("}")
            initializer = tuple(items)
        self.expect(";")
        return ir.Instance(name_loc, name, type_ref, args, initializer, annotations=annos)

    def constant(self, annos: tuple) -> ir.Constant:
        self.expect("const")
        type_ref = self.type_ref()
        name, loc = self.name()
        self.expect("=")
        value = self.initializer()
        self.expect(";")
        return ir.Constant(loc, name, type_ref, value, annotations=annos)

    def initializer(self) -> ir.Expression:
        return self.expression()

    def extern(self, annos: tuple):
        self.expect("extern")
        # `extern Name<T> { ... }` declares an object; anything else a function.
        is_object = self.tok.kind == "id" and (
            self.peek().is_("op", "{") or (self.peek().is_("op", "<") and self._type_params_then_brace())
        )
        if not is_object:
            proto = self.method_prototype(annos, extern_name=None)
            self.expect(";")
            return ir.ExternFunction(proto.loc, proto.name, proto, annotations=annos)
        name, loc = self.name()
        self.type_names.add(name)
        type_params = self.opt_type_params()
        self.type_param_scopes.append(set(type_params_names(type_params)))
        try:
            self.expect("{")
            methods = []
            while not self.at_op("}"):
                if self.tok.kind == "eof":
                    raise self.error("expecting '}'")
                method_annos = self.annotations()
                methods.append(self.method_prototype(method_annos, extern_name=name))
                self.expect(";")
            self.expect("}")
        finally:
            self.type_param_scopes.pop()
        return ir.Extern(loc, name, type_params, tuple(methods), annotations=annos)

    def _type_params_then_brace(self) -> bool:
        depth, i = 0, self.pos + 1
        while i < len(self.tokens):
            tok = self.tokens[i]
            if tok.is_("op", "<"):
                depth += 1
            elif tok.is_("op", ">"):
                depth -= 1
                if depth == 0:
                    return self.tokens[i + 1].is_("op", "{")
            elif tok.kind == "eof" or tok.text in (";", "(", "{"):
                return False
            i += 1
        return False

    def method_prototype(self, annos: tuple, extern_name: Optional[str]) -> ir.MethodPrototype:
        abstract = bool(self.accept("abstract"))
        # A constructor is `Name(params)` with the extern's own name.
        if extern_name is not None and self.tok.is_("id", extern_name) and self.peek().is_("op", "("):
            name, loc = self.name()
            params = self.parameter_list()
            return ir.MethodPrototype(loc, name, None, (), params, annotations=annos)
        if extern_name is not None and self.tok.is_("id", extern_name) and self.peek().is_("op", "<"):
            name, loc = self.name()
            type_params = self.opt_type_params()
            params = self.parameter_list()
            return ir.MethodPrototype(loc, name, None, type_params, params, annotations=annos)
        # The return type may mention the method's own type parameters.
        scope: set[str] = set()
        self.type_param_scopes.append(scope)
        try:
            scope.update(self._lookahead_method_type_params())
            return_type = self.type_or_void()
            name, loc = self.name()
            type_params = self.opt_type_params()
            params = self.parameter_list()
        finally:
            self.type_param_scopes.pop()
        return ir.MethodPrototype(loc, name, return_type, type_params, params, abstract=abstract, annotations=annos)

    def _lookahead_method_type_params(self) -> set[str]:
        """Names in `<...>` after the method name, found before the return type is parsed."""
        i, depth = self.pos, 0
        while i < len(self.tokens) and not self.tokens[i].is_("op", "(") and self.tokens[i].kind != "eof":
            tok = self.tokens[i]
            if tok.is_("op", ";") or tok.is_("op", "{"):
                break
            i += 1
        # tokens[i] is '('; walk back over a `<...>` list right before it.
        names: set[str] = set()
        j = i - 1
        if j >= 0 and self.tokens[j].is_("op", ">"):
            while j > self.pos:
                tok = self.tokens[j]
                if tok.is_("op", ">"):
                    depth += 1
                elif tok.is_("op", "<"):
                    depth -= 1
                    if depth == 0:
                        break
                elif tok.kind == "id" and depth == 1:
                    names.add(tok.text)
                j -= 1
        return names

    def opt_type_params(self) -> tuple:
        if not self.at_op("<"):
            return ()
        self.expect("<")
        params = []
        while True:
            name, loc = self.name()
            params.append(ir.TypeName(loc, name))
            if not self.accept(","):
                break
        self.expect(">")
        return tuple(params)

    def parameter_list(self) -> tuple:
        self.expect("(")
        params = []
        if not self.at_op(")"):
            while True:
                params.append(self.parameter())
                if not self.accept(","):
                    break
        self.expect(")")
        return tuple(params)

    def parameter(self) -> ir.Parameter:
        annos = self.annotations()
        direction = ""
        if self.tok.kind == "kw" and self.tok.text in ("in", "out", "inout"):
            direction = self.tok.text
            self.pos += 1
        type_ref = self.type_ref()
        name, loc = self.name()
        default = None
        if self.accept("="):
            default = self.expression()
        return ir.Parameter(loc, name, direction, type_ref, default, annotations=annos)

    def action(self, annos: tuple) -> ir.Action:
        self.expect("action")
        name, loc = self.name()
        params = self.parameter_list()
        body = self.block()
        return ir.Action(loc, name, params, body, annotations=annos)

    def package(self, annos: tuple) -> ir.Package:
        self.expect("package")
        name, loc = self.name()
        self.type_names.add(name)
        type_params = self.opt_type_params()
        self.type_param_scopes.append(set(type_params_names(type_params)))
        try:
            params = self.parameter_list()
        finally:
            self.type_param_scopes.pop()
        self.expect(";")
        return ir.Package(loc, name, type_params, params, annotations=annos)

    # ------------------------------------------------------------------
    # Parsers

    def parser_declaration(self, annos: tuple):
        self.expect("parser")
        name, loc = self.name()
        self.type_names.add(name)
        type_params = self.opt_type_params()
        self.type_param_scopes.append(set(type_params_names(type_params)))
        try:
            params = self.parameter_list()
            if self.accept(";"):
                return ir.ParserType(loc, name, type_params, params, annotations=annos)
            ctor_params = self.parameter_list() if self.at_op("(") else ()
            self.expect("{")
            local_decls = []
            states = []
            while not self.at_op("}"):
                if self.tok.kind == "eof":
                    raise self.error("expecting '}'")
                item_annos = self.annotations()
                if self.at("state"):
                    states.append(self.parser_state(item_annos))
                elif states:
                    raise self.error("expecting 'state'")
                else:
                    local_decls.append(self.parser_local(item_annos))
            self.expect("}")
        finally:
            self.type_param_scopes.pop()
        return ir.Parser(loc, name, type_params, params, ctor_params, tuple(local_decls), tuple(states),
                         annotations=annos)

    def parser_local(self, annos: tuple):
        if self.at("table") or self.at("action"):
            raise ParseError(self.tok.loc, f"{self.tok.text}s cannot be declared in a parser; "
                                           "declare them in a control")
        if self.at("const"):
            return self.constant(annos)
        if self.at("value_set"):
            return self.value_set(annos)
        return self.variable_or_instance(annos)

    def value_set(self, annos: tuple) -> ir.ValueSet:
        self.expect("value_set")
        self.expect("<")
        element = self.type_arg()
        self.expect(">")
        self.expect("(")
        size = self.expression()
        self.expect(")")
        name, loc = self.name()
        self.expect(";")
        return ir.ValueSet(loc, name, element, size, annotations=annos)

    def variable_or_instance(self, annos: tuple):
        loc = self.tok.loc
        type_ref = self.type_ref()
        if self.at_op("("):
            return self.instantiation_rest(annos, type_ref, loc)
        if self.tok.kind == "id" and self.peek().is_("op", "("):
            raise ParseError(self.tok.loc, f"{self.tok.text}: functions can only be declared at the top level")
        return self.variable_rest(annos, type_ref)

    def variable_rest(self, annos: tuple, type_ref: ir.TypeRef) -> ir.Variable:
        name, loc = self.name()
        type_ref = self.stack_suffix(type_ref)
        init = None
        if self.accept("="):
            init = self.initializer()
        self.expect(";")
        return ir.Variable(loc, name, type_ref, init, annotations=annos)

    def parser_state(self, annos: tuple) -> ir.ParserState:
        self.expect("state")
        name, loc = self.name()
        self.expect("{")
        components = []
        transition = None
        while not self.at_op("}"):
            if self.tok.kind == "eof":
                raise self.error("expecting '}'")
            if self.at("transition"):
                transition = self.transition()
                break
            components.append(self.statement())
        self.expect("}")
        return ir.ParserState(loc, name, tuple(components), transition, annotations=annos)

    def transition(self) -> ir.Expression:
        self.expect("transition")
        if self.at("select"):
            return self.select_expression()
        tok = self.tok
        if tok.kind == "id":
            self.pos += 1
            self.expect(";")
            return ir.PathExpression(tok.loc, tok.text)
        raise self.error("expecting a state name or 'select'")

    def select_expression(self) -> ir.SelectExpression:
        loc = self.expect("select").loc
        self.expect("(")
        keys = []
        if not self.at_op(")"):
            while True:
                keys.append(self.expression())
                if not self.accept(","):
                    break
        self.expect(")")
        self.expect("{")
        cases = []
        while not self.at_op("}"):
            if self.tok.kind == "eof":
                raise self.error("expecting '}'")
            keyset = self.keyset_expression()
            self.expect(":")
            tok = self.tok
            if tok.kind != "id":
                raise self.error("expecting a state name")
            self.pos += 1
            self.expect(";")
            cases.append(ir.SelectCase(keyset.loc, keyset, ir.PathExpression(tok.loc, tok.text)))
        self.expect("}")
        return ir.SelectExpression(loc, tuple(keys), tuple(cases))

    def keyset_expression(self) -> ir.Expression:
        if self.at_op("("):
            tuple_keyset = self.try_parse(self._tuple_keyset)
            if tuple_keyset is not None:
                return tuple_keyset
        return self.simple_keyset()

    def _tuple_keyset(self) -> ir.Expression:
        loc = self.expect("(").loc
        elements = [self.simple_keyset()]
        while self.accept(","):
            elements.append(self.simple_keyset())
        self.expect(")")
        if not self.at_op(":"):
            raise self.error("expecting ':'")
        if len(elements) == 1:
            return elements[0]  # `(k): state;` is the plain keyset `k`
        return ir.ListExpression(loc, tuple(elements))

    def simple_keyset(self) -> ir.Expression:
        tok = self.tok
        if tok.is_("kw", "default"):
            self.pos += 1
            return ir.DefaultExpression(tok.loc)
        if tok.is_("kw", "_") and (self.peek().is_("op", ":") or self.peek().is_("op", ",") or self.peek().is_("op", ")")):
            self.pos += 1
            return ir.DefaultExpression(tok.loc)
        expr = self.expression()
        for op in ("&&&", ".."):
            if self.at_op(op):
                op_tok = self.tok
                self.pos += 1
                right = self.expression()
                return ir.Binary(op_tok.loc, ir.BinaryOp(op), expr, right)
        return expr

    # ------------------------------------------------------------------
    # Controls and tables

    def control_declaration(self, annos: tuple):
        self.expect("control")
        name, loc = self.name()
        self.type_names.add(name)
        type_params = self.opt_type_params()
        self.type_param_scopes.append(set(type_params_names(type_params)))
        try:
            params = self.parameter_list()
            if self.accept(";"):
                return ir.ControlType(loc, name, type_params, params, annotations=annos)
            ctor_params = self.parameter_list() if self.at_op("(") else ()
            self.expect("{")
            local_decls = []
            while not self.at("apply"):
                if self.tok.kind == "eof" or self.at_op("}"):
                    raise self.error("expecting 'apply'")
                local_decls.append(self.control_local())
            self.expect("apply")
            body = self.block()
            self.expect("}")
        finally:
            self.type_param_scopes.pop()
        return ir.Control(loc, name, type_params, params, ctor_params, tuple(local_decls), body, annotations=annos)

    def control_local(self):
        annos = self.annotations()
        if self.at("const"):
            return self.constant(annos)
        if self.at("action"):
            return self.action(annos)
        if self.at("table"):
            return self.table(annos)
        return self.variable_or_instance(annos)

    def table(self, annos: tuple) -> ir.Table:
        self.expect("table")
        name, loc = self.name()
        self.expect("{")
        props = []
        while not self.at_op("}"):
            if self.tok.kind == "eof":
                raise self.error("expecting '}'")
            props.append(self.table_property())
        self.expect("}")
        return ir.Table(loc, name, tuple(props), annotations=annos)

    def table_property(self) -> ir.TableProperty:
        annos = self.annotations()
        is_const = bool(self.accept("const"))
        name, loc = self.name()
        self.expect("=")
        if name == "key" and not is_const:
            return ir.TableProperty(loc, name, self.key_elements(), annotations=annos)
        if name == "actions" and not is_const:
            return ir.TableProperty(loc, name, self.action_list(), annotations=annos)
        if name == "entries":
            return ir.TableProperty(loc, name, self.entries(is_const), is_const=is_const, annotations=annos)
        if name == "default_action":
            value = self.action_ref(())
            self.expect(";")
            return ir.TableProperty(loc, name, value, is_const=is_const, annotations=annos)
        value = self.initializer()
        self.expect(";")
        return ir.TableProperty(loc, name, value, is_const=is_const, annotations=annos)

    def key_elements(self) -> tuple:
        self.expect("{")
        elements = []
        while not self.at_op("}"):
            expr = self.expression()
            self.expect(":")
            kind, kind_loc = self.name()
            annos = self.annotations()
            self.expect(";")
            elements.append(ir.KeyElement(expr.loc, expr, kind, annos, kind_loc))
        self.expect("}")
        return tuple(elements)

    def action_list(self) -> tuple:
        self.expect("{")
        refs = []
        while not self.at_op("}"):
            annos = self.annotations()
            refs.append(self.action_ref(annos))
            # p4c accepts a missing ';' before the closing brace.
            if not self.accept(";") and not self.at_op("}"):
                raise self.error("expecting ';'")
        self.expect("}")
        return tuple(refs)

    def action_ref(self, annos: tuple) -> ir.ActionRef:
        is_global = bool(self.accept("."))
        tok = self.tok
        if tok.kind != "id":
            raise self.error("expecting an action name")
        self.pos += 1
        args: tuple = ()
        has_call = False
        if self.at_op("("):
            args = self.argument_list()
            has_call = True
        return ir.ActionRef(tok.loc, tok.text, args, is_global, annos, has_call)

    def entries(self, is_const: bool) -> tuple:
        self.expect("{")
        entries = []
        while not self.at_op("}"):
            if self.tok.kind == "eof":
                raise self.error("expecting '}'")
            entry_const = bool(self.accept("const")) or is_const
            annos = self.annotations()
            priority = None
            if self.at("priority") and self.peek().is_("op", "="):
                self.pos += 1
                self.expect("=")
                priority = self.expression()
                self.expect(":")
            loc = self.tok.loc  # where the keyset starts (a mask's or range's own is at its operator)
            keyset = self.keyset_expression()
            self.expect(":")
            action = self.action_ref(())
            entry_annos = annos + self.annotations()
            self.expect(";")
            entries.append(ir.Entry(loc, keyset, action, priority, entry_const, entry_annos))
        self.expect("}")
        return tuple(entries)

    # ------------------------------------------------------------------
    # Type declarations

    def type_declaration(self, annos: tuple):
        tok = self.tok
        self.pos += 1
        kind = tok.text
        if kind in ("header", "header_union", "struct"):
            name, loc = self.name()
            self.type_names.add(name)
            type_params = self.opt_type_params()
            self.type_param_scopes.append(set(type_params_names(type_params)))
            try:
                self.expect("{")
                fields = []
                while not self.at_op("}"):
                    if self.tok.kind == "eof":
                        raise self.error("expecting '}'")
                    field_annos = self.annotations()
                    field_type = self.type_ref()
                    field_name, field_loc = self.name()
                    field_type = self.stack_suffix(field_type)
                    self.expect(";")
                    fields.append(ir.StructField(field_loc, field_name, field_type, annotations=field_annos))
                self.expect("}")
            finally:
                self.type_param_scopes.pop()
            cls = {"header": ir.Header, "header_union": ir.HeaderUnion, "struct": ir.Struct}[kind]
            return cls(loc, name, tuple(fields), type_params, annotations=annos)
        if kind == "enum":
            underlying = None
            if not (self.tok.kind == "id" and self.peek().is_("op", "{")):
                underlying = self.type_ref()
            name, loc = self.name()
            self.type_names.add(name)
            self.expect("{")
            members = []
            while not self.at_op("}"):
                member_annos = self.annotations()
                member, member_loc = self.name()
                value = None
                if self.accept("="):
                    value = self.expression()
                members.append(ir.EnumMember(member_loc, member, value, annotations=member_annos))
                if not self.accept(","):
                    break
            self.expect("}")
            return ir.Enum(loc, name, tuple(members), underlying, annotations=annos)
        if kind == "typedef":
            if self.tok.text in ("header", "header_union", "struct", "enum") and self.tok.kind == "kw":
                inner = self.type_declaration(())
                type_ref: ir.TypeRef = ir.TypeName(inner.loc, inner.name)
                name, loc = self.name()
                self.expect(";")
                self.type_names.add(name)
                return (inner, ir.Typedef(loc, name, type_ref, annotations=annos))
            type_ref = self.type_ref()
            name, loc = self.name()
            self.expect(";")
            self.type_names.add(name)
            return ir.Typedef(loc, name, type_ref, annotations=annos)
        # `type T N;`
        type_ref = self.type_ref()
        name, loc = self.name()
        self.expect(";")
        self.type_names.add(name)
        return ir.NewType(loc, name, type_ref, annotations=annos)

    def error_declaration(self) -> ir.ErrorDeclaration:
        loc = self.expect("error").loc
        return ir.ErrorDeclaration(loc, self.identifier_list())

    def match_kind_declaration(self) -> ir.MatchKindDeclaration:
        loc = self.expect("match_kind").loc
        return ir.MatchKindDeclaration(loc, self.identifier_list())

    def identifier_list(self) -> tuple:
        self.expect("{")
        members = []
        while not self.at_op("}"):
            name, loc = self.name()
            members.append(ir.EnumMember(loc, name))
            if not self.accept(","):
                break
        self.expect("}")
        return tuple(members)

    # ------------------------------------------------------------------
    # Type references

    def type_or_void(self) -> ir.TypeRef:
        if self.at("void"):
            tok = self.tok
            self.pos += 1
            return ir.VoidType(tok.loc)
        return self.type_ref()

    def type_ref(self) -> ir.TypeRef:
        tok = self.tok
        loc = tok.loc
        if tok.kind == "kw":
            word = tok.text
            if word in ("bit", "int", "varbit"):
                self.pos += 1
                if self.at_op("<"):
                    self.expect("<")
                    width = self.angle_expression()
                    self.expect(">")
                elif word == "int":
                    return self.stack_suffix(ir.IntType(loc))
                elif word == "varbit":
                    raise self.error("expecting '<'")
                else:
                    width = ir.IntLiteral(loc, 1)
                    if self.at_op("["):  # C's `bit x[8]` spelled `bit[8] x`
                        self.diags.warning(loc, "bit[N] is an array of N bit<1>; a number of N bits is bit<N>")
                if word == "varbit":
                    return self.stack_suffix(ir.VarbitType(loc, width))
                return self.stack_suffix(ir.BitsType(loc, width, word == "int"))
            if word == "bool":
                self.pos += 1
                return self.stack_suffix(ir.BoolType(loc))
            if word == "string":
                self.pos += 1
                return ir.StringType(loc)
            if word == "error":
                self.pos += 1
                return self.stack_suffix(ir.ErrorType(loc))
            if word == "match_kind":
                self.pos += 1
                return ir.MatchKindType(loc)
            if word == "tuple":
                self.pos += 1
                self.expect("<")
                args = self.type_arg_list()
                self.expect(">")
                return self.stack_suffix(ir.TupleType(loc, args))
            raise self.error("expecting a type")
        is_global = bool(self.accept("."))
        tok = self.tok
        if tok.kind != "id":
            raise self.error("expecting a type")
        self.pos += 1
        if tok.text == "list" and self.at_op("<") and not self.is_type_name("list"):
            self.expect("<")
            element = self.type_arg()
            self.expect(">")
            return ir.ListType(loc, element)
        base = ir.TypeName(tok.loc, tok.text, is_global)
        result: ir.TypeRef = base
        if self.at_op("<"):
            self.expect("<")
            args = self.type_arg_list()
            self.expect(">")
            result = ir.SpecializedType(loc, base, args)
        return self.stack_suffix(result)

    def angle_expression(self) -> ir.Expression:
        """An expression inside `<...>`, where an unparenthesized `>` closes the list."""
        saved, self.in_angles = self.in_angles, True
        try:
            return self.expression()
        finally:
            self.in_angles = saved

    def stack_suffix(self, element: ir.TypeRef) -> ir.TypeRef:
        while self.at_op("["):
            self.pos += 1
            size = self.expression()
            self.expect("]")
            element = ir.StackType(element.loc, element, size)
        return element

    def type_arg_list(self) -> tuple:
        args = []
        if self.at_op(">"):
            return ()
        while True:
            args.append(self.type_arg())
            if not self.accept(","):
                break
        return tuple(args)

    def type_arg(self) -> ir.TypeRef:
        tok = self.tok
        if tok.is_("kw", "_"):
            self.pos += 1
            return ir.DontCareType(tok.loc)
        if tok.is_("kw", "void"):
            self.pos += 1
            return ir.VoidType(tok.loc)
        return self.type_ref()

    # ------------------------------------------------------------------
    # Statements

    def block(self) -> ir.Block:
        annos = self.annotations()
        loc = self.expect("{").loc
        statements = []
        while not self.at_op("}"):
            if self.tok.kind == "eof":
                raise self.error("expecting '}'")
            statements.append(self.statement())
        self.expect("}")
        return ir.Block(loc, tuple(statements), annos)

    def statement(self) -> ir.Statement:
        tok = self.tok
        if tok.kind == "op":
            if tok.text == "{":
                return self.block()
            if tok.text == "@":
                annos = self.annotations()
                if self.at_op("{"):
                    block = self.block()
                    return ir.Block(block.loc, block.statements, annos)
                if self.tok.kind == "kw" and self.tok.text != "const" and self.tok.text not in _BASE_TYPE_WORDS:
                    return self.statement()  # `@unroll for ...`: the annotation is advisory
                return self.statement_after_annotations(annos)
            if tok.text == ";":
                self.pos += 1
                return ir.EmptyStatement(tok.loc)
        if tok.kind == "kw":
            word = tok.text
            if word == "if":
                return self.if_statement()
            if word == "switch":
                return self.switch_statement()
            if word == "return":
                self.pos += 1
                value = None if self.at_op(";") else self.expression()
                self.expect(";")
                return ir.ReturnStatement(tok.loc, value)
            if word == "exit":
                self.pos += 1
                self.expect(";")
                return ir.ExitStatement(tok.loc)
            if word == "break":
                self.pos += 1
                self.expect(";")
                return ir.BreakStatement(tok.loc)
            if word == "continue":
                self.pos += 1
                self.expect(";")
                return ir.ContinueStatement(tok.loc)
            if word == "for":
                return self.for_statement()
            if word == "const":
                return ir.DeclarationStatement(tok.loc, self.constant(()))
        return self.statement_after_annotations(())

    def statement_after_annotations(self, annos: tuple) -> ir.Statement:
        tok = self.tok
        if tok.is_("kw", "const"):
            return ir.DeclarationStatement(tok.loc, self.constant(annos))
        decl = self.try_parse(lambda: self.local_declaration(annos))
        if decl is not None:
            return ir.DeclarationStatement(decl.loc, decl)
        statement = self.simple_statement()
        self.expect(";")
        return statement

    def local_declaration(self, annos: tuple):
        """`T x [= e];` or `T(args) x;` — fails (for a rewind) unless a name follows the type."""
        tok = self.tok
        if tok.kind == "kw" and tok.text not in _BASE_TYPE_WORDS:
            raise self.error()
        if tok.kind == "id" and not self.is_type_name(tok.text):
            after = self.peek()
            if not (after.kind == "id" or after.is_("op", "<") or after.is_("op", "[")):
                raise self.error()
        type_ref = self.type_ref()
        if self.at_op("("):
            # `T(args) x;` is an instantiation; `T(args);` a call, left to the caller.
            args = self.argument_list()
            name, loc = self.name()
            self.expect(";")
            return ir.Instance(loc, name, type_ref, args, annotations=annos)
        if self.tok.kind != "id":
            raise self.error()
        return self.variable_rest(annos, type_ref)

    def simple_statement(self) -> ir.Statement:
        """An assignment or a method call, without its `;`."""
        target = self.expression()
        tok = self.tok
        if tok.is_("op", "="):
            self.pos += 1
            return ir.Assignment(tok.loc, target, self.expression())
        if tok.kind == "op" and tok.text in _COMPOUND_ASSIGN:
            self.pos += 1
            return ir.Assignment(tok.loc, target, self.expression(), _COMPOUND_ASSIGN[tok.text])
        if tok.is_("op", ">") and self.peek().is_("op", ">=") and self.peek().start == tok.end:
            self.pos += 2
            return ir.Assignment(tok.loc, target, self.expression(), ">>")
        if isinstance(target, ir.MethodCall):
            return ir.MethodCallStatement(target.loc, target)
        raise self.error("expecting '=' or a method call")

    def if_statement(self) -> ir.IfStatement:
        loc = self.expect("if").loc
        self.expect("(")
        cond = self.expression()
        self.expect(")")
        then = self.statement()
        otherwise = None
        if self.accept("else"):
            otherwise = self.statement()
        return ir.IfStatement(loc, cond, then, otherwise)

    def switch_statement(self) -> ir.SwitchStatement:
        loc = self.expect("switch").loc
        self.expect("(")
        expr = self.expression()
        self.expect(")")
        self.expect("{")
        cases = []
        while not self.at_op("}"):
            if self.tok.kind == "eof":
                raise self.error("expecting '}'")
            tok = self.tok
            if tok.is_("kw", "default"):
                self.pos += 1
                label: ir.Expression = ir.DefaultExpression(tok.loc)
            else:
                label = self.expression()
            self.expect(":")
            body = self.block() if (self.at_op("{") or self.at_op("@")) else None
            cases.append(ir.SwitchCase(label.loc, label, body))
        self.expect("}")
        return ir.SwitchStatement(loc, expr, tuple(cases))

    def for_statement(self) -> ir.Statement:
        loc = self.expect("for").loc
        self.expect("(")
        for_in = self.try_parse(self._for_in_header)
        if for_in is not None:
            var, collection = for_in
            body = self.statement()
            return ir.ForInStatement(loc, var, collection, body)
        init = []
        if not self.at_op(";"):
            while True:
                init.append(self._for_init())
                if not self.accept(","):
                    break
        self.expect(";")
        cond = None if self.at_op(";") else self.expression()
        self.expect(";")
        updates = []
        if not self.at_op(")"):
            while True:
                updates.append(self.simple_statement())
                if not self.accept(","):
                    break
        self.expect(")")
        body = self.statement()
        return ir.ForStatement(loc, tuple(init), cond, tuple(updates), body)

    def _for_in_header(self):
        annos = self.annotations()
        type_ref = self.type_ref()
        name, name_loc = self.name()
        self.expect("in")
        collection = self.expression()
        if self.at_op(".."):
            op = self.tok
            self.pos += 1
            collection = ir.Binary(op.loc, ir.BinaryOp.RANGE, collection, self.expression())
        self.expect(")")
        return ir.Variable(name_loc, name, type_ref, annotations=annos), collection

    def _for_init(self) -> ir.Statement:
        def declaration():
            type_ref = self.type_ref()
            name, loc = self.name()
            self.expect("=")
            init = self.expression()
            if not (self.at_op(",") or self.at_op(";")):
                raise self.error()
            return ir.DeclarationStatement(loc, ir.Variable(loc, name, type_ref, init))

        decl = self.try_parse(declaration)
        if decl is not None:
            return decl
        return self.simple_statement()

    # ------------------------------------------------------------------
    # Expressions

    def argument_list(self) -> tuple:
        self.expect("(")
        args = []
        if not self.at_op(")"):
            while True:
                args.append(self.argument())
                if not self.accept(","):
                    break
        self.expect(")")
        return tuple(args)

    def argument(self) -> ir.Argument:
        tok = self.tok
        if tok.kind == "id" and self.peek().is_("op", "=") and not self.peek(2).is_("op", "="):
            self.pos += 2
            if self.tok.is_("kw", "_") and (self.peek().is_("op", ",") or self.peek().is_("op", ")")):
                self.pos += 1
                return ir.Argument(tok.loc, None, tok.text)
            value = self.expression()
            return ir.Argument(tok.loc, value, tok.text)
        if tok.is_("kw", "_") and (self.peek().is_("op", ",") or self.peek().is_("op", ")")):
            self.pos += 1
            return ir.Argument(tok.loc, None)
        value = self.expression()
        return ir.Argument(value.loc, value)

    def expression(self) -> ir.Expression:
        cond = self.binary(0)
        if self.at_op("?"):
            loc = self.tok.loc
            self.pos += 1
            then = self.expression()
            self.expect(":")
            otherwise = self.expression()
            return ir.Mux(loc, cond, then, otherwise)
        return cond

    def _binary_op_here(self, ops: tuple[str, ...]) -> Optional[tuple[str, int]]:
        """The operator at the cursor if it belongs to `ops`, with its token count."""
        tok = self.tok
        if tok.kind != "op":
            return None
        if tok.text == ">":
            if self.in_angles:
                return None
            nxt = self.peek()
            if nxt.is_("op", ">") and nxt.start == tok.end:
                return (">>", 2) if ">>" in ops else None
            if nxt.is_("op", ">=") and nxt.start == tok.end:
                return None  # `>>=`, a compound assignment
            return (">", 1) if ">" in ops else None
        if tok.text in ops:
            return tok.text, 1
        return None

    def binary(self, level: int) -> ir.Expression:
        if level == len(_BINARY_LEVELS):
            return self.unary()
        ops = _BINARY_LEVELS[level]
        left = self.binary(level + 1)
        while True:
            found = self._binary_op_here(ops)
            if found is None:
                return left
            op, width = found
            loc = self.tok.loc
            self.pos += width
            right = self.binary(level + 1)
            left = ir.Binary(loc, ir.BinaryOp(op), left, right)

    def unary(self) -> ir.Expression:
        tok = self.tok
        if tok.kind == "op":
            if tok.text in ("!", "~", "-", "+"):
                self.pos += 1
                return ir.Unary(tok.loc, ir.UnaryOp(tok.text), self.unary())
            if tok.text == "(":
                cast = self.try_parse(self._cast)
                if cast is not None:
                    return cast
        return self.postfix(self.primary())

    def _cast(self) -> ir.Expression:
        loc = self.expect("(").loc
        tok = self.tok
        if tok.kind == "kw":
            if tok.text not in _BASE_TYPE_WORDS or tok.text == "void":
                raise self.error()
        elif tok.kind == "id" or tok.is_("op", "."):
            name_tok = self.peek() if tok.kind == "op" else tok
            is_list = name_tok.text == "list" and self.peek(2 if tok.kind == "op" else 1).is_("op", "<")
            if not (self.is_type_name(name_tok.text) or is_list):
                raise self.error()
        else:
            raise self.error()
        type_ref = self.type_ref()
        self.expect(")")
        if self.at_op("{"):
            operand = self.primary()
        else:
            operand = self.unary()
        return ir.Cast(loc, type_ref, operand)

    def postfix(self, expr: ir.Expression) -> ir.Expression:
        while True:
            tok = self.tok
            if tok.is_("op", "."):
                self.pos += 1
                name_tok = self.tok
                if name_tok.kind not in ("id", "kw"):
                    raise self.error("expecting a member name")
                self.pos += 1
                expr = ir.Member(name_tok.loc, expr, name_tok.text)
            elif tok.is_("op", "["):
                self.pos += 1
                index = self.expression()
                if self.accept("+:"):
                    width = self.expression()
                    self.expect("]")
                    expr = ir.IndexedSlice(tok.loc, expr, index, width)
                elif self.accept(":"):
                    low = self.expression()
                    self.expect("]")
                    expr = ir.Slice(tok.loc, expr, index, low)
                else:
                    self.expect("]")
                    expr = ir.ArrayIndex(tok.loc, expr, index)
            elif tok.is_("op", "("):
                args = self.argument_list()
                expr = ir.MethodCall(expr.loc, expr, (), args)
            elif tok.is_("op", "<") and self._type_args_ahead():
                self.pos += 1
                type_args = self.type_arg_list()
                self.expect(">")
                if self.at_op("(") :
                    expr = ir.MethodCall(expr.loc, expr, type_args, self.argument_list())
                elif isinstance(expr, ir.PathExpression):
                    base = ir.TypeName(expr.loc, expr.name, expr.is_global)
                    expr = ir.TypeNameExpression(expr.loc, type_ref=ir.SpecializedType(expr.loc, base, type_args))
                else:
                    raise self.error("expecting '('")
            else:
                return expr

    def _type_args_ahead(self) -> bool:
        """After `<`: is this `<types>(`, a call with type arguments, or `Type<args>.member`?"""
        start = self.pos

        def probe():
            self.pos += 1
            self.type_arg_list()
            self.expect(">")
            if not (self.at_op("(") or self.at_op(".")):
                raise self.error()
            return True

        found = self.try_parse(probe)
        self.pos = start
        if not found:
            return False
        # `a < b > (c)` would be a comparison chain, which P4 has no type for;
        # when the first argument is not a type, require a known type name.
        first = self.peek()
        return first.kind == "kw" or first.is_("op", ".") or self.is_type_name(first.text)

    def primary(self) -> ir.Expression:
        tok = self.tok
        loc = tok.loc
        if tok.kind == "int":
            self.pos += 1
            value, width, signed, base = tok.value
            return ir.IntLiteral(loc, value, width, signed, base)
        if tok.kind == "str":
            self.pos += 1
            return ir.StringLiteral(loc, tok.value)
        if tok.kind == "kw":
            word = tok.text
            if word in ("true", "false"):
                self.pos += 1
                return ir.BoolLiteral(loc, word == "true")
            if word == "this":
                self.pos += 1
                return ir.ThisExpression(loc)
            if word in ("bit", "int", "varbit", "bool", "error", "string", "tuple", "match_kind"):
                type_ref = self.type_ref()
                return ir.TypeNameExpression(loc, type_ref=type_ref)
            if word == "default":
                self.pos += 1
                return ir.DefaultExpression(loc)
            if word == "_":
                self.pos += 1
                return ir.DontCare(loc)
            raise self.error("expecting an expression")
        if tok.kind == "id":
            self.pos += 1
            if self.is_type_name(tok.text) and self.at_op("{") and self._struct_initializer_ahead():
                type_ref = ir.TypeName(loc, tok.text)
                init = self.primary()
                if isinstance(init, ir.StructExpression):
                    return ir.StructExpression(loc, init.fields, type_ref, init.dots)
                return ir.Cast(loc, type_ref, init)
            return ir.PathExpression(loc, tok.text)
        if tok.is_("op", "."):
            self.pos += 1
            name_tok = self.tok
            if name_tok.kind != "id":
                raise self.error("expecting a name")
            self.pos += 1
            return ir.PathExpression(loc, name_tok.text, is_global=True)
        if tok.is_("op", "("):
            self.pos += 1
            saved, self.in_angles = self.in_angles, False
            try:
                inner = self.expression()
            finally:
                self.in_angles = saved
            self.expect(")")
            return inner
        if tok.is_("op", "{#}"):
            self.pos += 1
            return ir.InvalidExpression(loc)
        if tok.is_("op", "{"):
            return self.brace_expression()
        if tok.is_("op", "..."):
            self.pos += 1
            return ir.DefaultInitializer(loc)
        raise self.error("expecting an expression")

    def _struct_initializer_ahead(self) -> bool:
        nxt, after = self.peek(), self.peek(2)
        return (nxt.kind == "id" and after.is_("op", "=")) or nxt.is_("op", "}")

    def brace_expression(self) -> ir.Expression:
        loc = self.expect("{").loc
        if self.accept("}"):
            return ir.ListExpression(loc, ())
        if self.tok.kind == "id" and self.peek().is_("op", "=") and not self.peek(2).is_("op", "="):
            fields = []
            dots = False
            while not self.at_op("}"):
                if self.accept("..."):
                    dots = True
                    break
                name, name_loc = self.name()
                self.expect("=")
                fields.append(ir.NamedExpression(name_loc, name, self.expression()))
                if not self.accept(","):
                    break
            self.expect("}")
            return ir.StructExpression(loc, tuple(fields), dots=dots)
        elements = []
        dots = False
        while not self.at_op("}"):
            if self.accept("..."):
                dots = True
                break
            elements.append(self.simple_keyset())
            if not self.accept(","):
                break
        self.expect("}")
        return ir.ListExpression(loc, tuple(elements), dots)


def type_params_names(type_params: tuple) -> list[str]:
    return [p.name for p in type_params]
