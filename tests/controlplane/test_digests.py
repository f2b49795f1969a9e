"""Digests (v1model's digest<T>) reach the control channel's clients that listen: each message
as its fields' values (numbers in hex, an error's or a plain enum's member by name), one line per
message, while the switch forwards; a client that does not listen gets none."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from one_header_switch import build_switch, no_more_events, one_header_program, start_switch

from p4odp.controlplane.channel import SwitchChannel
from p4odp.controlplane.digests import DigestLists
from p4odp.controlplane.protos import p4info_pb2, p4runtime_pb2

PROGRAM = one_header_program(
    "bit<48> mac; bit<16> port; bit<8> kind;",
    globals="enum Color { red, green, blue }\nstruct inner_t { bit<3> small; Color color; }\n"
            "struct learn_t { bit<48> mac; bit<16> port; inner_t inner; error problem; }",
    ingress="""\
        learn_t m;
        m.mac = hdr.h.mac;
        m.port = hdr.h.port;
        m.inner.small = 5;
        m.inner.color = hdr.h.kind == 1 ? Color.blue : Color.green;
        m.problem = error.PacketTooShort;
        if (hdr.h.kind != 0) { digest<learn_t>(1, m); }
        digest(2, { hdr.h.kind });
        mark_to_drop(sm);""")

FRAMES = (bytes.fromhex("0000000000aa" "0102" "01") + bytes(51), bytes.fromhex("00000000bbbb" "0003" "00") + bytes(51))


@pytest.fixture(scope="module")
def digest_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("digests"), PROGRAM, "digests.p4")


def test_listening_clients_get_every_digest_as_a_line(digest_binary: Path, tmp_path: Path):
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(digest_binary, tmp_path, address, FRAMES)
    try:
        with SwitchChannel(address) as listener, SwitchChannel(address) as other:
            listener.listen("digest")
            seen = set()
            for _ in range(200):
                event = listener.next_event(timeout=10)
                assert event is not None, "no digest within 10 s"
                seen.add(event)
            assert seen == {"digest learn_t 0xaa 0x102 0x5 blue PacketTooShort", "digest digest_0 0x1",
                            "digest digest_0 0x0"}
            assert other.next_event(timeout=0.2) is None  # not listening
            listener.command("digest_unlisten")
            assert no_more_events(listener, wait=0.3)
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


def test_p4odp_cli_prints_digests(digest_binary: Path, tmp_path: Path):
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(digest_binary, tmp_path, address, FRAMES)
    cli = subprocess.Popen([sys.executable, "-m", "p4odp.cli", "cli", "--switch", address, "--digests"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = {cli.stdout.readline().strip() for _ in range(30)}
        assert "digest learn_t 0xaa 0x102 0x5 blue PacketTooShort" in lines and "digest digest_0 0x0" in lines
        cli.send_signal(signal.SIGINT)
        assert cli.wait(timeout=30) == 0 and "Traceback" not in cli.stderr.read()
    finally:
        for running in (cli, process):
            running.kill()
            running.wait()
            running.stderr.close()
        cli.stdout.close()


def test_a_digest_message_p4info_does_not_describe_is_said_once_and_dropped(capsys):
    info = p4info_pb2.P4Info()
    digest = info.digests.add()
    digest.preamble.id, digest.preamble.name = 1, "digest_0"
    digest.type_spec.bitstring.bit.bitwidth = 8
    sent = []
    lists = DigestLists(info, lambda message: sent.append(message) or True)
    lists.configure(1, p4runtime_pb2.DigestEntry.Config(max_list_size=1))
    for event in ("digest digest_1 0x1", "digest digest_1 0x2", "digest digest_0 0x1 0x2", "digest digest_0 0x3"):
        lists.take(event)
    said = capsys.readouterr().err
    assert said.count("internal error") == 2 and "'digest_1'" in said and "'digest_0'" in said
    assert len(sent) == 1  # digest_0 0x3 alone is what P4Info describes
