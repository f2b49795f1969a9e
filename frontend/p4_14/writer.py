"""P4_16 text with a line marker before each construct a P4_14 one gave, so that the P4_16 front
end reports what it finds there at the P4_14 line (and column) it came from."""

from __future__ import annotations

from typing import Optional

from p4odp.diagnostics import Loc

__all__ = ["Writer", "CONVERSION_FILE"]

CONVERSION_FILE = "<P4_14 conversion>"  # where the lines no P4_14 construct gave are


class Writer:
    """P4_16 text, each construct after a line marker naming its P4_14 line (P4_16's lines
    are indented by depth only where no P4_14 position says otherwise)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0
        self.placed = True  # the last line came from the P4_14 program

    def line(self, text: str, loc: Optional[Loc] = None) -> None:
        """A line of P4_16; one that comes from `loc` begins at its column, so that an error in
        its first token is reported where the P4_14 construct is.  The lines of the conversion's
        own (the structs, the deparser, `main`) are placed in "<P4_14 conversion>"."""
        if loc is not None and loc.line > 0:
            self.lines.append(f'# {loc.line} "{_quote(loc.file)}"')
            self.lines.append(" " * (loc.col - 1) + text)
            self.placed = True
            return
        if self.placed:
            self.lines.append(f'# {len(self.lines) + 2} "{CONVERSION_FILE}"')
            self.placed = False
        self.lines.append("    " * self.depth + text)

    def open(self, text: str, loc: Optional[Loc] = None) -> None:
        self.line(text + " {", loc)
        self.depth += 1

    def close(self) -> None:
        self.depth -= 1
        self.line("}")

    def otherwise(self) -> None:
        """`} else {`: the block open ends, its else branch begins."""
        self.depth -= 1
        self.open("} else")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _quote(file: str) -> str:
    return file.replace("\\", "\\\\").replace('"', '\\"')
