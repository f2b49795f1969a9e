"""The examples under AddressSanitizer and UndefinedBehaviorSanitizer: truncated and random packets
must be parsed, forwarded or dropped without a single report, and the switch must keep forwarding."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from p4odp.backend.build import BuildOptions, build_switch
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.plugins import load_targets
from p4odp.stf.pcap import read_packets, write_pcap
from p4odp.transpiler import generate_c

REPO = Path(__file__).resolve().parents[2]
SANITIZERS = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer")

# A valid frame of each example, to cut short and to corrupt.
VALID = {
    "l2fwd": bytes.fromhex("000000000002 000000000001 0800") + bytes(range(46)),
    "l3fwd": bytes.fromhex("00000000aa00 0000000000bb 0800 4500001c000100004011 65ca 0a0000020a000105"
                           "0401040100080000"),
}

# Where the valid frame goes, by the example's commands.txt, and its destination MAC there.
LAST_OUT = {"l2fwd": (2, bytes.fromhex("000000000002")), "l3fwd": (1, bytes.fromhex("000000000101"))}


def sanitized_switch(example: str, out: Path) -> Path:
    diags = Diagnostics()
    path = REPO / "examples" / example / f"{example}.p4"
    program = load_program(str(path), FrontendOptions(), diags)
    assert program is not None
    c_files = generate_c(program, str(path), diags)
    assert c_files is not None
    target = load_targets()["targets"]["x86"]
    binary = build_switch(c_files, out, target, BuildOptions(extra_cflags=SANITIZERS), diags)
    assert binary is not None, [d.message for d in diags.items]
    return binary


def hostile_packets(valid: bytes, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    packets = [valid[:n] for n in range(len(valid))]  # every truncation, the empty frame included
    packets += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) for _ in range(300)]
    for _ in range(300):  # the valid frame with a few bytes flipped: past the parser's first checks
        frame = bytearray(valid)
        for _ in range(rng.randrange(1, 6)):
            frame[rng.randrange(len(frame))] = rng.randrange(256)
        packets.append(bytes(frame))
    return packets + [valid]


@pytest.mark.parametrize("example", sorted(VALID))
def test_hostile_packets_under_sanitizers(example: str, tmp_path: Path):
    binary = sanitized_switch(example, tmp_path / "build")
    packets = hostile_packets(VALID[example], seed=len(example))
    write_pcap(str(tmp_path / "in.pcap"), packets)
    ports = ["-i", f"0=pcap:in={tmp_path / 'in.pcap'}:out={tmp_path / 'out0.pcap'}"]
    for port in (1, 2, 3):
        write_pcap(str(tmp_path / f"empty{port}.pcap"), [])
        ports += ["-i", f"{port}=pcap:in={tmp_path / f'empty{port}.pcap'}:out={tmp_path / f'out{port}.pcap'}"]
    commands = REPO / "examples" / example / "commands.txt"
    run = subprocess.run([str(binary), "--exit-when-done", "--commands", str(commands), *ports],
                         capture_output=True, text=True, timeout=300,
                         env={"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS":
                              "print_stacktrace=1:halt_on_error=1", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-3000:]
    assert "AddressSanitizer" not in run.stderr and "runtime error" not in run.stderr, run.stderr[-3000:]
    # It kept forwarding: the valid frame sent last came out where its route says.
    port, destination = LAST_OUT[example]
    assert read_packets(str(tmp_path / f"out{port}.pcap"))[-1][:6] == destination
