"""The pass manager: runs the midend's passes over the typed IR, in order.

A pass is any object with a `name` and a call `(program, ctx) -> program`
(a class instance, or a function given a name by `@ir_pass("name")`); one
whose `required` is true cannot be skipped (later passes rely on it).  It
returns a new `ir.Program` (nodes are immutable: it rebuilds what it changes
with `dataclasses.replace`), reports user errors to `ctx.diags`, says what it
did with `ctx.report`, and leaves facts for later stages in side tables of
`ctx.result` (e.g. `table_structures`), never in annotations.

As p4c's `PassManager`: the passes run in order; the run stops after the
first pass that reports an error; `dump_after` writes the IR after one pass
(or after each, "all") as `ir.to_json` prints it; `skip` leaves passes out;
`validate` checks the IR's invariants before the first pass and after each
(validate.py), as p4c re-runs its type checker.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Optional, Protocol, TextIO

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Diagnostics, InternalError, Loc
from p4odp.transpiler.architectures import Architecture, architecture_of
from p4odp.transpiler.passes._walk import main_instance
from p4odp.transpiler.passes.validate import FRONT_END, Validator

if TYPE_CHECKING:  # control_plane.py imports this module
    from p4odp.transpiler.passes.control_plane import ControlPlaneObjects

__all__ = ["Pass", "PassContext", "PassOptions", "PassResult", "PassManager", "ir_pass"]

COMMAND_LINE = Loc("<command line>", 0, 0)


class Pass(Protocol):
    name: str

    def __call__(self, program: ir.Program, ctx: "PassContext") -> ir.Program: ...


def ir_pass(name: str) -> Callable:
    """Make a function `(program, ctx) -> program` a pass called `name`."""

    def named(fn: Callable) -> Callable:
        fn.name = name
        return fn

    return named


@dataclass
class PassOptions:
    """How to run the passes.

    `dump_after`: a pass name or "all"; the IR after it goes to
    `dump_dir/<dump_stem>.<pass>.ir.json` when `dump_dir` is set, else to
    `dump_stream` (standard error by default).  `skip`: names of passes not
    to run.  `verbose`: write each pass's reports to `report_stream`
    (standard error by default) as they are made.  `validate`: check the IR
    before the first pass and after each (an `InternalError` names the pass
    that broke it); on by default when the environment sets
    `P4ODP_VALIDATE_IR` to anything but 0.
    """

    dump_after: Optional[str] = None
    skip: Iterable[str] = ()
    verbose: bool = False
    dump_dir: Optional[str] = None
    dump_stem: str = "program"
    dump_stream: Optional[TextIO] = None
    report_stream: Optional[TextIO] = None
    validate: bool = field(default_factory=lambda: os.environ.get("P4ODP_VALIDATE_IR", "0") not in ("", "0"))


@dataclass
class PassResult:
    """What the passes produced.

    `program` is the IR after the last pass, None when a pass reported an
    error (or the options were wrong).  `control_plane` lists the objects
    a controller sees (control_plane.py).  `table_structures` maps each table's
    control-plane name to the lookup structure chosen for it (see
    `table_structures.py`; empty when that pass did not run).  `table_layouts`
    maps each table of the pipeline (by its name in the IR) to its
    `TableLayout`, and `actions` each action tables run to its id and data
    layout (table_layout.py), `action_profiles` the action profiles and selectors
    their `implementation` properties name, by key (TableLayout.profile).  `byte_aligned` names the parsers and
    deparsers whose every header starts at a whole byte (packet_alignment.py);
    `deparse_in_place`, when not None, maps each header the deparser emits to
    where it is in the packet and the fields the program may write: the
    deparser then writes those in the packet itself (deparse_in_place.py);
    `in_place_headers` is the headers type whose member paths it maps.
    `burst_lookups` maps each table whose key is bytes of the packet to
    where they are (burst_lookup.py).  `unread_fields` maps header types
    to the fields nothing reads, which the parser does not load
    (unread_fields.py); `metadata_read` the fields of the architecture's metadata the
    program reads (None: it may read any), the only ones the pipeline sets; `times_read`
    whether it may read a time (a field named in Architecture.timed_fields).
    `reports` are
    the passes' reports, `"pass: message (file:line:col)"`, verbose or not;
    `ran` the names of the passes that ran.
    """

    program: Optional[ir.Program]
    architecture: Optional[Architecture] = None  # of `main`, None without one the compiler knows
    control_plane: Optional[ControlPlaneObjects] = None
    table_structures: dict[str, str] = field(default_factory=dict)
    table_layouts: dict = field(default_factory=dict)
    actions: dict = field(default_factory=dict)
    action_profiles: dict = field(default_factory=dict)
    c_types: dict = field(default_factory=dict)
    byte_aligned: set = field(default_factory=set)
    deparse_in_place: Optional[dict] = None
    in_place_headers: Optional[t.Type] = None
    burst_lookups: dict = field(default_factory=dict)
    unread_fields: dict = field(default_factory=dict)
    metadata_read: Optional[frozenset] = None
    times_read: bool = True
    reports: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)


@dataclass
class PassContext:
    """What a pass sees besides the program: diagnostics, options, the side tables being filled."""

    diags: Diagnostics
    options: PassOptions
    result: PassResult
    pass_name: str = ""

    def report(self, message: str, loc: Optional[Loc] = None) -> None:
        """Say what the pass did, e.g. `report("removed action a", decl.loc)`."""
        line = f"{self.pass_name}: {message}" + (f" ({loc})" if loc is not None else "")
        self.result.reports.append(line)
        if self.options.verbose:
            stream = self.options.report_stream or sys.stderr
            stream.write(line + "\n")


class PassManager:
    def __init__(self, passes: Iterable[Pass]) -> None:
        self.passes = list(passes)
        names = [p.name for p in self.passes]
        if len(set(names)) != len(names):
            raise InternalError(f"two passes share a name: {names}")

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.passes]

    def run(self, program: ir.Program, diags: Diagnostics, options: Optional[PassOptions] = None) -> PassResult:
        options = options or PassOptions()
        main = main_instance(program)
        result = PassResult(program, architecture_of(main) if main is not None else None)
        if not self.check_options(options, diags):
            result.program = None
            return result
        skip = set(options.skip)
        validate = Validator() if options.validate else None
        if validate is not None:
            validate(program, FRONT_END)
        for p in self.passes:
            ctx = PassContext(diags, options, result, p.name)
            ran = p.name not in skip
            if not ran:
                ctx.report("skipped (--skip-pass)")
            else:
                errors = diags.error_count
                new = p(program, ctx)
                if not isinstance(new, ir.Program):
                    raise InternalError(f"pass {p.name} returned {type(new).__name__}, not a Program")
                result.ran.append(p.name)
                if diags.error_count > errors:
                    result.program = None
                    return result
                program = new
                result.program = program
            if options.dump_after in (p.name, "all"):
                self.dump(program, p.name, options)
            if ran and validate is not None:  # after the dump, which then shows the broken IR
                validate(program, p.name)
        return result

    def check_options(self, options: PassOptions, diags: Diagnostics) -> bool:
        known = ", ".join(self.names)
        ok = True
        if options.dump_after is not None and options.dump_after != "all" and options.dump_after not in self.names:
            diags.error(COMMAND_LINE, f"--dump-after: unknown pass '{options.dump_after}' (passes: {known}, or all)")
            ok = False
        required = {p.name for p in self.passes if getattr(p, "required", False)}
        for name in options.skip:
            if name not in self.names:
                diags.error(COMMAND_LINE, f"--skip-pass: unknown pass '{name}' (passes: {known})")
                ok = False
            elif name in required:
                diags.error(COMMAND_LINE, f"--skip-pass: the pass '{name}' cannot be skipped: the passes after it "
                                          f"rely on what it does")
                ok = False
        return ok

    def dump(self, program: ir.Program, name: str, options: PassOptions) -> None:
        text = json.dumps(ir.to_json(program), indent=1) + "\n"
        if options.dump_dir is not None:
            os.makedirs(options.dump_dir, exist_ok=True)
            path = os.path.join(options.dump_dir, f"{options.dump_stem}.{name}.ir.json")
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
            return
        stream = options.dump_stream or sys.stderr
        if options.dump_after == "all":  # several documents: say which is which
            stream.write(f"// IR after {name}\n")
        stream.write(text)
