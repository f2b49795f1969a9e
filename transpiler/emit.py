"""Printing the C model through the Jinja2 templates of `templates/`."""

from __future__ import annotations

from importlib import resources

import jinja2

from p4odp.transpiler.model import CProgram

__all__ = ["render_datapath"]


def _environment() -> jinja2.Environment:
    folder = resources.files("p4odp.templates")
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render_datapath(program: CProgram) -> str:
    return _environment().get_template("datapath.c.j2").render(program=program, glue=program.pipeline)
