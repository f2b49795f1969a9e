"""A switch as a P4Runtime server sees it: the pipeline it runs (its P4Info), the entries
controllers wrote, and the control channel through which both are read and changed.

P4Runtime entities become simple_switch_CLI command lines (runtime/core/cli.c), validated
here first as the P4Runtime specification prescribes, so that a bad update is refused with its
own status code and changes nothing.  The switch names every entity by its P4Info name; values
go as hexadecimal numbers.  Table entries keep the switch's handle of each key (a modify or
delete names the entry by handle), and are read back as they were written, in the canonical
byte strings of the specification (section "Bytestrings").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

import grpc

from p4odp.controlplane.bytestrings import canonical, shown
from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel
from p4odp.controlplane.digests import DigestLists
from p4odp.controlplane.events import SwitchEvents
from p4odp.controlplane.packets import PacketIO
from p4odp.controlplane.pipeline import Pipeline, TableInfo
from p4odp.controlplane.protos import p4data_pb2, p4info_pb2, p4runtime_pb2
from p4odp.runtime.limits import GROUP_NODES, MC_GROUPS, MIRROR_SESSIONS, PORT_NUMBERS

__all__ = ["Device", "P4RuntimeError"]

Code = grpc.StatusCode
MatchField = p4info_pb2.MatchField
Update = p4runtime_pb2.Update

# simple_switch_CLI's priorities: the smaller wins, from 0; P4Runtime's: the larger wins, from 1.
CLI_PRIORITY_TOP = 2**31 - 1
# Replication ids (v1model's egress_rid) of 16 bits, as BMv2's; the other limits of the switch's
# packet replication engine are the runtime's (groups 1..4095 of 256 nodes, ports of 9 bits,
# mirror sessions 0..32767).
INSTANCES = 1 << 16

_ONEOF = {MatchField.EXACT: "exact", MatchField.LPM: "lpm", MatchField.TERNARY: "ternary",
          MatchField.RANGE: "range", MatchField.OPTIONAL: "optional"}
_HANDLE = re.compile(r"handle (\d+)")
_NODE_HANDLE = re.compile(r"Node was created with handle (\d+)")
_COUNTER = re.compile(r"= \((\d+) bytes, (\d+) packets\)")
_REGISTER = re.compile(r"= (-?\d+)")


class P4RuntimeError(Exception):
    """An update or request refused: the status code and message the client gets."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _number(value: bytes, width: int, what: str) -> int:
    """A byte string's number, which must fit in `width` bits (longer strings with leading
    zeros are taken, as the specification requires)."""
    if not value:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: an empty byte string")
    number = int.from_bytes(value, "big")
    if number >> width:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: {shown(value)} does not fit in {width} bits")
    return number


@dataclass
class _Entry:
    """A table entry written by a controller: the switch's handle and the entry, canonical."""
    handle: int
    message: p4runtime_pb2.TableEntry


@dataclass
class _TableState:
    entries: dict = field(default_factory=dict)  # key (_entry_key) -> _Entry
    default: Optional[p4runtime_pb2.TableEntry] = None  # the default entry a controller set; None: the program's


@dataclass
class _ProfileState:
    members: dict = field(default_factory=dict)  # member id -> _Entry (its ActionProfileMember)
    groups: dict = field(default_factory=dict)  # group id -> _Entry (its ActionProfileGroup)


@dataclass
class _McGroup:
    """A multicast group written by a controller: the group as written and the switch's node of
    each instance."""
    message: p4runtime_pb2.MulticastGroupEntry
    nodes: dict  # instance -> node handle


@dataclass
class _Pending:
    """An update sent to the switch whose answer is awaited, and what to record when it succeeds."""
    index: int  # of the update in its batch
    line: Optional[str]  # None: nothing to send (an update that changes nothing)
    on_success: object  # callable(output: str) -> None
    run: object = None  # callable() -> None that does the update alone (several commands), instead of `line`


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
        if load is not None:
            try:
                self.program = self.channel.load_program(load)
            except CommandError:
                self.channel.close()
                raise
        self.device_id = device_id
        self.p4info = p4info_pb2.P4Info.FromString(bytes.fromhex(self.channel.command("p4info").strip()))
        self.pipeline = Pipeline.of(self.p4info)
        self.tables: dict[int, _TableState] = {}
        self.profiles: dict[int, _ProfileState] = {}
        # Meter configs set: (meter id, index) of indexed meters, (table id, entry key) of direct ones.
        self.meter_configs: dict[tuple, p4runtime_pb2.MeterConfig] = {}
        self.multicast_groups: dict[int, _McGroup] = {}
        self.clone_sessions: dict[int, p4runtime_pb2.CloneSessionEntry] = {}
        self.value_sets: dict[int, dict] = {}  # value set id -> {value: its ValueSetMember}
        self.digests = DigestLists(self.p4info, deliver)
        self.packets = PacketIO(self.p4info, deliver)
        if events is not None:
            self.events = events
            return
        try:
            self.events = SwitchEvents(switch, [self.digests, self.packets], on_unexpected_swap)
        except ChannelError:
            self.channel.close()
            raise

    def close(self) -> None:
        self.events.stop()
        self.channel.close()

    # --- the forwarding state -------------------------------------------------------------

    def reset(self) -> None:
        """Every table back to the program's entries and default actions, every counter and
        register to 0, no multicast group or clone session: the forwarding state of a freshly
        committed pipeline."""
        lines = []
        for table in self.pipeline.tables.values():
            if not table.message.is_const_table:
                lines.append(f"table_clear {table.name}")
            if not table.message.const_default_action_id:
                lines.append(f"table_reset_default {table.name}")
        for profile_id, state in self.profiles.items():  # once no entry names them: groups, then members
            name = self.pipeline.profiles[profile_id].preamble.name
            lines += [f"act_prof_delete_group {name} {group.handle}" for group in state.groups.values()]
            lines += [f"act_prof_delete_member {name} {member.handle}" for member in state.members.values()]
        lines += [f"counter_reset {c.preamble.name}" for c in self.pipeline.counters.values()]
        lines += [f"counter_reset {c.preamble.name}" for c in self.pipeline.direct_counters.values()]
        lines += [f"register_reset {r.preamble.name}" for r in self.pipeline.registers.values()]
        lines += [f"meter_reset {m.preamble.name}" for m in self.pipeline.meters.values()]
        lines += [f"pvs_clear {self.pipeline.value_sets[v].preamble.name}" for v in self.value_sets]
        failed = [text for ok, text in self.channel.commands(lines) if not ok]
        self.tables.clear()
        self.profiles.clear()
        self.meter_configs.clear()
        self.value_sets.clear()
        self.digests.clear()
        self.reset_replication()
        if failed:
            raise P4RuntimeError(Code.INTERNAL, f"the switch could not reset its state: {failed[0]}")

    def reset_replication(self) -> None:
        """No multicast group and no clone session: the switch's, whatever program it runs."""
        lines = []
        for group_id, group in self.multicast_groups.items():
            lines += [f"mc_mgrp_destroy {group_id}"] + [f"mc_node_destroy {h}" for h in group.nodes.values()]
        lines += [f"mirroring_delete {session_id}" for session_id in self.clone_sessions]
        failed = [text for ok, text in self.channel.commands(lines) if not ok]
        self.multicast_groups.clear()
        self.clone_sessions.clear()
        if failed:
            raise P4RuntimeError(Code.INTERNAL, f"the switch could not reset its replication: {failed[0]}")

    def forwarding_state(self) -> list:
        """What controllers wrote of the program's forwarding state, as the updates that write
        it again (RECONCILE_AND_COMMIT keeps it in another program): action profile members and
        groups, table entries, default entries, meter configs, value sets, digest configs.
        Counter and register values are not in it, nor the switch's replication, which another
        program shares (swap_in)."""
        updates = []

        def add(kind: int, **entity) -> None:
            updates.append(Update(type=kind, entity=p4runtime_pb2.Entity(**entity)))

        for state in self.profiles.values():  # a group names members of its own profile
            for member in state.members.values():
                add(Update.INSERT, action_profile_member=member.message)
            for group in state.groups.values():
                add(Update.INSERT, action_profile_group=group.message)
        for state in self.tables.values():
            for entry in state.entries.values():
                add(Update.INSERT, table_entry=entry.message)
            if state.default is not None:
                add(Update.MODIFY, table_entry=state.default)
        for (owner_id, cell), config in self.meter_configs.items():
            if owner_id in self.pipeline.meters:
                add(Update.MODIFY, meter_entry=p4runtime_pb2.MeterEntry(
                    meter_id=owner_id, index=p4runtime_pb2.Index(index=cell), config=config))
            else:  # a direct meter's: `cell` is its table entry's key
                add(Update.MODIFY, direct_meter_entry=p4runtime_pb2.DirectMeterEntry(
                    table_entry=self.tables[owner_id].entries[cell].message, config=config))
        for value_set_id, members in self.value_sets.items():
            add(Update.MODIFY, value_set_entry=p4runtime_pb2.ValueSetEntry(value_set_id=value_set_id,
                                                                           members=list(members.values())))
        for entry in self.digests.entries():
            add(Update.INSERT, digest_entry=entry)
        return updates

    def swap_in(self, other: "Device") -> None:
        """Swap this device's program, loaded, in for `other`'s, whose events it shares: it takes
        them from the switch's program_swapped event on, and the multicast groups and clone sessions other wrote (the switch's, whatever its
        program); other is closed.  CommandError when the switch refuses (nothing changed)."""
        self.events.expect_swap([self.digests, self.packets])
        try:
            self.channel.command("swap_configs")
        except BaseException:  # refused, or the switch gone: no swap, no event
            self.events.withdraw_swap()
            raise
        self.events.settle()  # the new listeners have taken over and the switch knows what they want
        self.multicast_groups, other.multicast_groups = other.multicast_groups, {}
        self.clone_sessions, other.clone_sessions = other.clone_sessions, {}
        other.channel.close()

    def discard(self) -> None:
        """Drop this device's program, loaded and not swapped in (closing its channel drops it
        too, once the switch sees the connection gone: this does it at once)."""
        try:
            self.channel.command("discard_new_config")
        except (ChannelError, CommandError):
            pass  # gone with the connection
        self.channel.close()

    # --- Write ----------------------------------------------------------------------------

    def write(self, updates) -> list[Optional[P4RuntimeError]]:
        """Apply `updates` in order, each whatever the others' outcome; for each, None or why
        it was refused.  Updates go to the switch without waiting for each answer; one waits for
        those in flight when it is of another kind (an entry may name a member inserted just
        before it), names an entity one of them creates (a member, a group, a digest's config:
        the switch cannot tell those apart), needs several commands in turn, or is refused (it
        may be refused only for what those in flight change: it is checked again after them).
        Two updates of one table entry need no wait: the switch refuses what the first made
        wrong."""
        results: list[Optional[P4RuntimeError]] = [None] * len(updates)
        pending: list[_Pending] = []
        in_flight: set = set()
        previous_kind = None
        for index, update in enumerate(updates):
            kind = update.entity.WhichOneof("entity")
            identity = _identity(kind, update.entity)
            if kind != previous_kind or identity is not None and identity in in_flight:
                self._send(pending, results)
                pending, in_flight, previous_kind = [], set(), kind
            try:
                planned = self._plan(index, update)
            except P4RuntimeError as err:
                if not pending:
                    results[index] = err
                    continue
                self._send(pending, results)
                pending, in_flight = [], set()
                try:
                    planned = self._plan(index, update)
                except P4RuntimeError as err:
                    results[index] = err
                    continue
            if planned.run is not None:
                self._send(pending, results)
                pending, in_flight = [], set()
                try:
                    planned.run()
                except P4RuntimeError as err:
                    results[index] = err
                continue
            pending.append(planned)
            if identity is not None:
                in_flight.add(identity)
        self._send(pending, results)
        if any(update.entity.WhichOneof("entity") == "digest_entry" for update in updates):
            self.events.settle()  # the digests configured are sent for the packets from now on
        return results

    def _send(self, pending: list[_Pending], results: list) -> None:
        sent = [p for p in pending if p.line is not None]
        for planned in pending:
            if planned.line is None:
                planned.on_success("")
        answers = self.channel.commands([p.line for p in sent])
        for planned, (ok, text) in zip(sent, answers):
            if ok:
                planned.on_success(text)
            else:
                results[planned.index] = _switch_error(text)

    def _plan(self, index: int, update) -> _Pending:
        if update.type == Update.UNSPECIFIED:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "the update's type is not set")
        if update.type not in (Update.INSERT, Update.MODIFY, Update.DELETE):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"unknown update type {update.type}")
        kind = update.entity.WhichOneof("entity")
        if kind is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "the update has no entity")
        if kind in _WRITTEN:
            return getattr(self, _WRITTEN[kind])(index, update.type, getattr(update.entity, kind))
        raise P4RuntimeError(Code.UNIMPLEMENTED, f"writing a {kind} is not supported yet")

    # --- table entries --------------------------------------------------------------------

    def _table(self, table_id: int) -> TableInfo:
        table = self.pipeline.tables.get(table_id)
        if table is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no table has id {table_id}")
        return table

    def _plan_table_entry(self, index: int, kind: int, entry) -> _Pending:
        table = self._table(entry.table_id)
        if entry.is_const:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "is_const is set: only the program makes const entries")
        if entry.HasField("time_since_last_hit") or entry.idle_timeout_ns:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no idle timeout")
        if entry.is_default_action and table.profile_id:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has an action profile: its default "
                                                         "entry cannot be changed")
        if entry.is_default_action:
            return self._plan_default_entry(index, kind, table, entry)
        if table.message.is_const_table:
            raise P4RuntimeError(Code.PERMISSION_DENIED, f"table {table.name} is const")
        if not table.fields:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no key: only its default "
                                                         "entry can be written")
        key, key_words, match = _match_key(table, entry)
        state = self.tables.setdefault(table.message.preamble.id, _TableState())
        present = state.entries.get(key)
        if kind == Update.INSERT:
            if present is not None:
                raise P4RuntimeError(Code.ALREADY_EXISTS, f"table {table.name} has an entry with this key")
            if not entry.HasField("action"):
                raise P4RuntimeError(Code.INVALID_ARGUMENT, "an inserted entry needs an action")
            command, action_words, stored = self._entry_action(table, entry, match, "add")
            cli_priority = f" {CLI_PRIORITY_TOP - entry.priority}" if table.needs_priority else ""

            def inserted(output: str) -> None:
                state.entries[key] = _Entry(int(_HANDLE.search(output).group(1)), stored)
            first = f"{action_words[0]} " if command == "table_add" else ""
            line = f"{command} {table.name} {first}{' '.join(key_words)} => " \
                   f"{' '.join(action_words[1 if first else 0:])}{cli_priority}"
            return _Pending(index, line, inserted)
        if present is None:
            raise P4RuntimeError(Code.NOT_FOUND, f"table {table.name} has no entry with this key")
        if kind == Update.DELETE:
            def deleted(_: str) -> None:
                state.entries.pop(key, None)
                self.meter_configs.pop((table.message.preamble.id, key), None)  # the switch resets it too
            return _Pending(index, f"table_delete {table.name} {present.handle}", deleted)
        if not entry.HasField("action"):  # a modify without an action changes the direct resources only
            if not (entry.HasField("counter_data") and table.direct_counter_id):
                return _Pending(index, None, lambda _: None)
            counter = self.pipeline.direct_counters[table.direct_counter_id].preamble.name
            return _Pending(index, f"counter_write {counter} {present.handle} {_counts(entry.counter_data)}",
                            lambda _: None)
        command, action_words, stored = self._entry_action(table, entry, match, "modify")

        def modified(_: str) -> None:
            state.entries[key] = _Entry(present.handle, stored)
        if command == "table_modify":
            line = f"table_modify {table.name} {action_words[0]} {present.handle} => {' '.join(action_words[1:])}"
        else:
            line = f"{command} {table.name} {present.handle} {action_words[0]}"
        return _Pending(index, line, modified)

    def _entry_action(self, table: TableInfo, entry, match: list, verb: str) -> tuple[str, list[str], object]:
        """The command adding (`verb` add) or modifying an entry with entry.action, the words that
        give the action, and the entry to keep, canonical."""
        kind = entry.action.WhichOneof("type")
        if not table.profile_id:
            words, action = self._action(table, entry.action, default=False)
            stored = _stored_entry(entry, match)
            stored.action.action.CopyFrom(action)
            return f"table_{verb}", words, stored
        if kind not in ("action_profile_member_id", "action_profile_group_id"):
            raise P4RuntimeError(Code.INVALID_ARGUMENT if kind == "action" else Code.UNIMPLEMENTED,
                                 f"table {table.name} has an action profile: its entries name a member or a group")
        reference = getattr(entry.action, kind)
        state = self.profiles.get(table.profile_id, _ProfileState())
        found = (state.members if kind == "action_profile_member_id" else state.groups).get(reference)
        what = "member" if kind == "action_profile_member_id" else "group"
        if found is None:
            raise P4RuntimeError(Code.NOT_FOUND, f"the action profile of table {table.name} has no {what} {reference}")
        stored = _stored_entry(entry, match)
        setattr(stored.action, kind, reference)
        suffix = "" if what == "member" else "_with_group"
        return f"table_indirect_{verb}{suffix}", [str(found.handle)], stored

    def _plan_default_entry(self, index: int, kind: int, table: TableInfo, entry) -> _Pending:
        if kind != Update.MODIFY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "a default entry can only be modified")
        if entry.match or entry.priority:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, "a default entry has no key and no priority")
        if table.message.const_default_action_id:
            raise P4RuntimeError(Code.PERMISSION_DENIED, f"the default action of table {table.name} is const")
        state = self.tables.setdefault(table.message.preamble.id, _TableState())
        if not entry.HasField("action"):  # back to the program's default
            return _Pending(index, f"table_reset_default {table.name}", lambda _: setattr(state, "default", None))
        action_words, action = self._action(table, entry.action, default=True)
        stored = _stored_entry(entry, [])
        stored.action.action.CopyFrom(action)
        stored.is_default_action = True
        return _Pending(index, f"table_set_default {table.name} {' '.join(action_words)}",
                        lambda _: setattr(state, "default", stored))

    def _action(self, table: TableInfo, table_action, default: bool) -> tuple[list[str], p4runtime_pb2.Action]:
        """The words naming a direct action and its parameters, and the action, canonical."""
        if table_action.WhichOneof("type") != "action":
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} takes an action, not an action "
                                                         "profile's member or group")
        return self._action_words(f"table {table.name}", table.actions, table_action.action, default)

    def _action_words(self, owner: str, allowed: dict, given, default: bool) -> tuple[list[str], p4runtime_pb2.Action]:
        """The words naming action `given` (of those `allowed`: id -> scope) and its parameters, and
        the action, canonical."""
        info = self.pipeline.actions.get(given.action_id)
        if info is None or given.action_id not in allowed:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{owner} has no action of id {given.action_id}")
        scope = allowed[given.action_id]
        if scope == p4info_pb2.ActionRef.DEFAULT_ONLY and not default or \
                scope == p4info_pb2.ActionRef.TABLE_ONLY and default:
            where = "the default action" if default else "an entry's action"
            raise P4RuntimeError(Code.PERMISSION_DENIED, f"action {info.preamble.name} cannot be {where} of {owner}")
        values = {}
        for param in given.params:
            if param.param_id in values:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"parameter {param.param_id} is given twice")
            values[param.param_id] = param.value
        words = [info.preamble.name]
        action = p4runtime_pb2.Action(action_id=given.action_id)
        for param in info.params:
            if param.id not in values:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"action {info.preamble.name}: parameter "
                                                             f"{param.name} is missing")
            number = _number(values.pop(param.id), param.bitwidth, f"parameter {param.name}")
            words.append(hex(number))
            action.params.add(param_id=param.id, value=canonical(number))
        if values:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"action {info.preamble.name} has no parameter "
                                                         f"{next(iter(values))}")
        return words, action

    # --- meters ----------------------------------------------------------------------------

    def _plan_meter(self, index: int, kind: int, meter_entry) -> _Pending:
        meter, cell = self._cell("meter", self.pipeline.meters, meter_entry.meter_id, kind, meter_entry)
        if not meter_entry.HasField("config"):  # back to the default: every packet green
            return _Pending(index, f"meter_reset {meter.preamble.name} {cell}",
                            lambda _: self.meter_configs.pop((meter.preamble.id, cell), None))
        rates = _rates(meter_entry)
        config = p4runtime_pb2.MeterConfig()
        config.CopyFrom(meter_entry.config)
        return _Pending(index, f"meter_set_rates {meter.preamble.name} {cell} {rates}",
                        lambda _: self.meter_configs.__setitem__((meter.preamble.id, cell), config))

    def _plan_direct_meter(self, index: int, kind: int, direct_entry) -> _Pending:
        table, key, present, name = self._direct_cell("meter", kind, direct_entry.table_entry)
        if not direct_entry.HasField("config"):
            return _Pending(index, f"meter_reset {name} {present.handle}",
                            lambda _: self.meter_configs.pop((table.message.preamble.id, key), None))
        rates = _rates(direct_entry)
        config = p4runtime_pb2.MeterConfig()
        config.CopyFrom(direct_entry.config)
        return _Pending(index, f"meter_set_rates {name} {present.handle} {rates}",
                        lambda _: self.meter_configs.__setitem__((table.message.preamble.id, key), config))

    def _read_meters(self, wanted) -> Iterator:
        meters = [self.pipeline.meters.get(wanted.meter_id)] if wanted.meter_id else list(self.pipeline.meters.values())
        if meters == [None]:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no meter has id {wanted.meter_id}")
        for meter in meters:
            cells = [_index(wanted.index.index, meter.size, f"meter {meter.preamble.name}")] \
                if wanted.HasField("index") else range(meter.size)
            for cell in cells:
                found = p4runtime_pb2.MeterEntry(meter_id=meter.preamble.id, index=p4runtime_pb2.Index(index=cell))
                config = self.meter_configs.get((meter.preamble.id, cell))
                if config is not None:  # the default config (every packet green) is left unset
                    found.config.CopyFrom(config)
                yield p4runtime_pb2.Entity(meter_entry=found)

    def _read_direct_meters(self, wanted) -> Iterator:
        for table, entries in self._direct_reads("meter", wanted.table_entry):
            for e in entries:
                found = p4runtime_pb2.DirectMeterEntry()
                found.table_entry.CopyFrom(e.message)
                key, _, _ = _match_key(table, e.message)
                config = self.meter_configs.get((table.message.preamble.id, key))
                if config is not None:
                    found.config.CopyFrom(config)
                yield p4runtime_pb2.Entity(direct_meter_entry=found)

    # --- action profiles -------------------------------------------------------------------

    def _profile(self, profile_id: int):
        profile = self.pipeline.profiles.get(profile_id)
        if profile is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no action profile has id {profile_id}")
        return profile, self.profiles.setdefault(profile_id, _ProfileState())

    def _plan_member(self, index: int, kind: int, member) -> _Pending:
        profile, state = self._profile(member.action_profile_id)
        name, present = profile.preamble.name, state.members.get(member.member_id)
        _presence(kind, present, f"action profile {name}", f"member {member.member_id}")
        if kind == Update.DELETE:
            return _Pending(index, f"act_prof_delete_member {name} {present.handle}",
                            lambda _: state.members.pop(member.member_id, None))
        allowed = {action: scope for table_id in profile.table_ids if table_id in self.pipeline.tables
                   for action, scope in self.pipeline.tables[table_id].actions.items()
                   if scope != p4info_pb2.ActionRef.DEFAULT_ONLY}
        words, action = self._action_words(f"action profile {name}", allowed, member.action, default=False)
        stored = p4runtime_pb2.ActionProfileMember(action_profile_id=member.action_profile_id,
                                                   member_id=member.member_id, action=action)
        if kind == Update.INSERT:
            return _Pending(index, f"act_prof_create_member {name} {' '.join(words)}",
                            lambda output: state.members.__setitem__(
                                member.member_id, _Entry(int(_HANDLE.search(output).group(1)), stored)))
        return _Pending(index, f"act_prof_modify_member {name} {words[0]} {present.handle} {' '.join(words[1:])}",
                        lambda _: state.members.__setitem__(member.member_id, _Entry(present.handle, stored)))

    def _plan_group(self, index: int, kind: int, group) -> _Pending:
        profile, state = self._profile(group.action_profile_id)
        name, present = profile.preamble.name, state.groups.get(group.group_id)
        if not profile.with_selector:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"action profile {name} has no groups (not a selector)")
        _presence(kind, present, f"action profile {name}", f"group {group.group_id}")
        if kind == Update.DELETE:
            return _Pending(index, f"act_prof_delete_group {name} {present.handle}",
                            lambda _: state.groups.pop(group.group_id, None))
        members = [m.member_id for m in group.members]
        if len(set(members)) != len(members):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"group {group.group_id} names a member twice")
        for m in group.members:
            if m.member_id not in state.members:
                raise P4RuntimeError(Code.NOT_FOUND, f"action profile {name} has no member {m.member_id}")
            if m.weight > 1:
                raise P4RuntimeError(Code.UNIMPLEMENTED, "members of a weight above 1 are not supported")
        if profile.max_group_size and len(members) > profile.max_group_size:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, f"action profile {name} takes groups of at most "
                                                           f"{profile.max_group_size} members")
        stored = p4runtime_pb2.ActionProfileGroup()
        stored.CopyFrom(group)

        def change() -> None:
            """Create or change the group a command at a time, keeping what the switch has even when
            a command fails halfway."""
            if present is None:
                handle = int(_HANDLE.search(self._command(f"act_prof_create_group {name}")).group(1))
                kept = p4runtime_pb2.ActionProfileGroup(action_profile_id=group.action_profile_id,
                                                        group_id=group.group_id, max_size=group.max_size)
            else:
                handle, kept = present.handle, present.message
            state.groups[group.group_id] = _Entry(handle, kept)
            wanted = set(members)
            for m in list(kept.members):
                if m.member_id not in wanted:
                    self._command(f"act_prof_remove_member_from_group {name} {state.members[m.member_id].handle} "
                                  f"{handle}")
                    kept.members.remove(m)
            there = {m.member_id for m in kept.members}
            for m in group.members:
                if m.member_id not in there:
                    self._command(f"act_prof_add_member_to_group {name} {state.members[m.member_id].handle} {handle}")
                    kept.members.add().CopyFrom(m)
            state.groups[group.group_id] = _Entry(handle, stored)
        return _Pending(index, None, None, run=change)

    def _command(self, line: str) -> str:
        """One command, at once; P4RuntimeError when the switch refuses it."""
        ok, text = self.channel.commands([line])[0]
        if not ok:
            raise _switch_error(text)
        return text

    def _read_members(self, wanted) -> Iterator:
        return self._read_profile_entities("action_profile_member", wanted)

    def _read_groups(self, wanted) -> Iterator:
        return self._read_profile_entities("action_profile_group", wanted)

    def _read_profile_entities(self, kind: str, wanted) -> Iterator:
        profile_ids = [wanted.action_profile_id] if wanted.action_profile_id else list(self.pipeline.profiles)
        for profile_id in profile_ids:
            profile, state = self._profile(profile_id)
            found = state.members if kind == "action_profile_member" else state.groups
            wanted_id = wanted.member_id if kind == "action_profile_member" else wanted.group_id
            for entity_id, entry in sorted(found.items()):
                if not wanted_id or entity_id == wanted_id:
                    yield p4runtime_pb2.Entity(**{kind: entry.message})

    # --- the packet replication engine ----------------------------------------------------

    def _plan_replication(self, index: int, kind: int, entry) -> _Pending:
        which = entry.WhichOneof("type")
        if which == "multicast_group_entry":
            return self._plan_multicast_group(index, kind, entry.multicast_group_entry)
        if which == "clone_session_entry":
            return self._plan_clone_session(index, kind, entry.clone_session_entry)
        raise P4RuntimeError(Code.INVALID_ARGUMENT, "the packet replication engine entry has no type set")

    def _plan_multicast_group(self, index: int, kind: int, group) -> _Pending:
        """A group is a node of the switch per instance (replication id), holding the ports of
        that instance's replicas: copies go out node by node, in the order of each instance's
        first replica, a node's ports ascending.  A change makes the new nodes, sets them as the
        group's at once (mc_mgrp_set: a packet sees the group before or after), then destroys
        the old ones; when it fails, what it made is undone."""
        group_id = group.multicast_group_id
        if not 0 < group_id < MC_GROUPS:
            raise P4RuntimeError(Code.OUT_OF_RANGE, f"multicast group {group_id}: this switch has groups 1.."
                                                     f"{MC_GROUPS - 1}")
        present = self.multicast_groups.get(group_id)
        _presence(kind, present, "the packet replication engine", f"multicast group {group_id}")
        if kind == Update.DELETE:
            def delete() -> None:
                self._command(f"mc_mgrp_destroy {group_id}")  # no copy from here on; its nodes then
                del self.multicast_groups[group_id]
                self._destroy_nodes(present.nodes.values())
            return _Pending(index, None, None, run=delete)
        ports = _replica_ports(group.replicas, f"multicast group {group_id}")
        if len(ports) > GROUP_NODES:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, f"multicast group {group_id}: {len(ports)} instances, "
                                                           f"this switch's groups take {GROUP_NODES} at most")
        stored = p4runtime_pb2.MulticastGroupEntry()
        stored.CopyFrom(group)

        def change() -> None:
            if present is None:
                self._command(f"mc_mgrp_create {group_id}")
            nodes: dict[int, int] = {}
            try:
                for instance, instance_ports in ports.items():
                    output = self._command(f"mc_node_create {instance} {' '.join(map(str, instance_ports))}")
                    nodes[instance] = int(_NODE_HANDLE.search(output).group(1))
                self._command(f"mc_mgrp_set {group_id} {' '.join(map(str, nodes.values()))}")
            except P4RuntimeError:
                self._destroy_nodes(nodes.values())
                if present is None:
                    self._command(f"mc_mgrp_destroy {group_id}")
                raise
            self.multicast_groups[group_id] = _McGroup(stored, nodes)
            if present is not None:
                self._destroy_nodes(present.nodes.values())
        return _Pending(index, None, None, run=change)

    def _destroy_nodes(self, handles) -> None:
        """Destroy the switch's multicast nodes `handles`, each whatever the others' outcome."""
        failed = [text for ok, text in self.channel.commands([f"mc_node_destroy {h}" for h in handles]) if not ok]
        if failed:
            raise _switch_error(failed[0])

    def _plan_clone_session(self, index: int, kind: int, session) -> _Pending:
        session_id = session.session_id
        if not 0 < session_id < MIRROR_SESSIONS:  # 0 names every session in a read
            raise P4RuntimeError(Code.OUT_OF_RANGE, f"clone session {session_id}: this switch has sessions 1.."
                                                     f"{MIRROR_SESSIONS - 1}")
        present = self.clone_sessions.get(session_id)
        _presence(kind, present, "the packet replication engine", f"clone session {session_id}")
        if kind == Update.DELETE:
            return _Pending(index, f"mirroring_delete {session_id}", lambda _: self.clone_sessions.pop(session_id))
        ports = _replica_ports(session.replicas, f"clone session {session_id}")
        if session.class_of_service or session.packet_length_bytes:
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"clone session {session_id}: a class of service and a "
                                                      "truncation length are not supported")
        if list(ports) != [0] or len(ports[0]) != 1:
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"clone session {session_id}: only sessions of one replica, "
                                                      "of instance 0, are supported")
        stored = p4runtime_pb2.CloneSessionEntry()
        stored.CopyFrom(session)
        return _Pending(index, f"mirroring_add {session_id} {ports[0][0]}",
                        lambda _: self.clone_sessions.__setitem__(session_id, stored))

    def _read_replication(self, wanted) -> Iterator:
        which = wanted.WhichOneof("type")
        if which == "multicast_group_entry":
            wanted_id = wanted.multicast_group_entry.multicast_group_id
            found = [g.message for group_id, g in sorted(self.multicast_groups.items())
                     if not wanted_id or group_id == wanted_id]
        elif which == "clone_session_entry":
            wanted_id = wanted.clone_session_entry.session_id
            found = [s for session_id, s in sorted(self.clone_sessions.items())
                     if not wanted_id or session_id == wanted_id]
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

    def _plan_value_set(self, index: int, kind: int, entry) -> _Pending:
        """A value set's members replaced by a controller's (only MODIFY, as the specification
        has it): the values gone are removed and the new ones added, each on its own, so that a
        value in both sets matches throughout."""
        value_set = self._value_set(entry.value_set_id)
        name = value_set.preamble.name
        if kind != Update.MODIFY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: its members are only modified, as a whole")
        values, members = [], []
        for member in entry.members:
            value, canonical_member = _value_set_member(value_set, member)
            if value in values:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: a member is given twice")
            values.append(value)
            members.append(canonical_member)
        if len(values) > value_set.size:
            raise P4RuntimeError(Code.RESOURCE_EXHAUSTED, f"value set {name} holds at most {value_set.size} values")
        kept = self.value_sets.setdefault(value_set.preamble.id, {})

        def change() -> None:
            for value in [v for v in kept if v not in values]:
                self._command(f"pvs_remove {name} {hex(value)}")
                del kept[value]
            for value, member in zip(values, members):
                if value not in kept:
                    self._command(f"pvs_add {name} {hex(value)}")
                kept[value] = member
        return _Pending(index, None, None, run=change)

    def _read_value_sets(self, wanted) -> Iterator:
        value_sets = [self._value_set(wanted.value_set_id)] if wanted.value_set_id else \
            list(self.pipeline.value_sets.values())
        for value_set in value_sets:
            found = p4runtime_pb2.ValueSetEntry(value_set_id=value_set.preamble.id)
            found.members.extend(self.value_sets.get(value_set.preamble.id, {}).values())
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

    def _plan_counter(self, index: int, kind: int, counter_entry) -> _Pending:
        counter, cell = self._cell("counter", self.pipeline.counters, counter_entry.counter_id, kind, counter_entry)
        return _Pending(index, f"counter_write {counter.preamble.name} {cell} {_counts(counter_entry.data)}",
                        lambda _: None)

    def _plan_direct_counter(self, index: int, kind: int, direct_entry) -> _Pending:
        _, _, present, name = self._direct_cell("counter", kind, direct_entry.table_entry)
        return _Pending(index, f"counter_write {name} {present.handle} {_counts(direct_entry.data)}",
                        lambda _: None)

    def _direct_cell(self, what: str, kind: int, table_entry) -> tuple:
        """The table, entry key, entry and direct counter's or meter's (`what`) name of a write to
        the cell of a table entry."""
        if kind != Update.MODIFY:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"a direct {what}'s cells can only be modified")
        table = self._table(table_entry.table_id)
        resources = self.pipeline.direct_counters if what == "counter" else self.pipeline.direct_meters
        resource_id = table.direct_counter_id if what == "counter" else table.direct_meter_id
        if not resource_id:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no direct {what}")
        key, _, _ = _match_key(table, table_entry)
        return table, key, self._present_entry(table, table_entry), resources[resource_id].preamble.name

    def _present_entry(self, table: TableInfo, entry) -> _Entry:
        key, _, _ = _match_key(table, entry)
        present = self.tables.get(table.message.preamble.id, _TableState()).entries.get(key)
        if present is None:
            raise P4RuntimeError(Code.NOT_FOUND, f"table {table.name} has no entry with this key")
        return present

    def _plan_register(self, index: int, kind: int, register_entry) -> _Pending:
        register, cell = self._cell("register", self.pipeline.registers, register_entry.register_id, kind,
                                    register_entry)
        name = register.preamble.name
        spec = register.type_spec
        if spec.WhichOneof("type_spec") != "bitstring" or register_entry.data.WhichOneof("data") != "bitstring":
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"register {name}: only bit<W> and int<W> cells are supported")
        width = _bitstring_width(spec.bitstring)
        number = _number(register_entry.data.bitstring, width, f"register {name}")
        return _Pending(index, f"register_write {name} {cell} {hex(number)}", lambda _: None)

    # --- digests ---------------------------------------------------------------------------

    def _plan_digest(self, index: int, kind: int, entry) -> _Pending:
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
        return _Pending(index, None, lambda _: self.digests.configure(entry.digest_id, new))

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

    def _read_table_entries(self, wanted) -> Iterator:
        tables = [self._table(wanted.table_id)] if wanted.table_id else list(self.pipeline.tables.values())
        found = []
        for table in tables:
            if wanted.is_default_action:
                found.append((table, self._default_entry(table)))
                continue
            state = self.tables.get(table.message.preamble.id, _TableState())
            if table.message.is_const_table and not state.entries:  # the program's, read once
                state = self.tables.setdefault(table.message.preamble.id, _TableState())
                state.entries = self._const_entries(table)
            if wanted.match:
                key, _, _ = _match_key(table, wanted)
                present = state.entries.get(key)
                entries = [present] if present is not None else []
            else:
                entries = list(state.entries.values())
            found += [(table, e) for e in entries
                      if not wanted.priority or e.message.priority == wanted.priority]
        with_counters = wanted.HasField("counter_data")
        counted = [(table, e) for table, e in found if with_counters and table.direct_counter_id
                   and isinstance(e, _Entry)]
        cells = self._counter_cells([(self.pipeline.direct_counters[t.direct_counter_id].preamble.name, e.handle)
                                     for t, e in counted])
        counts = {id(e): cell for (_, e), cell in zip(counted, cells)}
        for table, e in found:
            message = p4runtime_pb2.TableEntry()
            message.CopyFrom(e.message if isinstance(e, _Entry) else e)
            if id(e) in counts:
                packets, byte_count = counts[id(e)]
                message.counter_data.packet_count = packets
                message.counter_data.byte_count = byte_count
            yield p4runtime_pb2.Entity(table_entry=message)

    def _default_entry(self, table: TableInfo) -> p4runtime_pb2.TableEntry:
        """The table's default entry: the one a controller set, or the program's, as the switch has it."""
        state = self.tables.get(table.message.preamble.id, _TableState())
        if state.default is not None:
            return state.default
        entry = p4runtime_pb2.TableEntry(table_id=table.message.preamble.id, is_default_action=True)
        try:
            dump = self.channel.command(f"table_dump {table.name}")
        except CommandError as err:
            raise P4RuntimeError(Code.INTERNAL, f"the switch could not dump table {table.name}: {err}") from None
        self._dumped_action(dump.partition("Dumping default entry\n")[2].split("\n", 1)[0], entry)
        return entry

    def _dumped_action(self, line: str, entry: p4runtime_pb2.TableEntry) -> None:
        """The action of a table_dump's "Action entry: NAME - 0a, 01" line into `entry`."""
        if not line.startswith("Action entry: "):
            return
        name, _, values = line[len("Action entry: "):].partition(" - ")
        action = next((a for a in self.pipeline.actions.values() if a.preamble.name == name), None)
        if action is not None:
            entry.action.action.action_id = action.preamble.id
            for param, value in zip(action.params, [v for v in values.split(", ") if v]):
                entry.action.action.params.add(param_id=param.id, value=canonical(int(value, 16)))

    def _const_entries(self, table: TableInfo) -> dict:
        """A const table's entries, the program's, as P4Runtime reads them (is_const set), from
        the switch's dump of the table."""
        entries = {}
        for block in self._command(f"table_dump {table.name}").split("Dumping entry 0x")[1:]:
            handle, _, body = block.partition("\n")
            lines = body.partition("Dumping default entry")[0].splitlines()
            entry = p4runtime_pb2.TableEntry(table_id=table.message.preamble.id, is_const=True)
            dumped = [line.partition(": ")[2].split(None, 1) for line in lines if line.startswith("* ")]
            for match_field, (kind, text) in zip(table.message.match_fields, dumped):
                match = _dumped_match(match_field, kind, text.strip())
                if match is not None:
                    entry.match.append(match)
            for line in lines:
                if line.startswith("Priority: "):
                    entry.priority = CLI_PRIORITY_TOP - int(line[len("Priority: "):])
                self._dumped_action(line, entry)
            key, _, _ = _match_key(table, entry)
            entries[key] = _Entry(int(handle, 16), entry)
        return entries

    def _read_counters(self, wanted) -> Iterator:
        counters = [self.pipeline.counters.get(wanted.counter_id)] if wanted.counter_id \
            else list(self.pipeline.counters.values())
        if counters == [None]:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no counter has id {wanted.counter_id}")
        cells = []
        for counter in counters:
            if wanted.HasField("index"):
                cells.append((counter, _index(wanted.index.index, counter.size, f"counter {counter.preamble.name}")))
            else:
                cells += [(counter, i) for i in range(counter.size)]
        values = self._counter_cells([(counter.preamble.name, i) for counter, i in cells])
        for (counter, i), (packets, byte_count) in zip(cells, values):
            yield p4runtime_pb2.Entity(counter_entry=p4runtime_pb2.CounterEntry(
                counter_id=counter.preamble.id, index=p4runtime_pb2.Index(index=i),
                data=p4runtime_pb2.CounterData(packet_count=packets, byte_count=byte_count)))

    def _read_direct_counter(self, wanted) -> Iterator:
        for table, entries in self._direct_reads("counter", wanted.table_entry):
            name = self.pipeline.direct_counters[table.direct_counter_id].preamble.name
            for e, (packets, byte_count) in zip(entries, self._counter_cells([(name, e.handle) for e in entries])):
                message = p4runtime_pb2.DirectCounterEntry(data=p4runtime_pb2.CounterData(
                    packet_count=packets, byte_count=byte_count))
                message.table_entry.CopyFrom(e.message)
                yield p4runtime_pb2.Entity(direct_counter_entry=message)

    def _direct_reads(self, what: str, wanted) -> list[tuple[TableInfo, list]]:
        """The tables (table id 0: every table with a direct `what`, counter or meter) and their
        entries (a match: that entry) a read of direct counters or meters selects."""
        resource = "direct_counter_id" if what == "counter" else "direct_meter_id"
        if not wanted.table_id:
            return [(table, list(self.tables.get(table_id, _TableState()).entries.values()))
                    for table_id, table in self.pipeline.tables.items() if getattr(table, resource)]
        table = self._table(wanted.table_id)
        if not getattr(table, resource):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no direct {what}")
        if wanted.match:
            return [(table, [self._present_entry(table, wanted)])]
        return [(table, list(self.tables.get(wanted.table_id, _TableState()).entries.values()))]

    def _counter_cells(self, cells: list[tuple[str, int]]) -> list[tuple[int, int]]:
        """(packets, bytes) of each (counter name, index or entry handle)."""
        values = []
        for ok, text in self.channel.commands([f"counter_read {name} {i}" for name, i in cells]):
            match = _COUNTER.search(text) if ok else None
            if match is None:
                raise P4RuntimeError(Code.INTERNAL, f"the switch could not read a counter: {text.strip()}")
            values.append((int(match.group(2)), int(match.group(1))))
        return values

    def _read_registers(self, wanted) -> Iterator:
        if not wanted.register_id:  # every register whose cells are bit strings
            for register in self.pipeline.registers.values():
                if register.type_spec.WhichOneof("type_spec") == "bitstring":
                    yield from self._register_cells(register, wanted)
            return
        register = self.pipeline.registers.get(wanted.register_id)
        if register is None:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"no register has id {wanted.register_id}")
        if register.type_spec.WhichOneof("type_spec") != "bitstring":
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"register {register.preamble.name}: only bit<W> and int<W> "
                                                     "cells are supported")
        yield from self._register_cells(register, wanted)

    def _register_cells(self, register, wanted) -> Iterator:
        name = register.preamble.name
        width = _bitstring_width(register.type_spec.bitstring)
        indices = [_index(wanted.index.index, register.size, f"register {name}")] if wanted.HasField("index") \
            else list(range(register.size))
        for i, (ok, text) in zip(indices, self.channel.commands([f"register_read {name} {i}" for i in indices])):
            match = _REGISTER.search(text) if ok else None
            if match is None:
                raise P4RuntimeError(Code.INTERNAL, f"the switch could not read register {name}: {text.strip()}")
            value = int(match.group(1)) % (1 << width)  # int<W> in two's complement
            yield p4runtime_pb2.Entity(register_entry=p4runtime_pb2.RegisterEntry(
                register_id=register.preamble.id, index=p4runtime_pb2.Index(index=i),
                data=p4data_pb2.P4Data(bitstring=canonical(value))))


def _identity(kind: Optional[str], entity) -> Optional[tuple]:
    """The entity an update creates or changes when the switch cannot tell two updates of it in a
    batch apart (ids it does not know); None for the others."""
    message = getattr(entity, kind) if kind else None
    if kind == "action_profile_member":
        return kind, message.action_profile_id, message.member_id
    if kind == "action_profile_group":
        return kind, message.action_profile_id, message.group_id
    if kind == "digest_entry":
        return kind, message.digest_id
    if kind == "packet_replication_engine_entry":
        which = message.WhichOneof("type")
        if which == "multicast_group_entry":
            return kind, which, message.multicast_group_entry.multicast_group_id
        if which == "clone_session_entry":
            return kind, which, message.clone_session_entry.session_id
    return None


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


def _match_key(table: TableInfo, entry) -> tuple[tuple, list[str], list]:
    """The entry's key (its fields' numbers in P4Info order, then its priority), the words that
    give it to table_add, and its match fields, canonical (don't-care fields omitted)."""
    given = {}
    for m in entry.match:
        if m.field_id not in table.fields:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no match field {m.field_id}")
        if m.field_id in given:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"match field {m.field_id} is given twice")
        given[m.field_id] = m
    key: list = []
    words: list[str] = []
    canonical_match = []
    for f in table.message.match_fields:
        m = given.get(f.id)
        width, what = f.bitwidth, f"match field {f.name}"
        kind = _ONEOF.get(f.match_type)
        if kind is None:
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"{what}: match kind {f.other_match_type} is not supported")
        if m is not None and m.WhichOneof("field_match_type") != kind:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what} is matched {kind}, not "
                                                         f"{m.WhichOneof('field_match_type')}")
        top = (1 << width) - 1
        out = p4runtime_pb2.FieldMatch(field_id=f.id)
        if kind == "exact":
            if m is None:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: an exact field cannot be left out")
            value = _number(m.exact.value, width, what)
            key.append(value)
            words.append(hex(value))
            out.exact.value = canonical(value)
        elif kind == "lpm":
            value = _number(m.lpm.value, width, what) if m else 0
            length = m.lpm.prefix_len if m else 0
            if m is not None and not 0 < length <= width:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: prefix length {length} is not in 1..{width} "
                                                             "(a zero-length prefix is left out)")
            if value & (top >> length):
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: bits beyond the {length}-bit prefix are set")
            key.append((value, length))
            words.append(f"{hex(value)}/{length}")
            out.lpm.value, out.lpm.prefix_len = canonical(value), length
        elif kind == "ternary":
            value = _number(m.ternary.value, width, what) if m else 0
            mask = _number(m.ternary.mask, width, f"{what} (mask)") if m else 0
            if m is not None and not mask:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: a zero mask (don't care) is left out")
            if value & ~mask:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: value bits outside the mask are set")
            key.append((value, mask))
            words.append(f"{hex(value)}&&&{hex(mask)}")
            out.ternary.value, out.ternary.mask = canonical(value), canonical(mask)
        elif kind == "range":
            low = _number(m.range.low, width, f"{what} (low)") if m else 0
            high = _number(m.range.high, width, f"{what} (high)") if m else top
            if m is not None and (low > high or (low, high) == (0, top)):
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: {low}..{high} is empty or the whole range "
                                                             "(a don't care is left out)")
            key.append((low, high))
            words.append(f"{hex(low)}->{hex(high)}")
            out.range.low, out.range.high = canonical(low), canonical(high)
        else:
            value = _number(m.optional.value, width, what) if m else None
            key.append(value)
            words.append("0&&&0" if value is None else hex(value))
            if value is not None:
                out.optional.value = canonical(value)
        if m is not None:
            canonical_match.append(out)
    if table.needs_priority and entry.priority <= 0:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} needs a priority above 0")
    if not table.needs_priority and entry.priority:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"table {table.name} has no ternary, range or optional field: "
                                                     "its entries have no priority")
    key.append(entry.priority)
    return tuple(key), words, canonical_match


def _stored_entry(entry, match: list) -> p4runtime_pb2.TableEntry:
    """The entry as it is kept (and read): its key canonical; the caller sets its action."""
    stored = p4runtime_pb2.TableEntry(table_id=entry.table_id, priority=entry.priority,
                                      controller_metadata=entry.controller_metadata, metadata=entry.metadata)
    stored.match.extend(match)
    return stored


def _presence(kind: int, present, owner: str, what: str) -> None:
    """An insert's entity must be new, a modify's or delete's there."""
    if kind == Update.INSERT and present is not None:
        raise P4RuntimeError(Code.ALREADY_EXISTS, f"{owner} has a {what}")
    if kind != Update.INSERT and present is None:
        raise P4RuntimeError(Code.NOT_FOUND, f"{owner} has no {what}")


def _dumped_match(field, kind: str, text: str) -> Optional[p4runtime_pb2.FieldMatch]:
    """A match field as a table_dump prints it (`EXACT 0a`, `LPM 0a000000/8`, `TERNARY 0a &&& ff`,
    which optional fields are too, `RANGE 01 -> 0a`), canonical; None for a don't-care."""
    match = p4runtime_pb2.FieldMatch(field_id=field.id)
    if kind == "EXACT":
        match.exact.value = canonical(int(text, 16))
    elif kind == "LPM":
        value, length = text.split("/")
        if int(length) == 0:
            return None
        match.lpm.value, match.lpm.prefix_len = canonical(int(value, 16)), int(length)
    elif kind == "TERNARY":
        value, mask = (int(part, 16) for part in text.split("&&&"))
        if mask == 0:
            return None
        if field.match_type == MatchField.OPTIONAL:
            match.optional.value = canonical(value)
        else:
            match.ternary.value, match.ternary.mask = canonical(value), canonical(mask)
    else:
        low, high = (int(part, 16) for part in text.split("->"))
        if low == 0 and high == (1 << field.bitwidth) - 1:
            return None
        match.range.low, match.range.high = canonical(low), canonical(high)
    return match


def _replica_ports(replicas, owner: str) -> dict[int, list[int]]:
    """The ports of each instance of `replicas`, the instances in the order of their first
    replica, each one's ports ascending."""
    ports: dict[int, list[int]] = {}
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
        if port in ports.get(replica.instance, []):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{owner}: the replica of port {port} and instance "
                                                         f"{replica.instance} is given twice")
        ports.setdefault(replica.instance, []).append(port)
    return {instance: sorted(instance_ports) for instance, instance_ports in ports.items()}


def _value_set_member(value_set, member) -> tuple[int, p4runtime_pb2.ValueSetMember]:
    """A member's value as the switch takes it (its fields one after the other, the first in the
    high bits, as BMv2 packs them) and the member, canonical."""
    name = value_set.preamble.name
    given = {}
    for m in member.match:
        if m.field_id in given:
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: match field {m.field_id} is given twice")
        given[m.field_id] = m
    value, kept = 0, p4runtime_pb2.ValueSetMember()
    for f in value_set.match:
        m = given.pop(f.id, None)
        if f.match_type != MatchField.EXACT:
            raise P4RuntimeError(Code.UNIMPLEMENTED, f"value set {name}: only exact members are supported")
        if m is None or m.WhichOneof("field_match_type") != "exact":
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name}: match field {f.id} needs an exact value")
        number = _number(m.exact.value, f.bitwidth, f"value set {name}, match field {f.id}")
        value = value << f.bitwidth | number
        kept.match.add(field_id=f.id).exact.value = canonical(number)
    if given:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"value set {name} has no match field {next(iter(given))}")
    return value, kept


def _rates(meter_entry) -> str:
    """A MeterEntry's or DirectMeterEntry's config as meter_set_rates takes it: CIR:CBS PIR:PBS, rates
    in units per microsecond."""
    config = meter_entry.config
    if min(config.cir, config.cburst, config.pir, config.pburst) < 0 or config.cir > config.pir:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, "a meter's rates and bursts are not negative, and its "
                                                     "committed rate is not above its peak rate")
    return f"{config.cir / 1e6!r}:{config.cburst} {config.pir / 1e6!r}:{config.pburst}"


def _counts(data) -> str:
    """A CounterData as counter_write takes it: PACKETS BYTES."""
    if data.packet_count < 0 or data.byte_count < 0:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, "a counter's packet and byte counts are not negative")
    return f"{data.packet_count} {data.byte_count}"


def _index(index: int, size: int, what: str) -> int:
    if index < 0:
        raise P4RuntimeError(Code.INVALID_ARGUMENT, f"{what}: index {index} is negative")
    if index >= size:
        raise P4RuntimeError(Code.OUT_OF_RANGE, f"{what}: index {index} is beyond its {size} cells")
    return index


def _bitstring_width(spec) -> int:
    kind = spec.WhichOneof("type_spec")
    if kind in ("bit", "int"):
        return getattr(spec, kind).bitwidth
    raise P4RuntimeError(Code.UNIMPLEMENTED, f"{kind} cells are not supported")


def _switch_error(text: str) -> P4RuntimeError:
    """A command the switch refused, as P4Runtime reports it (validation here makes most
    refusals impossible: what is left is the switch's own limits)."""
    if "is full" in text:
        return P4RuntimeError(Code.RESOURCE_EXHAUSTED, text.strip())
    if "already has an entry" in text:
        return P4RuntimeError(Code.ALREADY_EXISTS, text.strip())
    if "has no entry" in text:
        return P4RuntimeError(Code.NOT_FOUND, text.strip())
    if "in use" in text:
        return P4RuntimeError(Code.FAILED_PRECONDITION, text.strip())
    return P4RuntimeError(Code.INTERNAL, f"the switch refused the update: {text.strip()}")
