"""One list of control-plane objects (transpiler/passes/control_plane.py) makes both P4Info and the
switch's objects: every object a controller sees is one the switch has, and the reverse, for
every program of tests/packets and the examples (tests/conformance/control_plane_walk.py walks
p4c's samples the same way); a digest sent from two places is one digest, and a table the
midend removes from the pipeline (applied only after `exit`) stays one the control plane writes
and reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, one_header_program, start_switch
from support import load_script

from p4odp.controlplane.channel import SwitchChannel
from p4odp.controlplane.protos import p4info_pb2
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.transpiler import transpile

REPO = Path(__file__).resolve().parents[2]


walk = load_script(REPO / "tests" / "conformance" / "control_plane_walk.py", "control_plane_walk")
PROGRAMS = sorted((REPO / "tests" / "packets").glob("*.p4")) + \
    [REPO / "examples" / name / f"{name}.p4" for name in ("l2fwd", "l3fwd")]
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_p4info_and_the_switch_have_the_same_objects(path: Path):
    compiled, mismatches = walk.walk(path)
    assert compiled, f"{path.name} does not compile"
    assert mismatches == []


def _model(tmp_path: Path, source: str):
    path = tmp_path / "prog.p4"
    path.write_text(source)
    diags = Diagnostics()
    program = load_program(str(path), FrontendOptions(), diags)
    model = transpile(program, str(path), diags) if program is not None else None
    assert model is not None, [d.message for d in diags.items]
    return model


# An anonymous digest in an action that the body calls and that another action calls (p4c inlines
# that one's call): one digest, digest_0, wherever it is sent from.
DIGEST_PROGRAM = one_header_program(
    "bit<8> kind; bit<8> b;",
    ingress_locals="""\
    action learn() { digest(1, { hdr.h.kind }); }
    action learn_and_drop() { learn(); mark_to_drop(sm); }""",
    ingress="""\
        if (hdr.h.kind == 1) { learn(); } else { learn_and_drop(); }""")


def test_a_digest_sent_from_two_places_is_one_digest(tmp_path: Path):
    model = _model(tmp_path, DIGEST_PROGRAM)
    info = p4info_pb2.P4Info.FromString(model.p4info)
    assert [d.preamble.name for d in info.digests] == ["digest_0"]
    assert [d.name for d in model.digests] == ["digest_0"]


def test_the_switch_sends_a_digest_sent_from_two_places_under_its_p4info_name(tmp_path: Path):
    binary = build_switch(tmp_path, DIGEST_PROGRAM, "digest.p4")
    address = f"unix:{tmp_path / 'control.sock'}"
    frames = (bytes([1, 0]) + bytes(58), bytes([2, 0]) + bytes(58))
    process = start_switch(binary, tmp_path, address, frames)
    try:
        with SwitchChannel(address) as listener:
            listener.listen("digest")
            seen = {listener.next_event(timeout=10) for _ in range(50)}
        assert seen == {"digest digest_0 0x1", "digest digest_0 0x2"}
    finally:
        process.kill()


# A table applied only after `exit`: p4c's P4Info lists it; the switch keeps it, never applied.
AFTER_EXIT_PROGRAM = one_header_program(
    "bit<8> kind; bit<8> b;",
    ingress_locals="""\
    action set_b(bit<8> b) { hdr.h.b = b; }
    table after_exit { key = { hdr.h.kind : exact; } actions = { set_b; NoAction; } }""",
    ingress="""\
        sm.egress_spec = 1;
        if (hdr.h.kind == 7) {
            exit;
            after_exit.apply();
        }""")


def test_a_table_applied_only_after_exit_is_written_and_read_back_never_applied(tmp_path: Path):
    model = _model(tmp_path, AFTER_EXIT_PROGRAM)
    assert walk.mismatches(model) == []
    assert "Ing.after_exit" in {t.name for t in model.tables}
    binary = build_switch(tmp_path, AFTER_EXIT_PROGRAM, "after_exit.p4")
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(binary, tmp_path, address, (bytes([7, 0]) + bytes(58),))
    try:
        with SwitchChannel(address) as channel:
            assert "handle 0" in channel.command("table_add Ing.after_exit Ing.set_b 7 => 9")
            assert channel.command("table_num_entries Ing.after_exit").strip() == "1"
            assert "Ing.set_b - 09" in channel.command("table_dump Ing.after_exit")
    finally:
        process.kill()
