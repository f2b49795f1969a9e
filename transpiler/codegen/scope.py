"""What P4 names mean in the C being generated."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Optional

from p4odp import types as t
from p4odp.transpiler.passes.unique_names import NameTable

__all__ = ["Binding", "ExternInstance", "Bindings"]


@dataclass
class Binding:
    """What a P4 name means in the C code being generated."""

    c: str  # a C l-value or value expression
    type: t.Type
    const: Optional[int] = None


@dataclass
class ExternInstance:
    """An extern instance that keeps state (a register, a counter): storage in `struct p4_state`
    (shared by the workers) or `struct p4_worker_state` named `member`."""

    name: str
    kind: str
    member: str
    size: int
    element: Optional[t.Type] = None
    bytes: bool = False  # a meter of bytes (else of packets)
    lock: str = ""  # of an instance of an atomic extern (Extern.atomic): its lock's member in `struct p4_state`
    # A direct counter that counts where its count() is called (dpdk/psa.p4's count(pkt_len)), not
    # each hit of its table.
    counted_by_calls: bool = False


class Bindings:
    """What each name means in the C being generated.

    After unique-names and call-expansion a name is one declaration program-wide, so one flat
    table holds the C of every name (`names`: constants, variables, the blocks' parameters, the
    parameters of the actions tables run, extern instances); a name with no C of its own (an
    action, a table) means its declaration in the program's `NameTable`."""

    def __init__(self, table: NameTable) -> None:
        self.table = table
        self.names: dict[str, object] = {}

    def lookup(self, name: str, is_global: bool = False):
        found = self.names.get(name)
        return found if found is not None else self.table.get(name, is_global)

    @contextmanager
    def bound(self, name: str, binding: Binding) -> Iterator[None]:
        """Inside: `name` (one the generator makes up, with a `$`) means `binding`."""
        self.names[name] = binding
        try:
            yield
        finally:
            del self.names[name]
