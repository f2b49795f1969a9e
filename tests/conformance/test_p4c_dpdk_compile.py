"""The harness that measures p4c-dpdk's programs compiled to switches (p4c_dpdk_compile.py), on a
folder of two programs of our own beside p4c's layout: one that compiles, one refused at its place."""

from __future__ import annotations

from pathlib import Path

from support import load_script

harness = load_script(Path(__file__).with_name("p4c_dpdk_compile.py"), "p4c_dpdk_compile")

PNA = """\
#include <core.p4>
#include <pna.p4>
header h_t { bit<8> a; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, in pna_main_parser_input_metadata_t istd) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Pre(in headers_t hdr, inout meta_t m, in pna_pre_input_metadata_t istd, inout pna_pre_output_metadata_t ostd) {
    apply { }
}
control C(inout headers_t hdr, inout meta_t m, in pna_main_input_metadata_t istd, inout pna_main_output_metadata_t ostd) {
    action hit() { send_to_port((PortId_t) 1); }
    action miss() { add_entry("hit", {}, (ExpireTimeProfileId_t) 0); }
    table t { key = { hdr.h.a: KIND; } actions = { hit; miss; } add_on_miss = true; default_action = miss; }
    apply { t.apply(); }
}
control D(packet_out pkt, in headers_t hdr, in meta_t m, in pna_main_output_metadata_t ostd) {
    apply { pkt.emit(hdr.h); }
}
PNA_NIC(P(), Pre(), C(), D()) main;
"""


def test_a_program_compiles_and_one_is_refused_at_its_place(tmp_path: Path, capsys):
    samples, outputs = tmp_path / "p4_16_samples", tmp_path / "p4_16_samples_outputs"
    samples.mkdir()
    outputs.mkdir()
    for name, kind in (("learner", "exact"), ("ternary-learner", "ternary")):
        (samples / f"{name}.p4").write_text(PNA.replace("KIND", kind))
        (outputs / f"{name}.p4.spec").write_text("")
    (samples / "no-spec.p4").write_text(PNA.replace("KIND", "exact"))  # p4c-dpdk does not compile it
    assert harness.main([str(samples), "--list-failures", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "REFUSED ternary-learner.p4: " in out and "add_on_miss table's keys are all exact" in out
    assert out.splitlines()[-3:] == [f"{samples}: 2 programs p4c-dpdk compiles, target x86",
                                     "compiled: 1 of 2 (50.0%)",
                                     "refused with a position: 1, failed otherwise: 0, crashes: 0"]
