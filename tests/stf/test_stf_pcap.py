"""Unit tests of `p4odp.stf.pcap`: round trips, both byte orders, nanoseconds, bad files."""

from __future__ import annotations

import io
import struct

import pytest

from p4odp.stf.pcap import (LINKTYPE_ETHERNET, Pcap, PcapError, PcapPacket, PcapWriter,
                            read_packets, read_pcap, write_pcap)

FRAMES = [bytes(range(60)), b"\xff" * 1514, b"", b"\x01\x02\x03"]


def test_round_trip_file(tmp_path):
    path = str(tmp_path / "p.pcap")
    write_pcap(path, FRAMES)
    assert read_packets(path) == FRAMES
    pcap = read_pcap(path)
    assert (pcap.linktype, pcap.nanosecond, pcap.big_endian) == (LINKTYPE_ETHERNET, False, False)


def test_written_layout_is_classic_little_endian_usec():
    out = io.BytesIO()
    write_pcap(out, [PcapPacket(b"\xaa\xbb", timestamp_ns=1_500_000_123_456_789)])
    blob = out.getvalue()
    assert blob[:24] == struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1)
    assert blob[24:] == struct.pack("<IIII", 1_500_000, 123_456, 2, 2) + b"\xaa\xbb"


def test_timestamps_usec_and_nsec():
    packets = [PcapPacket(b"\x00", 1_700_000_000_123_456_789), PcapPacket(b"\x01", 5)]
    usec, nsec = io.BytesIO(), io.BytesIO()
    write_pcap(usec, packets)
    write_pcap(nsec, packets, nanosecond=True)
    usec.seek(0)
    nsec.seek(0)
    assert [p.timestamp_ns for p in read_pcap(usec).packets] == [1_700_000_000_123_456_000, 0]
    read = read_pcap(nsec)
    assert read.nanosecond
    assert [p.timestamp_ns for p in read.packets] == [1_700_000_000_123_456_789, 5]


@pytest.mark.parametrize("order, magic, nanosecond", [
    (">", 0xA1B2C3D4, False), (">", 0xA1B23C4D, True), ("<", 0xA1B23C4D, True)])
def test_read_either_byte_order(order, magic, nanosecond):
    blob = struct.pack(order + "IHHiIII", magic, 2, 4, 0, 0, 65535, 1)
    blob += struct.pack(order + "IIII", 10, 20, 3, 64) + b"abc"
    blob += struct.pack(order + "IIII", 11, 0, 1, 1) + b"d"
    pcap = read_pcap(io.BytesIO(blob))
    assert (pcap.big_endian, pcap.nanosecond, pcap.snaplen) == (order == ">", nanosecond, 65535)
    scale = 1 if nanosecond else 1000
    assert pcap.packets == [PcapPacket(b"abc", 10 * 10**9 + 20 * scale, 64),
                            PcapPacket(b"d", 11 * 10**9)]
    assert pcap.packets[0].wire_len == 64 and pcap.packets[1].wire_len == 1


def test_snaplen_cuts_packets_and_keeps_their_length():
    out = io.BytesIO()
    with PcapWriter(out, snaplen=4) as writer:
        writer.write(b"0123456789")
    out.seek(0)
    assert read_pcap(out).packets == [PcapPacket(b"0123", 0, 10)]


def test_streaming_writer_flushes_each_packet(tmp_path):
    path = str(tmp_path / "s.pcap")
    writer = PcapWriter(path)
    writer.write(b"\x01")
    writer.flush()
    assert read_packets(path) == [b"\x01"]
    writer.write(PcapPacket(b"\x02"))
    writer.close()
    assert read_packets(path) == [b"\x01", b"\x02"]


def test_other_link_type():
    out = io.BytesIO()
    write_pcap(out, [b"x"], linktype=101)
    out.seek(0)
    assert read_pcap(out).linktype == 101


def test_empty_file_has_no_packets(tmp_path):
    path = tmp_path / "e.pcap"
    path.write_bytes(b"")
    assert read_pcap(str(path)) == Pcap()
    assert read_packets(str(path)) == []


def test_header_only_file_has_no_packets():
    out = io.BytesIO()
    write_pcap(out, [])
    out.seek(0)
    assert read_packets(out) == []


def whole(packets: list[bytes]) -> bytes:
    out = io.BytesIO()
    write_pcap(out, packets)
    return out.getvalue()


@pytest.mark.parametrize("blob, message", [
    (b"\xd4\xc3\xb2", "truncated pcap header (3 of 24 bytes)"),
    (struct.pack("<I", 0x0A0D0D0A) + bytes(24), "pcapng files are not supported, only classic pcap"),
    (b"GIF89a" + bytes(20), "not a pcap file (magic number 0x38464947)"),
    (struct.pack("<IHHiIII", 0xA1B2C3D4, 1, 0, 0, 0, 65535, 1), "unsupported pcap version 1"),
    (whole([b"abcd"])[:-1], "truncated data of packet 0 at byte 40 (3 of 4 bytes)"),
    (whole([b"ab", b"cd"])[:45], "truncated record header of packet 1 at byte 42"),
])
def test_bad_files(blob, message):
    with pytest.raises(PcapError) as err:
        read_pcap(io.BytesIO(blob))
    assert str(err.value) == message
