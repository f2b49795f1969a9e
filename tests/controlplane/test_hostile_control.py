"""Hostile control input (issue 12): malformed, truncated and oversized command lines and P4Runtime
messages, unknown names and ids, values wider than their field, a full table, deleting what is not
there.  Each gets a clear error and changes nothing, which is checked by reading the switch's
whole state back before and after, and the switch forwards on as before: one switch serves the
whole module, replaying a frame that an entry of each of its three tables counts (cells 1, 2, 3
of counter `seen`), and exits 0 at SIGTERM once every hostile input has been through it."""

from __future__ import annotations

import random
import re
import socket
import threading
from pathlib import Path

import pytest
from one_header_switch import build_switch, eventually, one_header_program, run_on_frames, start_switch

from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel

try:
    import grpc
    from google.rpc import code_pb2
    from p4runtime_client import Controller, entry, p4runtime_switch, rejected, update

    from p4odp.controlplane.protos import p4runtime_pb2 as p4r
except ImportError:  # P4Runtime's packages: the channel's tests run without them
    grpc = None
needs_grpc = pytest.mark.skipif(grpc is None, reason="grpcio and p4runtime are not installed")

PROGRAM = one_header_program(
    "bit<8> kind; bit<8> b; bit<32> addr;",
    ingress="        mark_to_drop(sm);\n        kinds.apply();\n        routes.apply();\n        acl.apply();\n"
            "        spans.apply();",
    globals='@controller_header("packet_out") header packet_out_t { bit<9> egress_port; bit<7> pad; }',
    ingress_locals="""\
    counter(8, CounterType.packets) seen;
    register<bit<8>>(4) last;
    meter(4, MeterType.packets) limiter;
    action count(bit<32> cell) { seen.count(cell); }
    action note(bit<8> value) { last.write(0, value); }
    table kinds {
        key = { hdr.h.kind: exact; } actions = { count; note; NoAction; } default_action = NoAction(); size = 4;
    }
    table routes { key = { hdr.h.addr: lpm; } actions = { count; NoAction; } default_action = NoAction(); }
    table acl { key = { hdr.h.b: ternary; } actions = { count; NoAction; } default_action = NoAction(); }
    table spans {
        key = { hdr.h.kind: range; hdr.h.b: optional; } actions = { count; NoAction; } default_action = NoAction();
    }""")

# kind 1, b 0x12, addr 10.1.2.3: counted by an entry of each table (SETUP).
FRAME = bytes([1, 0x12, 10, 1, 2, 3]) + bytes(54)
COUNTING_CELLS = (1, 2, 3)
SETUP = [
    "table_add kinds count 1 => 1",
    "table_add routes count 10.1.0.0/16 => 2",
    "table_add acl count 0x10&&&0xf0 => 3 1",
    "register_write last 1 7",
    "counter_write seen 5 100 1000",
    "meter_set_rates limiter 1 0.5:10 1:20",
    "mc_mgrp_create 1",
    "mc_node_create 0 2 3",
    "mc_node_associate 1 0",
    "mirroring_add 5 4",
]
# Everything the control plane can change, read back (the counting cells grow: not read here).
READS = ["table_dump kinds", "table_dump routes", "table_dump acl", "table_dump spans", "table_num_entries kinds",
         "mc_dump", "mirroring_get 5", *(f"counter_read seen {cell}" for cell in (0, 4, 5, 6, 7)),
         *(f"register_read last {i}" for i in range(4)), *(f"meter_get_rates limiter {i}" for i in range(4))]


@pytest.fixture(scope="module")
def binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("hostile"), PROGRAM, "hostile.p4")


@pytest.fixture(scope="module")
def switch(binary: Path, tmp_path_factory):
    """The running switch, its state set up (SETUP): its control channel's address.  It must still
    run at the end, and exit 0 at SIGTERM."""
    folder = tmp_path_factory.mktemp("switch")
    address = f"unix:{folder / 'control.sock'}"
    process = start_switch(binary, folder, address, (FRAME,), options=("--cpu-port", "255"))
    try:
        with SwitchChannel(address) as channel:
            for line in SETUP:
                channel.command(line)
        yield address
        assert process.poll() is None, process.stderr.read()
        process.terminate()
        assert process.wait(timeout=20) == 0, process.stderr.read()
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


def state(channel: SwitchChannel) -> list[str]:
    return [channel.command(line) for line in READS]


def packets(channel: SwitchChannel, cell: int) -> int:
    text = channel.command(f"counter_read seen {cell}")  # "seen[1]= (B bytes, P packets)"
    return int(text.split("(")[1].split(",")[1].split()[0])


def forwards(channel: SwitchChannel) -> bool:
    """Whether the frame is still counted by an entry of each table."""
    start = [packets(channel, cell) for cell in COUNTING_CELLS]
    return eventually(lambda: all(packets(channel, cell) > n for cell, n in zip(COUNTING_CELLS, start)))


@pytest.fixture
def unchanged(switch: str):
    """A channel to the switch; after the test, its state is what it was before, and it forwards."""
    with SwitchChannel(switch) as channel:
        before = state(channel)
        yield channel
        assert state(channel) == before
        assert forwards(channel)


BAD_COMMANDS = [
    # Unknown names.
    ("frobnicate 1 2", "unknown command 'frobnicate'"),
    ("table_add nowhere count 2 => 1", "no table named 'nowhere'"),
    ("table_add kinds nowhere 2 => 1", "table Ing.kinds has no action named 'nowhere'"),
    ("table_add kinds seen 2 => 1", "has no action named 'seen'"),
    ("table_dump nowhere", "no table named"),
    ("table_clear nowhere", "no table named"),
    ("table_set_default kinds nowhere", "no action named"),
    ("counter_read nowhere 0", "no counter named 'nowhere'"),
    ("counter_reset last", "no counter named 'last'"),
    ("register_read nowhere 0", "no register named"),
    ("register_reset seen", "no register named 'seen'"),
    ("meter_get_rates nowhere 0", "no meter named"),
    ("pvs_add nowhere 1", "no value set named"),
    ("act_prof_create_member nowhere count 1", "no action profile named"),
    ("table_indirect_add kinds 2 => 0", "has no action profile"),
    ("set_crc16_parameters nowhere 1 2 3 true false", "no crc16_custom calculation"),
    # Words missing or too many.
    ("table_add", "usage: table_add"),
    ("table_add kinds", "usage: table_add"),
    ("table_add kinds count", "has 1 key fields, 0 given"),
    ("table_add kinds count 2", "takes 1 parameters, 0 given"),
    ("table_add kinds count => 1", "has 1 key fields, 0 given"),
    ("table_add kinds count 2 3 => 1", "has 1 key fields, 2 given"),
    ("table_add kinds count 2 => 1 2", "takes 1 parameters, 2 given"),
    ("table_add kinds count 2 => => 1", "takes 1 parameters, 2 given"),
    ("table_add acl count 0x20&&&0xf0 => 3 1 2", "needs a priority after the action parameters"),
    ("table_set_default kinds count", "takes 1 parameters, 0 given"),
    ("table_modify kinds count", "usage: table_modify"),
    ("table_delete kinds", "usage: table_delete"),
    ("table_delete kinds 0 1", "usage: table_delete"),
    ("counter_read seen", "usage: counter_read"),
    ("counter_write seen 5 1", "usage: counter_write"),
    ("register_write last 1", "usage: register_write"),
    ("meter_set_rates limiter 0 1:1", "usage: meter_set_rates"),
    ("mc_mgrp_create", "usage: mc_mgrp_create"),
    ("mirroring_add 6", "usage: mirroring_add"),
    ("packet_out", "usage: packet_out"),
    ("table_num_entries kinds routes", "usage: table_num_entries"),
    ("help me", "usage: help"),
    ("table_add kinds count " + " ".join(["2"] * 600), "too many words"),
    # Values wider than their field.
    ("table_add kinds count 0x1ff => 1", "'0x1ff' does not fit in 8 bits"),
    ("table_add kinds count 256 => 1", "does not fit in 8 bits"),
    ("table_add kinds count 1.2.3.4 => 1", "does not fit in 8 bits"),
    ("table_add kinds count 2 => 0x100000000", r"does not fit in 32 bits \(parameter cell\)"),
    ("table_add kinds note 2 => 256", r"does not fit in 8 bits \(parameter value\)"),
    ("table_add kinds count 0x" + "f" * 600 + " => 1", "too large|wider|does not fit"),
    ("table_add routes count 0x1ffffffff/8 => 2", "does not fit in 32 bits"),
    ("table_add routes count 10.1.0.0/33 => 2", "prefix length 33 is longer than the field"),
    ("table_add acl count 0x10&&&0x1f0 => 3 1", "'0x1f0' does not fit in 8 bits"),
    ("register_write last 1 256", "does not fit in 8 bits"),
    ("table_dump_entry_from_key kinds 0x1ff", "does not fit in 8 bits"),
    ("counter_write seen 5 18446744073709551616 0", "too large|does not fit"),
    # Negative numbers where there are none.
    ("counter_read seen -1", "'-1' is not a number"),
    ("register_read last -1", "'-1' is not a number"),
    ("table_delete kinds -1", "'-1' is not an entry handle"),
    ("counter_write seen 5 -1 0", "'-1' is not a count"),
    ("table_add acl count 0x20&&&0xf0 => 3 -1", "'-1' is not a number"),
    ("table_add routes count 10.1.0.0/-1 => 2", "'-1' is not a number"),
    ("mc_mgrp_create -1", "'-1' is not a number"),
    ("mc_node_create 0 -3", "'-3' is not a number"),
    ("mirroring_add -1 4", "'-1' is not a number"),
    ("meter_set_rates limiter 0 -1:1 2:2", "is not RATE:BURST"),
    ("register_write last 1 -1", "negative|does not fit"),
    # Malformed numbers, addresses, prefixes, masks, ranges, priorities.
    ("table_add kinds count 0xzz => 1", "bad number '0xzz'"),
    ("table_add kinds count 0x => 1", "bad number '0x'"),
    ("table_add kinds count 0b102 => 1", "bad number"),
    ("table_add kinds count 1e3 => 1", "bad number"),
    ("table_add kinds count _ => 1", "bad number '_'"),
    ("table_add kinds count 0x_ => 1", "bad number"),
    ("table_add kinds count - => 1", "bad number"),
    ("table_add kinds count --1 => 1", "bad number"),
    ("table_add kinds count 2->3 => 1", "bad number"),
    ("table_add kinds count \N{SNOWMAN} => 1", "bad number"),
    ("table_add routes count 10.1.0/16 => 2", "bad IPv4 address '10.1.0'"),
    ("table_add routes count 10.1.0.0.0/16 => 2", "bad IPv4 address"),
    ("table_add routes count 10.1.0.256/16 => 2", "bad IPv4 address"),
    ("table_add routes count 00:00:-1:00:00:01/8 => 2", "bad MAC address"),
    ("table_add routes count 00:00:0a:00:00:0g/8 => 2", "bad MAC address"),
    ("table_add routes count 00:00:0a:00:0:001/8 => 2", "bad MAC address"),
    ("table_add routes count 1:2:3/8 => 2", "bad IPv6 address"),
    ("table_add routes count 10.1.0.0 => 2", "expected VALUE/LENGTH"),
    ("table_add routes count 10.1.0.0/ => 2", "'' is not a number"),
    ("table_add routes count 10.1.0.0/16/8 => 2", "is not a number"),
    ("table_add routes count /16 => 2", "empty value"),
    ("table_add routes count 10.1.0.0/0x => 2", "is not a number"),
    ("table_add acl count 0x10&&& => 3 1", "empty value"),
    ("table_add acl count &&&0xf0 => 3 1", "empty value"),
    ("table_add acl count 0x10&&&0xf0&&&1 => 3 1", "bad number"),
    ("table_add spans count 5->3 0x12 => 4 1", "key hdr.h.kind: the range 5->3 is empty"),
    ("table_add spans count 3 0x12 => 4 1", "expected LOW->HIGH for a range field"),
    ("table_add spans count 3->0x100 0x12 => 4 1", "'0x100' does not fit in 8 bits"),
    ("table_add spans count 3-> 0x12 => 4 1", "empty value"),
    ("table_add spans count 3->5 0x12&&&0xf0 => 4 1", "an optional field takes a value or a zero mask"),
    ("table_add spans count 3->5->7 0x12 => 4 1", "bad number"),
    ("table_add acl count 0x20&&&0xf0 => 3 x", "'x' is not a number"),
    ("table_add acl count 0x20&&&0xf0 => 3 2147483648", "priority 2147483648 is out of range"),
    ("table_add acl count 0x20&&&0xf0 => 3 4294967296", "is not a number"),
    ("meter_set_rates limiter 0 2:1 1:1", "committed rate 2:1 is above the peak rate"),
    ("meter_set_rates limiter 0 x:1 2:2", "is not RATE:BURST"),
    ("meter_set_rates limiter 0 1:x 2:2", "is not RATE:BURST"),
    ("meter_set_rates limiter 0 nan:1 2:2", "is not RATE:BURST"),
    ("meter_set_rates limiter 0 inf:1 inf:2", "is not RATE:BURST"),
    ("meter_set_rates limiter 0 1 2:2", "is not RATE:BURST"),
    ("packet_out zz", "an even number of hex digits"),
    ("packet_out abc", "an even number of hex digits"),
    ("packet_out " + "00" * 9700, "longer than the switch's largest"),
    ("set_crc32_parameters calc x 0 0 true true", "no crc32_custom calculation|is not a number"),
    # Indexes out of range, handles and ids that do not exist.
    ("counter_read seen 8", "index 8 is out of range for counter Ing.seen of size 8"),
    ("counter_write seen 8 1 1", "out of range"),
    ("counter_read seen 4294967296", "is not a number"),
    ("register_read last 4", "index 4 is out of range for register Ing.last of size 4"),
    ("register_write last 4 1", "out of range"),
    ("meter_set_rates limiter 4 1:1 2:2", "out of range"),
    ("meter_get_rates limiter 4", "out of range"),
    ("meter_reset limiter 4", "out of range"),
    ("table_delete kinds 99", "table Ing.kinds has no entry with handle 99"),
    ("table_delete kinds 99999999999999999999", "is not an entry handle"),
    ("table_modify kinds count 99 => 1", "has no entry with handle 99"),
    ("table_modify kinds count x => 1", "'x' is not an entry handle"),
    ("table_dump_entry kinds 99", "has no entry 99"),
    ("table_dump_entry_from_key kinds 9", "no entry with this key"),
    ("mc_mgrp_destroy 9", "no multicast group 9"),
    ("mc_node_associate 9 0", "no multicast group 9"),
    ("mc_node_associate 1 99", "no multicast node 99"),
    ("mc_node_associate 1 0", "multicast node 0 is associated with group 1"),
    ("mc_node_dissociate 1 99", "no multicast node 99"),
    ("mc_node_destroy 99", "no multicast node 99"),
    ("mc_node_update 99 1", "no multicast node 99"),
    ("mc_mgrp_set 9 0", "no multicast group 9"),
    ("mc_mgrp_set 1 0 0", "given twice"),
    ("mc_mgrp_create 1", "multicast group 1 exists"),
    ("mc_mgrp_create 0", "out of range 1..4095"),
    ("mc_mgrp_create 4096", "out of range 1..4095"),
    ("mc_node_create 0 512", "port 512 is out of range"),
    ("mc_node_create 65536 1", "replication id 65536 is out of range"),
    ("mirroring_add 32768 1", "mirror session 32768 is out of range 0..32767"),
    ("mirroring_add 4294967296 1", "is not a number"),
    ("mirroring_add 6 512", "port 512 is out of range"),
    ("mirroring_add_mc 6 0", "multicast group 0 is out of range"),
    ("mirroring_delete 32768", "out of range"),
    ("mirroring_delete 7", "no mirror session 7"),
    ("mirroring_get 7", "no mirror session 7"),
    ("mirroring_get 99999", "out of range"),
    # Entries that exist already.
    ("table_add kinds count 1 => 4", "already has an entry with this key"),
    ("table_add routes count 10.1.0.0/16 => 4", "already has an entry with this key"),
    ("table_add routes count 10.1.99.99/16 => 4", "already has an entry with this key"),  # bits past the prefix
    ("table_add acl count 0x10&&&0xf0 => 4 1", "already has an entry with this key"),
]


@pytest.mark.parametrize("line, message", BAD_COMMANDS, ids=[line[:60] for line, _ in BAD_COMMANDS])
def test_a_bad_command_gets_a_clear_error_and_changes_nothing(unchanged: SwitchChannel, line: str, message: str):
    with pytest.raises(CommandError, match=message):
        unchanged.command(line)


def test_a_full_table_refuses_one_more_entry_and_keeps_those_it_has(unchanged: SwitchChannel):
    added = [unchanged.command(f"table_add kinds count {kind} => 4") for kind in (2, 3, 4)]
    assert unchanged.command("table_num_entries kinds") == "4\n"  # its size
    dump = unchanged.command("table_dump kinds")
    with pytest.raises(CommandError, match="table Ing.kinds is full"):
        unchanged.command("table_add kinds count 5 => 4")
    assert unchanged.command("table_dump kinds") == dump
    assert forwards(unchanged)  # the frame's entry still matches
    for text in added:
        handle = int(text.split()[-1])
        unchanged.command(f"table_delete kinds {handle}")
        with pytest.raises(CommandError, match=f"has no entry with handle {handle}"):
            unchanged.command(f"table_delete kinds {handle}")  # deleted already
        with pytest.raises(CommandError, match=f"has no entry with handle {handle}"):
            unchanged.command(f"table_modify kinds count {handle} => 5")


def connect(address: str) -> tuple[socket.socket, object]:
    """A raw connection to the channel, its greeting read: the socket and a reader of it."""
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(20)
    sock.connect(address.removeprefix("unix:"))
    reader = sock.makefile("rb")
    assert reader.readline().startswith(b"p4odp-control 2 ")
    return sock, reader


def answer(reader) -> tuple[bytes, bytes]:
    status, size = reader.readline().split()
    return status, reader.read(int(size))


GARBAGE = random.Random(12).randbytes(4000)


@pytest.mark.parametrize("data, expected", [
    (b"x" * (1 << 20) + b"\n", [(b"error", b"line too long")]),
    (b"table_add kinds count 2 => 4" + b" " * (1 << 20) + b"\n", [(b"error", b"line too long")]),  # not run
    (b"\n" * 3 + b"  # a comment\n", [(b"ok", b"")] * 4),
    (b"table_add kinds count \xff\xfe => 4\n", [(b"error", b"bad number '\xff\xfe' (key hdr.h.kind)")]),
    (b"table_add kinds\x00 count 2 => 4\n", [(b"error", b"a NUL byte in the line")]),
    (b"\x00" * 5000 + b"\n", [(b"error", b"a NUL byte in the line")]),
    (b"table_add kinds count 1 => 9\r\n", [(b"error", b"table Ing.kinds already has an entry with this key")]),
    (b"table_add kinds count 2 => 0x1ff00000000\n" * 1000,
     [(b"error", b"value '0x1ff00000000' does not fit in 32 bits (parameter cell)")] * 1000),
    (GARBAGE + b"\n", None),
    (GARBAGE.replace(b"\n", b"") + b"\n", None),
])
def test_malformed_bytes_on_the_channel_are_refused(switch: str, unchanged: SwitchChannel, data: bytes,
                                                    expected: list | None):
    sock, reader = connect(switch)
    sock.sendall(data)
    answers = [answer(reader) for _ in range(data.count(b"\n"))]
    if expected is not None:
        assert answers == expected
    sock.sendall(b"table_num_entries kinds\n")  # the connection still works
    assert answer(reader) == (b"ok", b"1\n")
    sock.close()


def test_a_line_cut_short_by_its_client_leaving_is_not_run(switch: str, unchanged: SwitchChannel):
    for data in (b"table_add kinds count 2 => 4", b"table_add kinds count 2 => 4\r",
                 b"register_write last 0 9" + b" " * 30000):
        sock, _ = connect(switch)
        sock.sendall(data)
        sock.close()
    sock, _ = connect(switch)
    sock.sendall(b"table_add kinds count 2 => 4\n" * 100)  # answers it never reads
    sock.shutdown(socket.SHUT_RDWR)
    sock.close()
    assert eventually(lambda: unchanged.command("table_num_entries kinds") == "2\n")
    handle = int(unchanged.command("table_dump_entry_from_key kinds 2").split()[2], 16)
    unchanged.command(f"table_delete kinds {handle}")  # the whole line was run once: back as it was


def test_many_connections_at_once_get_a_slot_or_are_told_the_switch_is_busy(switch: str, unchanged: SwitchChannel):
    sockets, greeted, busy = [], 0, 0
    try:
        for _ in range(60):
            sock = socket.socket(socket.AF_UNIX)
            sockets.append(sock)
            sock.connect(switch.removeprefix("unix:"))  # blocking: waits while the switch's backlog is full
            sock.settimeout(20)
        for sock in sockets:
            first = sock.makefile("rb").readline()
            if first.startswith(b"p4odp-control 2 "):
                greeted += 1
                sock.sendall(b"table_add kinds count 2")  # half a line, never finished
            busy += first == b"error 20\n"
        # 8 clients at most: `unchanged` is one, and a client of an earlier test may still be leaving.
        assert greeted + busy == 60 and 6 <= greeted <= 7
        assert forwards(unchanged)
    finally:
        for sock in sockets:
            sock.close()
    assert eventually(lambda: try_connect(switch))  # the slots are free again


def try_connect(address: str) -> bool:
    try:
        SwitchChannel(address, timeout=5).close()
        return True
    except ChannelError:
        return False


@pytest.mark.parametrize("line, message", [
    ("table_add kinds count 0x1ff => 1", "value '0x1ff' does not fit in 8 bits"),
    ("frobnicate", "unknown command 'frobnicate'"),
    ("table_add kinds count 1 => 2", "table Ing.kinds already has an entry with this key"),
    ("counter_read seen 8", "index 8 is out of range"),
])
def test_a_bad_line_in_a_commands_file_is_named_and_the_switch_does_not_start(binary: Path, tmp_path: Path,
                                                                              line: str, message: str):
    commands = tmp_path / "commands.txt"
    commands.write_text(f"table_add kinds count 1 => 1\n\n{line}\ntable_add kinds count 3 => 3\n")
    run = run_on_frames(binary, tmp_path, [FRAME], "--commands", str(commands))
    assert run.returncode == 1
    assert run.stderr.startswith(f"{commands}:3: error: {message}") and run.stderr.count("\n") == 1, run.stderr
    assert run.stdout == "Entry has been added with handle 0\n"  # the lines after it are not run


def test_an_overlong_line_in_a_commands_file_is_refused_whole(binary: Path, tmp_path: Path):
    commands = tmp_path / "commands.txt"
    commands.write_text("table_add kinds count 1 => 1" + " " * 30000 + "bogus\n")
    run = run_on_frames(binary, tmp_path, [FRAME], "--commands", str(commands))
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"{commands}:1: error: line too long")


# ---- P4Runtime ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def p4runtime_target(binary: Path, tmp_path_factory):
    """A switch of PROGRAM and its P4Runtime server: the server's HOST:PORT."""
    with p4runtime_switch(binary, tmp_path_factory.mktemp("p4runtime"), (FRAME,), ("--cpu-port", "255")) as target:
        yield target


def setup_entries(controller: "Controller") -> list:
    """The entries that count the frame, as SETUP's."""
    return [entry(controller, "kinds", ("hdr.h.kind", "exact", b"\x01"), action="count", params=(b"\x01",)),
            entry(controller, "routes", ("hdr.h.addr", "lpm", b"\x0a\x01\x00\x00", 16), action="count",
                  params=(b"\x02",)),
            entry(controller, "acl", ("hdr.h.b", "ternary", b"\x10", b"\xf0"), action="count", params=(b"\x03",),
                  priority=10)]


@pytest.fixture(scope="module")
def controller(p4runtime_target: str):
    """The primary controller, its entries written, and a backup's election id set."""
    primary = Controller(p4runtime_target, election_id=10)
    assert primary.arbitrate().arbitration.status.code == code_pb2.OK
    primary.write(*(update(p4r.Update.INSERT, e) for e in setup_entries(primary)))
    register = p4r.Entity()
    register.register_entry.register_id = primary.id_of("registers", "last")
    register.register_entry.index.index = 1
    register.register_entry.data.bitstring = b"\x07"
    primary.write(update(p4r.Update.MODIFY, register))
    group = p4r.Entity()
    group.packet_replication_engine_entry.multicast_group_entry.multicast_group_id = 1
    group.packet_replication_engine_entry.multicast_group_entry.replicas.add(egress_port=2, instance=0)
    primary.write(update(p4r.Update.INSERT, group))
    yield primary
    primary.close()


def everything(controller: "Controller") -> list:
    """Every entity the controller can read (the frame's counter cells, which grow, left out)."""
    wanted = [p4r.Entity(table_entry=p4r.TableEntry()), p4r.Entity(counter_entry=p4r.CounterEntry()),
              p4r.Entity(register_entry=p4r.RegisterEntry()), p4r.Entity(meter_entry=p4r.MeterEntry())]
    for table in ("kinds", "routes", "acl", "spans"):
        wanted.append(entry(controller, table, default=True))
    replication = p4r.Entity()
    replication.packet_replication_engine_entry.multicast_group_entry.multicast_group_id = 0
    wanted.append(replication)
    found = [e for e in controller.read(*wanted)
             if not (e.HasField("counter_entry") and e.counter_entry.index.index in COUNTING_CELLS)]
    return [e.SerializeToString(deterministic=True) for e in found]


def counted(controller: "Controller") -> bool:
    """Whether the frame is still counted by an entry of each table."""
    start = [controller.cell(cell) for cell in COUNTING_CELLS]
    return eventually(lambda: all(controller.cell(cell) > n for cell, n in zip(COUNTING_CELLS, start)))


@pytest.fixture
def untouched(controller: "Controller"):
    """The primary; after the test, everything reads as before, the frame is counted as before, and
    the controller is still primary."""
    before = everything(controller)
    yield controller
    assert everything(controller) == before
    assert counted(controller)
    controller.write(update(p4r.Update.MODIFY, entry(controller, "kinds", default=True)))  # it may write


def kinds_entry(controller, key: bytes = b"\x02", cell: bytes = b"\x04", **changes) -> "p4r.Entity":
    entity = entry(controller, "kinds", ("hdr.h.kind", "exact", key), action="count", params=(cell,))
    for name, value in changes.items():
        setattr(entity.table_entry, name, value)
    return entity


def bad_updates(c: "Controller") -> list[tuple[str, "p4r.Update", int]]:
    """(what, update, the status it gets) for each bad update."""
    INSERT, MODIFY, DELETE = p4r.Update.INSERT, p4r.Update.MODIFY, p4r.Update.DELETE
    cases = []

    def case(what, kind, entity, code):
        cases.append((what, update(kind, entity), code))

    def changed(entity, change):
        change(entity)
        return entity

    te = lambda e: e.table_entry  # noqa: E731
    case("unknown table id", INSERT, changed(kinds_entry(c), lambda e: setattr(te(e), "table_id", 7)),
         code_pb2.INVALID_ARGUMENT)
    case("unknown action id", INSERT, changed(kinds_entry(c), lambda e: setattr(te(e).action.action, "action_id", 9)),
         code_pb2.INVALID_ARGUMENT)
    case("unknown param id", INSERT, changed(kinds_entry(c), lambda e: setattr(te(e).action.action.params[0],
                                                                               "param_id", 9)),
         code_pb2.INVALID_ARGUMENT)
    case("a param given twice", INSERT, changed(kinds_entry(c), lambda e: te(e).action.action.params.add(
        param_id=1, value=b"\x01")), code_pb2.INVALID_ARGUMENT)
    case("a param missing", INSERT, changed(kinds_entry(c), lambda e: te(e).action.action.ClearField("params")),
         code_pb2.INVALID_ARGUMENT)
    case("a param wider than its 32 bits", INSERT, kinds_entry(c, cell=b"\x01" + bytes(4)), code_pb2.INVALID_ARGUMENT)
    case("a param of 10 kB", INSERT, kinds_entry(c, cell=b"\x01" * 10000), code_pb2.INVALID_ARGUMENT)
    case("an empty param", INSERT, kinds_entry(c, cell=b""), code_pb2.INVALID_ARGUMENT)
    case("unknown field id", INSERT, changed(kinds_entry(c), lambda e: setattr(te(e).match[0], "field_id", 9)),
         code_pb2.INVALID_ARGUMENT)
    case("a field given twice", INSERT, changed(kinds_entry(c), lambda e: te(e).match.add().CopyFrom(te(e).match[0])),
         code_pb2.INVALID_ARGUMENT)
    case("an exact field left out", INSERT, changed(kinds_entry(c), lambda e: te(e).ClearField("match")),
         code_pb2.INVALID_ARGUMENT)
    case("an exact field wider than its 8 bits", INSERT, kinds_entry(c, key=b"\x01\x02"), code_pb2.INVALID_ARGUMENT)
    case("an exact field of 10 kB", INSERT, kinds_entry(c, key=b"\x01" * 10000), code_pb2.INVALID_ARGUMENT)
    case("an empty exact field", INSERT, kinds_entry(c, key=b""), code_pb2.INVALID_ARGUMENT)
    case("a priority in a table without ternary fields", INSERT, kinds_entry(c, priority=5), code_pb2.INVALID_ARGUMENT)
    case("a field matched another way", INSERT,
         entry(c, "kinds", ("hdr.h.kind", "ternary", b"\x02", b"\xff"), action="count", params=(b"\x04",)),
         code_pb2.INVALID_ARGUMENT)
    case("an action not of the table", INSERT,
         entry(c, "routes", ("hdr.h.addr", "lpm", b"\x0a\x02\x00\x00", 16), action="note", params=(b"\x01",)),
         code_pb2.INVALID_ARGUMENT)

    def route(prefix: bytes, length: int):
        return entry(c, "routes", ("hdr.h.addr", "lpm", prefix, length), action="count", params=(b"\x04",))
    case("a prefix longer than the field", INSERT, route(b"\x0a\x02\x00\x00", 33), code_pb2.INVALID_ARGUMENT)
    case("a prefix of length 0", INSERT, route(b"\x00", 0), code_pb2.INVALID_ARGUMENT)
    case("a negative prefix length", INSERT, route(b"\x0a\x02\x00\x00", -1), code_pb2.INVALID_ARGUMENT)
    case("bits past the prefix", INSERT, route(b"\x0a\x02\x00\x01", 16), code_pb2.INVALID_ARGUMENT)
    case("an lpm value wider than the field", INSERT, route(b"\x01\x0a\x02\x00\x00", 16), code_pb2.INVALID_ARGUMENT)

    def acl(value: bytes, mask: bytes, priority: int = 20):
        return entry(c, "acl", ("hdr.h.b", "ternary", value, mask), action="count", params=(b"\x04",),
                     priority=priority)
    case("value bits outside the mask", INSERT, acl(b"\x21", b"\xf0"), code_pb2.INVALID_ARGUMENT)
    case("a mask wider than the field", INSERT, acl(b"\x20", b"\x01\xf0"), code_pb2.INVALID_ARGUMENT)
    case("a zero mask", INSERT, acl(b"\x00", b"\x00"), code_pb2.INVALID_ARGUMENT)
    case("no priority", INSERT, acl(b"\x20", b"\xf0", 0), code_pb2.INVALID_ARGUMENT)
    case("a negative priority", INSERT, acl(b"\x20", b"\xf0", -5), code_pb2.INVALID_ARGUMENT)
    case("an entry there already", INSERT, setup_entries(c)[0], code_pb2.ALREADY_EXISTS)
    case("an lpm entry there already", INSERT, setup_entries(c)[1], code_pb2.ALREADY_EXISTS)
    case("a ternary entry there already", INSERT, acl(b"\x10", b"\xf0", 10), code_pb2.ALREADY_EXISTS)
    case("deleting a missing entry", DELETE, kinds_entry(c), code_pb2.NOT_FOUND)
    case("modifying a missing entry", MODIFY, kinds_entry(c), code_pb2.NOT_FOUND)
    case("deleting an entry of another priority", DELETE, acl(b"\x10", b"\xf0", 11), code_pb2.NOT_FOUND)
    case("modifying an entry to a bad param", MODIFY, kinds_entry(c, key=b"\x01", cell=b"\x01\x00\x00\x00\x00"),
         code_pb2.INVALID_ARGUMENT)
    case("inserting a default entry", INSERT, entry(c, "kinds", action="count", params=(b"\x01",), default=True),
         code_pb2.INVALID_ARGUMENT)
    case("a default entry of a bad param", MODIFY, entry(c, "kinds", action="count", params=(b"\x01" * 5,),
                                                         default=True), code_pb2.INVALID_ARGUMENT)
    case("an update of an unknown type", 99, kinds_entry(c, key=b"\x01"), code_pb2.INVALID_ARGUMENT)
    case("an update of no type", p4r.Update.UNSPECIFIED, kinds_entry(c, key=b"\x01"), code_pb2.INVALID_ARGUMENT)
    case("an update of no entity", INSERT, p4r.Entity(), code_pb2.INVALID_ARGUMENT)

    def cell(kind: str, entity_id: int, index: int, **data):
        entity = p4r.Entity()
        message = getattr(entity, f"{kind}_entry")
        setattr(message, f"{kind}_id", entity_id)
        message.index.index = index
        for name, value in data.items():
            if kind == "meter":
                setattr(message.config, name, value)
            elif kind == "register":
                message.data.bitstring = value
            else:
                setattr(message.data, name, value)
        return entity
    seen, last, limiter = c.id_of("counters", "seen"), c.id_of("registers", "last"), c.id_of("meters", "limiter")
    case("an unknown counter", MODIFY, cell("counter", 9, 0), code_pb2.INVALID_ARGUMENT)
    case("a counter index out of range", MODIFY, cell("counter", seen, 8), code_pb2.OUT_OF_RANGE)
    case("a negative counter index", MODIFY, cell("counter", seen, -1), code_pb2.INVALID_ARGUMENT)
    case("a negative packet count", MODIFY, cell("counter", seen, 6, packet_count=-1), code_pb2.INVALID_ARGUMENT)
    case("inserting a counter cell", INSERT, cell("counter", seen, 6), code_pb2.INVALID_ARGUMENT)
    case("an unknown register", MODIFY, cell("register", 9, 0, bitstring=b"\x01"), code_pb2.INVALID_ARGUMENT)
    case("a register index out of range", MODIFY, cell("register", last, 4, bitstring=b"\x01"), code_pb2.OUT_OF_RANGE)
    case("a register value wider than its 8 bits", MODIFY, cell("register", last, 2, bitstring=b"\x01\x00"),
         code_pb2.INVALID_ARGUMENT)
    case("an empty register value", MODIFY, cell("register", last, 2, bitstring=b""), code_pb2.INVALID_ARGUMENT)
    case("an unknown meter", MODIFY, cell("meter", 9, 0, cir=1, pir=2), code_pb2.INVALID_ARGUMENT)
    case("a meter index out of range", MODIFY, cell("meter", limiter, 4, cir=1, pir=2), code_pb2.OUT_OF_RANGE)
    case("a negative meter burst", MODIFY, cell("meter", limiter, 0, cir=1, cburst=-1, pir=2),
         code_pb2.INVALID_ARGUMENT)

    def replication(kind: str, entity_id: int, *ports: int):
        entity = p4r.Entity()
        message = getattr(entity.packet_replication_engine_entry, f"{kind}_entry")
        setattr(message, "multicast_group_id" if kind == "multicast_group" else "session_id", entity_id)
        for port in ports:
            message.replicas.add(egress_port=port, instance=0)
        return entity
    case("a multicast group id 0", INSERT, replication("multicast_group", 0, 1), code_pb2.OUT_OF_RANGE)
    case("a multicast group id out of range", INSERT, replication("multicast_group", 4096, 1), code_pb2.OUT_OF_RANGE)
    case("a multicast group there already", INSERT, replication("multicast_group", 1, 3), code_pb2.ALREADY_EXISTS)
    case("deleting a missing multicast group", DELETE, replication("multicast_group", 2), code_pb2.NOT_FOUND)
    case("a replica port out of range", INSERT, replication("multicast_group", 2, 512), code_pb2.INVALID_ARGUMENT)
    case("a replica port given twice", INSERT, replication("multicast_group", 2, 3, 3), code_pb2.INVALID_ARGUMENT)
    case("a clone session out of range", INSERT, replication("clone_session", 40000, 1), code_pb2.OUT_OF_RANGE)
    case("deleting a missing clone session", DELETE, replication("clone_session", 5), code_pb2.NOT_FOUND)
    digest = p4r.Entity()
    digest.digest_entry.digest_id = 9
    case("an unknown digest", INSERT, digest, code_pb2.NOT_FOUND)
    member = p4r.Entity()
    member.action_profile_member.action_profile_id = 9
    case("an unknown action profile", INSERT, member, code_pb2.INVALID_ARGUMENT)
    value_set = p4r.Entity()
    value_set.value_set_entry.value_set_id = 9
    case("an unknown value set", MODIFY, value_set, code_pb2.INVALID_ARGUMENT)
    return cases


@needs_grpc
def test_each_bad_update_gets_its_status_and_changes_nothing(untouched: "Controller"):
    cases = bad_updates(untouched)
    for what, bad, expected in cases:
        code, details = rejected(lambda: untouched.write(bad))
        assert (code, [d[0] for d in details]) == (grpc.StatusCode.UNKNOWN, [expected]), (what, details)
        assert all(len(message) < 1000 for _, message in details), what
    # All at once: each its own status, in order.
    code, details = rejected(lambda: untouched.write(*(bad for _, bad, _ in cases)))
    assert [d[0] for d in details] == [expected for _, _, expected in cases]


@needs_grpc
def test_a_full_table_refuses_one_more_entry_resource_exhausted(untouched: "Controller"):
    extra = [kinds_entry(untouched, key=bytes([kind])) for kind in (2, 3, 4)]
    untouched.write(*(update(p4r.Update.INSERT, e) for e in extra))
    entries = untouched.table_entries("kinds")
    assert len(entries) == 4  # its size
    code, details = rejected(lambda: untouched.write(update(p4r.Update.INSERT, kinds_entry(untouched, key=b"\x05"))))
    assert [d[0] for d in details] == [code_pb2.RESOURCE_EXHAUSTED], details
    assert untouched.table_entries("kinds") == entries
    assert counted(untouched)  # the frame's entry still matches
    untouched.write(*(update(p4r.Update.DELETE, e) for e in extra))


@needs_grpc
def test_a_batch_applies_its_good_updates_around_a_bad_one(untouched: "Controller"):
    good = [kinds_entry(untouched, key=b"\x02"),
            entry(untouched, "routes", ("hdr.h.addr", "lpm", b"\x0a\x02\x00\x00", 16), action="count",
                  params=(b"\x04",))]
    bad = kinds_entry(untouched, key=b"\x03", cell=b"\x01" * 5)
    code, details = rejected(lambda: untouched.write(update(p4r.Update.INSERT, good[0]), update(p4r.Update.INSERT, bad),
                                                     update(p4r.Update.INSERT, good[1])))
    assert code == grpc.StatusCode.UNKNOWN
    assert [d[0] for d in details] == [code_pb2.OK, code_pb2.INVALID_ARGUMENT, code_pb2.OK]
    assert len(untouched.table_entries("kinds")) == 2 and len(untouched.table_entries("routes")) == 2
    untouched.write(*(update(p4r.Update.DELETE, e) for e in good))
    # Applied whole or not at all: the bad update refused, and the good ones around it not applied.
    for atomicity in (p4r.WriteRequest.ROLLBACK_ON_ERROR, p4r.WriteRequest.DATAPLANE_ATOMIC):
        request = p4r.WriteRequest(device_id=0, election_id=p4r.Uint128(low=untouched.election_id),
                                   atomicity=atomicity)
        for entity in (good[0], bad, good[1]):
            request.updates.add(type=p4r.Update.INSERT).entity.CopyFrom(entity)
        code, details = rejected(lambda: untouched.stub.Write(request))
        assert [d[0] for d in details] == [code_pb2.ABORTED, code_pb2.INVALID_ARGUMENT, code_pb2.ABORTED]
        assert len(untouched.table_entries("kinds")) == 1 and len(untouched.table_entries("routes")) == 1
        # Refused by the switch (an entry there already), after the first update ran: undone.
        request.updates[1].entity.table_entry.CopyFrom(untouched.table_entries("kinds")[0])
        code, details = rejected(lambda: untouched.stub.Write(request))
        assert [d[0] for d in details] == [code_pb2.ABORTED, code_pb2.ALREADY_EXISTS, code_pb2.ABORTED]
        assert len(untouched.table_entries("kinds")) == 1 and len(untouched.table_entries("routes")) == 1
    request.updates.pop(1)
    untouched.stub.Write(request)
    assert len(untouched.table_entries("kinds")) == 2 and len(untouched.table_entries("routes")) == 2
    untouched.write(*(update(p4r.Update.DELETE, e) for e in good))


@needs_grpc
def test_bad_reads_get_their_status(untouched: "Controller"):
    unknown_table = p4r.Entity(table_entry=p4r.TableEntry(table_id=7))
    counter = p4r.Entity()
    counter.counter_entry.counter_id = untouched.id_of("counters", "seen")
    counter.counter_entry.index.index = 8
    bad_key = kinds_entry(untouched, key=b"\x01\x00")
    code, details = rejected(lambda: untouched.read(unknown_table, counter, p4r.Entity(), bad_key))
    assert code == grpc.StatusCode.UNKNOWN
    assert [d[0] for d in details] == [code_pb2.INVALID_ARGUMENT, code_pb2.OUT_OF_RANGE, code_pb2.INVALID_ARGUMENT,
                                       code_pb2.INVALID_ARGUMENT], details
    assert rejected(lambda: untouched.stub.Read(p4r.ReadRequest(device_id=5)).next())[0] == grpc.StatusCode.NOT_FOUND


@needs_grpc
@pytest.mark.parametrize("method, streaming", [("Write", False), ("Read", False),
                                               ("SetForwardingPipelineConfig", False), ("StreamChannel", True)])
@pytest.mark.parametrize("data", [b"\xff\xff\xff\xff", b"\x0a\x05abc", b"\x08" + b"\xff" * 11, GARBAGE])
def test_bytes_that_are_no_protobuf_message_are_refused(untouched: "Controller", method: str, streaming: bool,
                                                        data: bytes):
    kind = "stream_stream" if streaming else "unary_stream" if method == "Read" else "unary_unary"
    call = getattr(untouched.channel, kind)(f"/p4.v1.P4Runtime/{method}", request_serializer=bytes,
                                            response_deserializer=bytes)
    with pytest.raises(grpc.RpcError) as failure:
        replies = call(iter([data]) if streaming else data, timeout=10)
        list(replies) if kind != "unary_unary" else None
    assert failure.value.code() in (grpc.StatusCode.INTERNAL, grpc.StatusCode.INVALID_ARGUMENT), failure.value


@needs_grpc
def test_an_oversized_request_is_refused(untouched: "Controller"):
    huge = kinds_entry(untouched, key=b"\x02", cell=b"\x00" * (5 << 20))  # over gRPC's 4 MiB
    code, _ = rejected(lambda: untouched.write(update(p4r.Update.INSERT, huge)))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED


def packet_out(controller: "Controller", payload: bytes, *metadata: tuple) -> "p4r.StreamMessageRequest":
    message = p4r.StreamMessageRequest()
    message.packet.payload = payload
    for metadata_id, value in metadata:
        message.packet.metadata.add(metadata_id=metadata_id, value=value)
    return message


@needs_grpc
def test_bad_stream_messages_get_a_stream_error_and_the_stream_stays(untouched: "Controller"):
    port, pad = 1, 2  # the packet_out header's fields
    frame = bytes(60)
    cases = [
        (packet_out(untouched, frame, (9, b"\x01"), (pad, b"\x00")), code_pb2.INVALID_ARGUMENT, "metadata id 9"),
        (packet_out(untouched, frame, (port, b"\x02\x00"), (pad, b"\x00")), code_pb2.INVALID_ARGUMENT,
         "0x0200 is not a value of 9 bits"),
        (packet_out(untouched, frame, (port, b"\x01" * 1000), (pad, b"\x00")), code_pb2.INVALID_ARGUMENT,
         r"0x0101010101010101\.\.\.0101010101010101 \(1000 bytes\)"),
        (packet_out(untouched, frame, (port, b""), (pad, b"\x00")), code_pb2.INVALID_ARGUMENT, "not a value of 9 bits"),
        (packet_out(untouched, frame, (port, b"\x01")), code_pb2.INVALID_ARGUMENT, "metadata pad not given"),
        (packet_out(untouched, frame, (port, b"\x01"), (port, b"\x01"), (pad, b"\x00")), code_pb2.INVALID_ARGUMENT,
         "given twice"),
        (packet_out(untouched, bytes(10000), (port, b"\x01"), (pad, b"\x00")), code_pb2.INVALID_ARGUMENT,
         "longer than the switch's largest"),
        (p4r.StreamMessageRequest(), code_pb2.UNIMPLEMENTED, "an empty message"),
    ]
    for message, code, text in cases:
        untouched.requests.put(message)
        error = untouched.message("error").error
        assert error.canonical_code == code and re.search(text, error.message), (error, text)
        assert len(error.message) < 1000
    ack = p4r.StreamMessageRequest()
    ack.digest_ack.digest_id, ack.digest_ack.list_id = 12345, 678  # no such digest, no such list: nothing
    untouched.requests.put(ack)
    assert untouched.arbitrate().arbitration.status.code == code_pb2.OK  # the stream works, still the primary


@needs_grpc
@pytest.mark.parametrize("change, code", [
    (lambda m: setattr(m.arbitration, "device_id", 7), "FAILED_PRECONDITION"),
    (lambda m: setattr(m.arbitration.role, "name", "other"), "FAILED_PRECONDITION"),
    (lambda m: setattr(m.arbitration.election_id, "low", 10), "INVALID_ARGUMENT"),  # the primary's
    (lambda m: setattr(m.packet, "payload", bytes(5 << 20)), "RESOURCE_EXHAUSTED"),  # over gRPC's 4 MiB
], ids=["another device", "another role", "the primary's election id", "a message of 5 MiB"])
def test_stream_junk_ends_that_stream_alone(untouched: "Controller", p4runtime_target: str, change, code: str):
    backup = Controller(p4runtime_target, election_id=3)
    try:
        assert backup.arbitrate().arbitration.status.code == code_pb2.ALREADY_EXISTS
        message = p4r.StreamMessageRequest()
        message.arbitration.device_id = 0
        message.arbitration.election_id.low = 3
        change(message)
        backup.requests.put(message)
        with pytest.raises(grpc.RpcError) as failure:
            backup.message(seconds=10)
        assert failure.value.code() == getattr(grpc.StatusCode, code)
    finally:
        backup.close()


@needs_grpc
def test_a_server_whose_streams_got_garbage_still_stops(switch: str, unchanged: SwitchChannel):
    from p4odp.controlplane.server import serve

    server = serve(switch, "127.0.0.1:0")
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
        call = channel.stream_stream("/p4.v1.P4Runtime/StreamChannel", request_serializer=bytes,
                                     response_deserializer=bytes)
        for _ in range(8):
            with pytest.raises(grpc.RpcError) as failure:
                list(call(iter([b"\xff\xff\xff\xff"]), timeout=10))
            assert failure.value.code() == grpc.StatusCode.INTERNAL
        channel.close()  # at once: what grpcio may never see the end of
    finally:
        stopping = threading.Thread(target=server.stop, daemon=True)
        stopping.start()
        stopping.join(10)
    assert not stopping.is_alive(), "the server did not stop"
