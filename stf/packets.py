"""Expected packets of STF tests and the checking rules of p4c's STF runner.

An expected packet is a `Pattern`: hex nibbles, `*` for a nibble that may be
anything, and an exact-length flag (a trailing `$` in STF).  Without `$` the
pattern is a prefix: the packet may be longer, never shorter.  These are the
rules of p4c's `compare_pkt` (tools/testutils.py), which compares hex
strings nibble by nibble.

`ExpectedOutputs.check` applies the per-port rules of p4c's BMv2 STF runner
(backends/bmv2/bmv2stf.py, `checkOutputs`):

- every port that the test names, in a `packet` or an `expect` statement, is
  an interface of the switch and its output is checked; the output of other
  ports is not seen;
- on each checked port the packets are compared in order with that port's
  `expect` statements, in file order (order across ports is not checked);
- a checked port must receive exactly as many packets as it has `expect`
  statements: extra and missing packets are failures, so a port that only
  sends packets must receive none;
- `expect PORT` without data expects one packet whose content is not checked;
- where an `expect` stands among the `packet` statements does not matter.

p4c's runner stops at the first failure; `check` reports every failure, port
by port, and fails exactly when p4c's runner would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "HexError",
    "Pattern",
    "parse_hex",
    "packet_bytes",
    "matches",
    "describe_mismatch",
    "hex_diff",
    "hex_dump",
    "Mismatch",
    "check_port",
    "ExpectedOutputs",
]

_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
ROW_BYTES = 16


class HexError(ValueError):
    """Bad packet data; `offset` is the index of the culprit in the text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def parse_hex(text: str, *, expect: bool) -> tuple[str, bool]:
    """Nibbles (upper case) and the exact-length flag of STF packet data.

    Spaces and tabs may separate bytes or nibbles anywhere.  With `expect`,
    `*` stands for any nibble and a final `$` asks for the exact length;
    without it (the data of a `packet` statement) only hex digits are allowed.
    """
    nibbles: list[str] = []
    exact_at = -1
    for offset, char in enumerate(text):
        if char in " \t":
            continue
        if exact_at >= 0:
            raise HexError("'$' must end the expected packet", exact_at)
        if char in _HEX_DIGITS:
            nibbles.append(char.upper())
        elif char == "*" and expect:
            nibbles.append("*")
        elif char == "$" and expect:
            exact_at = offset
        elif char in "*$":
            raise HexError(f"'{char}' is only allowed in expected packets", offset)
        elif char in "xX" and nibbles[-1:] == ["0"]:
            raise HexError("packet data is bare hex digits, without '0x'", offset)
        else:
            raise HexError(f"invalid character {char!r} in packet data", offset)
    return "".join(nibbles), exact_at >= 0


def packet_bytes(text: str) -> bytes:
    """The bytes of a `packet` statement's data (hex digits, any spaces)."""
    nibbles, _ = parse_hex(text, expect=False)
    if len(nibbles) % 2:
        first = len(text) - len(text.lstrip(" \t"))
        raise HexError(f"packet data has an odd number of hex digits ({len(nibbles)})", first)
    return bytes.fromhex(nibbles)


@dataclass(frozen=True, slots=True)
class Pattern:
    """An expected packet: upper-case hex nibbles or `*`, and whether `$` ends it."""

    nibbles: str
    exact: bool = False

    def __post_init__(self) -> None:
        if set(self.nibbles) - _HEX_DIGITS - {"*"}:
            raise ValueError(f"a pattern is hex digits and '*', not {self.nibbles!r}")
        object.__setattr__(self, "nibbles", self.nibbles.upper())

    @classmethod
    def parse(cls, text: str) -> Pattern:
        """From STF's spelling, e.g. `"0800 45** $"`; raises `HexError`."""
        nibbles, exact = parse_hex(text, expect=True)
        return cls(nibbles, exact)

    @property
    def length(self) -> int:
        """Bytes the pattern spans (a lone last nibble counts as a byte)."""
        return (len(self.nibbles) + 1) // 2

    def can_match(self) -> bool:
        """False for an exact pattern with an odd number of nibbles: no packet fits it."""
        return not (self.exact and len(self.nibbles) % 2)

    def __str__(self) -> str:
        pairs = [self.nibbles[i:i + 2] for i in range(0, len(self.nibbles), 2)]
        return " ".join(pairs + (["$"] if self.exact else []))


def matches(pattern: Pattern | None, data: bytes) -> bool:
    """Does a received packet fit the expected one?  None expects any packet."""
    if pattern is None:
        return True
    got = data.hex().upper()
    want = pattern.nibbles
    if len(got) < len(want) or (pattern.exact and len(got) > len(want)):
        return False
    return all(w == "*" or w == g for w, g in zip(want, got))


def _differing_nibbles(pattern: Pattern, got: str) -> list[int]:
    """Nibble indexes where the packet differs, length differences included."""
    want = pattern.nibbles
    bad = [i for i, (w, g) in enumerate(zip(want, got)) if w != "*" and w != g]
    if len(got) < len(want):
        bad.extend(range(len(got), len(want)))
    elif pattern.exact and len(got) > len(want):
        bad.extend(range(len(want), len(got)))
    return bad


def describe_mismatch(pattern: Pattern | None, data: bytes) -> str | None:
    """Why a packet does not fit, in a phrase; None when it matches."""
    if matches(pattern, data):
        return None
    assert pattern is not None
    got = data.hex().upper()
    want = pattern.nibbles
    problems = []
    first = next((i for i, (w, g) in enumerate(zip(want, got)) if w != "*" and w != g), None)
    if first is not None:
        byte = first // 2
        expected_byte = want[2 * byte:2 * byte + 2]
        problems.append(f"first difference at byte {byte}: "
                        f"expected {expected_byte}, got {got[2 * byte:2 * byte + 2]}")
    size = "exactly" if pattern.exact else "at least"
    if not pattern.can_match():
        problems.append(f"an exact pattern of {len(want)} hex digits fits no packet")
    elif len(got) < len(want) or (pattern.exact and len(got) > len(want)):
        state = "short" if len(got) < len(want) else "long"
        problems.append(f"too {state}: {len(data)} bytes, expected {size} {pattern.length}")
    return "; ".join(problems)


def hex_diff(pattern: Pattern, data: bytes, context: int = 1) -> str:
    """Expected and received packets side by side, 16 bytes a row.

    Each row shows `exp` (the pattern, `*` for wildcard nibbles) over `got`
    (the packet), and a line of `^` under the nibbles that differ, absent
    bytes included.  Rows without differences further than `context` rows
    from one that has some are elided as `...`.
    """
    got = data.hex().upper()
    want = pattern.nibbles
    bad = set(_differing_nibbles(pattern, got))
    total = max(len(got), len(want))
    rows = max(1, (total + 2 * ROW_BYTES - 1) // (2 * ROW_BYTES))
    bad_rows = {i // (2 * ROW_BYTES) for i in bad}
    shown = [any(abs(r - b) <= context for b in bad_rows) or not bad_rows for r in range(rows)]
    marked = "".join("^" if i in bad else " " for i in range(total))
    lines: list[str] = []
    for row in range(rows):
        if not shown[row]:
            if not lines or lines[-1] != "...":
                lines.append("...")
            continue
        start = row * 2 * ROW_BYTES
        cells = range(start, min(start + 2 * ROW_BYTES, total))
        exp = _row_text(want, cells)
        rcv = _row_text(got, cells)
        marks = _row_text(marked, cells)
        prefix = f"{start // 2:04x}"
        lines.append(f"{prefix}  exp  {exp}".rstrip())
        lines.append(f"{'':4}  got  {rcv}".rstrip())
        if marks.strip():
            lines.append(f"{'':4}       {marks}".rstrip())
    return "\n".join(lines)


def hex_dump(nibbles: str, label: str = "") -> str:
    """Hex nibbles (`*` allowed) 16 bytes a row, each row after its offset and `label`."""
    lines = []
    for start in range(0, max(len(nibbles), 1), 2 * ROW_BYTES):
        cells = range(start, min(start + 2 * ROW_BYTES, len(nibbles)))
        head = f"{start // 2:04x}  {label}  " if label else f"{start // 2:04x}  "
        lines.append((head + _row_text(nibbles, cells)).rstrip())
    return "\n".join(lines)


def _row_text(nibbles: str, cells: range) -> str:
    """One row of nibbles: two a byte, a space between bytes, two after 8 bytes."""
    out = []
    for i in cells:
        if i > cells.start and i % 2 == 0:
            out.append("  " if (i - cells.start) % 16 == 0 else " ")
        out.append(nibbles[i] if i < len(nibbles) else " ")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One failed check on one port: `kind` is "differs", "missing" or "unexpected".

    `index` counts the port's packets from 0; `expected` is the pattern at
    that position (None for `expect PORT` without data, and for "unexpected"),
    `got` the packet received there (None for "missing").
    """

    port: int
    index: int
    kind: str
    expected: Pattern | None = None
    got: bytes | None = None

    @property
    def message(self) -> str:
        where = f"port {self.port}, packet {self.index}"
        if self.kind == "missing":
            if self.expected is None:
                return f"{where}: expected a packet, received nothing"
            size = "exactly" if self.expected.exact else "at least"
            return (f"{where}: expected a packet of {size} {self.expected.length} bytes, "
                    "received nothing")
        if self.kind == "unexpected":
            return f"{where}: unexpected packet of {len(self.got or b'')} bytes"
        return f"{where}: {describe_mismatch(self.expected, self.got or b'')}"

    def render(self) -> str:
        """The message, then the packets: a hex diff, or the one packet there is."""
        if self.kind == "missing":
            if self.expected is None:
                return self.message
            return f"{self.message}\n{hex_dump(self.expected.nibbles, 'exp')}"
        if self.kind == "unexpected" or self.expected is None:
            return f"{self.message}\n{hex_dump((self.got or b'').hex().upper(), 'got')}"
        return f"{self.message}\n{hex_diff(self.expected, self.got or b'')}"

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class ExpectedOutputs:
    """What an STF test expects of the switch, port by port.

    `ports` are the ports the test names (in `packet` or `expect`): the
    switch's interfaces, whose output is checked.  `packets` maps a port to
    its expected packets in order (None: any packet).
    """

    ports: frozenset[int]
    packets: Mapping[int, tuple[Pattern | None, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, packet_ports: Iterable[int],
           expects: Iterable[tuple[int, Pattern | None]]) -> ExpectedOutputs:
        """From the ports that get packets and the (port, pattern) pairs expected, in order."""
        packets: dict[int, list[Pattern | None]] = {}
        for port, pattern in expects:
            packets.setdefault(port, []).append(pattern)
        ports = frozenset(packet_ports) | frozenset(packets)
        return cls(ports, {port: tuple(p) for port, p in packets.items()})

    def check(self, received: Mapping[int, Sequence[bytes]]) -> list[Mismatch]:
        """Every failure, by port then position; an empty list means pass.

        `received` maps a port to the packets it sent, in order; ports not in
        `self.ports` are ignored, ports without an entry received nothing.
        """
        failures: list[Mismatch] = []
        for port in sorted(self.ports):
            failures.extend(check_port(port, self.packets.get(port, ()), received.get(port, ())))
        return failures


def check_port(port: int, expected: Sequence[Pattern | None],
               received: Sequence[bytes]) -> list[Mismatch]:
    """The packets of one port against its expectations, in order."""
    failures = [Mismatch(port, i, "differs", want, got)
                for i, (want, got) in enumerate(zip(expected, received))
                if not matches(want, got)]
    failures.extend(Mismatch(port, i, "missing", expected[i])
                    for i in range(len(received), len(expected)))
    failures.extend(Mismatch(port, i, "unexpected", None, received[i])
                    for i in range(len(expected), len(received)))
    return failures
