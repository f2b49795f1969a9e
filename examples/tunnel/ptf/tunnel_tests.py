"""PTF tests of tunnel.p4: routes and tunnel ends written through P4Runtime, plain and IP-in-IP
packets sent on the local port (1) and the tunnel's underlay port (2).

    sudo p4odp ptf examples/tunnel/tunnel.p4 examples/tunnel/ptf
"""

from ptf import testutils
from ptf.packet import IP, UDP, Ether

from p4odp.ptfharness.base_test import P4RuntimeTest

ROUTER_MAC, HOST_MAC = "00:00:00:00:00:fe", "00:00:00:00:00:0a"
LOCAL_HOP, TUNNEL_HOP = "00:00:00:00:01:01", "00:00:00:00:02:02"
HERE, THERE = "192.0.2.1", "198.51.100.2"  # the tunnel's ends


def inner(src, dst, ttl=64, tos=0):
    return IP(src=src, dst=dst, ttl=ttl, tos=tos) / UDP(sport=1024, dport=7) / b"ping"


def frame(packet, dst=ROUTER_MAC, src=HOST_MAC):
    return Ether(dst=dst, src=src) / packet


def outer(src, dst, packet, ttl=64, tos=0):
    """`packet` in an outer header as the router adds it: protocol 4, identification 0, DF."""
    return IP(src=src, dst=dst, ttl=ttl, tos=tos, id=0, flags="DF", proto=4) / packet


class TunnelTest(P4RuntimeTest):
    def setUp(self):
        P4RuntimeTest.setUp(self)
        self.insert("ipv4_lpm", {"dstAddr": ("10.0.1.0", 24)}, "ipv4_forward", dstAddr=LOCAL_HOP, port=1)
        self.insert("ipv4_lpm", {"dstAddr": ("10.0.2.0", 24)}, "encap_forward", tunnelSrc=HERE, tunnelDst=THERE,
                    dstAddr=TUNNEL_HOP, port=2)
        self.insert("tunnel_term", {"dstAddr": HERE}, "decap")


class Encapsulated(TunnelTest):
    def runTest(self):
        testutils.send_packet(self, 1, frame(inner("10.0.1.5", "10.0.2.9", tos=0x28)))
        expected = frame(outer(HERE, THERE, inner("10.0.1.5", "10.0.2.9", ttl=63, tos=0x28), tos=0x28),
                         dst=TUNNEL_HOP, src=ROUTER_MAC)
        testutils.verify_packets(self, expected, [2])


class Decapsulated(TunnelTest):
    def runTest(self):
        testutils.send_packet(self, 2, frame(outer(THERE, HERE, inner("10.0.2.9", "10.0.1.5"), ttl=50)))
        testutils.verify_packets(self, frame(inner("10.0.2.9", "10.0.1.5", ttl=63), dst=LOCAL_HOP, src=ROUTER_MAC),
                                 [1])


class OnlyItsOwnTunnelsEnd(TunnelTest):
    """Tunnelled to another address, with a bad outer checksum, or once its end is removed: dropped."""

    def runTest(self):
        testutils.send_packet(self, 2, frame(outer(THERE, "203.0.113.5", inner("10.0.2.9", "10.0.1.5"))))
        bad = outer(THERE, HERE, inner("10.0.2.9", "10.0.1.5"))
        bad[IP].chksum = 0x1234
        testutils.send_packet(self, 2, frame(bad))
        testutils.verify_no_other_packets(self)
        self.write(self.undo.pop(), undo=False)  # tunnel_term's entry deleted
        testutils.send_packet(self, 2, frame(outer(THERE, HERE, inner("10.0.2.9", "10.0.1.5"))))
        testutils.verify_no_other_packets(self)


class PlainPacketsAreRouted(TunnelTest):
    def runTest(self):
        testutils.send_packet(self, 2, frame(inner("10.0.2.9", "10.0.1.7", ttl=9)))
        testutils.verify_packets(self, frame(inner("10.0.2.9", "10.0.1.7", ttl=8), dst=LOCAL_HOP, src=ROUTER_MAC),
                                 [1])
        testutils.send_packet(self, 1, frame(inner("10.0.1.5", "10.9.9.9")))  # no route
        testutils.verify_no_other_packets(self)
