#!/usr/bin/env python3
"""Write a small pcap for the PNA forwarder: `make_pcap.py OUT.pcap`.

Five frames: TCP to the hosts on ports 1 and 3 (forwarded), TCP to port 23 (telnet, denied by rule
1 of commands.txt), UDP from 10.66.1.1 (denied by rule 2), and a frame to an unknown MAC address
(dropped).
"""

import sys

from p4odp.stf.pcap import write_pcap


def ipv4_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def frame(eth_dst: str, src: str, dst: str, dport: int, protocol: int = 6, sport: int = 40000) -> bytes:
    """An Ethernet frame of a TCP (a bare 20-byte header) or UDP packet, from 00:00:00:00:00:0a."""
    if protocol == 6:
        l4 = sport.to_bytes(2, "big") + dport.to_bytes(2, "big") + bytes(8) + bytes.fromhex("50020000") + bytes(4)
    else:
        l4 = sport.to_bytes(2, "big") + dport.to_bytes(2, "big") + bytes.fromhex("00080000")
    ip = bytes.fromhex("4500") + (20 + len(l4)).to_bytes(2, "big") + bytes.fromhex("00010000") + \
        bytes([64, protocol]) + b"\0\0" + bytes(int(p) for p in src.split(".")) + \
        bytes(int(p) for p in dst.split("."))
    ip = ip[:10] + ipv4_checksum(ip).to_bytes(2, "big") + ip[12:]
    return bytes.fromhex(eth_dst.replace(":", "") + "00000000000a" "0800") + ip + l4


if __name__ == "__main__":
    write_pcap(sys.argv[1], [frame("00:00:00:00:00:01", "10.0.0.10", "10.0.0.1", 80),
                             frame("00:00:00:00:00:03", "10.0.0.10", "10.0.0.3", 443),
                             frame("00:00:00:00:00:01", "10.0.0.10", "10.0.0.1", 23),
                             frame("00:00:00:00:00:02", "10.66.1.1", "10.0.0.2", 53, protocol=17),
                             frame("00:00:00:00:00:77", "10.0.0.10", "10.0.0.7", 80)])
