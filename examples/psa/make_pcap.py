#!/usr/bin/env python3
"""Write a small pcap of IPv4 packets for the PSA router: `make_pcap.py OUT.pcap`.

Three packets take the routes of commands.txt (ports 1, 2 and 3), one has no route, one has a
TTL of 1: the switch forwards three and drops two (the counters count all five received).
"""

import sys

from p4odp.stf.pcap import write_pcap


def ipv4_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def frame(dst_ip: str, ttl: int = 64, src_ip: str = "10.0.0.2") -> bytes:
    """An Ethernet frame of a UDP packet (8 bytes of payload) from src_ip to dst_ip."""
    udp = bytes.fromhex("0401" "0007" "0010" "0000") + b"psa-demo"
    ip = bytes.fromhex("4500") + (20 + len(udp)).to_bytes(2, "big") + bytes.fromhex("00010000") + \
        bytes([ttl, 17]) + b"\0\0" + bytes(int(p) for p in src_ip.split(".")) + \
        bytes(int(p) for p in dst_ip.split("."))
    ip = ip[:10] + ipv4_checksum(ip).to_bytes(2, "big") + ip[12:]
    return bytes.fromhex("0000000000fe" "00000000000a" "0800") + ip + udp


if __name__ == "__main__":
    write_pcap(sys.argv[1], [frame("10.0.1.5"), frame("10.0.2.5"), frame("10.0.3.5"),
                             frame("192.168.1.1"), frame("10.0.1.5", ttl=1)])
