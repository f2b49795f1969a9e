"""Printing the C model through the Jinja2 templates of `templates/`."""

from __future__ import annotations

import os
import re
import traceback
from importlib import resources
from typing import Optional

import jinja2

from p4odp.diagnostics import CompileError, Diagnostics, Loc
from p4odp.transpiler.model import CProgram

__all__ = ["render_datapath"]


def _environment(template_dirs: tuple) -> jinja2.Environment:
    """A target's template folders come first: a template of the same name replaces the
    built-in one."""
    folders = [str(folder) for folder in template_dirs] + [str(resources.files("p4odp.templates"))]
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    environment.filters["c_string"] = _c_string
    environment.filters["c_bool"] = _c_bool
    return environment


def _c_bool(value: bool) -> str:
    return "true" if value else "false"


def _c_string(data: bytes, indent: str = "\t") -> str:
    """`data` as adjacent C string literals of hex escapes, 32 bytes to a line."""
    lines = ['"' + "".join(f"\\x{byte:02x}" for byte in data[at:at + 32]) + '"' for at in range(0, len(data), 32)]
    return f"\n{indent}".join(lines) or '""'


# Templates print this after code that has `#line`s pointing into the P4 source;
# it becomes a `#line` that points back into the generated file.
LINE_RESET = "#pragma p4odp line-reset"
_LINE = re.compile(r"#line (\d+)")
# Lines that compile to no code and have no line in the debug information: blank, a comment, a
# preprocessor directive.  (A label has one.)
_NO_CODE = re.compile(r"\s*($|/[*/]|#)")


def _hold_lines(lines: list[str]) -> list[str]:
    """`lines` with every line of code after a `#line N "prog.p4"` given line N again, up to
    the next line reset.  The compiler counts on from N for the lines that follow: a statement
    that becomes several lines of C (an extract, a checksum) would give the later ones to the
    P4 lines below it, comments and blank lines among them, or to lines past the end of the
    file, and so would gdb, perf and callgrind."""
    held, out = None, []
    for line in lines:
        match = _LINE.match(line)
        if match:
            held, fresh = match[1], True
        elif line == LINE_RESET:
            held = None
        elif held is not None and not _NO_CODE.match(line):
            if not fresh:
                out.append(f"#line {held}")
            fresh = False
        out.append(line)
    return out


def _target_template(err: Exception, template_dirs: tuple) -> Optional[tuple[str, int]]:
    """(file, line) of the innermost template of `template_dirs` that `err` comes from."""
    folders = [os.path.realpath(folder) + os.sep for folder in template_dirs]
    places = []
    if isinstance(err, jinja2.TemplateSyntaxError) and err.filename:
        places.append((err.filename, err.lineno or 0))
    places += [(frame.f_code.co_filename, line) for frame, line in traceback.walk_tb(err.__traceback__)][::-1]
    return next(((name, line) for name, line in places
                 if any(os.path.realpath(name).startswith(folder) for folder in folders)), None)


def render_datapath(program: CProgram, template_dirs: tuple = (), filename: str = "datapath.c",
                    diags: Optional[Diagnostics] = None) -> str:
    """datapath.c from the templates.  An error in one of a target's `template_dirs` is the
    target's fault: with `diags` it is reported at its template line and CompileError raised."""
    try:
        text = _environment(tuple(template_dirs)).get_template("datapath.c.j2").render(
            program=program, glue=program.pipeline, line_reset=LINE_RESET)
    except jinja2.TemplateError as err:
        where = _target_template(err, template_dirs)
        if diags is None or where is None:
            raise
        diags.error(Loc(where[0], where[1], 0), f"in a template of the target: {type(err).__name__}: {err}")
        raise CompileError("a target template failed") from err
    lines = _hold_lines(text.split("\n"))
    for number, line in enumerate(lines, 1):
        if line == LINE_RESET:
            lines[number - 1] = f'#line {number + 1} "{filename}"'
    return "\n".join(lines)
