"""v1model's semantics where simple_switch's behaviour says more than a packet's own path: the
timestamps (BMv2's clock, a switch without queues), registers updated by two workers at once
(each action and @atomic block atomic, as BMv2 locks an action's register arrays), and a
recirculate asked in ingress (carried by the packet's own copy to the end of its egress)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from one_header_switch import build_switch, eventually, one_header_program, run_on_frames, run_with_commands

from p4odp.controlplane.channel import ChannelError, SwitchChannel
from p4odp.stf.pcap import read_packets, write_pcap

# ----------------------------------------------------------------------
# Timestamps

# Ingress writes its timestamp and primes the queueing fields, which the switch must set again
# before egress (BMv2 sets them when it enqueues and dequeues); egress writes what it sees.
TIMES = one_header_program("bit<48> ingress; bit<48> egress; bit<32> enq; bit<32> delta; bit<24> enq_depth; "
                           "bit<24> deq_depth;", """\
        hdr.h.ingress = sm.ingress_global_timestamp;
        sm.enq_timestamp = 7;
        sm.deq_timedelta = 7;
        sm.enq_qdepth = 7;
        sm.deq_qdepth = 7;
        sm.egress_spec = 1;""", egress="""hdr.h.egress = sm.egress_global_timestamp; hdr.h.enq = sm.enq_timestamp;
        hdr.h.delta = sm.deq_timedelta; hdr.h.enq_depth = (bit<24>)sm.enq_qdepth;
        hdr.h.deq_depth = (bit<24>)sm.deq_qdepth;""")


def test_timestamps_are_microseconds_since_the_switch_started_and_the_queues_empty(tmp_path: Path):
    switch = build_switch(tmp_path, TIMES, "times.p4")
    began = time.monotonic()
    run = run_on_frames(switch, tmp_path, [bytes(26) + bytes([n % 256]) * 34 for n in range(2000)])
    took_us = (time.monotonic() - began) * 1e6
    assert run.returncode == 0, run.stderr
    out = read_packets(str(tmp_path / "out.pcap"))
    assert len(out) == 2000
    fields = [(int.from_bytes(p[0:6], "big"), int.from_bytes(p[6:12], "big"), int.from_bytes(p[12:16], "big"),
               int.from_bytes(p[16:20], "big"), p[20:26]) for p in out]
    ingress = [f[0] for f in fields]
    assert 0 < ingress[0] and ingress == sorted(ingress) and ingress[-1] > ingress[0], (ingress[0], ingress[-1])
    assert ingress[-1] < took_us  # microseconds since the switch started, not nanoseconds nor the epoch
    for its, ets, enq, delta, depths in fields:
        # One clock read per burst: a copy begins egress in the burst it came in; no queue between.
        assert ets >= its and enq == ets & 0xFFFFFFFF and delta == 0 and depths == bytes(6)


def test_a_program_that_reads_no_time_reads_no_clock(tmp_path: Path):
    (tmp_path / "prog.p4").write_text(one_header_program("bit<8> a;", "sm.egress_spec = 1;"))
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(tmp_path / "prog.p4"), "--emit", "c",
                            "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    c = (tmp_path / "out" / "datapath.c").read_text()
    assert ".timestamps = true" not in c and "p4odp_time_us" not in c


# ----------------------------------------------------------------------
# Registers under two workers

# Four registers counted the four ways accesses are one action's on BMv2: in a table's action, in an
# action called directly, in an @atomic block, in straight-line statements of an apply block (which
# p4c makes one action); `seen` counts the packets without a lock (a
# counter's cells are per worker).  Between each read and its write, a call the C compiler cannot
# see into (random()): without it, the compiler makes the read, +1 and write one instruction,
# which two cores seldom interleave.
COUNTS = one_header_program("bit<48> dst; bit<48> src; bit<16> type;", """\
        by_table.apply();
        bump_by_call();
        @atomic {
            bit<32> n;
            by_block.read(n, 0);
            random(hdr.h.type, 0, 0xFFFF);
            by_block.write(0, n + 1);
        }
        bit<32> m;
        in_apply.read(m, 0);
        random(hdr.h.type, 0, 0xFFFF);
        in_apply.write(0, m + 1);
        seen.count(0);
        sm.egress_spec = 1;""", ingress_locals="""\
    register<bit<32>>(1) in_table;
    register<bit<32>>(1) by_call;
    register<bit<32>>(1) by_block;
    register<bit<32>>(1) in_apply;
    counter(1, CounterType.packets) seen;
    action bump(inout bit<32> n) { random(hdr.h.type, 0, 0xFFFF); n = n + 1; }
    action bump_in_table() { bit<32> n; in_table.read(n, 0); bump(n); in_table.write(0, n); }
    action bump_by_call() { bit<32> n; by_call.read(n, 0); bump(n); by_call.write(0, n); }
    table by_table { actions = { bump_in_table; } default_action = bump_in_table(); }""")

# 2,000,000 packets, the flows spread over both workers' input queues: enough for the two workers to
# run at the same time for long (one may start a few milliseconds after the other).  Without the
# locks, each register ends some 5 to 30% short.
FLOWS, LOOPS = 200, 10_000


def test_two_workers_lose_no_update_of_a_register_read_and_written_in_one_action(tmp_path: Path):
    switch = build_switch(tmp_path, COUNTS, "counts.p4")
    frames = [bytes([2, 0, 0, 0, flow >> 8, flow & 0xFF]) + bytes([2, 0, 0, 0, 0, 1]) + b"\x88\xb5" + bytes(46)
              for flow in range(FLOWS)]
    write_pcap(str(tmp_path / "in.pcap"), frames)
    address = f"unix:{tmp_path / 'control.sock'}"
    process = subprocess.Popen([str(switch), "-w", "2", "--control", address,
                                "-i", f"0=pcap:in={tmp_path / 'in.pcap'}:loops={LOOPS}:cache", "-i", "1=null"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        channel = _connect(address, process)
        with channel:
            total = FLOWS * LOOPS

            def counted() -> int:  # "seen[0]= (B bytes, P packets)"
                return int(channel.command("counter_read seen 0").split(",")[1].split()[0])
            assert eventually(lambda: counted() == total, 30), counted()
            counts = {name: channel.command(f"register_read {name} 0").split("=")[1].strip()
                      for name in ("in_table", "by_call", "by_block", "in_apply")}
        assert counts == {name: str(total) for name in counts}
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        report = process.stderr.read()
        load = dict(re.findall(r"^worker (\d) received (\d+)$", report, re.M))
        assert set(load) == {"0", "1"} and all(int(n) > total // 10 for n in load.values()), report
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stderr.close()


def _connect(address: str, process: subprocess.Popen) -> SwitchChannel:
    deadline = time.monotonic() + 20
    while True:
        try:
            return SwitchChannel(address, timeout=5)
        except ChannelError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError(f"the switch did not open its control channel: {process.stderr.read()}")
            time.sleep(0.05)


# ----------------------------------------------------------------------
# recirculate in ingress

# A packet as received (instance_type 0) asks for a recirculation in ingress (op 1), with a multicast
# group as well (op 2) or an ingress clone (op 3); egress counts its passes, and a recirculated
# packet's ingress marks it.
RECIRCULATE = one_header_program("bit<8> op; bit<8> passes; bit<8> recirculated;", """\
        sm.egress_spec = 1;
        if (sm.instance_type == 4) {
            hdr.h.recirculated = 1;
        } else if (hdr.h.op != 0) {
            recirculate_preserving_field_list(0);
            if (hdr.h.op == 2) {
                sm.mcast_grp = 1;
            } else if (hdr.h.op == 3) {
                clone(CloneType.I2E, 3);
            }
        }""", egress="hdr.h.passes = hdr.h.passes + 1;")


@pytest.fixture(scope="module")
def recirculating(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("recirculate"), RECIRCULATE, "recirculate.p4")


@pytest.mark.parametrize("op, out", [
    (0, [(1, 0)]),  # (passes, recirculated) of each packet out, in order
    (1, [(2, 1)]),  # after its egress, the packet's own copy goes round again
    (2, [(1, 0)]),  # a multicast replica does not carry it (BMv2 clears a replica's requests)
    (3, [(1, 0), (2, 1)]),  # nor does an ingress clone, which goes first; the packet itself does
])
def test_a_recirculate_asked_in_ingress_takes_the_packet_round_after_its_egress(recirculating: Path, tmp_path: Path,
                                                                                op: int, out: list):
    run = run_with_commands(recirculating, tmp_path, "mc_mgrp_create 1\nmc_node_create 0 1\nmc_node_associate 1 0\n"
                                                     "mirroring_add 3 1\n", [bytes([op, 0, 0]) + bytes(57)])
    assert run.returncode == 0, run.stderr
    assert [(p[1], p[2]) for p in read_packets(str(tmp_path / "out.pcap"))] == out
