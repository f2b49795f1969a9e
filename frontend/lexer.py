"""Tokens of P4_16, read from preprocessed text.

The C preprocessor's line markers (`# 12 "prog.p4"`) are honoured, so every
token's `loc` names the user's file and line.  Words that are keywords only
in some places (`apply`, `key`, `actions`, `state`, `entries`, `type`,
`priority`, `list`) are returned as identifiers; the parser checks them by
text where they matter, as the grammar allows them as names elsewhere.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from p4odp.diagnostics import Diagnostics, Loc

KEYWORDS = frozenset(
    """_ abstract action bit bool break const continue control default else enum
    error exit extern false for header header_union if in inout int match_kind
    out package parser return select string struct switch table this transition
    true tuple typedef value_set varbit void""".split()
)

# Longest first, so that `&&&` wins over `&&` and `&`.  `>` is never joined
# into `>>`: the parser joins adjacent `>` tokens where a shift is meant, so
# that `bit<bit<8>>` closes two type-argument lists.
OPERATORS = sorted(
    """{#} &&& |+|= |-|= |+| |-| <<= ... ++= ++ +: += -= *= /= %= &= |= ^= << <= >= == != && ||
    .. & | ^ ~ ! + - * / % < > = ? : ; , . ( ) [ ] { } @ #""".split(),
    key=len,
    reverse=True,
)

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(
    r"(?:(?P<width>[0-9]+)(?P<sign>[ws]))?"
    r"(?:0[xX](?P<hex>[0-9a-fA-F_]+)|0[bB](?P<bin>[01_]+)|0[oO](?P<oct>[0-7_]+)"
    r"|0[dD](?P<dec>[0-9_]+)|(?P<plain>[0-9][0-9_]*))"
)
_LINE_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"')
_STRING_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "0": "\0"}


@dataclass(slots=True)
class Token:
    kind: str  # "id", "kw", "int", "str", "op", "eof"
    text: str
    loc: Loc
    start: int  # offset of the token in the preprocessed text
    end: int
    value: object = None  # int literal: (value, width, signed, base); string: its value

    def is_(self, kind: str, text: str) -> bool:
        return self.kind == kind and self.text == text


class TokenCursor:
    """A position in a list of tokens, which ends with the "eof" token: what both parsers (P4_16's,
    P4_14's) read with."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def peek(self, offset: int = 1) -> Token:
        return self.tokens[min(self.pos + offset, len(self.tokens) - 1)]

    def at(self, text: str) -> bool:
        """Whether the token here is the operator, keyword or name `text`."""
        tok = self.tok
        return tok.text == text and tok.kind in ("op", "kw", "id")


def tokenize(text: str, filename: str, diags: Diagnostics) -> list[Token]:
    """Split preprocessed text into tokens; errors go to `diags`."""
    tokens: list[Token] = []
    pos, line, line_start, file = 0, 1, 0, filename
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch == "\n":
            pos += 1
            line += 1
            line_start = pos
            continue
        if ch in " \t\r\f\v":
            pos += 1
            continue
        if ch == "#" and text[line_start:pos].strip() == "":
            end = text.find("\n", pos)
            end = n if end < 0 else end
            marker = _LINE_MARKER.match(text, pos, end)
            if marker:
                # The marker names the line that follows it.
                line = int(marker.group(1)) - 1
                file = _unescape(marker.group(2))
            elif not text[pos:end].lstrip("#").strip().startswith("pragma"):
                diags.error(Loc(file, line, pos - line_start + 1), "unexpected preprocessor directive")
            pos = end
            continue
        if text.startswith("//", pos):
            end = text.find("\n", pos)
            pos = n if end < 0 else end
            continue
        if text.startswith("/*", pos):
            end = text.find("*/", pos + 2)
            if end < 0:
                diags.error(Loc(file, line, pos - line_start + 1), "unterminated comment")
                break
            for _ in range(text.count("\n", pos, end)):
                line += 1
            last_nl = text.rfind("\n", pos, end)
            if last_nl >= 0:
                line_start = last_nl + 1
            pos = end + 2
            continue
        loc = Loc(file, line, pos - line_start + 1)
        # ASCII only: str.isdigit() and isalpha() accept other scripts' digits and letters, which
        # are no P4 token (they are left for the parser, as any stray character).
        if "0" <= ch <= "9":
            match = _NUMBER.match(text, pos)
            assert match is not None
            end = match.end()
            if end < n and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
                word = _WORD.match(text, end)
                bad = text[pos : word.end() if word else end + 1]
                diags.error(loc, f"malformed integer literal '{bad}'")
                pos = word.end() if word else end + 1
                continue
            try:
                value = _int_value(match)
            except ValueError:  # more digits than Python converts by default
                diags.error(loc, "integer literal too large")
                pos = end
                continue
            tokens.append(Token("int", text[pos:end], loc, pos, end, value))
            pos = end
            continue
        if ch.isascii() and (ch.isalpha() or ch == "_"):
            match = _WORD.match(text, pos)
            assert match is not None
            word = match.group()
            kind = "kw" if word in KEYWORDS else "id"
            tokens.append(Token(kind, word, loc, pos, match.end()))
            pos = match.end()
            continue
        if ch == '"':
            end, value, newlines = _string(text, pos + 1)
            if end < 0:
                diags.error(loc, "unterminated string literal")
                break
            tokens.append(Token("str", text[pos:end], loc, pos, end, value))
            line += newlines
            if newlines:
                line_start = text.rfind("\n", pos, end) + 1
            pos = end
            continue
        for op in OPERATORS:
            if text.startswith(op, pos):
                tokens.append(Token("op", op, loc, pos, pos + len(op)))
                pos += len(op)
                break
        else:
            # Left for the parser: legal only inside an unstructured annotation body.
            tokens.append(Token("bad", ch, loc, pos, pos + 1))
            pos += 1
    tokens.append(Token("eof", "end of input", Loc(file, line, pos - line_start + 1), n, n))
    return tokens


def _unescape(name: str) -> str:
    """A file name as cpp quotes it: backslash escapes, octal for odd bytes, UTF-8 otherwise."""
    raw = codecs.escape_decode(name.encode("utf-8"))[0]
    return raw.decode("utf-8", errors="replace")


def _int_value(match: re.Match) -> tuple[int, int | None, bool, int]:
    for group, base in (("hex", 16), ("bin", 2), ("oct", 8), ("dec", 10), ("plain", 10)):
        digits = match.group(group)
        if digits is not None:
            value = int(digits.replace("_", "") or "0", base)
            break
    width = int(match.group("width")) if match.group("width") else None
    return value, width, match.group("sign") == "s", base


def _string(text: str, pos: int) -> tuple[int, str, int]:
    """Scan a string body from `pos`; return (end offset after the quote, value, newlines)."""
    out = []
    newlines = 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch == '"':
            return pos + 1, "".join(out), newlines
        if ch == "\\" and pos + 1 < n:
            out.append(_STRING_ESCAPES.get(text[pos + 1], text[pos + 1]))
            newlines += text[pos + 1] == "\n"  # an escaped line break is one too
            pos += 2
            continue
        if ch == "\n":
            newlines += 1
        out.append(ch)
        pos += 1
    return -1, "", newlines
