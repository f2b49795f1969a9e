"""PNA on the switch: where a packet goes (send_to_port, drop_packet, the default drop, mirror_packet,
recirculate with its pass number), its direction (--host-port, SelectByDirection), allocate_flow_id,
and add-on-miss learning: each flow learnt once by the worker that receives it, under two workers,
hits after, the entries visible to the control plane and gone once their expire time has passed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from one_header_switch import build_switch, eventually, start_switch

from p4odp.controlplane.channel import SwitchChannel
from p4odp.stf.pcap import read_packets, write_pcap

PROGRAM = """\
#include <core.p4>
#include "dpdk/pna.p4"

header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
// op: what the main control does; dir, pass, learnt and flow: what it saw.
header tag_t { bit<8> op; bit<8> dir; bit<8> pass; bit<8> learnt; bit<32> flow; }
struct headers_t { eth_t eth; tag_t tag; }
struct meta_t { }
struct learnt_hit_params_t { bit<8> mark; }

parser MainParserImpl(packet_in pkt, out headers_t hdr, inout meta_t meta,
                      in pna_main_parser_input_metadata_t istd) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.tag); transition accept; }
}

control PreControlImpl(in headers_t hdr, inout meta_t meta, in pna_pre_input_metadata_t istd,
                       inout pna_pre_output_metadata_t ostd) {
    apply { }
}

control MainControlImpl(inout headers_t hdr, inout meta_t meta, in pna_main_input_metadata_t istd,
                        inout pna_main_output_metadata_t ostd) {
    Hash<bit<32>>(PNA_HashAlgorithm_t.TOEPLITZ) rss;
    action learnt_hit(bit<8> mark) {
        hdr.tag.learnt = mark;
        if (is_net_port(istd.input_port)) {
            restart_expire_timer();
        } else {
            set_entry_expire_time((ExpireTimeProfileId_t) 10);
        }
        send_to_port((PortId_t) 3);
    }
    action learn() {
        bool added = add_entry(action_name = "learnt_hit", action_params = (learnt_hit_params_t) { mark = 7 },
                               expire_time_profile_id = (ExpireTimeProfileId_t) 9);
        hdr.tag.learnt = added ? 8w1 : 8w2;
        send_to_port((PortId_t) 2);
    }
    table flows {
        key = { hdr.eth.src: exact; hdr.eth.dst: exact; }
        actions = { @tableonly learnt_hit; @defaultonly learn; }
        add_on_miss = true;
        const default_action = learn;
    }
    apply {
        hdr.tag.dir = istd.direction == PNA_Direction_t.HOST_TO_NET ? 8w1 : 8w0;
        hdr.tag.pass = (bit<8>) (PassNumberUint_t) istd.pass;
        if (hdr.tag.op == 0) {
            flows.apply();
        } else if (hdr.tag.op == 1) {
            send_to_port((PortId_t) 1);
            drop_packet();
        } else if (hdr.tag.op == 2) {
            send_to_port((PortId_t) 1);
            mirror_packet((MirrorSlotId_t) 0, (MirrorSessionId_t) 5);
            mirror_packet((MirrorSlotId_t) 1, (MirrorSessionId_t) 7);
            mirror_packet((MirrorSlotId_t) 1, (MirrorSessionId_t) 6);  // a slot's last call counts
        } else if (hdr.tag.op == 3) {
            if ((PassNumberUint_t) istd.pass < 2) {
                recirculate();
            } else {
                send_to_port((PortId_t) 1);
            }
        } else if (hdr.tag.op == 4) {
            hdr.tag.flow = (bit<32>) (FlowIdUint_t) allocate_flow_id();
            send_to_port((PortId_t) 1);
        } else if (hdr.tag.op == 5) {
            hdr.eth.type = SelectByDirection(istd.direction, 16w0x1111, 16w0x2222);
            hdr.tag.learnt = is_host_port(istd.input_port) ? 8w1 : 8w0;
            send_to_port((PortId_t) 1);
        } else if (hdr.tag.op == 6) {
            hdr.tag.flow = rss.get_hash({ hdr.eth.src[31:0], hdr.eth.dst[31:0] });
            send_to_port((PortId_t) 1);
        }
    }
}

control MainDeparserImpl(packet_out pkt, in headers_t hdr, in meta_t meta, in pna_main_output_metadata_t ostd) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.tag); }
}

PNA_NIC(MainParserImpl(), PreControlImpl(), MainControlImpl(), MainDeparserImpl()) main;
"""

LEARN, DROP, MIRROR, RECIRCULATE, FLOW_ID, SELECT, TOEPLITZ, NOTHING = range(8)
ETHERTYPE = 0x88B5  # not IP: the ports spread frames over workers by their MAC addresses


def frame(op: int, src: int = 1, dst: int = 2) -> bytes:
    return dst.to_bytes(6, "big") + src.to_bytes(6, "big") + ETHERTYPE.to_bytes(2, "big") + bytes([op]) + bytes(7) + \
        b"payload"


def tag(packet: bytes) -> dict:
    """What the main control wrote of the packet: its tag's fields, and the ethertype."""
    return {"op": packet[14], "dir": packet[15], "pass": packet[16], "learnt": packet[17],
            "flow": int.from_bytes(packet[18:22], "big"), "type": int.from_bytes(packet[12:14], "big"),
            "src": int.from_bytes(packet[6:12], "big")}


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("pna"), PROGRAM, "pna_features.p4")


def run(switch: Path, folder: Path, from_net: list[bytes], from_host: list[bytes] = (), workers: int = 1,
        commands: str = "", received: dict = None) -> dict[int, list[bytes]]:
    """The switch run on `from_net` (port 0) and `from_host` (port 4, a --host-port), its outputs by port;
    how many packets each worker received into `received`."""
    write_pcap(str(folder / "in0.pcap"), from_net)
    write_pcap(str(folder / "in4.pcap"), list(from_host))
    (folder / "commands.txt").write_text(commands)
    outputs = [x for port in (1, 2, 3) for x in ("-i", f"{port}=pcap:out={folder / f'out{port}.pcap'}")]
    result = subprocess.run([str(switch), "--exit-when-done", "--commands", str(folder / "commands.txt"),
                             "--host-port", "4", "-w", str(workers), "-i", f"0=pcap:in={folder / 'in0.pcap'}:cache",
                             "-i", f"4=pcap:in={folder / 'in4.pcap'}", *outputs], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    if received is not None:
        received.update({int(k): int(n) for k, n in re.findall(r"worker (\d+) received (\d+)", result.stderr)})
    return {port: read_packets(str(folder / f"out{port}.pcap")) for port in (1, 2, 3)}


def test_a_packet_goes_where_the_last_call_says_and_is_dropped_without_one(switch: Path, tmp_path: Path):
    out = run(switch, tmp_path, [frame(DROP), frame(NOTHING), frame(RECIRCULATE)], commands="mirroring_add 5 3\n")
    # drop_packet() after send_to_port() drops; no call drops; recirculate() twice, then out on pass 2
    assert [(tag(p)["op"], tag(p)["pass"]) for p in out[1]] == [(RECIRCULATE, 2)]
    assert out[2] == out[3] == []


def test_each_mirror_slot_copies_the_packet_as_deparsed_to_its_session(switch: Path, tmp_path: Path):
    out = run(switch, tmp_path, [frame(MIRROR)], commands="mirroring_add 5 3\nmirroring_add 6 2\nmirroring_add 7 2\n")
    assert len(out[1]) == len(out[2]) == len(out[3]) == 1 and out[1] == out[2] == out[3]
    assert tag(out[3][0])["op"] == MIRROR


def test_the_direction_is_host_to_net_from_host_ports(switch: Path, tmp_path: Path):
    out = run(switch, tmp_path, [frame(SELECT)], [frame(SELECT)])
    # direction, SelectByDirection's choice, is_host_port(input_port)
    assert sorted((tag(p)["dir"], tag(p)["type"], tag(p)["learnt"]) for p in out[1]) == [(0, 0x1111, 0),
                                                                                         (1, 0x2222, 1)]


def test_toeplitz_hashes_as_microsofts_rss_verification_suite(switch: Path, tmp_path: Path):
    # IPv4 66.9.149.187 -> 161.142.100.80, the addresses alone: 0x323e8fc2 with the specification's key
    out = run(switch, tmp_path, [frame(TOEPLITZ, src=0x420995BB, dst=0xA18E6450)])
    assert tag(out[1][0])["flow"] == 0x323E8FC2


def test_flow_ids_are_unique(switch: Path, tmp_path: Path):
    out = run(switch, tmp_path, [frame(FLOW_ID, src) for src in range(1, 41)], workers=2)
    ids = [tag(p)["flow"] for p in out[1]]
    assert len(ids) == 40 and len(set(ids)) == 40 and 0 not in ids


def test_each_flow_is_learnt_once_then_hit_under_two_workers(switch: Path, tmp_path: Path):
    flows, rounds = 64, 5
    frames = [frame(LEARN, src) for _ in range(rounds) for src in range(1, flows + 1)]
    received = {}
    out = run(switch, tmp_path, frames, workers=2, received=received)
    assert received[0] and received[1]  # the flows are spread over both workers
    learnt = [tag(p) for p in out[2]]  # the miss: add_entry, then port 2
    hits = [tag(p) for p in out[3]]  # the learnt entry's action: port 3
    assert sorted(t["src"] for t in learnt) == list(range(1, flows + 1))
    assert {t["learnt"] for t in learnt} == {1}  # added
    assert len(hits) == flows * (rounds - 1) and {t["learnt"] for t in hits} == {7}


def test_learnt_entries_are_the_control_planes_to_read_and_a_hit_may_change_their_profile(switch: Path,
                                                                                         tmp_path: Path):
    flows, from_host = 16, 99
    address = f"unix:{tmp_path / 'ctl.sock'}"
    (tmp_path / "commands.txt").write_text("expire_time_set 9 3000\n")
    write_pcap(str(tmp_path / "host.pcap"), [frame(LEARN, from_host)])
    process = start_switch(switch, tmp_path, address, tuple(frame(LEARN, src) for src in range(1, flows + 1)),
                           ("-w", "2", "--commands", str(tmp_path / "commands.txt"), "--host-port", "4",
                            "-i", f"4=pcap:in={tmp_path / 'host.pcap'}:loops=0"))
    try:
        with SwitchChannel(address) as channel:
            def profiles() -> dict[int, int]:
                """The expire-time profile of each learnt flow, by its source address."""
                dump = channel.command("table_dump MainControlImpl.flows")
                return {int(src, 16): int(profile) for src, profile in re.findall(
                    r"hdr\.eth\.src\s*: EXACT\s+([0-9a-f]+)\n.*?\(expire-time profile (\d+)\)", dump, re.S)}

            # Hit from the network, restart_expire_timer keeps profile 9; from the host,
            # set_entry_expire_time gives profile 10.
            expected = {**{src: 9 for src in range(1, flows + 1)}, from_host: 10}
            assert eventually(lambda: profiles() == expected), profiles()
            dump = channel.command("table_dump MainControlImpl.flows")
            assert "Action entry: MainControlImpl.learnt_hit - 07" in dump
            assert set(re.findall(r"Learnt entry of worker (\d)", dump)) <= {"0", "1"}
            with pytest.raises(Exception, match="profiles are 0 to 255"):
                channel.command("expire_time_set 256 10")
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_learnt_entries_expire_when_no_packet_hits_them(switch: Path, tmp_path: Path):
    address = f"unix:{tmp_path / 'ctl.sock'}"
    (tmp_path / "commands.txt").write_text("expire_time_set 9 1500\n")
    write_pcap(str(tmp_path / "once.pcap"), [frame(LEARN, 1), frame(LEARN, 2)])
    process = start_switch(switch, tmp_path, address, (frame(NOTHING),),
                           ("--commands", str(tmp_path / "commands.txt"), "-i", f"4=pcap:in={tmp_path / 'once.pcap'}"))
    try:
        with SwitchChannel(address) as channel:
            def entries() -> int:
                return channel.command("table_dump MainControlImpl.flows").count("Learnt entry")

            assert eventually(lambda: entries() == 2)
            assert eventually(lambda: entries() == 0, seconds=10)
    finally:
        process.terminate()
        process.wait(timeout=30)
