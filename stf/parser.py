"""STF test files, as p4c's STF tools read them, parsed into typed statements.

STF ("simple test framework") is p4c's packet-test format: one statement a
line, `#` starts a comment, statement keywords are case-insensitive.  The
grammar is the one of p4c's parser (tools/stf/stf_parser.py, with the BMv2
additions of backends/bmv2/bmv2stf.py); where that parser accepts a line
that its runner cannot execute, this one reports an error or a warning:

    packet PORT HEX...                  hex digits, spaces anywhere between them
    expect PORT [HEX-OR-*...] [$]       `*` any nibble; `$` exact length, else a prefix
    no_packet
    add TABLE [PRIORITY] KEY:VALUE[/LEN]... ACTION(ARG:VALUE, ...) [= ENTRY]
    setdefault TABLE ACTION(ARG:VALUE, ...)
    remove all
    wait
    check_counter COUNTER(INDEX | $ENTRY) [packets|bytes ==|!=|<|<=|>|>= N]
    mirroring_add ID PORT ... and the other simple_switch_CLI commands of
    `CLI_COMMANDS`, passed through to the switch's CLI

Numbers are decimal, `0x` hexadecimal or `0b` binary; key values may have
`*` digits: a mask on a ternary key, a prefix on an lpm key when they are
the last digits (`0x0a01****` is 0x0a010000/16, as p4c's BMv2 runner reads
it).  Names are identifiers with `$` allowed
(`h.$valid$`, `x$0.h`), `[N]` indexes and `.` parts, or `"quoted"`.

Differences from p4c's parser.  It accepts more only where p4c's lexer gets
in its own way: a comment after packet data (p4c's lexer stops with an
exception there), `remove all` (p4c's lexer never makes `all` a keyword),
qualified counter names in `check_counter`, `[N]` on any part of a name;
and in the commands of action profiles and selectors (`act_prof_*`,
`table_indirect_*`), which p4c's STF has no statement for: without them no
test could fill a table that has an `implementation`.
It rejects what p4c's runners cannot use, or read in a surprising way:
packet data with an odd number of hex digits (p4c's BMv2 runner fails the
test when it sends it), `*` digits in action arguments or together with
`/LEN`, counter indexes that are neither numbers nor `$ENTRY`, numbers run
into names (`1a`) and ports run into packet data (p4c reads `expect 1ab` as
port 1, data `ab`).  On the whole p4_16_samples corpus both
parsers give the same statements.

Each bad line gives one positioned error and is left out; the other lines
are still parsed.  `Diagnostics.error` raises `CompileError` once its limit
of errors is reached.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from p4odp.diagnostics import Diagnostics, Loc
from p4odp.stf.packets import ExpectedOutputs, HexError, Pattern, packet_bytes, parse_hex

__all__ = [
    "Value",
    "KeyMatch",
    "ActionArg",
    "ActionCall",
    "Packet",
    "Expect",
    "NoPacket",
    "Add",
    "SetDefault",
    "RemoveAll",
    "Wait",
    "CheckCounter",
    "CliCommand",
    "Statement",
    "CLI_COMMANDS",
    "parse_stf",
    "parse_stf_file",
    "expected_outputs",
]

# ----------------------------------------------------------------------------
# Statements


@dataclass(frozen=True, slots=True)
class Value:
    """A number as written: `value` reads `*` digits as 0.

    `width` is the number of bits the digits span (4 a hex digit, 1 a binary
    one; None for decimal).  `mask` has a 1 for each bit given by a digit
    other than `*` within that width, as p4c's BMv2 runner builds ternary
    masks (bits above the width are 0, "don't care"); None for decimal.
    `prefix_len`, when there are `*` digits and all of them are the last
    ones, is the number of bits the digits before them give (16 for
    `0x0a01****`): the prefix an lpm key gets (see `KeyMatch.lpm_prefix_len`);
    None without `*` digits or with a `*` before another digit.
    """

    text: str
    value: int
    mask: int | None = None
    width: int | None = None
    prefix_len: int | None = None

    @property
    def has_wildcards(self) -> bool:
        return "*" in self.text


@dataclass(frozen=True, slots=True)
class KeyMatch:
    """`FIELD:VALUE` or `FIELD:VALUE/LEN` (LEN: an LPM prefix length)."""

    loc: Loc
    field: str
    value: Value
    prefix_len: int | None = None

    def lpm_prefix_len(self, width: int) -> int | None:
        """The prefix length of this match on an lpm key of `width` bits: `/LEN` when
        given, else the key's bits less the trailing `*` digits' bits (those are the
        key's low bits: `0x0a01****` is /16 on a 32-bit key, as in p4c's BMv2 runner),
        else the whole key.  None when `*` digits come before other digits (a mask
        that is no prefix)."""
        if self.prefix_len is not None:
            return self.prefix_len
        value = self.value
        if not value.has_wildcards:
            return width
        if value.prefix_len is None or value.width is None:
            return None
        return min(width, max(0, width - (value.width - value.prefix_len)))


@dataclass(frozen=True, slots=True)
class ActionArg:
    loc: Loc
    name: str
    value: Value


@dataclass(frozen=True, slots=True)
class ActionCall:
    loc: Loc
    name: str
    args: tuple[ActionArg, ...] = ()


@dataclass(frozen=True, slots=True)
class Packet:
    """`packet PORT HEX...`: send `data` into the switch on `port`."""

    loc: Loc
    port: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Expect:
    """`expect PORT [PATTERN]`: the next packet out of `port`; None: any packet."""

    loc: Loc
    port: int
    pattern: Pattern | None


@dataclass(frozen=True, slots=True)
class NoPacket:
    """`no_packet`: in p4c's grammar; its BMv2 runner cannot run it, and it checks nothing."""

    loc: Loc


@dataclass(frozen=True, slots=True)
class Add:
    """`add TABLE [PRIORITY] KEY:VALUE... ACTION(ARGS) [= ENTRY]`."""

    loc: Loc
    table: str
    priority: int | None
    matches: tuple[KeyMatch, ...]
    action: ActionCall
    entry: str | None = None


@dataclass(frozen=True, slots=True)
class SetDefault:
    loc: Loc
    table: str
    action: ActionCall


@dataclass(frozen=True, slots=True)
class RemoveAll:
    """`remove all`: remove every table entry that the test added."""

    loc: Loc


@dataclass(frozen=True, slots=True)
class Wait:
    """`wait`: let the switch process the packets sent so far."""

    loc: Loc


@dataclass(frozen=True, slots=True)
class CheckCounter:
    """`check_counter C(INDEX) [packets|bytes OP N]`, or `C($ENTRY)` for a direct counter.

    Exactly one of `index` and `entry` (a name given by `add ... = ENTRY`) is
    set.  Without a condition, `kind`, `op` and `value` are None.
    """

    loc: Loc
    counter: str
    index: int | None
    entry: str | None
    kind: str | None = None
    op: str | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class CliCommand:
    """A simple_switch_CLI command passed through, e.g. `mc_node_create 0 1 2`."""

    loc: Loc
    name: str
    args: tuple[str, ...]

    @property
    def line(self) -> str:
        """The command as the CLI reads it."""
        return " ".join((self.name,) + self.args)


Statement = (Packet | Expect | NoPacket | Add | SetDefault | RemoveAll | Wait | CheckCounter
             | CliCommand)

# The BMv2 CLI commands that p4c's STF grammar passes through, and those of
# action profiles and selectors (p4odp's: p4c's STF has no way to fill the
# tables that have an `implementation`), with their arguments: "n" a number,
# "name" a qualified name, "n+" numbers to the end of the line, "rate+" meter
# rates `RATE:BURST` to the end of the line, "words" whatever words follow,
# as the CLI reads them (keys `V/LEN`, `V&&&MASK`, `=>`, MAC addresses).
CLI_COMMANDS: dict[str, tuple[str, ...]] = {
    "mirroring_add": ("n", "n"),
    "mirroring_add_mc": ("n", "n"),
    "mirroring_delete": ("n",),
    "mirroring_get": ("n",),
    "mc_mgrp_create": ("n",),
    "mc_node_create": ("n", "n+"),
    "mc_node_update": ("n", "n+"),
    "mc_node_associate": ("n", "n"),
    "counter_read": ("name", "n"),
    "counter_write": ("name", "n", "n", "n"),
    "register_read": ("name", "n"),
    "register_write": ("name", "n", "n"),
    "register_reset": ("name",),
    "meter_get_rates": ("name", "n"),
    "meter_set_rates": ("name", "n", "rate+"),
    "meter_array_set_rates": ("name", "rate+"),
    "act_prof_create_member": ("name", "name", "words"),
    "act_prof_create_group": ("name",),
    "act_prof_add_member_to_group": ("name", "n", "n"),
    "act_prof_remove_member_from_group": ("name", "n", "n"),
    "table_indirect_add": ("name", "words"),
    "table_indirect_add_with_group": ("name", "words"),
    "table_indirect_set_default": ("name", "n"),
    "table_indirect_set_default_with_group": ("name", "n"),
}

COUNTER_KINDS = ("packets", "bytes")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")

# ----------------------------------------------------------------------------
# Entry points


def parse_stf(text: str, filename: str, diags: Diagnostics) -> list[Statement]:
    """The statements of an STF file's text; bad lines are reported to `diags` and left out."""
    statements: list[Statement] = []
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        try:
            statement = _LineParser(filename, number, line, diags).statement()
        except _SyntaxError as err:
            diags.error(Loc(filename, number, err.col), err.message)
            continue
        if statement is not None:
            statements.append(statement)
    return statements


def parse_stf_file(path: str, diags: Diagnostics) -> list[Statement]:
    """The statements of the STF file at `path` (see `parse_stf`)."""
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as source:
            text = source.read()
    except OSError as err:
        diags.error(Loc(path, 0, 0), f"cannot read the STF file: {err.strerror}")
        return []
    return parse_stf(text, path, diags)


def expected_outputs(statements: Iterable[Statement]) -> ExpectedOutputs:
    """The ports a test names and the packets it expects on each, in order."""
    statements = list(statements)
    return ExpectedOutputs.of(
        (s.port for s in statements if isinstance(s, Packet)),
        ((s.port, s.pattern) for s in statements if isinstance(s, Expect)))


# ----------------------------------------------------------------------------
# Lexing one line

_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_NUMBER = re.compile(r"[0-9][0-9A-Za-z_*]*(?:\.[0-9A-Za-z_*]+)?")
_PUNCT = re.compile(r"==|!=|<=|>=|[<>=:,()\[\]./]")
_HEX = re.compile(r"0[xX]([0-9a-fA-F*]+)")
_BIN = re.compile(r"0[bB]([01*]+)")
_DEC = re.compile(r"[0-9]+")
_FLOAT = re.compile(r"[0-9]+(?:\.[0-9]+)?")


class _SyntaxError(Exception):
    def __init__(self, col: int, message: str) -> None:
        super().__init__(message)
        self.col = col
        self.message = message


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "name", "number", "punct" or "end"
    text: str  # for a quoted name, the text between the quotes
    col: int  # 1-based
    quoted: bool = False

    def describe(self) -> str:
        if self.kind == "end":
            return "end of line"
        return f'"{self.text}"' if self.quoted else f"'{self.text}'"


def _tokenize(line: str, start: int) -> list[_Token]:
    """The tokens of `line` from index `start` to the end or a `#` comment."""
    tokens: list[_Token] = []
    pos = start
    while pos < len(line):
        char = line[pos]
        col = pos + 1
        if char in " \t":
            pos += 1
            continue
        if char == "#":
            break
        if char == '"':
            end = line.find('"', pos + 1)
            if end < 0:
                raise _SyntaxError(col, "missing closing '\"'")
            if end == pos + 1:
                raise _SyntaxError(col, "empty quoted name")
            tokens.append(_Token("name", line[pos + 1:end], col, quoted=True))
            pos = end + 1
            continue
        for kind, pattern in (("name", _NAME), ("number", _NUMBER), ("punct", _PUNCT)):
            match = pattern.match(line, pos)
            if match:
                tokens.append(_Token(kind, match.group(), col))
                pos = match.end()
                break
        else:
            raise _SyntaxError(col, f"unexpected character {char!r}")
    tokens.append(_Token("end", "", len(line) + 1))
    return tokens


# ----------------------------------------------------------------------------
# Parsing one line


class _LineParser:
    def __init__(self, filename: str, number: int, line: str, diags: Diagnostics) -> None:
        self.filename = filename
        self.lineno = number
        self.line = line
        self.diags = diags
        self.tokens: list[_Token] = []
        self.pos = 0

    def loc(self, col: int) -> Loc:
        return Loc(self.filename, self.lineno, col)

    def statement(self) -> Statement | None:
        stripped = self.line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            return None
        start = len(self.line) - len(stripped)
        word = _NAME.match(self.line, start)
        if word is None:
            raise _SyntaxError(start + 1, "expected a statement (packet, expect, add, ...)")
        keyword = word.group().lower()
        loc = self.loc(start + 1)
        if keyword in ("packet", "expect"):
            return self.packet_line(keyword, loc, word.end())
        end = len(self.line)
        if "words" in CLI_COMMANDS.get(keyword, ()):
            # The words after the named arguments are the CLI's to read: not tokens.
            words = list(re.finditer(r"\S+", self.line.split("#")[0]))
            named = len(CLI_COMMANDS[keyword]) - 1
            end = words[named + 1].start() if len(words) > named + 1 else end
        self.tokens = _tokenize(self.line[:end], word.end())
        if keyword in CLI_COMMANDS:
            return self.cli_command(keyword, loc)
        handler = _HANDLERS.get(keyword)
        if handler is None:
            raise _SyntaxError(start + 1, f"unknown statement '{word.group()}'")
        return handler(self, loc)

    # -- packet and expect: port, then packet data ---------------------------

    def packet_line(self, keyword: str, loc: Loc, pos: int) -> Packet | Expect:
        while pos < len(self.line) and self.line[pos] in " \t":
            pos += 1
        port = _DEC.match(self.line, pos)
        if port is None or (port.end() < len(self.line) and self.line[port.end()] not in " \t#"):
            found = self.line[pos:].split("#")[0].split()
            raise _SyntaxError(pos + 1, f"expected a port number after '{keyword}', found "
                                        + (f"'{found[0]}'" if found else "end of line"))
        data_start = port.end()
        comment = self.line.find("#", data_start)
        data = self.line[data_start:] if comment < 0 else self.line[data_start:comment]
        try:
            if keyword == "packet":
                if not data.strip():
                    raise _SyntaxError(port.end() + 1, "expected packet data after the port")
                return Packet(loc, int(port.group()), packet_bytes(data))
            if not data.strip():
                return Expect(loc, int(port.group()), None)
            nibbles, exact = parse_hex(data, expect=True)
        except HexError as err:
            raise _SyntaxError(data_start + err.offset + 1, err.message) from None
        pattern = Pattern(nibbles, exact)
        if not pattern.can_match():
            self.diags.warning(loc, f"an exact ('$') expected packet of {len(nibbles)} hex "
                                    "digits, an odd number, matches no packet")
        return Expect(loc, int(port.group()), pattern)

    # -- token helpers --------------------------------------------------------

    def peek(self) -> _Token:
        return self.tokens[min(self.pos, len(self.tokens) - 1)]

    def next(self) -> _Token:
        token = self.peek()
        self.pos += 1
        return token

    def at(self, punct: str) -> bool:
        token = self.peek()
        return token.kind == "punct" and token.text == punct

    def expect_punct(self, punct: str, what: str = "") -> _Token:
        token = self.next()
        if token.kind != "punct" or token.text != punct:
            raise _SyntaxError(token.col, f"expected '{punct}'{what}, found {token.describe()}")
        return token

    def end(self) -> None:
        token = self.peek()
        if token.kind != "end":
            raise _SyntaxError(token.col, f"expected end of line, found {token.describe()}")

    def identifier(self, what: str) -> _Token:
        token = self.next()
        if token.kind != "name":
            raise _SyntaxError(token.col, f"expected {what}, found {token.describe()}")
        return token

    def name(self, what: str) -> tuple[str, int]:
        """A qualified name, `a.b[2].$valid$`, and its column."""
        first = self.identifier(what)
        parts = [first.text]
        while True:
            if self.at("["):
                self.next()
                index = self.next()
                if index.kind != "number" or not _DEC.fullmatch(index.text):
                    raise _SyntaxError(index.col, f"expected an index, found {index.describe()}")
                self.expect_punct("]")
                parts[-1] += f"[{index.text}]"
            elif self.at("."):
                self.next()
                parts.append(self.identifier("a name after '.'").text)
            else:
                return ".".join(parts), first.col

    def number(self, what: str, *, wildcards: bool = False) -> Value:
        token = self.next()
        if token.kind != "number":
            raise _SyntaxError(token.col, f"expected {what}, found {token.describe()}")
        return self.value(token, wildcards)

    def value(self, token: _Token, wildcards: bool) -> Value:
        text = token.text
        for pattern, bits, base in ((_HEX, 4, 16), (_BIN, 1, 2)):
            match = pattern.fullmatch(text)
            if match:
                digits = match.group(1)
                if "*" in digits and not wildcards:
                    raise _SyntaxError(token.col, "'*' digits are only allowed in key values")
                width = bits * len(digits)
                full = "f" if base == 16 else "1"
                mask = int("".join("0" if d == "*" else full for d in digits), base)
                given = digits.rstrip("*")
                prefix_len = bits * len(given) if "*" in digits and "*" not in given else None
                return Value(text, int(digits.replace("*", "0"), base), mask, width, prefix_len)
        if _DEC.fullmatch(text):
            return Value(text, int(text))
        if "*" in text and _DEC.fullmatch(text.replace("*", "0")):
            raise _SyntaxError(token.col, f"invalid number '{text}': '*' digits need a "
                                          "hexadecimal (0x) or binary (0b) number")
        raise _SyntaxError(token.col, f"invalid number '{text}'")

    def action_call(self) -> ActionCall:
        name, col = self.name("an action name")
        self.expect_punct("(", " after the action name")
        args: list[ActionArg] = []
        if not self.at(")"):
            while True:
                arg = self.identifier("an action argument 'NAME:VALUE'")
                self.expect_punct(":", " after the argument name")
                value = self.number("a number")
                if any(a.name == arg.text for a in args):
                    raise _SyntaxError(arg.col, f"argument '{arg.text}' given twice")
                args.append(ActionArg(self.loc(arg.col), arg.text, value))
                if not self.at(","):
                    break
                self.next()
        self.expect_punct(")", " to close the action's arguments")
        return ActionCall(self.loc(col), name, tuple(args))

    # -- statements -----------------------------------------------------------

    def add(self, loc: Loc) -> Add:
        table, _ = self.name("a table name")
        priority = None
        if self.peek().kind == "number":
            token = self.next()
            if not _DEC.fullmatch(token.text):
                raise _SyntaxError(token.col,
                                   f"a priority is a decimal number, found '{token.text}'")
            priority = int(token.text)
        matches: list[KeyMatch] = []
        while True:
            start = self.pos
            name, col = self.name("a key match 'FIELD:VALUE' or the action")
            if self.at("("):
                if not matches:
                    raise _SyntaxError(col, "expected a key match 'FIELD:VALUE' before the action")
                self.pos = start
                break
            if not self.at(":"):
                token = self.peek()
                raise _SyntaxError(token.col, "expected ':' (a key match FIELD:VALUE) or '(' "
                                              f"(the action), found {token.describe()}")
            self.next()
            value = self.number("a key value", wildcards=True)
            prefix_len = None
            if self.at("/"):
                slash = self.next()
                if value.has_wildcards:
                    raise _SyntaxError(slash.col, "a key value takes '*' digits or a "
                                                  "'/LEN' prefix length, not both")
                prefix_len = self.number("a prefix length").value
            if any(m.field == name for m in matches):
                raise _SyntaxError(col, f"key field '{name}' given twice")
            matches.append(KeyMatch(self.loc(col), name, value, prefix_len))
        action = self.action_call()
        entry = None
        if self.at("="):
            self.next()
            entry = self.identifier("an entry name after '='").text
        self.end()
        return Add(loc, table, priority, tuple(matches), action, entry)

    def setdefault(self, loc: Loc) -> SetDefault:
        table, _ = self.name("a table name")
        action = self.action_call()
        self.end()
        return SetDefault(loc, table, action)

    def remove(self, loc: Loc) -> RemoveAll:
        token = self.next()
        if token.kind != "name" or token.quoted or token.text.lower() != "all":
            raise _SyntaxError(token.col, "only 'remove all' is supported "
                                          "(STF has no syntax to remove one entry)")
        self.end()
        return RemoveAll(loc)

    def wait(self, loc: Loc) -> Wait:
        self.end()
        return Wait(loc)

    def no_packet(self, loc: Loc) -> NoPacket:
        self.end()
        return NoPacket(loc)

    def check_counter(self, loc: Loc) -> CheckCounter:
        counter, _ = self.name("a counter name")
        self.expect_punct("(", " after the counter name")
        token = self.next()
        index = entry = None
        if token.kind == "name" and token.text.startswith("$") and len(token.text) > 1:
            entry = token.text[1:]
        elif token.kind == "number":
            index = self.value(token, wildcards=False).value
        else:
            raise _SyntaxError(token.col, "expected a counter index or '$ENTRY' (an entry named "
                                          f"by 'add ... = ENTRY'), found {token.describe()}")
        self.expect_punct(")", " after the counter index")
        if self.peek().kind == "end":
            return CheckCounter(loc, counter, index, entry)
        kind = self.next()
        if kind.kind != "name" or kind.text.lower() not in COUNTER_KINDS:
            raise _SyntaxError(kind.col, f"expected 'packets' or 'bytes', found {kind.describe()}")
        op = self.next()
        if op.kind != "punct" or op.text not in COMPARISONS:
            raise _SyntaxError(op.col, "expected a comparison (== != < <= > >=), "
                                       f"found {op.describe()}")
        value = self.number("a number").value
        self.end()
        return CheckCounter(loc, counter, index, entry, kind.text.lower(), op.text, value)

    def cli_command(self, name: str, loc: Loc) -> CliCommand:
        args: list[str] = []
        for kind in CLI_COMMANDS[name]:
            if kind == "name":
                args.append(self.name("a name")[0])
            elif kind == "n":
                args.append(self.number("a number").text)
            elif kind == "n+":
                args.append(self.number("a number").text)
                while self.peek().kind != "end":
                    args.append(self.number("a number").text)
            elif kind == "words":
                args += self.line[self.tokens[-1].col - 1:].split("#")[0].split()
            else:  # "rate+"
                args.append(self.meter_rate())
                while self.peek().kind != "end":
                    args.append(self.meter_rate())
        self.end()
        return CliCommand(loc, name, tuple(args))

    def meter_rate(self) -> str:
        rate = self.next()
        if rate.kind != "number" or not _FLOAT.fullmatch(rate.text):
            raise _SyntaxError(rate.col,
                               f"expected a meter rate 'RATE:BURST', found {rate.describe()}")
        self.expect_punct(":", " between the rate and the burst size")
        burst = self.number("a burst size")
        return f"{rate.text}:{burst.text}"


_HANDLERS = {
    "add": _LineParser.add,
    "setdefault": _LineParser.setdefault,
    "remove": _LineParser.remove,
    "wait": _LineParser.wait,
    "no_packet": _LineParser.no_packet,
    "check_counter": _LineParser.check_counter,
}
