#!/usr/bin/env python3
"""Write a small pcap of TCP and UDP packets for the firewall: `make_pcap.py OUT.pcap`.

They come in on port 0, an inside port in commands.txt: two open connections to the outside
(ports 2 and 3), one goes to an address without a route (dropped).  Replies come from the
outside; the STF and PTF tests send those.
"""

import sys

from p4odp.stf.pcap import write_pcap


def ipv4_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def address(text: str) -> bytes:
    return bytes(int(part) for part in text.split("."))


def frame(src: str, sport: int, dst: str, dport: int, protocol: int = 6, ttl: int = 64,
          eth_dst: str = "00:00:00:00:00:fe", eth_src: str = "00:00:00:00:00:0a") -> bytes:
    """An Ethernet frame of an IPv4 packet from src:sport to dst:dport: TCP (a 20-byte header,
    SYN) or UDP (an 8-byte header), no payload."""
    if protocol == 6:
        l4 = sport.to_bytes(2, "big") + dport.to_bytes(2, "big") + bytes(8) + bytes.fromhex("50020000") + bytes(4)
    else:
        l4 = sport.to_bytes(2, "big") + dport.to_bytes(2, "big") + bytes.fromhex("00080000")
    ip = bytes.fromhex("4500") + (20 + len(l4)).to_bytes(2, "big") + bytes.fromhex("00010000") + \
        bytes([ttl, protocol]) + b"\0\0" + address(src) + address(dst)
    ip = ip[:10] + ipv4_checksum(ip).to_bytes(2, "big") + ip[12:]
    ethernet = bytes.fromhex(eth_dst.replace(":", "") + eth_src.replace(":", "") + "0800")
    return ethernet + ip + l4


if __name__ == "__main__":
    write_pcap(sys.argv[1], [frame("10.0.1.10", 40000, "192.0.2.7", 80),
                             frame("10.0.1.10", 40001, "198.51.100.9", 53, protocol=17),
                             frame("10.0.1.10", 40002, "203.0.113.1", 443)])
