#!/usr/bin/env python3
"""Write a small pcap of Ethernet frames for l2fwd: `make_pcap.py OUT.pcap`.

Two frames go to known hosts (ports 1 and 3 in commands.txt), one to an
unknown address: the switch floods that one to multicast group 1.
"""

import sys

from p4odp.stf.pcap import write_pcap


def frame(dst: str, src: str) -> bytes:
    return bytes.fromhex(dst.replace(":", "")) + bytes.fromhex(src.replace(":", "")) + b"\x88\xb5" + bytes(46)


if __name__ == "__main__":
    write_pcap(sys.argv[1], [frame("00:00:00:00:00:01", "00:00:00:00:00:02"),
                             frame("00:00:00:00:00:03", "00:00:00:00:00:02"),
                             frame("00:00:00:00:00:77", "00:00:00:00:00:02")])
