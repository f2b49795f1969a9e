"""Control-plane names of table key fields and action parameters, as p4c gives them (P4Runtime,
simple_switch_CLI, STF), kept as `@name` when a pass rewrites or renames what has them."""

from __future__ import annotations

from dataclasses import replace

from p4odp import ir

__all__ = ["key_name", "named_key", "param_name", "renamed_param"]


def key_name(element: ir.KeyElement) -> str:
    """The control-plane name of a table key field: its `@name`, else its expression as written."""
    return ir.name_annotation(element) or _expr_text(element.expr)


def _expr_text(expr: ir.Expression) -> str:
    if isinstance(expr, ir.PathExpression):
        return expr.name
    if isinstance(expr, ir.Member):
        return f"{_expr_text(expr.expr)}.{expr.member}"
    if isinstance(expr, ir.ArrayIndex) and isinstance(expr.index, ir.IntLiteral):
        return f"{_expr_text(expr.expr)}[{expr.index.value}]"
    if isinstance(expr, ir.MethodCall) and isinstance(expr.method, ir.Member) and expr.method.member == "isValid":
        return f"{_expr_text(expr.method.expr)}.$valid$"
    if isinstance(expr, ir.Slice):
        return f"{_expr_text(expr.expr)}[{expr.high.value if isinstance(expr.high, ir.IntLiteral) else '?'}:" \
               f"{expr.low.value if isinstance(expr.low, ir.IntLiteral) else '?'}]"
    return "key"


def named_key(element: ir.KeyElement) -> ir.KeyElement:
    """`element` with its control-plane name made explicit as `@name`, so that rewriting its expression
    (the inlining pass puts arguments in place of parameters) keeps the name."""
    if any(a.name == "name" for a in element.annotations):
        return element
    name = ir.Annotation(element.loc, "name", items=(ir.StringLiteral(element.loc, key_name(element)),))
    return replace(element, annotations=(*element.annotations, name))


def param_name(param: ir.Parameter) -> str:
    """The control-plane name of an action parameter: its `@name`, else its name."""
    return ir.name_annotation(param) or param.name


def renamed_param(param: ir.Parameter, name: str) -> ir.Parameter:
    """`param` named `name`, its control-plane name kept as `@name`."""
    if ir.name_annotation(param) is not None:
        return replace(param, name=name)
    keep = ir.Annotation(param.loc, "name", items=(ir.StringLiteral(param.loc, param.name),))
    return replace(param, name=name, annotations=(*param.annotations, keep))
