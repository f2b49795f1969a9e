"""P4Runtime's packet I/O (section "Packet I/O" of the specification) over the switch's CPU port:
a packet the program sends there starts with its `@controller_header("packet_in")` header,
whose fields become the PacketIn's metadata and the rest its payload; a PacketOut's metadata
become the `@controller_header("packet_out")` header written before its payload, and the whole
enters the program as received on the CPU port.  A program without such a header exchanges
payloads alone."""

from __future__ import annotations

from typing import Callable, Optional

import grpc

from p4odp.controlplane.bytestrings import canonical, shown
from p4odp.controlplane.protos import p4info_pb2, p4runtime_pb2
from p4odp.runtime.limits import MAX_PACKET

__all__ = ["PacketIO", "PacketOutError"]


class PacketOutError(Exception):
    """A PacketOut that cannot be sent: the status code and message of its StreamError."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _ControllerHeader:
    """A controller header's fields in order, each (id, name, bitwidth)."""

    def __init__(self, metadata: Optional[p4info_pb2.ControllerPacketMetadata]) -> None:
        self.fields = [(m.id, m.name, m.bitwidth) for m in metadata.metadata] if metadata is not None else []
        self.bits = sum(width for _, _, width in self.fields)

    def split(self, packet: bytes) -> Optional[tuple[list, bytes]]:
        """The header's fields as PacketMetadata and the payload after it; None when the packet is
        shorter than the header."""
        size = (self.bits + 7) // 8
        if len(packet) < size:
            return None
        header = int.from_bytes(packet[:size], "big") >> (8 * size - self.bits)
        metadata, shift = [], self.bits
        for metadata_id, _, width in self.fields:
            shift -= width
            value = header >> shift & ((1 << width) - 1)
            metadata.append(p4runtime_pb2.PacketMetadata(metadata_id=metadata_id, value=canonical(value)))
        return metadata, packet[size:]

    def join(self, metadata, payload: bytes) -> bytes:
        """The header of `metadata` (PacketMetadata, one per field) before `payload`;
        PacketOutError when they are not exactly the header's fields with values that fit."""
        values: dict[int, int] = {}
        widths = {metadata_id: (name, width) for metadata_id, name, width in self.fields}
        for item in metadata:
            if item.metadata_id not in widths:
                raise PacketOutError(grpc.StatusCode.INVALID_ARGUMENT,
                                     f"metadata id {item.metadata_id} is no field of the packet_out header")
            name, width = widths[item.metadata_id]
            if item.metadata_id in values:
                raise PacketOutError(grpc.StatusCode.INVALID_ARGUMENT, f"metadata {name} is given twice")
            value = int.from_bytes(item.value, "big")
            if not item.value or value >> width:
                raise PacketOutError(grpc.StatusCode.INVALID_ARGUMENT,
                                     f"metadata {name}: {shown(item.value)} is not a value of {width} bits")
            values[item.metadata_id] = value
        missing = [name for metadata_id, name, _ in self.fields if metadata_id not in values]
        if missing:
            raise PacketOutError(grpc.StatusCode.INVALID_ARGUMENT, f"metadata {', '.join(missing)} not given")
        header = 0
        for metadata_id, _, width in self.fields:
            header = header << width | values[metadata_id]
        size = (self.bits + 7) // 8
        return (header << (8 * size - self.bits)).to_bytes(size, "big") + payload


class PacketIO:
    """Packet-in and packet-out of a pipeline (P4Info); packet-ins are the switch's events
    (an EventListener of events.SwitchEvents)."""
    events = "packet"
    words = ("packet_in",)

    def __init__(self, info: p4info_pb2.P4Info, deliver: Callable[[object], bool]) -> None:
        """`deliver(StreamMessageResponse)` sends a PacketIn to the primary controllers (False
        when there is none: the packet is dropped, as the specification allows)."""
        headers = {metadata.preamble.name: metadata for metadata in info.controller_packet_metadata}
        self.packet_in = _ControllerHeader(headers.get("packet_in"))
        self.packet_out = _ControllerHeader(headers.get("packet_out"))
        self.deliver = deliver

    def out_bytes(self, packet: p4runtime_pb2.PacketOut) -> bytes:
        """The packet the switch sends in through the CPU port for `packet`; PacketOutError."""
        whole = self.packet_out.join(packet.metadata, packet.payload)
        if not whole:
            raise PacketOutError(grpc.StatusCode.INVALID_ARGUMENT, "an empty packet")
        if len(whole) > MAX_PACKET:
            raise PacketOutError(grpc.StatusCode.INVALID_ARGUMENT, f"a packet of {len(whole)} bytes is longer than "
                                                                    f"the switch's largest ({MAX_PACKET})")
        return whole

    # --- from the events' thread ------------------------------------------------------------

    def wanted(self) -> bool:
        return True

    def take(self, event: str) -> None:
        try:
            packet = bytes.fromhex(event.partition(" ")[2])
        except ValueError:
            return
        split = self.packet_in.split(packet)
        if split is None:  # shorter than its header: not a packet the P4Info describes
            return
        message = p4runtime_pb2.StreamMessageResponse()
        message.packet.metadata.extend(split[0])
        message.packet.payload = split[1]
        self.deliver(message)

    def tick(self) -> None:
        pass

    def flush(self) -> None:
        pass  # each packet went as it came
