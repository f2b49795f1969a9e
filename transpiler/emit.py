"""Printing the C model through the Jinja2 templates of `templates/`."""

from __future__ import annotations

from importlib import resources

import jinja2

from p4odp.transpiler.model import CProgram

__all__ = ["render_datapath"]


def _environment(template_dirs: tuple) -> jinja2.Environment:
    """A target's template folders come first: a template of the same name replaces the
    built-in one."""
    folders = [str(folder) for folder in template_dirs] + [str(resources.files("p4odp.templates"))]
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


# Templates print this after code that has `#line`s pointing into the P4 source;
# it becomes a `#line` that points back into the generated file.
LINE_RESET = "#pragma p4odp line-reset"


def render_datapath(program: CProgram, template_dirs: tuple = (), filename: str = "datapath.c") -> str:
    text = _environment(tuple(template_dirs)).get_template("datapath.c.j2").render(program=program, glue=program.pipeline,
                                                               line_reset=LINE_RESET)
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if line == LINE_RESET:
            lines[number - 1] = f'#line {number + 1} "{filename}"'
    return "\n".join(lines)
