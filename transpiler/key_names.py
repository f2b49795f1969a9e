"""Control-plane names of table key fields and action parameters, as p4c gives them (P4Runtime,
simple_switch_CLI, STF), kept as `@name` when a pass rewrites or renames what has them."""

from __future__ import annotations

from dataclasses import replace

from p4odp import ir

__all__ = ["key_name", "param_name", "renamed_param"]


def key_name(element: ir.KeyElement) -> str:
    """The control-plane name of a table key field: its `@name` (the front end gives every key one)."""
    name = ir.name_annotation(element)
    assert name is not None, "a key without @name: the front end names every key"
    return name


def param_name(param: ir.Parameter) -> str:
    """The control-plane name of an action parameter: its `@name`, else its name."""
    return ir.name_annotation(param) or param.name


def renamed_param(param: ir.Parameter, name: str) -> ir.Parameter:
    """`param` named `name`, its control-plane name kept as `@name`."""
    if ir.name_annotation(param) is not None:
        return replace(param, name=name)
    keep = ir.Annotation(param.loc, "name", items=(ir.StringLiteral(param.loc, param.name),))
    return replace(param, name=name, annotations=(*param.annotations, keep))
