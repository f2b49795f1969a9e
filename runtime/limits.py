"""The switch's limits as the runtime's C headers define them, for the checks the Python side
makes of what a switch is asked (command-line options, P4Runtime requests, control lines): one
definition."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from p4odp.diagnostics import InternalError

HEADERS = ("include/p4odp_runtime.h", "include/p4odp_control.h", "include/p4odp_wire.h", "core/switch.h")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(P4ODP_\w+)[ \t]+(.+)$", re.M)
_COMMENT = re.compile(r"/\*.*?(\*/|$)|//.*")
_SUFFIX = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b")  # 512u, 1UL: C's unsigned and long
_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.Div: lambda a, b: a // b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
              ast.BitOr: lambda a, b: a | b}


def integer(text: str, known: dict[str, int]) -> int | None:
    """A #define's text as an int: decimal or hex numbers, names in `known`, + - * / << >> | and
    parentheses (C's integer division); None for anything else (a string, a macro call)."""
    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        raise ValueError(text)
    source = _SUFFIX.sub(r"\1", _COMMENT.sub("", text)).strip()
    if "_" in re.sub(r"\w*[A-Za-z]\w*", "", source):  # 1_000 is Python's, not C's
        return None
    try:
        return value(ast.parse(source, mode="eval").body)
    except (SyntaxError, ValueError):
        return None


def defines(folder: Path = Path(__file__).parent) -> dict[str, int]:
    """The P4ODP_ integer constants of the runtime's headers in `folder`, by name."""
    known: dict[str, int] = {}
    for header in HEADERS:
        for name, text in _DEFINE.findall((folder / header).read_text()):
            number = integer(text, known)
            if number is not None:
                known[name] = number
    return known


def _limit(name: str) -> int:
    if name not in _DEFINES:
        raise InternalError(f"{name} is not an integer #define of the runtime's headers ({', '.join(HEADERS)})")
    return _DEFINES[name]


_DEFINES = defines()
MAX_PORTS = _limit("P4ODP_MAX_PORTS")  # ports with an interface (-i)
MAX_WORKERS = _limit("P4ODP_MAX_WORKERS")
PORT_NUMBERS = _limit("P4ODP_PORT_NUMBERS")  # 0..PORT_NUMBERS-1: a port number's 9 bits
MC_GROUPS = _limit("P4ODP_MAX_MC_GROUPS")  # group ids 1..MC_GROUPS-1
GROUP_NODES = _limit("P4ODP_MAX_GROUP_NODES")  # nodes of one group
MC_NODES = _limit("P4ODP_MAX_MC_NODES")  # node handles 0..MC_NODES-1
MIRROR_SESSIONS = _limit("P4ODP_MAX_MIRROR_SESSIONS")  # session ids 0..MIRROR_SESSIONS-1
CLONE_REPLICAS = _limit("P4ODP_MAX_CLONE_REPLICAS")  # replicas of one clone session
NOTE_BYTES = _limit("P4ODP_NOTE_BYTES")  # bytes of what a controller keeps with an entry
MAX_PACKET = _limit("P4ODP_MAX_PACKET")  # bytes of the largest packet
CONTROL_LINE = _limit("P4ODP_CONTROL_LINE")  # bytes of a control line's buffer, its newline included
WIRE_VERSION = _limit("P4ODP_WIRE_VERSION")  # the control channel's protocol
# The binary control channel's ops (P4ODP_OP_NAME) and batch atomicities (P4ODP_BATCH_NAME), by NAME.
WIRE_OPS = {name[len("P4ODP_OP_"):]: value for name, value in _DEFINES.items() if name.startswith("P4ODP_OP_")}
WIRE_BATCH = {name[len("P4ODP_BATCH_"):]: value for name, value in _DEFINES.items() if name.startswith("P4ODP_BATCH_")}
