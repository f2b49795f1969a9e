"""The traffic of a benchmark: frames of one size, from a pcap file or a generator spec.

Sizes are Ethernet frame sizes as RFC 2544 counts them, with the 4-byte FCS that the NIC adds:
a 64-byte frame is 60 bytes in a pcap file.  Frames of a pcap are padded with zeros or cut to
the size, their headers kept (Ethernet, VLAN tags, IPv4 or IPv6, TCP or UDP) and their length
fields and checksums made right again; a frame whose headers do not fit the size is an error.

`flow_hash` is the bundled ODP's flow hash (`_odp_flow_hash` in runtime/odp/odp_pktio.c): with
several input queues, a replaying device gives queue q the frames whose hash modulo the number of
queues is q; `split_by_queue` deals the frames the same way, for devices that take one file per
queue (DPDK's net_pcap).
"""

from __future__ import annotations

import random
import struct
from pathlib import Path

from p4odp.stf.pcap import LINKTYPE_ETHERNET, PcapError, PcapWriter, read_pcap
from p4odp.switchbench.spec import PORT_COUNT, PORT_FIRST, GenSpec

__all__ = ["FCS_LEN", "MIN_SIZE", "MAX_SIZE", "TrafficError", "flow_hash", "header_length", "fit_frame",
           "frames_from_pcap", "read_traffic", "generate", "split_by_queue", "write_frames"]

FCS_LEN = 4
MIN_SIZE = 64
MAX_SIZE = 9216  # jumbo frames; the switch's packets hold 9600 bytes

ETH_LEN = 14
VLAN_TPIDS = (0x8100, 0x88A8)
ETH_IPV4, ETH_IPV6 = 0x0800, 0x86DD
ETH_LOCAL_EXPERIMENTAL = 0x88B5
PROTO_TCP, PROTO_UDP = 6, 17


class TrafficError(ValueError):
    """Traffic that cannot be built; the message is for one line of output."""


# ---- The bundled ODP's flow hash ----

_FNV_PRIME = 16777619
_FNV_BASIS = 2166136261


def _fnv(h: int, data: bytes) -> int:
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & 0xFFFFFFFF
    return h


def flow_hash(d: bytes) -> int:
    """FNV-1a over the IP addresses, the TCP/UDP ports and the protocol, else over the MAC
    addresses: the C function `_odp_flow_hash` of the bundled ODP, bit for bit."""
    n = len(d)
    if n < 14:
        return _fnv(_FNV_BASIS, d)
    l3 = 14
    etype = d[12] << 8 | d[13]
    if etype == 0x8100 and n >= 18:
        etype = d[16] << 8 | d[17]
        l3 = 18
    h = _FNV_BASIS
    if etype == ETH_IPV4 and n >= l3 + 20:
        proto = d[l3 + 9]
        h = _fnv(h, d[l3 + 12:l3 + 20])
        l4 = l3 + (d[l3] & 0xF) * 4
    elif etype == ETH_IPV6 and n >= l3 + 40:
        proto = d[l3 + 6]
        h = _fnv(h, d[l3 + 8:l3 + 40])
        l4 = l3 + 40
    else:
        return _fnv(h, d[:12])
    if proto in (PROTO_TCP, PROTO_UDP) and n >= l4 + 4:
        h = _fnv(h, d[l4:l4 + 4])
    return _fnv(h, bytes([proto]))


def split_by_queue(frames: list[bytes], queues: int) -> list[list[bytes]]:
    """The frames each of `queues` input queues replays (with hash_enable), in order."""
    if queues == 1:
        return [list(frames)]
    out: list[list[bytes]] = [[] for _ in range(queues)]
    for frame in frames:
        out[flow_hash(frame) % queues].append(frame)
    return out


# ---- Headers ----

def _layout(frame: bytes) -> tuple[int, int | None, int | None, int]:
    """(header length, L3 offset or None, L4 offset or None, L4 protocol or 0) of a frame:
    Ethernet and VLAN tags, then IPv4 or IPv6, then TCP or UDP where they are complete."""
    off = ETH_LEN
    if len(frame) < ETH_LEN:
        return len(frame), None, None, 0
    etype = int.from_bytes(frame[12:14], "big")
    while etype in VLAN_TPIDS and len(frame) >= off + 4:
        etype = int.from_bytes(frame[off + 2:off + 4], "big")
        off += 4
    if etype == ETH_IPV4 and len(frame) >= off + 20 and frame[off] >> 4 == 4:
        ihl = (frame[off] & 0xF) * 4
        l3, l4, proto = off, off + ihl, frame[off + 9]
        fragment = int.from_bytes(frame[off + 6:off + 8], "big") & 0x1FFF
        if ihl < 20 or len(frame) < l4:
            return off, None, None, 0
        if fragment:  # a later fragment has no L4 header
            return l4, l3, None, 0
    elif etype == ETH_IPV6 and len(frame) >= off + 40 and frame[off] >> 4 == 6:
        l3, l4, proto = off, off + 40, frame[off + 6]
    else:
        return off, None, None, 0
    if proto == PROTO_UDP and len(frame) >= l4 + 8:
        return l4 + 8, l3, l4, proto
    if proto == PROTO_TCP and len(frame) >= l4 + 20:
        tcp_len = (frame[l4 + 12] >> 4) * 4
        if tcp_len >= 20 and len(frame) >= l4 + tcp_len:
            return l4 + tcp_len, l3, l4, proto
    return l4, l3, None, 0


def header_length(frame: bytes) -> int:
    """Bytes of the headers `fit_frame` keeps: Ethernet, VLAN tags, IPv4/IPv6, TCP/UDP."""
    return _layout(frame)[0]


def _checksum(data: bytes | bytearray | memoryview) -> int:
    """The Internet checksum (RFC 1071) of data."""
    if len(data) % 2:
        data = bytes(data) + b"\0"
    total = sum(memoryview(data).cast("H")) if len(data) else 0  # native order: swapped back below
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    if struct.pack("=H", 1) == b"\x01\x00":  # little-endian host: the sum is byte-swapped
        total = ((total & 0xFF) << 8) | (total >> 8)
    return ~total & 0xFFFF


def _fix(frame: bytearray, l3: int | None, l4: int | None, proto: int, *, udp_zero_stays: bool = True,
         zeros_from: int | None = None) -> None:
    """Lengths and checksums of the IP and TCP/UDP headers of `frame`, after a length change.
    An IPv4 UDP checksum of 0 (none) stays 0 when `udp_zero_stays`; the bytes from
    `zeros_from` on, when given, are known to be zeros and left out of the sum."""
    if l3 is None:
        return
    ipv6 = frame[l3] >> 4 == 6
    if ipv6:
        struct.pack_into("!H", frame, l3 + 4, len(frame) - l3 - 40)
        pseudo = bytes(frame[l3 + 8:l3 + 40])
    else:
        ihl = (frame[l3] & 0xF) * 4
        struct.pack_into("!H", frame, l3 + 2, len(frame) - l3)
        struct.pack_into("!H", frame, l3 + 10, 0)
        struct.pack_into("!H", frame, l3 + 10, _checksum(frame[l3:l3 + ihl]))
        pseudo = bytes(frame[l3 + 12:l3 + 20])
    if l4 is None:
        return
    length = len(frame) - l4
    if proto == PROTO_UDP:
        struct.pack_into("!H", frame, l4 + 4, length)
        if not ipv6 and udp_zero_stays and frame[l4 + 6:l4 + 8] == b"\0\0":
            return  # IPv4 UDP without a checksum stays without
        offset = l4 + 6
    else:
        offset = l4 + 16
    struct.pack_into("!H", frame, offset, 0)
    end = len(frame) if zeros_from is None else zeros_from
    value = _checksum(pseudo + _pseudo_tail(ipv6, proto, length) + bytes(frame[l4:end]))
    if proto == PROTO_UDP and value == 0:
        value = 0xFFFF
    struct.pack_into("!H", frame, offset, value)


def _pseudo_tail(ipv6: bool, proto: int, length: int) -> bytes:
    """The pseudo-header's part after the addresses."""
    if ipv6:
        return struct.pack("!IxxxB", length, proto)
    return struct.pack("!xBH", proto, length)


def fit_frame(frame: bytes, size: int, where: str = "") -> bytes:
    """`frame` padded with zeros or cut to `size` - 4 bytes (the size on the wire less the FCS),
    its headers kept, lengths and checksums made right."""
    length = size - FCS_LEN
    header, l3, l4, proto = _layout(frame)
    if header > length:
        raise TrafficError(f"{where}{size}-byte frames cannot hold its {header + FCS_LEN} bytes of headers "
                           f"(with the FCS): choose larger --sizes")
    if len(frame) == length:
        return bytes(frame)
    out = bytearray(frame[:length]) + bytes(max(0, length - len(frame)))
    _fix(out, l3, l4, proto)
    return bytes(out)


def read_traffic(path: str) -> list[bytes]:
    """The frames of a pcap file; raises TrafficError."""
    try:
        pcap = read_pcap(path)
    except OSError as err:
        raise TrafficError(f"{path}: {err.strerror}") from None
    except PcapError as err:
        raise TrafficError(f"{path}: {err}") from None
    if pcap.linktype != LINKTYPE_ETHERNET:
        raise TrafficError(f"{path}: link type {pcap.linktype}, only Ethernet (1) is supported")
    frames = [packet.data for packet in pcap.packets]
    if not frames:
        raise TrafficError(f"{path}: no packets")
    return frames


def frames_from_pcap(frames: list[bytes], size: int, path: str = "") -> list[bytes]:
    """Every frame of a pcap file fitted to `size`."""
    return [fit_frame(frame, size, f"{path}: packet {number}: " if path else f"packet {number}: ")
            for number, frame in enumerate(frames, 1)]


# ---- The generator ----

def _pick(values, flows: int, rng: random.Random) -> list[int]:
    """The value of a field for each flow (see spec.py)."""
    if values.count == 1:
        return [values.first] * flows
    if values.count <= flows:
        return [values.first + i % values.count for i in range(flows)]
    return [values.first + index for index in rng.sample(range(values.count), flows)]


def generate(spec: GenSpec, size: int) -> list[bytes]:
    """The frames of `spec` at `size`: one per flow, in a random order (the same for every size)."""
    length = size - FCS_LEN
    l2 = ETH_LEN + (4 if spec.vlan is not None else 0)
    l3_len = 0 if spec.kind == "eth" else (40 if spec.ipv6 else 20)
    l4_len = {None: 0, "udp": 8, "tcp": 20}[spec.l4]
    header = l2 + l3_len + l4_len
    if header > length:
        raise TrafficError(f"--gen {spec.text}: {size}-byte frames cannot hold its {header + FCS_LEN} bytes of "
                           f"headers (with the FCS): choose larger --sizes")
    rng = random.Random(spec.seed)
    columns = {name: _pick(values, spec.flows, rng) for name, values in sorted(spec.fields.items())}
    if spec.by_flow:
        if spec.kind == "eth":
            columns["src-mac"] = [spec.fields["src-mac"].first + i for i in range(spec.flows)]
        else:
            columns["src-port"] = [PORT_FIRST + i % PORT_COUNT for i in range(spec.flows)]
            if spec.fields["src-ip"].count > 1 and spec.flows > PORT_COUNT:
                columns["src-ip"] = [spec.fields["src-ip"].first + i // PORT_COUNT for i in range(spec.flows)]
    order = list(range(spec.flows))
    rng.shuffle(order)
    payload = bytes(length - header)
    frames = []
    for i in order:
        frame = bytearray(columns["dst-mac"][i].to_bytes(6, "big") + columns["src-mac"][i].to_bytes(6, "big"))
        if spec.vlan is not None:
            frame += struct.pack("!HH", 0x8100, spec.vlan)
        if spec.kind == "eth":
            frame += struct.pack("!H", ETH_LOCAL_EXPERIMENTAL) + payload
            frames.append(bytes(frame))
            continue
        proto = PROTO_UDP if spec.l4 == "udp" else PROTO_TCP
        src = columns["src-ip"][i]
        dst = columns["dst-ip"][i]
        l3 = len(frame) + 2
        if spec.ipv6:
            frame += struct.pack("!H", ETH_IPV6)
            frame += struct.pack("!IHBB", 6 << 28, 0, proto, spec.ttl)
            frame += src.to_bytes(16, "big") + dst.to_bytes(16, "big")
        else:
            frame += struct.pack("!H", ETH_IPV4)
            frame += struct.pack("!BBHHHBBH", 0x45, 0, 0, 0, 0x4000, spec.ttl, proto, 0)  # don't fragment
            frame += src.to_bytes(4, "big") + dst.to_bytes(4, "big")
        l4 = len(frame)
        if proto == PROTO_UDP:
            frame += struct.pack("!HHHH", columns["src-port"][i], columns["dst-port"][i], 0, 0)
        else:
            frame += struct.pack("!HHIIBBHHH", columns["src-port"][i], columns["dst-port"][i], 1, 0, 5 << 4,
                                 0x10, 0xFFFF, 0, 0)  # ACK
        end = len(frame)
        frame += payload
        _fix(frame, l3, l4, proto, udp_zero_stays=False, zeros_from=end)
        frames.append(bytes(frame))
    return frames


def write_frames(path: Path, frames: list[bytes]) -> None:
    with PcapWriter(str(path)) as writer:
        for frame in frames:
            writer.write(frame)

