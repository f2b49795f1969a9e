"""P4Runtime's byte strings (the specification's section "Bytestrings")."""

from __future__ import annotations

__all__ = ["canonical", "shown"]

SHOWN_BYTES = 16  # of a byte string an error message quotes whole; of a longer one, the first and last 8


def canonical(number: int) -> bytes:
    """The shortest byte string of a non-negative number, as P4Runtime servers send them."""
    return number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big")


def shown(value: bytes) -> str:
    """A byte string in hex as an error message quotes it: a long one shortened, so that the
    message stays within what gRPC carries in a status."""
    if len(value) <= SHOWN_BYTES:
        return f"0x{value.hex()}"
    return f"0x{value[:8].hex()}...{value[-8:].hex()} ({len(value)} bytes)"
