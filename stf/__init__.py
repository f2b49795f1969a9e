"""p4c's STF packet tests: the file format, expected-packet checks, pcap files.

`parser` reads `.stf` files into typed statements, `packets` holds the
expected-packet patterns and the per-port checking rules of p4c's runner,
`pcap` reads and writes the pcap files that carry packets to and from a
switch.
"""

from p4odp.stf.packets import ExpectedOutputs, Mismatch, Pattern, hex_diff, matches
from p4odp.stf.parser import Statement, expected_outputs, parse_stf, parse_stf_file
from p4odp.stf.pcap import PcapError, read_packets, read_pcap, write_pcap

__all__ = [
    "ExpectedOutputs",
    "Mismatch",
    "Pattern",
    "hex_diff",
    "matches",
    "Statement",
    "expected_outputs",
    "parse_stf",
    "parse_stf_file",
    "PcapError",
    "read_packets",
    "read_pcap",
    "write_pcap",
]
