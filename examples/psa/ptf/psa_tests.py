"""PTF tests of psa.p4: routes written through P4Runtime, IPv4 packets sent on veth pairs, the
per-port counters read through P4Runtime.

    sudo p4odp ptf examples/psa/psa.p4 examples/psa/ptf
"""

from ptf import testutils
from ptf.packet import IP

from p4odp.ptfharness.base_test import P4RuntimeTest

ROUTER_MAC, HOST_MAC = "00:00:00:00:00:fe", "00:00:00:00:00:0a"
NEXT_HOP = {1: "00:00:00:00:01:01", 2: "00:00:00:00:02:02", 3: "00:00:00:00:03:03"}


def sent(ip_dst, ttl=64):
    return testutils.simple_tcp_packet(eth_dst=ROUTER_MAC, eth_src=HOST_MAC, ip_src="10.0.0.1", ip_dst=ip_dst,
                                       ip_ttl=ttl)


def routed(ip_dst, port):
    return testutils.simple_tcp_packet(eth_dst=NEXT_HOP[port], eth_src=ROUTER_MAC, ip_src="10.0.0.1",
                                       ip_dst=ip_dst, ip_ttl=63)


class PsaTest(P4RuntimeTest):
    def setUp(self):
        P4RuntimeTest.setUp(self)
        for port in (1, 2, 3):
            self.insert("ipv4_lpm", {"dstAddr": (f"10.0.{port}.0", 24)}, "forward", dstAddr=NEXT_HOP[port],
                        port=port)


class Route(PsaTest):
    def runTest(self):
        testutils.send_packet(self, 0, sent("10.0.2.9"))
        testutils.verify_packets(self, routed("10.0.2.9", 2), [2])
        testutils.send_packet(self, 1, sent("10.0.3.9"))
        testutils.verify_packets(self, routed("10.0.3.9", 3), [3])


class Drops(PsaTest):
    """No route, a TTL that would expire, a bad header checksum, not IPv4: all dropped."""

    def runTest(self):
        testutils.send_packet(self, 0, sent("192.168.0.1"))
        testutils.send_packet(self, 0, sent("10.0.1.5", ttl=1))
        bad = sent("10.0.1.5")
        bad[IP].chksum = 0x1234
        testutils.send_packet(self, 0, bad)
        testutils.send_packet(self, 0, testutils.simple_eth_packet(eth_dst=ROUTER_MAC, eth_type=0x86dd))
        testutils.verify_no_other_packets(self)


class PortCounters(PsaTest):
    """rx_port counts what each port receives (dropped or not), tx_port what each port sends."""

    def runTest(self):
        rx, tx = self.counter("rx_port", 3), self.counter("tx_port", 1)
        packet = sent("10.0.1.7")
        for _ in range(3):
            testutils.send_packet(self, 3, packet)
            testutils.verify_packets(self, routed("10.0.1.7", 1), [1])
        testutils.send_packet(self, 3, sent("192.168.0.1"))  # dropped, still received
        testutils.verify_no_other_packets(self)
        size = len(packet)
        self.assertTrue(self.wait_for(lambda: self.counter("rx_port", 3) == (rx[0] + 4, rx[1] + 4 * size)),
                        f"rx_port[3] is {self.counter('rx_port', 3)}, was {rx}")
        self.assertEqual(self.counter("tx_port", 1), (tx[0] + 3, tx[1] + 3 * size))
