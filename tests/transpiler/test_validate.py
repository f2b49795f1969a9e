"""validate: the IR's invariants, checked before the first pass and after each.

Valid programs pass; each check is shown catching an IR broken on purpose
(with `dataclasses.replace`, from a real program) by a pass, and naming it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from midend_snippets import REPO, ingress, load, nodes, the, v1model

from p4odp import ir
from p4odp.cli import main
from p4odp.diagnostics import Diagnostics, InternalError
from p4odp.frontend import FrontendOptions, load_program
from p4odp.transpiler import passes
from p4odp.transpiler.passes import Inlining, PassManager, PassOptions, default_passes, ir_pass
from p4odp.transpiler.passes._walk import map_children

PROGRAMS = [pytest.param(p, id=p.stem)
            for p in sorted([*(REPO / "examples").glob("*/*.p4"), *(REPO / "tests" / "packets").glob("*.p4")])]

SOURCE = v1model("""
    {
        bit<8> tmp = hdr.h.a;
        hdr.h.b = tmp;
    }
    t.apply();
    hdr.h.w = (bit<16>)SIZE;
""", locals="""
    action set(bit<8> v) { hdr.h.a = v; }
    table t { key = { hdr.h.a : exact; } actions = { set; NoAction; } default_action = set(1); }
""", globals="const bit<8> SIZE = 64;", parser="""
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.a) {
            1: next;
            default: accept;
        }
    }
    state next { transition accept; }
""")


@pytest.fixture
def program(tmp_path: Path) -> ir.Program:
    return load(tmp_path, SOURCE)


def swap(root: ir.Node, old: ir.Node, new) -> ir.Node:
    """`root` with the node `old` (by identity) replaced by `new`."""
    def visit(node: ir.Node) -> ir.Node:
        return new if node is old else map_children(node, visit)

    return visit(root)


def breaking(broken: ir.Program):
    """A pass named `breaker` that returns `broken`."""
    return ir_pass("breaker")(lambda program, ctx: broken)


def validate(program: ir.Program, broken: ir.Program) -> None:
    """Run `breaker` (which returns `broken`) after the front end's `program`, with validation."""
    PassManager([breaking(broken)]).run(program, Diagnostics(), PassOptions(validate=True))


def invalid(message: str, node: ir.Node):
    """Expect `InternalError` naming the breaker, `message` and the position of `node`."""
    return pytest.raises(InternalError, match="^" + re.escape(f"IR invalid after pass breaker: {message} at "
                                                              f"{node.loc}") + "$")


# ----------------------------------------------------------------------
# Valid programs


@pytest.mark.parametrize("path", PROGRAMS)
def test_every_program_of_the_repository_stays_valid_through_the_passes(path: Path):
    diags = Diagnostics()
    program = load_program(str(path), FrontendOptions(), diags)
    assert program is not None, [d.message for d in diags.items]
    result = PassManager(default_passes()).run(program, diags, PassOptions(validate=True))
    assert result.program is not None and result.ran == [p.name for p in default_passes()]


def test_inlined_parameter_defaults_may_stay_untyped(tmp_path: Path):
    # The front end leaves defaults as written; inlining passes `k`'s default (5) as the argument.
    program = load(tmp_path, v1model("sub.apply(hdr.h.a);", "Sub() sub;", """
        control Sub(inout bit<8> v, in bit<8> k = 5) { apply { v = v + k; } }
    """))
    result = PassManager([Inlining()]).run(program, Diagnostics(), PassOptions(validate=True))
    assert any(n.type is None for n in nodes(ingress(result.program).body, ir.IntLiteral))


def test_validation_is_off_unless_asked_for(program: ir.Program, monkeypatch):
    broken = replace(program, declarations=list(program.declarations))
    monkeypatch.delenv("P4ODP_VALIDATE_IR", raising=False)
    assert not PassOptions().validate
    assert PassManager([breaking(broken)]).run(program, Diagnostics()).program is broken
    monkeypatch.setenv("P4ODP_VALIDATE_IR", "0")
    assert not PassOptions().validate
    monkeypatch.setenv("P4ODP_VALIDATE_IR", "1")
    assert PassOptions().validate
    with pytest.raises(InternalError, match="after pass breaker: Program.declarations is a list"):
        PassManager([breaking(broken)]).run(program, Diagnostics())


# ----------------------------------------------------------------------
# One test per check


def test_the_front_ends_output_is_checked_before_the_first_pass(program: ir.Program):
    [literal] = [n for n in nodes(the(program, "SIZE", ir.Constant)) if isinstance(n, ir.IntLiteral)]
    broken = swap(program, literal, replace(literal, type=None))
    with pytest.raises(InternalError, match=re.escape(f"IR invalid after the front end: IntLiteral has no "
                                                      f"semantic type at {literal.loc}")):
        PassManager(default_passes()).run(broken, Diagnostics(), PassOptions(validate=True))


def test_an_expression_without_a_semantic_type(program: ir.Program):
    [tmp] = [n for n in nodes(ingress(program).body, ir.PathExpression) if n.name == "tmp"]
    with invalid("PathExpression tmp has no semantic type", tmp):
        validate(program, swap(program, tmp, replace(tmp, type=None)))


def test_a_type_that_is_not_a_semantic_type(program: ir.Program):
    [tmp] = [n for n in nodes(ingress(program).body, ir.PathExpression) if n.name == "tmp"]
    with invalid("PathExpression tmp has type 'bit<8>', not a semantic type", tmp):
        validate(program, swap(program, tmp, replace(tmp, type="bit<8>")))


def test_a_list_where_a_tuple_belongs(program: ir.Program):
    block = ingress(program).body
    with invalid("Block.statements is a list, not a node, a tuple or a plain value", block):
        validate(program, swap(program, block, replace(block, statements=list(block.statements))))


def test_a_foreign_object_among_the_nodes(program: ir.Program):
    block = ingress(program).body
    statements = (*block.statements, {"node": "Assignment"})
    with invalid("Block.statements holds a dict", block):
        validate(program, swap(program, block, replace(block, statements=statements)))


def test_a_loc_that_is_not_a_loc(program: ir.Program):
    [tmp] = [n for n in nodes(ingress(program).body, ir.PathExpression) if n.name == "tmp"]
    broken = swap(program, tmp, replace(tmp, loc="prog.p4:1:1"))
    with pytest.raises(InternalError, match="^IR invalid after pass breaker: PathExpression has loc "
                                            "'prog.p4:1:1', not a Loc$"):
        validate(program, broken)


def test_a_name_declared_nowhere(program: ir.Program):
    [tmp] = [n for n in nodes(ingress(program).body, ir.PathExpression) if n.name == "tmp"]
    with invalid("gone names no declaration visible here", tmp):
        validate(program, swap(program, tmp, replace(tmp, name="gone")))


def test_a_name_used_outside_the_block_that_declares_it(program: ir.Program):
    body = ingress(program).body
    inner = body.statements[0]
    use = inner.statements[1]  # hdr.h.b = tmp;
    moved = replace(body, statements=(replace(inner, statements=inner.statements[:1]), use,
                                      *body.statements[1:]))
    with invalid("tmp names no declaration visible here", use.value):
        validate(program, swap(program, body, moved))


def test_a_global_name_that_is_not_top_level(program: ir.Program):
    [hdr] = [n for n in nodes(ingress(program).body, ir.PathExpression) if n.name == "hdr"][:1]
    with invalid(".hdr names no top-level declaration", hdr):
        validate(program, swap(program, hdr, replace(hdr, is_global=True)))


def test_a_removed_declaration_still_used_by_an_unchanged_one(program: ir.Program):
    # Ing is the same object after the pass: it is checked again because a name it uses went.
    broken = replace(program, declarations=tuple(d for d in program.declarations if getattr(d, "name", "") != "SIZE"))
    [size] = [n for n in nodes(ingress(program).body, ir.PathExpression) if n.name == "SIZE"]
    with invalid("SIZE names no declaration visible here", size):
        validate(program, broken)


def test_a_table_naming_an_action_that_does_not_exist(program: ir.Program):
    ing = ingress(program)
    table = the(program, "t", ir.Table)
    actions = next(p for p in table.properties if p.name == "actions")
    ref = actions.value[0]
    new_table = replace(table, properties=tuple(replace(p, value=(replace(ref, name="gone"), *p.value[1:]))
                                                if p is actions else p for p in table.properties))
    with invalid("table t: actions names gone, which is no action of Ing nor a top-level one", ref):
        validate(program, swap(program, ing, replace(ing, locals=tuple(new_table if d is table else d
                                                                           for d in ing.locals))))


def test_a_default_action_that_does_not_exist(program: ir.Program):
    table = the(program, "t", ir.Table)
    default = next(p for p in table.properties if p.name == "default_action")
    renamed = replace(default, value=replace(default.value, name="gone"))
    with invalid("table t: default_action names gone, which is no action of Ing nor a top-level one", default.value):
        validate(program, swap(program, default, renamed))


def test_a_transition_to_a_state_that_does_not_exist(program: ir.Program):
    parser = the(program, "P", ir.Parser)
    start = parser.states[0]
    case = start.transition.cases[0]
    with invalid("parser state P.start goes to nowhere, which is no state of P", case.state):
        validate(program, swap(program, case.state, replace(case.state, name="nowhere")))


def test_a_parser_without_a_start_state(program: ir.Program):
    parser = the(program, "P", ir.Parser)
    renamed = replace(parser, states=(replace(parser.states[0], name="begin"), *parser.states[1:]))
    with invalid("parser P has no start state", parser):
        validate(program, swap(program, parser, renamed))


def test_a_state_without_a_transition(program: ir.Program):
    state = the(program, "next", ir.ParserState)
    with invalid("parser state P.next has no transition", state):
        validate(program, swap(program, state, replace(state, transition=None)))


# ----------------------------------------------------------------------
# p4odp compile --validate-ir


def test_validate_ir_on_the_command_line(tmp_path: Path, monkeypatch, capsys):
    source = tmp_path / "prog.p4"
    source.write_text(SOURCE)

    @ir_pass("untyping")
    def untyping(program: ir.Program, ctx) -> ir.Program:
        [size] = [n for n in nodes(ingress(program).body, ir.PathExpression) if n.name == "SIZE"]
        return swap(program, size, replace(size, type=None))

    monkeypatch.setattr(passes, "default_passes", lambda: [Inlining(), untyping])
    monkeypatch.delenv("P4ODP_VALIDATE_IR", raising=False)
    command = ["compile", str(source), "--emit", "ir", "--dump-after", "untyping"]
    assert main(command) == 0
    capsys.readouterr()
    assert main([*command, "--validate-ir"]) == 2
    err = capsys.readouterr().err
    assert "p4odp: internal error: IR invalid after pass untyping: PathExpression SIZE has no semantic type at " \
           f"{source}:" in err
    assert "please report" in err

