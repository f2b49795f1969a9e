"""Where a parser reads each header: every path from `start` followed, shared by the passes that
need a header's place in the packet (deparse-in-place, burst-lookup)."""

from __future__ import annotations

from typing import Callable, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.passes._walk import is_packet_call, member_path, walk

__all__ = ["ParserPathError", "Move", "header_offsets", "packet_moves"]

_PATHS_EXPLORED = 10000  # parser paths followed before giving up (a bound on the passes' time)

# What a statement of a state does to the cursor: (the member path of the header it extracts into the
# parser's headers parameter, None for bits skipped or a header elsewhere; the bits it moves, None when
# only known as it runs), with where it is.
Move = tuple


class ParserPathError(Exception):
    """A parser whose paths cannot be followed (a loop, too many paths), or a check of the caller's."""

    def __init__(self, why: str, loc=None) -> None:
        super().__init__(why)
        self.loc = loc


def packet_moves(state: ir.ParserState, headers: ir.Parameter) -> list[Move]:
    """The extracts and advances of `state`, in order, as moves."""
    moves = []
    for node in walk(state):
        if not is_packet_call(node, "packet_in", ("advance", "extract")):
            continue
        arg = node.args[0].value if node.args else None
        if node.method.member == "advance":
            moves.append((None, arg.value if isinstance(arg, ir.IntLiteral) else None, node.loc))
        elif node.method.member == "extract":
            bits = t.packet_width(arg.type) if arg is not None and len(node.args) == 1 else None
            root, path = member_path(arg) if arg is not None else (None, ())
            into_headers = isinstance(root, ir.PathExpression) and root.name == headers.name
            moves.append((path if into_headers else None, bits, node.loc))
    return moves


def header_offsets(parser: ir.Parser, moves: dict[str, list[Move]],
                   check: Optional[Callable[[Move, list[tuple]], None]] = None) -> dict:
    """The bit each header of the parser's headers parameter is extracted at, following every path
    from `start` (`moves`: each state's); None for a header read at different bits on two paths, or
    after a move of unknown size.  `check(move, earlier)` may raise ParserPathError on an extract,
    given the header paths extracted before it on the path.  A loop raises ParserPathError."""
    states = {s.name: s for s in parser.states}
    offsets: dict = {}
    budget = [_PATHS_EXPLORED]
    done: set = set()

    def visit(name: str, offset: Optional[int], earlier: tuple, on_path: frozenset) -> None:
        if name not in states or (name, offset, earlier) in done:
            return  # accept, reject, or already followed from here
        if name in on_path:
            raise ParserPathError("the parser loops", states[name].loc)
        budget[0] -= 1
        if budget[0] < 0:
            raise ParserPathError("too many parser paths to follow", parser.loc)
        for move in moves[name]:
            path, bits, _ = move
            if path is not None:
                if check is not None:
                    check(move, list(earlier))
                offsets[path] = offset if offsets.get(path, offset) == offset else None
                earlier += (path,)
            offset = None if offset is None or bits is None else offset + bits
        for successor in _successors(states[name]):
            visit(successor, offset, earlier, on_path | {name})
        done.add((name, offset, earlier))

    visit("start", 0, (), frozenset())
    return offsets


def _successors(state: ir.ParserState) -> list[str]:
    transition = state.transition
    if isinstance(transition, ir.PathExpression):
        return [transition.name]
    if isinstance(transition, ir.SelectExpression):
        return [case.state.name for case in transition.cases]
    return []
