"""Another program swapped into a running switch (load_new_config_file, swap_configs, `p4odp
swap`) while it forwards, counting every packet: none lost, none misforwarded.

Two programs forward port 0 to port 1 through a table `fwd` whose default drops, each counting
what it forwards in a counter of its own name; the new program's entry is added after it is
loaded and before it is swapped in, so a command that went to the running program instead would
make the new one drop.  The switch replays a frame endlessly into port 0 (two workers: one
receives, one is idle and must move too); at the end its counters must say that every frame
received left on port 1 and none was dropped."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from one_header_switch import eventually, one_header_program, start_switch
from p4runtime_client import Controller, rejected, update

from p4odp.controlplane.channel import CommandError, SwitchChannel
from p4odp.controlplane.protos import p4info_pb2
from p4odp.controlplane.protos import p4runtime_pb2 as p4r
from p4odp.controlplane.server import serve


def forwarding_program(counter: str, action: str = "send") -> str:
    return one_header_program(
        "bit<8> kind;",
        ingress="        fwd.apply();",
        ingress_locals=f"""\
    counter(1, CounterType.packets) {counter};
    action {action}(bit<9> port) {{ sm.egress_spec = port; {counter}.count(0); }}
    action drop_it() {{ mark_to_drop(sm); }}
    table fwd {{ key = {{ sm.ingress_port: exact; }} actions = {{ {action}; drop_it; }} default_action = drop_it(); }}""")


def compile_with_datapath(folder: Path, source: str) -> Path:
    folder.mkdir()
    (folder / "prog.p4").write_text(source)
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(folder / "prog.p4"), "-o",
                            str(folder / "out"), "--datapath", "--p4runtime-files", str(folder / "out" / "p4info.bin")],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return folder / "out"


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> dict:
    """The first program's switch, and each program's build folder (its datapath.so and P4Info)."""
    root = tmp_path_factory.mktemp("swap")
    first = compile_with_datapath(root / "first", forwarding_program("first_count"))
    second_source = forwarding_program("second_count")
    second = compile_with_datapath(root / "second", second_source)
    (root / "second.p4").write_text(second_source)
    third = compile_with_datapath(root / "third", forwarding_program("third_count", action="send_to"))
    return {"switch": first / "switch", "first": first / "datapath.so", "second": second / "datapath.so",
            "second_source": root / "second.p4", "builds": {"first": first, "second": second, "third": third}}


def packets(channel: SwitchChannel, counter: str) -> int:
    return int(re.search(r"(\d+) packets", channel.command(f"counter_read {counter} 0")).group(1))


def port_counters(stderr: str) -> dict[int, tuple[int, int]]:
    """Port -> (received, sent), from the counters the switch prints at exit."""
    return {int(m[1]): (int(m[2]), int(m[3])) for m in re.finditer(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s", stderr, re.M)}


@contextmanager
def first_program_forwarding(programs: dict, folder: Path, *options: str):
    """The first program's switch replaying a frame endlessly into port 0, its entry to port 1 in
    place before the first frame: its control channel's address, and a function that stops it
    and returns what it printed."""
    address = f"unix:{folder / 'control.sock'}"
    (folder / "first.txt").write_text("table_add fwd send 0 => 1\n")
    process = start_switch(programs["switch"], folder, address,
                           options=("-i", "1=null1", "--commands", str(folder / "first.txt"), *options))

    def stop() -> str:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        return process.stderr.read()
    try:
        yield address, stop
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


def p4odp_swap(programs: dict, address: str, commands: Path) -> subprocess.CompletedProcess:
    """`p4odp swap` of the second program, with `commands`."""
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "swap", str(programs["second_source"]), "--switch",
                           address, "--commands", str(commands)], capture_output=True, text=True, timeout=300)


@contextmanager
def switch_running(switch: Path, folder: Path, *options: str):
    """The switch replaying a frame endlessly into port 0, with `options`: its control channel's
    address."""
    address = f"unix:{folder / 'control.sock'}"
    process = start_switch(switch, folder, address, options=options)
    try:
        yield address
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


@contextmanager
def primary_controller(address: str):
    """A P4Runtime server of the switch at `address`, and a controller of it that is primary."""
    server = serve(address, "127.0.0.1:0")
    controller = None
    try:
        controller = Controller(f"127.0.0.1:{server.port}", election_id=1)
        controller.arbitrate()
        yield server, controller
    finally:
        if controller is not None:
            controller.close()
        server.stop()


def test_swaps_under_traffic_lose_no_packet(programs: dict, tmp_path: Path):
    with first_program_forwarding(programs, tmp_path, "-w", "2") as (address, stop):
        with SwitchChannel(address) as channel:
            assert eventually(lambda: packets(channel, "first_count") > 1000)
            # p4odp swap: the second program, its entry from a commands file.
            (tmp_path / "second.txt").write_text("table_add fwd send 0 => 1\n")
            swap = p4odp_swap(programs, address, tmp_path / "second.txt")
            assert swap.returncode == 0, swap.stderr
            assert eventually(lambda: packets(channel, "second_count") > 1000)
            with pytest.raises(CommandError, match="no counter named .first_count."):
                packets(channel, "first_count")
            # Back to the first program, by the channel's commands; then to the second once more, from
            # the same path: a datapath.so rebuilt in place is the new program, not the one loaded from there.
            same_path = tmp_path / "datapath.so"
            for datapath, counter in ((programs["first"], "first_count"), (programs["second"], "second_count")):
                shutil.copyfile(datapath, same_path)
                channel.command(f"load_new_config_file {same_path}")
                assert packets(channel, counter) == 0  # the loaded program's, not yet forwarding
                channel.command("table_add fwd send 0 => 1")
                channel.command("swap_configs")
                assert eventually(lambda: packets(channel, counter) > 1000)
        stderr = stop()
    ports = port_counters(stderr)
    assert ports[0][0] > 10000, stderr
    assert ports[1][1] == ports[0][0], stderr  # every frame received left on port 1
    assert "dropped" not in stderr, stderr


def digest_program(digest: str, tag: int) -> str:
    """A program that writes `tag` into each packet, sends a digest of type `digest` of it and the
    packet to the CPU port (7)."""
    return one_header_program("bit<8> kind;", f"        hdr.h.kind = {tag};\n"
                                              f"        digest<{digest}>(1, {{ hdr.h.kind }});\n"
                                              "        sm.egress_spec = 7;",
                              globals=f"struct {digest} {{ bit<8> kind; }}")


def test_a_swap_event_parts_the_old_programs_digests_and_packets_from_the_new_ones(tmp_path: Path):
    first = compile_with_datapath(tmp_path / "first", digest_program("first_t", 1))
    second = compile_with_datapath(tmp_path / "second", digest_program("second_t", 2))
    with switch_running(first / "switch", tmp_path, "--cpu-port", "7", "-w", "2") as address:
        with SwitchChannel(address) as listener, SwitchChannel(address) as loader:
            for events in ("digest", "packet", "swap"):
                listener.listen(events)
            assert eventually(lambda: listener.next_event(timeout=1) is not None)
            loader.command(f"load_new_config_file {second / 'datapath.so'}")
            loader.command("swap_configs")
            before, after, swapped = set(), set(), False
            while len(after) < 2 or not swapped:  # a digest and a packet of the new program
                event = listener.next_event(timeout=10)
                assert event is not None, (before, swapped)
                if event == "program_swapped":
                    assert not swapped
                    swapped = True
                elif event.startswith(("digest ", "packet_in ")):  # which program: a digest's name, a packet's tag
                    kind, what = event.split()[:2]
                    (after if swapped else before).add((kind, what if kind == "digest" else what[:2]))
    assert before == {("digest", "first_t"), ("packet_in", "01")}
    assert after == {("digest", "second_t"), ("packet_in", "02")}


def test_packets_sent_in_before_a_swap_go_through_the_old_program(tmp_path: Path):
    """Packet-outs queued for worker 0 when the swap comes carry the old program's controller
    header: the old program runs them, and their packet-ins come before program_swapped."""
    def echo_program(tag: int) -> str:  # writes `tag` into what comes in on the CPU port (7) and sends it back
        return one_header_program("bit<8> kind; bit<16> sequence;", f"""\
        if (sm.ingress_port == 7) {{ hdr.h.kind = {tag}; sm.egress_spec = 7; }} else {{ mark_to_drop(sm); }}""")
    first = compile_with_datapath(tmp_path / "first", echo_program(1))
    second = compile_with_datapath(tmp_path / "second", echo_program(2))
    sent = 200  # in one window of lines (SwitchChannel.WINDOW_BYTES), less than worker 0's ring
    with switch_running(first / "switch", tmp_path, "--cpu-port", "7") as address:
        with SwitchChannel(address) as listener, SwitchChannel(address) as loader:
            listener.listen("packet")
            listener.listen("swap")
            loader.command(f"load_new_config_file {second / 'datapath.so'}")
            answers = loader.commands([f"packet_out 00{sequence:04x}" + "00" * 57 for sequence in range(sent)]
                                      + ["swap_configs"])
            assert all(ok for ok, _ in answers), answers
            tags = {}
            while (event := listener.next_event(timeout=10)) != "program_swapped":
                assert event is not None and event.startswith("packet_in "), (event, len(tags))
                frame = bytes.fromhex(event.split()[1])
                tags[int.from_bytes(frame[1:3], "big")] = frame[0]
    assert tags == {sequence: 1 for sequence in range(sent)}


def test_a_bad_load_or_swap_is_refused_and_the_switch_forwards_on(programs: dict, tmp_path: Path):
    with first_program_forwarding(programs, tmp_path) as (address, stop):
        with SwitchChannel(address) as channel:
            with pytest.raises(CommandError, match="this connection has no program loaded"):
                channel.command("swap_configs")
            with pytest.raises(CommandError, match="this connection has no program loaded"):
                channel.command("discard_new_config")
            with pytest.raises(CommandError, match="cannot load"):
                channel.command(f"load_new_config_file {tmp_path / 'missing.so'}")
            with pytest.raises(CommandError, match="cannot load"):  # not a shared object at all
                channel.command(f"load_new_config_file {tmp_path / 'in.pcap'}")
            with pytest.raises(CommandError, match="usage: load_new_config_file PATH"):
                channel.command("load_new_config_file")
            not_a_datapath = tmp_path / "other.so"
            subprocess.run(["cc", "-shared", "-fPIC", "-o", str(not_a_datapath), "-x", "c", "-"],
                           input="int other;\n", text=True, check=True)
            with pytest.raises(CommandError, match="not a p4odp datapath"):
                channel.command(f"load_new_config_file {not_a_datapath}")
            loaded = channel.command(f"load_new_config_file {programs['second']}")
            assert loaded == f"program {programs['second'].parent.parent / 'prog.p4'}\n"
            with pytest.raises(CommandError, match="this connection has a program loaded"):
                channel.command(f"load_new_config_file {programs['second']}")
            # The loaded program is its loader's: another connection changes the running one.
            with SwitchChannel(address) as other:
                assert packets(other, "first_count") > 0
                with pytest.raises(CommandError, match="another connection has a program loaded"):
                    other.command(f"load_new_config_file {programs['second']}")
                with pytest.raises(CommandError, match="this connection has no program loaded"):
                    other.command("swap_configs")
            channel.command("discard_new_config")
            # The first program forwards on, its entry in place.
            before = packets(channel, "first_count")
            assert eventually(lambda: packets(channel, "first_count") > before + 1000)
        # A loader that leaves takes its program with it.
        with SwitchChannel(address) as loader:
            loader.command(f"load_new_config_file {programs['second']}")

        def loadable() -> bool:
            with SwitchChannel(address) as channel:
                try:
                    channel.command(f"load_new_config_file {programs['second']}")
                except CommandError:
                    return False
                return True
        assert eventually(loadable)
        # A p4odp swap whose commands are refused swaps nothing.
        (tmp_path / "bad.txt").write_text("table_add fwd send 0 => 1\ntable_add nosuch send 0 => 1\n")
        swap = p4odp_swap(programs, address, tmp_path / "bad.txt")
        assert swap.returncode == 1
        assert "bad.txt:2: error:" in swap.stderr and "Traceback" not in swap.stderr
        with SwitchChannel(address) as channel:
            before = packets(channel, "first_count")
            assert eventually(lambda: packets(channel, "first_count") > before + 1000)
        stderr = stop()
    assert "dropped" not in stderr, stderr


def pipeline_config(build: Path, info_of: Path | None = None) -> p4r.ForwardingPipelineConfig:
    """The config of the program built in `build`: its P4Info (or that of `info_of`) and datapath.so."""
    info = p4info_pb2.P4Info.FromString(((info_of or build) / "p4info.bin").read_bytes())
    return p4r.ForwardingPipelineConfig(p4info=info, p4_device_config=(build / "datapath.so").read_bytes())


def set_config(controller: Controller, action: int, config: p4r.ForwardingPipelineConfig | None) -> None:
    request = p4r.SetForwardingPipelineConfigRequest(device_id=0, action=action, election_id=p4r.Uint128(low=1))
    if config is not None:
        request.config.CopyFrom(config)
    controller.stub.SetForwardingPipelineConfig(request)


def forwarded(controller: Controller, counter: str) -> int:
    entity = p4r.Entity()
    entity.counter_entry.counter_id = controller.id_of("counters", counter)
    entity.counter_entry.index.index = 0
    return controller.read(entity)[0].counter_entry.data.packet_count


def test_p4runtime_swaps_programs_keeping_or_clearing_what_controllers_wrote(programs: dict, tmp_path: Path):
    builds = programs["builds"]
    Request = p4r.SetForwardingPipelineConfigRequest
    with switch_running(programs["switch"], tmp_path, "-i", "1=null1") as address, \
            primary_controller(address) as (_, controller):
        fwd = p4r.Entity()
        fwd.table_entry.table_id = controller.id_of("tables", "fwd")
        fwd.table_entry.match.add(field_id=1).exact.value = b"\x00"
        fwd.table_entry.action.action.action_id = controller.id_of("actions", "send")
        fwd.table_entry.action.action.params.add(param_id=1, value=b"\x01")
        controller.write(update(p4r.Update.INSERT, fwd))
        assert eventually(lambda: forwarded(controller, "first_count") > 1000)

        # RECONCILE_AND_COMMIT: the second program forwards at once, with the entry written to the first.
        set_config(controller, Request.RECONCILE_AND_COMMIT, pipeline_config(builds["second"]))
        controller.info = pipeline_config(builds["second"]).p4info
        assert [e.action for e in controller.table_entries("fwd")] == [fwd.table_entry.action]
        assert eventually(lambda: forwarded(controller, "second_count") > 1000)

        # A program whose table cannot take the entry: refused, nothing changed.
        code, _ = rejected(lambda: set_config(controller, Request.RECONCILE_AND_COMMIT,
                                              pipeline_config(builds["third"])))
        assert code == grpc.StatusCode.FAILED_PRECONDITION
        # A datapath that is not the P4Info's program, a device config that is no program.
        code, _ = rejected(lambda: set_config(controller, Request.VERIFY_AND_COMMIT,
                                              pipeline_config(builds["first"], info_of=builds["second"])))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        code, _ = rejected(lambda: set_config(controller, Request.VERIFY_AND_COMMIT,
                                              p4r.ForwardingPipelineConfig(p4info=pipeline_config(builds["first"]).p4info,
                                                                           p4_device_config=b"{}")))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        before = forwarded(controller, "second_count")
        assert eventually(lambda: forwarded(controller, "second_count") > before + 1000)
        assert len(controller.table_entries("fwd")) == 1

        # VERIFY changes nothing; VERIFY_AND_SAVE of another program is not supported (the writes
        # until COMMIT would reach the running one); VERIFY_AND_COMMIT swaps it in, its state fresh.
        set_config(controller, Request.VERIFY, pipeline_config(builds["first"]))
        code, _ = rejected(lambda: set_config(controller, Request.VERIFY_AND_SAVE, pipeline_config(builds["first"])))
        assert code == grpc.StatusCode.UNIMPLEMENTED
        assert len(controller.table_entries("fwd")) == 1
        before = forwarded(controller, "second_count")
        assert eventually(lambda: forwarded(controller, "second_count") > before + 1000)
        set_config(controller, Request.VERIFY_AND_COMMIT, pipeline_config(builds["first"]))
        controller.info = pipeline_config(builds["first"]).p4info
        got = controller.stub.GetForwardingPipelineConfig(p4r.GetForwardingPipelineConfigRequest(device_id=0))
        assert got.config.p4info == controller.info
        assert controller.table_entries("fwd") == []
        assert forwarded(controller, "first_count") == 0  # its default action drops


def test_p4runtime_packet_ins_follow_its_swaps_and_another_clients(tmp_path: Path):
    first = compile_with_datapath(tmp_path / "first", digest_program("first_t", 1))
    second = compile_with_datapath(tmp_path / "second", digest_program("second_t", 2))

    def tagged(tag: int) -> bool:
        """Whether a packet-in of the program that tags with `tag` comes within 20 s (the ones
        before it are taken as fast as they come: the switch sends every frame it replays)."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            message = controller.message("packet", seconds=1)
            if message is not None and message.packet.payload[0] == tag:
                return True
        return False
    with switch_running(first / "switch", tmp_path, "--cpu-port", "7") as address, \
            primary_controller(address) as (server, controller):
        assert tagged(1)
        # Another client swaps the second program in while a request holds the server's lock:
        # the request's wait for the events thread (settle) ends at once; then the server serves
        # the second program.
        events = server.servicer.device.events
        with server.servicer.lock, SwitchChannel(address) as other:
            other.command(f"load_new_config_file {second / 'datapath.so'}")
            other.command("swap_configs")
            assert eventually(lambda: events.adopting)
            started = time.monotonic()
            events.settle()
            assert time.monotonic() - started < 1
        assert tagged(2)
        controller.info = controller.stub.GetForwardingPipelineConfig(
            p4r.GetForwardingPipelineConfigRequest(device_id=0)).config.p4info
        assert [d.preamble.name for d in controller.info.digests] == ["second_t"]
        digest = p4r.Entity()  # the new program's digest, which the old P4Info does not have
        digest.digest_entry.digest_id = controller.id_of("digests", "second_t")
        digest.digest_entry.config.max_list_size = 1
        controller.write(update(p4r.Update.INSERT, digest))
        assert controller.read(p4r.Entity(digest_entry=p4r.DigestEntry())) == [digest]
        # The server swaps the first program back in.
        set_config(controller, p4r.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT, pipeline_config(first))
        assert tagged(1)
        assert server.servicer.device.events.thread.is_alive()


def test_swap_keeping_state_writes_the_running_programs_entries_into_the_new_one(programs: dict, tmp_path: Path):
    """`p4odp swap --keep-state` reads what was written into the running program through the typed
    API and writes it into the new one before the swap; a program that cannot take it (its action
    has another name) is not swapped in, and the old one forwards on."""
    def swap(source: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "p4odp.cli", "swap", str(source), "--switch", address,
                               "--keep-state"], capture_output=True, text=True, timeout=300)

    with first_program_forwarding(programs, tmp_path) as (address, stop):
        refused = swap(programs["builds"]["third"].parent / "prog.p4")
        assert refused.returncode == 1 and "cannot keep the state" in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr
        with SwitchChannel(address) as switch:
            assert eventually(lambda: packets(switch, "first_count") > 0)
        kept = swap(programs["second_source"])
        assert kept.returncode == 0, kept.stderr
        with SwitchChannel(address) as switch:
            assert "Action entry: Ing.send - 0001" in switch.command("table_dump fwd")
            assert eventually(lambda: packets(switch, "second_count") > 0)  # the kept entry forwards
        report = port_counters(stop())
        assert report[0][0] == report[1][1]  # every frame received went out of port 1: none lost
