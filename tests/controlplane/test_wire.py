"""The binary control channel (controlplane/wire.py, runtime/core/channel_binary.c): the switch's
control-plane API called as frames on a running switch, read back through either door, refused
calls changing nothing, batches that continue, roll back, or apply with the workers held."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import pytest
from conftest import FRAME_1, FRAME_2
from one_header_switch import start_switch

from p4odp.controlplane import wire
from p4odp.controlplane.channel import ChannelError, SwitchChannel
from p4odp.controlplane.protos import p4info_pb2
from p4odp.controlplane.wire import Call, Clone, Key, Match, Rates, Wire, WireError

CLASSIFY = (Key("exact", 8), Key("ternary", 8), Key("range", 16), Key("optional", 8))
ROUTES = (Key("lpm", 32),)


@pytest.fixture
def switch(p4runtime_binary: Path, tmp_path: Path):
    """The P4Runtime tests' switch, forwarding: (its control address, a Wire to it)."""
    address = f"unix:{tmp_path / 'control.sock'}"
    process = start_switch(p4runtime_binary, tmp_path, address, (FRAME_1, FRAME_2))
    try:
        channel = SwitchChannel(address)
        yield address, Wire(channel)
        channel.close()
        assert process.poll() is None, process.stderr.read()
    finally:
        process.kill()
        process.wait()
        process.stderr.close()


def count_call(w: Wire, cell: int) -> Call:
    return Call(w.actions["Ing.count"], data=cell.to_bytes(4, "big"))


def read_entries(w: Wire, table: str, keys: tuple) -> list[tuple]:
    """The table's entries: (handle, match, call) each."""
    read = w.call(wire.entries(w.tables[table]))
    found = []
    for _ in range(read.u32()):
        handle = read.u64()
        match = read.match(keys)
        found.append((handle, match, read.call()))
    return found


def test_the_running_switch_has_the_objects_its_p4info_lists(switch):
    address, w = switch
    with SwitchChannel(address) as text:
        info = p4info_pb2.P4Info.FromString(bytes.fromhex(text.command("p4info").strip()))

    def names(*kinds: str) -> set[str]:
        return {e.preamble.name for kind in kinds for e in getattr(info, kind)}

    assert set(w.tables) == names("tables") == {"Ing.classify", "Ing.routes", "Ing.fixed"}
    assert set(w.counters) == names("counters", "direct_counters") >= {"Ing.seen", "Ing.colors", "Ing.per_route"}
    assert set(w.meters) == names("meters", "direct_meters") == {"Ing.limiter"}
    assert set(w.registers) == names("registers") == {"Ing.last"}
    assert set(w.profiles) == names("action_profiles") and set(w.value_sets) == names("value_sets")
    assert set(w.actions) == {a.preamble.name for a in info.actions if any(
        ref.id == a.preamble.id for t in info.tables for ref in t.action_refs)}


def test_entries_of_every_match_kind_read_back_through_both_doors(switch):
    address, w = switch
    classify, routes = w.tables["Ing.classify"], w.tables["Ing.routes"]
    first = Match(7, (1, (0x10, 0xF0), (5, 9), None))
    second = Match(3, (2, (0, 0), (0, 0xFFFF), 4))
    handle = w.call(wire.entry_add(classify, CLASSIFY, first, count_call(w, 1))).u64()
    w.call(wire.entry_add(classify, CLASSIFY, second, count_call(w, 2)))
    w.call(wire.entry_add(routes, ROUTES, Match(0, ((0x0A010000, 16),)),
                          Call(w.actions["Ing.route"], data=bytes([0, 0, 0, 3]))))
    with SwitchChannel(address) as text:  # an entry written by the other door
        text.command("table_add Ing.routes Ing.route 10.2.0.0/16 => 4")
        dump = text.command("table_dump Ing.classify")
    assert "Priority: 2147483640" in dump and "0x%x" % handle in dump  # simple_switch_CLI's, the smaller wins
    found = read_entries(w, "Ing.classify", CLASSIFY)
    assert [(m, c) for _, m, c in found] == [(first, count_call(w, 1)), (second, count_call(w, 2))]
    assert found[0][0] == handle
    assert [(m.fields, c.data) for _, m, c in read_entries(w, "Ing.routes", ROUTES)][1] == \
        (((0x0A020000, 16),), bytes([0, 0, 0, 4]))


def test_a_refused_call_changes_nothing_and_the_connection_keeps_working(switch):
    _, w = switch
    classify = w.tables["Ing.classify"]
    entry = Match(1, (1, (0, 0), (0, 1), None))
    w.call(wire.entry_add(classify, CLASSIFY, entry, count_call(w, 1)))
    for request, code in (
            (wire.entry_add(classify, CLASSIFY, entry, count_call(w, 2)), errno.EEXIST),
            (wire.entry_add(classify, CLASSIFY, Match(1, (1, (0x10, 0), (0, 1), None)), count_call(w, 2)),
             errno.EINVAL),  # a value bit outside its mask
            (wire.entry_add(classify, CLASSIFY, entry, Call(w.actions["Ing.route"], data=bytes(4))),
             errno.EINVAL),  # not an action of the table
            (wire.entry_add(classify, CLASSIFY, entry, Call(w.actions["Ing.count"], data=bytes(3))),
             errno.EINVAL),  # the action's data is 4 bytes
            (wire.entry_add(99, CLASSIFY, entry, count_call(w, 2)), errno.EINVAL),
            (wire.entry_delete(classify, CLASSIFY, Match(1, (9, (0, 0), (0, 1), None))), errno.ENOENT),
            (wire.default_set(w.tables["Ing.fixed"], Call(w.actions["NoAction"])), errno.EPERM),
            (wire.entry_add(classify, CLASSIFY, entry, count_call(w, 2))[:-3], errno.EINVAL),  # cut short
            (b"\x00\x63", errno.EOPNOTSUPP)):
        with pytest.raises(WireError) as refused:
            w.call(request)
        assert refused.value.code == code, request
    assert [e[1:] for e in read_entries(w, "Ing.classify", CLASSIFY)] == [(entry, count_call(w, 1))]


def test_a_frame_beyond_the_largest_closes_that_connection_alone(switch):
    address, w = switch
    with SwitchChannel(address) as other:
        other.binary()
        other.sock.sendall((1 << 30).to_bytes(4, "big"))
        other.sock.settimeout(10)
        assert other.sock.recv(1) == b""
    assert w.call(wire.entries(w.tables["Ing.classify"])).u32() == 0


def test_batches_continue_or_roll_back_whole(switch):
    _, w = switch
    routes = w.tables["Ing.routes"]

    def route(prefix: int, cell: int) -> bytes:
        return wire.entry_add(routes, ROUTES, Match(0, ((prefix << 24, 8),)),
                              Call(w.actions["Ing.route"], data=cell.to_bytes(4, "big")))

    def prefixes() -> dict[int, bytes]:
        return {m.fields[0][0] >> 24: c.data for _, m, c in read_entries(w, "Ing.routes", ROUTES)}

    w.call(route(1, 1))
    results = w.batch([route(2, 2), route(1, 9), route(3, 3)], "CONTINUE_ON_ERROR")
    assert [type(r).__name__ for r in results] == ["Reader", "WireError", "Reader"]
    assert sorted(prefixes()) == [1, 2, 3]
    # Rolled back: the entries added before the failed one are gone, those after it never ran,
    # and the modify and delete before it are undone.
    modify = wire.entry_modify(routes, ROUTES, Match(0, ((2 << 24, 8),)),
                               Call(w.actions["Ing.route"], data=bytes([0, 0, 0, 7])))
    delete = wire.entry_delete(routes, ROUTES, Match(0, ((3 << 24, 8),)))
    for atomicity in ("ROLLBACK_ON_ERROR", "DATAPLANE_ATOMIC"):
        results = w.batch([route(4, 4), modify, delete, route(1, 9), route(5, 5)], atomicity)
        assert [type(r).__name__ for r in results] == ["Reader", "Reader", "Reader", "WireError", "NoneType"]
        assert results[3].code == errno.EEXIST
        assert prefixes() == {1: bytes([0, 0, 0, 1]), 2: bytes([0, 0, 0, 2]), 3: bytes([0, 0, 0, 3])}
    assert all(isinstance(r, wire.Reader) for r in w.batch([route(6, 6), delete], "DATAPLANE_ATOMIC"))
    assert sorted(prefixes()) == [1, 2, 6]


def test_profiles_replication_and_extern_state_round_trip(switch):
    _, w = switch
    w.call(wire.mc_group_create(5))
    node = w.call(wire.mc_node_create(wire.ID_ANY, 3, [1, 7])).u32()
    w.call(wire.mc_group_set(5, [node]))
    read = w.call(wire.mc_groups())
    assert read.u32() == 1 and (read.u32(), read.u32(), read.u32(), read.u32(), read.ports()) == (5, 1, node, 3, [1, 7])
    w.call(wire.clone_set(9, Clone(group=5)))
    w.call(wire.clone_set(10, Clone(replicas=((3, 0), (4, 7)), truncate=64, class_of_service=1)))
    read = w.call(wire.clones())
    assert [(read.u32(), read.clone()) for _ in range(read.u32())] == \
        [(9, Clone(group=5)), (10, Clone(0, ((3, 0), (4, 7)), 64, 1))]
    with pytest.raises(WireError):
        w.call(wire.clone_set(11, Clone(replicas=((512, 0),))))
    seen = w.counters["Ing.seen"]
    w.call(wire.counter_write(seen, 6, 5, 50))
    read = w.call(wire.counter_read(seen, 6))
    assert (read.u64(), read.u64()) == (5, 50)
    last = w.registers["Ing.last"]
    w.call(wire.register_write(last, 3, 16, 0xBEEF))
    assert w.call(wire.register_read(last, 3)).value(16) == 0xBEEF
    limiter = w.meters["Ing.limiter"]
    assert w.call(wire.meter(limiter, 2)).rates() is None
    w.call(wire.meter_set(limiter, 2, Rates(0.5, 10, 1.5, 20)))
    assert w.call(wire.meter(limiter, 2)).rates() == Rates(0.5, 10, 1.5, 20)
    with pytest.raises(WireError):
        w.call(wire.meter_set(limiter, 2, Rates(2.0, 10, 1.0, 20)))  # committed above peak
    assert w.call(wire.meter(limiter, 2)).rates() == Rates(0.5, 10, 1.5, 20)


def test_a_listening_connection_stays_text(switch):
    address, _ = switch
    with SwitchChannel(address) as listening:
        listening.listen("digest")
        with pytest.raises(Exception, match="stays text"):
            listening.binary()


def test_the_switch_outlives_a_client_gone_mid_frame(switch):
    address, w = switch
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(address.removeprefix("unix:"))
    sock.sendall(b"binary\n" + (100).to_bytes(4, "big") + b"\x00\x06")
    sock.close()
    assert w.call(wire.entries(w.tables["Ing.routes"])).u32() == 0
    with pytest.raises(ChannelError):
        SwitchChannel(address + "-not-there", timeout=1)
