"""The paper's use case, end to end: l2fwd sends a digest for an unknown source address, the
example controller (examples/l2fwd/controller.py, a P4Runtime client) learns it and installs the
smac and dmac entries through `p4odp runtime`, and the switch stops asking."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import grpc
from one_header_switch import eventually, start_switch

from p4odp.controlplane.channel import SwitchChannel
from p4odp.controlplane.protos import p4runtime_pb2 as p4r
from p4odp.controlplane.protos import p4runtime_pb2_grpc
from p4odp.controlplane.server import serve

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "l2fwd"
# From the unknown 00:00:00:00:00:0a, on port 0, to the known host 1.
FRAME = bytes.fromhex("000000000001" "00000000000a" "88b5") + bytes(46)


def dmac_entries(target: str) -> list:
    with grpc.insecure_channel(target) as channel:
        stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
        info = stub.GetForwardingPipelineConfig(p4r.GetForwardingPipelineConfigRequest(device_id=0)).config.p4info
        request = p4r.ReadRequest(device_id=0)
        request.entities.add().table_entry.table_id = next(t.preamble.id for t in info.tables
                                                           if t.preamble.name == "L2Ingress.dmac")
        return [(e.table_entry.match[0].exact.value, e.table_entry.action.action.params[0].value)
                for response in stub.Read(request) for e in response.entities]


def test_the_controller_learns_an_unknown_source(tmp_path: Path):
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(EXAMPLE / "l2fwd.p4"), "-o",
                            str(tmp_path / "out")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    address = f"unix:{tmp_path / 'control.sock'}"
    switch = start_switch(tmp_path / "out" / "switch", tmp_path, address, (FRAME,),
                          ("--commands", str(EXAMPLE / "commands.txt"), "-i", f"1=pcap:out={tmp_path / 'out1.pcap'}"))
    try:
        server = serve(address, "127.0.0.1:0")
    except BaseException:
        switch.kill()
        switch.wait()
        switch.stderr.close()
        raise
    target = f"127.0.0.1:{server.port}"
    controller = subprocess.Popen([sys.executable, str(EXAMPLE / "controller.py"), "--grpc", target],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert controller.stdout.readline() == "learning\n"
        assert controller.stdout.readline() == "learned 00:00:00:00:00:0a on port 0\n"
        assert eventually(lambda: (b"\x0a", b"\x00") in dmac_entries(target))
        with SwitchChannel(address) as channel:  # known now: the switch sends no more digests for it
            channel.listen("digest")
            assert channel.next_event(timeout=0.5) is None
        controller.send_signal(signal.SIGINT)
        assert controller.wait(timeout=30) == 0, controller.stderr.read()
    finally:
        server.stop()
        for process in (controller, switch):
            process.kill()
            process.wait()
            process.stderr.close()
        controller.stdout.close()
