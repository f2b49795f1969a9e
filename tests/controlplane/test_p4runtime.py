"""The P4Runtime server (`p4odp runtime`) driven by the p4runtime package's own gRPC stubs
against a running switch: entries of every match kind take effect on the packets the switch
forwards, reads return what was written (canonical), counters and registers read and write,
arbitration decides who writes, and every bad request gets the specified status and changes
nothing.  The switch replays two frames forever; the table actions count them per cell."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from google.rpc import code_pb2
from one_header_switch import eventually, start_switch
from p4runtime_client import Controller, entry, rejected, update

from p4odp.controlplane.channel import SwitchChannel
from p4odp.controlplane.protos import p4runtime_pb2 as p4r


@pytest.fixture
def primary(p4runtime_target: str):
    controller = Controller(p4runtime_target, election_id=1)
    assert controller.arbitrate().arbitration.status.code == code_pb2.OK
    yield controller
    controller.close()


def classify_entry(controller: Controller, cell: int = 1, **changes) -> p4r.Entity:
    """FRAME_1's entry of table classify, counting into `cell`."""
    matches = {"kind": ("hdr.h.kind", "exact", b"\x01"), "b": ("hdr.h.b", "ternary", b"\x10", b"\xf0"),
               "c": ("hdr.h.c", "range", b"\x01", b"\x0a"), "d": ("hdr.h.d", "optional", b"\x09")}
    matches.update(changes)
    return entry(controller, "classify", *[m for m in matches.values() if m is not None], action="count",
                 params=(cell.to_bytes(4, "big"),), priority=10)


def grows(controller: Controller, cell: int) -> bool:
    start = controller.cell(cell)
    return eventually(lambda: controller.cell(cell) > start + 10)


def test_every_match_kind_takes_effect_and_reads_back_canonical(primary: Controller):
    primary.write(update(p4r.Update.INSERT, classify_entry(primary, 1)),
                  update(p4r.Update.INSERT, entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x01\x00\x00", 16),
                                                  action="route", params=(b"\x00\x00\x00\x02",))))
    assert grows(primary, 1) and grows(primary, 2)
    assert primary.cell(3) == 0
    [classified] = primary.table_entries("classify")
    assert classified.priority == 10
    assert [(m.WhichOneof("field_match_type")) for m in classified.match] == ["exact", "ternary", "range", "optional"]
    assert classified.action.action.params[0].value == b"\x01"  # canonical: the shortest string
    [routed] = primary.table_entries("routes")
    assert routed.match[0].lpm.value == b"\x0a\x01\x00\x00" and routed.match[0].lpm.prefix_len == 16


def test_padded_values_are_taken_and_keys_compare_canonical(primary: Controller):
    padded = classify_entry(primary, 1, kind=("hdr.h.kind", "exact", b"\x00\x00\x01"))
    primary.write(update(p4r.Update.INSERT, padded))
    code, details = rejected(lambda: primary.write(update(p4r.Update.INSERT, classify_entry(primary, 2))))
    assert code == grpc.StatusCode.UNKNOWN and details[0][0] == code_pb2.ALREADY_EXISTS


def test_modify_delete_and_the_default_entry(primary: Controller):
    primary.write(update(p4r.Update.INSERT, classify_entry(primary, 1)))
    assert grows(primary, 1)
    primary.write(update(p4r.Update.MODIFY, classify_entry(primary, 4)))
    assert grows(primary, 4)
    assert primary.table_entries("classify")[0].action.action.params[0].value == b"\x04"
    primary.write(update(p4r.Update.DELETE, classify_entry(primary, 4)))
    assert primary.table_entries("classify") == []
    # The default entry: the program's, then a controller's, then the program's again.
    wanted = entry(primary, "routes", default=True)
    [program_default] = primary.read(wanted)
    assert program_default.table_entry.action.action.action_id == primary.id_of("actions", "no_route")
    primary.write(update(p4r.Update.MODIFY, entry(primary, "routes", action="route", params=(b"\x05",),
                                                  default=True)))
    assert grows(primary, 5)
    assert primary.read(wanted)[0].table_entry.action.action.action_id == primary.id_of("actions", "route")
    primary.write(update(p4r.Update.MODIFY, entry(primary, "routes", default=True)))
    assert primary.read(wanted)[0] == program_default


def test_counters_registers_and_direct_counters(primary: Controller):
    counter = p4r.Entity()
    counter.counter_entry.counter_id = primary.id_of("counters", "seen")
    assert len(primary.read(counter)) == 8  # no index: every cell
    counter.counter_entry.index.index = 6
    counter.counter_entry.data.packet_count = 1000
    primary.write(update(p4r.Update.MODIFY, counter))
    assert primary.cell(6) == 1000
    register = p4r.Entity()
    register.register_entry.register_id = primary.id_of("registers", "last")
    register.register_entry.index.index = 2
    register.register_entry.data.bitstring = b"\x01\x02"
    primary.write(update(p4r.Update.MODIFY, register))
    assert primary.read(register)[0].register_entry.data.bitstring == b"\x01\x02"
    register.register_entry.index.index = 0  # what the program writes: FRAME_1's or FRAME_2's c
    assert eventually(lambda: primary.read(register)[0].register_entry.data.bitstring in (b"\x05", b"\x01\xf4"))
    routes = entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x09\x00\x00", 16), action="route",
                   params=(b"\x03",))
    primary.write(update(p4r.Update.INSERT, routes))
    routes.table_entry.counter_data.SetInParent()  # ask for the direct counter
    assert eventually(lambda: primary.read(routes)[0].table_entry.counter_data.byte_count > 600)
    direct = p4r.Entity()
    direct.direct_counter_entry.table_entry.CopyFrom(entry(primary, "routes", ("hdr.h.addr", "lpm",
                                                                              b"\x0a\x09\x00\x00", 16)).table_entry)
    assert primary.read(direct)[0].direct_counter_entry.data.packet_count > 10
    # Wildcards: register id 0 (every register's cells), table id 0 (every table's direct counters).
    assert len(primary.read(p4r.Entity(register_entry=p4r.RegisterEntry()))) == 4
    every = p4r.Entity(direct_counter_entry=p4r.DirectCounterEntry())
    assert [e.direct_counter_entry.table_entry.table_id for e in primary.read(every)] == [routes.table_entry.table_id]


def test_bad_updates_get_their_status_and_change_nothing(primary: Controller):
    primary.write(update(p4r.Update.INSERT, classify_entry(primary, 1)))
    unknown_table = classify_entry(primary, 1)
    unknown_table.table_entry.table_id = 12345
    wide_key = classify_entry(primary, 1, kind=("hdr.h.kind", "exact", b"\x01\x00"))
    no_priority = classify_entry(primary, 2, kind=("hdr.h.kind", "exact", b"\x02"))
    no_priority.table_entry.priority = 0
    zero_mask = classify_entry(primary, 2, b=("hdr.h.b", "ternary", b"\x00", b"\x00"))
    outside_mask = classify_entry(primary, 2, b=("hdr.h.b", "ternary", b"\x11", b"\x10"))
    lpm_bits = entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x01\x00\x01", 16), action="route",
                     params=(b"\x02",))
    missing_param = entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x01\x00\x00", 16), action="route")
    wrong_action = entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x01\x00\x00", 16), action="count",
                         params=(b"\x02",))
    const_default = entry(primary, "fixed", action="count", params=(b"\x01",), default=True)
    cases = [
        (p4r.Update.INSERT, unknown_table, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, wide_key, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, classify_entry(primary, 3), code_pb2.ALREADY_EXISTS),
        (p4r.Update.DELETE, classify_entry(primary, 1, d=None), code_pb2.NOT_FOUND),
        (p4r.Update.MODIFY, classify_entry(primary, 1, d=None), code_pb2.NOT_FOUND),
        (p4r.Update.INSERT, no_priority, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, zero_mask, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, outside_mask, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, lpm_bits, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, missing_param, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, wrong_action, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.MODIFY, const_default, code_pb2.PERMISSION_DENIED),
        (p4r.Update.INSERT, entry(primary, "routes", action="route", params=(b"\x01",), default=True),
         code_pb2.INVALID_ARGUMENT),
    ]
    for kind, entity, expected in cases:
        code, details = rejected(lambda: primary.write(update(kind, entity)))
        assert (code, [d[0] for d in details]) == (grpc.StatusCode.UNKNOWN, [expected]), (entity, details)
    assert len(primary.table_entries("classify")) == 1 and primary.table_entries("routes") == []
    assert grows(primary, 1)


def test_a_batch_applies_its_good_updates_and_reports_each(primary: Controller):
    good = entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x01\x00\x00", 16), action="route",
                 params=(b"\x02",))
    bad = entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x01\x00\x00", 40), action="route", params=(b"\x02",))
    code, details = rejected(lambda: primary.write(update(p4r.Update.INSERT, bad), update(p4r.Update.INSERT, good)))
    assert code == grpc.StatusCode.UNKNOWN
    assert [d[0] for d in details] == [code_pb2.INVALID_ARGUMENT, code_pb2.OK]
    assert len(primary.table_entries("routes")) == 1


def test_arbitration_between_two_controllers(p4runtime_target: str):
    first, second = Controller(p4runtime_target), Controller(p4runtime_target)
    try:
        assert first.arbitrate(5).arbitration.status.code == code_pb2.OK
        assert second.arbitrate(3).arbitration.status.code == code_pb2.ALREADY_EXISTS  # a backup
        code, _ = rejected(lambda: second.write(update(p4r.Update.INSERT, classify_entry(second))))
        assert code == grpc.StatusCode.PERMISSION_DENIED
        answer = second.arbitrate(7)  # the highest id: the new primary; both are told
        assert answer.arbitration.status.code == code_pb2.OK and answer.arbitration.election_id.low == 7
        told = first.message().arbitration
        assert told.status.code == code_pb2.ALREADY_EXISTS and told.election_id.low == 7
        code, _ = rejected(lambda: first.write(update(p4r.Update.INSERT, classify_entry(first))))
        assert code == grpc.StatusCode.PERMISSION_DENIED
        second.write(update(p4r.Update.INSERT, classify_entry(second)))
        second.close()  # the primary leaves: no primary until one comes with an id as high
        assert first.message().arbitration.status.code == code_pb2.NOT_FOUND
        assert first.arbitrate(6).arbitration.status.code == code_pb2.NOT_FOUND
        assert first.arbitrate(8).arbitration.status.code == code_pb2.OK
        first.write(update(p4r.Update.DELETE, classify_entry(first)))
    finally:
        first.close()


def test_arbitration_refusals_end_the_stream(p4runtime_target: str, primary: Controller):
    for election_id, device_id, expected in ((1, 0, grpc.StatusCode.INVALID_ARGUMENT),  # the primary's id
                                             (2, 9, grpc.StatusCode.NOT_FOUND)):  # no such device
        other = Controller(p4runtime_target)
        with pytest.raises(grpc.RpcError) as failure:
            other.arbitrate(election_id, device_id=device_id)
        assert failure.value.code() == expected
        other.close()
    code, _ = rejected(lambda: primary.write(update(p4r.Update.INSERT, classify_entry(primary)), election_id=2))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    request = p4r.WriteRequest(device_id=3, election_id=p4r.Uint128(low=1))
    code, _ = rejected(lambda: primary.stub.Write(request))
    assert code == grpc.StatusCode.NOT_FOUND


def test_pipeline_config(primary: Controller, p4runtime_binary: Path):
    reply = primary.stub.Capabilities(p4r.CapabilitiesRequest())
    assert reply.p4runtime_api_version.startswith("1.")
    primary.write(update(p4r.Update.INSERT, classify_entry(primary)))
    config = p4r.ForwardingPipelineConfig(p4info=primary.info)
    config.cookie.cookie = 42

    def set_config(action, given=config) -> None:
        request = p4r.SetForwardingPipelineConfigRequest(device_id=0, action=action,
                                                         election_id=p4r.Uint128(low=1))
        if given is not None:
            request.config.CopyFrom(given)
        primary.stub.SetForwardingPipelineConfig(request)

    Request = p4r.SetForwardingPipelineConfigRequest
    set_config(Request.RECONCILE_AND_COMMIT)  # the same program: entries kept
    assert len(primary.table_entries("classify")) == 1
    got = primary.stub.GetForwardingPipelineConfig(p4r.GetForwardingPipelineConfigRequest(device_id=0)).config
    assert got.cookie.cookie == 42 and got.p4info == primary.info
    set_config(Request.VERIFY_AND_COMMIT)  # forwarding state cleared
    assert primary.table_entries("classify") == []
    assert primary.cell(1) == 0
    assert rejected(lambda: set_config(Request.COMMIT, None))[0] == grpc.StatusCode.NOT_FOUND
    primary.write(update(p4r.Update.INSERT, classify_entry(primary)))
    set_config(Request.VERIFY)  # a dry run: nothing changes
    assert len(primary.table_entries("classify")) == 1
    set_config(Request.VERIFY_AND_SAVE)
    primary.write(update(p4r.Update.DELETE, classify_entry(primary)))
    set_config(Request.COMMIT, None)  # the writes since the save stay
    assert primary.table_entries("classify") == []
    other = p4r.ForwardingPipelineConfig(p4info=primary.info)
    other.p4info.tables[0].preamble.name = "Ing.another"
    assert rejected(lambda: set_config(Request.VERIFY, other))[0] == grpc.StatusCode.INVALID_ARGUMENT  # no datapath.so
    assert rejected(lambda: set_config(Request.VERIFY, None))[0] == grpc.StatusCode.INVALID_ARGUMENT


def test_p4info_served_is_what_compile_writes(primary: Controller, p4runtime_binary: Path, tmp_path: Path):
    files = tmp_path / "p4info.bin"
    source = p4runtime_binary.parent.parent / "p4runtime.p4"
    subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(source), "--emit", "p4info",
                    "--p4runtime-files", str(files)], check=True)
    assert primary.info.SerializeToString(deterministic=True) == files.read_bytes()


def test_a_large_batch_is_applied_whole(primary: Controller):
    """Not a timing test (bench/p4runtime_inserts.py times 10,000 inserts)."""
    updates = [update(p4r.Update.INSERT, entry(primary, "classify", ("hdr.h.kind", "exact", bytes([i % 200 + 50])),
                                                   ("hdr.h.b", "ternary", bytes([i // 200]), b"\xff"),
                                                   action="count", params=(b"\x07",), priority=1))
               for i in range(1000)]
    primary.write(*updates)
    assert len(primary.table_entries("classify")) == 1000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_runtime_command(p4runtime_binary: Path, tmp_path: Path):
    address = f"unix:{tmp_path / 'control.sock'}"
    gone = subprocess.run([sys.executable, "-m", "p4odp.cli", "runtime", "--switch", address],
                          capture_output=True, text=True, timeout=60)
    assert gone.returncode == 1 and "cannot connect" in gone.stderr and "Traceback" not in gone.stderr
    process = start_switch(p4runtime_binary, tmp_path, address)
    target = f"127.0.0.1:{free_port()}"
    server = subprocess.Popen([sys.executable, "-m", "p4odp.cli", "runtime", "--switch", address, "--grpc", target],
                              stderr=subprocess.PIPE, text=True)
    try:
        assert "served at" in server.stderr.readline()
        controller = Controller(target)
        assert controller.info.tables[0].preamble.name == "Ing.classify"
        controller.close()
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 0
    finally:
        for running in (server, process):
            running.kill()
            running.wait()
            running.stderr.close()


def messages(digest_list: p4r.DigestList) -> set:
    return {data.SerializeToString(deterministic=True) for data in digest_list.data}


def digest_entry(controller: Controller, **config) -> p4r.Entity:
    entity = p4r.Entity()
    entity.digest_entry.digest_id = controller.id_of("digests", "learn_t")
    for name, value in config.items():
        setattr(entity.digest_entry.config, name, value)
    return entity


def test_digest_lists_go_to_the_primary_as_configured(primary: Controller):
    assert primary.message("digest", seconds=0.5) is None  # not configured: none
    primary.write(update(p4r.Update.INSERT, digest_entry(primary, max_timeout_ns=1000000, max_list_size=2,
                                                        ack_timeout_ns=10 ** 10)))
    [configured] = primary.read(digest_entry(primary))
    assert configured.digest_entry.config.max_list_size == 2
    first = primary.message("digest").digest
    assert first.digest_id == primary.id_of("digests", "learn_t") and first.timestamp > 0
    members = sorted(tuple(m.bitstring for m in data.struct.members) for data in first.data)
    assert set(members) <= {(b"\x01", b"\x0a\x01\x02\x03"), (b"\x02", b"\x0a\x09\x00\x01")}
    # Until the list is acknowledged, the messages in it are not sent again.
    second = primary.message("digest", seconds=1)
    if second is not None:  # the other frame's message, if the first list held only one
        assert len(first.data) == 1 and not messages(second.digest) & messages(first)
    assert primary.message("digest", seconds=0.5) is None
    ack = p4r.StreamMessageRequest()
    ack.digest_ack.digest_id, ack.digest_ack.list_id = first.digest_id, first.list_id
    primary.requests.put(ack)
    again = primary.message("digest").digest
    assert again.list_id > first.list_id and messages(again) & messages(first)
    code, details = rejected(lambda: primary.write(update(p4r.Update.INSERT, digest_entry(primary))))
    assert details[0][0] == code_pb2.ALREADY_EXISTS
    unknown = digest_entry(primary)
    unknown.digest_entry.digest_id = 7
    assert rejected(lambda: primary.write(update(p4r.Update.MODIFY, unknown)))[1][0][0] == code_pb2.NOT_FOUND
    primary.write(update(p4r.Update.DELETE, digest_entry(primary)))
    digest_id = primary.id_of("digests", "learn_t")
    assert rejected(lambda: primary.read(digest_entry(primary)))[1] == [(code_pb2.NOT_FOUND,
                                                                          f"digest {digest_id} is not configured")]


def test_meters_colour_packets_as_configured(primary: Controller):
    colors = p4r.Entity()
    colors.counter_entry.counter_id = primary.id_of("counters", "colors")

    def count(color: int) -> int:
        colors.counter_entry.index.index = color
        return primary.read(colors)[0].counter_entry.data.packet_count

    def growing(color: int) -> bool:
        start = count(color)
        return eventually(lambda: count(color) > start + 10)
    assert growing(0)  # unconfigured: green
    meter = p4r.Entity()
    meter.meter_entry.meter_id = primary.id_of("meters", "limiter")
    meter.meter_entry.index.index = 0
    meter.meter_entry.config.cir, meter.meter_entry.config.cburst = 1, 1
    meter.meter_entry.config.pir, meter.meter_entry.config.pburst = 2, 1
    primary.write(update(p4r.Update.MODIFY, meter))
    assert growing(2)  # red: far above 2 packets a second
    [read] = primary.read(meter)
    assert read.meter_entry.config == meter.meter_entry.config
    meter.meter_entry.index.index = 1
    assert not primary.read(meter)[0].meter_entry.HasField("config")  # a cell never set: the default
    meter.meter_entry.index.index = 0
    meter.meter_entry.config.cir = 5  # above the peak rate
    assert rejected(lambda: primary.write(update(p4r.Update.MODIFY, meter)))[1][0][0] == code_pb2.INVALID_ARGUMENT
    meter.meter_entry.ClearField("config")  # back to the default
    primary.write(update(p4r.Update.MODIFY, meter))
    assert growing(0) and not primary.read(meter)[0].meter_entry.HasField("config")


def test_a_batch_touching_one_entry_twice_applies_in_order(primary: Controller):
    primary.write(update(p4r.Update.INSERT, classify_entry(primary, 1)),
                  update(p4r.Update.MODIFY, classify_entry(primary, 4)),
                  update(p4r.Update.DELETE, classify_entry(primary, 4)))
    assert primary.table_entries("classify") == []
    primary.write(update(p4r.Update.INSERT, classify_entry(primary, 1)))
    primary.write(update(p4r.Update.DELETE, classify_entry(primary, 1)),
                  update(p4r.Update.INSERT, classify_entry(primary, 2)))
    [kept] = primary.table_entries("classify")
    assert kept.action.action.params[0].value == b"\x02"
    assert grows(primary, 2)


def test_what_any_door_wrote_reads_back_through_p4runtime(primary: Controller, tmp_path: Path):
    """The switch's state is the truth: entries, default entries, meter configs, registers,
    multicast groups and clone sessions written as simple_switch_CLI commands are read back by a
    controller, canonical, as if it had written them."""
    with SwitchChannel(f"unix:{tmp_path / 'control.sock'}") as text:
        for line in ("table_add classify count 1 0x10&&&0xf0 1->10 9 => 1 5", "table_add routes route 10.3.0.0/16 => 7",
                     "table_set_default routes route 9", "register_write last 2 77",
                     "meter_set_rates limiter 1 0.5:10 1.5:20", "mc_mgrp_create 4", "mc_node_create 3 6 2",
                     "mc_node_associate 4 0", "mirroring_add 3 5"):
            text.command(line)
    classified = classify_entry(primary, 1).table_entry
    classified.priority = 2**31 - 1 - 5  # simple_switch_CLI's 5, the smaller wins: P4Runtime's, the larger wins
    classified.action.action.params[0].value = b"\x01"  # canonical
    assert primary.table_entries("classify") == [classified]
    routed = entry(primary, "routes", ("hdr.h.addr", "lpm", b"\x0a\x03\x00\x00", 16), action="route",
                   params=(b"\x07",)).table_entry
    assert primary.table_entries("routes") == [routed]
    default = p4r.Entity(table_entry=p4r.TableEntry(table_id=primary.id_of("tables", "routes"), is_default_action=True))
    assert primary.read(default)[0].table_entry == entry(primary, "routes", action="route", params=(b"\x09",),
                                                         default=True).table_entry
    register = p4r.Entity(register_entry=p4r.RegisterEntry(register_id=primary.id_of("registers", "last"),
                                                           index=p4r.Index(index=2)))
    assert primary.read(register)[0].register_entry.data.bitstring == b"\x4d"
    meter = p4r.Entity(meter_entry=p4r.MeterEntry(meter_id=primary.id_of("meters", "limiter"),
                                                  index=p4r.Index(index=1)))
    assert primary.read(meter)[0].meter_entry.config == p4r.MeterConfig(cir=500000, cburst=10, pir=1500000, pburst=20)
    replication = p4r.Entity()
    replication.packet_replication_engine_entry.multicast_group_entry.SetInParent()
    [group] = primary.read(replication)
    assert [(r.egress_port, r.instance) for r in group.packet_replication_engine_entry.multicast_group_entry.replicas] \
        == [(2, 3), (6, 3)]
    replication.packet_replication_engine_entry.clone_session_entry.SetInParent()
    [session] = primary.read(replication)
    clone = session.packet_replication_engine_entry.clone_session_entry
    assert clone.session_id == 3 and [(r.egress_port, r.instance) for r in clone.replicas] == [(5, 0)]


def test_what_a_controller_keeps_with_an_entry_reads_back(primary: Controller):
    """controller_metadata and metadata are the switch's to keep (whoever reads), the modify's own
    after a modify, gone with the entry; a write that rolls back leaves them as they were."""
    entity = classify_entry(primary)
    entity.table_entry.controller_metadata, entity.table_entry.metadata = 7, b"\x00kept"
    primary.write(update(p4r.Update.INSERT, entity))
    [read] = primary.table_entries("classify")
    assert (read.controller_metadata, read.metadata) == (7, b"\x00kept")
    entity.table_entry.controller_metadata, entity.table_entry.metadata = 0, b"other"
    primary.write(update(p4r.Update.MODIFY, entity))
    [read] = primary.table_entries("classify")
    assert (read.controller_metadata, read.metadata) == (0, b"other")
    request = p4r.WriteRequest(device_id=0, atomicity=p4r.WriteRequest.ROLLBACK_ON_ERROR)
    request.election_id.low = primary.election_id
    changed = p4r.Entity()
    changed.CopyFrom(entity)
    changed.table_entry.controller_metadata = 99
    request.updates.extend([update(p4r.Update.MODIFY, changed), update(p4r.Update.INSERT, entity)])  # exists
    code, _ = rejected(lambda: primary.stub.Write(request))
    [read] = primary.table_entries("classify")
    assert (read.controller_metadata, read.metadata) == (0, b"other")
    entity.table_entry.metadata = bytes(5000)
    code, details = rejected(lambda: primary.write(update(p4r.Update.MODIFY, entity)))
    assert details[0][0] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    primary.write(update(p4r.Update.DELETE, entity))
    entity.table_entry.metadata, entity.table_entry.controller_metadata = b"", 0
    primary.write(update(p4r.Update.INSERT, entity))
    [read] = primary.table_entries("classify")
    assert (read.controller_metadata, read.metadata) == (0, b"")
