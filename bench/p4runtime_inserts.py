#!/usr/bin/env python3
"""10,000 table inserts through P4Runtime while the switch forwards, and not one packet
misforwarded.

    python3 bench/p4runtime_inserts.py [--rounds N] [--entries N] [--batch N] [--target T]

Builds tests/packets/big_table.p4, runs it replaying frames to 10.0.0.0/8 destinations in a
loop from port 0, and `p4odp runtime` for it; a controller (the p4runtime package's stubs over
gRPC), N rounds, inserts ENTRIES /24 routes under the switch's 10.0.0.0/8 one (to port 1 as
well) in Writes of BATCH updates, and deletes them.  Prints the time of each
round's inserts (median, range) and, from the switch's port counters at the end, that every
frame received went out of port 1 (none dropped, none elsewhere).  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import queue
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import grpc

from p4odp.controlplane.protos import p4runtime_pb2 as p4r
from p4odp.controlplane.protos import p4runtime_pb2_grpc
from p4odp.stf.pcap import write_pcap

REPO = Path(__file__).resolve().parents[1]
PROGRAM = REPO / "tests" / "packets" / "big_table.p4"


def frames() -> list[bytes]:
    """64-byte IPv4 frames to 10.k.j.1, across the /24s the rounds insert."""
    out = []
    for n in range(64):
        destination = bytes([10, n % 40, (n * 37) % 250, 1])
        ipv4 = bytes([0x45, 0, 0, 46]) + bytes(8) + bytes([192, 168, 0, 1]) + destination
        out.append(bytes(6) + bytes([0, 0, 0, 0, 0, 1]) + b"\x08\x00" + ipv4 + bytes(30))
    return out


def wait_for(path: Path, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{what} did not start: {process.stderr.read() if process.stderr else ''}")
        time.sleep(0.05)


def route(table_id: int, action_id: int, prefix: bytes, length: int) -> p4r.Update:
    update = p4r.Update(type=p4r.Update.INSERT)
    entry = update.entity.table_entry
    entry.table_id = table_id
    field = entry.match.add(field_id=1)
    field.lpm.value, field.lpm.prefix_len = prefix, length
    entry.action.action.action_id = action_id
    entry.action.action.params.add(param_id=1, value=b"\x01")
    return update


def write(stub, updates: list, kind: int) -> None:
    request = p4r.WriteRequest(device_id=0, election_id=p4r.Uint128(low=1))
    for update in updates:
        update.type = kind
    request.updates.extend(updates)
    stub.Write(request)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--batch", type=int, default=1000, help="updates per Write (default 1000)")
    parser.add_argument("--target", default="x86")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(PROGRAM), "--target", args.target,
                        "-o", str(folder / "out")], check=True)
        write_pcap(str(folder / "in.pcap"), frames())
        (folder / "commands.txt").write_text("table_add BtIngress.routes to 10.0.0.0/8 => 1\n")  # from the first frame
        grpc_port = 9559 + 17
        switch, server = start(folder, grpc_port, "--commands", str(folder / "commands.txt"),
                               "-i", f"1=pcap:out={folder / 'out1.pcap'}", "-i", f"2=pcap:out={folder / 'out2.pcap'}")
        try:
            times = run_rounds(f"127.0.0.1:{grpc_port}", args)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
            switch.send_signal(signal.SIGTERM)
            _, report = switch.communicate(timeout=30)
        (folder / "out1.pcap").unlink(missing_ok=True)
    print(f"{args.entries} inserts through P4Runtime in Writes of {args.batch}, while forwarding "
          f"({args.target}, {args.rounds} rounds):")
    print(f"  median {statistics.median(times):.3f} s ({min(times):.3f}-{max(times):.3f}), "
          f"{args.entries / statistics.median(times):,.0f} inserts/s")
    received = sent = 0
    for line in report.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0] in ("0", "1", "2") and fields[1].isdigit():
            received += int(fields[1]) if fields[0] == "0" else 0
            sent += int(fields[2]) if fields[0] == "1" else 0
            if fields[0] == "2" and int(fields[2]):
                print(f"  MISFORWARDED: {fields[2]} frames out of port 2")
    dropped_line = re.search(r"dropped (\d+)", report)
    dropped = int(dropped_line.group(1)) if dropped_line else 0
    print(f"  frames received {received:,}, out of port 1 {sent:,}, dropped {dropped:,}"
          f" -> {'none misforwarded' if received == sent and not dropped else 'MISFORWARDED'}")


def start(folder: Path, grpc_port: int, *options: str) -> tuple[subprocess.Popen, subprocess.Popen]:
    """The switch built in folder/out (run with `options` too) replaying folder/in.pcap into port 0,
    its control channel at folder/control.sock, and `p4odp runtime` for it at 127.0.0.1:grpc_port."""
    control = folder / "control.sock"
    switch = subprocess.Popen([str(folder / "out" / "switch"), "--control", f"unix:{control}",
                               "-i", f"0=pcap:in={folder / 'in.pcap'}:loops=0", *options],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for(control, switch, "the switch")
    server = subprocess.Popen([sys.executable, "-m", "p4odp.cli", "runtime", "--switch", f"unix:{control}",
                               "--grpc", f"127.0.0.1:{grpc_port}"], stderr=subprocess.PIPE, text=True)
    return switch, server


@dataclass
class Primary:
    """The primary controller of a server: its stream, and the role, stay open while this is kept
    and until None is put in `requests`."""
    channel: grpc.Channel
    stub: object
    info: object  # the P4Info
    requests: queue.Queue
    stream: object


def primary(target: str) -> Primary:
    """The primary controller of the server at `target`, once the server answers."""
    deadline = time.monotonic() + 30
    while True:
        try:
            channel = grpc.insecure_channel(target)
            stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
            info = stub.GetForwardingPipelineConfig(p4r.GetForwardingPipelineConfigRequest(device_id=0),
                                                    timeout=2).config.p4info
            break
        except grpc.RpcError:
            if time.monotonic() > deadline:
                raise SystemExit("p4odp runtime did not start")
            time.sleep(0.2)
    arbitration = p4r.StreamMessageRequest()
    arbitration.arbitration.device_id = 0
    arbitration.arbitration.election_id.low = 1
    requests: queue.Queue = queue.Queue()
    requests.put(arbitration)
    stream = stub.StreamChannel(iter(requests.get, None))
    if next(stream).arbitration.status.code != 0:
        raise SystemExit("not the primary controller")
    return Primary(channel, stub, info, requests, stream)


def run_rounds(target: str, args: argparse.Namespace) -> list[float]:
    controller = primary(target)
    stub, info = controller.stub, controller.info
    table_id = next(t.preamble.id for t in info.tables if t.preamble.name.endswith("routes"))
    action_id = next(a.preamble.id for a in info.actions if a.preamble.name.endswith(".to"))
    routes = [route(table_id, action_id, bytes([10, n >> 8, n & 255, 0]), 24) for n in range(args.entries)]
    batches = [routes[i:i + args.batch] for i in range(0, len(routes), args.batch)]
    times = []
    for n in range(args.rounds):
        started = time.perf_counter()
        for batch in batches:
            write(stub, batch, p4r.Update.INSERT)
        times.append(time.perf_counter() - started)
        print(f"round {n + 1}/{args.rounds}: {times[-1]:.3f} s", file=sys.stderr, flush=True)
        for batch in batches:
            write(stub, batch, p4r.Update.DELETE)
    controller.requests.put(None)
    controller.channel.close()
    return times


if __name__ == "__main__":
    main()
