"""PTF tests of l2fwd.p4: MAC tables and the flood group written through P4Runtime, frames sent on
ports 1..3, MAC learning seen as digests.

    sudo p4odp ptf examples/l2fwd/l2fwd.p4 examples/l2fwd/ptf
"""

from ptf import testutils

from p4odp.ptfharness.base_test import P4RuntimeTest

MAC = {port: f"00:00:00:00:00:0{port}" for port in (1, 2, 3)}


def frame(src: int, dst: str):
    return testutils.simple_eth_packet(eth_src=MAC[src], eth_dst=dst, eth_type=0x88b5)


class L2Test(P4RuntimeTest):
    def setUp(self):
        P4RuntimeTest.setUp(self)
        self.insert_multicast_group(1, [(1, 0), (2, 0), (3, 0)])  # flood()
        for port in (1, 2, 3):
            self.insert("smac", {"srcAddr": MAC[port]}, "NoAction")


class KnownDestination(L2Test):
    def runTest(self):
        self.insert("dmac", {"dstAddr": MAC[2]}, "forward", port=2)
        testutils.send_packet(self, 1, frame(1, MAC[2]))
        testutils.verify_packets(self, frame(1, MAC[2]), [2])


class UnknownDestinationFloods(L2Test):
    def runTest(self):
        testutils.send_packet(self, 1, frame(1, "00:00:00:00:00:99"))
        testutils.verify_packets(self, frame(1, "00:00:00:00:00:99"), [1, 2, 3])  # group 1: every port


class DroppedDestination(L2Test):
    def runTest(self):
        self.insert("dmac", {"dstAddr": MAC[3]}, "drop")
        testutils.send_packet(self, 2, frame(2, MAC[3]))
        testutils.verify_no_other_packets(self)


class UnknownSourceIsLearned(P4RuntimeTest):
    """A source smac does not know is told to the controller (a digest of the address and the port);
    once the controller has installed it, it is no longer told."""

    def runTest(self):
        self.enable_digest("mac_learn_digest_t")
        self.insert("dmac", {"dstAddr": MAC[1]}, "forward", port=1)
        unknown = testutils.simple_eth_packet(eth_src="00:00:00:00:00:42", eth_dst=MAC[1], eth_type=0x88b5)
        testutils.send_packet(self, 3, unknown)
        testutils.verify_packets(self, unknown, [1])
        learned = self.digest()
        self.assertIsNotNone(learned, "no digest of the unknown source")
        address, port = learned.data[0].struct.members
        self.assertEqual((address.bitstring, port.bitstring), (bytes([0x42]), bytes([3])))
        self.insert("smac", {"srcAddr": "00:00:00:00:00:42"}, "NoAction")
        testutils.send_packet(self, 3, unknown)
        testutils.verify_packets(self, unknown, [1])
        self.assertIsNone(self.digest(timeout=0.5), "a digest of a known source")
