"""PTF tests of l3fwd.p4: routes written through P4Runtime, IPv4 packets sent on port 0.

    sudo p4odp ptf examples/l3fwd/l3fwd.p4 examples/l3fwd/ptf
"""

from ptf import testutils
from ptf.packet import IP

from p4odp.ptfharness.base_test import P4RuntimeTest

ROUTER_MAC = "00:00:00:00:00:fe"  # l3fwd routes whatever the destination MAC
HOST_MAC = "00:00:00:00:00:01"


def sent(ip_dst: str, ttl: int = 64, checksum: int | None = None):
    """A TCP packet to `ip_dst` (its IPv4 header checksum right unless `checksum` is given)."""
    packet = testutils.simple_tcp_packet(eth_dst=ROUTER_MAC, eth_src=HOST_MAC, ip_src="10.0.0.1", ip_dst=ip_dst,
                                         ip_ttl=ttl)
    if checksum is not None:
        packet[IP].chksum = checksum
    return packet


def routed(ip_dst: str, next_hop: str, ttl: int = 63):
    """What the router makes of sent(ip_dst): its source MAC the one the packet was sent to, its
    destination the next hop's, the TTL one less and the checksum computed again."""
    return testutils.simple_tcp_packet(eth_dst=next_hop, eth_src=ROUTER_MAC, ip_src="10.0.0.1", ip_dst=ip_dst,
                                       ip_ttl=ttl)


class Route(P4RuntimeTest):
    def runTest(self):
        self.insert("ipv4_lpm", {"dstAddr": ("10.0.1.0", 24)}, "ipv4_forward", dstAddr="00:00:00:00:01:01", port=1)
        testutils.send_packet(self, 0, sent("10.0.1.5"))
        testutils.verify_packets(self, routed("10.0.1.5", "00:00:00:00:01:01"), [1])


class LongestPrefixWins(P4RuntimeTest):
    def runTest(self):
        self.insert("ipv4_lpm", {"dstAddr": ("10.0.3.0", 24)}, "ipv4_forward", dstAddr="00:00:00:00:03:03", port=3)
        self.insert("ipv4_lpm", {"dstAddr": ("10.0.3.3", 32)}, "ipv4_forward", dstAddr="00:00:00:00:03:33", port=2)
        testutils.send_packet(self, 0, sent("10.0.3.3"))
        testutils.verify_packets(self, routed("10.0.3.3", "00:00:00:00:03:33"), [2])
        testutils.send_packet(self, 0, sent("10.0.3.4"))
        testutils.verify_packets(self, routed("10.0.3.4", "00:00:00:00:03:03"), [3])


class DeletedRouteDrops(P4RuntimeTest):
    def runTest(self):
        self.insert("ipv4_lpm", {"dstAddr": ("10.0.2.0", 24)}, "ipv4_forward", dstAddr="00:00:00:00:02:02", port=2)
        testutils.send_packet(self, 0, sent("10.0.2.7"))
        testutils.verify_packets(self, routed("10.0.2.7", "00:00:00:00:02:02"), [2])
        self.write(*self.undo, undo=False)  # the route deleted
        self.undo = []
        testutils.send_packet(self, 0, sent("10.0.2.7"))
        testutils.verify_no_other_packets(self)


class Drops(P4RuntimeTest):
    """No route, a TTL that would expire, a bad header checksum, not IPv4: all dropped."""

    def runTest(self):
        self.insert("ipv4_lpm", {"dstAddr": ("10.0.1.0", 24)}, "ipv4_forward", dstAddr="00:00:00:00:01:01", port=1)
        testutils.send_packet(self, 0, sent("10.9.9.9"))
        testutils.send_packet(self, 0, sent("10.0.1.5", ttl=1))
        testutils.send_packet(self, 0, sent("10.0.1.5", checksum=0x1234))
        testutils.send_packet(self, 0, testutils.simple_eth_packet(eth_dst=ROUTER_MAC, eth_type=0x86dd))
        testutils.verify_no_other_packets(self)


class DefaultAction(P4RuntimeTest):
    """A default action the controller sets routes what matches no entry."""

    def runTest(self):
        self.set_default("ipv4_lpm", "ipv4_forward", dstAddr="00:00:00:00:03:03", port=3)
        testutils.send_packet(self, 0, sent("192.168.0.1"))
        testutils.verify_packets(self, routed("192.168.0.1", "00:00:00:00:03:03"), [3])
