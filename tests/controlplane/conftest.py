"""A switch for the P4Runtime tests: tables of every match kind, an indexed counter, a register,
a direct counter, a meter whose colours are counted, a const default action and a digest of every
packet, replaying two frames forever while a P4Runtime
server (in the test's process) serves it."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, one_header_program
from p4runtime_client import p4runtime_switch

P4RUNTIME_PROGRAM = one_header_program(
    "bit<8> kind; bit<8> b; bit<16> c; bit<8> d; bit<32> addr;",
    ingress="        mark_to_drop(sm);\n        classify.apply();\n        routes.apply();\n"
            "        fixed.apply();\n        last.write(0, hdr.h.c);\n"
            "        digest<learn_t>(1, { hdr.h.kind, hdr.h.addr });\n"
            "        bit<2> color;\n        limiter.execute_meter(0, color);\n        colors.count((bit<32>)color);",
    globals="struct learn_t { bit<8> kind; bit<32> addr; }",
    ingress_locals="""\
    counter(8, CounterType.packets) seen;
    counter(3, CounterType.packets) colors;
    meter(4, MeterType.packets) limiter;
    register<bit<16>>(4) last;
    direct_counter(CounterType.packets_and_bytes) per_route;
    action count(bit<32> cell) { seen.count(cell); }
    action route(bit<32> cell) { seen.count(cell); per_route.count(); }
    action no_route() { per_route.count(); }
    table classify {
        key = { hdr.h.kind: exact; hdr.h.b: ternary; hdr.h.c: range; hdr.h.d: optional; }
        actions = { count; NoAction; }
        default_action = NoAction();
    }
    table routes {
        key = { hdr.h.addr: lpm; }
        actions = { route; no_route; }
        default_action = no_route();
        counters = per_route;
        size = 1024;
    }
    table fixed { key = { hdr.h.kind: exact; } actions = { count; NoAction; } const default_action = NoAction(); }""")

# The frames the switch replays: kind, b, c, d, addr.
FRAME_1 = bytes([1, 0x12, 0, 5, 9, 10, 1, 2, 3]) + bytes(51)
FRAME_2 = bytes([2, 0x34, 0x01, 0xf4, 7, 10, 9, 0, 1]) + bytes(51)


@pytest.fixture(scope="module")
def p4runtime_binary(tmp_path_factory) -> Path:
    """The switch of P4RUNTIME_PROGRAM; its source is next to out/."""
    return build_switch(tmp_path_factory.mktemp("p4runtime"), P4RUNTIME_PROGRAM, "p4runtime.p4")


@pytest.fixture
def p4runtime_target(p4runtime_binary: Path, tmp_path: Path):
    """P4RUNTIME_PROGRAM's switch replaying FRAME_1 and FRAME_2, served: the server's HOST:PORT."""
    with p4runtime_switch(p4runtime_binary, tmp_path, (FRAME_1, FRAME_2)) as target:
        yield target
