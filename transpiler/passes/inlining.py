"""inlining: parser and control instances become part of the block that applies them.

C has no instances of parsers and controls, so this pass removes them, as
p4c's `Inline` does.  For each instance `Sub(args) s;` declared in a parser
or control:

* the constructor parameters of `Sub` are replaced by the instance's
  arguments (so constant-folding can fold what they decide; a control
  passed so is an instance of the caller's, applied where `Sub` applies it);
* its parameters and locals are hoisted into the caller, renamed `s.name`
  (a dot cannot occur in a P4 name, so nothing can clash): tables, actions
  and extern instances once per instance, with control-plane names
  `Caller.s.name` as p4c gives them;
* each `s.apply(args)` becomes a copy of its body between the copy-in of
  `in`/`inout` arguments (`out` ones start with their headers invalid, as
  do header locals) and the copy-out of `out`/`inout` ones.  A parameter
  always passed the same plain l-value, which no other argument overlaps,
  is replaced by that l-value instead: no copies, and an `exit` inside
  leaves it written as the spec's copy-out on exit would;
* in a control, a `return` of the inlined body sets a flag that skips the
  rest of it; so does an `exit` where parameters are copied, and the exit
  follows their copy-out (an `exit` inside an action the body calls still
  leaves at once);
* in a parser, the state that applies `s` is split there: it jumps to a
  copy of `s`'s states, whose `accept` continues in a new state that copies
  out and goes on with the rest of the state.

`T.apply(...)` of a parser or control type applies an instance of T that
the pass declares, named T (p4c's direct invocation).  A block that the
architecture's package `main` is given with constructor arguments
(`V1Switch(MyParser(false), ...)`) has them replaced first, as an instance's.

Names in the inlined code that mean top-level declarations are marked
`is_global`, so that a caller's local of the same name cannot capture them.
Arguments that name the caller's own declarations (an instance passed as a
constructor argument, a variable of the apply block) keep meaning them
wherever the inlined code lands, or are copied; where a declaration of the
inlined code would hide such a name, the pass says so instead.
Actions and functions stay where they are declared: call-expansion puts
their bodies where they are called.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional, Union

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc
from p4odp.transpiler.passes._build import ReturnRemover, bind_args
from p4odp.transpiler.passes._walk import main_instance, map_children, pipeline_blocks, walk
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["Inlining"]

# What a name of the inlined code becomes: a new name, or an expression (constructor arguments,
# the packet_in / packet_out the caller passes).
Replacement = Union[str, ir.Expression]


class InliningError(Exception):
    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


class Inlining:
    name = "inlining"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        try:
            program = _main_blocks_constructed(program)
        except InliningError as err:
            ctx.diags.error(err.loc, err.message)
            return program
        blocks = {d.name: d for d in program.declarations if isinstance(d, (ir.Parser, ir.Control))}
        flattener = _Flattener(blocks, ctx)
        declarations = []
        for decl in program.declarations:
            if isinstance(decl, (ir.Parser, ir.Control)) and _has_instances(decl, blocks):
                try:
                    decl = flattener.flatten(_with_ctor_params_renamed(decl))
                except InliningError as err:
                    ctx.diags.error(err.loc, err.message)
            declarations.append(decl)
        program = replace(program, declarations=tuple(declarations))
        _refuse_control_plane_name_clashes(program, ctx)
        return program


def _refuse_control_plane_name_clashes(program: ir.Program, ctx: PassContext) -> None:
    """Two tables, value sets or extern instances of one kind in the pipeline with one
    control-plane name (a control whose `@name(".x")` objects are instantiated twice): P4Runtime
    and simple_switch_CLI could not tell them apart, and p4c refuses them too.  Declarations
    have distinct names within one block (the front end checks): only inlining makes these.
    The copies of one action are one action to the control plane (as to p4c): each table runs
    its own."""
    seen: dict[tuple, ir.Declaration] = {}
    for block in pipeline_blocks(program):
        for decl in block.locals:
            if isinstance(decl, ir.Action) or not getattr(decl, "control_name", ""):
                continue
            kind = decl.type.name if isinstance(decl, ir.Instance) and isinstance(decl.type, t.ExternT) else \
                type(decl).__name__.lower()
            other = seen.setdefault((kind, decl.control_name), decl)
            if other is not decl:
                ctx.diags.error(decl.loc, f"{decl.control_name}: the control-plane name of both {kind}s {other.name} "
                                          f"and {decl.name} (an absolute @name, with a leading dot, in a control "
                                          "instantiated twice)")


def _main_blocks_constructed(program: ir.Program) -> ir.Program:
    """The program with each block that `main` is given with constructor arguments replaced by the
    block those make (_with_constructor_args) and `main` given it without arguments.  A block given
    twice so is refused: two blocks of one name."""
    main = main_instance(program)
    blocks = {d.name: d for d in program.declarations if isinstance(d, (ir.Parser, ir.Control))}
    made: dict[str, object] = {}
    args = []
    for arg in main.args if main is not None else ():
        value = arg.value
        decl = blocks.get(value.type_ref.name) if isinstance(value, ir.ConstructorCall) and \
            isinstance(value.type_ref, ir.TypeName) else None
        if decl is not None and decl.ctor_params:
            if decl.name in made:
                raise InliningError(value.loc, f"{decl.name} given to {main.name} twice with constructor arguments")
            made[decl.name], late = _with_constructor_args(decl, ir.Instance(value.loc, decl.name, value.type_ref,
                                                                              value.args, type=value.type))
            if late:
                raise InliningError(value.loc, f"{decl.name}: constructor arguments of {main.name} that are not "
                                               "constants")
            arg = replace(arg, value=replace(value, args=()))
        args.append(arg)
    if not made:
        return program
    declarations = [made.get(d.name, d) if isinstance(d, (ir.Parser, ir.Control)) else d
                    for d in program.declarations]
    declarations = [replace(d, args=tuple(args)) if d is main else d for d in declarations]
    return replace(program, declarations=tuple(declarations))


def _with_ctor_params_renamed(decl):
    """A top-level parser or control with its constructor parameters renamed `n.0`.  It is flattened as
    the others are, though only copies of it, made with values for them, ever run: unbound, they are
    passed on to its instances by name (`Sub(n) s`), and a name with a dot cannot be hidden by a
    declaration of the code inlined into it (an action parameter `n` of Sub's)."""
    if not decl.ctor_params:
        return decl
    renames = {p.name: f"{p.name}.0" for p in decl.ctor_params}
    decl = _renamed_block(decl, _Renamer(renames, mark_globals=False))
    return replace(decl, ctor_params=tuple(replace(p, name=renames[p.name]) for p in decl.ctor_params))


def _renamed_block(decl, renamer: "_Renamer"):
    """The parser or control `decl` with `renamer` applied to its locals and its body or states."""
    if isinstance(decl, ir.Control):
        decl = replace(decl, body=renamer.statement(decl.body))
    else:
        decl = replace(decl, states=tuple(renamer.state(s, {}) for s in decl.states))
    return replace(decl, locals=renamer.declarations(decl.locals))


def _has_instances(decl, blocks: dict) -> bool:
    return any(_instantiated(local, blocks) is not None for local in decl.locals) or \
        bool(_direct_instances(decl, blocks))


def _direct_instances(decl, blocks: dict) -> list[ir.Instance]:
    """`T.apply(...)` of a parser or control type T is an application of an instance of T with no
    constructor arguments (as p4c does, the instance is named T)."""
    names = {local.name for local in decl.locals}
    body = decl.body if isinstance(decl, ir.Control) else ir.Block(decl.loc, decl.states)
    found: dict[str, ir.Instance] = {}
    for node in walk(body):
        if isinstance(node, ir.MethodCall) and isinstance(node.method, ir.Member) and node.method.member == "apply":
            target = node.method.expr
            if isinstance(target, ir.PathExpression) and target.name in blocks and target.name not in names:
                type_ref = ir.TypeName(target.loc, target.name)
                found.setdefault(target.name, ir.Instance(target.loc, target.name, type_ref, (),
                                                          control_name=f"{decl.name}.{target.name}"))
    return list(found.values())


def _instantiated(local, blocks: dict):
    """The parser or control `local` instantiates, or None."""
    if not isinstance(local, ir.Instance):
        return None
    ref = local.type_ref
    name = ref.name if isinstance(ref, ir.TypeName) else ref.base.name if isinstance(ref, ir.SpecializedType) \
        else None
    return blocks.get(name)


class _Flattener:
    def __init__(self, blocks: dict, ctx: PassContext) -> None:
        self.blocks = blocks
        self.ctx = ctx
        self.depth = 0

    def flatten(self, decl):
        """`decl` with every parser or control instance in it inlined, recursively."""
        self.depth += 1
        try:
            if self.depth > len(self.blocks) + 1:  # instantiation cycles do not type-check; be safe anyway
                raise InliningError(decl.loc, f"{decl.name}: instantiates itself")
            if isinstance(decl, ir.Parser):  # before the arguments of the applies are looked at
                decl = _with_state_locals_hoisted(decl, self.instance_names(decl))
            locals_, hoisted = self.hoist(decl)
        finally:
            self.depth -= 1
        decl = replace(decl, locals=tuple(locals_))
        if isinstance(decl, ir.Control):
            return replace(decl, body=_ControlApplies(hoisted).block(decl.body))
        return replace(decl, states=_parser_states(decl, hoisted))

    def instance_names(self, decl) -> set[str]:
        """The names of the parser and control instances of `decl`, those `hoist` inlines."""
        return {local.name for local in (*decl.locals, *_direct_instances(decl, self.blocks))
                if _instantiated(local, self.blocks) is not None}

    def hoist(self, decl) -> tuple[list, dict]:
        """The locals of `decl` with its instances' hoisted in their place, and the instances by name."""
        locals_, hoisted = [], {}
        # An instance passed to another as a constructor argument is applied by that one too.
        passed = {arg.value.name for local in decl.locals if isinstance(local, ir.Instance)
                  for arg in local.args if isinstance(arg.value, ir.PathExpression)}
        scopes = _body_scopes(decl)
        for local in (*decl.locals, *_direct_instances(decl, self.blocks)):
            sub = _instantiated(local, self.blocks)
            if sub is None:
                locals_.append(local)
                continue
            if sub.type_params:
                raise InliningError(local.loc, f"{local.name}: instances of generic {sub.name} are not supported")
            if isinstance(sub, ir.Parser) != isinstance(decl, ir.Parser):
                kind = "parser" if isinstance(sub, ir.Parser) else "control"
                raise InliningError(local.loc, f"{local.name}: a {kind} cannot be applied here")
            local = replace(local, args=_resolved_in(decl, local.args))
            bound, ctor_values = _with_constructor_args(sub, local)
            inner = self.flatten(bound)
            instance = _Hoisted(local, inner, ctor_values, decl.name, _applies(decl, local.name),
                                may_alias=local.name not in passed, scopes=scopes)
            locals_.extend(instance.locals)
            hoisted[local.name] = instance
            self.ctx.report(f"inlined {sub.name} as {local.name} into {decl.name}", local.loc)
        return locals_, hoisted


def _resolved_in(decl, args: tuple) -> tuple:
    """Constructor arguments of an instance declared in `decl`, made free of the local constants of
    `decl` (they become their values) and with top-level names marked global.  What else they name
    is `decl`'s own: its constructor parameters, instances, and the names this pass made (with a dot,
    which no P4 name has: see `_with_constructor_args`)."""
    constants = {d.name: d.value for d in decl.locals if isinstance(d, ir.Constant)}
    declared = {d.name for d in decl.locals} | {p.name for p in (*decl.params, *decl.ctor_params)}

    def resolve(node: ir.Node) -> ir.Node:
        if isinstance(node, ir.PathExpression) and not node.is_global:
            if node.name in constants:
                return constants[node.name]
            return node if node.name in declared or "." in node.name else replace(node, is_global=True)
        return map_children(node, resolve)

    return tuple(replace(arg, value=resolve(arg.value)) if arg.value is not None else arg for arg in args)


def _with_constructor_args(sub, instance: ir.Instance) -> tuple:
    """`sub` as `instance` makes it, and the values of the constructor parameters still in it, by name.

    A value that names nothing of the caller's (a literal, top-level names) replaces its parameter at
    once, so that what it decides folds inside `sub`.  One that names a declaration of the caller
    (`_resolved_in`: a caller's constructor parameter passed on, as in `Sub(n) s`, or an instance
    passed as in `Sub(counter) s`) replaces it only when the flattened `sub` is renamed into the
    caller (`_Hoisted`), where it means what it meant: no renaming inside `sub` can touch it.  A
    constructor call passed (`Sub(Other()) s`) is an instance of `sub`'s own, named after the
    parameter; its arguments that name the caller's declarations are passed on in the same way,
    through names this pass makes (`param.0`).
    """
    if not sub.ctor_params:
        return sub, {}
    values = bind_args(sub.ctor_params, instance.args)
    mapping: dict[str, Replacement] = {}
    owned = []  # `Sub(Other()) s`: the parameter names an instance of Other that belongs to s
    for param in sub.ctor_params:
        value = values.get(param.name)
        if value is None:
            raise InliningError(instance.loc, f"{instance.name}: no value for the constructor parameter "
                                              f"{param.name}")
        if isinstance(value, ir.ConstructorCall):
            args = _owned_args(value, param.name, mapping)
            owned.append(ir.Instance(value.loc, param.name, value.type_ref, args, type=value.type,
                                     control_name=f"{sub.name}.{param.name}"))
        else:
            mapping[param.name] = _typed_as(value, param.type)
    closed = {name: value for name, value in mapping.items() if not _free_names(value)}
    if closed:
        sub = _renamed_block(sub, _Renamer(closed, mark_globals=False))
    late = {name: value for name, value in mapping.items() if name not in closed}
    ctor_params = tuple(p for p in sub.ctor_params if p.name in late)
    return replace(sub, locals=(*owned, *sub.locals), ctor_params=ctor_params), late


def _owned_args(call: ir.ConstructorCall, prefix: str, mapping: dict) -> tuple:
    """The arguments of `call`, which makes an instance of `sub`'s own (see `_with_constructor_args`),
    each that names a declaration of the caller replaced by a name `prefix.i` added to `mapping`."""
    args = []
    for i, arg in enumerate(call.args):
        value, name = arg.value, f"{prefix}.{i}"  # a digit after a dot: no other name the pass makes
        if isinstance(value, ir.ConstructorCall):
            value = replace(value, args=_owned_args(value, name, mapping))
        elif value is not None and _free_names(value):
            mapping[name] = value
            value = ir.PathExpression(value.loc, name, type=value.type)
        args.append(replace(arg, value=value))
    return tuple(args)


def _free_names(expr: ir.Expression) -> set[str]:
    """The names in `expr` that are not marked global."""
    return {n.name for n in walk(expr) if isinstance(n, ir.PathExpression) and not n.is_global}


def _typed_as(value: ir.Expression, typ) -> ir.Expression:
    """`value` with the type of the parameter it is passed to (an untyped literal gets its width)."""
    if isinstance(value, ir.IntLiteral) and isinstance(value.type, t.InfInt) and isinstance(typ, t.Bits):
        return replace(value, type=typ)
    return value


class _Hoisted:
    """A flattened parser or control instance, its parameters and locals renamed for the caller.

    A parameter is a variable of the caller's (`s.p`), copied in and out at
    each apply, unless every apply passes it the same plain l-value that no
    other argument overlaps: then the argument itself stands for it (the
    effect is the same, without the copies).  A parameter without direction
    (a packet, an extern, a compile-time value) is the argument itself; every
    apply must pass the same one, as p4c requires.
    """

    def __init__(self, instance: ir.Instance, sub, ctor_values: dict, caller_prefix: str, calls: list,
                 may_alias: bool, scopes: dict) -> None:
        self.instance = instance
        self.sub = sub
        name = instance.name
        cp_prefix = instance.control_name or f"{caller_prefix}.{name}"
        sub_prefix = sub.name
        self.aliases = _aliases(sub, calls, scopes) if may_alias else {}
        self.renames: dict[str, Replacement] = {**ctor_values, **self.aliases,
                                                **_by_value(sub, calls, name, scopes)}
        for p in sub.params:
            if not _is_by_value(p) and p.name not in self.aliases:
                self.renames[p.name] = f"{name}.{p.name}"
        for local in sub.locals:
            self.renames[local.name] = f"{name}.{local.name}"
        self.renamer = renamer = _Renamer(self.renames)
        self.locals: list = [ir.Variable(p.loc, self.renames[p.name], p.type_ref, type=p.type)
                             for p in sub.params if isinstance(self.renames.get(p.name), str)]
        self.var_inits: list[ir.Statement] = []
        for local in sub.locals:
            new = renamer.declaration(local)
            new = replace(new, name=self.renames[local.name])
            if isinstance(new, ir.Variable):
                target = ir.PathExpression(new.loc, new.name, type=new.type)
                if new.init is not None:
                    self.var_inits.append(ir.Assignment(new.loc, target, new.init))
                else:
                    self.var_inits.extend(_header_resets(target))
                new = replace(new, init=None)
            if hasattr(new, "control_name") and new.control_name:
                new = replace(new, control_name=_control_name(new.control_name, sub_prefix, cp_prefix))
            self.locals.append(new)

    def copy_in(self, call: ir.MethodCall) -> list[ir.Statement]:
        values = bind_args(self.sub.params, call.args)
        out: list[ir.Statement] = []
        for p in self.sub.params:
            if p.name in self.aliases:
                if p.direction == "out":
                    out.extend(_header_resets(self.aliases[p.name]))
                continue
            if not isinstance(self.renames.get(p.name), str):
                continue
            local = ir.PathExpression(p.loc, self.renames[p.name], type=p.type)
            value = values.get(p.name)
            if p.direction == "out":
                out.extend(_header_resets(local))
            elif value is not None and not isinstance(value, ir.DontCare):
                out.append(ir.Assignment(call.loc, local, value))
        return out + list(self.var_inits)

    def copy_out(self, call: ir.MethodCall) -> list[ir.Statement]:
        values = bind_args(self.sub.params, call.args)
        out: list[ir.Statement] = []
        for p in self.sub.params:
            value = values.get(p.name)
            if p.name in self.aliases:
                continue
            if p.direction in ("out", "inout") and value is not None and not isinstance(value, ir.DontCare):
                out.append(ir.Assignment(call.loc, value, ir.PathExpression(p.loc, self.renames[p.name],
                                                                            type=p.type)))
        return out


def _is_by_value(param: ir.Parameter) -> bool:
    return param.direction == "" or isinstance(param.type, t.ExternT)


def _by_value(sub, calls: list, instance: str, scopes: dict) -> dict[str, ir.Expression]:
    """The parameters of `sub` without direction -> the argument every apply passes them (the constants
    of the caller's body it names replaced by their values: it stands in the hoisted actions too)."""
    values = {}
    for p in sub.params:
        if not _is_by_value(p):
            continue
        args = [_without_body_names(a, scopes.get(id(call), {}), f"{instance}.apply")
                for call in calls for a in (bind_args(sub.params, call.args).get(p.name),) if a is not None]
        if len({_value_key(a) for a in args}) > 1:
            raise InliningError(calls[-1].loc, f"{instance}.apply: {p.name} has no direction, so every apply "
                                               f"must pass it the same value")
        if args:
            values[p.name] = args[0]
    return values


def _value_key(expr: ir.Expression):
    """What makes two arguments the same: the l-value they name, or their literal value."""
    path = _lvalue_path(expr)
    if path is not None:
        return path
    if isinstance(expr, (ir.IntLiteral, ir.BoolLiteral)):
        return type(expr).__name__, expr.value
    return id(expr)


def _aliases(sub, calls: list, scopes: dict) -> dict[str, ir.Expression]:
    """The parameters of `sub` that can be replaced by their argument: parameter name -> argument.
    An argument rooted at a name declared in the caller's body (`scopes`) is not one: it would stand
    in the hoisted actions and tables too, where that name is not visible."""
    if not calls:
        return {}
    inner = {n.name for local in sub.locals for n in walk(local) if isinstance(n, (ir.Parameter, ir.Variable,
                                                                                    ir.Constant))}
    body = sub.body if isinstance(sub, ir.Control) else ir.Block(sub.loc, sub.states)
    inner |= {n.name for n in walk(body) if isinstance(n, (ir.Variable, ir.Constant))}
    bound = [bind_args(sub.params, call.args) for call in calls]
    params = [p for p in sub.params if not _is_by_value(p)]
    aliases = {}
    for p in params:
        paths = {_lvalue_path(values.get(p.name)) for values in bound}
        if len(paths) != 1 or None in paths:
            continue
        (path,) = paths
        if path[0] in inner:  # a name declared inside `sub` would capture the argument
            continue
        if any(path[0] in scopes.get(id(call), {}) for call in calls):
            continue
        if any(_overlaps(p, path, params, values) for values in bound):
            continue
        aliases[p.name] = bound[0][p.name]
    return aliases


def _body_scopes(decl) -> dict[int, dict]:
    """For each call in the apply block or the states of `decl`, by id: the declarations of the block or
    state visible there (not `decl`'s locals), name -> (declaration, the same as visible at it)."""
    scopes: dict[int, dict] = {}

    def sequence(statements: tuple, scope: dict) -> dict:
        for stmt in statements:
            visit(stmt, scope)
            if isinstance(stmt, ir.DeclarationStatement):
                scope = {**scope, stmt.decl.name: (stmt.decl, scope)}
        return scope

    def visit(node: ir.Node, scope: dict) -> ir.Node:
        if isinstance(node, ir.MethodCall):
            scopes[id(node)] = scope
        if isinstance(node, ir.Block):
            sequence(node.statements, scope)
        elif isinstance(node, ir.ParserState):
            sequence(node.components, scope)
        elif isinstance(node, ir.ForStatement):
            inner = sequence(node.init, scope)
            for child in (node.cond, *node.updates, node.body):
                if child is not None:
                    visit(child, inner)
        elif isinstance(node, ir.ForInStatement):
            visit(node.collection, scope)
            visit(node.body, {**scope, node.var.name: (node.var, scope)})
        else:
            map_children(node, lambda child: visit(child, scope))
        return node

    for part in (decl.body,) if isinstance(decl, ir.Control) else decl.states:
        visit(part, {})
    return scopes


def _without_body_names(expr: ir.Expression, scope: dict, where: str) -> ir.Expression:
    """`expr`, passed to a parameter without direction, with the constants of the caller's body that it
    names (`scope`, see `_body_scopes`) replaced by their values."""
    def visit(node: ir.Node) -> ir.Node:
        if isinstance(node, ir.PathExpression) and not node.is_global and node.name in scope:
            declared, outer = scope[node.name]
            if not isinstance(declared, ir.Constant):
                raise InliningError(node.loc, f"{where}: {node.name} is passed to a parameter without direction, "
                                              "so it must be a compile-time value")
            return _typed_as(_without_body_names(declared.value, outer, where), declared.type)
        return map_children(node, visit)

    return visit(expr)


def _overlaps(param: ir.Parameter, path: tuple, params: list, values: dict) -> bool:
    """Could writing `param` (or another argument) change what another argument (or `param`) sees?"""
    writes = ("out", "inout")
    for other in params:
        if other is param or (param.direction not in writes and other.direction not in writes):
            continue
        value = values.get(other.name)
        other_path = _lvalue_path(value)
        if other_path is None:
            if other.direction in writes and value is not None:
                return True  # an l-value with a computed index: it may be anywhere in its stack
            continue
        common = min(len(path), len(other_path))
        if path[:common] == other_path[:common]:
            return True
    return False


def _lvalue_path(expr) -> Optional[tuple]:
    """`hdr.h.a` as ("hdr", "h", "a"), `s[1]` as ("s", "[1]"); None for anything else."""
    if isinstance(expr, ir.PathExpression) and not expr.is_global:
        return (expr.name,)
    if isinstance(expr, ir.Member) and not isinstance(expr.expr.type, t.TypeT):
        base = _lvalue_path(expr.expr)
        return base + (expr.member,) if base is not None else None
    if isinstance(expr, ir.ArrayIndex) and isinstance(expr.index, ir.IntLiteral):
        base = _lvalue_path(expr.expr)
        return base + (f"[{expr.index.value}]",) if base is not None else None
    return None


def _control_name(name: str, sub_prefix: str, cp_prefix: str) -> str:
    """The control-plane name of an object of an inlined block: `Sub.t` becomes `Caller.s.t`.
    Names made absolute with `@name(".x")` stay as they are."""
    if name.startswith(sub_prefix + "."):
        return f"{cp_prefix}.{name[len(sub_prefix) + 1:]}"
    return name


def _header_resets(target: ir.Expression) -> list[ir.Statement]:
    """`setInvalid()` of every header in `target` (an `out` parameter or a local starts so)."""
    typ = target.type
    if isinstance(typ, t.StructLike) and typ.kind == "header":
        method = ir.Member(target.loc, target, "setInvalid", type=t.Void())
        return [ir.MethodCallStatement(target.loc, ir.MethodCall(target.loc, method, type=t.Void()))]
    if isinstance(typ, t.StructLike):
        out = []
        for f in typ.fields:
            out.extend(_header_resets(ir.Member(target.loc, target, f.name, type=f.type)))
        return out
    if isinstance(typ, t.Stack):
        out = []
        for i in range(typ.size):
            index = ir.IntLiteral(target.loc, i, type=t.InfInt())
            out.extend(_header_resets(ir.ArrayIndex(target.loc, target, index, type=typ.element)))
        return out
    return []


def _applies(decl, instance: str) -> list[ir.MethodCall]:
    """The calls `instance.apply(...)` in the body or states of `decl`."""
    body = decl.body if isinstance(decl, ir.Control) else ir.Block(decl.loc, decl.states)
    return [n for n in walk(body) if isinstance(n, ir.MethodCall) and isinstance(n.method, ir.Member)
            and n.method.member == "apply" and isinstance(n.method.expr, ir.PathExpression)
            and n.method.expr.name == instance]


def _apply_target(stmt: ir.Statement, hoisted: dict) -> Optional[tuple]:
    """(instance, call) when `stmt` is `s.apply(...)` of an inlined instance `s`."""
    if not isinstance(stmt, ir.MethodCallStatement):
        return None
    method = stmt.call.method
    if isinstance(method, ir.Member) and method.member == "apply" and isinstance(method.expr, ir.PathExpression):
        instance = hoisted.get(method.expr.name)
        if instance is not None:
            return instance, stmt.call
    return None


class _ControlApplies:
    """Replaces each `s.apply(...)` in a control's body by the inlined body of `s`."""

    def __init__(self, hoisted: dict) -> None:
        self.hoisted = hoisted
        self.count = 0

    def block(self, block: ir.Block) -> ir.Block:
        return self.statement(block)

    def statement(self, stmt: ir.Statement) -> ir.Statement:
        target = _apply_target(stmt, self.hoisted)
        if target is not None:
            return self.inline(*target)
        return map_children(stmt, lambda child: child if isinstance(child, ir.Expression) else self.statement(child))

    def inline(self, instance: _Hoisted, call: ir.MethodCall) -> ir.Block:
        self.count += 1
        body = instance.renamer.statement(instance.sub.body)
        copy_out = instance.copy_out(call)
        exits = bool(copy_out) and any(isinstance(n, ir.ExitStatement) for n in walk(body))
        name = instance.instance.name
        remover = ReturnRemover(f"{name}.returned.{self.count}", f"{name}.exited.{self.count}" if exits else None,
                                body.loc)
        if remover.needed(body):
            body = remover.block(body)
        statements = [*instance.copy_in(call), *body.statements, *copy_out]
        if exits:  # the spec copies out before an exit leaves
            statements.append(ir.IfStatement(call.loc, remover.exited, ir.ExitStatement(call.loc)))
        # A control passed as a constructor argument is an instance of the caller's: apply it here too.
        return self.statement(ir.Block(call.loc, tuple(statements)))


def _with_state_locals_hoisted(parser: ir.Parser, instances: set[str]) -> ir.Parser:
    """`parser` with the declarations of each state that applies one of `instances` made parser
    locals (`_without_declarations`), so that every piece of the state split there sees them, and so
    do the arguments of the applies when they stand for the sub-parser's parameters."""
    states, declared = [], []
    targets = dict.fromkeys(instances, True)
    for state in parser.states:
        if any(_apply_target(stmt, targets) is not None for stmt in state.components):
            state, found = _without_declarations(state)
            declared.extend(found)
        states.append(state)
    if not declared:
        return parser
    return replace(parser, locals=(*parser.locals, *declared), states=tuple(states))


def _parser_states(parser: ir.Parser, hoisted: dict) -> tuple:
    """The states of `parser`, each state that applies a sub-parser split where it does."""
    states = []
    count = 0
    for state in parser.states:
        name, current = state.name, []
        for stmt in state.components:
            target = _apply_target(stmt, hoisted)
            if target is None:
                _check_no_nested_apply(stmt, hoisted)
                current.append(stmt)
                continue
            instance, call = target
            count += 1
            prefix = f"{instance.instance.name}.{count}"
            after = f"{state.name}.after.{count}"
            renamer = instance.renamer
            state_names = {s.name: f"{prefix}.{s.name}" for s in instance.sub.states}
            state_names.update(accept=after, reject="reject")
            start = ir.PathExpression(call.loc, state_names["start"], type=t.StateT())
            states.append(replace(state, name=name, components=tuple(current + instance.copy_in(call)),
                                  transition=start))
            states.extend(renamer.state(replace(s, name=state_names[s.name]), state_names)
                          for s in instance.sub.states)
            name, current = after, instance.copy_out(call)
        states.append(replace(state, name=name, components=tuple(current)))
    return tuple(states)


def _without_declarations(state: ir.ParserState) -> tuple[ir.ParserState, list]:
    """`state` with its declarations made parser locals named `state.name`, initializers left as
    assignments where the declarations were."""
    renames, declared, components = {}, [], []
    for stmt in state.components:
        if isinstance(stmt, ir.DeclarationStatement) and isinstance(stmt.decl, (ir.Variable, ir.Constant)):
            decl = stmt.decl
            renames[decl.name] = f"{state.name}.{decl.name}"
            if isinstance(decl, ir.Variable):
                declared.append(replace(decl, name=renames[decl.name], init=None))
                if decl.init is not None:
                    target = ir.PathExpression(decl.loc, decl.name, type=decl.type)
                    components.append(ir.Assignment(stmt.loc, target, decl.init))
                continue
            declared.append(replace(decl, name=renames[decl.name]))
            continue
        components.append(stmt)
    renamer = _Renamer(renames, mark_globals=False)
    return renamer.state(replace(state, components=tuple(components)), {}), declared


def _check_no_nested_apply(stmt: ir.Statement, hoisted: dict) -> None:
    for node in walk(stmt):
        if isinstance(node, ir.Statement) and _apply_target(node, hoisted) is not None:
            raise InliningError(node.loc, "a sub-parser applied inside a conditional statement is not supported")


class _Captured:
    """What a name of the inlined code stands for where a declaration hides a name its replacement uses."""

    def __init__(self, hidden: set) -> None:
        self.hidden = hidden


class _Renamer:
    """Renames the names an inlined block declares; marks the names it does not declare as global.

    Scopes are followed: a declaration inside (a block's local, an action's
    parameter) hides the renamed name of the same spelling from there on.
    """

    def __init__(self, mapping: dict[str, Replacement], mark_globals: bool = True) -> None:
        self.mapping = mapping
        self.mark_globals = mark_globals

    def hiding(self, names) -> "_Renamer":
        """The renamer inside the scope of declarations of `names`: they mean themselves there, and an
        expression that names one of them cannot stand for anything there (it would mean the new one)."""
        names = set(names)
        mapping = {name: _Captured(hidden) if isinstance(new, ir.Expression) and
                   (hidden := _free_names(new) & names) else new for name, new in self.mapping.items()}
        mapping.update((name, name) for name in names)
        return _Renamer(mapping, self.mark_globals)

    def expression(self, expr: ir.Node) -> ir.Node:
        if isinstance(expr, ir.PathExpression):
            return self.path(expr)
        if isinstance(expr, ir.ActionRef):
            expr = map_children(expr, self.expression)
            new = self.mapping.get(expr.name)
            if isinstance(new, str):
                return replace(expr, name=new)
            return replace(expr, is_global=True) if self.mark_globals and new is None else expr
        if isinstance(expr, ir.Statement):
            return self.statement(expr)
        if isinstance(expr, ir.Declaration) and not isinstance(expr, ir.TableProperty):
            return self.declaration(expr)
        return map_children(expr, self.expression)

    def path(self, expr: ir.PathExpression) -> ir.Expression:
        if expr.is_global:
            return expr
        new = self.mapping.get(expr.name)
        if new is None:
            return replace(expr, is_global=True) if self.mark_globals else expr
        if isinstance(new, str):
            return replace(expr, name=new)
        if isinstance(new, _Captured):
            raise InliningError(expr.loc, f"{expr.name} stands for an argument that names "
                                          f"{', '.join(sorted(new.hidden))}, which a declaration here hides: "
                                          "inlining this is not supported; rename one of them")
        return new

    def declaration(self, decl):
        if isinstance(decl, (ir.Action, ir.Function)):
            inner = self.hiding(p.name for p in decl.params)
            return replace(decl, params=tuple(inner.expression(p) for p in decl.params),
                           body=inner.statement(decl.body))
        return map_children(decl, self.expression)

    def declarations(self, decls: tuple) -> tuple:
        return tuple(self.declaration(d) for d in decls)

    def statement(self, stmt: ir.Statement) -> ir.Statement:
        if isinstance(stmt, ir.Block):
            return replace(stmt, statements=self.sequence(stmt.statements))
        if isinstance(stmt, ir.ForStatement):
            init, inner = self.sequence_with_scope(stmt.init)
            return replace(stmt, init=init, cond=inner.expression(stmt.cond) if stmt.cond else None,
                           updates=tuple(inner.statement(u) for u in stmt.updates), body=inner.statement(stmt.body))
        if isinstance(stmt, ir.ForInStatement):
            inner = self.hiding([stmt.var.name])
            return replace(stmt, var=self.declaration(stmt.var), collection=self.expression(stmt.collection),
                           body=inner.statement(stmt.body))
        return map_children(stmt, self.expression)

    def sequence(self, stmts: tuple) -> tuple:
        return self.sequence_with_scope(stmts)[0]

    def sequence_with_scope(self, stmts: tuple) -> tuple:
        """The statements renamed, and the renamer in force after them (their declarations hide names)."""
        out, current = [], self
        for stmt in stmts:
            out.append(current.statement(stmt))
            if isinstance(stmt, ir.DeclarationStatement):
                current = current.hiding([stmt.decl.name])
        return tuple(out), current

    def state(self, state: ir.ParserState, state_names: dict) -> ir.ParserState:
        components, inner = self.sequence_with_scope(state.components)
        transition = state.transition
        if isinstance(transition, ir.PathExpression):
            transition = replace(transition, name=state_names.get(transition.name, transition.name))
        elif isinstance(transition, ir.SelectExpression):
            cases = tuple(replace(c, keyset=inner.expression(c.keyset),
                                  state=replace(c.state, name=state_names.get(c.state.name, c.state.name)))
                          for c in transition.cases)
            transition = replace(transition, keys=tuple(inner.expression(k) for k in transition.keys), cases=cases)
        return replace(state, components=components, transition=transition)
