"""PTF tests of pna.p4: the hosts' ports and the access list written through P4Runtime, frames
sent on veth pairs, the denied packets read from counter `denied`.

    sudo p4odp ptf examples/pna/pna.p4 examples/pna/ptf
"""

from ptf import testutils

from p4odp.ptfharness.base_test import P4RuntimeTest

MAC = {port: f"00:00:00:00:00:0{port}" for port in (1, 2, 3)}


def tcp(port, ip_src="10.0.0.10", dport=80):
    return testutils.simple_tcp_packet(eth_dst=MAC[port], eth_src="00:00:00:00:00:0a", ip_src=ip_src,
                                       ip_dst=f"10.0.0.{port}", tcp_dport=dport)


def udp(port, ip_src="10.0.0.10", dport=53):
    return testutils.simple_udp_packet(eth_dst=MAC[port], eth_src="00:00:00:00:00:0a", ip_src=ip_src,
                                       ip_dst=f"10.0.0.{port}", udp_dport=dport)


class PnaTest(P4RuntimeTest):
    def setUp(self):
        P4RuntimeTest.setUp(self)
        for port in (1, 2, 3):
            self.insert("l2_fwd", {"dstAddr": MAC[port]}, "forward", port=port)

    def deny_telnet(self, rule=1, priority=20):
        self.insert("acl", {"protocol": (6, 0xFF), "dstPort": (23, 0xFFFF)}, "deny", priority=priority, rule=rule)

    def deny_source(self, prefix, rule=2, priority=10):
        self.insert("acl", {"srcAddr": (prefix, "255.255.0.0")}, "deny", priority=priority, rule=rule)


class Forwarded(PnaTest):
    """Out of the destination's port, unchanged; an unknown destination is dropped."""

    def runTest(self):
        for port in (1, 2, 3):
            testutils.send_packet(self, 0, tcp(port))
            testutils.verify_packets(self, tcp(port), [port])
        testutils.send_packet(self, 0, testutils.simple_tcp_packet(eth_dst="00:00:00:00:00:77"))
        testutils.verify_no_other_packets(self)


class AccessListDenies(PnaTest):
    def runTest(self):
        self.deny_telnet()
        self.deny_source("10.66.0.0")
        before = self.counter("denied", 1)[0], self.counter("denied", 2)[0]
        testutils.send_packet(self, 1, tcp(2, dport=23))                 # rule 1
        testutils.send_packet(self, 1, udp(3, ip_src="10.66.1.1"))       # rule 2
        testutils.send_packet(self, 1, tcp(3, ip_src="10.66.1.1", dport=23))  # both: rule 1, the higher
        testutils.verify_no_other_packets(self)
        testutils.send_packet(self, 1, udp(2, dport=23))  # rule 1 is TCP's only
        testutils.verify_packets(self, udp(2, dport=23), [2])
        testutils.send_packet(self, 1, udp(3, ip_src="10.67.1.1"))
        testutils.verify_packets(self, udp(3, ip_src="10.67.1.1"), [3])
        self.assertTrue(self.wait_for(lambda: (self.counter("denied", 1)[0], self.counter("denied", 2)[0]) ==
                                      (before[0] + 2, before[1] + 1)))


class PriorityDecides(PnaTest):
    """With rule 2 above rule 1, a packet both match counts for rule 2."""

    def runTest(self):
        self.deny_telnet(priority=10)
        self.deny_source("10.66.0.0", priority=20)
        before = self.counter("denied", 2)[0]
        testutils.send_packet(self, 1, tcp(3, ip_src="10.66.1.1", dport=23))
        testutils.verify_no_other_packets(self)
        self.assertTrue(self.wait_for(lambda: self.counter("denied", 2)[0] == before + 1))
