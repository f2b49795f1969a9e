"""Does every object a controller sees exist in the switch, and the reverse?

    python3 tests/conformance/control_plane_walk.py PROGRAM_OR_FOLDER... [--list]

For each v1model program (a folder: its *.p4 files that include v1model.p4) that p4odp compiles,
compares the objects of its P4Info (tables, the actions tables run, counters, meters, registers,
action profiles, value sets, digests; direct ones too) with the objects of the switch p4odp
builds from it, as its generated program metadata declares them. Prints each mismatch and a
summary line `walked: N programs, M compiled, K mismatches`; exits 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from p4odp.controlplane.protos import p4info_pb2
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.transpiler import transpile

__all__ = ["switch_objects", "p4info_objects", "mismatches"]


def switch_objects(model) -> set[tuple[str, str]]:
    """(kind, control-plane name) of each object of a switch's program (transpiler.model.CProgram)."""
    found = {("table", table.name) for table in model.tables}
    found |= {("action", action.name) for action in model.actions}
    found |= {("direct_counter" if c.table >= 0 else "counter", c.name) for c in model.counters}
    found |= {("direct_meter" if m.table >= 0 else "meter", m.name) for m in model.meters}
    found |= {("register", r.name) for r in model.registers}
    found |= {("action_profile", p.name) for p in model.profiles}
    found |= {("value_set", v.name) for v in model.value_sets}
    found |= {("digest", d.name) for d in model.digests}
    return found


def p4info_objects(info: p4info_pb2.P4Info) -> set[tuple[str, str]]:
    """The same of a P4Info; of its actions, those its tables run (the switch keeps no other)."""
    actions = {a.preamble.id: a.preamble.name for a in info.actions}
    found = {("table", t.preamble.name) for t in info.tables}
    found |= {("action", actions[ref.id]) for t in info.tables for ref in t.action_refs}
    for kind in ("counter", "direct_counter", "meter", "direct_meter", "register", "action_profile", "value_set",
                 "digest"):
        found |= {(kind, e.preamble.name) for e in getattr(info, f"{kind}s")}
    return found


def mismatches(model) -> list[str]:
    """What one side has and the other lacks, a line each."""
    info = p4info_pb2.P4Info.FromString(model.p4info)
    ours, theirs = switch_objects(model), p4info_objects(info)
    return [f"{kind} {name}: in P4Info, not in the switch" for kind, name in sorted(theirs - ours)] + \
           [f"{kind} {name}: in the switch, not in P4Info" for kind, name in sorted(ours - theirs)]


def walk(path: Path) -> tuple[bool, list[str]]:
    """(compiled, mismatches) of one program."""
    diags = Diagnostics()
    program = load_program(str(path), FrontendOptions(), diags)
    model = transpile(program, str(path), diags) if program is not None else None
    return (False, []) if model is None else (True, mismatches(model))


def _programs(paths: list[str]) -> list[Path]:
    found = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(p for p in path.glob("*.p4") if p.is_file() and "v1model.p4" in p.read_text(errors="replace"))
        else:
            found.append(path)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--list", action="store_true", help="name the programs that do not compile")
    args = parser.parse_args()
    programs = _programs(args.paths)
    compiled = found = 0
    for path in programs:
        try:
            ok, lines = walk(path)
        except Exception as err:  # noqa: BLE001 - a crash is reported as one and the walk goes on
            ok, lines = False, []
            print(f"{path}: crash: {type(err).__name__}: {err}")
        compiled += ok
        found += len(lines)
        for line in lines:
            print(f"{path}: {line}")
        if not ok and args.list:
            print(f"{path}: does not compile")
    print(f"walked: {len(programs)} programs, {compiled} compiled, {found} mismatches")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
