"""The architecture object: one source for v1model's constants, externs dispatched through its
registry, plugins' externs added to it, and what it does not define refused with a position."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from p4odp.diagnostics import Diagnostics
from p4odp.transpiler import generate_c
from p4odp.transpiler.architectures import Extern, load_architectures
from p4odp.transpiler.architectures.v1model import V1MODEL
from p4odp.transpiler.codegen import program as codegen_program

from midend_snippets import REPO, load, v1model
from psa_switch import psa_program


def _datapath(tmp_path: Path, source: str, monkeypatch=None, arch=None) -> tuple:
    program = load(tmp_path, source)
    if arch is not None:
        monkeypatch.setattr(codegen_program, "architecture_of", lambda main: arch)
    diags = Diagnostics()
    files = generate_c(program, str(tmp_path / "prog.p4"), diags)
    return (files or {}).get("datapath.c"), [f"{d.loc}: {d.message}" for d in diags.items]


def test_v1model_is_registered_by_its_package_name():
    assert load_architectures()["V1Switch"] is V1MODEL


def test_constants_come_from_the_architecture_and_nowhere_else(tmp_path: Path):
    c, errors = _datapath(tmp_path, v1model("mark_to_drop(sm);"))
    assert not errors
    defined = dict(re.findall(r"^#define (P4ODP_V1MODEL_\w+) (\d+)$", c, re.M))
    assert defined == {name: str(value) for name, value in V1MODEL.constants.items()}
    # The runtime needs none of them: it gets the traffic manager's request, not standard_metadata.
    runtime = [p for p in (REPO / "runtime").rglob("*.[ch]")]
    for path in runtime:
        text = path.read_text(errors="replace")
        assert "V1MODEL" not in text and "511" not in text, path
    # Nor do the generator's Python modules write them again.
    for path in (REPO / "transpiler").rglob("*.py"):
        if path.name != "v1model.py":
            assert "511" not in path.read_text(), path


def test_an_extern_function_comes_from_the_registry(tmp_path: Path, monkeypatch):
    def mark(ctx, call, args):
        ctx.emit("/* my_mark */")

    arch = V1MODEL.with_externs(Extern("mark_to_drop", {"mark_to_drop": mark}, function=True))
    c, errors = _datapath(tmp_path, v1model("mark_to_drop(sm);"), monkeypatch, arch)
    assert not errors
    assert "/* my_mark */" in c and "egress_spec = P4ODP_V1MODEL_DROP_PORT" not in c


def test_an_extern_method_comes_from_the_registry(tmp_path: Path, monkeypatch):
    def count(ctx, call, args):
        ctx.emit(f"/* counted {ctx.value(args[0])} */")

    counter = V1MODEL.extern("counter")
    arch = V1MODEL.with_externs(Extern("counter", {"count": count}, counter.storage))
    c, errors = _datapath(tmp_path, v1model("c.count(3);", locals="counter(8, CounterType.packets) c;"),
                          monkeypatch, arch)
    assert not errors
    assert re.search(r"/\* counted .*3.* \*/", c)


@pytest.mark.parametrize("body, locals, what", [
    ("digest(1, { hdr.h });", "", "a digest field of type header h_t"),
    ("clone3(CloneType.I2E, 1, { hdr.h.a });", "",
     "keeping a value that is not a field of the user metadata or of standard_metadata_t"),
])
def test_what_the_architecture_does_not_define_is_a_positioned_error(tmp_path: Path, body, locals, what):
    c, errors = _datapath(tmp_path, v1model(body, locals=locals))
    assert c is None
    assert len(errors) == 1 and errors[0].endswith(f"not supported by the C generator yet: {what}"), errors
    assert re.match(r".*prog\.p4:[1-9]\d*:[1-9]\d*: ", errors[0]), errors


@pytest.mark.parametrize("prop, message", [
    ("add_on_miss = true;", "the table property add_on_miss"),
    ("meters = c;", "a table's meters other than a direct_meter instance"),
    ("counters = dm;", "a table's counters other than a direct_counter instance"),
])
def test_a_table_property_not_honoured_is_a_positioned_error(tmp_path: Path, prop, message):
    locals = f"""
        direct_meter<bit<2>>(MeterType.packets) dm;
        counter(2, CounterType.packets) c;
        action a() {{ }}
        table t {{ key = {{ hdr.h.a : exact; }} actions = {{ a; }} {prop} }}
    """
    c, errors = _datapath(tmp_path, v1model("t.apply();", locals=locals))
    assert c is None
    assert len(errors) == 1 and errors[0].endswith(message), errors
    assert re.match(r".*prog\.p4:[1-9]\d*:[1-9]\d*: ", errors[0]), errors


def test_a_false_property_asks_for_nothing(tmp_path: Path):
    locals = """
        action a() { }
        table t { key = { hdr.h.a : exact; } actions = { a; } support_timeout = false; }
    """
    c, errors = _datapath(tmp_path, v1model("t.apply();", locals=locals))
    assert c is not None and not errors


def test_a_broken_architecture_or_extern_plugin_is_a_warning_not_a_crash(tmp_path: Path):
    import os
    import subprocess
    import sys

    info = tmp_path / "p4odp_broken_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: p4odp-broken-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[p4odp.architectures]\nbad-arch = p4odp_broken_plugin:NOT_AN_ARCH\n"
                                           "[p4odp.externs]\nbad-extern = p4odp_broken_plugin:RAISES\n"
                                           "lost-extern = p4odp_broken_plugin:LOST\n")
    (tmp_path / "p4odp_broken_plugin.py").write_text(
        "from p4odp.transpiler.architectures import Extern\n"
        "NOT_AN_ARCH = 'v1model'\n"
        "LOST = Extern('Lost', {}, architecture='tna')\n"
        "def __getattr__(name):\n    raise RuntimeError('plugin exploded')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", "examples/l2fwd/l2fwd.p4", "--emit", "c",
                             "-o", str(tmp_path / "out")], capture_output=True, text=True, cwd=REPO, env=env)
    assert result.returncode == 0 and "internal error" not in result.stderr, result.stderr
    assert "plugin bad-arch: p4odp_broken_plugin:NOT_AN_ARCH is a str, not an Architecture; left out" in result.stderr
    assert "plugin bad-extern: p4odp_broken_plugin:RAISES cannot be loaded: RuntimeError: plugin exploded" \
        in result.stderr
    assert "plugin lost-extern: it extends the unknown architecture 'tna'; left out" in result.stderr
    assert (tmp_path / "out" / "datapath.c").exists()  # v1model itself is intact


@pytest.mark.parametrize("algorithm, message", [
    ("random", "the random algorithm for a checksum (its value would never verify)"),
])
def test_a_checksum_algorithm_the_architecture_refuses_is_a_positioned_error(tmp_path: Path, algorithm, message):
    c, errors = _datapath(tmp_path, v1model(f"update_checksum(true, {{ hdr.h.a, hdr.h.b }}, hdr.h.w, "
                                            f"HashAlgorithm.{algorithm});"))
    assert c is None
    assert len(errors) == 1 and errors[0].endswith(message), errors
    assert re.match(r".*prog\.p4:[1-9]\d*:[1-9]\d*: ", errors[0]), errors


@pytest.mark.parametrize("algorithm", ["crc16", "crc32", "crc16_custom", "crc32_custom", "xor16", "identity"])
def test_every_other_checksum_algorithm_hashes_the_packed_fields(tmp_path: Path, algorithm):
    c, errors = _datapath(tmp_path, v1model(f"update_checksum(true, {{ hdr.h.a, hdr.h.b }}, hdr.h.w, "
                                            f"HashAlgorithm.{algorithm});"))
    assert not errors
    if algorithm.endswith("_custom"):  # a calculation of its own, whose parameters the control plane sets
        assert "p4_hash_custom(pc, 0, ck" in c and f'{{ "calc", {algorithm[3:5]} }},' in c
    else:
        assert f"p4_hash(P4ODP_HASH_{algorithm.upper()}, ck" in c


def test_static_assert_is_true_where_the_program_compiles(tmp_path: Path):
    # core.p4's compile-time check (p4c's issue3531): the front end refuses a false one; a true one
    # is the value true, as an expression or a statement.
    c, errors = _datapath(tmp_path, v1model('bool ok = static_assert(true, "never"); static_assert(8 > 4); '
                                            'if (ok) { hdr.h.a = 1; }'))
    assert not errors
    assert "static_assert(" not in c


def test_an_extern_of_the_program_s_own_is_refused_with_how_to_provide_it(tmp_path: Path):
    # p4c's issue1193-bmv2 and issue1882-bmv2 declare their own extern objects.
    c, errors = _datapath(tmp_path, v1model("tally.count();", "own_counter() tally;",
                                            globals="extern own_counter { own_counter(); void count(); }"))
    assert c is None and len(errors) == 1
    assert errors[0].endswith("not supported by the C generator yet: instances of own_counter inside blocks "
                              "(v1model has no extern own_counter: a target plugin can provide its C; see "
                              "'To add an extern' in the README)"), errors


_EGRESS = "control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }"


@pytest.mark.parametrize("call", ["resubmit_preserving_field_list(0);", "resubmit({ sm.ingress_port });"])
def test_a_resubmit_outside_ingress_is_refused_as_p4c_refuses_it(tmp_path: Path, call: str):
    source = v1model().replace(_EGRESS, _EGRESS.replace("apply { }", f"apply {{ {call} }}"))
    c, errors = _datapath(tmp_path, source)
    assert c is None and len(errors) == 1, errors
    assert errors[0].endswith("'resubmit' can only be invoked in ingress, not in egress"), errors
    line = next(n for n, text in enumerate(source.splitlines(), 1) if text.startswith("control Eg("))
    column = source.splitlines()[line - 1].index("resubmit") + 1
    assert f"prog.p4:{line}:{column}: " in errors[0], errors


_REGISTERS = """
    register<bit<8>>(4) r;
    register<bit<8>>(4) s;
    action plain() { hdr.h.a = 1; }
    action bump_r() { bit<8> n; r.read(n, 0); r.write(0, n + 1); }
    table t { key = { hdr.h.a : exact; } actions = { plain; bump_r; } default_action = plain(); }
"""


def _locks(c: str) -> list:
    """The lock and unlock calls of the ingress's C, in order: ("lock" or "unlock", register)."""
    ingress = c[c.index("p4_ingress("):]
    return re.findall(r"p4odp_state_(lock|unlock)\(&STATE->register_Ing_(\w+)_lock\)", ingress)


@pytest.mark.parametrize("body, locks", [
    # A table's action holds the locks of what it uses; one that uses no register takes none.
    ("t.apply();", [("lock", "r"), ("unlock", "r")]),
    ("plain();", []),
    # An action called directly is a region of its own, as is each call.
    ("bump_r(); bump_r();", [("lock", "r"), ("unlock", "r")] * 2),
    # An @atomic block takes the locks of the actions of the tables it applies too, in one order
    # (the registers' declaration), once, and none inside.
    ("@atomic { bit<8> n; s.read(n, 1); t.apply(); bump_r(); }",
     [("lock", "r"), ("lock", "s"), ("unlock", "s"), ("unlock", "r")]),
    # Outside both, each run of straight-line statements is one (p4c makes it an action); a table's
    # apply ends a run.
    ("r.write(0, 1);", [("lock", "r"), ("unlock", "r")]),
    ("r.write(0, 1); t.apply(); s.write(0, 2);",
     [("lock", "r"), ("unlock", "r"), ("lock", "r"), ("unlock", "r"), ("lock", "s"), ("unlock", "s")]),
])
def test_an_atomic_extern_s_accesses_are_one_region_per_action_atomic_block_or_straight_line_run(tmp_path: Path, body, locks):
    c, errors = _datapath(tmp_path, v1model(body, locals=_REGISTERS))
    assert not errors, errors
    assert _locks(c) == locks, _locks(c)
    assert "uint8_t register_Ing_r_lock;" in c  # beside its register, in struct p4_state


def test_a_region_left_by_exit_releases_its_locks_first(tmp_path: Path):
    c, errors = _datapath(tmp_path, v1model("@atomic { r.write(0, 1); if (hdr.h.a == 0) { exit; } s.write(0, 2); }",
                                            locals=_REGISTERS))
    assert not errors, errors
    assert _locks(c) == [("lock", "r"), ("lock", "s")] + [("unlock", "s"), ("unlock", "r")] * 2
    leaving = c[c.index("pc->exited = 1;"):]
    assert leaving.index("p4odp_state_unlock(&STATE->register_Ing_r_lock)") < leaving.index("goto ctl_end;")


# ----------------------------------------------------------------------------
# PSA and PNA beside v1model: each architecture's own rules, from its object

PSA_PROGRAM = psa_program("bit<8> a;", ingress="        t.apply();", ingress_locals="""\
    action fwd(PortId_t port) { send_to_port(ostd, port); }
    table t {
        key = { hdr.h.a: exact; }
        actions = { fwd; NoAction; }
        PROPERTY
    }""")


def test_psa_and_pna_are_registered_beside_v1model():
    found = {arch.name: package for package, arch in load_architectures().items()}
    assert found == {"v1model": "V1Switch", "psa": "PSA_Switch", "pna": "PNA_NIC"}


def test_the_blocks_of_packages_given_to_main_are_its_blocks(tmp_path: Path):
    c, errors = _datapath(tmp_path, PSA_PROGRAM.replace("PROPERTY", "size = 16;"))
    assert not errors, errors
    for block in ("ingress_parser", "ingress", "ingress_deparser", "egress_parser", "egress", "egress_deparser"):
        assert f"p4_{block}(struct p4odp_pctx *pc" in c, block
    assert "#define P4ODP_PSA_PORT_RECIRCULATE 4294967290" in c


@pytest.mark.parametrize("prop, warning", [
    ("psa_idle_timeout = PSA_IdleTimeout_t.NOTIFY_CONTROL;", None),
    ("support_timeout = true;", "the table property support_timeout means nothing to psa; ignored"),
])
def test_a_table_property_is_the_architectures_or_a_warning(tmp_path: Path, prop: str, warning):
    c, errors = _datapath(tmp_path, PSA_PROGRAM.replace("PROPERTY", prop))
    table_warnings = [e for e in errors if "table property" in e]
    assert len(table_warnings) == (warning is not None) and all(warning in e for e in table_warnings)
    assert c is not None


def test_the_p4info_arch_is_the_architectures(tmp_path: Path):
    from p4odp.controlplane.p4info import program_p4info

    diags = Diagnostics()
    info = program_p4info(load(tmp_path, PSA_PROGRAM.replace("PROPERTY", "")), diags)
    assert info is not None and info.pkg_info.arch == "psa"
    assert [t.preamble.name for t in info.tables] == ["Ing.t"] and info.tables[0].size == 1024


PNA_PROGRAM = """#include <core.p4>
#include <pna.p4>
header h_t { bit<8> a; }
struct headers_t { h_t h; }
struct other_t { h_t h; bit<8> x; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, in pna_main_parser_input_metadata_t istd) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Pre(in PRE_HEADERS hdr, inout meta_t m, in pna_pre_input_metadata_t istd, inout pna_pre_output_metadata_t ostd) {
    apply { }
}
control C(inout headers_t hdr, inout meta_t m, in pna_main_input_metadata_t istd, inout pna_main_output_metadata_t ostd) {
    apply { send_to_port((PortId_t) 1); }
}
control D(packet_out pkt, in headers_t hdr, in meta_t m, in pna_main_output_metadata_t ostd) {
    apply { pkt.emit(hdr.h); }
}
PNA_NIC(P(), Pre(), C(), D()) main;
"""


def test_pna_reads_the_main_parsers_headers_in_its_pre_control(tmp_path: Path):
    c, errors = _datapath(tmp_path, PNA_PROGRAM.replace("PRE_HEADERS", "headers_t"))
    assert not errors and "p4_pre_control(pc, &p->hdr, &p->meta, &preim, &preom);" in c
    c, errors = _datapath(tmp_path, PNA_PROGRAM.replace("PRE_HEADERS", "other_t"))
    assert c is None and len(errors) == 1
    assert re.search(r"prog\.p4:19:\d+: .*PNA_NIC with its pre headers of type struct other_t, not struct "
                     r"headers_t as its headers", errors[0]), errors
