"""Name resolution and type checking: the parsed IR in, the typed IR out.

One walk over the program in source order (P4 names must be declared before
they are used, parser states excepted).  Each declaration is checked, then
bound in its scope; each expression is rebuilt with its semantic type in
`type`.  Errors are reported to `Diagnostics` and the walk goes on with the
`Unknown` type, which is compatible with everything, so that one mistake
gives one message.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Diagnostics, Loc, NO_LOC
from p4odp.frontend.const_eval import evaluate, wrap
from p4odp.frontend.scope import Scope, Symbol

__all__ = ["check_program"]

MAX_WIDTH = 2048

UNKNOWN = t.Unknown()
BOOL = t.Bool()
INT = t.InfInt()
VOID = t.Void()
STRING = t.String()
ERROR = t.ErrorT()
MATCH_KIND = t.MatchKindT()
BIT32 = t.Bits(32)


def check_program(program: ir.Program, diags: Diagnostics, action_copies: bool = False) -> ir.Program:
    """The typed program.  `action_copies`: the program is a P4_14 program's conversion, whose copies
    of one action (in ingress and egress, or for a metered table) share its control-plane name."""
    return TypeChecker(diags, action_copies).program(program)


@dataclass
class Context:
    """Where a statement or expression stands."""

    scope: Scope
    where: str  # "global", "parser", "state", "control", "action", "function", "extern", "package"
    returns: Optional[t.Type] = None
    loops: int = 0
    name_prefix: str = ""  # control-plane name prefix of the enclosing parser or control
    in_apply: bool = False  # directly in a control's apply block
    control_actions: tuple = ()

    def nested(self, **changes) -> "Context":
        changes.setdefault("scope", Scope(self.scope))
        changes.setdefault("in_apply", False)
        return replace(self, **changes)


class TypeChecker:
    def __init__(self, diags: Diagnostics, action_copies: bool = False) -> None:
        self.diags = diags
        self.action_copies = action_copies
        self.global_scope = Scope(None)
        self.error_members: dict[str, Loc] = {}
        self.decl_types: dict[int, t.Type] = {}
        self.method_signatures: dict[int, t.Signature] = {}  # extern methods and constructors
        self.ctor_params: dict[int, tuple] = {}  # parsers and controls
        self.control_plane_names: dict[str, tuple] = {}  # name -> (declaration, kind)
        # control-plane name -> (action, the control it is in (None: none), its parameters' names,
        # directions and types), in source order
        self.actions_named: dict[str, list] = {}
        self.used_actions: set[int] = set()  # ids of the actions the program refers to
        self.function_checked: Optional[str] = None  # the function whose body is being checked
        self._owner_ids = 0

    def error(self, loc: Loc, message: str) -> None:
        self.diags.error(loc, message)

    # ------------------------------------------------------------------
    # Declarations

    def program(self, program: ir.Program) -> ir.Program:
        ctx = Context(self.global_scope, "global")
        decls = []
        for decl in program.declarations:
            decls.append(self.declaration(decl, ctx))
        self.check_action_names()
        return replace(program, declarations=tuple(decls))

    def declare(self, scope: Scope, symbol: Symbol) -> None:
        """Bind `symbol`, reporting a clash with a declaration in the same scope."""
        for previous in scope.local(symbol.name):
            if _overloads(previous, symbol):
                continue
            self.error(symbol.loc, f"{symbol.name}: duplicate declaration")
            if previous.loc is not NO_LOC:
                self.diags.note(previous.loc, f"{symbol.name}: previously declared here")
            return
        scope.add(symbol)

    def declaration(self, decl, ctx: Context):
        handler = getattr(self, "decl_" + type(decl).__name__, None)
        if handler is None:
            self.error(decl.loc, "this declaration is not allowed here")
            return decl
        self.annotations(getattr(decl, "annotations", ()), ctx)
        if ctx.where == "global" and getattr(decl, "name", None) == "main" and isinstance(decl, ir.Extern):
            self.error(decl.loc, "main: must be an instance of a package")
        return handler(decl, ctx)

    def annotations(self, annotations: tuple, ctx: Context) -> None:
        """Structured annotations hold constants; a few standard ones need a string."""
        from p4odp.frontend.annotations import check_annotations

        check_annotations(self, annotations, ctx)

    def decl_ErrorDeclaration(self, decl: ir.ErrorDeclaration, ctx: Context):
        if ctx.where != "global":
            self.error(decl.loc, "error declarations are only allowed at the top level")
        for member in decl.members:
            if member.name in self.error_members:
                self.error(member.loc, f"error.{member.name}: duplicate declaration")
            else:
                self.error_members[member.name] = member.loc
        return decl

    def decl_MatchKindDeclaration(self, decl: ir.MatchKindDeclaration, ctx: Context):
        if ctx.where != "global":
            self.error(decl.loc, "match_kind declarations are only allowed at the top level")
        for member in decl.members:
            self.declare(ctx.scope, Symbol("match_kind", member.name, MATCH_KIND, member.loc, member))
        return decl

    def decl_Constant(self, decl: ir.Constant, ctx: Context):
        typ = self.resolve(decl.type_ref, ctx)
        if isinstance(typ, (t.ExternT, t.ObjectT)):
            self.error(decl.loc, f"{decl.name}: constants cannot have type {typ}")
        value = self.expr(decl.value, ctx, expected=typ)
        value = self.coerce(value, typ, decl.value.loc, "initializer")
        const = self.const_value(value, ctx)
        if const is None and not isinstance(value.type, t.Unknown) and not self.is_constant(value, ctx):
            self.error(decl.value.loc, f"{decl.name}: the initializer is not a compile-time constant")
        self.declare(ctx.scope, Symbol("const", decl.name, typ, decl.loc, decl, value=const))
        return replace(decl, value=value, type=typ)

    def decl_Variable(self, decl: ir.Variable, ctx: Context):
        if ctx.where == "global":
            self.error(decl.loc, f"{decl.name}: variables cannot be declared at the top level")
        shadowed = ctx.scope.lookup_one(decl.name)
        if shadowed is not None and shadowed.kind == "param" and shadowed.direction != "ctor" and ctx.in_apply:
            self.error(decl.loc, f"{decl.name}: this declaration shadows a parameter")
        typ = self.resolve(decl.type_ref, ctx)
        if not _is_data_type(typ) or isinstance(typ, (t.InfInt, t.String)):
            self.error(decl.type_ref.loc, f"{decl.name}: a variable cannot have type {typ}")
        init = decl.init
        if init is not None:
            init = self.coerce(self.expr(init, ctx, expected=typ), typ, init.loc, "initializer")
        self.declare(ctx.scope, Symbol("var", decl.name, typ, decl.loc, decl, writable=True))
        return replace(decl, init=init, type=typ)

    def decl_Typedef(self, decl: ir.Typedef, ctx: Context):
        typ = self.resolve(decl.type_ref, ctx)
        if isinstance(typ, (t.ObjectT,)) and typ.kind == "package":
            self.error(decl.type_ref.loc, f"{decl.name}: a typedef cannot name a package")
        self.declare(ctx.scope, Symbol("type", decl.name, typ, decl.loc, decl))
        return decl

    def decl_NewType(self, decl: ir.NewType, ctx: Context):
        base = self.resolve(decl.type_ref, ctx)
        if not isinstance(base, (t.Bits, t.Bool, t.NewTypeT, t.Unknown)):
            self.error(decl.type_ref.loc, f"{decl.name}: `type' can only be applied to base types")
        self.declare(ctx.scope, Symbol("type", decl.name, t.NewTypeT(decl.name, base), decl.loc, decl))
        return decl

    def decl_Enum(self, decl: ir.Enum, ctx: Context):
        underlying = None
        if decl.underlying is not None:
            underlying = self.resolve(decl.underlying, ctx)
            if not isinstance(underlying, (t.Bits, t.Unknown)):
                self.error(decl.underlying.loc,
                           f"{decl.name}: illegal type for enum; only bit<> and int<> are allowed")
                underlying = UNKNOWN
        members, names = [], set()
        member_ctx = ctx.nested()
        for member in decl.members:
            if member.name in names:
                self.error(member.loc, f"{decl.name}.{member.name}: duplicate enum member")
            names.add(member.name)
            value = None
            if underlying is not None:
                if member.value is None:
                    self.error(member.loc, f"{decl.name}.{member.name}: serializable enum members need a value")
                else:
                    typed = self.coerce(self.expr(member.value, member_ctx, expected=underlying), underlying,
                                        member.value.loc, "enum value")
                    value = self.const_value(typed, member_ctx)
                    member_ctx.scope.add(Symbol("const", member.name, underlying, member.loc, member, value=value))
                    if value is None and not isinstance(typed.type, t.Unknown):
                        self.error(member.value.loc, f"{decl.name}.{member.name}: value is not a constant")
            elif member.value is not None:
                self.error(member.value.loc, f"{decl.name}: only serializable enums give members values")
            members.append((member.name, value))
        typ = t.EnumT(decl.name, tuple(members), underlying)
        self.declare(ctx.scope, Symbol("type", decl.name, typ, decl.loc, decl))
        return decl

    def decl_Header(self, decl, ctx):
        return self.struct_like(decl, "header", ctx)

    def decl_HeaderUnion(self, decl, ctx):
        return self.struct_like(decl, "header_union", ctx)

    def decl_Struct(self, decl, ctx):
        return self.struct_like(decl, "struct", ctx)

    def struct_like(self, decl, kind: str, ctx: Context):
        inner = self.type_param_context(decl.type_params, ctx)
        # Bind the name first, so that a self-reference is reported as such.
        placeholder = t.StructLike(kind, decl.name)
        self.declare(ctx.scope, Symbol("type", decl.name, placeholder, decl.loc, decl))
        self.decl_types[id(decl)] = placeholder
        fields, names = [], set()
        for f in decl.fields:
            self.annotations(f.annotations, inner)
            length = next((a for a in f.annotations if a.name == "length" and not a.structured), None)
            if length is not None:
                self.length_annotation(length, decl.fields[:len(fields)], fields, inner)
            if _mentions(f.type_ref, decl.name):
                self.error(f.type_ref.loc, f"self-referencing types are not supported: '{decl.name}' within itself")
                ftype: t.Type = UNKNOWN
            else:
                ftype = self.resolve(f.type_ref, inner)
            if f.name in names:
                self.error(f.loc, f"{decl.name}.{f.name}: duplicate field")
            names.add(f.name)
            self.check_field_type(kind, decl.name, f, ftype)
            fields.append(t.Field(f.name, ftype))
        typ = t.StructLike(kind, decl.name, tuple(fields))
        for sym in ctx.scope.local(decl.name):
            if sym.decl is decl:
                sym.type = typ
        self.decl_types[id(decl)] = typ
        return replace(decl, fields=tuple(replace(f, type=field.type) for f, field in zip(decl.fields, fields)))

    def length_annotation(self, anno: ir.Annotation, earlier: tuple, earlier_types: list, ctx: Context) -> None:
        """@length(EXPR) of a varbit field: EXPR sees the fields declared before it (p4c: a later
        one is "declaration not found")."""
        if len(anno.items) != 1:
            self.error(anno.loc, "@length: expected one expression")
            return
        fields_ctx = ctx.nested()
        for f, typed in zip(earlier, earlier_types):
            fields_ctx.scope.add(Symbol("var", f.name, typed.type, f.loc, f))
        self.expr(anno.items[0], fields_ctx)

    def check_field_type(self, kind: str, owner: str, f: ir.StructField, ftype: t.Type) -> None:
        where = f"{owner}.{f.name}"
        if isinstance(ftype, (t.Unknown, t.TypeVar)):
            return
        if kind == "header":
            if not _is_header_field_type(ftype):
                self.error(f.type_ref.loc, f"{where}: type {ftype} cannot be used in a header")
        elif kind == "header_union":
            if not (isinstance(ftype, t.StructLike) and ftype.kind == "header"):
                self.error(f.type_ref.loc, f"{where}: header_union fields must be headers, not {ftype}")
        elif not _is_data_type(ftype) or isinstance(ftype, (t.String, t.InfInt)):
            self.error(f.type_ref.loc, f"{where}: type {ftype} cannot be used in a struct")

    def decl_Extern(self, decl: ir.Extern, ctx: Context):
        typ = t.ExternT(decl.name, (), decl)
        self.declare(ctx.scope, Symbol("type", decl.name, typ, decl.loc, decl))
        inner = self.type_param_context(decl.type_params, ctx)
        seen: dict[tuple, Loc] = {}
        for method in decl.methods:
            if method.return_type is None and method.name != decl.name:
                self.error(method.loc, f"{method.name}: only the constructor may omit its return type")
            if method.return_type is not None and method.name == decl.name:
                self.error(method.loc, f"{method.name}: a constructor cannot have a return type")
            sig = self.signature(method, inner, "constructor" if method.return_type is None else "method")
            if method.return_type is None:
                sig = replace(sig, returns=typ)
            self.method_signatures[id(method)] = sig
            for p in sig.params:
                if isinstance(p.type, (t.ObjectT, t.TableT)):
                    self.error(method.loc, f"{p.name}: extern parameters cannot have type {p.type}")
                elif self.mentions_type(p.type, decl.name):
                    self.error(method.loc, f"{p.name}: self-referencing types are not supported: "
                                           f"'{decl.name}' within {decl.name}")
            key = (method.name, tuple((p.name, p.type) for p in sig.params))
            if key in seen:
                self.error(method.loc, f"{decl.name}.{method.name}: duplicate method")
            seen[key] = method.loc
            if method.return_type is None:
                for p in sig.params:
                    if p.direction:
                        self.error(method.loc, f"{decl.name}: constructor parameters cannot have a direction")
        return decl

    def decl_ExternFunction(self, decl: ir.ExternFunction, ctx: Context):
        sig = self.signature(decl.prototype, ctx, "function")
        self.declare(ctx.scope, Symbol("extern_function", decl.name, t.CallableT(decl.name, (sig,)), decl.loc, decl))
        return decl

    def decl_Function(self, decl: ir.Function, ctx: Context):
        inner = self.type_param_context(decl.type_params, ctx)
        proto = ir.MethodPrototype(decl.loc, decl.name, decl.return_type, decl.type_params, decl.params)
        sig = self.signature(proto, inner, "function", allow_optional=False)  # @optional is for externs
        if ctx.where not in ("global",):
            self.error(decl.loc, f"{decl.name}: functions can only be declared at the top level")
        body_ctx = inner.nested(where="function", returns=sig.returns)
        self.check_param_kinds(sig, "function")
        self.bind_params(decl.params, sig.params, body_ctx)
        self.function_checked = decl.name
        body = self.body_block(decl.body, body_ctx)  # before its declaration: no recursion
        self.function_checked = None
        self.declare(ctx.scope, Symbol("function", decl.name, t.CallableT(decl.name, (sig,)), decl.loc, decl))
        if not isinstance(sig.returns, (t.Void, t.Unknown)) and _can_fall_through(body):
            self.error(decl.loc, f"{decl.name}: function does not return a value on every path")
        return replace(decl, body=body, params=_typed(decl.params, sig.params))

    def decl_Action(self, decl: ir.Action, ctx: Context):
        if ctx.where not in ("global", "control"):
            self.error(decl.loc, f"{decl.name}: actions can only be declared at the top level or in a control")
        proto = ir.MethodPrototype(decl.loc, decl.name, ir.VoidType(decl.loc), (), decl.params)
        sig = self.signature(proto, ctx, "action")
        seen_directionless = False
        for param in sig.params:
            if not param.direction:
                seen_directionless = True
            elif seen_directionless:
                self.error(decl.loc, f"{decl.name}: parameter {param.name} with a direction follows "
                                     "directionless parameters")
        body_ctx = ctx.nested(where="action", returns=VOID)
        self.check_param_kinds(sig, "action")
        self.bind_params(decl.params, sig.params, body_ctx)
        body = self.body_block(decl.body, body_ctx)
        if decl.name == "NoAction" and ctx.where == "global" and sig.params:
            self.error(decl.loc, "NoAction: expected an action with no parameters")
        name = self.control_name(decl, ctx)
        signature = tuple((p.name, p.direction, repr(p.type)) for p in sig.params)
        control = ctx.name_prefix if ctx.where == "control" else None
        self.actions_named.setdefault(name, []).append((decl, control, signature))
        symbol = Symbol("action", decl.name, t.ActionT(name, decl), decl.loc, decl)
        symbol.value = sig
        self.declare(ctx.scope, symbol)
        return replace(decl, body=body, control_name=name, params=_typed(decl.params, sig.params))

    def decl_ParserType(self, decl: ir.ParserType, ctx: Context):
        inner = self.type_param_context(decl.type_params, ctx)
        self.check_runtime_params(decl, inner)
        return self.object_type(decl, "parser", ctx, inner)

    def decl_ControlType(self, decl: ir.ControlType, ctx: Context):
        inner = self.type_param_context(decl.type_params, ctx)
        self.check_runtime_params(decl, inner)
        return self.object_type(decl, "control", ctx, inner)

    def object_type(self, decl, kind: str, ctx: Context, inner: Optional[Context] = None):
        """Declare the parser, control or package type of `decl` in `ctx`."""
        inner = inner or self.type_param_context(decl.type_params, ctx)
        proto = ir.MethodPrototype(decl.loc, "apply", ir.VoidType(decl.loc), (), decl.params)
        apply = self.signature(proto, inner, "method")
        type_params = tuple(self.decl_types[id(p)] for p in decl.type_params)
        typ = t.ObjectT(kind, decl.name, type_params, decl, apply)
        self.declare(ctx.scope, Symbol("type", decl.name, typ, decl.loc, decl))
        return decl

    def decl_Package(self, decl: ir.Package, ctx: Context):
        inner = self.type_param_context(decl.type_params, ctx)
        proto = ir.MethodPrototype(decl.loc, decl.name, None, (), decl.params)
        ctor = self.signature(proto, inner, "constructor")
        for p in ctor.params:
            if p.direction:
                self.error(decl.loc, f"{decl.name}: package parameters cannot have a direction")
        type_params = tuple(self.decl_types[id(p)] for p in decl.type_params)
        typ = t.ObjectT("package", decl.name, type_params, decl, ctor)
        self.declare(ctx.scope, Symbol("type", decl.name, typ, decl.loc, decl))
        return decl

    def block_scope(self, decl, kind: str, ctx: Context):
        """The scopes of a parser's or control's body, its parameters bound.

        Returns (type-parameter context, body context, typed params, typed
        constructor params).  Parameters have a scope of their own, so locals
        may shadow them.
        """
        if ctx.where != "global":
            self.error(decl.loc, f"{decl.name}: {kind}s can only be declared at the top level")
        inner = self.type_param_context(decl.type_params, ctx)
        params = inner.nested(where=kind, name_prefix=decl.name)  # not its @name: p4c's HierarchicalNames
        self.check_runtime_params(decl, inner)
        params_types = self.signature_params(decl.params, inner)
        self.bind_params(decl.params, params_types, params)
        ctor_params = self.signature_params(decl.ctor_params, inner, allow_optional=False)
        runtime_names = {p.name for p in decl.params}
        for p in decl.ctor_params:  # one scope holds both lists
            if p.name in runtime_names:
                self.error(p.loc, f"{p.name}: duplicate parameter (a parameter of {decl.name}'s apply too)")
        self.ctor_params[id(decl)] = ctor_params
        self.bind_params(decl.ctor_params, ctor_params, params, ctor=True)
        return inner, params.nested(), _typed(decl.params, params_types), _typed(decl.ctor_params, ctor_params)

    def decl_Parser(self, decl: ir.Parser, ctx: Context):
        inner, body, typed_params, typed_ctor_params = self.block_scope(decl, "parser", ctx)
        local_decls = tuple(self.declaration(d, body) for d in decl.locals)
        states = self.parser_states(decl, body)
        self.object_type(decl, "parser", ctx, inner)
        return replace(decl, locals=local_decls, states=states, params=typed_params, ctor_params=typed_ctor_params)

    def parser_states(self, decl: ir.Parser, ctx: Context) -> tuple:
        state_scope = ctx.scope
        names = {}
        for builtin in ("accept", "reject"):
            state_scope.add(Symbol("state", builtin, t.StateT(), NO_LOC))
        for state in decl.states:
            if state.name in ("accept", "reject"):
                self.error(state.loc, f"invalid parser state: {state.name} should not be implemented, it is built-in")
                continue
            if state.name in names:
                self.error(state.loc, f"{state.name}: duplicate parser state")
                continue
            names[state.name] = state
            state_scope.add(Symbol("state", state.name, t.StateT(), state.loc, state))
        if "start" not in names:
            self.error(decl.loc, f"{decl.name}: parser has no 'start' state")
        elif not _reaches_final_state(names):
            self.error(decl.loc, f"parser {decl.name}: the parser never reaches the accept or reject state")
        states = []
        for state in decl.states:
            state_ctx = ctx.nested(where="state")
            components = tuple(self.statement(s, state_ctx) for s in state.components)
            transition = state.transition
            if transition is None:
                transition = ir.PathExpression(state.loc, "reject")
                transition = replace(transition, type=t.StateT())
            else:
                transition = self.transition(transition, state_ctx)
            states.append(replace(state, components=components, transition=transition))
        return tuple(states)

    def transition(self, expr: ir.Expression, ctx: Context) -> ir.Expression:
        if isinstance(expr, ir.PathExpression):
            return self.state_ref(expr, ctx)
        assert isinstance(expr, ir.SelectExpression)
        keys = tuple(self.expr(k, ctx) for k in expr.keys)
        key_types = []
        for key in keys:
            if isinstance(key.type, (t.Bits, t.Bool, t.EnumT, t.ErrorT, t.NewTypeT, t.Unknown, t.TypeVar, t.InfInt,
                                     t.TupleT)):
                key_types.append(key.type)
            else:
                self.error(key.loc, f"select keys cannot have type {key.type}")
                key_types.append(UNKNOWN)  # its keysets are not checked against it
        cases = []
        for case in expr.cases:
            keyset = self.keyset(case.keyset, key_types, ctx)
            cases.append(replace(case, keyset=keyset, state=self.state_ref(case.state, ctx)))
        return replace(expr, keys=keys, cases=tuple(cases), type=t.StateT())

    def state_ref(self, expr: ir.PathExpression, ctx: Context) -> ir.Expression:
        symbol = ctx.scope.lookup_one(expr.name)
        if symbol is None or symbol.kind != "state":
            self.error(expr.loc, f"{expr.name}: no such parser state")
        return replace(expr, type=t.StateT())

    def keyset(self, keyset: ir.Expression, key_types: list, ctx: Context) -> ir.Expression:
        if isinstance(keyset, (ir.DefaultExpression, ir.DontCare)):
            return replace(keyset, type=t.SetT(UNKNOWN))
        if len(key_types) == 1 and not isinstance(keyset, ir.ListExpression):
            return self.simple_keyset(keyset, key_types[0], ctx)
        if len(key_types) == 1 and isinstance(keyset, ir.ListExpression) and len(keyset.elements) == 1:
            return replace(keyset, elements=(self.simple_keyset(keyset.elements[0], key_types[0], ctx),),
                           type=t.SetT(key_types[0]))
        if isinstance(keyset, ir.ListExpression):
            if len(keyset.elements) != len(key_types):
                self.error(keyset.loc, f"the keyset has {len(keyset.elements)} elements but there are "
                                       f"{len(key_types)} keys")
                return replace(keyset, type=UNKNOWN)
            elements = tuple(self.simple_keyset(e, k, ctx) for e, k in zip(keyset.elements, key_types))
            return replace(keyset, elements=elements, type=t.SetT(t.TupleT(tuple(key_types))))
        if isinstance(keyset, ir.Binary) and keyset.op in (ir.BinaryOp.MASK, ir.BinaryOp.RANGE):
            start = keyset  # a mask or range is one key's; its position is its operator's
            while isinstance(start, ir.Binary):
                start = start.left
            self.error(start.loc, f"the keyset must have {len(key_types)} elements")
            return replace(keyset, type=UNKNOWN)
        typed = self.expr(keyset, ctx)
        if isinstance(typed.type, (t.SetT, t.Unknown)):
            return typed  # a value_set of a struct type
        self.error(keyset.loc, f"the keyset must have {len(key_types)} elements")
        return typed

    def simple_keyset(self, keyset: ir.Expression, key_type: t.Type, ctx: Context) -> ir.Expression:
        if isinstance(keyset, (ir.DefaultExpression, ir.DontCare)):
            return replace(keyset, type=t.SetT(key_type))
        if isinstance(keyset, ir.Binary) and keyset.op in (ir.BinaryOp.MASK, ir.BinaryOp.RANGE):
            left = self.simple_keyset(keyset.left, key_type, ctx)
            right = self.simple_keyset(keyset.right, key_type, ctx)
            return replace(keyset, left=left, right=right, type=t.SetT(key_type))
        typed = self.expr(keyset, ctx, expected=key_type)
        if isinstance(typed.type, t.InfInt) and isinstance(key_type, t.EnumT) and key_type.underlying is not None:
            return retype(typed, key_type.underlying)  # a number matching a serializable enum key
        if isinstance(typed.type, t.SetT):
            element = typed.type.element
            if isinstance(element, t.StructLike) and len(element.fields) == 1:
                element = element.fields[0].type  # a struct of one field matches one key, as its tuple
            if not self.compatible(key_type, element):
                self.error(keyset.loc, f"value set of {typed.type.element} cannot match a key of type {key_type}")
            return typed
        typed = self.coerce(typed, key_type, keyset.loc, "keyset")
        if not self.is_constant(typed, ctx):
            self.error(keyset.loc, "keyset expressions must be compile-time constants")
        return typed

    def decl_Control(self, decl: ir.Control, ctx: Context):
        inner, body, typed_params, typed_ctor_params = self.block_scope(decl, "control", ctx)
        local_decls = tuple(self.declaration(d, body) for d in decl.locals)
        apply_ctx = body.nested(where="control", returns=VOID, in_apply=True)
        apply_body = self.body_block(decl.body, apply_ctx)
        self.object_type(decl, "control", ctx, inner)
        return replace(decl, locals=local_decls, body=apply_body, params=typed_params,
                       ctor_params=typed_ctor_params)

    def check_runtime_params(self, decl, ctx: Context) -> None:
        """Apply parameters of parsers and controls: no parsers or controls, no clash with type parameters."""
        type_params = {p.name for p in decl.type_params}
        for p in (*decl.params, *getattr(decl, "ctor_params", ())):
            if p.name in type_params:
                self.error(p.loc, f"{p.name}: duplicates the type parameter {p.name}")
        for p in decl.params:
            if isinstance(self.resolve(p.type_ref, ctx, allow_generic=True), (t.ObjectT, t.TableT)):
                self.error(p.loc, f"{p.name}: an apply parameter cannot be a parser, control or package")
        own_kind = "parser" if isinstance(decl, (ir.Parser, ir.ParserType)) else "control"
        for p in getattr(decl, "ctor_params", ()):
            typ = self.resolve(p.type_ref, ctx, allow_generic=True)
            if isinstance(typ, t.ObjectT) and typ.kind in ("parser", "control") and typ.kind != own_kind:
                self.error(p.loc, f"{p.name}: a {typ.kind} cannot be instantiated in a {own_kind}")

    def decl_Instance(self, decl: ir.Instance, ctx: Context):
        if ctx.where in ("action", "function"):
            self.error(decl.loc, f"{decl.name}: instances cannot be declared inside {ctx.where}s")
        typ = self.resolve(decl.type_ref, ctx, allow_generic=True)
        size = None
        if isinstance(typ, t.Stack):  # `T() name[N];`
            typ, size = typ.element, typ.size
        args, instance_type = self.construct(typ, decl.args, decl.loc, ctx)
        for arg in args:
            if arg.value is not None and _is_data_type(arg.value.type) and not self.is_constant(arg.value, ctx):
                self.error(arg.loc, "constructor arguments must be compile-time constants")
        initializer = decl.initializer
        if initializer:
            initializer = self.abstract_methods(decl, instance_type, ctx)
        elif isinstance(instance_type, t.ExternT) and instance_type.decl is not None and \
                any(m.abstract for m in instance_type.decl.methods):
            self.error(decl.loc, f"{decl.name}: the abstract methods of {instance_type.name} need an implementation")
        own_params = {self.decl_types[id(p)] for p in getattr(instance_type.decl, "type_params", ())} \
            if isinstance(instance_type, t.ExternT) and instance_type.decl is not None else set()
        if any(a in own_params for a in getattr(instance_type, "type_args", ())):
            self.error(decl.loc, f"{decl.name}: the type arguments of {instance_type.name} cannot be inferred; "
                                 "give them explicitly")
        if size is not None:
            instance_type = t.Stack(instance_type, size)
        name = self.control_name(decl, ctx)
        if isinstance(instance_type, t.ObjectT):
            kind = instance_type.kind
            if kind == "package" and ctx.where != "global":
                self.error(decl.loc, f"{decl.name}: packages can only be instantiated at the top level")
            elif kind != "package" and ctx.where == "global":
                self.error(decl.loc, f"{decl.name}: a {kind} cannot be instantiated at the top level")
            elif kind == "parser" and ctx.where == "control" or kind == "control" and ctx.where == "parser":
                self.error(decl.loc, f"{decl.name}: a {kind} cannot be instantiated in a {ctx.where}")
        if decl.name == "main" and ctx.where == "global" and not (
                isinstance(instance_type, t.ObjectT) and instance_type.kind == "package"):
            if not isinstance(instance_type, t.Unknown):
                self.error(decl.loc, "main: must be an instance of a package")
        self.declare(ctx.scope, Symbol("instance", decl.name, instance_type, decl.loc, decl))
        return replace(decl, args=args, initializer=initializer, control_name=name, type=instance_type)

    def abstract_methods(self, decl: ir.Instance, typ: t.Type, ctx: Context) -> tuple:
        if not isinstance(typ, t.ExternT) or typ.decl is None:
            self.error(decl.loc, f"{decl.name}: initializers are only allowed for extern instances")
            return decl.initializer
        abstract = {m.name: m for m in typ.decl.methods if m.abstract}
        if not abstract:
            self.error(decl.loc, f"{decl.name}: instance initializers for an extern without abstract methods")
            return decl.initializer
        inner = ctx.nested(where="extern")
        inner.scope.add(Symbol("this", "this", typ, decl.loc, decl))
        out, implemented = [], set()
        for name, method in abstract.items():
            if name not in {i.name for i in decl.initializer if isinstance(i, ir.Function)} and \
                    not any(a.name == "optional" for a in method.annotations):
                self.error(decl.loc, f"{decl.name}: abstract method {name} is not implemented")
        for item in decl.initializer:
            if not isinstance(item, ir.Function):
                out.append(self.declaration(item, inner))
                continue
            if item.name not in abstract:
                self.error(item.loc, f"{item.name}: no matching abstract method in {typ.name}")
            implemented.add(item.name)
            func_ctx = inner.nested(where="function")
            proto = ir.MethodPrototype(item.loc, item.name, item.return_type, item.type_params, item.params)
            sig = self.signature(proto, func_ctx, "function")
            declared = abstract.get(item.name)
            if declared is not None:
                self.check_implementation(item, sig, self.method_signatures.get(id(declared)), typ)
            func_ctx = func_ctx.nested(returns=sig.returns)
            self.bind_params(item.params, sig.params, func_ctx)
            out.append(replace(item, body=self.block(item.body, func_ctx)))
        return tuple(out)

    def check_implementation(self, item: ir.Function, sig: t.Signature, declared, typ: t.ExternT) -> None:
        """An abstract method's implementation takes the declared parameters and returns the declared type."""
        if declared is None:
            return
        from p4odp.frontend.expressions import extern_type_mapping

        declared = substitute_signature(declared, extern_type_mapping(self, typ))
        given, wanted = sig.params, declared.params
        same = len(given) <= len(wanted) and all(d.optional for d in wanted[len(given):]) and all(
            p.direction == d.direction and (p.type == d.type or _has_typevar(d.type))
            for p, d in zip(given, wanted)) and (sig.returns == declared.returns or _has_typevar(declared.returns))
        if not same:
            self.error(item.loc, f"{item.name}: the implementation does not match the abstract method's signature")

    def decl_ValueSet(self, decl: ir.ValueSet, ctx: Context):
        element = self.resolve(decl.element_type, ctx)
        if not isinstance(element, (t.Bits, t.StructLike, t.TupleT, t.EnumT, t.NewTypeT, t.Unknown, t.Bool)):
            self.error(decl.element_type.loc, f"{element}: illegal type for value_set element type")
        size = self.expr(decl.size, ctx)
        if self.const_value(size, ctx) is None:
            self.error(decl.size.loc, f"{decl.name}: the size of a value_set must be a constant")
        name = self.control_name(decl, ctx)
        self.register_control_name(name, decl, "value_set")
        self.declare(ctx.scope, Symbol("value_set", decl.name, t.SetT(element), decl.loc, decl))
        return replace(decl, size=size, control_name=name, type=t.SetT(element))

    def decl_Table(self, decl: ir.Table, ctx: Context):
        from p4odp.frontend.tables import check_table

        if ctx.where != "control":
            self.error(decl.loc, f"{decl.name}: tables can only be declared in controls")
        name = self.control_name(decl, ctx)
        # Bound before its properties are checked: inside them the name means the table itself.
        symbol = Symbol("table", decl.name, t.TableT(name, decl), decl.loc, decl)
        self.declare(ctx.scope, symbol)
        table = check_table(self, decl, ctx)
        symbol.type, symbol.decl = t.TableT(name, table), table
        self.register_control_name(name, decl, "table")
        return replace(table, control_name=name)

    # ------------------------------------------------------------------
    # Control-plane names

    def control_name(self, decl, ctx: Context) -> str:
        """The fully qualified control-plane name p4c gives `decl`."""
        name = ir.name_annotation(decl)
        if name is not None and name.startswith("."):
            return name[1:]
        local = name if name is not None else decl.name
        return f"{ctx.name_prefix}.{local}" if ctx.name_prefix else local

    def register_control_name(self, name: str, decl, kind: str) -> None:
        """Tables, actions and value sets need distinct control-plane names (P4Runtime addresses them so)."""
        previous = self.control_plane_names.get(name)
        if previous is None:
            self.control_plane_names[name] = (decl, kind)
        elif previous[0] is not decl and previous[1] == kind:
            self.error(decl.loc, f"{name}: conflicting control-plane name")
            self.diags.note(previous[0].loc, f"{name}: also used here")

    def check_action_names(self) -> None:
        """Actions the program uses need distinct control-plane names (p4c: "conflicting control plane
        name").  But in a P4_14 program's conversion (`action_copies`), copies of one action in
        controls, with the same parameters, share its name, and P4Info holds them as one action:
        p4c's conversion declares an action that ingress and egress use in both, and a copy for
        each table with a direct meter, which reads the meter first.  An unused one is not in
        P4Info, so it clashes with nothing (as in p4c, which removes it first): p4c's own output
        declares `@name(".NoAction") action NoAction_1()` beside core.p4's unused NoAction."""
        for name, actions in self.actions_named.items():
            used = [entry for entry in actions if id(entry[0]) in self.used_actions]
            first, first_control, first_signature = used[0] if used else (None, None, None)
            for action, control, signature in used[1:]:
                copy = self.action_copies and None not in (control, first_control) and signature == first_signature
                if not copy:
                    self.error(action.loc, f"{name}: conflicting control-plane name")
                    self.diags.note(first.loc, f"{name}: also used here")

    # ------------------------------------------------------------------
    # Signatures and parameters

    def type_param_context(self, type_params: tuple, ctx: Context) -> Context:
        if not type_params:
            return ctx
        inner = ctx.nested()
        owner = self._owner_ids = self._owner_ids + 1
        for p in type_params:
            # A declaration's context may be made twice (a function's body, its signature): one variable.
            var = self.decl_types.setdefault(id(p), t.TypeVar(p.name, owner))
            self.declare(inner.scope, Symbol("type", p.name, var, p.loc, p))
        return inner

    def signature_params(self, params: tuple, ctx: Context, allow_optional: bool = True) -> tuple:
        out = []
        names = set()
        for p in params:
            if p.name in names:
                self.error(p.loc, f"{p.name}: duplicate parameter")
            names.add(p.name)
            self.annotations(p.annotations, ctx)
            if any(isinstance(s.type, t.TypeVar) for s in ctx.scope.local(p.name)):
                self.error(p.loc, f"{p.name}: a parameter cannot have the name of a type parameter")
            typ = self.resolve(p.type_ref, ctx, allow_generic=True)
            if isinstance(typ, t.Void):
                self.error(p.type_ref.loc, f"{p.name}: a parameter cannot have type void")
            if p.direction and isinstance(typ, (t.ExternT, t.ObjectT)) and not isinstance(typ, t.Unknown):
                self.error(p.loc, f"{p.name}: a parameter of type {typ} cannot have a direction")
            if p.direction and isinstance(typ, t.String):
                self.error(p.loc, f"{p.name}: a parameter with type string cannot have a direction")
            optional = any(a.name == "optional" for a in p.annotations)
            if optional and not allow_optional:
                self.error(p.loc, f"{p.name}: an @optional parameter is not allowed here")
            if isinstance(typ, t.ObjectT) and isinstance(typ.decl, (ir.Parser, ir.Control)):
                self.error(p.loc, f"{p.name}: a parameter cannot have the type of {typ}; use a {typ.kind} type")
            if p.default is not None:
                default = self.expr(p.default, ctx, expected=typ)
                if not self.is_constant(default, ctx):
                    self.error(p.default.loc, f"{p.name}: a default value must be a compile-time constant")
                if p.direction in ("out", "inout"):
                    self.error(p.default.loc, f"{p.name}: out and inout parameters cannot have default values")
            out.append(t.Param(p.name, p.direction, typ, p.default is not None, optional))
        return tuple(out)

    def signature(self, proto: ir.MethodPrototype, ctx: Context, kind: str,
                  allow_optional: bool = True) -> t.Signature:
        inner = self.type_param_context(proto.type_params, ctx)
        params = self.signature_params(proto.params, inner, allow_optional)
        returns = VOID if proto.return_type is None else self.resolve(proto.return_type, inner)
        if isinstance(returns, (t.InfInt,)) or (isinstance(returns, t.ObjectT)) or isinstance(returns, t.TableT):
            self.error(proto.return_type.loc, f"{returns}: illegal return type for method")
        type_params = tuple(self.decl_types[id(p)] for p in proto.type_params)
        return t.Signature(proto.name, type_params, params, returns, kind, proto)

    def bind_params(self, decls: tuple, params: tuple, ctx: Context, ctor: bool = False):
        for decl, param in zip(decls, params):
            if ctx.scope.local(decl.name) and any(s.kind == "param" for s in ctx.scope.local(decl.name)):
                continue  # a duplicate parameter, already reported by signature_params
            writable = param.direction in ("out", "inout")
            self.declare(ctx.scope, Symbol("param", decl.name, param.type, decl.loc, decl, writable=writable,
                                           direction=param.direction or ("ctor" if ctor else "")))

    def body_block(self, block: ir.Block, ctx: Context) -> ir.Block:
        """The body of an action or function: its declarations share the parameters' scope."""
        return replace(block, statements=tuple(self.statement(s, ctx) for s in block.statements))

    def check_param_kinds(self, sig: t.Signature, what: str) -> None:
        for p in sig.params:
            loc = sig.decl.loc if sig.decl is not None else NO_LOC
            typ = p.type
            if isinstance(typ, t.ObjectT) or isinstance(typ, t.TableT):
                self.error(loc, f"{p.name}: a parameter of an {what} cannot have type {typ}")
            elif what == "action" and isinstance(typ, t.ExternT):
                self.error(loc, f"{p.name}: action parameters cannot have extern types")
            elif isinstance(typ, t.InfInt) and p.direction:
                self.error(loc, f"{p.name}: parameters of type int must be directionless")
            elif what == "action" and not p.direction and isinstance(typ, (t.InfInt, t.String)):
                self.error(loc, f"{p.name}: action parameters cannot have type {typ}")

    # ------------------------------------------------------------------
    # Types

    def resolve(self, ref: ir.TypeRef, ctx: Context, allow_generic: bool = False) -> t.Type:
        """The semantic type a syntax type stands for."""
        if isinstance(ref, ir.BitsType):
            width = self.width(ref.width, ctx, "int" if ref.signed else "bit")
            if width is None:
                return UNKNOWN
            if ref.signed and width == 0:
                self.error(ref.loc, "width of a signed type cannot be zero")
                return UNKNOWN
            return t.Bits(width, ref.signed)
        if isinstance(ref, ir.VarbitType):
            width = self.width(ref.width, ctx, "varbit")
            return UNKNOWN if width is None else t.Varbit(width)
        if isinstance(ref, ir.BoolType):
            return BOOL
        if isinstance(ref, ir.StringType):
            return STRING
        if isinstance(ref, ir.IntType):
            return INT
        if isinstance(ref, ir.VoidType):
            return VOID
        if isinstance(ref, ir.ErrorType):
            return ERROR
        if isinstance(ref, ir.MatchKindType):
            return MATCH_KIND
        if isinstance(ref, ir.DontCareType):
            return t.DontCareT()
        if isinstance(ref, ir.StackType):
            element = self.resolve(ref.element, ctx, allow_generic)
            size_expr = self.expr(ref.size, ctx)
            size = self.const_value(size_expr, ctx)
            if size is None or isinstance(size, bool):
                self.error(ref.size.loc, "the size of a stack or array must be a compile-time constant")
                return UNKNOWN
            if size < 0 or size > 1 << 20:
                self.error(ref.size.loc, f"illegal array size: {size}")
                return UNKNOWN
            return t.Stack(element, int(size))
        if isinstance(ref, ir.TupleType):
            elements = tuple(self.resolve(e, ctx) for e in ref.elements)
            for e, element in zip(ref.elements, elements):
                if isinstance(element, (t.ExternT, t.ObjectT, t.DontCareT, t.String, t.Void)):
                    self.error(e.loc, f"{element}: not supported as a tuple field")
            return t.TupleT(elements)
        if isinstance(ref, ir.ListType):
            return t.ListT(self.resolve(ref.element, ctx))
        if isinstance(ref, ir.TypeName):
            return self.named_type(ref, ctx, allow_generic)
        if isinstance(ref, ir.SpecializedType):
            base = self.named_type(ref.base, ctx, allow_generic=True, specializing=True)
            args = tuple(self.resolve(a, ctx) for a in ref.args)
            if isinstance(base, t.ObjectT) and base.kind == "package":  # overloaded: the one of as many
                base = next((s.type for s in ctx.scope.lookup(base.name) if isinstance(s.decl, ir.Package)
                             and isinstance(s.type, t.ObjectT) and len(s.decl.type_params) == len(args)), base)
            return self.specialize(base, args, ref.loc)
        self.error(ref.loc, "unsupported type")
        return UNKNOWN

    def width(self, expr: ir.Expression, ctx: Context, what: str) -> Optional[int]:
        typed = self.expr(expr, ctx)
        value = self.const_value(typed, ctx)
        if value is None or isinstance(value, bool):
            self.error(expr.loc, f"{what}<...>: the width must be a compile-time integer constant")
            return None
        if value < 0:
            self.error(expr.loc, f"{what}<{value}>: negative width")
            return None
        if value > MAX_WIDTH:
            self.error(expr.loc, f"{what}<{value}>: widths up to {MAX_WIDTH} are supported")
            return None
        return int(value)

    def named_type(self, ref: ir.TypeName, ctx: Context, allow_generic: bool, specializing: bool = False) -> t.Type:
        scope = self.global_scope if ref.is_global else ctx.scope
        symbol = scope.lookup_one(ref.name)
        if symbol is None:
            self.error(ref.loc, f"{ref.name}: declaration not found")
            return UNKNOWN
        if symbol.kind != "type":
            self.error(ref.loc, f"{ref.name} is not a type")
            return UNKNOWN
        typ = symbol.type
        decl = symbol.decl
        if not specializing and getattr(decl, "type_params", ()) and isinstance(decl, (ir.Header, ir.Struct,
                                                                                       ir.HeaderUnion)):
            self.error(ref.loc, f"{ref.name}: a generic type needs type arguments")
            return UNKNOWN
        return typ

    def specialize(self, base: t.Type, args: tuple, loc: Loc) -> t.Type:
        if isinstance(base, t.Unknown):
            return base
        decl = getattr(base, "decl", None)
        if isinstance(base, t.StructLike):
            decl = next((s.decl for s in self.global_scope.lookup(base.name) if s.kind == "type"), None)
        type_params = getattr(decl, "type_params", ())
        if not type_params:
            self.error(loc, f"{base}: this type takes no type arguments")
            return UNKNOWN
        if len(type_params) != len(args):
            self.error(loc, f"{base}: expected {len(type_params)} type arguments, got {len(args)}")
            return UNKNOWN
        if getattr(base, "type_args", ()) and not all(isinstance(a, t.TypeVar) for a in base.type_args):
            self.error(loc, f"{base}: already specialized, it takes no more type arguments")
            return UNKNOWN
        if any(self.mentions_type(a, base.name) for a in args):
            self.error(loc, f"{base.name}: contains itself as a type argument")
            return UNKNOWN
        mapping = {self.decl_types[id(p)]: a for p, a in zip(type_params, args)}
        if isinstance(base, t.ExternT):
            return t.ExternT(base.name, args, base.decl)
        if isinstance(base, t.ObjectT):
            apply = substitute_signature(base.apply, mapping) if base.apply else None
            return t.ObjectT(base.kind, base.name, args, base.decl, apply)
        if isinstance(base, t.StructLike):
            for arg in args:
                if not _is_data_type(arg):
                    self.error(loc, f"{arg}: cannot be used as the type argument of {base}")
                    return UNKNOWN
            name = _specialized_name(base.name, args)
            fields = tuple(t.Field(f.name, substitute(f.type, mapping)) for f in base.fields)
            for f in fields:
                if base.kind == "header" and not _is_header_field_type(f.type) and not _has_typevar(f.type) or \
                        base.kind == "header_union" and not (isinstance(f.type, t.StructLike) and
                                                             f.type.kind == "header") and not _has_typevar(f.type):
                    self.error(loc, f"{name}: field {f.name} cannot have type {f.type} in a {base.kind}")
            return t.StructLike(base.kind, name, fields, (base.name, args))
        return base

    def mentions_type(self, typ: t.Type, name: str) -> bool:
        """Does `typ` use the type declared as `name`: as itself, a specialization of it, in a
        type argument, a field, or a parameter of a parser or control?"""
        if isinstance(typ, (t.ExternT, t.ObjectT)):
            params = (self.ctor_params.get(id(typ.decl), ()) + typ.apply.params) \
                if isinstance(typ, t.ObjectT) and typ.apply else ()
            return typ.name == name or any(self.mentions_type(a, name) for a in typ.type_args) or \
                any(self.mentions_type(p.type, name) for p in params)
        if isinstance(typ, t.StructLike):
            return typ.name == name or typ.name.startswith(name + "<") or \
                any(self.mentions_type(f.type, name) for f in typ.fields)
        if isinstance(typ, (t.Stack, t.ListT)):
            return self.mentions_type(typ.element, name)
        if isinstance(typ, t.TupleT):
            return any(self.mentions_type(e, name) for e in typ.elements)
        return False

    # ------------------------------------------------------------------
    # Statements

    def block(self, block: ir.Block, ctx: Context) -> ir.Block:
        inner = ctx.nested()
        return replace(block, statements=tuple(self.statement(s, inner) for s in block.statements))

    def statement(self, stmt: ir.Statement, ctx: Context) -> ir.Statement:
        from p4odp.frontend.statements import check_statement

        return check_statement(self, stmt, ctx)

    # ------------------------------------------------------------------
    # Expressions

    def expr(self, expr: ir.Expression, ctx: Context, expected: Optional[t.Type] = None) -> ir.Expression:
        from p4odp.frontend.expressions import check_expression

        return check_expression(self, expr, ctx, expected)

    def const_value(self, expr: ir.Expression, ctx: Context):
        def lookup(name: str):
            symbol = ctx.scope.lookup_one(name)
            return symbol.value if symbol is not None and symbol.kind == "const" else None

        return evaluate(expr, lookup)

    def is_constant(self, expr: ir.Expression, ctx: Context, directionless: bool = False) -> bool:
        """Is `expr` known at compile time (possibly only once its instance is constructed)?  With
        `directionless`, p4c's wider rule for an argument of a directionless parameter: instances and
        directionless parameters (an action's data) count as known too."""
        if self.const_value(expr, ctx) is not None:
            return True
        if isinstance(expr, (ir.IntLiteral, ir.BoolLiteral, ir.StringLiteral, ir.DefaultExpression,
                             ir.DontCare, ir.DefaultInitializer, ir.InvalidExpression, ir.ConstructorCall)):
            return True
        if isinstance(expr, ir.PathExpression):
            symbol = ctx.scope.lookup_one(expr.name)
            return symbol is not None and (symbol.kind in ("const", "match_kind") or symbol.direction == "ctor" or
                                           directionless and (symbol.kind == "instance" or
                                                              symbol.kind == "param" and not symbol.direction))
        known = [self.is_constant(e, ctx, directionless) for e in _operands(expr)]
        if isinstance(expr, ir.Member):
            return isinstance(expr.expr.type, t.TypeT) or all(known)
        if isinstance(expr, (ir.ListExpression, ir.StructExpression, ir.Cast, ir.Unary, ir.Binary, ir.Mux,
                             ir.Slice, ir.ArrayIndex)):
            return all(known)
        if isinstance(expr, ir.MethodCall) and isinstance(expr.method, ir.Member):
            return expr.method.member in ("minSizeInBits", "minSizeInBytes", "maxSizeInBits", "maxSizeInBytes")
        return False

    def construct(self, typ: t.Type, args: tuple, loc: Loc, ctx: Context):
        from p4odp.frontend.expressions import check_constructor

        return check_constructor(self, typ, args, loc, ctx)

    # ------------------------------------------------------------------
    # Compatibility and implicit casts

    def compatible(self, dst: t.Type, src: t.Type) -> bool:
        """Can a value of type `src` be used where `dst` is expected (implicit casts included)?"""
        if dst == src or isinstance(dst, t.Unknown) or isinstance(src, t.Unknown):
            return True
        if isinstance(dst, t.DontCareT):
            return True
        if isinstance(dst, t.TypeVar) or isinstance(src, t.TypeVar):
            return False  # in its generic declaration, a type parameter is a type of its own
        if isinstance(src, t.InfInt):
            return isinstance(dst, (t.Bits, t.InfInt))
        if isinstance(src, t.EnumT) and src.underlying is not None and isinstance(dst, (t.Bits, t.InfInt)):
            return src.underlying == dst or isinstance(dst, t.InfInt)
        if isinstance(dst, t.InfInt) and isinstance(src, t.Bits):
            return True  # a constant of known width passed where `int` is wanted
        if isinstance(src, t.InvalidT):
            return isinstance(dst, t.StructLike) and dst.kind in ("header", "header_union")
        if isinstance(dst, t.StructLike) and isinstance(src, t.StructLike):
            return dst.name == src.name and dst.kind == src.kind
        if isinstance(dst, t.StructLike) and isinstance(src, t.TupleT):
            return len(dst.fields) == len(src.elements) and all(
                self.compatible(f.type, e) for f, e in zip(dst.fields, src.elements))
        if isinstance(dst, t.StructLike) and isinstance(src, t.StructLiteral):
            if dst.kind == "header_union":
                return len(src.fields) <= 1 and all(dst.field(f.name) is not None and
                                                    self.compatible(dst.field(f.name).type, f.type)
                                                    for f in src.fields)
            names = {f.name for f in dst.fields}
            if {f.name for f in src.fields} != names:
                return False
            return all(self.compatible(dst.field(f.name).type, f.type) for f in src.fields)
        if isinstance(dst, (t.TupleT,)) and isinstance(src, t.TupleT):
            return len(dst.elements) == len(src.elements) and all(
                self.compatible(d, s) for d, s in zip(dst.elements, src.elements))
        if isinstance(dst, t.ListT) and isinstance(src, t.TupleT):
            return all(self.compatible(dst.element, s) for s in src.elements)
        if isinstance(dst, t.Stack) and isinstance(src, t.TupleT):
            return len(src.elements) == dst.size and all(self.compatible(dst.element, s) for s in src.elements)
        if isinstance(dst, t.Stack) and isinstance(src, t.Stack):
            return dst.size == src.size and self.compatible(dst.element, src.element)
        if isinstance(dst, t.SetT) and isinstance(src, t.SetT):
            return self.compatible(dst.element, src.element)
        if isinstance(dst, t.ExternT) and isinstance(src, t.ExternT):
            return dst.name == src.name and (not dst.type_args or not src.type_args or all(
                self.compatible(a, b) for a, b in zip(dst.type_args, src.type_args)))
        if isinstance(dst, t.ObjectT) and isinstance(src, t.ObjectT):
            return dst.kind == src.kind
        return False

    def coerce(self, expr: ir.Expression, dst: t.Type, loc: Loc, what: str) -> ir.Expression:
        """`expr` converted implicitly to `dst`, or reported."""
        src = expr.type
        if isinstance(expr, ir.ListExpression) and expr.dots and isinstance(dst, t.StructLike) and \
                len(expr.elements) <= len(dst.fields) and all(
                    self.compatible(f.type, e.type) for f, e in zip(dst.fields, expr.elements)):
            return replace(expr, type=dst)  # `{a, ...}`: the remaining fields take their default values
        if isinstance(src, t.TupleT) and isinstance(dst, t.StructLike) and not _is_list_literal(expr):
            self.error(loc, f"{what}: a tuple value cannot be converted to {dst}")
            return replace(expr, type=UNKNOWN)
        if src is None or not self.compatible(dst, src):
            self.error(loc, f"{what}: cannot convert {src} to {dst}")
            return replace(expr, type=UNKNOWN) if src is not None else expr
        if isinstance(src, t.InfInt) and isinstance(dst, t.Bits):
            value = self.const_value(expr, Context(self.global_scope, "global"))
            if isinstance(value, int) and not isinstance(value, bool) and isinstance(expr, ir.IntLiteral):
                if wrap(value, dst) != value and not (not dst.signed and 0 <= value < 1 << dst.width):
                    self.diags.warning(loc, f"{value} does not fit in {dst}; it is truncated")
            return retype(expr, dst, value)
        if isinstance(src, (t.TupleT, t.StructLiteral)) and isinstance(dst, (t.StructLike, t.Stack, t.TupleT,
                                                                          t.ListT)):
            return self.coerce_initializer(expr, dst, loc, what)
        return expr

    def coerce_initializer(self, expr: ir.Expression, dst: t.Type, loc: Loc, what: str) -> ir.Expression:
        """A list or struct initializer with every element converted to its field's type."""
        if isinstance(expr, ir.ListExpression):
            if isinstance(dst, t.StructLike):
                targets = [f.type for f in dst.fields]
            elif isinstance(dst, t.TupleT):
                targets = list(dst.elements)
            elif isinstance(dst, (t.Stack, t.ListT)):
                targets = [dst.element] * len(expr.elements)
            else:
                return replace(expr, type=dst)
            elements = tuple(self.coerce(e, d, e.loc, what) for e, d in zip(expr.elements, targets))
            return replace(expr, elements=elements, type=dst)
        if isinstance(expr, ir.StructExpression) and isinstance(dst, t.StructLike):
            fields = []
            for f in expr.fields:
                declared = dst.field(f.name)
                value = self.coerce(f.value, declared.type, f.value.loc, what) if declared is not None else f.value
                fields.append(replace(f, value=value))
            return replace(expr, fields=tuple(fields), type=dst)
        if isinstance(expr, ir.Mux):
            return replace(expr, then=self.coerce_initializer(expr.then, dst, loc, what),
                           otherwise=self.coerce_initializer(expr.otherwise, dst, loc, what), type=dst)
        return replace(expr, type=dst) if not isinstance(expr, ir.MethodCall) else expr


def retype(expr: ir.Expression, typ: t.Type, value=None) -> ir.Expression:
    """`expr`, an untyped integer, implicitly cast to `typ`.

    The untyped arithmetic is done first, at unbounded precision: a known
    `value` replaces the expression by a literal; otherwise only the result
    is typed, and the generated code wraps it once.
    """
    if isinstance(expr, ir.IntLiteral):
        return replace(expr, type=typ)
    if isinstance(value, int) and not isinstance(value, bool):
        return ir.IntLiteral(expr.loc, value, type=typ)
    return replace(expr, type=typ) if isinstance(expr.type, t.InfInt) else expr


def substitute(typ: t.Type, mapping: dict) -> t.Type:
    if isinstance(typ, t.TypeVar):
        return mapping.get(typ, typ)
    if isinstance(typ, t.Stack):
        return t.Stack(substitute(typ.element, mapping), typ.size)
    if isinstance(typ, t.TupleT):
        return t.TupleT(tuple(substitute(e, mapping) for e in typ.elements))
    if isinstance(typ, t.ListT):
        return t.ListT(substitute(typ.element, mapping))
    if isinstance(typ, t.ExternT) and typ.type_args:
        return t.ExternT(typ.name, tuple(substitute(a, mapping) for a in typ.type_args), typ.decl)
    if isinstance(typ, t.ObjectT) and typ.type_args:
        apply = substitute_signature(typ.apply, mapping) if typ.apply else None
        return t.ObjectT(typ.kind, typ.name, tuple(substitute(a, mapping) for a in typ.type_args), typ.decl, apply)
    if isinstance(typ, t.StructLike) and _has_typevar(typ):
        fields = tuple(t.Field(f.name, substitute(f.type, mapping)) for f in typ.fields)
        if typ.generic is None:
            return t.StructLike(typ.kind, typ.name, fields)
        name, args = typ.generic
        args = tuple(substitute(a, mapping) for a in args)
        return t.StructLike(typ.kind, _specialized_name(name, args), fields, (name, args))
    return typ


def _specialized_name(name: str, args: tuple) -> str:
    return f"{name}<{', '.join(map(str, args))}>"


def substitute_signature(sig: t.Signature, mapping: dict) -> t.Signature:
    params = tuple(replace(p, type=substitute(p.type, mapping)) for p in sig.params)
    return replace(sig, params=params, returns=substitute(sig.returns, mapping))


def _operands(expr: ir.Expression) -> tuple:
    """The parts of `expr` that decide whether it is a constant (is_constant)."""
    if isinstance(expr, ir.ListExpression):
        return expr.elements
    if isinstance(expr, ir.StructExpression):
        return tuple(f.value for f in expr.fields)
    if isinstance(expr, ir.ArrayIndex):
        return expr.expr, expr.index
    if isinstance(expr, (ir.Cast, ir.Unary, ir.Member, ir.Slice)):
        return (expr.expr,)
    if isinstance(expr, ir.Binary):
        return expr.left, expr.right
    if isinstance(expr, ir.Mux):
        return expr.cond, expr.then, expr.otherwise
    return ()


def _has_typevar(typ: t.Type) -> bool:
    if isinstance(typ, t.TypeVar):
        return True
    if isinstance(typ, (t.Stack, t.ListT)):
        return _has_typevar(typ.element)
    if isinstance(typ, t.TupleT):
        return any(_has_typevar(e) for e in typ.elements)
    if isinstance(typ, t.StructLike):
        return any(_has_typevar(f.type) for f in typ.fields)
    if isinstance(typ, (t.ExternT, t.ObjectT)):
        return any(_has_typevar(a) for a in typ.type_args)
    return False


def _typed(decls: tuple, params: tuple) -> tuple:
    """Parameter declarations with the semantic types the checker gave them."""
    return tuple(replace(d, type=p.type) for d, p in zip(decls, params))


def _overloads(previous: Symbol, new: Symbol) -> bool:
    """Functions, extern functions and packages may share a name when their parameters differ."""
    if isinstance(previous.decl, ir.Package) and isinstance(new.decl, ir.Package):
        return len(previous.decl.params) != len(new.decl.params)
    if type(previous.decl) is type(new.decl) and isinstance(new.decl, (ir.Parser, ir.Control)):
        return [p.name for p in previous.decl.ctor_params] != [p.name for p in new.decl.ctor_params]
    kinds = ("function", "extern_function")
    if previous.kind not in kinds or new.kind not in kinds:
        return False
    old_sig = previous.type.signatures[0]
    new_sig = new.type.signatures[0]
    return [(p.name, p.type) for p in old_sig.params] != [(p.name, p.type) for p in new_sig.params]


def _is_data_type(typ: t.Type) -> bool:
    return not isinstance(typ, (t.Void, t.ExternT, t.ObjectT, t.TableT, t.ActionT, t.StateT, t.MatchKindT,
                                t.CallableT, t.TypeT, t.DontCareT))


def _is_header_field_type(typ: t.Type) -> bool:
    if isinstance(typ, (t.Bits, t.Varbit, t.Bool)):
        return True
    if isinstance(typ, t.Stack):
        return _is_header_field_type(typ.element)
    if isinstance(typ, t.EnumT):
        return typ.underlying is not None
    if isinstance(typ, t.NewTypeT):
        return _is_header_field_type(typ.base) if typ.base is not None else True
    if isinstance(typ, t.StructLike) and typ.kind == "struct":
        return all(_is_header_field_type(f.type) for f in typ.fields)
    return False


def _mentions(ref: ir.TypeRef, name: str) -> bool:
    if isinstance(ref, ir.TypeName):
        return ref.name == name
    if isinstance(ref, ir.StackType):
        return _mentions(ref.element, name)
    if isinstance(ref, ir.SpecializedType):
        return _mentions(ref.base, name) or any(_mentions(a, name) for a in ref.args)
    if isinstance(ref, ir.TupleType):
        return any(_mentions(e, name) for e in ref.elements)
    return False


def _reaches_final_state(states: dict) -> bool:
    """Can the parser get from `start` to accept or reject?"""
    seen, work = set(), ["start"]
    while work:
        name = work.pop()
        if name in ("accept", "reject"):
            return True
        if name in seen or name not in states:
            continue
        seen.add(name)
        transition = states[name].transition
        if transition is None:
            return True  # falls into reject
        if isinstance(transition, ir.PathExpression):
            work.append(transition.name)
        elif isinstance(transition, ir.SelectExpression):
            work.extend(case.state.name for case in transition.cases)
    return False


def _is_list_literal(expr: ir.Expression) -> bool:
    if isinstance(expr, ir.Mux):
        return _is_list_literal(expr.then) and _is_list_literal(expr.otherwise)
    return isinstance(expr, ir.ListExpression)


def _can_fall_through(stmt: ir.Statement) -> bool:
    """Could control reach the end of `stmt`?"""
    if isinstance(stmt, (ir.ReturnStatement, ir.ExitStatement)):
        return False
    if isinstance(stmt, ir.Block):
        return all(_can_fall_through(s) for s in stmt.statements)
    if isinstance(stmt, ir.IfStatement):
        return stmt.otherwise is None or _can_fall_through(stmt.then) or _can_fall_through(stmt.otherwise)
    if isinstance(stmt, ir.SwitchStatement):
        has_default = any(isinstance(c.label, ir.DefaultExpression) for c in stmt.cases)
        return not has_default or any(c.body is not None and _can_fall_through(c.body) for c in stmt.cases)
    return True

