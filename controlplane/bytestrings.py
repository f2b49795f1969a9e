"""P4Runtime's byte strings (the specification's section "Bytestrings")."""

from __future__ import annotations

__all__ = ["canonical"]


def canonical(number: int) -> bytes:
    """The shortest byte string of a non-negative number, as P4Runtime servers send them."""
    return number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big")
