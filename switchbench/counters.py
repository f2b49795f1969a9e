"""The counters the switch prints to standard error: on SIGUSR1, and when it stops.

    counters at 12.345678 s          (SIGUSR1 only: ODP global time since forwarding started)
    port  rx  tx  interface
       0  1000  0  pcap:in=in.pcap:cache
       1  0  990  null1
    dropped 10: dropped by the program

`CounterParser` takes the switch's standard error line by line, as it comes, and keeps the
blocks; other lines (ODP's messages) pass through to `other`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["PortCounters", "CountersBlock", "CounterParser", "parse_counters"]

_AT = re.compile(r"^counters at (\d+(?:\.\d*)?) s$")
_HEADER = re.compile(r"^port\s+rx\s+tx\s+interface$")
_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$")
_DROP = re.compile(r"^dropped (\d+): (.*)$")


@dataclass(frozen=True, slots=True)
class PortCounters:
    rx: int
    tx: int
    interface: str


@dataclass(slots=True)
class CountersBlock:
    """One table: `time` is None for the one printed when the switch stops."""

    time: float | None
    ports: dict = field(default_factory=dict)  # port number -> PortCounters
    drops: dict = field(default_factory=dict)  # reason -> count

    @property
    def rx(self) -> int:
        return sum(port.rx for port in self.ports.values())

    @property
    def tx(self) -> int:
        return sum(port.tx for port in self.ports.values())


class CounterParser:
    """Feed lines; complete and growing blocks are in `blocks`, in order."""

    def __init__(self) -> None:
        self.blocks: list[CountersBlock] = []
        self.other: list[str] = []
        self._state = "out"  # out, header (after "counters at"), rows, drops
        self._time: float | None = None

    def feed(self, line: str) -> None:
        line = line.rstrip("\r\n")
        if self._state in ("rows", "drops"):
            block = self.blocks[-1]
            row = _ROW.match(line)
            if self._state == "rows" and row:
                block.ports[int(row[1])] = PortCounters(int(row[2]), int(row[3]), row[4])
                return
            drop = _DROP.match(line)
            if drop:
                block.drops[drop[2]] = int(drop[1])
                self._state = "drops"
                return
            self._state = "out"
        if self._state == "header":
            self._state = "out"
            if _HEADER.match(line):
                self.blocks.append(CountersBlock(self._time))
                self._state = "rows"
                return
        at = _AT.match(line)
        if at:
            self._time = float(at[1])
            self._state = "header"
        elif _HEADER.match(line):
            self.blocks.append(CountersBlock(None))
            self._state = "rows"
        else:
            self.other.append(line)

    def samples(self, ports: int) -> list[CountersBlock]:
        """The SIGUSR1 blocks that have a row for each of `ports` ports."""
        return [block for block in self.blocks if block.time is not None and len(block.ports) >= ports]


def parse_counters(text: str) -> CounterParser:
    """Every block of a whole standard error text."""
    parser = CounterParser()
    for line in text.splitlines():
        parser.feed(line)
    return parser
