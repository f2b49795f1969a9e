"""dead-code: remove what can never run or is never used.

What it removes, each removal reported with its position:

* statements after `return`, `exit`, `break` or `continue` in the same block
  (and after an `if` whose two branches both end so);
* the branch an `if` with a literal condition never takes (constant-folding
  makes the literals; this pass only trusts `true` and `false` as written);
* parser states that no chain of transitions reaches from `start`;
* tables that are never applied and parser value sets no select uses, but
  those the control plane sees (`PassResult.control_plane`: a table applied
  only after `exit` is listed in P4Info, as p4c lists it, so the switch keeps
  it: entries are written to it and read back, and never looked up);
* actions that no table lists and nothing calls, in controls and at the top
  level;
* top-level functions that nothing calls;
* local variables (of controls, parsers and blocks) that are neither read
  nor written, unless their initializer contains a call.

Removing one thing can leave another unused (the actions of a table never
applied), so it sweeps until nothing more goes.  Uses are counted by name, so
a name used anywhere in its scope keeps every declaration it could mean: the
pass may keep something unused, never the reverse.

What it keeps: everything declared by the architecture files (core.p4,
v1model.p4: `NoAction`, the default action of tables without one, among
them), types, externs and extern functions, constants, instances, the
parser, control and package declarations and `main`.  It does not
remove assignments to variables nobody reads, nor the cases of a `switch` on
a constant.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Optional

from p4odp import ir
from p4odp.transpiler.passes._walk import (has_call, is_architecture_decl, map_children, prune_if,
                                           referenced_names, terminates)
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["DeadCode"]

# The implicit default action of a table without `default_action` (P4_16 spec, 14.2.1.3).
_ALWAYS_KEPT = ("NoAction",)


class DeadCode:
    name = "dead-code"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        program = _Unreachable(ctx).rewrite(program)
        program = _remove_unreachable_states(program, ctx)
        while True:
            swept = _Unused(ctx).program(program)
            if swept is program:
                return program
            program = swept


# ----------------------------------------------------------------------
# Statements that never run


class _Unreachable:
    def __init__(self, ctx: PassContext) -> None:
        self.ctx = ctx
        # The EmptyStatements standing for pruned ifs, by id (held here so that no id is reused).
        self.pruned: dict[int, ir.Statement] = {}

    def rewrite(self, node: ir.Node) -> ir.Node:
        if isinstance(node, (ir.Expression, ir.TableProperty)):
            return node  # no statements inside
        node = map_children(node, self.rewrite)
        if isinstance(node, ir.IfStatement) and isinstance(node.cond, ir.BoolLiteral):
            return self.prune(node)
        if isinstance(node, ir.Block):
            statements = self.block(node.statements)
            return replace(node, statements=statements) if statements is not node.statements else node
        if isinstance(node, ir.ParserState):
            components = self.block(node.components)
            return replace(node, components=components) if components is not node.components else node
        return node

    def prune(self, stmt: ir.IfStatement) -> ir.Statement:
        never = stmt.otherwise if stmt.cond.value else stmt.then
        if never is not None:
            what = "else" if stmt.cond.value else "then"
            self.ctx.report(f"removed the {what} branch of if ({'true' if stmt.cond.value else 'false'}), "
                            "never taken", never.loc)
        taken = prune_if(stmt)
        if taken is None or isinstance(taken, ir.EmptyStatement):
            empty = ir.EmptyStatement(stmt.loc)
            self.pruned[id(empty)] = empty
            return empty
        return taken

    def block(self, statements: tuple) -> tuple:
        out = []
        for i, stmt in enumerate(statements):
            if id(stmt) in self.pruned:
                continue
            out.append(stmt)
            if terminates(stmt) and i + 1 < len(statements):
                rest = statements[i + 1:]
                self.ctx.report(f"removed {len(rest)} statement(s) after {_ending(stmt)}, never reached",
                                rest[0].loc)
                break
        if len(out) == len(statements):
            return statements
        return tuple(out)


def _ending(stmt: ir.Statement) -> str:
    words = {ir.ReturnStatement: "return", ir.ExitStatement: "exit", ir.BreakStatement: "break",
             ir.ContinueStatement: "continue"}
    if type(stmt) in words:
        return words[type(stmt)]
    return "a statement that always ends the block"


# ----------------------------------------------------------------------
# Parser states


def _remove_unreachable_states(program: ir.Program, ctx: PassContext) -> ir.Program:
    decls = []
    changed = False
    for decl in program.declarations:
        if isinstance(decl, ir.Parser):
            reached = _reachable_states(decl)
            kept = tuple(s for s in decl.states if s.name in reached)
            if len(kept) != len(decl.states):
                for state in decl.states:
                    if state.name not in reached:
                        ctx.report(f"removed parser state {decl.name}.{state.name}, unreachable from start",
                                   state.loc)
                decl = replace(decl, states=kept)
                changed = True
        decls.append(decl)
    return replace(program, declarations=tuple(decls)) if changed else program


def _reachable_states(parser: ir.Parser) -> set[str]:
    states = {s.name: s for s in parser.states}
    seen: set[str] = set()
    work = ["start"]
    while work:
        name = work.pop()
        if name in seen or name not in states:
            continue
        seen.add(name)
        transition = states[name].transition
        if isinstance(transition, ir.PathExpression):
            work.append(transition.name)
        elif isinstance(transition, ir.SelectExpression):
            work.extend(case.state.name for case in transition.cases)
    return seen


# ----------------------------------------------------------------------
# Declarations nobody uses


class _Unused:
    """One sweep; returns the same program object when nothing was removed.

    A declaration is unused when the uses of its name in its scope, less those
    inside itself (a table may name itself), come to zero."""

    def __init__(self, ctx: PassContext) -> None:
        self.ctx = ctx
        objects = ctx.result.control_plane
        self.control_plane_locals = objects.local_names() if objects is not None else frozenset()

    def program(self, program: ir.Program) -> ir.Program:
        own = [referenced_names(d) for d in program.declarations]
        uses = _total(own)
        decls = []
        changed = False
        for decl, refs in zip(program.declarations, own):
            if isinstance(decl, (ir.Action, ir.Function)) and not is_architecture_decl(decl) and \
                    decl.name not in _ALWAYS_KEPT and uses[decl.name] - refs[decl.name] <= 0:
                kind = "action" if isinstance(decl, ir.Action) else "function"
                self.ctx.report(f"removed {kind} {_name(decl)}, never used", decl.loc)
                changed = True
                continue
            new = self.container(decl)
            changed |= new is not decl
            decls.append(new)
        return replace(program, declarations=tuple(decls)) if changed else program

    def container(self, decl):
        """A control or parser without its unused locals, and with its blocks swept of unused variables."""
        if isinstance(decl, ir.Control):
            locals_ = self.locals(decl, (decl.body,))
            body = self.blocks(decl.body)
            if locals_ is decl.locals and body is decl.body:
                return decl
            return replace(decl, locals=locals_, body=body)
        if isinstance(decl, ir.Parser):
            locals_ = self.locals(decl, decl.states)
            states = tuple(self.blocks(s) for s in decl.states)
            if locals_ is decl.locals and all(a is b for a, b in zip(states, decl.states)):
                return decl
            return replace(decl, locals=locals_, states=states)
        if isinstance(decl, (ir.Action, ir.Function)):
            return self.blocks(decl)
        return decl

    def locals(self, owner, rest: tuple) -> tuple:
        """The locals of `owner` that its locals or `rest` (its body, its states) use."""
        own = [referenced_names(d) for d in owner.locals]
        uses = _total(own + [referenced_names(*rest)])
        kept = []
        for local, refs in zip(owner.locals, own):
            if _removable(local) and uses[local.name] - refs[local.name] <= 0 and \
                    local.name not in self.control_plane_locals:
                self.ctx.report(f"removed {_what(local, owner)}, {_why(local)}", local.loc)
                continue
            kept.append(self.blocks(local) if isinstance(local, ir.Action) else local)
        if len(kept) == len(owner.locals) and all(a is b for a, b in zip(kept, owner.locals)):
            return owner.locals
        return tuple(kept)

    def blocks(self, node: ir.Node) -> ir.Node:
        """`node` with the unused variables declared in its blocks (and parser states) removed."""
        if isinstance(node, ir.Expression):
            return node
        node = map_children(node, self.blocks)
        if isinstance(node, ir.Block):
            statements = self.declarations(node.statements, None)
            return replace(node, statements=statements) if statements is not node.statements else node
        if isinstance(node, ir.ParserState):
            components = self.declarations(node.components, node.transition)
            return replace(node, components=components) if components is not node.components else node
        return node

    def declarations(self, statements: tuple, after: Optional[ir.Node]) -> tuple:
        """`statements` without the variables that nothing after their declaration (nor `after`) uses."""
        if not any(_local_variable(s) for s in statements):
            return statements
        later = referenced_names(after)  # the uses after the statement at hand, built from the end
        keep, removed = [], []
        for stmt in reversed(statements):
            decl = _local_variable(stmt)
            if decl is not None and later[decl.name] == 0:
                removed.append(decl)
                continue
            keep.append(stmt)
            later.update(referenced_names(stmt))
        for decl in reversed(removed):
            self.ctx.report(f"removed variable {decl.name}, never read nor written", decl.loc)
        return statements if not removed else tuple(reversed(keep))


def _local_variable(stmt: ir.Statement) -> Optional[ir.Variable]:
    """The variable `stmt` declares, if it is one that could go unused."""
    decl = stmt.decl if isinstance(stmt, ir.DeclarationStatement) else None
    return decl if isinstance(decl, ir.Variable) and _removable(decl) else None


def _removable(decl) -> bool:
    """Could `decl` go if unused?  Tables, actions, value sets, and variables whose initializer calls nothing."""
    if isinstance(decl, ir.Variable):
        return decl.init is None or not has_call(decl.init)
    return isinstance(decl, (ir.Action, ir.Table, ir.ValueSet)) and decl.name not in _ALWAYS_KEPT


def _total(counters: list) -> Counter:
    total: Counter = Counter()
    for c in counters:
        total.update(c)
    return total


def _name(decl) -> str:
    return getattr(decl, "control_name", "") or decl.name


def _what(local, owner) -> str:
    if isinstance(local, ir.Variable):
        return f"variable {owner.name}.{local.name}"
    kind = {ir.Action: "action", ir.Table: "table", ir.ValueSet: "value set"}[type(local)]
    return f"{kind} {_name(local)}"


def _why(local) -> str:
    if isinstance(local, ir.Variable):
        return "never read nor written"
    if isinstance(local, ir.Table):
        return "never applied"
    return "never used"
