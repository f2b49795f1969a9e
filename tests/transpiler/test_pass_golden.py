"""One golden file per midend pass: what it makes of a small program written to show it.

For each pass of `default_passes()`, `golden/PASS.p4` goes through the passes
up to and including that one (with IR validation on), and `golden/PASS.txt`
holds the IR after it, the pass's reports and the side tables (`c_types`,
`table_structures`).  The IR is `ir.to_json`'s, printed compactly: the
program's own declarations (the architecture's are left out), one line per
declaration or statement, expressions in P4 syntax with their type, positions
as `@line:col`.

Regenerate with `python3 -m pytest tests/transpiler/test_pass_golden.py
--update-golden` after an intended change, and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from midend_snippets import run

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.frontend.preprocess import architecture_include_dir
from p4odp.transpiler.passes import PassOptions, PassResult, default_passes
from p4odp.transpiler.passes._walk import is_architecture_decl

GOLDEN = Path(__file__).resolve().parent / "golden"
PASSES = [p.name for p in default_passes()]


@pytest.mark.parametrize("name", PASSES)
def test_pass_output_matches_golden(name: str, request):
    source = GOLDEN / f"{name}.p4"
    diags = Diagnostics()
    program = load_program(str(source), FrontendOptions(), diags)
    assert program is not None, [d.message for d in diags.items]
    passes = default_passes()[:PASSES.index(name) + 1]
    text = render(run(program, passes, PassOptions(validate=True)), name, source)
    golden = GOLDEN / f"{name}.txt"
    if request.config.getoption("--update-golden"):
        golden.write_text(text)
    assert golden.exists(), f"no golden file {golden.name}: run pytest with --update-golden"
    assert text == golden.read_text(), f"the output of {name} changed; review, then --update-golden"


def test_every_pass_has_a_program_and_a_golden_file():
    assert sorted(p.stem for p in GOLDEN.glob("*.p4")) == sorted(PASSES)
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == sorted(PASSES)


# ----------------------------------------------------------------------
# Rendering


def render(result: PassResult, name: str, source: Path) -> str:
    own = [d for d in result.program.declarations if not is_architecture_decl(d)]
    lines = [f"// {source.name} after {' > '.join(result.ran)}; the IR of its own declarations", ""]
    for decl in own:
        lines.extend(_node(ir.to_json(decl), ""))
    lines += ["", f"// reports of {name}"]
    lines += [r for r in result.reports if r.startswith(f"{name}:")] or ["(none)"]
    if name == "control-plane":
        objects = result.control_plane
        lines += ["", "// control_plane"]
        lines += [f"instance {d.control_name or d.name}" for d in objects.top_instances]
        for found in objects.blocks:
            lines += [f"{found.block.name}:"]
            lines += [f"  action {a.control_name or a.name}{' (tables)' if a.name in found.in_tables else ''}"
                      for a in found.actions]
            lines += [f"  instance {d.control_name or d.name}" for d in found.instances]
            lines += [f"  table {table.control_name or table.name}" for table in found.tables]
            lines += [f"  digest {d.name} ({d.type})" for d in found.digests]
            lines += [f"  digest call @{loc.line}:{loc.col}: {name}" for loc, name in found.digest_calls.items()]
            lines += [f"  value_set {v.control_name or v.name}" for v in found.value_sets]
        lines += [f"controller_header {h.name}" for h in objects.controller_headers]
    if name == "type-lowering":
        lines += ["", "// c_types"]
        lines += sorted(f"{typ}: {c.decl}{c.array}" for typ, c in result.c_types.items())
    if name == "packet-alignment":
        lines += ["", "// byte_aligned"]
        lines += sorted(result.byte_aligned) or ["(none)"]
    if name == "deparse-in-place":
        lines += ["", "// deparse_in_place"]
        plan = result.deparse_in_place
        lines += ["(none)"] if plan is None else [
            f"{'.'.join(path)} at bit {header.offset}: {', '.join(sorted(header.written)) or '-'}"
            for path, header in plan.items()]
    if name == "burst-lookup":
        lines += ["", "// burst_lookups: (byte in the key, byte in the packet, bytes)"]
        lines += [f"{table}: {list(parts)}" for table, parts in result.burst_lookups.items()] or ["(none)"]
    if name == "unread-fields":
        lines += ["", "// unread_fields"]
        lines += [f"{header}: {', '.join(sorted(fields))}" for header, fields in result.unread_fields.items()] or \
            ["(none)"]
    if name == "table-structures":
        lines += ["", "// table_structures"]
        lines += [f"{table}: {structure}" for table, structure in result.table_structures.items()]
    if name == "table-layout":
        lines += ["", "// table_layouts"]
        for layout in result.table_layouts.values():
            lines += [f"{layout.index} {layout.name}: {layout.key_bytes}-byte key, size {layout.size}, "
                      f"{layout.structure}, default {layout.default_action}{list(layout.default_data)}"
                      f"{' const' if layout.default_const else ''}, {layout.data_bytes}-byte data"]
            lines += [f"  key {k.name}: {k.match_kind} {k.width} bits at bit {k.bit_offset}" for k in layout.keys]
            lines += [f"  action {a.id} {a.action}" for a in layout.actions]
            def matches(e):
                return " ".join(f"{m.low}->{m.high}" if k.match_kind == "range" else f"{m.value}&&&{m.mask}"
                                for m, k in zip(e.matches, layout.keys))

            lines += [f"  entry {matches(e)} priority {e.priority} => {e.action}{list(e.data)}"
                      for e in layout.entries]
            lines += [f"  tries {matches(e)} => {e.action}{list(e.data)}" for e in layout.code_entries]
        lines += ["", "// actions"]
        lines += [f"{a.id} {a.name}(" + ", ".join(f"{f.name}: {f.width} bits at byte {f.byte_offset}"
                                                 for f in a.data) + ")" for a in result.actions.values()]
    text = "\n".join(lines) + "\n"
    return text.replace(architecture_include_dir(), "<p4odp-include>").replace(f"{source.parent}/", "")


def _is_expression(tree) -> bool:
    return isinstance(tree, dict) and issubclass(getattr(ir, tree["node"]), ir.Expression)


def _node(tree: dict, indent: str) -> list[str]:
    """A declaration, statement or other non-expression node: a line (name, position, plain fields;
    false flags left out), then its children indented."""
    _, line, col = tree["loc"].rsplit(":", 2)  # all in the program's file
    head = [tree["node"]] + ([tree["name"]] if isinstance(tree.get("name"), str) else []) + [f"@{line}:{col}"]
    children = []
    for key, value in tree.items():
        if key in ("node", "name", "loc", "match_kind_loc", "type_params") or value is False:
            continue
        if key in ("type_ref", "underlying", "element_type"):
            if "type" not in tree:  # as written, where no semantic type stands beside it
                head.append(f"{key}={_type_ref(value)}")
        elif key == "annotations":
            head.extend(_annotation(a) for a in value)
        elif _is_expression(value):
            children.append(f"{indent}  {key}: {_expr(value)}  // {value.get('type', 'untyped')}")
        elif isinstance(value, dict):
            children.append(f"{indent}  {key}:")
            children.extend(_node(value, indent + "    "))
        elif isinstance(value, list) and all(_is_expression(v) or v["node"] == "Argument" for v in value):
            children.append(f"{indent}  {key}: {', '.join(_expr(v) for v in value)}")
        elif isinstance(value, list):
            children.append(f"{indent}  {key}:")
            for item in value:
                children.extend(_node(item, indent + "    "))
        else:
            head.append(f"{key}={json.dumps(value)}")
    return [indent + " ".join(head)] + children


def _annotation(tree: dict) -> str:
    if "body" in tree:
        return f"@{tree['name']}({tree['body']})"
    items = ", ".join(_expr(i) for i in tree.get("items", []))
    return f"@{tree['name']}[{items}]" if tree.get("structured") else f"@{tree['name']}({items})"


def _expr(tree: dict) -> str:
    """An expression as P4 writes it (the `ir.to_json` fields it prints are all there)."""
    node, e = tree["node"], _expr
    if node == "PathExpression":
        return ("." if tree.get("is_global") else "") + tree["name"]
    if node == "IntLiteral":
        width = tree.get("width")
        return f"{width}{'s' if tree.get('signed') else 'w'}{tree['value']}" if width else str(tree["value"])
    if node == "BoolLiteral":
        return "true" if tree.get("value") else "false"
    if node == "StringLiteral":
        return json.dumps(tree.get("value", ""))
    if node == "Member":
        return f"{e(tree['expr'])}.{tree['member']}"
    if node == "ArrayIndex":
        return f"{e(tree['expr'])}[{e(tree['index'])}]"
    if node == "Slice":
        return f"{e(tree['expr'])}[{e(tree['high'])}:{e(tree['low'])}]"
    if node == "Unary":
        return f"{tree['op']}{e(tree['expr'])}"
    if node == "Binary":
        return f"({e(tree['left'])} {tree['op']} {e(tree['right'])})"
    if node == "Mux":
        return f"({e(tree['cond'])} ? {e(tree['then'])} : {e(tree['otherwise'])})"
    if node == "Cast":
        return f"({tree['type']}){e(tree['expr'])}"
    if node == "Argument":
        return ("" if tree.get("name") is None else f"{tree['name']} = ") + (e(tree["value"]) if "value" in tree
                                                                            else "_")
    if node in ("MethodCall", "ConstructorCall"):
        callee = e(tree["method"]) if node == "MethodCall" else _type_ref(tree["type_ref"])
        return f"{callee}({', '.join(e(a) for a in tree.get('args', []))})"
    if node == "ListExpression":
        return "{" + ", ".join(e(v) for v in tree.get("elements", [])) + "}"
    if node == "TypeNameExpression":
        return tree["type"].removeprefix("type ")
    if node == "SelectExpression":
        cases = "; ".join(f"{e(c['keyset'])}: {e(c['state'])}" for c in tree["cases"])
        return f"select({', '.join(e(k) for k in tree['keys'])}) {{ {cases} }}"
    words = {"DefaultExpression": "default", "DontCare": "_", "InvalidExpression": "{#}"}
    return words.get(node) or json.dumps({k: v for k, v in tree.items() if k != "loc"})


def _type_ref(tree: dict) -> str:
    """A syntax type as written (where no semantic type stands beside it: casts, enums)."""
    node = tree["node"]
    if node == "TypeName":
        return tree["name"]
    if node == "BitsType":
        return f"{'int' if tree.get('signed') else 'bit'}<{_expr(tree['width'])}>"
    if node == "SpecializedType":
        return f"{tree['base']['name']}<{', '.join(_type_ref(a) for a in tree['args'])}>"
    return node.removesuffix("Type").lower()  # bool, string, error, ...
