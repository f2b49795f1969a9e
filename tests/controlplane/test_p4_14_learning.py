"""MACSAD's L2 use case written in P4_14 (tests/packets/p4_14_l2_learning.p4), end to end: the
switch sends a digest (generate_digest) of an unknown source address with its port; once the
control plane adds the address to `smac`, under the P4_14 names, it sends no more."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from one_header_switch import no_more_events, start_switch

from p4odp.controlplane.channel import SwitchChannel

PROGRAM = Path(__file__).resolve().parents[1] / "packets" / "p4_14_l2_learning.p4"
# From the unknown 00:00:00:00:00:0a, arriving on port 0, to 00:00:00:00:00:01.
FRAME = bytes.fromhex("000000000001" "00000000000a" "88b5") + bytes(46)


def test_a_p4_14_switch_asks_for_an_unknown_source_until_it_is_learned(tmp_path: Path):
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(PROGRAM), "-o", str(tmp_path / "out")],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    switch = tmp_path / "out" / "switch"
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(switch, tmp_path, address, (FRAME,), ("-i", f"3=pcap:out={tmp_path / 'flood.pcap'}"))
    try:
        with SwitchChannel(address) as channel:
            channel.listen("digest")
            event = channel.next_event(timeout=10)
            assert event is not None, "no digest within 10 s"
            # The digest's struct, then the field list's fields: the source address, the port.
            assert event.split()[2:] == ["0xa", "0x0"]
            assert channel.command("table_add smac _nop 00:00:00:00:00:0a =>").startswith("Entry has been added")
            assert no_more_events(channel, wait=0.5)
    finally:
        process.kill()
        process.wait()
        process.stderr.close()
