"""P4Runtime ids and aliases as p4c assigns them (control-plane/p4RuntimeSymbolTable.cpp).

An id is the entity type's prefix byte (P4Ids.Prefix in p4info.proto) over 24 bits of the
Jenkins one-at-a-time hash of the fully qualified name; a name's `@id` is taken as given, the
prefix added.  The names without one take theirs in byte order, each moving up past ids
already taken (linear probing), so the ids of a program do not depend on declaration order.
An alias is the shortest suffix of dot-separated components that no other name ends with.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Optional

__all__ = ["jenkins_hash", "IdAllocator", "aliases"]


def jenkins_hash(name: str) -> int:
    h = 0
    for byte in name.encode():
        h = (h + byte) & 0xFFFFFFFF
        h = (h + (h << 10)) & 0xFFFFFFFF
        h ^= h >> 6
    h = (h + (h << 3)) & 0xFFFFFFFF
    h ^= h >> 11
    return (h + (h << 15)) & 0xFFFFFFFF


class IdAllocator:
    """The ids of one program's entities: `add` every (prefix, name) with its `@id` if any, then
    `assign` gives the others theirs; `id_of` reads them."""

    def __init__(self) -> None:
        self.names: dict[int, dict[str, Optional[int]]] = defaultdict(dict)
        self.taken: set[int] = set()

    def add(self, prefix: int, name: str, annotated: Optional[int] = None) -> Optional[str]:
        """Record `name` (an entity of type `prefix`); what is wrong with its `@id`, or None."""
        if name in self.names[prefix]:
            return None  # the same entity met twice
        problem, given = None, None
        if annotated is not None:
            if annotated >> 24 not in (0, prefix):
                problem = f"@id {annotated:#x} has the wrong 8-bit prefix (an entity of this kind takes {prefix:#04x})"
            elif (annotated | prefix << 24) in self.taken:
                problem = f"@id {annotated | prefix << 24:#x} is given to two entities"
            else:
                given = annotated | prefix << 24
                self.taken.add(given)
        self.names[prefix][name] = given
        return problem

    def assign(self) -> None:
        for prefix, names in sorted(self.names.items()):
            for name in sorted(n for n, i in names.items() if i is None):
                value = jenkins_hash(name)
                while (prefix << 24 | (value & 0xFFFFFF)) in self.taken:
                    value = (value + 1) & 0xFFFFFFFF
                names[name] = prefix << 24 | (value & 0xFFFFFF)
                self.taken.add(names[name])

    def id_of(self, prefix: int, name: str) -> int:
        return self.names[prefix][name]


def aliases(names) -> dict[str, str]:
    """Each of `names` (all entities' names, of every type, as p4c's suffix set holds them) with
    its shortest unique suffix."""
    suffix_count: dict[tuple, int] = defaultdict(int)
    unique = set(names)
    for name in unique:
        parts = tuple(name.split("."))
        for n in range(1, len(parts) + 1):
            suffix_count[parts[-n:]] += 1
    result = {}
    for name in unique:
        parts = tuple(name.split("."))
        n = next((n for n in range(1, len(parts) + 1) if suffix_count[parts[-n:]] < 2), len(parts))
        result[name] = ".".join(parts[-n:])
    return result
