"""v1model's log_msg() on a running switch: BMv2's message format, printed only with --log-msg and at
most P4ODP_LOG_MSG_RATE lines a second per worker; what the generator refuses, with a position."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import compile_program, one_header_program, run_on_frames

PROGRAM = one_header_program("bit<8> a; bit<16> b; int<8> c;", """\
        sm.egress_spec = 1;
        log_msg("a={} b={x} c={}, 100% \\\\{literal\\\\}", { hdr.h.a, hdr.h.b, hdr.h.c });
        LOG2""")


def _compile(tmp_path: Path, second: str = 'log_msg("plain");'):
    return compile_program(tmp_path, PROGRAM.replace("LOG2", second), "log.p4")


def _run(tmp_path: Path, frames: list[bytes], *options: str) -> list[str]:
    run = run_on_frames(tmp_path / "out" / "switch", tmp_path, frames, *options)
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


WHOLE_VALUES = one_header_program("bit<8> a; bit<16> b;", """\
        sm.egress_spec = 1;
        color_t c = hdr.h.a == 7 ? color_t.BLUE : color_t.RED;
        pair_t p = { hdr.h.a, true };
        log_msg("h={} c={} p={} e={}", { hdr.h, c, p, error.PacketTooShort });""",
                                  globals="enum color_t { RED, GREEN, BLUE }\nstruct pair_t { bit<8> x; bool y; }")


def test_headers_structs_enums_and_errors_print_as_bmv2_prints_them(tmp_path: Path):
    # A header or struct as (name:value,...); an enum without a representation and an error as the
    # number p4c gives them, their place in their declaration (core.p4's errors first).
    build = compile_program(tmp_path, WHOLE_VALUES, "values.p4")
    assert build.returncode == 0, build.stderr
    run = run_on_frames(tmp_path / "out" / "switch", tmp_path, [bytes([7, 0x01, 0x02])], "--log-msg")
    assert run.returncode == 0, run.stderr
    assert "h=(a:7,b:258) c=2 p=(x:7,y:1) e=1" in run.stderr.splitlines()
