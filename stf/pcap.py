"""Classic pcap files: the packets fed to a switch and the packets it sent.

Written files are little-endian, microsecond timestamps, Ethernet link type
unless told otherwise.  Read files may be of either byte order, with
microsecond or nanosecond timestamps; pcapng is refused with a clear error.
An empty file (0 bytes) reads as no packets, as p4c's STF runner reads the
output of a switch that never wrote to it.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import BinaryIO

__all__ = [
    "LINKTYPE_ETHERNET",
    "PcapError",
    "PcapPacket",
    "Pcap",
    "PcapWriter",
    "write_pcap",
    "read_pcap",
    "read_packets",
]

LINKTYPE_ETHERNET = 1
DEFAULT_SNAPLEN = 262144  # libpcap's largest

MAGIC_USEC = 0xA1B2C3D4
MAGIC_NSEC = 0xA1B23C4D
MAGIC_PCAPNG = 0x0A0D0D0A
_HEADER = "IHHiIII"  # magic, major, minor, thiszone, sigfigs, snaplen, linktype
_RECORD = "IIII"  # seconds, sub-seconds, captured length, original length
HEADER_SIZE = struct.calcsize("<" + _HEADER)
RECORD_SIZE = struct.calcsize("<" + _RECORD)


class PcapError(Exception):
    """A file that is not a readable classic pcap file."""


@dataclass(frozen=True, slots=True)
class PcapPacket:
    """One record: the captured bytes, the time in nanoseconds since the epoch,
    and the length on the wire (None: the captured length)."""

    data: bytes
    timestamp_ns: int = 0
    orig_len: int | None = None

    @property
    def wire_len(self) -> int:
        return len(self.data) if self.orig_len is None else self.orig_len


@dataclass(slots=True)
class Pcap:
    """A file's header facts and its packets."""

    linktype: int = LINKTYPE_ETHERNET
    snaplen: int = DEFAULT_SNAPLEN
    nanosecond: bool = False
    big_endian: bool = False
    packets: list[PcapPacket] = field(default_factory=list)


class PcapWriter:
    """Writes a pcap file record by record (a FIFO into a switch works too).

    Use as a context manager, or call `close`.  Packets longer than
    `snaplen` are cut, their wire length kept.
    """

    def __init__(self, target: str | BinaryIO, linktype: int = LINKTYPE_ETHERNET,
                 snaplen: int = DEFAULT_SNAPLEN, nanosecond: bool = False) -> None:
        self._owned = isinstance(target, str)
        self._file: BinaryIO = open(target, "wb") if isinstance(target, str) else target
        self.snaplen = snaplen
        self.nanosecond = nanosecond
        magic = MAGIC_NSEC if nanosecond else MAGIC_USEC
        self._file.write(struct.pack("<" + _HEADER, magic, 2, 4, 0, 0, snaplen, linktype))

    def write(self, packet: bytes | PcapPacket) -> None:
        if not isinstance(packet, PcapPacket):
            packet = PcapPacket(bytes(packet))
        data = packet.data[:self.snaplen]
        seconds, rest = divmod(packet.timestamp_ns, 1_000_000_000)
        fraction = rest if self.nanosecond else rest // 1000
        self._file.write(struct.pack("<" + _RECORD, seconds, fraction, len(data), packet.wire_len))
        self._file.write(data)

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        if self._owned:
            self._file.close()
        else:
            self._file.flush()

    def __enter__(self) -> PcapWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_pcap(target: str | BinaryIO, packets: Iterable[bytes | PcapPacket],
               linktype: int = LINKTYPE_ETHERNET, nanosecond: bool = False) -> None:
    """Write `packets` as a whole pcap file."""
    with PcapWriter(target, linktype, nanosecond=nanosecond) as writer:
        for packet in packets:
            writer.write(packet)


def read_pcap(source: str | BinaryIO) -> Pcap:
    """Read a whole pcap file; raises `PcapError` when it is not one."""
    if isinstance(source, str):
        with open(source, "rb") as stream:
            return _read(stream.read())
    return _read(source.read())


def read_packets(source: str | BinaryIO) -> list[bytes]:
    """Just the captured bytes of each packet, in order."""
    return [packet.data for packet in read_pcap(source).packets]


def _read(blob: bytes) -> Pcap:
    if not blob:
        return Pcap()
    if len(blob) < HEADER_SIZE:
        raise PcapError(f"truncated pcap header ({len(blob)} of {HEADER_SIZE} bytes)")
    for order in "<>":
        magic = struct.unpack_from(order + "I", blob)[0]
        if magic in (MAGIC_USEC, MAGIC_NSEC):
            break
    else:
        if struct.unpack_from("<I", blob)[0] == MAGIC_PCAPNG:
            raise PcapError("pcapng files are not supported, only classic pcap")
        raise PcapError(f"not a pcap file (magic number 0x{struct.unpack_from('<I', blob)[0]:08x})")
    _, major, _minor, _zone, _sigfigs, snaplen, linktype = struct.unpack_from(order + _HEADER, blob)
    if major != 2:
        raise PcapError(f"unsupported pcap version {major}")
    nanosecond = magic == MAGIC_NSEC
    pcap = Pcap(linktype & 0x0FFFFFFF, snaplen, nanosecond, order == ">")
    scale = 1 if nanosecond else 1000
    offset = HEADER_SIZE
    record = struct.Struct(order + _RECORD)
    while offset < len(blob):
        number = len(pcap.packets)
        if offset + RECORD_SIZE > len(blob):
            raise PcapError(f"truncated record header of packet {number} at byte {offset}")
        seconds, fraction, captured, original = record.unpack_from(blob, offset)
        offset += RECORD_SIZE
        if offset + captured > len(blob):
            raise PcapError(f"truncated data of packet {number} at byte {offset} "
                            f"({len(blob) - offset} of {captured} bytes)")
        data = blob[offset:offset + captured]
        offset += captured
        orig_len = None if original == captured else original
        pcap.packets.append(PcapPacket(data, seconds * 1_000_000_000 + fraction * scale, orig_len))
    return pcap
