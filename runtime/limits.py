"""The switch's limits as the runtime's C headers define them, for the checks the Python side
makes of what a switch is asked (command-line options, P4Runtime requests): one definition."""

from __future__ import annotations

import ast
import re
from pathlib import Path

_HEADERS = ("include/p4odp_runtime.h", "core/switch.h")
_DEFINE = re.compile(r"^#define (P4ODP_\w+)[ \t]+(.+)$", re.M)
_COMMENT = re.compile(r"/\*.*?(\*/|$)|//.*")


def _integer(text: str, known: dict[str, int]) -> int | None:
    """`text` (numbers, names already known, + - * / and parentheses) as an int; None otherwise."""
    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id]
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            left, right = value(node.left), value(node.right)
            ops = {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}
            return ops[type(node.op)] if type(node.op) in ops else left // right
        raise ValueError(text)
    try:
        return value(ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError):
        return None


def _defines() -> dict[str, int]:
    known: dict[str, int] = {}
    for header in _HEADERS:
        for name, text in _DEFINE.findall((Path(__file__).parent / header).read_text()):
            number = _integer(_COMMENT.sub("", text), known)
            if number is not None:
                known[name] = number
    return known


_LIMITS = _defines()
MAX_PORTS = _LIMITS["P4ODP_MAX_PORTS"]  # ports with an interface (-i)
MAX_WORKERS = _LIMITS["P4ODP_MAX_WORKERS"]
PORT_NUMBERS = _LIMITS["P4ODP_PORT_NUMBERS"]  # 0..PORT_NUMBERS-1: a port number's 9 bits
MC_GROUPS = _LIMITS["P4ODP_MAX_MC_GROUPS"]  # group ids 1..MC_GROUPS-1
GROUP_NODES = _LIMITS["P4ODP_MAX_GROUP_NODES"]  # nodes of one group
MIRROR_SESSIONS = _LIMITS["P4ODP_MAX_MIRROR_SESSIONS"]  # session ids 0..MIRROR_SESSIONS-1
