"""The CPU port (--cpu-port): what the program sends there reaches the control channel's clients
that listen (packet_in), what they send (packet_out) enters the program as received there; and
through P4Runtime, as PacketIn and PacketOut messages whose metadata are the program's
@controller_header fields."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import grpc
import pytest
from one_header_switch import build_switch, start_switch
from p4runtime_client import Controller, p4runtime_switch

from p4odp.controlplane.channel import CommandError, SwitchChannel
from p4odp.controlplane.protos import p4runtime_pb2 as p4r
from p4odp.stf.pcap import read_packets, write_pcap

# As the P4 tutorials' and ONOS's programs: headers for the controller, the CPU port 255.  One in
# 1,024 of the frames received goes to the CPU (the switch replays its input as fast as it can),
# the others to port 1; a packet-out goes where its header says.
PROGRAM = """\
#include <core.p4>
#include <v1model.p4>
#define CPU_PORT 255
@controller_header("packet_in") header packet_in_t { bit<9> ingress_port; bit<7> _pad; }
@controller_header("packet_out") header packet_out_t { bit<9> egress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> ether_type; }
struct headers_t { packet_out_t packet_out; packet_in_t packet_in; ethernet_t ethernet; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { transition select(sm.ingress_port) { CPU_PORT: from_cpu; default: ethernet; } }
    state from_cpu { pkt.extract(hdr.packet_out); transition ethernet; }
    state ethernet { pkt.extract(hdr.ethernet); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    register<bit<32>>(1) received;
    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else {
            bit<32> n;
            received.read(n, 0);
            received.write(0, n + 1);
            sm.egress_spec = (n & 1023) == 0 ? (bit<9>)CPU_PORT : 1;
        }
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (sm.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = sm.ingress_port;
        }
    }
}
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.ethernet); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""

FRAME = bytes.fromhex("ffffffffffff" "000000000001" "0800") + bytes(46)  # replayed into port 0
SENT = bytes.fromhex("000000000002" "00000000beef" "88b5") + bytes(range(46))  # sent by the controller


@pytest.fixture(scope="module")
def cpu_port_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("packet_io"), PROGRAM, "packet_io.p4")


def header(port: int) -> bytes:
    """The packet_in or packet_out header: a 9-bit port and 7 bits of padding."""
    return (port << 7).to_bytes(2, "big")


def packet_in_event(channel: SwitchChannel, wanted: bytes) -> str | None:
    """The next `packet_in` event whose packet is `wanted` (the others are passed over)."""
    for _ in range(1000):
        event = channel.next_event(timeout=10)
        if event is None or event == f"packet_in {wanted.hex()}":
            return event
    return None


def test_the_cpu_port_exchanges_packets_with_the_channels_clients(cpu_port_binary: Path, tmp_path: Path):
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(cpu_port_binary, tmp_path, address, (FRAME,),
                           options=("--cpu-port", "255", "-i", f"1=pcap:out={tmp_path / 'out.pcap'}"))
    try:
        with SwitchChannel(address) as listener, SwitchChannel(address) as other:
            listener.listen("packet")
            assert packet_in_event(listener, header(0) + FRAME)  # received on port 0
            assert other.next_event(timeout=0.2) is None  # not listening
            for _ in range(3):
                listener.command(f"packet_out {(header(1) + SENT).hex()}")  # out of port 1
            listener.command(f"packet_out {(header(255) + SENT).hex()}")  # back to the CPU
            assert packet_in_event(listener, header(255) + SENT)
            for bad in ("packet_out", "packet_out 0", "packet_out zz", "packet_out 00 11"):
                with pytest.raises(CommandError, match="usage: packet_out HEX"):
                    listener.command(bad)
            listener.command("packet_unlisten")
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert " 255  4  " in stderr and "(CPU port: the control channel)" in stderr  # the packet-outs received
    sent = [frame for frame in read_packets(str(tmp_path / "out.pcap")) if frame == SENT]
    assert len(sent) == 3  # without their packet_out header


def test_a_switch_without_cpu_port_refuses_packet_out(cpu_port_binary: Path, tmp_path: Path):
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(cpu_port_binary, tmp_path, address, (FRAME,))
    try:
        with SwitchChannel(address) as channel:
            with pytest.raises(CommandError, match="no CPU port: start it with --cpu-port N"):
                channel.command(f"packet_out {(header(1) + SENT).hex()}")
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert "sent to a port without an interface" in stderr  # what went to port 255


@pytest.mark.parametrize("options, message", [
    (("--cpu-port", "512"), "--cpu-port 512: expected a port number in 0..511"),
    (("--cpu-port", "x"), "--cpu-port x: expected a port number in 0..511"),
    (("--cpu-port", "0"), "--cpu-port 0: port 0 has an interface (-i): the CPU port has none"),
])
def test_a_bad_cpu_port_is_refused(cpu_port_binary: Path, tmp_path: Path, options: tuple, message: str):
    write_pcap(str(tmp_path / "in.pcap"), [FRAME])
    run = subprocess.run([str(cpu_port_binary), *options, "--exit-when-done", "-i",
                          f"0=pcap:in={tmp_path / 'in.pcap'}"], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and message in run.stderr


def packet_out(controller: Controller, payload: bytes, *metadata: tuple) -> p4r.PacketOut:
    """Send a PacketOut of `payload` with `metadata` (id, value); the message sent."""
    request = p4r.StreamMessageRequest()
    request.packet.payload = payload
    for metadata_id, value in metadata:
        request.packet.metadata.add(metadata_id=metadata_id, value=value)
    controller.requests.put(request)
    return request.packet


def next_packet_in(controller: Controller, payload: bytes, seconds: float = 10) -> p4r.PacketIn | None:
    """The next PacketIn of `payload` (the others are passed over)."""
    while (message := controller.message("packet", seconds)) is not None:
        if message.packet.payload == payload:
            return message.packet
    return None


def test_p4runtime_packet_in_and_packet_out(cpu_port_binary: Path, tmp_path: Path):
    with p4runtime_switch(cpu_port_binary, tmp_path, (FRAME,), options=("--cpu-port", "255")) as target:
        primary, backup = Controller(target), Controller(target)
        try:
            assert primary.arbitrate(election_id=10).arbitration.status.code == 0
            backup.arbitrate(election_id=5)
            metadata = {m.name: m.id for m in primary.info.controller_packet_metadata[0].metadata}

            received = next_packet_in(primary, FRAME)  # its packet_in header as metadata
            assert received is not None
            assert [(m.metadata_id, m.value) for m in received.metadata] == [(metadata["ingress_port"], b"\x00"),
                                                                            (metadata["_pad"], b"\x00")]
            assert backup.message("packet", seconds=0.5) is None  # packet-ins go to the primary

            out_ids = {m.name: m.id for m in primary.info.controller_packet_metadata[1].metadata}
            packet_out(primary, SENT, (out_ids["egress_port"], b"\xff"), (out_ids["_pad"], b"\x00"))
            looped = next_packet_in(primary, SENT)  # sent back to the CPU port
            assert looped is not None and looped.metadata[0].value == b"\xff"

            for bad, complaint in [
                (((99, b"\x01"), (out_ids["_pad"], b"\x00")), "metadata id 99 is no field"),
                (((out_ids["egress_port"], b"\x01"),), "metadata _pad not given"),
                (((out_ids["egress_port"], b"\x02\x00"), (out_ids["_pad"], b"\x00")), "is not a value of 9 bits"),
            ]:
                sent = packet_out(primary, SENT, *bad)
                error = primary.message("error").error
                assert error.canonical_code == grpc.StatusCode.INVALID_ARGUMENT.value[0], error.message
                assert complaint in error.message and error.packet_out.packet_out == sent
            packet_out(backup, SENT, (out_ids["egress_port"], b"\xff"), (out_ids["_pad"], b"\x00"))
            error = backup.message("error").error
            assert error.canonical_code == grpc.StatusCode.PERMISSION_DENIED.value[0]
        finally:
            primary.close()
            backup.close()
