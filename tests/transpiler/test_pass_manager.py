"""The pass manager (order, skip, stop after errors, dumps, reports), its command line and its wiring."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
from midend_snippets import REPO, decl, load, run, stf, v1model

from p4odp import ir
from p4odp import types as t
from p4odp.cli import main
from p4odp.diagnostics import Diagnostics, InternalError
from p4odp.transpiler import generate_c
from p4odp.transpiler.passes import PassManager, PassOptions, default_passes, ir_pass, midend

SOURCE = v1model("t.apply();", locals="""
    action set(bit<8> v) { hdr.h.a = v; }
    action unused_action() { hdr.h.a = 0; }
    table t { key = { hdr.h.a : exact; } actions = { set; NoAction; } size = SIZE; }
""", globals="const int SIZE = 64;")


@pytest.fixture
def program(tmp_path: Path) -> ir.Program:
    return load(tmp_path, SOURCE)


def appending(name: str, new_name: str):
    """A pass that appends a constant `new_name` to the program (so the order of the passes shows)."""

    @ir_pass(name)
    def append(program: ir.Program, ctx) -> ir.Program:
        ctx.report(f"ran after {ctx.result.ran}")
        value = ir.IntLiteral(program.loc, 1, type=t.InfInt())  # typed, as the validator requires
        marker = ir.Constant(program.loc, new_name, ir.IntType(program.loc), value, type=t.InfInt())
        return dataclasses.replace(program, declarations=program.declarations + (marker,))

    return append


def failing(name: str):
    @ir_pass(name)
    def fail(program: ir.Program, ctx) -> ir.Program:
        ctx.diags.error(program.loc, "this pass fails")
        return program

    return fail


def test_passes_run_in_order_and_say_so(program: ir.Program):
    result = run(program, [appending("first", "A"), appending("second", "B")])
    assert result.ran == ["first", "second"]
    assert [d.name for d in result.program.declarations[-2:]] == ["A", "B"]
    assert result.reports == ["first: ran after []", "second: ran after ['first']"]


def test_skipped_passes_do_not_run(program: ir.Program):
    result = run(program, [appending("first", "A"), appending("second", "B")], PassOptions(skip=["first"]))
    assert result.ran == ["second"]
    assert result.program.declarations[-1].name == "B" and decl(result.program, "A") is None
    assert result.reports[0] == "first: skipped (--skip-pass)"


def test_the_run_stops_after_a_pass_with_errors(program: ir.Program):
    diags = Diagnostics()
    result = PassManager([failing("bad"), appending("after", "A")]).run(program, diags)
    assert result.program is None and result.ran == ["bad"]
    assert [d.message for d in diags.items] == ["this pass fails"]


def test_unknown_pass_names_are_errors(program: ir.Program):
    diags = Diagnostics()
    result = PassManager(default_passes()).run(program, diags, PassOptions(dump_after="nope", skip=["gone"]))
    assert result.program is None and result.ran == []
    messages = [d.message for d in diags.items]
    known = ", ".join(p.name for p in default_passes())
    assert messages == [f"--dump-after: unknown pass 'nope' (passes: {known}, or all)",
                        f"--skip-pass: unknown pass 'gone' (passes: {known})"]


def test_a_pass_must_return_a_program(program: ir.Program):
    with pytest.raises(InternalError, match="pass broken returned NoneType"):
        PassManager([ir_pass("broken")(lambda p, ctx: None)]).run(program, Diagnostics())
    with pytest.raises(InternalError, match="share a name"):
        PassManager([appending("same", "A"), appending("same", "B")])


def test_dump_after_one_pass_writes_its_ir_to_the_output_folder(program: ir.Program, tmp_path: Path):
    options = PassOptions(dump_after="dead-code", dump_dir=str(tmp_path / "out"), dump_stem="prog")
    result = run(program, default_passes(), options)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["prog.dead-code.ir.json"]
    dumped = json.loads((tmp_path / "out" / "prog.dead-code.ir.json").read_text())
    assert dumped == ir.to_json(result.program)  # table-structures does not change the IR
    assert "unused_action" not in json.dumps(dumped)


def test_dump_after_all_writes_each_pass(program: ir.Program, tmp_path: Path):
    run(program, default_passes(), PassOptions(dump_after="all", dump_dir=str(tmp_path), dump_stem="prog",
                                               skip=["dead-code"]))
    names = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".json")
    assert names == sorted(f"prog.{p.name}.ir.json" for p in default_passes())  # a skipped one too


def test_dumps_without_a_folder_go_to_a_stream(program: ir.Program):
    one = io.StringIO()
    run(program, default_passes(), PassOptions(dump_after="constant-folding", dump_stream=one))
    assert json.loads(one.getvalue())["node"] == "Program"  # one dump: plain JSON
    every = io.StringIO()
    run(program, default_passes(), PassOptions(dump_after="all", dump_stream=every))
    headers = [line for line in every.getvalue().splitlines() if line.startswith("//")]
    assert headers == [f"// IR after {p.name}" for p in default_passes()]


def test_verbose_writes_the_reports_as_they_come(program: ir.Program):
    quiet, loud = io.StringIO(), io.StringIO()
    silent = run(program, default_passes(), PassOptions(report_stream=quiet))
    result = run(program, default_passes(), PassOptions(verbose=True, report_stream=loud))
    assert quiet.getvalue() == "" and silent.reports == result.reports
    lines = loud.getvalue().splitlines()
    assert lines == result.reports
    assert any(line.startswith("dead-code: removed action Ing.unused_action, never used (") for line in lines)
    assert any(line.startswith("table-structures: table Ing.t: cuckoo (exact 8 bits, size 64) (")
               for line in lines)
    assert result.table_structures == {"Ing.t": "cuckoo"}


def test_generate_c_runs_the_passes_first(program: ir.Program, tmp_path: Path):
    reports = io.StringIO()
    diags = Diagnostics()
    files = generate_c(program, str(tmp_path / "prog.p4"), diags, PassOptions(verbose=True, report_stream=reports))
    assert files is not None and "datapath.c" in files, [d.message for d in diags.items]
    assert "dead-code: removed action Ing.unused_action" in reports.getvalue()
    assert generate_c(program, str(tmp_path / "prog.p4"), Diagnostics()) is not None  # the old call still works


def test_generate_c_stops_when_a_pass_fails(program: ir.Program, tmp_path: Path):
    diags = Diagnostics()
    assert generate_c(program, "prog.p4", diags, PassOptions(skip=["no-such-pass"])) is None
    assert diags.error_count == 1


# ----------------------------------------------------------------------
# p4odp compile


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "prog.p4"
    path.write_text(SOURCE)
    return path


def test_emit_ir_prints_the_front_ends_ir_without_dump_after(source: Path, capsys):
    assert main(["compile", str(source), "--emit", "ir"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert "unused_action" in json.dumps(printed)  # before any pass


def test_emit_ir_with_dump_after_prints_the_ir_after_that_pass(source: Path, capsys):
    assert main(["compile", str(source), "--emit", "ir", "--dump-after", "dead-code"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["node"] == "Program" and "unused_action" not in out


def test_dump_after_with_an_output_folder_writes_files(source: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    assert main(["compile", str(source), "--emit", "ir", "--dump-after", "all", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(f"prog.{p.name}.ir.json" for p in default_passes())
    assert capsys.readouterr().out == ""


def test_skip_pass_and_verbose_on_the_command_line(source: Path, tmp_path: Path, capsys):
    assert main(["compile", str(source), "--emit", "c", "-o", str(tmp_path / "c"), "-v",
                 "--skip-pass", "dead-code", "--skip-pass", "table-structures"]) == 0
    err = capsys.readouterr().err
    assert "dead-code: skipped (--skip-pass)" in err and "table-structures: skipped (--skip-pass)" in err
    assert "constant-folding: replaced 1 reference(s) to constants" in err
    assert (tmp_path / "c" / "datapath.c").exists()
    assert main(["compile", str(source), "--emit", "c", "-o", str(tmp_path / "c"), "-v"]) == 0
    assert "dead-code: removed action Ing.unused_action, never used (" in capsys.readouterr().err


def test_unknown_pass_on_the_command_line_is_a_user_error(source: Path, tmp_path: Path, capsys):
    assert main(["compile", str(source), "--emit", "c", "-o", str(tmp_path), "--skip-pass", "folding"]) == 1
    assert "error: --skip-pass: unknown pass 'folding'" in capsys.readouterr().err


# ----------------------------------------------------------------------
# The examples behave the same after the passes


@pytest.mark.parametrize("example", ["l2fwd", "l3fwd"])
def test_examples_pass_their_stf_tests_after_the_passes(example: str, tmp_path: Path):
    path = REPO / "examples" / example / f"{example}.p4"
    from p4odp.frontend import FrontendOptions, load_program

    diags = Diagnostics()
    program = load_program(str(path), FrontendOptions(), diags)
    result = midend(program, diags)
    assert result.program is not None
    test = (REPO / "examples" / example / f"{example}.stf").read_text()
    outcome = stf(tmp_path, result.program, path, test, example)
    assert outcome.passed, outcome.report
