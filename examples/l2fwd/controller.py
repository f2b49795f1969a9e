#!/usr/bin/env python3
"""MAC learning for l2fwd, through P4Runtime: `controller.py [--grpc HOST:PORT] [--device-id N]`.

The switch sends a `mac_learn_digest_t` digest (source address, ingress port) for each frame
whose source address table `smac` does not know. This controller becomes the primary, turns the
digest on, and for each address learned installs two entries: `smac` (the source is known: no
more digests for it) and `dmac` (frames to it go out of its port). It runs until interrupted,
printing what it learns.

Run the switch and `p4odp runtime --switch unix:p4odp.sock` first (see README.md).
"""

import argparse
import queue
import sys

import grpc

import p4odp.controlplane.protos  # noqa: F401  (the p4runtime package's classes on current protobuf)
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc


class Switch:
    """A P4Runtime connection: the stub, the stream and the P4Info's ids by name."""

    def __init__(self, target: str, device_id: int, election_id: int) -> None:
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(grpc.insecure_channel(target))
        self.device_id = device_id
        self.election_id = p4runtime_pb2.Uint128(low=election_id)
        self.requests = queue.Queue()
        arbitration = p4runtime_pb2.StreamMessageRequest()
        arbitration.arbitration.device_id = device_id
        arbitration.arbitration.election_id.CopyFrom(self.election_id)
        self.requests.put(arbitration)
        self.stream = self.stub.StreamChannel(iter(self.requests.get, None))
        answer = next(self.stream).arbitration
        if answer.status.code != 0:
            raise SystemExit(f"not the primary controller: {answer.status.message}")
        request = p4runtime_pb2.GetForwardingPipelineConfigRequest(device_id=device_id)
        info = self.stub.GetForwardingPipelineConfig(request).config.p4info
        self.ids = {entity.preamble.name: entity.preamble.id
                    for kind in (info.tables, info.actions, info.digests) for entity in kind}

    def write(self, updates: list) -> None:
        request = p4runtime_pb2.WriteRequest(device_id=self.device_id, election_id=self.election_id)
        request.updates.extend(updates)
        self.stub.Write(request)

    def acknowledge(self, digest_list) -> None:
        ack = p4runtime_pb2.StreamMessageRequest()
        ack.digest_ack.digest_id = digest_list.digest_id
        ack.digest_ack.list_id = digest_list.list_id
        self.requests.put(ack)


def entry(switch: Switch, table: str, mac: bytes, action: str, params: list) -> p4runtime_pb2.Update:
    update = p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT)
    table_entry = update.entity.table_entry
    table_entry.table_id = switch.ids[table]
    table_entry.match.add(field_id=1).exact.value = mac
    table_entry.action.action.action_id = switch.ids[action]
    for number, value in enumerate(params, 1):
        table_entry.action.action.params.add(param_id=number, value=value)
    return update


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grpc", default="127.0.0.1:9559", help="the P4Runtime server (default 127.0.0.1:9559)")
    parser.add_argument("--device-id", type=int, default=0)
    parser.add_argument("--election-id", type=int, default=1)
    args = parser.parse_args()
    switch = Switch(args.grpc, args.device_id, args.election_id)
    digest = p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT)
    digest.entity.digest_entry.digest_id = switch.ids["mac_learn_digest_t"]
    config = digest.entity.digest_entry.config
    config.max_timeout_ns, config.max_list_size, config.ack_timeout_ns = 1000000, 64, 1000000000
    switch.write([digest])
    print("learning", flush=True)
    learned = set()
    for message in switch.stream:
        if message.WhichOneof("update") != "digest":
            continue
        updates = []
        for data in message.digest.data:
            mac, port = (member.bitstring for member in data.struct.members)
            if mac in learned:
                continue
            learned.add(mac)
            updates += [entry(switch, "L2Ingress.smac", mac, "NoAction", []),
                        entry(switch, "L2Ingress.dmac", mac, "L2Ingress.forward", [port])]
            print(f"learned {mac.rjust(6, bytes(1)).hex(':')} on port {int.from_bytes(port, 'big')}", flush=True)
        if updates:
            try:
                switch.write(updates)
            except grpc.RpcError as err:  # UNKNOWN: some updates failed (an entry there already), the others took
                if err.code() != grpc.StatusCode.UNKNOWN:
                    raise
                print(f"not all entries were added: {err.details()}", flush=True)
        switch.acknowledge(message.digest)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
    except grpc.RpcError as err:
        sys.exit(f"controller: {err.code().name}: {err.details()}")
