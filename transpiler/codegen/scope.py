"""What P4 names mean in the C being generated, and the error for what it cannot translate yet."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from p4odp import types as t
from p4odp.diagnostics import Loc

__all__ = ["Unsupported", "Binding", "ExternInstance", "Scope"]


class Unsupported(Exception):
    """A construct this generator does not translate yet."""

    def __init__(self, loc: Loc, what: str) -> None:
        super().__init__(what)
        self.loc = loc
        self.what = what


@dataclass
class Binding:
    """What a P4 name means in the C code being generated."""

    c: str  # a C l-value or value expression
    type: t.Type
    const: Optional[int] = None


@dataclass
class ExternInstance:
    """An extern instance that keeps state (a register, a counter): storage in `struct p4_state`
    named `member`."""

    name: str
    kind: str
    member: str
    size: int
    element: Optional[t.Type] = None


@dataclass
class Scope:
    """The names a block (or an inlined body) declares, inside those of `parent`."""

    parent: Optional["Scope"]
    names: dict[str, object] = field(default_factory=dict)

    def lookup(self, name: str):
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None
