"""Atomic regions: an action, or an `@atomic` block, that calls methods of an atomic extern's instances
(v1model's registers, Extern.atomic) holds their locks for the whole of its body.

This is BMv2's rule: an action locks the register arrays it uses while it runs, so that a read,
a change and a write back in one action lose no other thread's update; an `@atomic` block is one
region too (p4c makes its straight-line statements one action).  A region's locks are those of the
instances it uses, in the actions of the tables it applies as well, so that a region never takes
a lock inside another: it holds them all from its start, taken in one order program-wide (the
order of their declaration, Generator.locks), and leaves them wherever it leaves (its end, `exit`,
a `return`, a `break` or `continue` out of it).  A region that uses none costs nothing.

A directly called action is a block marked `@atomic` by call-expansion; a table's action is a
region when the table runs it (Tables.action_case); outside them, each run of straight-line
statements is one (Statements.block), as p4c makes it an action of its own."""

from __future__ import annotations

from typing import Callable

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import InternalError
from p4odp.transpiler.codegen.scope import ExternInstance
from p4odp.transpiler.passes._walk import walk

__all__ = ["Atomic", "is_atomic"]


def is_atomic(block: ir.Block) -> bool:
    """Whether `block` is an `@atomic` region."""
    return any(a.name == "atomic" for a in block.annotations)


class Atomic:
    """The locks of atomic regions (FunctionContext.held: those held where the C is being emitted)."""

    def atomic(self, body: ir.Node, emit_body: Callable[[], None]) -> None:
        """`emit_body()`, which emits the C of `body`, as one region: between taking and releasing
        the locks that `body` needs and the enclosing regions do not hold."""
        order = self.gen.locks
        needed = sorted(self.locks_of(body) - set(self.held), key=order.index)
        if not needed:
            emit_body()
            return
        if self.held:  # the enclosing region's locks cover those of every region inside it
            raise InternalError(f"a region inside another needs locks the outer one does not hold ({body.loc})")
        for lock in needed:
            self.emit(f"p4odp_state_lock(&STATE->{lock});")
        self.held = needed
        emit_body()
        self.release(0)
        self.held = []

    def release(self, keep: int) -> None:
        """Release the locks held but the first `keep`, in the reverse order (the C of leaving the
        regions that took them)."""
        for lock in reversed(self.held[keep:]):
            self.emit(f"p4odp_state_unlock(&STATE->{lock});")

    def locks_of(self, node: ir.Node) -> set[str]:
        """The locks of the atomic instances whose methods `node` calls, and the actions of the tables
        it applies."""
        locks: set[str] = set()
        for found in walk(node):
            if not (isinstance(found, ir.MethodCall) and isinstance(found.method, ir.Member)
                    and isinstance(found.method.expr, ir.PathExpression)):
                continue
            target = self.resolve(found.method.expr)
            if isinstance(target, ExternInstance) and target.lock:
                locks.add(target.lock)
            elif isinstance(target, ir.Table) and isinstance(found.method.expr.type, t.TableT):
                layout = self.gen.table_layouts.get(target.name)
                for action in layout.actions if layout is not None else ():
                    locks |= self.locks_of(self.bindings.lookup(action.action).body)
        return locks
