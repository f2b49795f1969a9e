"""The `p4odp` command line as a user sees it: `python3 -m p4odp.cli` in a subprocess.

Exit statuses, the diagnostic format (`file:line:col: error: message`, the
source line, a caret), several errors in one run and --max-errors, the
preprocessor options, `compile --emit ir`, `--version`, internal errors (status
2, a "please report" line, a traceback only with P4ODP_TRACEBACK=1; provoked in
process, through `p4odp.cli.main` with a patched type checker), and never a Python
traceback for a bad program.  Known gaps are strict xfails: they fail once fixed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from p4odp import __version__, cli
from p4odp.diagnostics import Diagnostics, InternalError

INVALID_DIR = Path(__file__).parent / "invalid"

# A complete, valid v1model program; {decls} goes before the ingress control,
# {ingress} is the ingress control's body.
TEMPLATE = """\
#include <core.p4>
#include <v1model.p4>

header ethernet_t {{
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}}

struct headers_t {{
    ethernet_t ethernet;
}}

struct metadata_t {{
}}

parser MyParser(packet_in packet, out headers_t hdr,
                inout metadata_t meta, inout standard_metadata_t standard_metadata) {{
    state start {{
        packet.extract(hdr.ethernet);
        transition accept;
    }}
}}

control MyVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {{
    apply {{ }}
}}
{decls}
control MyIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {{
{ingress}
}}

control MyEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {{
    apply {{ }}
}}

control MyComputeChecksum(inout headers_t hdr, inout metadata_t meta) {{
    apply {{ }}
}}

control MyDeparser(packet_out packet, in headers_t hdr) {{
    apply {{
        packet.emit(hdr.ethernet);
    }}
}}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
         MyComputeChecksum(), MyDeparser()) main;
"""

FORWARD = """\
    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
    }
    table dmac {
        key = { hdr.ethernet.dstAddr: exact; }
        actions = { forward; NoAction; }
        default_action = NoAction();
    }
    apply {
        dmac.apply();
    }"""

DIAGNOSTIC = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|note): (?P<message>.*)$")


def program(ingress: str = FORWARD, decls: str = "") -> str:
    return TEMPLATE.format(ingress=ingress, decls=decls)


def position(text: str, snippet: str, nth: int = 0) -> tuple[int, int]:
    """The 1-based line and column of the `nth` occurrence of `snippet` in `text`."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(snippet, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`python3 -m p4odp.cli ARGS`; whatever happens, its output shows no Python traceback."""
    env = {k: v for k, v in os.environ.items() if k != "P4ODP_TRACEBACK"}
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", *args], cwd=cwd, env=env,
                            capture_output=True, text=True, errors="replace", timeout=120)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def diagnostics(output: str) -> list[dict]:
    return [m.groupdict() for m in map(DIAGNOSTIC.match, output.splitlines()) if m]


def errors(output: str) -> list[dict]:
    return [d for d in diagnostics(output) if d["severity"] == "error"]


@pytest.fixture
def write(tmp_path):
    """write(name, text) -> path of a new file in a temporary folder."""
    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path
    return write


# ----------------------------------------------------------------------------
# Exit statuses


def test_check_valid_program_exits_0_silently(write):
    result = run("check", str(write("ok.p4", program())))
    assert result.returncode == 0
    assert result.stdout == "" and result.stderr == ""


def test_check_invalid_program_exits_1(write):
    result = run("check", str(write("bad.p4", program(FORWARD.replace("= port;", "= prot;")))))
    assert result.returncode == 1
    assert [e["message"] for e in errors(result.stderr)] == ["prot: declaration not found"]


def test_unparseable_command_line_exits_2():
    result = run("check")
    assert result.returncode == 2
    assert "usage:" in result.stderr and "program" in result.stderr
    result = run("compile", "x.p4", "--emit", "binary")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_version():
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"p4odp {__version__}"


# ----------------------------------------------------------------------------
# Internal errors: provoked in process, through p4odp.cli.main


@pytest.fixture
def current_stderr(monkeypatch):
    """Make Diagnostics.render write to sys.stderr as it is when called, so that in-process
    output can be captured (see test_main_writes_diagnostics_to_the_current_stderr)."""
    original = Diagnostics.render
    monkeypatch.setattr(Diagnostics, "render", lambda self, out=None: original(self, out or sys.stderr))


@pytest.fixture
def broken_checker(monkeypatch):
    """Make the type checker crash, as a bug in p4odp would."""
    def crash(program, diags, **options):
        return program.no_such_attribute  # AttributeError, a Python bug
    monkeypatch.setattr("p4odp.frontend.typecheck.check_program", crash)


def test_internal_error_exits_2_and_asks_for_a_report(write, broken_checker, monkeypatch, capsys):
    monkeypatch.delenv("P4ODP_TRACEBACK", raising=False)
    status = cli.main(["check", str(write("ok.p4", program()))])
    out, err = capsys.readouterr()
    assert status == 2
    assert "p4odp: internal error:" in err
    assert "this is a bug in p4odp; please report it" in err
    assert "Traceback" not in out + err
    assert out == ""


def test_internal_error_traceback_with_p4odp_traceback(write, broken_checker, monkeypatch, capsys):
    monkeypatch.setenv("P4ODP_TRACEBACK", "1")
    status = cli.main(["check", str(write("ok.p4", program()))])
    err = capsys.readouterr().err
    assert status == 2
    assert "this is a bug in p4odp; please report it" in err
    assert "Traceback (most recent call last)" in err
    assert "no_such_attribute" in err


def test_internal_error_exception_is_reported_the_same_way(write, monkeypatch, capsys):
    def fail(program, diags, **options):
        raise InternalError("unexpected IR node")
    monkeypatch.setattr("p4odp.frontend.typecheck.check_program", fail)
    monkeypatch.delenv("P4ODP_TRACEBACK", raising=False)
    status = cli.main(["compile", str(write("ok.p4", program())), "--emit", "ir"])
    out, err = capsys.readouterr()
    assert status == 2
    assert "p4odp: internal error: unexpected IR node" in err
    assert "please report it" in err and "Traceback" not in err
    assert out == ""  # no half-written IR


def test_internal_error_keeps_the_errors_found_before(write, current_stderr, monkeypatch, capsys):
    """Diagnostics recorded before the crash are still printed."""
    def fail(program, diags, **options):
        from p4odp.diagnostics import Loc
        diags.warning(Loc(str(path), 1, 1), "something odd")
        raise RuntimeError("boom")
    path = write("ok.p4", program())
    monkeypatch.setattr("p4odp.frontend.typecheck.check_program", fail)
    monkeypatch.delenv("P4ODP_TRACEBACK", raising=False)
    assert cli.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1:1: warning: something odd" in err
    assert "internal error: boom" in err


def test_main_writes_diagnostics_to_the_current_stderr(write):
    path = write("bad.p4", program(FORWARD.replace("= port;", "= prot;")))
    buffer = io.StringIO()
    with contextlib.redirect_stderr(buffer):
        assert cli.main(["check", str(path)]) == 1
    assert "prot: declaration not found" in buffer.getvalue()


# ----------------------------------------------------------------------------
# The diagnostic format


def test_diagnostic_format_relative_path(tmp_path, write):
    text = program(FORWARD.replace("bit<9> port", "bit<16> port"))
    write("bad.p4", text)
    result = run("check", "bad.p4", cwd=tmp_path)
    assert result.returncode == 1
    line, col = position(text, "port;")
    lines = result.stderr.splitlines()
    assert lines[0] == f"bad.p4:{line}:{col}: error: assignment: cannot convert bit<16> to bit<9>"
    assert lines[1] == text.splitlines()[line - 1]
    assert lines[2] == " " * (col - 1) + "^"
    assert len(lines) == 3


def test_caret_under_the_right_column_with_tabs(tmp_path, write):
    ingress = FORWARD.replace("        standard_metadata.egress_spec = port;",
                              "\t\tstandard_metadata.egress_spec =\tprot;")
    text = program(ingress)
    write("tabs.p4", text)
    result = run("check", "tabs.p4", cwd=tmp_path)
    assert result.returncode == 1
    line, col = position(text, "prot;")
    header, source, caret = result.stderr.splitlines()[:3]
    assert header == f"tabs.p4:{line}:{col}: error: prot: declaration not found"
    assert source == "\t\tstandard_metadata.egress_spec =\tprot;"
    # The caret line repeats the tabs, so the caret lands under `prot` at any tab width.
    assert caret == "\t\t" + " " * len("standard_metadata.egress_spec =") + "\t^"
    for tab_width in (2, 4, 8):
        assert caret.expandtabs(tab_width).index("^") == source.expandtabs(tab_width).index("prot")


def test_syntax_error_format(tmp_path, write):
    """The README's example: a missing semicolon is reported at the next token."""
    write("bad.p4", "#include <core.p4>\n\nheader ethernet_t {\n    bit<48> dstAddr;\n"
                    "    bit<48> srcAddr;\n    bit<16> etherType\n}\n")
    result = run("check", "bad.p4", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == "bad.p4:7:1: error: syntax error, unexpected '}', expecting ';'\n}\n^\n"


def test_error_in_an_included_file_names_that_file(tmp_path, write):
    write("include/headers.p4", "header ethernet_t {\n    bit<48> dstAddr\n}\n")
    write("main.p4", "#include <core.p4>\n#include \"headers.p4\"\n")
    result = run("check", "main.p4", "-I", "include", cwd=tmp_path)
    assert result.returncode == 1
    first = errors(result.stderr)[0]
    assert first["file"].endswith("headers.p4") and (first["line"], first["col"]) == ("3", "1")
    assert result.stderr.splitlines()[1] == "}"


# ----------------------------------------------------------------------------
# Several errors in one run, and --max-errors

SYNTAX_ERRORS = """\
#include <core.p4>

header ethernet_t {
    bit<48> dstAddr
}

struct metadata_t {
    bit<8> ttl;
}

header ipv4_t {
    bit<8>  ttl
    bit<32> dstAddr;
}

const bit<8> DEFAULT_TTL 64;
"""


def test_several_syntax_errors_in_one_run(write):
    result = run("check", str(write("bad.p4", SYNTAX_ERRORS)))
    assert result.returncode == 1
    found = [(int(e["line"]), e["message"]) for e in errors(result.stderr)]
    assert found == [
        (5, "syntax error, unexpected '}', expecting ';'"),
        (13, "syntax error, unexpected 'bit', expecting ';'"),
        (16, "syntax error, unexpected '64', expecting '='"),
    ]


TYPE_ERRORS = FORWARD.replace("""        standard_metadata.egress_spec = port;""", """\
        standard_metadata.egress_spec = 16w1;
        hdr.ethernet.etherType = hdr.ethernet.dstAddr;
        standard_metadata.mcast_group = 1;
        hdr.ethernet.srcAddr = ~1;""")


def test_several_type_errors_in_one_run(write):
    result = run("check", str(write("bad.p4", program(TYPE_ERRORS))))
    assert result.returncode == 1
    messages = [e["message"] for e in errors(result.stderr)]
    assert len(messages) == 4
    assert "cannot convert bit<16> to bit<9>" in messages[0]
    assert "cannot convert bit<48> to bit<16>" in messages[1]
    assert "mcast_group" in messages[2]
    assert "~" in messages[3]


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_max_errors_stops_after_n_errors(write, limit):
    result = run("check", str(write("bad.p4", program(TYPE_ERRORS))), "--max-errors", str(limit))
    assert result.returncode == 1
    assert len(errors(result.stderr)) == limit


def test_max_errors_stops_the_parser_too(write):
    result = run("check", str(write("bad.p4", SYNTAX_ERRORS)), "--max-errors", "1")
    assert result.returncode == 1
    assert len(errors(result.stderr)) == 1


def test_max_errors_says_that_it_stopped(write):
    result = run("check", str(write("bad.p4", program(TYPE_ERRORS))), "--max-errors", "2")
    assert re.search(r"stop|limit|too many", result.stderr.split("^")[-1], re.IGNORECASE)


# ----------------------------------------------------------------------------
# Preprocessor options: -I, -D, -U

NEEDS_CPU_PORT = """\
#ifndef CPU_PORT
#error "CPU_PORT is not set: compile with -D CPU_PORT=<port>"
#endif
"""

TO_CPU = """\
    action to_cpu() {
        standard_metadata.egress_spec = CPU_PORT;
    }
    apply {
        to_cpu();
    }"""


def test_define_satisfies_an_error_directive(write):
    path = write("cpu.p4", NEEDS_CPU_PORT + program(TO_CPU))
    result = run("check", str(path))
    assert result.returncode == 1
    (error,) = errors(result.stderr)
    assert (error["line"], error["col"]) == ("2", "2")
    assert "CPU_PORT is not set" in error["message"]
    assert run("check", str(path), "-D", "CPU_PORT=255").returncode == 0
    assert run("check", str(path), "-DCPU_PORT=9w64").returncode == 0


def test_undefine_wins_over_define(write):
    path = write("cpu.p4", NEEDS_CPU_PORT + program(TO_CPU))
    result = run("check", str(path), "-D", "CPU_PORT=255", "-U", "CPU_PORT")
    assert result.returncode == 1
    assert "CPU_PORT is not set" in result.stderr


VLAN = """\
#ifdef WITH_VLAN
header vlan_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> etherType;
}
#endif
"""

VLAN_INGRESS = """\
    apply {
#ifdef WITH_VLAN
        vlan_t tag;
        tag.setInvalid();
#endif
        standard_metadata.egress_spec = 1;
    }"""


def test_ifdef_follows_defines(write):
    path = write("vlan.p4", program(VLAN_INGRESS, decls=VLAN))
    without = run("compile", str(path), "--emit", "ir")
    with_vlan = run("compile", str(path), "--emit", "ir", "-D", "WITH_VLAN")
    assert without.returncode == 0 and with_vlan.returncode == 0
    assert "vlan_t" not in without.stdout
    assert '"vlan_t"' in with_vlan.stdout
    undone = run("compile", str(path), "--emit", "ir", "-D", "WITH_VLAN", "-U", "WITH_VLAN")
    assert undone.returncode == 0 and "vlan_t" not in undone.stdout


def test_v1model_version_define(write):
    """PortId_t exists from V1MODEL_VERSION 20200408 on."""
    path = write("port.p4", program(FORWARD.replace("bit<9> port", "PortId_t port")))
    result = run("check", str(path))
    assert result.returncode == 1
    assert [e["message"] for e in errors(result.stderr)] == ["PortId_t: declaration not found"]
    assert run("check", str(path), "-D", "V1MODEL_VERSION=20200408").returncode == 0
    bad = run("check", str(path), "-D", "V1MODEL_VERSION=20250101")
    assert bad.returncode == 1 and "unknown v1model version" in bad.stderr


def test_include_dir(tmp_path, write):
    write("include/constants.p4", "const bit<9> CPU_PORT = 255;\n")
    text = '#include "constants.p4"\n' + program(TO_CPU)
    path = write("src/prog.p4", text)
    result = run("check", str(path))
    assert result.returncode == 1
    (error,) = errors(result.stderr)
    assert (error["line"], error["col"]) == ("1", "10")
    assert "constants.p4: No such file or directory" in error["message"]
    assert run("check", str(path), "-I", str(tmp_path / "include")).returncode == 0
    assert run("check", str(path), f"-I{tmp_path / 'include'}").returncode == 0


def test_include_dirs_in_order(tmp_path, write):
    write("first/constants.p4", "const bit<9> CPU_PORT = 255;\n")
    write("second/constants.p4", "const bit<9> CPU_PORT = oops;\n")
    path = write("prog.p4", '#include "constants.p4"\n' + program(TO_CPU))
    assert run("check", str(path), "-I", str(tmp_path / "first"), "-I", str(tmp_path / "second")).returncode == 0
    result = run("check", str(path), "-I", str(tmp_path / "second"), "-I", str(tmp_path / "first"))
    assert result.returncode == 1 and "oops: declaration not found" in result.stderr


# ----------------------------------------------------------------------------
# Input files that are not there


def test_missing_input_file(tmp_path):
    result = run("check", "nosuch.p4", cwd=tmp_path)
    assert result.returncode == 1
    assert "nosuch.p4" in result.stderr and "no such file" in result.stderr
    assert result.stderr.count("\n") == 1


def test_missing_input_file_compile(tmp_path):
    result = run("compile", "nosuch.p4", "--emit", "ir", "-o", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert "no such file" in result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "out").exists()


def test_folder_as_input(tmp_path):
    result = run("check", str(tmp_path))
    assert result.returncode == 1
    assert "no such file" in result.stderr


def test_missing_input_file_has_no_made_up_position(tmp_path):
    result = run("check", "nosuch.p4", cwd=tmp_path)
    assert ":0:0:" not in result.stderr


# ----------------------------------------------------------------------------
# compile --emit ir


def _types(node) -> set[str]:
    """Every string value of a "type" key in a JSON tree."""
    found = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "type" and isinstance(value, str):
                found.add(value)
            found |= _types(value)
    elif isinstance(node, list):
        for item in node:
            found |= _types(item)
    return found


def _check_ir(ir_json: dict) -> None:
    assert ir_json["node"] == "Program"
    assert isinstance(ir_json["declarations"], list) and ir_json["declarations"]
    types = _types(ir_json)
    assert {"bit<9>", "bit<48>"} <= types
    assert "struct standard_metadata_t" in types
    names = {d.get("name") for d in ir_json["declarations"]}
    assert {"ethernet_t", "MyIngress", "main"} <= names
    assert re.fullmatch(r".+:\d+:\d+", ir_json["loc"])


def test_compile_emit_ir_to_stdout(write):
    result = run("compile", str(write("prog.p4", program())), "--emit", "ir")
    assert result.returncode == 0
    assert result.stderr == ""
    _check_ir(json.loads(result.stdout))


def test_compile_emit_ir_to_folder(tmp_path, write):
    path = write("prog.p4", program())
    out = tmp_path / "build" / "deep"
    result = run("compile", str(path), "--emit", "ir", "-o", str(out))
    assert result.returncode == 0
    assert result.stdout == "" and result.stderr == ""
    assert [p.name for p in out.iterdir()] == ["prog.ir.json"]
    _check_ir(json.loads((out / "prog.ir.json").read_text(encoding="utf-8")))


def test_compile_bad_program_writes_no_ir(tmp_path, write):
    path = write("bad.p4", program(FORWARD.replace("= port;", "= prot;")))
    result = run("compile", str(path), "--emit", "ir", "-o", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "prot: declaration not found" in result.stderr
    assert not (tmp_path / "out" / "bad.ir.json").exists()
    result = run("compile", str(path), "--emit", "ir")
    assert result.returncode == 1 and result.stdout == ""


# ----------------------------------------------------------------------------
# Never a Python traceback for a bad program

ODD_INPUTS = {
    "empty.p4": b"",
    "binary.p4": bytes(range(256)) * 4,
    "latin1.p4": "const bit<8> caf\xe9 = 1;\n".encode("latin-1"),
    "braces.p4": b"}}}} {{{{ ))) ((( ;;;",
    "deep.p4": b"const bit<8> x = " + b"(" * 5000 + b"1" + b")" * 5000 + b";\n",
    "deep_blocks.p4": b"control c() { apply { " + b"{ " * 3000 + b"}" * 3000 + b" } }\n",
    "long_line.p4": b"const bit<8> x = " + b"1 + " * 3000 + b"1;\n",
    "unterminated_string.p4": b'@name("ingress\ncontrol c() { apply { } }\n',
    "huge_width.p4": b"const bit<99999999999999999999> x = 1;\n",
    "nul.p4": b"header h_t { bit<8> a; }\0\n",
    "only_include.p4": b"#include <v1model.p4>\n",
    "recursive_include.p4": b'#include "recursive_include.p4"\n',
    # Known gaps: these end in an internal error (exit status 2).
    "long_expression.p4": b"const bit<8> x = " + b"1 + " * 20000 + b"1;\n",
    "huge_literal.p4": b"const bit<8> x = 8w" + b"9" * 5000 + b";\n",
}
ODD_INPUT_GAPS: dict[str, str] = {}


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=[pytest.mark.xfail(strict=True, reason=ODD_INPUT_GAPS[name])]
                 if name in ODD_INPUT_GAPS else [])
    for name in sorted(ODD_INPUTS)
])
def test_no_traceback_for_odd_input(tmp_path, name):
    data = ODD_INPUTS[name]
    (tmp_path / name).write_bytes(data)
    commands = [["check", name]]
    if len(data) < 4096:  # the IR of a deeply nested program is large (indented JSON)
        commands.append(["compile", name, "--emit", "ir"])
    for args in commands:
        result = run(*args, cwd=tmp_path)
        output = result.stdout + result.stderr
        assert "Traceback" not in output
        assert "internal error" not in output
        assert result.returncode in (0, 1), output
        if result.returncode == 1:
            assert errors(result.stderr), output


def test_no_traceback_for_the_invalid_corpus(current_stderr, capsys, monkeypatch):
    """Every program of tests/frontend/invalid, through cli.main: status 1, positioned errors."""
    monkeypatch.delenv("P4ODP_TRACEBACK", raising=False)
    programs = sorted(INVALID_DIR.glob("*.p4"))
    assert programs
    for path in programs:
        status = cli.main(["check", str(path)])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err, path.name
        assert "internal error" not in err, path.name
        if "// xfail:" not in path.read_text(encoding="utf-8").splitlines()[0]:
            assert status == 1, path.name
            assert errors(err), path.name
