"""The traffic builder of `p4odp bench` (switchbench/traffic.py): frames of exactly each size,
headers kept, lengths and checksums right, the bundled ODP's flow hash."""

import ipaddress
import struct

import pytest

from p4odp.stf.pcap import write_pcap
from p4odp.switchbench.spec import parse_spec
from p4odp.switchbench.traffic import (FCS_LEN, TrafficError, fit_frame, flow_hash, frames_from_pcap, generate,
                                      header_length, read_traffic, split_by_queue)

SIZES = [64, 128, 256, 512, 1024, 1280, 1518]


def internet_sum(data: bytes) -> int:
    """The one's complement sum: 0xffff over a block whose checksum is right."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def check_ip(frame: bytes, l3: int) -> None:
    """IP and TCP/UDP lengths and checksums of a frame whose IP header starts at l3."""
    if frame[l3] >> 4 == 4:
        ihl = (frame[l3] & 0xF) * 4
        assert struct.unpack_from("!H", frame, l3 + 2)[0] == len(frame) - l3
        assert internet_sum(frame[l3:l3 + ihl]) == 0xFFFF
        proto, l4, pseudo = frame[l3 + 9], l3 + ihl, frame[l3 + 12:l3 + 20]
        pseudo += struct.pack("!xBH", proto, len(frame) - l4)
    else:
        assert struct.unpack_from("!H", frame, l3 + 4)[0] == len(frame) - l3 - 40
        proto, l4 = frame[l3 + 6], l3 + 40
        pseudo = frame[l3 + 8:l3 + 40] + struct.pack("!IxxxB", len(frame) - l4, proto)
    if proto == 17:
        assert struct.unpack_from("!H", frame, l4 + 4)[0] == len(frame) - l4
    assert internet_sum(pseudo + frame[l4:]) == 0xFFFF


@pytest.mark.parametrize("kind", ["udp", "tcp", "udp6", "tcp6", "eth"])
def test_generated_frames_have_exactly_each_size(kind):
    spec = parse_spec(f"{kind}:flows=50,vlan=3")
    for size in SIZES if not kind.endswith("6") else SIZES[1:]:
        frames = generate(spec, size)
        assert len(frames) == 50 and len(set(frames)) == 50
        assert all(len(frame) == size - FCS_LEN for frame in frames)
        for frame in frames:
            assert frame[12:16] == b"\x81\x00\x00\x03"
            if kind != "eth":
                check_ip(frame, 18)


def test_generated_frames_follow_the_spec():
    spec = parse_spec("udp:flows=1000,dst-ip=10.0.0.0/16,dst-mac=00:00:00:00:00:01+10,dst-port=53,ttl=9,seed=4")
    frames = generate(spec, 64)
    assert frames == generate(spec, 64), "the same spec gives the same frames"
    assert frames != generate(parse_spec(spec.text.replace("seed=4", "seed=5")), 64), "another seed, other frames"
    dst_ips = {ipaddress.ip_address(f[30:34]) for f in frames}
    assert len(dst_ips) == 1000 and all(ip in ipaddress.ip_network("10.0.0.0/16") for ip in dst_ips)
    dst_macs = [int.from_bytes(f[:6], "big") for f in frames]
    assert sorted(set(dst_macs)) == list(range(1, 11)) and all(dst_macs.count(m) == 100 for m in range(1, 11))
    assert {f[22] for f in frames} == {9} and {f[36:38] for f in frames} == {b"\x00\x35"}
    assert len({f[34:36] for f in frames}) == 1000, "source ports tell the flows apart"
    assert sorted(range(1000), key=lambda i: frames[i][34:36]) != list(range(1000)), "flows in a random order"


def test_headers_that_do_not_fit_are_an_error():
    with pytest.raises(TrafficError, match="64-byte frames cannot hold its 66 bytes of headers"):
        generate(parse_spec("udp6"), 64)


def udp4(payload: bytes, checksum: bool = True) -> bytes:
    frame = bytearray(bytes.fromhex("000000000001020000000002" "0800")
                      + struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28 + len(payload), 1, 0, 64, 17, 0,
                                    bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
                      + struct.pack("!HHHH", 1234, 80, 8 + len(payload), int(checksum)) + payload)
    # One more byte: lengths and checksums made right (an IPv4 UDP checksum of 0 means none).
    return fit_frame(bytes(frame), len(frame) + 1 + FCS_LEN)


def test_pcap_frames_are_padded_or_cut_keeping_headers(tmp_path):
    tcp6 = generate(parse_spec("tcp6"), 200)[0]
    vlan = generate(parse_spec("udp:vlan=10"), 300)[0]
    arp = bytes.fromhex("ffffffffffff020000000001" "0806") + bytes(range(28))
    originals = [udp4(bytes(range(100))), udp4(b"", checksum=False), tcp6, vlan, arp]
    path = tmp_path / "t.pcap"
    write_pcap(str(path), originals)
    frames = read_traffic(str(path))
    for size in SIZES[1:]:
        fitted = frames_from_pcap(frames, size, str(path))
        assert [len(f) for f in fitted] == [size - FCS_LEN] * len(originals)
        for original, frame in zip(originals, fitted):
            keep = header_length(original)
            assert frame[:keep] == original[:keep] or original is not arp and _same_but_lengths(original, frame, keep)
            n = min(len(original), len(frame))
            assert frame[keep:n] == original[keep:n], "payload cut, not changed"
            assert frame[n:] == bytes(len(frame) - n), "padding is zeros"
        check_ip(fitted[0], 14)
        assert fitted[1][40:42] == b"\0\0", "an IPv4 UDP frame without a checksum stays without"
        check_ip(fitted[2], 14)
        check_ip(fitted[3], 18)
    assert header_length(originals[2]) == 14 + 40 + 20
    assert header_length(arp) == 14
    with pytest.raises(TrafficError, match="packet 3: 64-byte frames cannot hold its 78 bytes"):
        frames_from_pcap(frames, 64, str(path))


def _same_but_lengths(original: bytes, frame: bytes, keep: int) -> bool:
    """Headers equal but for length and checksum fields, which fit_frame rewrites."""
    differ = [i for i in range(keep) if original[i] != frame[i]]
    l3 = 18 if original[12:14] == b"\x81\x00" else 14
    allowed = set()
    if original[l3] >> 4 == 4:
        allowed |= {l3 + 2, l3 + 3, l3 + 10, l3 + 11}
        l4 = l3 + (original[l3] & 0xF) * 4
    else:
        allowed |= {l3 + 4, l3 + 5}
        l4 = l3 + 40
    allowed |= {l4 + 4, l4 + 5, l4 + 6, l4 + 7, l4 + 16, l4 + 17}
    return set(differ) <= allowed


def test_read_traffic_errors(tmp_path):
    with pytest.raises(TrafficError, match="No such file"):
        read_traffic(str(tmp_path / "missing.pcap"))
    (tmp_path / "bad.pcap").write_bytes(b"not a pcap file at all, no")
    with pytest.raises(TrafficError, match="not a pcap file"):
        read_traffic(str(tmp_path / "bad.pcap"))
    write_pcap(str(tmp_path / "empty.pcap"), [])
    with pytest.raises(TrafficError, match="no packets"):
        read_traffic(str(tmp_path / "empty.pcap"))


def test_flow_hash_is_the_bundled_odps():
    """Values of the C function _odp_flow_hash (runtime/odp/odp_pktio.c) for fixed frames; the
    bundled ODP's tests check the two against each other on replayed traffic too."""
    assert flow_hash(b"") == 2166136261
    assert flow_hash(bytes(12) + b"\x88\xb5" + bytes(46)) == flow_hash(bytes(12) + b"\x88\xb6")
    udp = generate(parse_spec("udp:flows=2"), 64)
    assert flow_hash(udp[0]) != flow_hash(udp[1])
    # The payload and the TTL do not count; addresses, ports and protocol do.
    same = bytearray(udp[0])
    same[22] ^= 1
    same[-1] ^= 0xFF
    assert flow_hash(bytes(same)) == flow_hash(udp[0])
    queues = split_by_queue(generate(parse_spec("udp:flows=1000"), 64), 4)
    assert sum(map(len, queues)) == 1000 and all(150 < len(q) < 350 for q in queues)
    assert all(flow_hash(f) % 4 == q for q, frames in enumerate(queues) for f in frames)
