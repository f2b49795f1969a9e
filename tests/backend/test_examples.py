"""The bundled examples, end to end: compile, build the switch, run its STF tests and commands file."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from p4odp.stf.pcap import read_packets, write_pcap

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (REPO / "examples").iterdir() if (p / f"{p.name}.p4").exists())


def p4odp(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "p4odp.cli", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_stf_tests_pass(example: Path, tmp_path: Path):
    tests = sorted(example.glob("*.stf"))
    assert tests, f"{example.name} has no STF test"
    for test in tests:
        result = p4odp("stf", str(example / f"{example.name}.p4"), str(test), "--keep", str(tmp_path / test.stem))
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.startswith("PASS"), result.stdout


def test_l3fwd_commands_file_routes_a_packet(tmp_path: Path):
    """The example's commands file, as a user runs it: the switch binary with --commands."""
    example = REPO / "examples" / "l3fwd"
    build = p4odp("compile", str(example / "l3fwd.p4"), "--target", "x86", "-o", str(tmp_path / "out"))
    assert build.returncode == 0, build.stderr
    frame = bytes.fromhex("00000000aa000000000000bb0800" "4500001c000100004011" "65ca" "0a0000020a000105"
                          "0401040100080000")
    write_pcap(str(tmp_path / "in0.pcap"), [frame])
    write_pcap(str(tmp_path / "empty.pcap"), [])
    run = subprocess.run([str(tmp_path / "out" / "switch"), "--exit-when-done", "--commands",
                          str(example / "commands.txt"),
                          "-i", f"0=pcap:in={tmp_path / 'in0.pcap'}:out={tmp_path / 'out0.pcap'}",
                          "-i", f"1=pcap:in={tmp_path / 'empty.pcap'}:out={tmp_path / 'out1.pcap'}"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    [sent] = read_packets(str(tmp_path / "out1.pcap"))
    assert sent[:6] == bytes.fromhex("000000000101")  # the route's next hop
    assert sent[14 + 8] == 0x3F  # TTL 64 -> 63
    assert read_packets(str(tmp_path / "out0.pcap")) == []


@pytest.mark.parametrize("line, message", [
    ("table_add ipv4_lpm ipv4_forward 10.0.300.0/24 => 00:00:00:00:01:01 1", "bad IPv4 address '10.0.300.0'"),
    # A 32-bit strtoul took "-1" for 4294967295, a 64-bit one for a number too large.
    ("table_add ipv4_lpm ipv4_forward 10.0.2.0/-1 => 00:00:00:00:01:01 1", "'-1' is not a number"),
    ("mc_mgrp_create -4294967295", "'-4294967295' is not a number"),
])
def test_bad_commands_line_is_named_and_stops_the_switch(tmp_path: Path, line: str, message: str):
    example = REPO / "examples" / "l3fwd"
    build = p4odp("compile", str(example / "l3fwd.p4"), "-o", str(tmp_path / "out"))
    assert build.returncode == 0, build.stderr
    commands = tmp_path / "commands.txt"
    commands.write_text(f"table_add ipv4_lpm ipv4_forward 10.0.1.0/24 => 00:00:00:00:01:01 1\n{line}\n")
    write_pcap(str(tmp_path / "in.pcap"), [])
    run = subprocess.run([str(tmp_path / "out" / "switch"), "--exit-when-done", "--commands", str(commands),
                          "-i", f"0=pcap:in={tmp_path / 'in.pcap'}:out={tmp_path / 'out.pcap'}"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert f"{commands}:2: error: {message}" in run.stderr


def test_switch_stops_cleanly_on_sigterm_and_prints_counters(tmp_path: Path):
    example = REPO / "examples" / "l2fwd"
    build = p4odp("compile", str(example / "l2fwd.p4"), "-o", str(tmp_path / "out"))
    assert build.returncode == 0, build.stderr
    switch = subprocess.Popen([str(tmp_path / "out" / "switch"), "-i", "0=loop"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=tmp_path)  # its control socket there
    try:
        time.sleep(0.5)
        assert switch.poll() is None, "the switch stopped by itself"
        switch.send_signal(signal.SIGTERM)
        _, stderr = switch.communicate(timeout=10)
    finally:
        if switch.poll() is None:
            switch.kill()
    assert switch.returncode == 0, stderr
    assert "port  rx  tx" in stderr and "loop" in stderr


@pytest.mark.parametrize("argument, message", [
    ("0", "expected PORT=INTERFACE"),
    ("64=loop", "expected PORT=INTERFACE with PORT in 0..63"),
    ("-18446744073709551615=loop", "expected PORT=INTERFACE with PORT in 0..63"),  # not port 1
    ("1=no-such-interface-p4odp", "cannot open interface 'no-such-interface-p4odp' for port 1"),
])
def test_switch_rejects_bad_ports(tmp_path: Path, argument: str, message: str):
    example = REPO / "examples" / "l2fwd"
    build = p4odp("compile", str(example / "l2fwd.p4"), "-o", str(tmp_path / "out"))
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(tmp_path / "out" / "switch"), "-i", argument], capture_output=True, text=True,
                         timeout=30)
    assert run.returncode != 0
    assert message in run.stderr


@pytest.mark.parametrize("arguments, message", [
    (["-w", "0"], "-w 0: expected a number of workers in 1..64"),
    (["-w", "65"], "-w 65: expected a number of workers in 1..64"),
    (["-w", "2x"], "-w 2x: expected a number of workers in 1..64"),
    (["-c", "3-1"], "-c 3-1: expected a CPU list such as 2, 0-1 or 1,3"),
    (["-c", "1,"], "-c 1,: expected a CPU list such as 2, 0-1 or 1,3"),
    (["-c", "x"], "-c x: expected a CPU list such as 2, 0-1 or 1,3"),
    (["-c", "0", "-w", "2"], "-c gives 1 CPU(s) for 2 workers"),
])
def test_switch_rejects_bad_workers_and_cpus(tmp_path: Path, arguments: list, message: str):
    example = REPO / "examples" / "l2fwd"
    build = p4odp("compile", str(example / "l2fwd.p4"), "-o", str(tmp_path / "out"))
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(tmp_path / "out" / "switch"), "-i", "0=loop", *arguments], capture_output=True,
                         text=True, timeout=30)
    assert run.returncode == 2
    assert f"error: {message}" in run.stderr


def _ipv4_frame(dst: str) -> bytes:
    """An Ethernet + IPv4 + UDP frame from 10.0.0.2 to `dst`, with a correct header checksum."""
    header = bytearray.fromhex("4500001c00010000401100000a000002") + bytes(int(b) for b in dst.split("."))
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, 20, 2))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    header[10:12] = (~total & 0xFFFF).to_bytes(2, "big")
    return bytes.fromhex("00000000aa000000000000bb0800") + bytes(header) + bytes.fromhex("0401040100080000")


@pytest.mark.parametrize("commands, routes", [
    # BMv2's handles: 0, 1, 2 for the first entries.  Modify moves 10.0.2.0/24 to port 3; delete
    # removes 10.0.3.0/24, whose packets then take the default action (drop).
    (["table_modify ipv4_lpm ipv4_forward 1 => 00:00:00:00:02:99 3", "table_delete ipv4_lpm 2"],
     {"10.0.1.5": (1, "000000000101"), "10.0.2.5": (3, "000000000299"), "10.0.3.5": None}),
    # Clear empties the table; entries added afterwards count again.
    (["table_clear ipv4_lpm", "table_add ipv4_lpm ipv4_forward 10.0.3.0/24 => 00:00:00:00:03:03 2"],
     {"10.0.1.5": None, "10.0.2.5": None, "10.0.3.5": (2, "000000000303")}),
])
def test_commands_modify_delete_and_clear_entries(tmp_path: Path, commands: list, routes: dict):
    build = p4odp("compile", str(REPO / "examples" / "l3fwd" / "l3fwd.p4"), "-o", str(tmp_path / "out"))
    assert build.returncode == 0, build.stderr
    lines = ["table_set_default ipv4_lpm drop",
             "table_add ipv4_lpm ipv4_forward 10.0.1.0/24 => 00:00:00:00:01:01 1",
             "table_add ipv4_lpm ipv4_forward 10.0.2.0/24 => 00:00:00:00:02:02 2",
             "table_add ipv4_lpm ipv4_forward 10.0.3.0/24 => 00:00:00:00:03:03 3", *commands]
    (tmp_path / "commands.txt").write_text("\n".join(lines) + "\n")
    write_pcap(str(tmp_path / "in0.pcap"), [_ipv4_frame(dst) for dst in routes])
    write_pcap(str(tmp_path / "empty.pcap"), [])
    ports = [f"{n}=pcap:in={tmp_path / ('in0.pcap' if n == 0 else 'empty.pcap')}:out={tmp_path / f'out{n}.pcap'}"
             for n in range(4)]
    run = subprocess.run([str(tmp_path / "out" / "switch"), "--exit-when-done", "--commands",
                          str(tmp_path / "commands.txt"), *(a for p in ports for a in ("-i", p))],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Entry has been added with handle 0\n" in run.stdout and "with handle 2\n" in run.stdout
    sent = {n: read_packets(str(tmp_path / f"out{n}.pcap")) for n in range(4)}
    for dst, route in routes.items():
        out = [(n, p) for n, packets in sent.items() for p in packets if p[30:34] == bytes(map(int, dst.split(".")))]
        if route is None:
            assert out == [], dst
        else:
            [(port, packet)] = out
            assert (port, packet[:6].hex()) == route, dst
