"""The switch's control channel (--control) and `p4odp cli`: commands change a switch while it
forwards, and a bad line gets an error, changes nothing and leaves the connection and the switch
working.  The switch replays one frame endlessly (pcap loops=0) into a table whose action counts
the frame and drops it, so counter reads show what the table does at that moment."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from one_header_switch import build_switch, eventually, one_header_program, run_on_frames, start_switch

from p4odp.controlplane.channel import MAX_LINE, ChannelError, CommandError, SwitchChannel

PROGRAM = one_header_program(
    "bit<8> kind;",
    ingress="        mark_to_drop(sm);\n        kinds.apply();",
    ingress_locals="""\
    counter(4, CounterType.packets) seen;
    register<bit<8>>(4) last;
    action count(bit<32> cell) { seen.count(cell); last.write(cell, hdr.h.kind); }
    table kinds { key = { hdr.h.kind: exact; } actions = { count; NoAction; } default_action = NoAction(); }""")


@pytest.fixture(scope="module")
def switch_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("channel"), PROGRAM, "channel.p4")


@pytest.fixture
def running(switch_binary: Path, tmp_path: Path):
    """A running switch's control channel address."""
    process = start_switch(switch_binary, tmp_path, f"unix:{tmp_path / 'control.sock'}")
    try:
        yield f"unix:{tmp_path / 'control.sock'}"
        process.terminate()
        assert process.wait(timeout=20) == 0, process.stderr.read()
        assert not (tmp_path / "control.sock").exists(), "the switch left its socket behind"
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


def packets_of(channel: SwitchChannel, cell: int) -> int:
    text = channel.command(f"counter_read seen {cell}")  # "seen[1]= (B bytes, P packets)"
    return int(text.split("(")[1].split(",")[1].split()[0])


def test_an_entry_added_while_forwarding_takes_effect_and_a_deleted_one_stops(running: str):
    with SwitchChannel(running) as channel:
        assert channel.program
        time.sleep(0.2)
        assert packets_of(channel, 1) == 0  # no entry: NoAction
        assert "handle 0" in channel.command("table_add kinds count 7 => 1")
        assert eventually(lambda: packets_of(channel, 1) > 0)
        assert channel.command("register_read last 1").strip() == "last[1]= 7"
        channel.command("table_delete kinds 0")  # returns once no worker can still see the entry
        stopped = packets_of(channel, 1)
        time.sleep(0.3)
        assert packets_of(channel, 1) == stopped


@pytest.mark.parametrize("line, message", [
    ("table_add kinds count 7 => 1 2", "takes 1 parameters, 2 given"),
    ("table_add nowhere count 7 => 1", "no table named 'nowhere'"),
    ("counter_read seen 9", "out of range"),
    ("frobnicate", "unknown command"),
])
def test_a_bad_command_gets_an_error_and_changes_nothing(running: str, line: str, message: str):
    with SwitchChannel(running) as channel:
        channel.command("table_add kinds count 7 => 2")
        with pytest.raises(CommandError, match=message):
            channel.command(line)
        with pytest.raises(CommandError, match="already"):
            channel.command("table_add kinds count 7 => 3")  # the first entry is still there, unchanged
        assert eventually(lambda: packets_of(channel, 2) > 0)
        assert packets_of(channel, 3) == 0


def test_malformed_input_is_refused_and_the_connection_keeps_working(running: str):
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(30)
    sock.connect(running[5:])
    reader = sock.makefile("rb")
    assert reader.readline().startswith(b"p4odp-control 2 ")

    def ask(data: bytes) -> tuple[bytes, bytes]:
        sock.sendall(data)
        status, size = reader.readline().split()
        return status, reader.read(int(size))

    assert ask(b"x" * 50000 + b"\n") == (b"error", b"line too long")
    assert ask(b"x" * (MAX_LINE + 1) + b"\n") == (b"error", b"line too long")  # MAX_LINE bytes and a newline at most
    status, message = ask(b"counter_read seen 0" + b" " * (MAX_LINE - 19) + b"\n")
    assert (status, message) == (b"ok", b"seen[0]= (0 bytes, 0 packets)\n")
    assert ask(b"counter_read seen\x00 1\n") == (b"error", b"a NUL byte in the line")
    assert ask(b"\xff\xfe\n")[0] == b"error"
    assert ask(b"counter_read seen 0\n") == (b"ok", b"seen[0]= (0 bytes, 0 packets)\n")
    sock.close()


def test_a_client_sees_what_another_changed(running: str):
    with SwitchChannel(running) as first, SwitchChannel(running) as second:
        first.command("register_write last 3 42")
        assert second.command("register_read last 3").strip() == "last[3]= 42"


def test_a_ninth_client_is_told_the_switch_is_busy(running: str):
    clients = [SwitchChannel(running) for _ in range(8)]
    try:
        with pytest.raises(ChannelError, match="too many connections"):
            SwitchChannel(running)
    finally:
        for client in clients:
            client.close()
    SwitchChannel(running).close()  # a slot is free again


def test_answers_larger_than_the_socket_buffer_reach_a_slow_reader(running: str):
    with SwitchChannel(running) as channel:
        for kind in range(256):
            channel.command(f"table_add kinds count {kind} => 1")
        channel.sock.sendall(b"table_dump kinds\n" * 60)  # 60 answers of about 25 kB: over 1 MB
        time.sleep(0.5)  # read nothing for a while: the answers wait in the switch, which forwards on
        for _ in range(60):
            ok, text = channel._answer()  # the client's own reading, of answers it did not wait for
            assert ok and text.count("Dumping entry") == 256
        assert channel.command("table_num_entries kinds") == "256\n"  # the connection still works


def test_p4odp_cli_runs_a_file_and_reports_bad_lines_with_their_place(running: str, tmp_path: Path):
    (tmp_path / "commands.txt").write_text("register_write last 2 9\nregister_read last 2\nbogus\n")
    run = subprocess.run([sys.executable, "-m", "p4odp.cli", "cli", "--switch", running,
                          str(tmp_path / "commands.txt")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stdout == "last[2]= 9\n"
    assert "commands.txt:3: error: unknown command" in run.stderr, run.stderr
    run = subprocess.run([sys.executable, "-m", "p4odp.cli", "cli", "--switch", running],
                         input="register_read last 2\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == "last[2]= 9\n", run.stderr


def test_p4odp_cli_says_when_no_switch_answers(tmp_path: Path):
    run = subprocess.run([sys.executable, "-m", "p4odp.cli", "cli", "--switch", f"unix:{tmp_path / 'none.sock'}",
                          "/dev/null"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "cannot connect" in run.stderr and "Traceback" not in run.stderr


def test_a_second_switch_on_the_same_address_is_refused(running: str, switch_binary: Path, tmp_path: Path):
    run = subprocess.run([str(switch_binary), "--control", running, "--exit-when-done",
                          "-i", f"0=pcap:in={tmp_path / 'in.pcap'}"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "another switch serves it" in run.stderr


def test_a_socket_left_behind_is_replaced_and_a_file_that_is_not_one_is_kept(switch_binary: Path, tmp_path: Path):
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(tmp_path / "stale.sock"))  # bound, never listening: a switch that is gone
    stale.close()
    process = start_switch(switch_binary, tmp_path, f"unix:{tmp_path / 'stale.sock'}")
    process.terminate()
    assert process.wait(timeout=20) == 0
    (tmp_path / "notes.txt").write_text("mine")
    run = subprocess.run([str(switch_binary), "--control", f"unix:{tmp_path / 'notes.txt'}", "--exit-when-done",
                          "-i", f"0=pcap:in={tmp_path / 'in.pcap'}"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "exists and is not a socket" in run.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_table_reads_print_as_simple_switch_cli_prints_them(running: str):
    with SwitchChannel(running) as channel:
        assert channel.command("table_num_entries kinds") == "0\n"
        channel.command("table_add kinds count 7 => 1")
        channel.command("table_add kinds count 0x2a => 3")
        assert channel.command("table_num_entries Ing.kinds") == "2\n"
        assert channel.command("table_dump_entry kinds 1") == (
            "Dumping entry 0x1\n"
            "Match key:\n"
            "* hdr.h.kind          : EXACT     2a\n"
            "Action entry: Ing.count - 00000003\n")
        assert channel.command("table_dump kinds") == (
            "==========\n"
            "TABLE ENTRIES\n"
            "**********\n"
            "Dumping entry 0x0\n"
            "Match key:\n"
            "* hdr.h.kind          : EXACT     07\n"
            "Action entry: Ing.count - 00000001\n"
            "**********\n"
            "Dumping entry 0x1\n"
            "Match key:\n"
            "* hdr.h.kind          : EXACT     2a\n"
            "Action entry: Ing.count - 00000003\n"
            "==========\n"
            "Dumping default entry\n"
            "Action entry: NoAction - \n"
            "==========\n")
        with pytest.raises(CommandError, match="no entry 5"):
            channel.command("table_dump_entry kinds 5")
        with pytest.raises(CommandError, match="no entry with this key"):
            channel.command("table_dump_entry_from_key kinds 8")


def test_a_dump_shows_each_match_kind_and_the_priority_as_simple_switch_cli(tmp_path: Path):
    program = one_header_program(
        "bit<16> a; bit<8> b; bit<8> c; bit<32> d;", ingress="        t.apply();\n        l.apply();",
        ingress_locals="""\
    action set(bit<8> v) { hdr.h.b = v; }
    table t { key = { hdr.h.a: ternary; hdr.h.b: range; hdr.h.c: optional; } actions = { set; NoAction; } }
    table l { key = { hdr.h.d: lpm; } actions = { set; NoAction; } default_action = set(9); }""")
    switch = build_switch(tmp_path, program, "kinds.p4")
    (tmp_path / "commands.txt").write_text(
        "table_add t set 0x0800&&&0xff00 1->5 3 => 7 10\n"
        "table_add t set 0&&&0 0->255 0&&&0 => 8 20\n"
        "table_add l set 10.1.0.0/16 => 1\n"
        "table_dump t\ntable_dump l\n"
        "table_dump_entry_from_key t 0&&&0 0->255 0&&&0 20\n"
        "table_dump_entry_from_key l 10.1.0.0/16\n")
    run = run_on_frames(switch, tmp_path, [], "--commands", str(tmp_path / "commands.txt"))
    assert run.returncode == 0, run.stderr
    assert (
        "Dumping entry 0x0\n"
        "Match key:\n"
        "* hdr.h.a             : TERNARY   0800 &&& ff00\n"
        "* hdr.h.b             : RANGE     01 -> 05\n"
        "* hdr.h.c             : TERNARY   03 &&& ff\n"
        "Priority: 10\n"
        "Action entry: Ing.set - 07\n") in run.stdout
    assert ("* hdr.h.c             : TERNARY   00 &&& 00\n"
            "Priority: 20\n") in run.stdout
    assert ("* hdr.h.d             : LPM       0a010000/16\n"
            "Action entry: Ing.set - 01\n") in run.stdout
    dumps = run.stdout.split("==========\n")
    assert dumps[-1] == ("Dumping entry 0x1\nMatch key:\n"
                         "* hdr.h.a             : TERNARY   0000 &&& 0000\n"
                         "* hdr.h.b             : RANGE     00 -> ff\n"
                         "* hdr.h.c             : TERNARY   00 &&& 00\n"
                         "Priority: 20\nAction entry: Ing.set - 08\n"
                         "Dumping entry 0x0\nMatch key:\n"
                         "* hdr.h.d             : LPM       0a010000/16\n"
                         "Action entry: Ing.set - 01\n")
    assert dumps[-2] == "Dumping default entry\nAction entry: Ing.set - 09\n"


def test_help_lists_every_command_the_switch_serves(running: str):
    core = Path(__file__).parents[2] / "runtime/core"
    served = {name for cli in core.glob("cli*.c") for name in re.findall(r'\{ "(\w+)", cmd_\w+, ', cli.read_text())}
    served |= set(re.findall(r'\{ "(\w+)", (?:P4ODP_EVENT_|\w+_program \})', (core / "channel.c").read_text()))  # its own
    with SwitchChannel(running) as channel:
        listed = channel.command("help").split()
    assert len(listed) == len(set(listed)) and set(listed) == served and "table_add" in served


def test_mc_dump_lists_groups_and_their_nodes_as_simple_switch_cli(running: str):
    with SwitchChannel(running) as channel:
        channel.command("mc_mgrp_create 1")
        assert channel.command("mc_node_create 2 8 1 5") == "Node was created with handle 0\n"
        channel.command("mc_node_create 4 5")
        channel.command("mc_node_associate 1 0")
        channel.command("mc_node_associate 1 1")
        assert channel.command("mc_dump") == (
            "==========\n"
            "MC ENTRIES\n"
            "**********\n"
            "mgrp(1)\n"
            "  -> (L1h=0, rid=2) -> (ports=[1, 5, 8], lags=[])\n"
            "  -> (L1h=1, rid=4) -> (ports=[5], lags=[])\n"
            "==========\n"
            "LAGS\n"
            "==========\n")


def test_a_multicast_node_can_hold_every_port_number(running: str):
    with SwitchChannel(running) as channel:
        handle = channel.command("mc_node_create 7 " + " ".join(map(str, range(512))))
        assert handle.startswith("Node was created with handle ")
        node = handle.split()[-1]
        channel.command("mc_mgrp_create 9")
        channel.command(f"mc_node_associate 9 {node}")
        assert f"(ports=[{', '.join(map(str, range(512)))}], lags=[])" in channel.command("mc_dump")
        channel.command(f"mc_node_dissociate 9 {node}")  # the switch as the other tests found it
        channel.command(f"mc_node_destroy {node}")
        channel.command("mc_mgrp_destroy 9")


def test_p4odp_cli_completes_the_programs_names(tmp_path: Path):
    from p4odp.controlplane.cli import Completer
    from p4odp.controlplane.protos import p4info_pb2

    example = Path(__file__).parents[2] / "examples/l3fwd/l3fwd.p4"
    subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(example), "--emit", "p4info",
                    "--p4runtime-files", str(tmp_path / "p4info.bin")], check=True)
    commands = ["table_add", "table_dump", "counter_read"]
    completer = Completer(commands, p4info_pb2.P4Info.FromString((tmp_path / "p4info.bin").read_bytes()))
    assert completer.candidates("", "table_a") == ["table_add"]
    assert completer.candidates("table_add ", "") == ["L3Ingress.ipv4_lpm", "ipv4_lpm"]
    assert completer.candidates("table_add ipv4_lpm ", "") == ["L3Ingress.drop", "L3Ingress.ipv4_forward", "NoAction",
                                                              "drop", "ipv4_forward"]
    assert completer.candidates("table_set_default L3Ingress.ipv4_lpm ", "d") == ["drop"]
    assert completer.candidates("table_add ipv4_lpm ipv4_forward ", "") == []  # keys: no names
    assert completer.candidates("counter_read ", "") == []  # l3fwd has no counter
    assert Completer(commands).candidates("", "") == commands and Completer(commands).candidates("table_add ", "") == []
