"""PTF tests of firewall.p4: routes and zones written through P4Runtime, TCP and UDP packets sent
from the inside (ports 0 and 1) and from the outside (ports 2 and 3).

    sudo p4odp ptf examples/firewall/firewall.p4 examples/firewall/ptf

The Bloom filter of open connections lives on from one test to the next: each test opens
connections of its own (its own inside port numbers), so that none sees another's.
"""

from ptf import testutils

from p4odp.ptfharness.base_test import P4RuntimeTest

ROUTER_MAC = "00:00:00:00:00:fe"
HOST_MAC = "00:00:00:00:00:0a"
NEXT_HOP = {0: "00:00:00:00:00:10", 1: "00:00:00:00:01:01", 2: "00:00:00:00:02:02", 3: "00:00:00:00:03:03"}
INSIDE, INSIDE_0, SERVER, OTHER_SERVER = "10.0.1.10", "10.0.0.5", "192.0.2.7", "198.51.100.9"


def sent(src, sport, dst, dport, udp=False):
    make = testutils.simple_udp_packet if udp else testutils.simple_tcp_packet
    ports = dict(udp_sport=sport, udp_dport=dport) if udp else dict(tcp_sport=sport, tcp_dport=dport)
    return make(eth_dst=ROUTER_MAC, eth_src=HOST_MAC, ip_src=src, ip_dst=dst, ip_ttl=64, **ports)


def routed(src, sport, dst, dport, port, udp=False):
    """sent(...) as the firewall forwards it to `port`: MACs rewritten, TTL 63, checksum again."""
    make = testutils.simple_udp_packet if udp else testutils.simple_tcp_packet
    ports = dict(udp_sport=sport, udp_dport=dport) if udp else dict(tcp_sport=sport, tcp_dport=dport)
    return make(eth_dst=NEXT_HOP[port], eth_src=ROUTER_MAC, ip_src=src, ip_dst=dst, ip_ttl=63, **ports)


class FirewallTest(P4RuntimeTest):
    """Ports 0 and 1 inside (10.0.0.0/24 and 10.0.1.0/24), 2 and 3 outside."""

    def setUp(self):
        P4RuntimeTest.setUp(self)
        for port, prefix in ((0, "10.0.0.0"), (1, "10.0.1.0"), (2, "192.0.2.0"), (3, "198.51.100.0")):
            self.insert("ipv4_lpm", {"dstAddr": (prefix, 24)}, "ipv4_forward", dstAddr=NEXT_HOP[port], port=port)
        for port in (0, 1):
            self.insert("zones", {"ingress_port": port}, "inside")
            self.insert("egress_zones", {"egress_spec": port}, "egress_inside")

    def send_and_verify(self, port, packet, out_port=None, expected=None):
        testutils.send_packet(self, port, packet)
        if out_port is None:
            testutils.verify_no_other_packets(self)
        else:
            testutils.verify_packets(self, expected, [out_port])


class RepliesToOpenedConnectionsComeIn(FirewallTest):
    def runTest(self):
        self.send_and_verify(2, sent(SERVER, 80, INSIDE, 41000))  # not opened yet: dropped
        self.send_and_verify(1, sent(INSIDE, 41000, SERVER, 80), 2, routed(INSIDE, 41000, SERVER, 80, 2))
        self.send_and_verify(2, sent(SERVER, 80, INSIDE, 41000), 1, routed(SERVER, 80, INSIDE, 41000, 1))
        self.send_and_verify(2, sent(SERVER, 80, INSIDE, 41000), 1, routed(SERVER, 80, INSIDE, 41000, 1))


class UdpRepliesComeIn(FirewallTest):
    def runTest(self):
        self.send_and_verify(0, sent(INSIDE_0, 42000, OTHER_SERVER, 53, udp=True), 3,
                             routed(INSIDE_0, 42000, OTHER_SERVER, 53, 3, udp=True))
        self.send_and_verify(3, sent(OTHER_SERVER, 53, INSIDE_0, 42000, udp=True), 0,
                             routed(OTHER_SERVER, 53, INSIDE_0, 42000, 0, udp=True))


class EverythingElseFromOutsideIsDropped(FirewallTest):
    """An open connection lets in its replies only: not another port, host, protocol or inside
    host, nor traffic between two outside hosts."""

    def runTest(self):
        self.send_and_verify(1, sent(INSIDE, 43000, SERVER, 443), 2, routed(INSIDE, 43000, SERVER, 443, 2))
        self.send_and_verify(2, sent(SERVER, 444, INSIDE, 43000))
        self.send_and_verify(3, sent(OTHER_SERVER, 443, INSIDE, 43000))
        self.send_and_verify(2, sent(SERVER, 443, INSIDE, 43000, udp=True))
        self.send_and_verify(2, sent(SERVER, 443, "10.0.1.11", 43000))
        self.send_and_verify(2, sent(SERVER, 443, OTHER_SERVER, 43000))


class InsideToInsideIsRouted(FirewallTest):
    def runTest(self):
        self.send_and_verify(0, sent(INSIDE_0, 44000, INSIDE, 22), 1, routed(INSIDE_0, 44000, INSIDE, 22, 1))
        self.send_and_verify(1, sent(INSIDE, 22, INSIDE_0, 44000), 0, routed(INSIDE, 22, INSIDE_0, 44000, 0))

