"""Resource exhaustion on the data plane (issue 12 item 5): a packet pool that runs out (its size
set by --packets), a transmit queue that fills, a table at its size, a multicast group with a
replica on every port.  Each is driven for real, and each must be counted and reported, never a
crash, a leak or a stall: every copy the program asks for is sent or dropped for a reason the
switch prints (at SIGUSR1 and at exit), no buffer is left out of the pool at exit, and the switch
forwards on afterwards.  What an interface drops before the switch receives it is reported too.
The program is exhaustion.p4."""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from one_header_switch import build_switch

from p4odp.stf.pcap import read_packets, write_pcap

NO_BUFFER = "no packet buffer left to send a copy"
TX_FULL = "the port's transmit queue was full"
NO_PORT = "sent to a port without an interface"
COUNTERS_HEADING = "port  rx  tx  interface"
MAX_PORTS = 64  # P4ODP_MAX_PORTS: the ports with an interface
PORT_NUMBERS = 512  # P4ODP_PORT_NUMBERS: every port number a packet may be sent to
LEAK = "packet(s) in use"  # what the bundled ODP says of a pool destroyed with packets out
TABLE_SIZE = 1024  # `keys`'s size in exhaustion.p4


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    source = (Path(__file__).parent / "exhaustion.p4").read_text()
    return build_switch(tmp_path_factory.mktemp("exhaustion"), source, "exhaustion.p4")


def frame(op: int, key: int, number: int = 0) -> bytes:
    """A frame of exhaustion.p4's header (op, key), numbered, padded to 60 bytes."""
    return bytes([op]) + key.to_bytes(2, "big") + number.to_bytes(2, "big") + bytes(55)


def ports_options(ports: dict[int, str]) -> list[str]:
    return [arg for port, interface in ports.items() for arg in ("-i", f"{port}={interface}")]


def counters(report: str) -> tuple[dict[int, tuple[int, int]], dict[str, int]]:
    """The last counters the switch printed: port -> (received, sent), and drop reason -> count."""
    report = report.rsplit("counters at", 1)[-1]
    ports = {int(m[1]): (int(m[2]), int(m[3])) for m in re.finditer(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s", report, re.M)}
    drops = {m[2]: int(m[1]) for m in re.finditer(r"^dropped (\d+): (.*)$", report, re.M)}
    return ports, drops


def copies(report: str) -> int:
    """Every copy the counters account for: sent, or dropped for a reason."""
    ports, drops = counters(report)
    return sum(tx for _, tx in ports.values()) + sum(drops.values())


def run_until_done(switch: Path, folder: Path, commands: str, ports: dict[int, str],
                   *options: str) -> subprocess.CompletedProcess:
    """The switch run with `ports` until its pcap inputs are done."""
    (folder / "commands.txt").write_text(commands)
    run = subprocess.run([str(switch), *options, "--exit-when-done", "--commands", str(folder / "commands.txt"),
                          *ports_options(ports)], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert LEAK not in run.stderr, run.stderr
    return run


def run_until(switch: Path, folder: Path, commands: str, ports: dict[int, str], done, *options: str) -> tuple[str, str]:
    """The switch run with `ports`, asked for its counters (SIGUSR1) until `done(report)` holds of a
    report, then stopped by SIGTERM: that report and the counters it printed at exit."""
    # The last command's line, a number, says that the commands ran and the switch answers SIGUSR1.
    (folder / "commands.txt").write_text(commands + "table_num_entries keys\n")
    log = folder / "stderr.txt"
    with open(log, "w") as stderr:
        process = subprocess.Popen([str(switch), *options, "--control", "none", "--commands",
                                    str(folder / "commands.txt"), *ports_options(ports)],
                                   stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        while not (line := process.stdout.readline()).strip().isdigit():
            assert line, log.read_text()
        deadline, asked = time.monotonic() + 20, 0
        while True:
            assert process.poll() is None, log.read_text()
            process.send_signal(signal.SIGUSR1)
            asked += 1
            while len(reports := log.read_text().split("counters at")[1:]) < asked:
                assert time.monotonic() < deadline, f"no answer to SIGUSR1: {log.read_text()}"
                time.sleep(0.01)
            # The one before the last is whole: the switch began the last after it.
            if len(reports) > 1 and done(reports[-2]):
                break
            assert time.monotonic() < deadline, f"the switch stalled: {reports[-1]}"
            time.sleep(0.02)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0, log.read_text()
        assert LEAK not in log.read_text(), log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
    return reports[-2], log.read_text().rsplit(COUNTERS_HEADING, 1)[-1]


def test_a_pool_that_runs_out_drops_copies_counted_and_forwards_on(switch: Path, tmp_path: Path):
    # 128 buffers for a burst of 32 packets, each replicated to 17 ports (multicast, an ingress clone to
    # a mirror session of the group) or cloned at egress to a port: most copies find no buffer.  The
    # unicast packets after them must all come out, in order.
    mixed = [f for i in range(500) for f in (frame(1, 7, i), frame(2, 5, i), frame(1, 7, i), frame(3, 5, i))]
    later = [frame(0, 5, i) for i in range(100)]
    write_pcap(str(tmp_path / "in.pcap"), mixed + later)
    group = " ".join(str(port) for port in range(1, 18))
    commands = (f"table_add keys to 5 => 1\nmc_mgrp_create 1\nmc_node_create 0 {group}\nmc_node_associate 1 0\n"
                "mirroring_add_mc 1 1\nmirroring_add 2 2\n")
    ports = {0: f"pcap:in={tmp_path / 'in.pcap'}", 1: f"pcap:out={tmp_path / 'out.pcap'}",
             **{port: f"null{port}" for port in range(2, 18)}}

    def read_all(report: str) -> bool:
        return counters(report)[0][0][0] == len(mixed + later)
    report, at_exit = run_until(switch, tmp_path, commands, ports, read_all, "--packets", "128")
    # op 1: 17 replicas; op 2: the packet and 17 clones; op 3: the packet and its clone; op 0: the packet.
    asked = 1000 * 17 + 500 * (1 + 17) + 500 * 2 + len(later)
    assert counters(report)[1].get(NO_BUFFER, 0) > 0, report
    assert counters(at_exit)[1].get(NO_BUFFER, 0) > 10000, at_exit
    assert copies(at_exit) == asked, at_exit
    out = read_packets(str(tmp_path / "out.pcap"))
    assert [p for p in out if p[0] == 0] == later


def test_a_port_whose_transmit_queue_fills_drops_the_rest_counted_and_frees_them(switch: Path, tmp_path: Path):
    # Each packet of port 0 sends 16 replicas to the loop port, whose ring (1024 packets) the two
    # workers drain 32 at a time: it fills.  The copies it does not take must be freed: leaked, the
    # 48,000 of them would run the pool (8192) out, later copies would find no buffer, and the pool
    # would still have packets in use at exit.  What comes back from the loop goes to port 3.
    mc, later = [frame(1, 7, i) for i in range(3000)], [frame(0, 5, i) for i in range(100)]
    write_pcap(str(tmp_path / "in.pcap"), mc + later)
    commands = "table_add keys to 7 => 3\ntable_add keys to 5 => 2\nmc_mgrp_create 1\n"
    commands += "".join(f"mc_node_create {n} 1\nmc_node_associate 1 {n}\n" for n in range(16))
    ports = {0: f"pcap:in={tmp_path / 'in.pcap'}", 1: "loop", 2: f"pcap:out={tmp_path / 'out.pcap'}", 3: "null"}

    def unicast_out(report: str) -> bool:
        return counters(report)[0][2][1] == len(later)
    report, at_exit = run_until(switch, tmp_path, commands, ports, unicast_out, "-w", "2")
    assert counters(report)[1].get(TX_FULL, 0) > 0, report
    sent, drops = counters(at_exit)
    assert drops.get(TX_FULL, 0) > 10000 and set(drops) == {TX_FULL}, at_exit
    assert sent[0][0] == len(mc + later) and sent[1][1] + drops[TX_FULL] == len(mc) * 16, at_exit
    assert sent[2][1] == len(later) and sent[3][1] == sent[1][0], at_exit  # what came back went to port 3
    assert read_packets(str(tmp_path / "out.pcap")) == later


def test_a_table_at_its_size_finds_every_key_at_full_rate(switch: Path, tmp_path: Path):
    route = {key: 1 + key * 7919 % 1021 % 8 for key in range(TABLE_SIZE)}
    loops = 100
    write_pcap(str(tmp_path / "in.pcap"), [frame(0, key) for key in range(TABLE_SIZE)])
    commands = "".join(f"table_add keys to {key} => {port}\n" for key, port in route.items())
    run = run_until_done(switch, tmp_path, commands + "table_num_entries keys\n",
                         {0: f"pcap:in={tmp_path / 'in.pcap'}:loops={loops}:cache",
                          **{port: f"null{port}" for port in range(1, 9)}}, "-w", "2")
    report = run.stderr
    assert run.stdout.splitlines()[-1] == str(TABLE_SIZE)
    ports, drops = counters(report)
    assert drops == {}, report  # a key without its entry would be dropped by the default action
    assert ports[0][0] == TABLE_SIZE * loops
    sent = {port: tx for port, (_, tx) in ports.items() if port}
    assert sent == {port: loops * list(route.values()).count(port) for port in range(1, 9)}, report
    assert re.findall(r"^worker (\d) received [1-9]", report, re.M) == ["0", "1"]  # both forwarded


def test_a_group_with_a_replica_on_every_port_counts_every_copy(switch: Path, tmp_path: Path):
    # A replica on every port number (8 nodes of 64), the most ports the switch takes all with an
    # interface (the input's own and 63 null ones): the copies to the other 448 are dropped and counted.
    loops, frames = 100, [frame(1, 7, i) for i in range(64)]
    write_pcap(str(tmp_path / "in.pcap"), frames)
    commands = "mc_mgrp_create 1\n" + "".join(
        f"mc_node_create {node} {' '.join(str(port) for port in range(node * 64, node * 64 + 64))}\n"
        f"mc_node_associate 1 {node}\n" for node in range(PORT_NUMBERS // 64))
    report = run_until_done(switch, tmp_path, commands,
                            {0: f"pcap:in={tmp_path / 'in.pcap'}:loops={loops}:cache",
                             **{port: f"null{port}" for port in range(1, MAX_PORTS)}}, "-w", "2").stderr
    ports, drops = counters(report)
    received = len(frames) * loops
    assert len(ports) == MAX_PORTS and ports[0][0] == received
    assert all(tx == received for _, tx in ports.values()), report
    assert drops == {NO_PORT: received * (PORT_NUMBERS - MAX_PORTS)}, report
    assert copies(report) == received * PORT_NUMBERS
    assert re.findall(r"^worker (\d) received [1-9]", report, re.M) == ["0", "1"]


def test_what_an_interface_drops_on_receiving_is_reported(switch: Path, tmp_path: Path):
    # The interface's own count (odp_pktio_stats): a Linux interface's frames that overflow its ring
    # while the pool has no buffer, or here a pcap record longer than the pool's buffers (9600 bytes).
    write_pcap(str(tmp_path / "in.pcap"), [frame(0, 5), bytes(9700), frame(0, 5)])
    report = run_until_done(switch, tmp_path, "table_add keys to 5 => 1\n",
                            {0: f"pcap:in={tmp_path / 'in.pcap'}", 1: "null"}).stderr
    assert counters(report) == ({0: (2, 0), 1: (0, 2)}, {}), report  # not a drop of what port 0 received
    assert "port 0's interface dropped 1 frame(s) before the switch received them (no packet buffer, its ring " \
           "full, or a frame it cannot take)\n" in report, report


@pytest.mark.parametrize("value, message", [
    ("0", "error: --packets 0: expected a number of packet buffers in 1..4294967295"),
    ("many", "error: --packets many: expected a number of packet buffers in 1..4294967295"),
    ("2000000", "error: a pool of 2000000 packets: this ODP's pools hold at most 1048576"),
])
def test_a_pool_size_that_cannot_be_is_refused(switch: Path, value: str, message: str):
    run = subprocess.run([str(switch), "--packets", value, "-i", "0=null"], capture_output=True, text=True, timeout=30)
    assert run.returncode == 2 and run.stderr.strip() == message, run.stderr
