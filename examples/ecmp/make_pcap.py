#!/usr/bin/env python3
"""Write a small pcap of UDP packets for ecmp: `make_pcap.py OUT.pcap`.

Twelve flows (source ports 1000 to 1011) to 10.1.2.3, whose route in commands.txt is a group of
three next hops: each flow takes one of ports 1, 2 and 3, twice each flow.  Then a packet to
192.168.1.9 (a route of one next hop, port 1) and one without a route.
"""

import sys

from p4odp.stf.pcap import write_pcap


def ipv4_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def frame(src: str, dst: str, sport: int, dport: int = 53, ttl: int = 64) -> bytes:
    """An Ethernet frame of a UDP packet from src:sport to dst:dport."""
    udp = sport.to_bytes(2, "big") + dport.to_bytes(2, "big") + bytes.fromhex("000c0000") + b"ecmp"
    ip = bytes.fromhex("4500") + (20 + len(udp)).to_bytes(2, "big") + bytes.fromhex("00010000") + \
        bytes([ttl, 17]) + b"\0\0" + bytes(int(p) for p in src.split(".")) + bytes(int(p) for p in dst.split("."))
    ip = ip[:10] + ipv4_checksum(ip).to_bytes(2, "big") + ip[12:]
    return bytes.fromhex("0000000000fe" "00000000000a" "0800") + ip + udp


if __name__ == "__main__":
    flows = [frame("10.9.0.1", "10.1.2.3", sport) for sport in range(1000, 1012)]
    write_pcap(sys.argv[1], flows + flows + [frame("10.9.0.1", "192.168.1.9", 1000),
                                             frame("10.9.0.1", "172.16.0.1", 1000)])
