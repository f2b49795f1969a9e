"""A switch as a P4Runtime server sees it: the pipeline it runs (its P4Info) and the switch's
control-plane API behind the control channel (wire.py), through which every entity is written
and read.

Updates are validated here first as the P4Runtime specification prescribes, then become calls of
the switch's API (entries by table index, keys and action data as bytes), a batch per update, or
one batch for a whole ROLLBACK_ON_ERROR or DATAPLANE_ATOMIC write: each update (each write) is
applied whole or not at all.  The switch's state is the truth: reads come from it, whichever door
wrote it (P4Runtime, `p4odp cli`, `--commands`), in the canonical byte strings of the
specification (section "Bytestrings").  The server keeps only what is its own: the digest
configs.  Entries idle past their TTL are notified by the switch's events (idle_timeouts.py).
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

import grpc

from p4odp.controlplane import wire
from p4odp.controlplane.bytestrings import canonical, shown
from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel
from p4odp.controlplane.digests import DigestLists
from p4odp.controlplane.events import SwitchEvents
from p4odp.controlplane.idle_timeouts import IdleTimeouts
from p4odp.controlplane.packets import PacketIO, PacketOutError
from p4odp.controlplane.pipeline import MATCH_KINDS, Pipeline, TableInfo
from p4odp.controlplane.protos import p4info_pb2, p4runtime_pb2
from p4odp.controlplane.register_cells import BadCell, CellLayout, UnsupportedCell
from p4odp.controlplane.wire import Call, Match, Wire, WireError
from p4odp.runtime.limits import (CLONE_REPLICAS, GROUP_NODES, MC_GROUPS, MC_NODES, MIRROR_SESSIONS, NOTE_BYTES,
                                  PORT_NUMBERS)

__all__ = ["Device", "P4RuntimeError"]

Code = grpc.StatusCode
MatchField = p4info_pb2.MatchField
DEFAULT_ONLY, TABLE_ONLY = p4info_pb2.ActionRef.DEFAULT_ONLY, p4info_pb2.ActionRef.TABLE_ONLY
Update = p4runtime_pb2.Update
WriteRequest = p4runtime_pb2.WriteRequest

# Replication ids (v1model's egress_rid) of 16 bits, as BMv2's; the other limits of the switch's
# packet replication engine are the runtime's (groups 1..4095 of 256 nodes, ports of 9 bits,
# mirror sessions 0..32767).
INSTANCES = 1 << 16

_ATOMICITY = {WriteRequest.CONTINUE_ON_ERROR: "CONTINUE_ON_ERROR", WriteRequest.ROLLBACK_ON_ERROR: "ROLLBACK_ON_ERROR",
              WriteRequest.DATAPLANE_ATOMIC: "DATAPLANE_ATOMIC"}
# What a refusal of the switch's API means to a controller, by errno.
_CODES = {errno.EEXIST: Code.ALREADY_EXISTS, errno.ENOENT: Code.NOT_FOUND, errno.ENOSPC: Code.RESOURCE_EXHAUSTED,
          errno.EBUSY: Code.FAILED_PRECONDITION, errno.EPERM: Code.PERMISSION_DENIED,
          errno.EINVAL: Code.INVALID_ARGUMENT, errno.ENODATA: Code.FAILED_PRECONDITION}


class P4RuntimeError(Exception):
    """An update or request refused: the status code and message the client gets."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _number(value: bytes, width: int, what) -> int:
    """A byte string's number, which must fit in `width` bits (longer strings with leading
    zeros are taken, as the specification requires); `what` names it in an error (a text, or a
    function that makes it: the hot paths make none unless it is needed)."""
    number = int.from_bytes(value, "big")
    if not value or number >> width:
        what = what() if callable(what) else what
        if not value:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: an empty byte string")
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: {shown(value)} does not fit in {width} bits")
    return number


@dataclass
class _Planned:
    """An update as calls of the switch's API, applied together; what a refusal of one says
    (`messages()`: errno -> text, made only for a refusal); and what the server records of its own
    when they succeed (a digest's config)."""
    index: int
    requests: list
    messages: Callable[[], dict]
    then: Optional[Callable[[], None]] = None

    def refused(self, code: int) -> P4RuntimeError:
        """How the switch's refusal `code` (an errno) of one of its calls reads, with the code of _CODES."""
        message = self.messages().get(code)
        if message is None:
            return P4RuntimeError(Code.INTERNAL, f"the switch refused the update: {errno.errorcode.get(code, code)}")
        return P4RuntimeError(_CODES.get(code, Code.INTERNAL), message)


class Device:
    """The switch behind a channel, with the pipeline it runs."""

    def __init__(self, switch: str, device_id: int, deliver, load: Optional[str] = None,
                 events: Optional[SwitchEvents] = None,
                 on_unexpected_swap: Optional[Callable[[], list]] = None) -> None:
        """The switch at control channel address `switch`; `deliver(StreamMessageResponse)` sends
        a digest list or a packet-in to the primary controller (False: there is none).  With
        `load`, the program of that datapath.so, which this device's channel loads beside the
        one running (swap_in swaps it in).  With `events`, another device's, which go to that
        device until this one takes over; else its own, whose thread calls `on_unexpected_swap`
        at another client's swap (SwitchEvents).  ChannelError when the switch cannot be
        reached, CommandError when it cannot load the program."""
        self.channel = SwitchChannel(switch, timeout=None)
        self.program = self.channel.program
        try:
            if load is not None:
                self.program = self.channel.load_program(load)
            self.device_id = device_id
            self.p4info = p4info_pb2.P4Info.FromString(bytes.fromhex(self.channel.command("p4info").strip()))
            self.pipeline = Pipeline.of(self.p4info)
            self.wire = Wire(self.channel)  # the connection carries calls from here on
            names = {a.preamble.name: a for a in self.pipeline.actions.values()}
            # the switch's action id -> the P4Info action
            self._p4info_actions = {i: names[n] for n, i in self.wire.actions.items() if n in names}
        except (ChannelError, CommandError):
            self.channel.close()
            raise
        self.digests = DigestLists(self.p4info, deliver)
        self.packets = PacketIO(self.p4info, deliver)
        self.idle_timeouts = IdleTimeouts(switch, self.pipeline, deliver, _notified_entry)
        self._pending: list[_Planned] = []  # updates planned and not yet sent (CONTINUE_ON_ERROR)
        self._results: list = []
        self._batched = False  # planning one batch for a whole write
        self._digests_written = False  # the write has a digest update
        self._planned_nodes: set[int] = set()  # multicast nodes the write's updates create
        # In a write applied as one batch, planned from the switch's state before it: what its
        # updates before do to multicast groups (id -> their nodes, None: deleted) and clone
        # sessions (id -> whether it is there), which the switch does not have yet.
        self._planned_groups: dict[int, Optional[list[int]]] = {}
        self._planned_sessions: dict[int, bool] = {}
        self._switch_tables: dict[str, tuple] = {}  # table name -> _switch_table
        # action id -> (the switch's action id, its name, (param id, width, bytes, name) of each parameter)
        self._action_specs: dict[int, tuple] = {}
        if events is not None:
            self.events = events
            return
        try:
            self.events = SwitchEvents(switch, self.listeners, on_unexpected_swap)
        except ChannelError:
            self.channel.close()
            raise

    @property
    def listeners(self) -> list:
        """What takes the switch's events for this device's program."""
        return [self.digests, self.packets, self.idle_timeouts]

    def close(self) -> None:
        self.events.stop()
        self.idle_timeouts.close()
        self.channel.close()

    # --- the switch's names of the pipeline's entities ------------------------------------

    def _index(self, kind: str, name: str) -> int:
        """The switch's index of its `kind` (Wire's dict) named `name`, as P4Info names it."""
        index = getattr(self.wire, kind).get(name)
        if index is None:
            raise P4RuntimeError(Code.INTERNAL, f"the switch has no {name}, which its P4Info lists")
        return index

    def _switch_action(self, action_id: int) -> int:
        return self._index("actions", self.pipeline.actions[action_id].preamble.name)

    def _switch_table(self, table: TableInfo) -> tuple[int, tuple]:
        """The switch's index of the table, and its key fields as the switch matches them."""
        found = self._switch_tables.get(table.name)
        if found is None:
            found = self._switch_tables[table.name] = (self._index("tables", table.name), table.keys)
        return found

    # --- the forwarding state -------------------------------------------------------------

    def reset(self) -> None:
        """Every table back to the program's entries and default actions, every counter and
        register to 0, no member, group, value, multicast group or clone session: the
        forwarding state of a freshly committed pipeline."""
        requests = []
        for table in self.pipeline.tables.values():
            index = self._switch_table(table)[0]
            if not table.is_const:
                requests.append(wire.table_clear(index))
            if not table.message.const_default_action_id:
                requests.append(wire.default_reset(index))
        # Once no entry names them: groups, then members.
        for entity in self._read_groups(p4runtime_pb2.ActionProfileGroup()):
            group = entity.action_profile_group
            requests.append(wire.group_delete(self._profile(group.action_profile_id)[1], group.group_id))
        for entity in self._read_members(p4runtime_pb2.ActionProfileMember()):
            member = entity.action_profile_member
            requests.append(wire.member_delete(self._profile(member.action_profile_id)[1], member.member_id))
        counters = [*self.pipeline.counters.values(), *self.pipeline.direct_counters.values()]
        requests += [wire.counter_reset(self._index("counters", c.preamble.name)) for c in counters]
        requests += [wire.register_reset(self._index("registers", r.preamble.name))
                     for r in self.pipeline.registers.values()]
        requests += [wire.meter_set_all(self._index("meters", m.preamble.name), None)
                     for m in [*self.pipeline.meters.values(), *self.pipeline.direct_meters.values()]]
        requests += [wire.value_set_clear(self._index("value_sets", v.preamble.name))
                     for v in self.pipeline.value_sets.values()]
        failed = [r for r in self.wire.batch(requests) if isinstance(r, WireError)]
        self.digests.clear()
        self.reset_replication()
        if failed:
            raise P4RuntimeError(Code.INTERNAL, f"the switch could not reset its state: {failed[0]}")

    def reset_replication(self) -> None:
        """No multicast group and no clone session: the switch's, whatever program it runs."""
        requests = [wire.mc_group_destroy(group) for group in self._mc_groups()]
        requests += [wire.mc_node_destroy(node) for node in self._mc_nodes()]
        requests += [wire.clone_delete(session.session_id) for session in self._clone_sessions()]
        failed = [r for r in self.wire.batch(requests) if isinstance(r, WireError)]
        if failed:
            raise P4RuntimeError(Code.INTERNAL, f"the switch could not reset its replication: {failed[0]}")

    def forwarding_state(self) -> list:
        """The program's forwarding state as the switch has it, as the updates that write it
        again (RECONCILE_AND_COMMIT keeps it in another program): action profile members and
        groups, table entries, default entries set by a controller, meter configs, value sets,
        digest configs.  Counter and register values are not in it, nor the switch's
        replication, which another program shares (swap_in)."""
        updates = []

        def add(kind: int, **entity) -> None:
            updates.append(Update(type=kind, entity=p4runtime_pb2.Entity(**entity)))

        for entity in self._read_members(p4runtime_pb2.ActionProfileMember()):
            add(Update.INSERT, action_profile_member=entity.action_profile_member)
        for entity in self._read_groups(p4runtime_pb2.ActionProfileGroup()):
            add(Update.INSERT, action_profile_group=entity.action_profile_group)
        for entity in self._read_table_entries(p4runtime_pb2.TableEntry()):
            if not entity.table_entry.is_const:
                add(Update.INSERT, table_entry=entity.table_entry)
        for table in self.pipeline.tables.values():
            entry, programs = self._default_entry(table)
            if not programs and not table.profile_id:
                add(Update.MODIFY, table_entry=entry)
        for entity in self._read_meters(p4runtime_pb2.MeterEntry()):
            if entity.meter_entry.HasField("config"):
                add(Update.MODIFY, meter_entry=entity.meter_entry)
        for entity in self._read_direct_meters(p4runtime_pb2.DirectMeterEntry()):
            if entity.direct_meter_entry.HasField("config"):
                add(Update.MODIFY, direct_meter_entry=entity.direct_meter_entry)
        for entity in self._read_value_sets(p4runtime_pb2.ValueSetEntry()):
            if entity.value_set_entry.members:
                add(Update.MODIFY, value_set_entry=entity.value_set_entry)
        for entry in self.digests.entries():
            add(Update.INSERT, digest_entry=entry)
        return updates

    def swap_in(self, other: "Device") -> None:
        """Swap this device's program, loaded, in for `other`'s, whose events it shares: it takes
        them from the switch's program_swapped event on; other is closed.  CommandError when the
        switch refuses (nothing changed)."""
        self.events.expect_swap(self.listeners)
        try:
            self.wire.text_command("swap_configs")
        except BaseException:  # refused, or the switch gone: no swap, no event
            self.events.withdraw_swap()
            raise
        self.events.settle()  # the new listeners have taken over and the switch knows what they want
        other.channel.close()

    def discard(self) -> None:
        """Drop this device's program, loaded and not swapped in (closing its channel drops it
        too, once the switch sees the connection gone: this does it at once)."""
        try:
            self.wire.text_command("discard_new_config")
        except (ChannelError, CommandError):
            pass  # gone with the connection
        self.channel.close()

    # --- Write ----------------------------------------------------------------------------

    def write(self, updates, atomicity: int = WriteRequest.CONTINUE_ON_ERROR) -> list[Optional[P4RuntimeError]]:
        """Apply `updates` in order; for each, None or why it was refused.  CONTINUE_ON_ERROR:
        each update whole or not at all, whatever the others' outcome (sent without waiting for
        each answer, but for an update that reads the switch: it waits for those before it).
        ROLLBACK_ON_ERROR: all of them or none (a refused one's error, the others ABORTED);
        DATAPLANE_ATOMIC: so too, and no packet sees a part of them."""
        if atomicity not in _ATOMICITY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"unknown atomicity {atomicity}")
        self._results = [None] * len(updates)
        self._digests_written = False
        self._batched = atomicity != WriteRequest.CONTINUE_ON_ERROR
        self._planned_nodes, self._planned_groups, self._planned_sessions = set(), {}, {}
        planned: list[_Planned] = []
        for index, update in enumerate(updates):
            try:
                planned.append(self._plan(index, update))
            except P4RuntimeError as err:
                self._results[index] = err
            if not self._batched:
                self._pending += planned
                planned = []
        if self._batched:
            self._write_whole(planned, _ATOMICITY[atomicity])
        else:
            self._flush()
        self._batched = False
        if self._digests_written:
            self.events.settle()  # the digests configured are sent for the packets from now on
        return self._results

    def _flush(self) -> None:
        """Send the updates planned and not yet sent, each whole or not at all: those of one call
        together as one batch of independent calls, those of several calls each as a batch that
        rolls back, in order."""
        pending, self._pending = self._pending, []
        units: list[tuple[list[_Planned], str]] = []  # (updates, atomicity), in order
        for p in pending:
            if not p.requests:
                continue
            if len(p.requests) == 1 and units and units[-1][1] == "CONTINUE_ON_ERROR":
                units[-1][0].append(p)
            else:
                units.append(([p], "CONTINUE_ON_ERROR" if len(p.requests) == 1 else "ROLLBACK_ON_ERROR"))
        outcomes = self.wire.batches([([r for p in updates for r in p.requests], atomicity)
                                      for updates, atomicity in units]) if units else []
        refused: dict[int, WireError] = {}
        for (updates, _), outcome in zip(units, outcomes):
            at = 0
            for p in updates:
                failed = next((r for r in outcome[at:at + len(p.requests)] if isinstance(r, WireError)), None)
                at += len(p.requests)
                if failed is not None:
                    refused[id(p)] = failed
        for p in pending:
            if id(p) in refused:
                self._results[p.index] = p.refused(refused[id(p)].code)
            elif p.then is not None:
                p.then()

    def _read_switch(self) -> None:
        """Before planning an update from what the switch has: the updates before it applied
        (not in a write applied as one batch, whose updates are planned from the state before it)."""
        if not self._batched:
            self._flush()

    def _write_whole(self, planned: list[_Planned], atomicity: str) -> None:
        """A write as one batch: every update, or (at a refused update, or one refused here) none."""
        if any(self._results):
            failed = next(i for i, r in enumerate(self._results) if r)
            self._abort_others(failed)
            return
        requests = [r for p in planned for r in p.requests]
        outcome = self.wire.batch(requests, atomicity) if requests else []
        at = 0
        for p in planned:
            refused = next((r for r in outcome[at:at + len(p.requests)] if isinstance(r, WireError)), None)
            at += len(p.requests)
            if refused is not None:
                self._results[p.index] = p.refused(refused.code)
                self._abort_others(p.index)
                return
        for p in planned:
            if p.then is not None:
                p.then()

    def _abort_others(self, failed: int) -> None:
        for i, result in enumerate(self._results):
            if i != failed and result is None:
                self._results[i] = P4RuntimeError(Code.ABORTED, f"not applied: update {failed} of the batch "
                                                                 "was refused, and it is applied whole or not at all")

    def _plan(self, index: int, update) -> _Planned:
        if update.type == Update.UNSPECIFIED:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "the update's type is not set")
        if update.type not in (Update.INSERT, Update.MODIFY, Update.DELETE):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"unknown update type {update.type}")
        kind = update.entity.WhichOneof("entity")
        if kind is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "the update has no entity")
        self._digests_written |= kind == "digest_entry"
        if kind in _WRITTEN:
            return getattr(self, _WRITTEN[kind])(index, update.type, getattr(update.entity, kind))
        raise P4RuntimeError(Code.UNIMPLEMENTED, f"writing a {kind} is not supported yet")

    # --- table entries --------------------------------------------------------------------

    def _table(self, table_id: int) -> TableInfo:
        table = self.pipeline.tables.get(table_id)
        if table is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no table has id {table_id}")
        return table

    def _plan_table_entry(self, index: int, kind: int, entry) -> _Planned:
        table = self._table(entry.table_id)
        if entry.is_const:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "is_const is set: only the program makes const entries")
        if entry.HasField("time_since_last_hit"):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "time_since_last_hit is read, not written")
        ttl_ns, default = entry.idle_timeout_ns, entry.is_default_action
        if ttl_ns and not table.idle_timeout:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no idle timeout")
        if ttl_ns and default:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "a default entry has no idle timeout")
        if default and table.profile_id:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has an action profile: its default "
                                                         "entry cannot be changed")
        if default:
            return self._plan_default_entry(index, kind, table, entry)
        if table.is_const:
            raise P4RuntimeError(Code.PERMISSION_DENIED, f"table {table.name} is const")
        if not table.fields:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no key: only its default "
                                                         "entry can be written")
        match = _match(table, entry)
        switch_table, keys = self._switch_table(table)
        # Its idle timeout and what the controller keeps with it, which an insert gives and a modify
        # gives anew (0 and none: nothing).
        ttl = [wire.entry_ttl(switch_table, keys, match, ttl_ns)] \
            if table.idle_timeout and (ttl_ns or kind == Update.MODIFY) else []
        cookie, metadata = entry.controller_metadata, entry.metadata
        if kind != Update.DELETE and (cookie or metadata or kind == Update.MODIFY):
            if len(metadata) > NOTE_BYTES:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"metadata of {len(metadata)} bytes: the switch keeps "
                                                             f"{NOTE_BYTES} at most")
            ttl.append(wire.entry_note_set(switch_table, keys, match, cookie, metadata))
        if kind == Update.INSERT:
            if not entry.HasField("action"):
                raise P4RuntimeError(Code.INVALID_ARGUMENT, "an inserted entry needs an action")
            call, no_reference = self._entry_call(table, entry)
            return _Planned(index, [wire.entry_add(switch_table, keys, match, call), *ttl], lambda: {
                errno.EEXIST: f"table {table.name} has an entry with this key", errno.ENOENT: no_reference,
                errno.ENOSPC: f"table {table.name} is full", errno.ENODATA: f"{no_reference}: it is empty"})

        def missing() -> dict:
            return {errno.ENOENT: f"table {table.name} has no entry with this key"}
        if kind == Update.DELETE:
            return _Planned(index, [wire.entry_delete(switch_table, keys, match)], missing)
        if not entry.HasField("action"):  # a modify without an action changes the direct resources only
            if not (entry.HasField("counter_data") and table.direct_counter_id):
                return _Planned(index, ttl or [wire.entry_find(switch_table, keys, match)], missing)
            planned = self._plan_direct_counter_of(index, table, match, entry.counter_data)
            planned.requests += ttl
            return planned
        call, no_reference = self._entry_call(table, entry)
        if not table.profile_id:
            return _Planned(index, [wire.entry_modify(switch_table, keys, match, call), *ttl], missing)
        return _Planned(index, [wire.entry_modify(switch_table, keys, match, call), *ttl], lambda: {
            errno.ENOENT: f"table {table.name} has no entry with this key, or {no_reference}",
            errno.ENODATA: f"{no_reference}: it is empty"})

    def _entry_call(self, table: TableInfo, entry) -> tuple[Call, str]:
        """What an entry with entry.action runs, as the switch takes it, and how a missing member or
        group reads."""
        kind = entry.action.WhichOneof("type")
        if not table.profile_id:
            return self._action_call(table, entry.action, default=False), ""
        if kind not in ("action_profile_member_id", "action_profile_group_id"):
            raise P4RuntimeError(Code.INVALID_ARGUMENT if kind == "action" else Code.UNIMPLEMENTED,
                                 f"table {table.name} has an action profile: its entries name a member or a group")
        reference = getattr(entry.action, kind)
        member = kind == "action_profile_member_id"
        what = "member" if member else "group"
        return Call(wire.MEMBER if member else wire.GROUP, reference), \
            f"the action profile of table {table.name} has no {what} {reference}"

    def _plan_default_entry(self, index: int, kind: int, table: TableInfo, entry) -> _Planned:
        if kind != Update.MODIFY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "a default entry can only be modified")
        if entry.match or entry.priority:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "a default entry has no key and no priority")
        if table.message.const_default_action_id:
            raise P4RuntimeError(Code.PERMISSION_DENIED, f"the default action of table {table.name} is const")
        switch_table = self._switch_table(table)[0]

        def messages() -> dict:
            return {errno.EPERM: f"the default action of table {table.name} is const"}
        if not entry.HasField("action"):  # back to the program's default
            return _Planned(index, [wire.default_reset(switch_table)], messages)
        return _Planned(index, [wire.default_set(switch_table, self._action_call(table, entry.action, default=True))],
                        messages)

    def _action_call(self, table: TableInfo, table_action, default: bool) -> Call:
        if table_action.WhichOneof("type") != "action":
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} takes an action, not an action "
                                                         "profile's member or group")
        return self._call(table.owner, table.actions, table_action.action, default)

    def _call(self, owner: str, allowed: dict, given, default: bool) -> Call:
        """Action `given` (of those `allowed`: id -> scope) and its parameters, as the switch takes it."""
        action_id = given.action_id
        spec = self._action_specs.get(action_id)
        scope = allowed.get(action_id)
        if spec is None or scope is None:
            if action_id not in self.pipeline.actions or scope is None:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{owner} has no action of id {action_id}")
            info = self.pipeline.actions[action_id]
            spec = self._action_specs[action_id] = (
                self._switch_action(action_id), info.preamble.name,
                [(param.id, param.bitwidth, (param.bitwidth + 7) // 8, param.name) for param in info.params])
        switch_action, name, params = spec
        if scope == DEFAULT_ONLY and not default or scope == TABLE_ONLY and default:
            where = "the default action" if default else "an entry's action"
            raise P4RuntimeError(Code.PERMISSION_DENIED, f"action {name} cannot be {where} of {owner}")
        given_params = given.params
        data = bytearray()
        if len(given_params) == len(params):  # the common case: each once, in P4Info's order
            for param, (param_id, width, nbytes, param_name) in zip(given_params, params):
                if param.param_id != param_id:
                    break
                value = param.value
                number = int.from_bytes(value, "big")  # _number's checks, inline
                if not value or number >> width:
                    _number(value, width, f"parameter {param_name}")
                data += number.to_bytes(nbytes, "big")
            else:
                return Call(switch_action, data=bytes(data))
        values = {}
        for param in given_params:
            if param.param_id in values:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"parameter {param.param_id} is given twice")
            values[param.param_id] = param.value
        data = bytearray()
        for param_id, width, nbytes, param_name in params:
            if param_id not in values:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"action {name}: parameter {param_name} is missing")
            data += _number(values.pop(param_id), width, lambda: f"parameter {param_name}").to_bytes(nbytes, "big")
        if values:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"action {name} has no parameter {next(iter(values))}")
        return Call(switch_action, data=bytes(data))

    def _p4runtime_action(self, call: Call) -> Optional[p4runtime_pb2.TableAction]:
        """A switch's entry action as P4Runtime reads it, canonical; None for no action."""
        out = p4runtime_pb2.TableAction()
        if call.action == wire.MEMBER:
            out.action_profile_member_id = call.ref
            return out
        if call.action == wire.GROUP:
            out.action_profile_group_id = call.ref
            return out
        info = self._p4info_actions.get(call.action)
        if info is None:
            return None
        out.action.action_id = info.preamble.id
        at = 0
        for param in info.params:
            n = (param.bitwidth + 7) // 8
            out.action.params.add(param_id=param.id, value=canonical(int.from_bytes(call.data[at:at + n], "big")))
            at += n
        return out

    def _table_entries(self, table: TableInfo, elapsed: bool = False) -> list[tuple[int, p4runtime_pb2.TableEntry]]:
        """The table's entries as the switch has them: (handle, the entry as P4Runtime reads it),
        with `elapsed` their time since the last hit."""
        switch_table, keys = self._switch_table(table)
        # One round trip: the entries, what controllers keep with them, and their timers.
        answers = self.wire.calls([wire.entries(switch_table), wire.notes(switch_table),
                                   *([wire.timers(switch_table)] if table.idle_timeout else [])])
        if any(isinstance(answer, WireError) for answer in answers):
            raise P4RuntimeError(Code.INTERNAL, f"the switch could not read table {table.name}")
        read, notes = answers[0], {answers[1].u64(): answers[1].note() for _ in range(answers[1].u32())}
        timers = {} if len(answers) < 3 else \
            {answers[2].u64(): (answers[2].u64(), answers[2].u64()) for _ in range(answers[2].u32())}
        found = []
        for _ in range(read.u32()):
            handle, match, call = read.u64(), read.match(keys), read.call()
            entry = p4runtime_pb2.TableEntry(table_id=table.message.preamble.id,
                                             priority=match.priority if table.needs_priority else 0,
                                             is_const=table.is_const)
            entry.match.extend(_p4runtime_match(table, match))
            action = self._p4runtime_action(call)
            if action is not None:
                entry.action.CopyFrom(action)
            if handle in notes:
                entry.controller_metadata, entry.metadata = notes[handle]
            if handle in timers:
                entry.idle_timeout_ns = timers[handle][0]
                if elapsed:
                    entry.time_since_last_hit.elapsed_ns = timers[handle][1]
            found.append((handle, entry))
        return found

    def _default_entry(self, table: TableInfo) -> tuple[p4runtime_pb2.TableEntry, bool]:
        """The table's default entry as the switch has it, and whether it is the program's."""
        read = self.wire.call(wire.default(self._switch_table(table)[0]))
        entry = p4runtime_pb2.TableEntry(table_id=table.message.preamble.id, is_default_action=True)
        action = self._p4runtime_action(read.call())
        if action is not None:
            entry.action.CopyFrom(action)
        return entry, bool(read.u8())

    def _handle(self, table: TableInfo, entry) -> int:
        """The switch's handle of `entry`'s key in `table` (for its direct counter or meter)."""
        return self._handle_of(table, _match(table, entry))

    def _handle_of(self, table: TableInfo, match: Match) -> int:
        self._read_switch()
        try:
            return self.wire.call(wire.entry_find(*self._switch_table(table), match)).u64()
        except WireError:
            raise P4RuntimeError(Code.NOT_FOUND, f"table {table.name} has no entry with this key") from None

    # --- meters ----------------------------------------------------------------------------

    def _plan_meter(self, index: int, kind: int, meter_entry) -> _Planned:
        meter, cell = self._cell("meter", self.pipeline.meters, meter_entry.meter_id, kind, meter_entry)
        rates = _rates(meter_entry) if meter_entry.HasField("config") else None  # none: every packet green
        return _Planned(index, [wire.meter_set(self._index("meters", meter.preamble.name), cell, rates)],
                        dict)

    def _plan_direct_meter(self, index: int, kind: int, direct_entry) -> _Planned:
        table, handle, name = self._direct_cell("meter", kind, direct_entry.table_entry)
        rates = _rates(direct_entry) if direct_entry.HasField("config") else None
        return _Planned(index, [wire.meter_set(self._index("meters", name), handle, rates)],
                        lambda: {errno.ENOENT: f"table {table.name} has no entry with this key"})

    def _meter_config(self, meter_name: str, cell: int) -> Optional[p4runtime_pb2.MeterConfig]:
        """A meter cell's config as P4Runtime reads it (rates per second); None for no rates (the
        default: every packet green)."""
        rates = self.wire.call(wire.meter(self._index("meters", meter_name), cell)).rates()
        if rates is None:
            return None
        return p4runtime_pb2.MeterConfig(cir=round(rates.committed_rate * 1e6), cburst=rates.committed_burst,
                                         pir=round(rates.peak_rate * 1e6), pburst=rates.peak_burst)

    def _read_meters(self, wanted) -> Iterator:
        meters = [self.pipeline.meters.get(wanted.meter_id)] if wanted.meter_id else list(self.pipeline.meters.values())
        if meters == [None]:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no meter has id {wanted.meter_id}")
        for meter in meters:
            cells = [_index(wanted.index.index, meter.size, f"meter {meter.preamble.name}")] \
                if wanted.HasField("index") else range(meter.size)
            for cell in cells:
                found = p4runtime_pb2.MeterEntry(meter_id=meter.preamble.id, index=p4runtime_pb2.Index(index=cell))
                config = self._meter_config(meter.preamble.name, cell)
                if config is not None:  # the default config (every packet green) is left unset
                    found.config.CopyFrom(config)
                yield p4runtime_pb2.Entity(meter_entry=found)

    def _read_direct_meters(self, wanted) -> Iterator:
        for table, entries in self._direct_reads("meter", wanted.table_entry):
            name = self.pipeline.direct_meters[table.direct_meter_id].preamble.name
            for handle, entry in entries:
                found = p4runtime_pb2.DirectMeterEntry()
                found.table_entry.CopyFrom(entry)
                config = self._meter_config(name, handle)
                if config is not None:
                    found.config.CopyFrom(config)
                yield p4runtime_pb2.Entity(direct_meter_entry=found)

    # --- action profiles -------------------------------------------------------------------

    def _profile(self, profile_id: int):
        profile = self.pipeline.profiles.get(profile_id)
        if profile is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no action profile has id {profile_id}")
        return profile, self._index("profiles", profile.preamble.name)

    def _plan_member(self, index: int, kind: int, member) -> _Planned:
        profile, switch_profile = self._profile(member.action_profile_id)
        name, member_id = profile.preamble.name, member.member_id

        def messages() -> dict:
            return {errno.EEXIST: f"action profile {name} has a member {member_id}",
                    errno.ENOENT: f"action profile {name} has no member {member_id}",
                    errno.ENOSPC: f"action profile {name} is full",
                    errno.EBUSY: f"member {member_id} of action profile {name} is in use"}
        if kind == Update.DELETE:
            return _Planned(index, [wire.member_delete(switch_profile, member_id)], messages)
        allowed = {action: scope for table_id in profile.table_ids if table_id in self.pipeline.tables
                   for action, scope in self.pipeline.tables[table_id].actions.items()
                   if scope != p4info_pb2.ActionRef.DEFAULT_ONLY}
        call = self._call(f"action profile {name}", allowed, member.action, default=False)
        add = wire.member_add if kind == Update.INSERT else wire.member_modify
        return _Planned(index, [add(switch_profile, member_id, call)], messages)

    def _plan_group(self, index: int, kind: int, group) -> _Planned:
        profile, switch_profile = self._profile(group.action_profile_id)
        name, group_id = profile.preamble.name, group.group_id
        if not profile.with_selector:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"action profile {name} has no groups (not a selector)")

        def messages() -> dict:
            return {errno.EEXIST: f"action profile {name} has a group {group_id}",
                    errno.ENOENT: f"action profile {name} has no group {group_id}",
                    errno.ENOSPC: f"action profile {name} is full",
                    errno.EBUSY: f"group {group_id} of action profile {name} is in use"}
        if kind == Update.DELETE:
            return _Planned(index, [wire.group_delete(switch_profile, group_id)], messages)
        members = [m.member_id for m in group.members]
        if len(set(members)) != len(members):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"group {group_id} names a member twice")
        if any(m.weight > 1 for m in group.members):
            raise P4RuntimeError(Code.UNIMPLEMENTED, "members of a weight above 1 are not supported")
        largest = min(x for x in (group.max_size, profile.max_group_size, profile.size) if x)
        if len(members) > largest:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, f"action profile {name} takes groups of at most "
                                                           f"{largest} members")
        self._read_switch()
        there = {entity.action_profile_member.member_id for entity in self._read_members(
            p4runtime_pb2.ActionProfileMember(action_profile_id=group.action_profile_id))}
        absent = next((m for m in members if m not in there), None)
        if absent is not None and not self._batched:
            raise P4RuntimeError(Code.NOT_FOUND, f"action profile {name} has no member {absent}")
        requests = [wire.group_add(switch_profile, group_id, group.max_size)] if kind == Update.INSERT else []
        return _Planned(index, requests + [wire.group_set(switch_profile, group_id, members)], lambda: {
            errno.EEXIST: f"action profile {name} has a group {group_id}",
            errno.ENOENT: f"action profile {name} has no group {group_id}, or no member of those it names",
            errno.ENOSPC: f"group {group_id} of action profile {name} is full"})

    def _read_members(self, wanted) -> Iterator:
        profile_ids = [wanted.action_profile_id] if wanted.action_profile_id else list(self.pipeline.profiles)
        for profile_id in profile_ids:
            profile, switch_profile = self._profile(profile_id)
            read = self.wire.call(wire.members(switch_profile))
            found = []
            for _ in range(read.u32()):
                member_id, call = read.u32(), read.call()
                if wanted.member_id and member_id != wanted.member_id:
                    continue
                message = p4runtime_pb2.ActionProfileMember(action_profile_id=profile_id, member_id=member_id)
                action = self._p4runtime_action(call)
                if action is not None:
                    message.action.CopyFrom(action.action)
                found.append(message)
            for message in sorted(found, key=lambda m: m.member_id):
                yield p4runtime_pb2.Entity(action_profile_member=message)

    def _read_groups(self, wanted) -> Iterator:
        profile_ids = [wanted.action_profile_id] if wanted.action_profile_id else list(self.pipeline.profiles)
        for profile_id in profile_ids:
            profile, switch_profile = self._profile(profile_id)
            if not profile.with_selector:
                continue
            read = self.wire.call(wire.groups(switch_profile))
            found = []
            for _ in range(read.u32()):
                group_id, max_size = read.u32(), read.u32()
                message = p4runtime_pb2.ActionProfileGroup(action_profile_id=profile_id, group_id=group_id,
                                                           max_size=max_size)
                for _ in range(read.u32()):
                    message.members.add(member_id=read.u32(), weight=1)
                if not wanted.group_id or group_id == wanted.group_id:
                    found.append(message)
            for message in sorted(found, key=lambda g: g.group_id):
                yield p4runtime_pb2.Entity(action_profile_group=message)

    # --- the packet replication engine ----------------------------------------------------

    def _plan_replication(self, index: int, kind: int, entry) -> _Planned:
        which = entry.WhichOneof("type")
        if which == "multicast_group_entry":
            return self._plan_multicast_group(index, kind, entry.multicast_group_entry)
        if which == "clone_session_entry":
            return self._plan_clone_session(index, kind, entry.clone_session_entry)
        raise P4RuntimeError(Code.INVALID_ARGUMENT, "the packet replication engine entry has no type set")

    def _mc_groups(self) -> dict[int, list[tuple[int, int, list[int]]]]:
        """The switch's multicast groups: group -> its nodes in order, (node, rid, ports) each."""
        groups = {}
        read = self.wire.call(wire.mc_groups())
        for _ in range(read.u32()):
            group = read.u32()
            groups[group] = [(read.u32(), read.u32(), read.ports()) for _ in range(read.u32())]
        return groups

    def _mc_nodes(self) -> list[int]:
        """Every multicast node of the switch, in a group or not."""
        read = self.wire.call(wire.mc_nodes())
        nodes = []
        for _ in range(read.u32()):
            nodes.append(read.u32())
            read.u32(), read.ports(), read.u32()
        return nodes

    def _plan_multicast_group(self, index: int, kind: int, group) -> _Planned:
        """A group is a node of the switch per instance (replication id), holding the ports of
        that instance's replicas: copies go out node by node, in the order of each instance's
        first replica, a node's ports ascending.  A change makes the new nodes, sets them as the
        group's at once (a packet sees the group before or after), then destroys the old ones."""
        group_id = group.multicast_group_id
        if not 0 < group_id < MC_GROUPS:
            raise P4RuntimeError(Code.OUT_OF_RANGE, f"multicast group {group_id}: this switch has groups 1.."
                                                     f"{MC_GROUPS - 1}")
        ports = _replica_ports(group.replicas, f"multicast group {group_id}") if kind != Update.DELETE else {}
        if len(ports) > GROUP_NODES:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, f"multicast group {group_id}: {len(ports)} instances, "
                                                           f"this switch's groups take {GROUP_NODES} at most")
        self._read_switch()
        if group_id in self._planned_groups:
            old = self._planned_groups[group_id]
        else:
            found = self._mc_groups().get(group_id)
            old = [node for node, _, _ in found] if found is not None else None
        _presence(kind, old, "the packet replication engine", f"multicast group {group_id}")
        old = old or []
        used = set(self._mc_nodes()) | self._planned_nodes  # those of the write's updates before it too
        free = (node for node in range(MC_NODES) if node not in used)
        nodes = [next(free, None) for _ in ports]
        if None in nodes:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, "the packet replication engine has no room for another "
                                                           "multicast node")
        self._planned_nodes.update(nodes)
        if self._batched:
            self._planned_groups[group_id] = None if kind == Update.DELETE else nodes
        requests = [wire.mc_group_create(group_id)] if kind == Update.INSERT else []
        requests += [wire.mc_node_create(node, instance, instance_ports)
                     for node, (instance, instance_ports) in zip(nodes, ports.items())]
        requests += [wire.mc_group_destroy(group_id)] if kind == Update.DELETE else [wire.mc_group_set(group_id, nodes)]
        requests += [wire.mc_node_destroy(node) for node in old]
        return _Planned(index, requests, lambda: {
            errno.EEXIST: f"the packet replication engine has a multicast group {group_id}",
            errno.ENOENT: f"the packet replication engine has no multicast group {group_id}",
            errno.ENOSPC: "the packet replication engine has no room for another multicast node"})

    def _plan_clone_session(self, index: int, kind: int, session) -> _Planned:
        session_id = session.session_id
        if not 0 < session_id < MIRROR_SESSIONS:  # 0 names every session in a read
            raise P4RuntimeError(Code.OUT_OF_RANGE, f"clone session {session_id}: this switch has sessions 1.."
                                                     f"{MIRROR_SESSIONS - 1}")
        self._read_switch()
        present = self._planned_sessions[session_id] if session_id in self._planned_sessions else \
            any(s.session_id == session_id for s in self._clone_sessions())
        _presence(kind, True if present else None, "the packet replication engine", f"clone session {session_id}")
        if self._batched:
            self._planned_sessions[session_id] = kind != Update.DELETE

        def messages() -> dict:
            return {errno.ENOENT: f"the packet replication engine has no clone session {session_id}"}
        if kind == Update.DELETE:
            return _Planned(index, [wire.clone_delete(session_id)], messages)
        replicas = _replicas(session.replicas, f"clone session {session_id}")
        if not replicas:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"clone session {session_id} has no replica")
        if len(replicas) > CLONE_REPLICAS:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, f"clone session {session_id}: {len(replicas)} replicas, "
                                                           f"this switch's sessions take {CLONE_REPLICAS} at most")
        if session.packet_length_bytes < 0 or session.packet_length_bytes >> 32 or session.class_of_service >> 32:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"clone session {session_id}: a packet length or class of "
                                                         "service out of range")
        clone = wire.Clone(replicas=tuple(replicas), truncate=session.packet_length_bytes,
                           class_of_service=session.class_of_service)
        return _Planned(index, [wire.clone_set(session_id, clone)], messages)

    def _clone_sessions(self) -> list[p4runtime_pb2.CloneSessionEntry]:
        read = self.wire.call(wire.clones())
        groups = None  # read when a session names one
        found = []
        for _ in range(read.u32()):
            session_id, clone = read.u32(), read.clone()
            message = p4runtime_pb2.CloneSessionEntry(session_id=session_id, class_of_service=clone.class_of_service,
                                                      packet_length_bytes=clone.truncate)
            replicas = list(clone.replicas)
            if clone.group:  # mirroring_add_mc's: its copies are the group's
                groups = self._mc_groups() if groups is None else groups
                replicas += _group_replicas(groups.get(clone.group, []))
            message.replicas.extend(p4runtime_pb2.Replica(egress_port=port, instance=instance)
                                    for port, instance in replicas)
            found.append(message)
        return found

    def _read_replication(self, wanted) -> Iterator:
        which = wanted.WhichOneof("type")
        if which == "multicast_group_entry":
            wanted_id = wanted.multicast_group_entry.multicast_group_id
            found = [p4runtime_pb2.MulticastGroupEntry(
                multicast_group_id=group, replicas=[p4runtime_pb2.Replica(egress_port=port, instance=instance)
                                                    for port, instance in _group_replicas(nodes)])
                     for group, nodes in self._mc_groups().items() if not wanted_id or group == wanted_id]
        elif which == "clone_session_entry":
            wanted_id = wanted.clone_session_entry.session_id
            found = [s for s in self._clone_sessions() if not wanted_id or s.session_id == wanted_id]
        else:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "the packet replication engine entry has no type set")
        for message in found:
            entity = p4runtime_pb2.Entity()
            getattr(entity.packet_replication_engine_entry, which).CopyFrom(message)
            yield entity

    # --- value sets ------------------------------------------------------------------------

    def _value_set(self, value_set_id: int):
        value_set = self.pipeline.value_sets.get(value_set_id)
        if value_set is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no value set has id {value_set_id}")
        return value_set

    def _plan_value_set(self, index: int, kind: int, entry) -> _Planned:
        """A value set's members replaced by a controller's (only MODIFY, as the specification
        has it): the values gone are removed and the new ones added, so that a value in both
        sets matches throughout."""
        value_set = self._value_set(entry.value_set_id)
        name = value_set.preamble.name
        if kind != Update.MODIFY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: its members are only modified, as a whole")
        values = []
        for member in entry.members:
            value = _value_set_member(value_set, member)
            if value in values:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: a member is given twice")
            values.append(value)
        if len(values) > value_set.size:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, f"value set {name} holds at most {value_set.size} values")
        self._read_switch()
        switch_set, width = self._index("value_sets", name), _value_set_width(value_set)
        kept = self._values(value_set)
        requests = [wire.value_set_remove(switch_set, width, v) for v in kept if v not in values]
        requests += [wire.value_set_add(switch_set, width, v) for v in values if v not in kept]
        return _Planned(index, requests, lambda: {errno.ENOSPC: f"value set {name} is full"})

    def _values(self, value_set) -> list[int]:
        width = _value_set_width(value_set)
        read = self.wire.call(wire.value_sets(self._index("value_sets", value_set.preamble.name)))
        return [read.value(width) for _ in range(read.u32())]

    def _read_value_sets(self, wanted) -> Iterator:
        value_sets = [self._value_set(wanted.value_set_id)] if wanted.value_set_id else \
            list(self.pipeline.value_sets.values())
        for value_set in value_sets:
            found = p4runtime_pb2.ValueSetEntry(value_set_id=value_set.preamble.id)
            found.members.extend(_value_set_message(value_set, v) for v in sorted(self._values(value_set)))
            yield p4runtime_pb2.Entity(value_set_entry=found)

    # --- counters and registers -----------------------------------------------------------

    def _cell(self, what: str, entities: dict, entity_id: int, kind: int, message) -> tuple:
        """The counter or register of a write to one of its cells, and the cell."""
        entity = entities.get(entity_id)
        if entity is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no {what} has id {entity_id}")
        if kind != Update.MODIFY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"a {what}'s cells can only be modified")
        if not message.HasField("index"):
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"writing every cell of a {what} at once is not supported")
        return entity, _index(message.index.index, entity.size, f"{what} {entity.preamble.name}")

    def _plan_counter(self, index: int, kind: int, counter_entry) -> _Planned:
        counter, cell = self._cell("counter", self.pipeline.counters, counter_entry.counter_id, kind, counter_entry)
        packets, byte_count = _counts(counter_entry.data)
        return _Planned(index, [wire.counter_write(self._index("counters", counter.preamble.name), cell, packets,
                                                   byte_count)], dict)

    def _plan_direct_counter(self, index: int, kind: int, direct_entry) -> _Planned:
        table, handle, name = self._direct_cell("counter", kind, direct_entry.table_entry)
        packets, byte_count = _counts(direct_entry.data)
        return _Planned(index, [wire.counter_write(self._index("counters", name), handle, packets, byte_count)],
                        lambda: {errno.ENOENT: f"table {table.name} has no entry with this key"})

    def _plan_direct_counter_of(self, index: int, table: TableInfo, match: Match, data) -> _Planned:
        """A table entry modified without an action: its direct counter's cell written."""
        name = self.pipeline.direct_counters[table.direct_counter_id].preamble.name
        packets, byte_count = _counts(data)
        return _Planned(index, [wire.counter_write(self._index("counters", name), self._handle_of(table, match),
                                                   packets, byte_count)],
                        lambda: {errno.ENOENT: f"table {table.name} has no entry with this key"})

    def _direct_cell(self, what: str, kind: int, table_entry) -> tuple:
        """The table, entry handle and direct counter's or meter's (`what`) name of a write to the
        cell of a table entry."""
        if kind != Update.MODIFY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"a direct {what}'s cells can only be modified")
        table = self._table(table_entry.table_id)
        resources = self.pipeline.direct_counters if what == "counter" else self.pipeline.direct_meters
        resource_id = table.direct_counter_id if what == "counter" else table.direct_meter_id
        if not resource_id:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no direct {what}")
        return table, self._handle(table, table_entry), resources[resource_id].preamble.name

    def _plan_register(self, index: int, kind: int, register_entry) -> _Planned:
        register, cell = self._cell("register", self.pipeline.registers, register_entry.register_id, kind,
                                    register_entry)
        name = register.preamble.name
        try:
            raw = self._cell_layout(register).raw(register_entry.data, _number)
        except BadCell as err:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"register {name}: {err}") from None
        return _Planned(index, [wire.register_write(self._index("registers", name), cell, 8 * len(raw),
                                                    int.from_bytes(raw, "big"))], dict)

    def _cell_layout(self, register) -> CellLayout:
        try:
            return CellLayout(self.p4info, register.type_spec)
        except UnsupportedCell as err:
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"register {register.preamble.name}: {err} are not "
                                                     "supported") from None

    # --- digests ---------------------------------------------------------------------------

    def _plan_digest(self, index: int, kind: int, entry) -> _Planned:
        if self.events.failure is not None:
            raise P4RuntimeError(Code.UNAVAILABLE, f"the switch's digests cannot be received: {self.events.failure}")
        if not self.digests.known(entry.digest_id):
            raise P4RuntimeError(Code.NOT_FOUND, f"no digest has id {entry.digest_id}")
        configured = self.digests.configured(entry.digest_id) is not None
        if kind == Update.INSERT and configured:
            raise P4RuntimeError(Code.ALREADY_EXISTS, f"digest {entry.digest_id} is configured already")
        if kind != Update.INSERT and not configured:
            raise P4RuntimeError(Code.NOT_FOUND, f"digest {entry.digest_id} is not configured")
        config = entry.config
        if kind != Update.DELETE and (config.max_timeout_ns < 0 or config.max_list_size < 0 or
                                      config.ack_timeout_ns < 0):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "a digest's config holds no negative number")
        new = None if kind == Update.DELETE else p4runtime_pb2.DigestEntry.Config()
        if new is not None:
            new.CopyFrom(config)
        return _Planned(index, [], dict, lambda: self.digests.configure(entry.digest_id, new))

    # --- the CPU port ---------------------------------------------------------------------

    def packet_out(self, packet: bytes) -> None:
        """`packet` into the program as received on the CPU port; PacketOutError when it cannot go."""
        try:
            self.wire.call(wire.packet_out(packet))
        except WireError as err:
            why = {errno.ENODEV: "this switch has no CPU port: start it with --cpu-port N",
                   errno.ENOBUFS: "no packet buffer left",
                   errno.EAGAIN: "the CPU port's input is full"}.get(err.code, str(err))
            raise PacketOutError(Code.UNAVAILABLE, why) from None

    # --- Read -----------------------------------------------------------------------------

    def read(self, entity) -> Iterator:
        """The entities `entity` selects (P4Runtime's wildcard reads)."""
        kind = entity.WhichOneof("entity")
        if kind is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "an entity to read has none of the entity kinds set")
        if kind in _READ:
            yield from getattr(self, _READ[kind])(getattr(entity, kind))
        else:
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"reading a {kind} is not supported yet")

    def _read_digests(self, wanted) -> Iterator:
        entries = list(self.digests.entries())
        if wanted.digest_id:
            entries = [e for e in entries if e.digest_id == wanted.digest_id]
            if not entries:
                raise P4RuntimeError(Code.NOT_FOUND, f"digest {wanted.digest_id} is not configured")
        for entry in entries:
            yield p4runtime_pb2.Entity(digest_entry=entry)

    def _selected_entries(self, table: TableInfo, wanted) -> list[tuple[int, p4runtime_pb2.TableEntry]]:
        """The entries of `table` a read selects: the one of its key, or all; of its priority."""
        found = self._table_entries(table, elapsed=wanted.HasField("time_since_last_hit"))
        if wanted.match:
            fields = _match(table, wanted).fields
            found = [(h, e) for h, e in found if _match(table, e).fields == fields]
        return [(h, e) for h, e in found if not wanted.priority or e.priority == wanted.priority]

    def _read_table_entries(self, wanted) -> Iterator:
        tables = [self._table(wanted.table_id)] if wanted.table_id else list(self.pipeline.tables.values())
        if wanted.HasField("time_since_last_hit"):
            if wanted.is_default_action:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, "a default entry has no time since its last hit")
            if wanted.table_id and not tables[0].idle_timeout:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {tables[0].name} has no idle timeout")
        for table in tables:
            if wanted.is_default_action:
                yield p4runtime_pb2.Entity(table_entry=self._default_entry(table)[0])
                continue
            found = self._selected_entries(table, wanted)
            counter = self.pipeline.direct_counters.get(table.direct_counter_id)
            if wanted.HasField("counter_data") and counter is not None and found:
                cells = self._counter_cells(self._index("counters", counter.preamble.name), [h for h, _ in found])
                for (_, entry), (packets, byte_count) in zip(found, cells):
                    entry.counter_data.packet_count, entry.counter_data.byte_count = packets, byte_count
            for _, entry in found:
                yield p4runtime_pb2.Entity(table_entry=entry)

    def _read_counters(self, wanted) -> Iterator:
        counters = [self.pipeline.counters.get(wanted.counter_id)] if wanted.counter_id \
            else list(self.pipeline.counters.values())
        if counters == [None]:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no counter has id {wanted.counter_id}")
        for counter in counters:
            cells = [_index(wanted.index.index, counter.size, f"counter {counter.preamble.name}")] \
                if wanted.HasField("index") else list(range(counter.size))
            values = self._counter_cells(self._index("counters", counter.preamble.name), cells)
            for i, (packets, byte_count) in zip(cells, values):
                yield p4runtime_pb2.Entity(counter_entry=p4runtime_pb2.CounterEntry(
                    counter_id=counter.preamble.id, index=p4runtime_pb2.Index(index=i),
                    data=p4runtime_pb2.CounterData(packet_count=packets, byte_count=byte_count)))

    def _read_direct_counter(self, wanted) -> Iterator:
        for table, entries in self._direct_reads("counter", wanted.table_entry):
            counter = self._index("counters", self.pipeline.direct_counters[table.direct_counter_id].preamble.name)
            cells = self._counter_cells(counter, [h for h, _ in entries])
            for (_, entry), (packets, byte_count) in zip(entries, cells):
                message = p4runtime_pb2.DirectCounterEntry(data=p4runtime_pb2.CounterData(
                    packet_count=packets, byte_count=byte_count))
                message.table_entry.CopyFrom(entry)
                yield p4runtime_pb2.Entity(direct_counter_entry=message)

    def _direct_reads(self, what: str, wanted) -> list[tuple[TableInfo, list]]:
        """The tables (table id 0: every table with a direct `what`, counter or meter) and their
        entries, (handle, entry) each (a match: that entry), a read of direct counters or meters
        selects."""
        resource = "direct_counter_id" if what == "counter" else "direct_meter_id"
        if not wanted.table_id:
            return [(table, self._table_entries(table)) for table in self.pipeline.tables.values()
                    if getattr(table, resource)]
        table = self._table(wanted.table_id)
        if not getattr(table, resource):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no direct {what}")
        if wanted.match:
            found = self._selected_entries(table, wanted)
            if not found:
                raise P4RuntimeError(Code.NOT_FOUND, f"table {table.name} has no entry with this key")
            return [(table, found)]
        return [(table, self._table_entries(table))]

    def _counter_cells(self, counter: int, cells: list[int]) -> list[tuple[int, int]]:
        """(packets, bytes) of each cell (an index, or a direct counter's entry handle) of the
        switch's counter `counter`."""
        values = []
        for read in self.wire.calls([wire.counter_read(counter, cell) for cell in cells]):
            if isinstance(read, WireError):
                raise P4RuntimeError(Code.INTERNAL, f"the switch could not read a counter: {read}")
            values.append((read.u64(), read.u64()))
        return values

    def _read_registers(self, wanted) -> Iterator:
        if not wanted.register_id:  # every register whose cells the switch reads
            for register in self.pipeline.registers.values():
                try:
                    layout = CellLayout(self.p4info, register.type_spec)
                except UnsupportedCell:
                    continue
                yield from self._register_cells(register, layout, wanted)
            return
        register = self.pipeline.registers.get(wanted.register_id)
        if register is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no register has id {wanted.register_id}")
        yield from self._register_cells(register, self._cell_layout(register), wanted)

    def _register_cells(self, register, layout: CellLayout, wanted) -> Iterator:
        name = register.preamble.name
        indices = [_index(wanted.index.index, register.size, f"register {name}")] if wanted.HasField("index") \
            else list(range(register.size))
        switch_register = self._index("registers", name)
        for i, read in zip(indices, self.wire.calls([wire.register_read(switch_register, i) for i in indices])):
            if isinstance(read, WireError):
                raise P4RuntimeError(Code.INTERNAL, f"the switch could not read register {name}: {read}")
            yield p4runtime_pb2.Entity(register_entry=p4runtime_pb2.RegisterEntry(
                register_id=register.preamble.id, index=p4runtime_pb2.Index(index=i),
                data=layout.data(read.bytes(layout.nbytes))))


# The entities written and read, by the Entity oneof's name: the Device method for each.
_WRITTEN = {"table_entry": "_plan_table_entry", "counter_entry": "_plan_counter",
            "direct_counter_entry": "_plan_direct_counter", "register_entry": "_plan_register",
            "digest_entry": "_plan_digest", "meter_entry": "_plan_meter", "direct_meter_entry": "_plan_direct_meter",
            "action_profile_member": "_plan_member", "action_profile_group": "_plan_group",
            "packet_replication_engine_entry": "_plan_replication", "value_set_entry": "_plan_value_set"}
_READ = {"table_entry": "_read_table_entries", "counter_entry": "_read_counters",
         "direct_counter_entry": "_read_direct_counter", "register_entry": "_read_registers",
         "digest_entry": "_read_digests", "meter_entry": "_read_meters", "direct_meter_entry": "_read_direct_meters",
         "action_profile_member": "_read_members", "action_profile_group": "_read_groups",
         "packet_replication_engine_entry": "_read_replication", "value_set_entry": "_read_value_sets"}


def _notified_entry(table: TableInfo, match: Match, ttl_ns: int, note: tuple[int, bytes]) -> p4runtime_pb2.TableEntry:
    """An entry as an IdleTimeoutNotification names it: its key, its idle timeout and what the
    controller keeps with it (`note`: controller_metadata, metadata)."""
    entry = p4runtime_pb2.TableEntry(table_id=table.message.preamble.id, idle_timeout_ns=ttl_ns,
                                     priority=match.priority if table.needs_priority else 0,
                                     controller_metadata=note[0], metadata=note[1])
    entry.match.extend(_p4runtime_match(table, match))
    return entry


def _match(table: TableInfo, entry) -> Match:
    """The entry's key and priority, checked, as the switch takes them (its fields in P4Info's
    order)."""
    matches, key = entry.match, []
    if len(matches) == len(table.match_kinds):  # the common case: each field once, in P4Info's order
        for m, (field_id, f, kind, width) in zip(matches, table.match_kinds):
            if m.field_id != field_id:
                break
            key.append(_field_key(f, kind, width, m))
    if len(key) != len(table.match_kinds):
        given = {}
        for m in matches:
            if m.field_id not in table.fields:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no match field {m.field_id}")
            if m.field_id in given:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"match field {m.field_id} is given twice")
            given[m.field_id] = m
        key = [_field_key(f, kind, width, given.get(field_id)) for field_id, f, kind, width in table.match_kinds]
    priority = entry.priority
    if table.needs_priority and priority <= 0:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} needs a priority above 0")
    if not table.needs_priority and priority:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no ternary, range or optional field: "
                                                     "its entries have no priority")
    return Match(priority, tuple(key))


def _field_key(f, kind: Optional[str], width: int, m):
    """Match field `f` (of `width` bits)'s part of a key, from `m` (None: left out, a don't care),
    checked.  (Exact and lpm fields, the most common, make no error message unless they need one.)"""
    if kind is None:
        raise P4RuntimeError(Code.UNIMPLEMENTED, f"match field {f.name}: match kind {f.other_match_type} is "
                                                 "not supported")
    if m is not None and m.WhichOneof("field_match_type") != kind:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"match field {f.name} is matched {kind}, not "
                                                     f"{m.WhichOneof('field_match_type')}")
    if kind == "exact":
        if m is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"match field {f.name}: an exact field cannot be left out")
        given = m.exact.value
        value = int.from_bytes(given, "big")
        return value if given and not value >> width else _number(given, width, f"match field {f.name}")
    if kind == "lpm":
        if m is None:
            return 0, 0
        lpm = m.lpm
        given, length = lpm.value, lpm.prefix_len
        value = int.from_bytes(given, "big")
        if not given or value >> width:
            _number(given, width, f"match field {f.name}")
        if not 0 < length <= width:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"match field {f.name}: prefix length {length} is not in "
                                                         f"1..{width} (a zero-length prefix is left out)")
        if value & ((1 << width - length) - 1):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"match field {f.name}: bits beyond the {length}-bit prefix "
                                                         "are set")
        return value, length

    def what() -> str:
        return f"match field {f.name}"

    top = (1 << width) - 1
    if kind == "ternary":
        value = _number(m.ternary.value, width, what) if m else 0
        mask = _number(m.ternary.mask, width, lambda: f"{what()} (mask)") if m else 0
        if m is not None and not mask:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what()}: a zero mask (don't care) is left out")
        if value & ~mask:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what()}: value bits outside the mask are set")
        return value, mask
    if kind == "range":
        low = _number(m.range.low, width, lambda: f"{what()} (low)") if m else 0
        high = _number(m.range.high, width, lambda: f"{what()} (high)") if m else top
        if m is not None and (low > high or (low, high) == (0, top)):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what()}: {low}..{high} is empty or the whole range "
                                                         "(a don't care is left out)")
        return low, high
    return _number(m.optional.value, width, what) if m else None


def _presence(kind: int, present, owner: str, what: str) -> None:
    """An insert's entity must be new, a modify's or delete's there."""
    if kind == Update.INSERT and present is not None:
        raise P4RuntimeError(Code.ALREADY_EXISTS, f"{owner} has a {what}")
    if kind != Update.INSERT and present is None:
        raise P4RuntimeError(Code.NOT_FOUND, f"{owner} has no {what}")


def _replicas(replicas, owner: str) -> list[tuple[int, int]]:
    """The (port, instance) of each of `replicas`, in order, checked."""
    found: list[tuple[int, int]] = []
    for replica in replicas:
        port = replica.egress_port if replica.WhichOneof("port_kind") == "egress_port" else \
            _number(replica.port, 9, f"{owner}: a replica's port") if replica.port else None
        if port is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{owner}: a replica has no port")
        if port >= PORT_NUMBERS:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{owner}: port {port} is not a port number (0.."
                                                         f"{PORT_NUMBERS - 1})")
        if replica.instance >= INSTANCES:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{owner}: instance {replica.instance} does not fit in "
                                                         "16 bits (v1model's egress_rid)")
        if (port, replica.instance) in found:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{owner}: the replica of port {port} and instance "
                                                         f"{replica.instance} is given twice")
        found.append((port, replica.instance))
    return found


def _group_replicas(nodes: list) -> list[tuple[int, int]]:
    """A multicast group's copies, (port, instance) each: node by node, each node's ports ascending."""
    return [(port, rid) for _, rid, ports in nodes for port in ports]


def _replica_ports(replicas, owner: str) -> dict[int, list[int]]:
    """The ports of each instance of `replicas`, the instances in the order of their first
    replica, each one's ports ascending."""
    ports: dict[int, list[int]] = {}
    for port, instance in _replicas(replicas, owner):
        ports.setdefault(instance, []).append(port)
    return {instance: sorted(instance_ports) for instance, instance_ports in ports.items()}


def _value_set_member(value_set, member) -> int:
    """A member's value as the switch takes it: its fields one after the other, the first in the
    high bits, as BMv2 packs them."""
    name = value_set.preamble.name
    given = {}
    for m in member.match:
        if m.field_id in given:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: match field {m.field_id} is given twice")
        given[m.field_id] = m
    value = 0
    for f in value_set.match:
        m = given.pop(f.id, None)
        if f.match_type != MatchField.EXACT:
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"value set {name}: only exact members are supported")
        if m is None or m.WhichOneof("field_match_type") != "exact":
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: match field {f.id} needs an exact value")
        number = _number(m.exact.value, f.bitwidth, f"value set {name}, match field {f.id}")
        value = value << f.bitwidth | number
    if given:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name} has no match field {next(iter(given))}")
    return value


def _rates(meter_entry) -> wire.Rates:
    """A MeterEntry's or DirectMeterEntry's config as the switch takes it: rates in units per
    microsecond."""
    config = meter_entry.config
    if min(config.cir, config.cburst, config.pir, config.pburst) < 0 or config.cir > config.pir:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, "a meter's rates and bursts are not negative, and its "
                                                     "committed rate is not above its peak rate")
    return wire.Rates(config.cir / 1e6, config.cburst, config.pir / 1e6, config.pburst)


def _counts(data) -> tuple[int, int]:
    """A CounterData's packets and bytes."""
    if data.packet_count < 0 or data.byte_count < 0:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, "a counter's packet and byte counts are not negative")
    return data.packet_count, data.byte_count


def _index(index: int, size: int, what: str) -> int:
    if index < 0:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: index {index} is negative")
    if index >= size:
        raise P4RuntimeError(Code.OUT_OF_RANGE, f"{what}: index {index} is beyond its {size} cells")
    return index


def _p4runtime_match(table: TableInfo, match: Match) -> list:
    """The switch's key of an entry as P4Runtime reads it: canonical, don't-care fields left out."""
    out = []
    for f, value in zip(table.message.match_fields, match.fields):
        kind, top = MATCH_KINDS.get(f.match_type), (1 << f.bitwidth) - 1
        m = p4runtime_pb2.FieldMatch(field_id=f.id)
        if kind == "lpm":
            if not value[1]:
                continue
            m.lpm.value, m.lpm.prefix_len = canonical(value[0]), value[1]
        elif kind == "ternary":
            if not value[1]:
                continue
            m.ternary.value, m.ternary.mask = canonical(value[0]), canonical(value[1])
        elif kind == "range":
            if value == (0, top):
                continue
            m.range.low, m.range.high = canonical(value[0]), canonical(value[1])
        elif kind == "optional":
            if value is None:
                continue
            m.optional.value = canonical(value)
        else:
            m.exact.value = canonical(value)
        out.append(m)
    return out


def _value_set_width(value_set) -> int:
    """The bits of a value set's values: its fields', one after the other."""
    return sum(f.bitwidth for f in value_set.match)


def _value_set_message(value_set, value: int) -> p4runtime_pb2.ValueSetMember:
    """A value of the switch's value set as P4Runtime reads it: its fields, the first in the high
    bits, canonical."""
    member = p4runtime_pb2.ValueSetMember()
    shift = _value_set_width(value_set)
    for f in value_set.match:
        shift -= f.bitwidth
        member.match.add(field_id=f.id).exact.value = canonical(value >> shift & ((1 << f.bitwidth) - 1))
    return member
