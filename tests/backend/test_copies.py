"""Mirror sessions from the commands (simple_switch_CLI's mirroring_add, mirroring_add_mc,
mirroring_delete, mirroring_get) and the bound on a packet's passes: what the commands print, what
the clones then do, bad lines refused with the line's place, and a packet that keeps coming back
dropped and counted.  tests/packets/copies.stf tests the copies' contents."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_header_switch import build_switch, one_header_program, run_with_commands

from p4odp.stf.pcap import read_packets

# Ingress clones every packet to session 3 and sends it to port 1 (h.op 0), or resubmits it forever
# (h.op 1); egress writes the copy's instance_type into h.kind.
PROGRAM = one_header_program("bit<8> op; bit<8> kind;", """\
        sm.egress_spec = 1;
        if (hdr.h.op == 1) {
            resubmit_preserving_field_list(0);
        } else {
            clone(CloneType.I2E, 3);
        }""", egress="hdr.h.kind = (bit<8>)sm.instance_type;")

NORMAL, INGRESS_CLONE = 0, 1


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("copies"), PROGRAM, "copies.p4")


def test_a_session_clones_until_it_is_deleted(switch: Path, tmp_path: Path):
    run = run_with_commands(switch, tmp_path, "mirroring_add 3 1\nmirroring_get 3\nreceive 0\nmirroring_delete 3\nreceive 0\n",
               [bytes(2), bytes(2)])
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "MirroringSessionConfig(port=1, mgid=None)"
    kinds = [p[1] for p in read_packets(str(tmp_path / "out.pcap"))]
    assert kinds == [INGRESS_CLONE, NORMAL, NORMAL]


def test_a_session_to_a_group_clones_once_per_replica(switch: Path, tmp_path: Path):
    run = run_with_commands(switch, tmp_path, "mc_mgrp_create 2\nmc_node_create 7 1\nmc_node_associate 2 0\n"
                                 "mirroring_add 3 0\nmirroring_add_mc 3 2\nmirroring_get 3\n", [bytes(2)])
    assert run.returncode == 0, run.stderr
    assert "MirroringSessionConfig(port=None, mgid=2)" in run.stdout.splitlines()
    assert [p[1] for p in read_packets(str(tmp_path / "out.pcap"))] == [INGRESS_CLONE, NORMAL]


def test_a_packet_that_keeps_coming_back_is_dropped_and_counted(switch: Path, tmp_path: Path):
    run = run_with_commands(switch, tmp_path, "", [bytes([1, 0]), bytes(2)])
    assert run.returncode == 0, run.stderr
    assert [p[1] for p in read_packets(str(tmp_path / "out.pcap"))] == [NORMAL]  # the second one
    assert "dropped 1: resubmitted, recirculated or cloned at egress more than 16 times" in run.stderr


@pytest.mark.parametrize("line, message", [
    ("mirroring_add 32768 1", "mirror session 32768 is out of range 0..32767"),
    ("mirroring_add 1 512", "port 512 is out of range 0..511"),
    ("mirroring_add_mc 1 0", "multicast group 0 is out of range 1..4095"),
    ("mirroring_add 1", "usage: mirroring_add SESSION PORT"),
    ("mirroring_add_mc 1 2 3", "usage: mirroring_add_mc SESSION GROUP"),
    ("mirroring_delete 4", "no mirror session 4"),
    ("mirroring_get 4", "no mirror session 4"),
    ("mirroring_get x", "'x' is not a number"),
])
def test_a_bad_line_is_refused_with_its_place(switch: Path, tmp_path: Path, line: str, message: str):
    run = run_with_commands(switch, tmp_path, f"mirroring_add 3 1\n{line}\n", [bytes(2)])
    assert run.returncode != 0 and f"commands.txt:2: error: {message}" in run.stderr, run.stderr
