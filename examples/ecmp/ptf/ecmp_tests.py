"""PTF tests of ecmp.p4: members, groups and routes written through P4Runtime, UDP flows sent on
port 0 and seen leaving by ports 1 to 3.

    sudo p4odp ptf examples/ecmp/ecmp.p4 examples/ecmp/ptf
"""

from ptf import testutils

from p4odp.ptfharness.base_test import P4RuntimeTest

ROUTER_MAC, HOST_MAC = "00:00:00:00:00:fe", "00:00:00:00:00:0a"
NEXT_HOP = {1: "00:00:00:00:01:01", 2: "00:00:00:00:02:02", 3: "00:00:00:00:03:03"}
PORTS = [1, 2, 3]
FLOWS = range(1000, 1012)  # UDP source ports


def sent(sport, ip_dst="10.1.2.3", ttl=64):
    return testutils.simple_udp_packet(eth_dst=ROUTER_MAC, eth_src=HOST_MAC, ip_src="10.9.0.1", ip_dst=ip_dst,
                                       ip_ttl=ttl, udp_sport=sport, udp_dport=53)


def routed(sport, port, ip_dst="10.1.2.3"):
    """sent(sport) as it leaves by `port`: the next hop's MACs, TTL 63, the checksum again."""
    return testutils.simple_udp_packet(eth_dst=NEXT_HOP[port], eth_src=ROUTER_MAC, ip_src="10.9.0.1",
                                       ip_dst=ip_dst, ip_ttl=63, udp_sport=sport, udp_dport=53)


class EcmpTest(P4RuntimeTest):
    """Members 1, 2, 3: the next hops on ports 1, 2, 3."""

    def setUp(self):
        P4RuntimeTest.setUp(self)
        for port in PORTS:
            self.insert_member("ecmp_selector", port, "set_nhop", dstAddr=NEXT_HOP[port], port=port)

    def port_of(self, sport, ports=PORTS):
        """The port that flow `sport` leaves by, among `ports`, checked twice: the same port (and
        nothing elsewhere) the second time, with the bytes of that port's next hop."""
        testutils.send_packet(self, 0, sent(sport))
        index = testutils.verify_any_packet_any_port(self, [routed(sport, p) for p in ports], ports)
        testutils.send_packet(self, 0, sent(sport))
        testutils.verify_packets(self, routed(sport, ports[index]), [ports[index]])
        return ports[index]


class GroupSpreadsFlows(EcmpTest):
    def runTest(self):
        self.insert_group("ecmp_selector", 1, PORTS)
        self.insert_indirect("ipv4_lpm", {"dstAddr": ("10.0.0.0", 8)}, group=1)
        used = {self.port_of(sport) for sport in FLOWS}
        self.assertEqual(used, set(PORTS), "12 flows did not use every next hop")


class MemberRoute(EcmpTest):
    def runTest(self):
        self.insert_indirect("ipv4_lpm", {"dstAddr": ("192.168.1.0", 24)}, member=2)
        for sport in FLOWS[:4]:
            testutils.send_packet(self, 0, sent(sport, "192.168.1.9"))
            testutils.verify_packets(self, routed(sport, 2, "192.168.1.9"), [2])


class GroupWithoutANextHop(EcmpTest):
    """Once the next hop on port 2 leaves the group, no flow goes there; the others share them."""

    def runTest(self):
        self.insert_group("ecmp_selector", 1, PORTS)
        self.insert_indirect("ipv4_lpm", {"dstAddr": ("10.0.0.0", 8)}, group=1)
        self.assertIn(2, {self.port_of(sport) for sport in FLOWS})
        self.modify_group("ecmp_selector", 1, [1, 3])
        self.assertEqual({self.port_of(sport, [1, 3]) for sport in FLOWS}, {1, 3})


class Drops(EcmpTest):
    """No route, a TTL that would expire, a bad header checksum: dropped."""

    def runTest(self):
        self.insert_group("ecmp_selector", 1, PORTS)
        self.insert_indirect("ipv4_lpm", {"dstAddr": ("10.0.0.0", 8)}, group=1)
        testutils.send_packet(self, 0, sent(1000, "172.16.0.1"))
        testutils.send_packet(self, 0, sent(1000, ttl=1))
        bad = sent(1000)
        bad["IP"].chksum = 0x1234
        testutils.send_packet(self, 0, bad)
        testutils.verify_no_other_packets(self)
