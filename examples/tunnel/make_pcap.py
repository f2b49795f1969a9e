#!/usr/bin/env python3
"""Write a small pcap for the tunnel example: `make_pcap.py OUT.pcap`.

Four packets on port 0: one from the local network to 10.0.2.9, which the router sends into the
tunnel (out of port 2, an outer header added); one that comes out of the tunnel to 192.0.2.1
(decapsulated, out of port 1); one tunnelled to an address that is not the router's (dropped);
one plain packet to the local network (out of port 1).
"""

import sys

from p4odp.stf.pcap import write_pcap

ROUTER_MAC = "00:00:00:00:00:fe"
HOST_MAC = "00:00:00:00:00:0a"


def ipv4_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ipv4(src: str, dst: str, payload: bytes, protocol: int = 17, ttl: int = 64, ident: int = 1,
         flags: int = 0) -> bytes:
    """An IPv4 header (no options, its checksum right) and `payload`."""
    header = bytes.fromhex("4500") + (20 + len(payload)).to_bytes(2, "big") + ident.to_bytes(2, "big") + \
        (flags << 13).to_bytes(2, "big") + bytes([ttl, protocol]) + b"\0\0" + \
        bytes(int(part) for part in src.split(".")) + bytes(int(part) for part in dst.split("."))
    return header[:10] + ipv4_checksum(header).to_bytes(2, "big") + header[12:] + payload


def udp(sport: int = 1024, dport: int = 7) -> bytes:
    return sport.to_bytes(2, "big") + dport.to_bytes(2, "big") + bytes.fromhex("000c0000") + b"ping"


def ethernet(packet: bytes, dst: str = ROUTER_MAC, src: str = HOST_MAC) -> bytes:
    return bytes.fromhex(dst.replace(":", "") + src.replace(":", "") + "0800") + packet


def tunnelled(src: str, dst: str, inner: bytes, ttl: int = 64) -> bytes:
    """`inner` in an outer IPv4 header from `src` to `dst`, as the router makes it (protocol 4,
    identification 0, don't fragment)."""
    return ipv4(src, dst, inner, protocol=4, ttl=ttl, ident=0, flags=2)


if __name__ == "__main__":
    inner = ipv4("10.0.2.9", "10.0.1.5", udp())
    write_pcap(sys.argv[1], [ethernet(ipv4("10.0.1.5", "10.0.2.9", udp())),
                             ethernet(tunnelled("198.51.100.2", "192.0.2.1", inner)),
                             ethernet(tunnelled("198.51.100.2", "203.0.113.5", inner)),
                             ethernet(ipv4("10.0.2.9", "10.0.1.7", udp()))])
