#!/usr/bin/env python3
"""Write a small pcap of IPv4 packets for l3fwd: `make_pcap.py OUT.pcap`.

Three packets take the routes of commands.txt (ports 1 and 3), one has no
route, one has TTL 1: the switch forwards three and drops two.
"""

import sys

from p4odp.stf.pcap import write_pcap


def ipv4_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def frame(dst_ip: str, ttl: int) -> bytes:
    ip = bytes.fromhex("4500001c00010000") + bytes([ttl, 17]) + b"\0\0" + bytes([10, 0, 0, 2]) + \
        bytes(int(part) for part in dst_ip.split("."))
    ip = ip[:10] + ipv4_checksum(ip).to_bytes(2, "big") + ip[12:]
    ethernet = bytes.fromhex("00000000aa00" "0000000000bb" "0800")
    return ethernet + ip + bytes.fromhex("0401040100080000")  # and a UDP header


if __name__ == "__main__":
    write_pcap(sys.argv[1], [frame("10.0.1.5", 64), frame("10.0.3.3", 64), frame("10.0.3.9", 9),
                             frame("192.168.1.1", 64), frame("10.0.1.5", 1)])
