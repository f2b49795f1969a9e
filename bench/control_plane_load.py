#!/usr/bin/env python3
"""100,000 entries loaded into an empty table, through each door of the control plane.

    python3 bench/control_plane_load.py [--rounds N] [--entries N] [--target T]

Builds tests/packets/big_table.p4 and runs its switch replaying frames from port 0, then, N
rounds, loads ENTRIES /24 routes into its empty lpm table and clears it: through the switch's
binary channel (controlplane/wire.py: one batch that rolls back, the requests encoded in this
process), and through `p4odp runtime` (P4Runtime Writes of 10,000 updates).  Prints each door's
load time (median, range); every round must leave ENTRIES entries.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


from p4odp.controlplane import wire
from p4odp.controlplane.channel import SwitchChannel
from p4odp.controlplane.protos import p4runtime_pb2 as p4r
from p4odp.controlplane.wire import Call, Key, Match, Wire
from p4odp.stf.pcap import write_pcap

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from p4runtime_inserts import PROGRAM, frames, primary, start  # noqa: E402  (the same switch and frames)

WRITE = 10000  # updates per P4Runtime Write


def prefix(i: int) -> int:
    """The i-th /24 route: 10.0.0.0/8's, then 11.0.0.0/8's."""
    return (10 << 24 | i << 8) if i < 1 << 16 else (11 << 24 | (i - (1 << 16)) << 8)


def load_by_wire(w: Wire, entries: int) -> float:
    table, keys, to = w.tables["BtIngress.routes"], (Key("lpm", 32),), w.actions["BtIngress.to"]
    began = time.monotonic()
    results = w.batch([wire.entry_add(table, keys, Match(0, ((prefix(i), 24),)), Call(to, data=b"\x00\x01"))
                       for i in range(entries)], "ROLLBACK_ON_ERROR")
    took = time.monotonic() - began
    if any(isinstance(r, wire.WireError) for r in results):
        raise SystemExit("the switch refused a route")
    return took


def load_by_p4runtime(stub, info, entries: int) -> float:
    table_id = next(t.preamble.id for t in info.tables if t.preamble.name.endswith("routes"))
    action_id = next(a.preamble.id for a in info.actions if a.preamble.name.endswith(".to"))
    requests = []
    for first in range(0, entries, WRITE):
        request = p4r.WriteRequest(device_id=0, election_id=p4r.Uint128(low=1))
        for i in range(first, min(first + WRITE, entries)):
            entry = request.updates.add(type=p4r.Update.INSERT).entity.table_entry
            entry.table_id = table_id
            field = entry.match.add(field_id=1)
            field.lpm.value, field.lpm.prefix_len = prefix(i).to_bytes(4, "big"), 24
            entry.action.action.action_id = action_id
            entry.action.action.params.add(param_id=1, value=b"\x01")
        requests.append(request)
    began = time.monotonic()
    for request in requests:
        stub.Write(request)
    return time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--entries", type=int, default=100000)
    parser.add_argument("--target", default="x86")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(PROGRAM), "--target", args.target,
                        "-o", str(folder / "out")], check=True)
        write_pcap(str(folder / "in.pcap"), frames())
        grpc_port = 9559 + 19
        switch, server = start(folder, grpc_port)
        times: dict[str, list[float]] = {"binary channel": [], "P4Runtime": []}
        try:
            w = Wire(SwitchChannel(f"unix:{folder / 'control.sock'}"))
            controller = primary(f"127.0.0.1:{grpc_port}")  # kept: the primary's role with it
            stub, info = controller.stub, controller.info
            routes = w.tables["BtIngress.routes"]
            for n in range(args.rounds):
                for door, load in (("binary channel", lambda: load_by_wire(w, args.entries)),
                                   ("P4Runtime", lambda: load_by_p4runtime(stub, info, args.entries))):
                    times[door].append(load())
                    count = w.call(wire.entries(routes)).u32()
                    if count != args.entries:
                        raise SystemExit(f"{door}: {count} entries after loading {args.entries}")
                    w.call(wire.table_clear(routes))
                    print(f"round {n + 1}/{args.rounds}, {door}: {times[door][-1]:.3f} s", flush=True)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
            switch.send_signal(signal.SIGTERM)
            switch.communicate(timeout=30)
    print(f"{args.entries} entries loaded into an empty table ({args.target}, {args.rounds} rounds):")
    for door, taken in times.items():
        print(f"  {door}: median {statistics.median(taken):.3f} s ({min(taken):.3f}-{max(taken):.3f})")


if __name__ == "__main__":
    main()
