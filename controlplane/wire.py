"""The binary control channel (runtime/include/p4odp_wire.h): the switch's typed control-plane API
(runtime/include/p4odp_control.h) called over a control-channel connection.

    w = Wire(SwitchChannel(address))
    table, keys = w.tables["MyIngress.ipv4_lpm"], (Key("lpm", 32),)
    handle = w.call(entry_add(table, keys, Match(0, ((0x0a000000, 8),)), Call(action_id, data=b"..."))).u64()

Requests are built by the functions below from the switch's indexes (Wire's dicts, by name) and
a table's key fields (Key: match kind and width, in order); `Wire.call` runs one and gives its
results' Reader, `Wire.batch` runs several as one batch.  A refused call raises WireError with the
switch's errno; it changed nothing.
"""

from __future__ import annotations

import errno
import os
import struct
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Optional

from p4odp.controlplane.channel import ChannelError, SwitchChannel
from p4odp.runtime.limits import PORT_NUMBERS, WIRE_BATCH, WIRE_OPS

__all__ = ["Wire", "WireError", "Key", "Match", "Call", "Reader", "MEMBER", "GROUP", "ID_ANY", "OPS", "BATCH",
           "entry_add", "entry_modify", "entry_delete", "entry_find", "entry", "entries", "table_clear", "default_set",
           "entry_ttl", "entry_timer", "timers", "entry_note_set", "entry_note", "notes",
           "default_reset", "default", "member_add", "member_modify", "member_delete", "members", "group_add",
           "group_set", "group_delete", "groups", "mc_group_create", "mc_group_destroy", "mc_group_set",
           "mc_groups", "mc_nodes", "mc_node_create", "mc_node_update", "mc_node_destroy", "clone_set", "clone_delete",
           "clones", "counter_read", "counter_write", "counter_reset", "meter_set", "meter_set_all", "meter",
           "register_read", "register_write", "register_reset", "value_set_add", "value_set_remove",
           "value_set_clear", "value_sets", "packet_out", "Rates", "Clone"]

OPS = WIRE_OPS
BATCH = WIRE_BATCH
MEMBER, GROUP = 0xFFFE, 0xFFFD  # an indirect entry's action: P4ODP_ACTION_MEMBER, P4ODP_ACTION_GROUP
ID_ANY = 0xFFFFFFFF  # P4ODP_ID_ANY: the switch picks the lowest id free


class WireError(Exception):
    """A call the switch refused: its errno (ENOENT, EEXIST, ...); it changed nothing."""

    def __init__(self, code: int) -> None:
        super().__init__(os.strerror(code))
        self.code = code


@dataclass(frozen=True)
class Key:
    """A table's key field as the switch matches it."""
    kind: str  # exact, lpm, ternary, range, optional
    width: int


@dataclass(frozen=True)
class Match:
    """An entry's key: its priority (the larger wins; 0 where priorities do not count) and per key
    field: exact, a value; lpm, (value, prefix length); ternary, (value, mask); range, (low, high);
    optional, a value or None (don't care)."""
    priority: int
    fields: tuple


@dataclass(frozen=True)
class Call:
    """What an entry runs: the switch's action id and its parameters' bytes; or MEMBER or GROUP
    and the member's or group's id in `ref`."""
    action: int
    ref: int = 0
    data: bytes = b""


@dataclass(frozen=True)
class Rates:
    """A meter cell's rates, in units (packets or bytes) per microsecond, and bursts."""
    committed_rate: float
    committed_burst: int
    peak_rate: float
    peak_burst: int


@dataclass(frozen=True)
class Clone:
    """A clone session: its copies to every replica of multicast group `group`, or (0) to its
    `replicas`, (port, rid) each; each copy cut to `truncate` bytes (0: whole)."""
    group: int = 0
    replicas: tuple = ()
    truncate: int = 0
    class_of_service: int = 0


def _nbytes(width: int) -> int:
    return (width + 7) // 8


def _value(value: int, width: int) -> bytes:
    return value.to_bytes(_nbytes(width), "big")


def _u16(v: int) -> bytes:
    return v.to_bytes(2, "big")


def _u32(v: int) -> bytes:
    return (v & 0xFFFFFFFF).to_bytes(4, "big")


def _u64(v: int) -> bytes:
    return v.to_bytes(8, "big")


def _request(op: str, *parts: bytes) -> bytes:
    return _u16(OPS[op]) + b"".join(parts)


def _match(keys: tuple, match: Match) -> bytes:
    out = [_u32(match.priority)]
    for key, field in zip(keys, match.fields, strict=True):
        if key.kind == "lpm":
            out += [_u16(field[1]), _value(field[0], key.width)]
        elif key.kind in ("ternary", "range"):
            out += [_value(field[0], key.width), _value(field[1], key.width)]
        elif key.kind == "optional":
            out += [bytes([field is None]), _value(field or 0, key.width)]
        else:
            out.append(_value(field, key.width))
    return b"".join(out)


def _call(call: Call) -> bytes:
    return _u32(call.action) + _u32(call.ref) + _u16(len(call.data)) + call.data


def _ports(ports) -> bytes:
    bits = bytearray(PORT_NUMBERS // 8)
    for port in ports:
        bits[port // 8] |= 1 << port % 8
    return bytes(bits)


def _rates(rates: Optional[Rates]) -> bytes:
    if rates is None:
        return b"\0"
    return b"\1" + struct.pack(">dQdQ", rates.committed_rate, rates.committed_burst, rates.peak_rate,
                                rates.peak_burst)


class Reader:
    """The results of a call, read in order."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def bytes(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise ChannelError("the switch answered a call out of protocol")
        self.at += n
        return self.data[self.at - n:self.at]

    def u8(self) -> int:
        return self.bytes(1)[0]

    def u16(self) -> int:
        return int.from_bytes(self.bytes(2), "big")

    def u32(self) -> int:
        return int.from_bytes(self.bytes(4), "big")

    def i32(self) -> int:
        return int.from_bytes(self.bytes(4), "big", signed=True)

    def u64(self) -> int:
        return int.from_bytes(self.bytes(8), "big")

    def value(self, width: int) -> int:
        return int.from_bytes(self.bytes(_nbytes(width)), "big")

    def name(self) -> str:
        return self.bytes(self.u16()).decode()

    def match(self, keys: tuple) -> Match:
        priority = self.i32()
        fields = []
        for key in keys:
            if key.kind == "lpm":
                length = self.u16()
                fields.append((self.value(key.width), length))
            elif key.kind in ("ternary", "range"):
                fields.append((self.value(key.width), self.value(key.width)))
            elif key.kind == "optional":
                wildcard = self.u8()
                value = self.value(key.width)
                fields.append(None if wildcard else value)
            else:
                fields.append(self.value(key.width))
        return Match(priority, tuple(fields))

    def call(self) -> Call:
        action, ref = self.u32(), self.u32()
        return Call(action, ref, self.bytes(self.u16()))

    def note(self) -> tuple[int, bytes]:
        """What a controller keeps with an entry: (its number, its bytes)."""
        cookie = self.u64()
        return cookie, self.bytes(self.u32())

    def ports(self) -> list[int]:
        bits = self.bytes(PORT_NUMBERS // 8)
        return [port for port in range(PORT_NUMBERS) if bits[port // 8] >> port % 8 & 1]

    def rates(self) -> Optional[Rates]:
        if not self.u8():
            return None
        return Rates(*struct.unpack(">dQdQ", self.bytes(32)))

    def clone(self) -> Clone:
        group, truncate, class_of_service = self.u32(), self.u32(), self.u32()
        replicas = tuple((self.u32(), self.u32()) for _ in range(self.u32()))
        return Clone(group, replicas, truncate, class_of_service)


# ---- Requests -----------------------------------------------------------------------------

def entry_add(table: int, keys: tuple, match: Match, call: Call) -> bytes:
    return _request("ENTRY_ADD", _u32(table), _match(keys, match), _call(call))


def entry_modify(table: int, keys: tuple, match: Match, call: Call) -> bytes:
    return _request("ENTRY_MODIFY", _u32(table), _match(keys, match), _call(call))


def entry_delete(table: int, keys: tuple, match: Match) -> bytes:
    return _request("ENTRY_DELETE", _u32(table), _match(keys, match))


def entry_find(table: int, keys: tuple, match: Match) -> bytes:
    return _request("ENTRY_FIND", _u32(table), _match(keys, match))


def entry(table: int, handle: int) -> bytes:
    """Results: match, call."""
    return _request("ENTRY", _u32(table), _u64(handle))


def entries(table: int) -> bytes:
    """Results: Reader.u32() entries, each u64 handle, match, call."""
    return _request("ENTRIES", _u32(table))


def table_clear(table: int) -> bytes:
    return _request("TABLE_CLEAR", _u32(table))


def default_set(table: int, call: Call) -> bytes:
    return _request("DEFAULT_SET", _u32(table), _call(call))


def default_reset(table: int) -> bytes:
    return _request("DEFAULT_RESET", _u32(table))


def default(table: int) -> bytes:
    """Results: call, then Reader.u8() 1 when it is the program's default entry."""
    return _request("DEFAULT", _u32(table))


def entry_ttl(table: int, keys: tuple, match: Match, ttl_ns: int) -> bytes:
    """The entry's idle timeout (0: none), in a table with support_timeout."""
    return _request("ENTRY_TTL", _u32(table), _match(keys, match), _u64(ttl_ns))


def entry_timer(table: int, handle: int) -> bytes:
    """Results: Reader.u64() its idle timeout, then how long ago it was last hit, in ns."""
    return _request("ENTRY_TIMER", _u32(table), _u64(handle))


def timers(table: int) -> bytes:
    """Results: Reader.u32() entries, each u64 handle, u64 idle timeout, u64 ns since its last hit."""
    return _request("TIMERS", _u32(table))


def entry_note_set(table: int, keys: tuple, match: Match, cookie: int, data: bytes) -> bytes:
    """What a controller keeps with the entry: a number and bytes (0 and none: nothing)."""
    return _request("ENTRY_NOTE_SET", _u32(table), _match(keys, match), _u64(cookie), _u32(len(data)), data)


def entry_note(table: int, handle: int) -> bytes:
    """Results: Reader.note()."""
    return _request("ENTRY_NOTE", _u32(table), _u64(handle))


def notes(table: int) -> bytes:
    """Results: Reader.u32() entries with a note, each u64 handle, Reader.note()."""
    return _request("NOTES", _u32(table))


def member_add(profile: int, member: int, call: Call) -> bytes:
    return _request("MEMBER_ADD", _u32(profile), _u32(member), _call(call))


def member_modify(profile: int, member: int, call: Call) -> bytes:
    return _request("MEMBER_MODIFY", _u32(profile), _u32(member), _call(call))


def member_delete(profile: int, member: int) -> bytes:
    return _request("MEMBER_DELETE", _u32(profile), _u32(member))


def members(profile: int) -> bytes:
    return _request("MEMBERS", _u32(profile))


def group_add(profile: int, group: int, max_size: int) -> bytes:
    return _request("GROUP_ADD", _u32(profile), _u32(group), _u32(max_size))


def group_set(profile: int, group: int, member_ids) -> bytes:
    member_ids = list(member_ids)
    return _request("GROUP_SET", _u32(profile), _u32(group), _u32(len(member_ids)), *map(_u32, member_ids))


def group_delete(profile: int, group: int) -> bytes:
    return _request("GROUP_DELETE", _u32(profile), _u32(group))


def groups(profile: int) -> bytes:
    return _request("GROUPS", _u32(profile))


def mc_group_create(group: int) -> bytes:
    return _request("MC_GROUP_CREATE", _u32(group))


def mc_group_destroy(group: int) -> bytes:
    return _request("MC_GROUP_DESTROY", _u32(group))


def mc_group_set(group: int, nodes) -> bytes:
    nodes = list(nodes)
    return _request("MC_GROUP_SET", _u32(group), _u32(len(nodes)), *map(_u32, nodes))


def mc_groups() -> bytes:
    return _request("MC_GROUPS")


def mc_nodes() -> bytes:
    """Results: Reader.u32() nodes, each u32 node, u32 rid, ports, u32 group (0: none)."""
    return _request("MC_NODES")


def mc_node_create(node: int, rid: int, ports) -> bytes:
    return _request("MC_NODE_CREATE", _u32(node), _u32(rid), _ports(ports))


def mc_node_update(node: int, ports) -> bytes:
    return _request("MC_NODE_UPDATE", _u32(node), _ports(ports))


def mc_node_destroy(node: int) -> bytes:
    return _request("MC_NODE_DESTROY", _u32(node))


def clone_set(session: int, clone: Clone) -> bytes:
    return _request("CLONE_SET", _u32(session), _u32(clone.group), _u32(clone.truncate), _u32(clone.class_of_service),
                    _u32(len(clone.replicas)), *(_u32(port) + _u32(rid) for port, rid in clone.replicas))


def clone_delete(session: int) -> bytes:
    return _request("CLONE_DELETE", _u32(session))


def clones() -> bytes:
    return _request("CLONES")


def counter_read(counter: int, index: int) -> bytes:
    return _request("COUNTER_READ", _u32(counter), _u64(index))


def counter_write(counter: int, index: int, packets: int, byte_count: int) -> bytes:
    return _request("COUNTER_WRITE", _u32(counter), _u64(index), _u64(packets), _u64(byte_count))


def counter_reset(counter: int) -> bytes:
    return _request("COUNTER_RESET", _u32(counter))


def meter_set(meter: int, index: int, rates: Optional[Rates]) -> bytes:
    return _request("METER_SET", _u32(meter), _u64(index), _rates(rates))


def meter_set_all(meter: int, rates: Optional[Rates]) -> bytes:
    return _request("METER_SET_ALL", _u32(meter), _rates(rates))


def meter(meter_index: int, index: int) -> bytes:
    return _request("METER", _u32(meter_index), _u64(index))


def register_read(register: int, index: int) -> bytes:
    return _request("REGISTER_READ", _u32(register), _u32(index))


def register_write(register: int, index: int, width: int, value: int) -> bytes:
    return _request("REGISTER_WRITE", _u32(register), _u32(index), _value(value, width))


def register_reset(register: int) -> bytes:
    return _request("REGISTER_RESET", _u32(register))


def value_set_add(value_set: int, width: int, value: int) -> bytes:
    return _request("VALUE_SET_ADD", _u32(value_set), _value(value, width))


def value_set_remove(value_set: int, width: int, value: int) -> bytes:
    return _request("VALUE_SET_REMOVE", _u32(value_set), _value(value, width))


def value_set_clear(value_set: int) -> bytes:
    return _request("VALUE_SET_CLEAR", _u32(value_set))


def value_sets(value_set: int) -> bytes:
    return _request("VALUE_SETS", _u32(value_set))


def packet_out(packet: bytes) -> bytes:
    """A packet into the program as received on the CPU port."""
    return _request("PACKET_OUT", packet)


class Wire:
    """The switch behind a control-channel connection, called through the binary protocol: the
    program's objects by name (their indexes, which the requests take) and the calls."""

    def __init__(self, channel: SwitchChannel) -> None:
        channel.binary()
        self.channel = channel
        objects = self.call(_request("OBJECTS"))

        def names() -> dict[str, int]:
            return {objects.name(): index for index in range(objects.u32())}

        self.tables, self.profiles, self.counters = names(), names(), names()
        self.meters, self.registers, self.value_sets = names(), names(), names()
        self.actions = {}  # name -> the switch's action id
        for _ in range(objects.u32()):
            action_id = objects.u32()
            self.actions[objects.name()] = action_id

    def text_command(self, line: str) -> str:
        """One simple_switch_CLI or channel command line on this connection, which carries lines for
        it and frames again after it (CommandError when the switch refuses it)."""
        with self.text() as channel:
            return channel.command(line)

    @contextmanager
    def text(self) -> Iterator[SwitchChannel]:
        """This connection carrying lines (the SwitchChannel), and frames again after."""
        _answer(self.channel.calls([_request("TEXT")])[0])
        try:
            yield self.channel
        finally:
            self.channel.binary()

    def call(self, request: bytes) -> Reader:
        """Run one request; its results, or WireError."""
        return _answer(self.channel.calls([request])[0])

    def calls(self, requests: list[bytes]) -> list[Reader | WireError]:
        """Run requests one after the other, each whatever the others' outcome (not as a batch:
        a packet may see any part of them); each one's results or WireError."""
        out: list[Reader | WireError] = []
        for body in self.channel.calls(requests):
            try:
                out.append(_answer(body))
            except WireError as err:
                out.append(err)
        return out

    def batch(self, requests: list[bytes], atomicity: str = "CONTINUE_ON_ERROR") -> list[Reader | WireError | None]:
        """Run requests as one batch of `atomicity` (BATCH's names); each one's results or
        WireError, None for those not run (a batch rolled back at an earlier failure)."""
        return self.batches([(requests, atomicity)])[0]

    def batches(self, batches: list[tuple[list[bytes], str]]) -> list[list[Reader | WireError | None]]:
        """Run several batches, (requests, atomicity) each, one after the other (sent without
        waiting for each answer); each one's results as `batch` gives them."""
        # A batch of one call is that call, whole or nothing alike: sent as it is.
        bodies = [requests[0] if len(requests) == 1 else
                  _request("BATCH", bytes([BATCH[atomicity]]), _u32(len(requests)),
                           *(_u32(len(r)) + r for r in requests))
                  for requests, atomicity in batches]
        out: list[list[Reader | WireError | None]] = []
        for (requests, _), body in zip(batches, self.channel.calls(bodies)):
            if len(requests) == 1:
                try:
                    out.append([_answer(body)])
                except WireError as err:
                    out.append([err])
                continue
            status = int.from_bytes(body[:4], "big", signed=True)
            results: list[Reader | WireError | None] = []
            at = 4
            while at < len(body):  # each op's answer: u32 length, i32 status, results (as _answer reads it)
                end = at + 4 + int.from_bytes(body[at:at + 4], "big")
                if end > len(body) or end < at + 8:
                    raise ChannelError("the switch answered a call out of protocol")
                op_status = int.from_bytes(body[at + 4:at + 8], "big", signed=True)
                results.append(_error(op_status) if op_status else Reader(body[at + 8:end]))
                at = end
            if status and not any(isinstance(r, WireError) for r in results):
                raise WireError(-status)  # the batch itself was refused
            out.append(results + [None] * (len(requests) - len(results)))
        return out


def _answer(body: bytes) -> Reader:
    reader = Reader(body)
    status = reader.i32()
    if status:
        raise _error(status)
    return reader


def _error(status: int) -> WireError:
    """The refusal of a call answered `status` (a negative errno)."""
    return WireError(-status if -status in errno.errorcode else errno.EIO)
