"""v1model's log_msg() on a running switch: BMv2's message format, printed only with --log-msg and at
most P4ODP_LOG_MSG_RATE lines a second per worker; what the generator refuses, with a position."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from p4odp.stf.pcap import write_pcap

PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<16> b; int<8> c; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        log_msg("a={} b={x} c={}, 100% \\\\{literal\\\\}", { hdr.h.a, hdr.h.b, hdr.h.c });
        LOG2
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""


def _compile(tmp_path: Path, second: str = 'log_msg("plain");') -> subprocess.CompletedProcess:
    (tmp_path / "log.p4").write_text(PROGRAM.replace("LOG2", second))
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(tmp_path / "log.p4"), "-o",
                           str(tmp_path / "out")], capture_output=True, text=True)


def _run(tmp_path: Path, frames: list[bytes], *options: str) -> list[str]:
    write_pcap(str(tmp_path / "in.pcap"), frames)
    run = subprocess.run([str(tmp_path / "out" / "switch"), *options, "--exit-when-done",
                          "-i", f"0=pcap:in={tmp_path / 'in.pcap'}", "-i", f"1=pcap:out={tmp_path / 'out.pcap'}"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return [line for line in run.stderr.splitlines() if line.startswith(("a=", "plain", "log_msg"))]


def test_messages_print_only_with_the_option_in_bmv2s_format(tmp_path: Path):
    build = _compile(tmp_path)
    assert build.returncode == 0, build.stderr
    frame = bytes([7, 0x01, 0x02, 0xfe])
    assert _run(tmp_path, [frame]) == []
    assert _run(tmp_path, [frame], "--log-msg") == ["a=7 b=258 c=-2, 100% {literal}", "plain"]


def test_at_most_the_rate_a_second_is_printed(tmp_path: Path):
    assert _compile(tmp_path).returncode == 0
    lines = _run(tmp_path, [bytes([1, 0, 0, 0])] * 300, "--log-msg")
    # 600 messages in one or two seconds: 100 lines in each, the rest counted.
    assert len(lines) in (100, 200, 201) and lines[0] == "a=1 b=0 c=0, 100% {literal}", lines[:3]


@pytest.mark.parametrize("call, why", [
    ('log_msg("{} {}", { hdr.h.a });', "log_msg with 2 {} in its message for 1 value(s)"),
    ('log_msg("a {", { hdr.h.a });', "a log_msg message with a { and no }"),
])
def test_a_message_that_does_not_fit_its_values_is_a_positioned_error(tmp_path: Path, call: str, why: str):
    build = _compile(tmp_path, call)
    assert build.returncode != 0 and why in build.stderr and "log.p4:" in build.stderr, build.stderr
    assert "Traceback" not in build.stderr
