"""Lexical scopes of P4 names, and the symbols they bind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from p4odp.diagnostics import Loc
from p4odp.types import Type

__all__ = ["Symbol", "Scope"]


@dataclass(slots=True)
class Symbol:
    """What a name stands for.

    `kind` is one of: var, param, const, type, action, table, instance,
    function, extern_function, state, match_kind, value_set.
    """

    kind: str
    name: str
    type: Type
    loc: Loc
    decl: Any = None
    writable: bool = False
    value: Any = None  # the value of a compile-time constant, when known
    direction: str = ""


@dataclass(slots=True)
class Scope:
    parent: Optional["Scope"]
    names: dict[str, list[Symbol]] = field(default_factory=dict)

    def lookup(self, name: str) -> list[Symbol]:
        scope: Optional[Scope] = self
        while scope is not None:
            found = scope.names.get(name)
            if found:
                return found
            scope = scope.parent
        return []

    def lookup_one(self, name: str) -> Optional[Symbol]:
        found = self.lookup(name)
        return found[-1] if found else None

    def local(self, name: str) -> list[Symbol]:
        return self.names.get(name, [])

    def add(self, symbol: Symbol) -> None:
        self.names.setdefault(symbol.name, []).append(symbol)

    def root(self) -> "Scope":
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope
