"""BMv2's `standard` Thrift service over the switch's API: tables (direct and indirect), action
profiles and selectors, counters, meters, registers, parser value sets, the program's JSON and its
swap, in BMv2's conventions.

Match keys, action data and value-set values are BMv2's byte strings (a number that fits the
field, whatever its length); an optional field is a ternary one with an all-ones mask, or a zero
mask for don't care.  Priorities are simple_switch_CLI's (the smaller wins): the switch's are
2^31-1 minus them, as its own CLI converts them.  An entry's handle is BMv2's: its index, and in
its top 8 bits how many entries held that index before (the switch counts those above bit 32).
Members and groups are numbered from 0 per profile, as BMv2 numbers them.  A refused call raises
the exception BMv2 would, its code from the switch's errno.
"""

from __future__ import annotations

import errno
import hashlib
import json
from typing import Optional

from bm_runtime.standard.ttypes import (BmActionEntry, BmActionEntryType, BmAddEntryOptions, BmConfig,
                                        BmMtActProfGroup, BmMtActProfMember, BmMtEntry, BmMtEntryLife, BmResourceType,
                                        CounterOperationErrorCode, CrcErrorCode, DevMgrErrorCode, IdLookupErrorCode,
                                        InvalidCounterOperation, InvalidCrcOperation, InvalidDevMgrOperation,
                                        InvalidIdLookup, InvalidLearnOperation, InvalidMeterOperation,
                                        InvalidParseVSetOperation, InvalidRegisterOperation, InvalidSwapOperation,
                                        InvalidTableOperation, LearnOperationErrorCode, MeterOperationErrorCode,
                                        ParseVSetOperationErrorCode, RegisterOperationErrorCode,
                                        SwapOperationErrorCode, TableOperationErrorCode)
from thrift.Thrift import TApplicationException

from p4odp.controlplane import wire
from p4odp.controlplane.bmv2_json import bmv2_json, datapath_of
from p4odp.controlplane.channel import CommandError
from p4odp.controlplane.thrift_switch import Cells, Profile, Table, ThriftSwitch, find, say
from p4odp.controlplane.thrift_values import (bmv2_handle, counter_value, counts, fits, i32, key_field,
                                              match_param, meter_rates, nbytes, rate_configs, register_cell,
                                              register_value, split_data)
from p4odp.controlplane.wire import Call, Match, Reader, WireError

__all__ = ["StandardHandler"]

TableCode = TableOperationErrorCode
INT32_MAX = (1 << 31) - 1
# What the switch's refusal of a table, profile or entry call means, by errno (calls that name
# members or groups say which they name).
_TABLE_CODES = {errno.EEXIST: TableCode.DUPLICATE_ENTRY, errno.ENOSPC: TableCode.TABLE_FULL,
                errno.ENOENT: TableCode.INVALID_HANDLE, errno.EPERM: TableCode.DEFAULT_ACTION_IS_CONST,
                errno.EINVAL: TableCode.BAD_MATCH_KEY, errno.ENODATA: TableCode.EMPTY_GRP}
_MEMBER_CODES = {**_TABLE_CODES, errno.ENOENT: TableCode.INVALID_MBR_HANDLE, errno.EBUSY: TableCode.MBR_STILL_USED,
                 errno.EINVAL: TableCode.BAD_ACTION_DATA}
_GROUP_CODES = {**_TABLE_CODES, errno.ENOENT: TableCode.INVALID_GRP_HANDLE, errno.EBUSY: TableCode.GRP_STILL_USED}
# Per kind of cells: the exception of their calls, and its codes for no such name, no such cell
# and any other refusal.
_CELL_ERRORS = {
    "counters": (InvalidCounterOperation, CounterOperationErrorCode.INVALID_COUNTER_NAME,
                 CounterOperationErrorCode.INVALID_INDEX, CounterOperationErrorCode.ERROR),
    "meters": (InvalidMeterOperation, MeterOperationErrorCode.INVALID_METER_NAME, MeterOperationErrorCode.INVALID_INDEX,
               MeterOperationErrorCode.ERROR),
    "registers": (InvalidRegisterOperation, RegisterOperationErrorCode.INVALID_REGISTER_NAME,
                  RegisterOperationErrorCode.INVALID_INDEX, RegisterOperationErrorCode.ERROR),
    "value_sets": (InvalidParseVSetOperation, ParseVSetOperationErrorCode.INVALID_PARSE_VSET_NAME,
                   ParseVSetOperationErrorCode.ERROR, ParseVSetOperationErrorCode.ERROR),
}


def _table_error(code: int) -> InvalidTableOperation:
    return InvalidTableOperation(code)


class StandardHandler:
    def __init__(self, switch: ThriftSwitch, thrift_port: int) -> None:
        self.switch = switch
        self.thrift_port = thrift_port

    @property
    def _program(self):
        return self.switch.program

    # --- the program's objects by name ------------------------------------------------------

    def _table(self, name: str, kind: str = "any") -> Table:
        """Table `name`: of `kind` any, direct (its entries run actions), indirect (they name
        members or groups) or selector (they name groups); else WRONG_TABLE_TYPE."""
        table = find(self._program.tables, name)
        if table is None:
            raise _table_error(TableCode.INVALID_TABLE_NAME)
        wrong = {"direct": table.profile is not None, "indirect": table.profile is None,
                 "selector": table.profile is None or not table.profile.with_selector}.get(kind, False)
        if wrong:
            raise _table_error(TableCode.WRONG_TABLE_TYPE)
        return table

    def _profile(self, name: str, selector: bool = False) -> Profile:
        profile = find(self._program.profiles, name)
        if profile is None:
            raise _table_error(TableCode.INVALID_ACTION_PROFILE_NAME)
        if selector and not profile.with_selector:
            raise _table_error(TableCode.NO_ACTION_PROFILE_SELECTION)
        return profile

    def _call(self, request: bytes, codes: dict, exception=InvalidTableOperation, otherwise: int = TableCode.ERROR) \
            -> Reader:
        """One call of the switch; a refusal raises `exception` with the code of its errno in
        `codes`, else `otherwise`."""
        try:
            return self._program.wire.call(request)
        except WireError as err:
            raise exception(codes.get(err.code, otherwise)) from None

    # --- what BMv2's clients send, as the switch takes it -----------------------------------

    @staticmethod
    def _action_call(actions: dict, name: str, data) -> Call:
        """Action `name` of `actions` with its parameters' byte strings `data`."""
        action = find(actions, name)
        if action is None:
            raise _table_error(TableCode.INVALID_ACTION_NAME)
        numbers = [fits(value, width) for value, width in zip(data or (), action.widths)]
        if len(data or ()) != len(action.widths) or None in numbers:
            raise _table_error(TableCode.BAD_ACTION_DATA)
        return Call(action.switch_id, data=b"".join(n.to_bytes(nbytes(w), "big")
                                                    for n, w in zip(numbers, action.widths)))

    @staticmethod
    def _match(table: Table, params, options) -> Match:
        """An entry's key, in BMv2's match parameters, and its priority (BmAddEntryOptions)."""
        if len(params or ()) != len(table.keys):
            raise _table_error(TableCode.BAD_MATCH_KEY)
        fields = [key_field(key, param) for key, param in zip(table.keys, params)]
        if not table.needs_priority:
            return Match(0, tuple(fields))
        priority = options.priority if options is not None and options.priority is not None else 0
        if not 0 <= priority <= INT32_MAX:
            raise _table_error(TableCode.BAD_MATCH_KEY)
        return Match(INT32_MAX - priority, tuple(fields))

    def _entry(self, table: Table, handle: int) -> tuple[int, Match, Call]:
        """The switch's entry of BMv2 handle `handle`: its own handle, key and call; else
        INVALID_HANDLE.  Its index is read first with the count the BMv2 handle keeps, then among
        every entry (an index used 256 times or more)."""
        bits = handle & 0xFFFFFFFF
        index, reuses = bits & 0xFFFFFF, bits >> 24
        try:
            read = self._program.wire.call(wire.entry(table.index, reuses << 32 | index))
            return reuses << 32 | index, read.match(table.keys), read.call()
        except WireError:
            pass
        read = self._call(wire.entries(table.index), {})
        for _ in range(read.u32()):
            found, match, call = read.u64(), read.match(table.keys), read.call()
            if found & 0xFFFFFFFF == index and found >> 32 & 0xFF == reuses:
                return found, match, call
        raise _table_error(TableCode.INVALID_HANDLE)

    # --- what the switch has, as BMv2's clients read it -------------------------------------

    def _action_entry(self, call: Call) -> BmActionEntry:
        if call.action == wire.MEMBER:
            return BmActionEntry(action_type=BmActionEntryType.MBR_HANDLE, mbr_handle=i32(call.ref))
        if call.action == wire.GROUP:
            return BmActionEntry(action_type=BmActionEntryType.GRP_HANDLE, grp_handle=i32(call.ref))
        action = self._program.actions.get(call.action)
        if action is None:  # no default action
            return BmActionEntry(action_type=BmActionEntryType.NONE)
        return BmActionEntry(action_type=BmActionEntryType.ACTION_DATA, action_name=action.name,
                             action_data=split_data(call.data, action.widths))

    def _bm_entry(self, table: Table, handle: int, match: Match, call: Call) -> BmMtEntry:
        """An entry as BMv2 reads it; in a table with idle timeouts with its timer (`life`)."""
        life = None
        if table.idle_timeout:
            timer = self._call(wire.entry_timer(table.index, handle), _TABLE_CODES)
            timeout_ns, idle_ns = timer.u64(), timer.u64()
            life = BmMtEntryLife(time_since_hit_ms=idle_ns // 1_000_000, timeout_ms=timeout_ns // 1_000_000)
        return BmMtEntry(match_key=[match_param(key, field) for key, field in zip(table.keys, match.fields)],
                         options=BmAddEntryOptions(priority=INT32_MAX - match.priority if table.needs_priority else -1),
                         entry_handle=bmv2_handle(handle), action_entry=self._action_entry(call), life=life)

    # --- tables -------------------------------------------------------------------------------

    def bm_mt_get_num_entries(self, cxt_id, table_name):
        return self._call(wire.entries(self._table(table_name).index), {}).u32()

    def bm_mt_clear_entries(self, cxt_id, table_name, reset_default_entry):
        table = self._table(table_name)
        self._call(wire.table_clear(table.index), _TABLE_CODES)
        if reset_default_entry and not table.const_default:
            self._call(wire.default_reset(table.index), _TABLE_CODES)

    def bm_mt_add_entry(self, cxt_id, table_name, match_key, action_name, action_data, options):
        table = self._table(table_name, "direct")
        call = self._action_call(table.entry_actions, action_name, action_data)
        return self._add(table, self._match(table, match_key, options), call, _TABLE_CODES)

    def _add(self, table: Table, match: Match, call: Call, codes: dict) -> int:
        return bmv2_handle(self._call(wire.entry_add(table.index, table.keys, match, call), codes).u64())

    def bm_mt_set_default_action(self, cxt_id, table_name, action_name, action_data):
        table = self._table(table_name, "direct")
        self._call(wire.default_set(table.index, self._action_call(table.default_actions, action_name, action_data)),
                   _TABLE_CODES)

    def bm_mt_reset_default_entry(self, cxt_id, table_name):
        self._call(wire.default_reset(self._table(table_name, "direct").index), _TABLE_CODES)

    def bm_mt_delete_entry(self, cxt_id, table_name, entry_handle):
        table = self._table(table_name)
        _, match, _ = self._entry(table, entry_handle)
        self._call(wire.entry_delete(table.index, table.keys, match), _TABLE_CODES)

    def bm_mt_modify_entry(self, cxt_id, table_name, entry_handle, action_name, action_data):
        table = self._table(table_name, "direct")
        call = self._action_call(table.entry_actions, action_name, action_data)
        self._modify(table, entry_handle, call, _TABLE_CODES)

    def _modify(self, table: Table, entry_handle: int, call: Call, codes: dict) -> None:
        _, match, _ = self._entry(table, entry_handle)
        self._call(wire.entry_modify(table.index, table.keys, match, call), codes)

    def bm_mt_set_entry_ttl(self, cxt_id, table_name, entry_handle, timeout_ms):
        table = self._table(table_name)
        self._set_ttl(table, entry_handle, timeout_ms)

    def _set_ttl(self, table: Table, entry_handle: int, timeout_ms: int) -> None:
        """The entry's idle timeout (0: none), in a table with support_timeout."""
        if not table.idle_timeout:
            raise _table_error(TableCode.AGEING_DISABLED)
        _, match, _ = self._entry(table, entry_handle)
        ttl_ns = (timeout_ms & 0xFFFFFFFF) * 1_000_000  # BMv2 takes the i32 as unsigned
        self._call(wire.entry_ttl(table.index, table.keys, match, ttl_ns), _TABLE_CODES)

    def bm_mt_get_entries(self, cxt_id, table_name):
        table = self._table(table_name)
        read = self._call(wire.entries(table.index), {})
        return [self._bm_entry(table, read.u64(), read.match(table.keys), read.call()) for _ in range(read.u32())]

    def bm_mt_get_entry(self, cxt_id, table_name, entry_handle):
        table = self._table(table_name)
        return self._bm_entry(table, *self._entry(table, entry_handle))

    def bm_mt_get_default_entry(self, cxt_id, table_name):
        return self._action_entry(self._call(wire.default(self._table(table_name).index), {}).call())

    def bm_mt_get_entry_from_key(self, cxt_id, table_name, match_key, options):
        table = self._table(table_name)
        handle = self._call(wire.entry_find(table.index, table.keys, self._match(table, match_key, options)),
                            {errno.ENOENT: TableCode.BAD_MATCH_KEY}).u64()
        read = self._call(wire.entry(table.index, handle), _TABLE_CODES)
        return self._bm_entry(table, handle, read.match(table.keys), read.call())

    # --- action profiles and selectors ------------------------------------------------------

    def bm_mt_act_prof_add_member(self, cxt_id, act_prof_name, action_name, action_data):
        profile = self._profile(act_prof_name)
        call = self._action_call(profile.actions, action_name, action_data)
        return self._call(wire.member_add(profile.index, wire.ID_ANY, call), _MEMBER_CODES).u32()

    def bm_mt_act_prof_delete_member(self, cxt_id, act_prof_name, mbr_handle):
        self._call(wire.member_delete(self._profile(act_prof_name).index, mbr_handle), _MEMBER_CODES)

    def bm_mt_act_prof_modify_member(self, cxt_id, act_prof_name, mbr_handle, action_name, action_data):
        profile = self._profile(act_prof_name)
        call = self._action_call(profile.actions, action_name, action_data)
        self._call(wire.member_modify(profile.index, mbr_handle, call), _MEMBER_CODES)

    def bm_mt_act_prof_create_group(self, cxt_id, act_prof_name):
        profile = self._profile(act_prof_name, selector=True)
        return self._call(wire.group_add(profile.index, wire.ID_ANY, 0), _GROUP_CODES).u32()

    def bm_mt_act_prof_delete_group(self, cxt_id, act_prof_name, grp_handle):
        self._call(wire.group_delete(self._profile(act_prof_name, selector=True).index, grp_handle), _GROUP_CODES)

    def bm_mt_act_prof_add_member_to_group(self, cxt_id, act_prof_name, mbr_handle, grp_handle):
        profile = self._profile(act_prof_name, selector=True)
        members = self._group_members(profile, grp_handle)
        if mbr_handle in members:
            raise _table_error(TableCode.MBR_ALREADY_IN_GRP)
        self._call(wire.group_set(profile.index, grp_handle, [*members, mbr_handle]), _MEMBER_CODES)

    def bm_mt_act_prof_remove_member_from_group(self, cxt_id, act_prof_name, mbr_handle, grp_handle):
        profile = self._profile(act_prof_name, selector=True)
        members = self._group_members(profile, grp_handle)
        if mbr_handle not in members:
            raise _table_error(TableCode.MBR_NOT_IN_GRP)
        self._call(wire.group_set(profile.index, grp_handle, [m for m in members if m != mbr_handle]), _GROUP_CODES)

    def _members(self, profile: Profile) -> list[BmMtActProfMember]:
        read = self._call(wire.members(profile.index), {})
        found = []
        for _ in range(read.u32()):
            member, entry = read.u32(), self._action_entry(read.call())
            found.append(BmMtActProfMember(mbr_handle=i32(member), action_name=entry.action_name,
                                           action_data=entry.action_data))
        return sorted(found, key=lambda m: m.mbr_handle)

    def _groups(self, profile: Profile) -> dict[int, list[int]]:
        """The profile's groups: id -> its members' ids (as Thrift's i32s)."""
        groups = {}
        read = self._call(wire.groups(profile.index), {})
        for _ in range(read.u32()):
            group = i32(read.u32())
            read.u32()  # its largest size
            groups[group] = [i32(read.u32()) for _ in range(read.u32())]
        return groups

    def _group_members(self, profile: Profile, group: int) -> list[int]:
        members = self._groups(profile).get(group)
        if members is None:
            raise _table_error(TableCode.INVALID_GRP_HANDLE)
        return members

    def bm_mt_act_prof_get_members(self, cxt_id, act_prof_name):
        return self._members(self._profile(act_prof_name))

    def bm_mt_act_prof_get_member(self, cxt_id, act_prof_name, mbr_handle):
        found = [m for m in self._members(self._profile(act_prof_name)) if m.mbr_handle == mbr_handle]
        if not found:
            raise _table_error(TableCode.INVALID_MBR_HANDLE)
        return found[0]

    def bm_mt_act_prof_get_groups(self, cxt_id, act_prof_name):
        groups = self._groups(self._profile(act_prof_name, selector=True))
        return [BmMtActProfGroup(grp_handle=group, mbr_handles=sorted(members))
                for group, members in sorted(groups.items())]

    def bm_mt_act_prof_get_group(self, cxt_id, act_prof_name, grp_handle):
        members = self._group_members(self._profile(act_prof_name, selector=True), grp_handle)
        return BmMtActProfGroup(grp_handle=grp_handle, mbr_handles=sorted(members))

    # --- tables whose entries name members or groups ----------------------------------------

    def bm_mt_indirect_add_entry(self, cxt_id, table_name, match_key, mbr_handle, options):
        table = self._table(table_name, "indirect")
        return self._add(table, self._match(table, match_key, options), Call(wire.MEMBER, mbr_handle), _MEMBER_CODES)

    def bm_mt_indirect_modify_entry(self, cxt_id, table_name, entry_handle, mbr_handle):
        self._modify(self._table(table_name, "indirect"), entry_handle, Call(wire.MEMBER, mbr_handle),
                     {**_MEMBER_CODES, errno.ENOENT: TableCode.INVALID_MBR_HANDLE})

    def bm_mt_indirect_delete_entry(self, cxt_id, table_name, entry_handle):
        table = self._table(table_name, "indirect")
        self.bm_mt_delete_entry(cxt_id, table.name, entry_handle)

    def bm_mt_indirect_set_entry_ttl(self, cxt_id, table_name, entry_handle, timeout_ms):
        self._set_ttl(self._table(table_name, "indirect"), entry_handle, timeout_ms)

    def bm_mt_indirect_set_default_member(self, cxt_id, table_name, mbr_handle):
        table = self._table(table_name, "indirect")
        self._call(wire.default_set(table.index, Call(wire.MEMBER, mbr_handle)), _MEMBER_CODES)

    def bm_mt_indirect_reset_default_entry(self, cxt_id, table_name):
        self._call(wire.default_reset(self._table(table_name, "indirect").index), _TABLE_CODES)

    def bm_mt_indirect_ws_add_entry(self, cxt_id, table_name, match_key, grp_handle, options):
        table = self._table(table_name, "selector")
        return self._add(table, self._match(table, match_key, options), Call(wire.GROUP, grp_handle), _GROUP_CODES)

    def bm_mt_indirect_ws_modify_entry(self, cxt_id, table_name, entry_handle, grp_handle):
        self._modify(self._table(table_name, "selector"), entry_handle, Call(wire.GROUP, grp_handle), _GROUP_CODES)

    def bm_mt_indirect_ws_set_default_group(self, cxt_id, table_name, grp_handle):
        table = self._table(table_name, "selector")
        self._call(wire.default_set(table.index, Call(wire.GROUP, grp_handle)), _GROUP_CODES)

    # --- a table's direct counter and meter -------------------------------------------------

    def _direct(self, table_name: str, entry_handle: int, resource: str) -> tuple[int, int]:
        """The switch's index of the table's direct `resource` (counter or meter) and the switch's
        handle of the entry."""
        table = self._table(table_name)
        index = getattr(table, resource)
        if index is None:
            raise _table_error(TableCode.COUNTERS_DISABLED if resource == "counter" else TableCode.METERS_DISABLED)
        return index, self._entry(table, entry_handle)[0]

    def bm_mt_read_counter(self, cxt_id, table_name, entry_handle):
        read = self._call(wire.counter_read(*self._direct(table_name, entry_handle, "counter")), _TABLE_CODES)
        return counter_value(read)

    def bm_mt_reset_counters(self, cxt_id, table_name):
        counter = self._table(table_name).counter
        if counter is None:
            raise _table_error(TableCode.COUNTERS_DISABLED)
        self._call(wire.counter_reset(counter), {})

    def bm_mt_write_counter(self, cxt_id, table_name, entry_handle, value):
        counter, handle = self._direct(table_name, entry_handle, "counter")
        self._call(wire.counter_write(counter, handle, *counts(value, _table_error(TableCode.ERROR))), _TABLE_CODES)

    def bm_mt_set_meter_rates(self, cxt_id, table_name, entry_handle, rates):
        meter, handle = self._direct(table_name, entry_handle, "meter")
        try:
            configured = meter_rates(rates)
        except InvalidMeterOperation:
            raise _table_error(TableCode.INVALID_METER_OPERATION) from None
        self._call(wire.meter_set(meter, handle, configured), _TABLE_CODES)

    def bm_mt_get_meter_rates(self, cxt_id, table_name, entry_handle):
        try:
            return rate_configs(self._call(wire.meter(*self._direct(table_name, entry_handle, "meter")), _TABLE_CODES))
        except InvalidMeterOperation:
            raise _table_error(TableCode.INVALID_METER_OPERATION) from None

    # --- counters, meters, registers, value sets --------------------------------------------

    def _cells(self, kind: str, name: str, index: Optional[int] = None) -> Cells:
        """The `kind` (counters, meters, registers, value_sets) called `name`, with `index` one of
        its cells (None: any)."""
        exception, no_name, no_cell, _ = _CELL_ERRORS[kind]
        found = find(getattr(self._program, kind), name)
        if found is None:
            raise exception(no_name)
        if index is not None and not 0 <= index < found.size:
            raise exception(no_cell)
        return found

    def _cell_call(self, kind: str, request: bytes) -> Reader:
        exception, *_, otherwise = _CELL_ERRORS[kind]
        return self._call(request, {}, exception, otherwise)

    def bm_counter_read(self, cxt_id, counter_name, index):
        counter = self._cells("counters", counter_name, index)
        return counter_value(self._cell_call("counters", wire.counter_read(counter.index, index)))

    def bm_counter_reset_all(self, cxt_id, counter_name):
        self._cell_call("counters", wire.counter_reset(self._cells("counters", counter_name).index))

    def bm_counter_write(self, cxt_id, counter_name, index, value):
        counter = self._cells("counters", counter_name, index)
        packets_and_bytes = counts(value, InvalidCounterOperation(CounterOperationErrorCode.ERROR))
        self._cell_call("counters", wire.counter_write(counter.index, index, *packets_and_bytes))

    def bm_meter_array_set_rates(self, cxt_id, meter_array_name, rates):
        meter = self._cells("meters", meter_array_name)
        self._cell_call("meters", wire.meter_set_all(meter.index, meter_rates(rates)))

    def bm_meter_set_rates(self, cxt_id, meter_array_name, index, rates):
        meter = self._cells("meters", meter_array_name, index)
        self._cell_call("meters", wire.meter_set(meter.index, index, meter_rates(rates)))

    def bm_meter_get_rates(self, cxt_id, meter_array_name, index):
        meter = self._cells("meters", meter_array_name, index)
        return rate_configs(self._cell_call("meters", wire.meter(meter.index, index)))

    def bm_register_read(self, cxt_id, register_array_name, idx):
        register = self._cells("registers", register_array_name, idx)
        read = self._cell_call("registers", wire.register_read(register.index, idx))
        return register_value(read.value(register.width), register)

    def bm_register_read_all(self, cxt_id, register_array_name):
        register = self._cells("registers", register_array_name)
        reads = self._program.wire.calls([wire.register_read(register.index, i) for i in range(register.size)])
        if any(isinstance(read, WireError) for read in reads):
            raise InvalidRegisterOperation(RegisterOperationErrorCode.ERROR)
        return [register_value(read.value(register.width), register) for read in reads]

    def bm_register_write(self, cxt_id, register_array_name, index, value):
        self.bm_register_write_range(cxt_id, register_array_name, index, index + 1, value)

    def bm_register_write_range(self, cxt_id, register_array_name, start_index, end_index, value):
        """Cells start_index .. end_index - 1, as BMv2 writes a range, all or none."""
        register = self._cells("registers", register_array_name)
        if not 0 <= start_index <= end_index <= register.size:
            raise InvalidRegisterOperation(RegisterOperationErrorCode.INVALID_INDEX)
        cell = register_cell(value, register)
        requests = [wire.register_write(register.index, i, register.width, cell) for i in range(start_index, end_index)]
        if any(isinstance(r, WireError) for r in self._program.wire.batch(requests, "ROLLBACK_ON_ERROR")):
            raise InvalidRegisterOperation(RegisterOperationErrorCode.ERROR)

    def bm_register_reset(self, cxt_id, register_array_name):
        self._cell_call("registers", wire.register_reset(self._cells("registers", register_array_name).index))

    def _value_of(self, value_set: Cells, value: bytes) -> int:
        """A value set's value from its byte string (of any length: simple_switch_CLI 1.0 sends one
        more byte than the width needs)."""
        number = fits(value, value_set.width)
        if number is None:
            raise InvalidParseVSetOperation(ParseVSetOperationErrorCode.ERROR)
        return number

    def bm_parse_vset_add(self, cxt_id, parse_vset_name, value):
        value_set = self._cells("value_sets", parse_vset_name)
        self._cell_call("value_sets", wire.value_set_add(value_set.index, value_set.width,
                                                         self._value_of(value_set, value)))

    def bm_parse_vset_remove(self, cxt_id, parse_vset_name, value):
        value_set = self._cells("value_sets", parse_vset_name)
        try:
            self._program.wire.call(wire.value_set_remove(value_set.index, value_set.width,
                                                          self._value_of(value_set, value)))
        except WireError as err:
            if err.code != errno.ENOENT:  # BMv2 removes a value it does not hold without a word
                raise InvalidParseVSetOperation(ParseVSetOperationErrorCode.ERROR) from None

    def bm_parse_vset_get(self, cxt_id, parse_vset_name):
        value_set = self._cells("value_sets", parse_vset_name)
        read = self._cell_call("value_sets", wire.value_sets(value_set.index))
        return [read.bytes(nbytes(value_set.width)) for _ in range(read.u32())]

    def bm_parse_vset_clear(self, cxt_id, parse_vset_name):
        self._cell_call("value_sets", wire.value_set_clear(self._cells("value_sets", parse_vset_name).index))

    # --- the program --------------------------------------------------------------------------

    def bm_get_config(self):
        return self._program.config

    def bm_get_config_md5(self):
        return hashlib.md5(self._program.config.encode()).digest()

    def bm_load_new_config(self, config_str):
        """Load the program of the datapath.so the config names (DATAPATH_KEY), which the config
        must describe."""
        if self.switch.loaded is not None:
            raise InvalidSwapOperation(SwapOperationErrorCode.ONGOING_SWAP)
        datapath = datapath_of(config_str)
        if datapath is None:
            say("bm_load_new_config: the config names no program's datapath.so: `p4odp compile --datapath -o DIR` "
                "writes DIR/datapath.json, which does")
            raise InvalidSwapOperation(SwapOperationErrorCode.CONFIG_SWAP_DISABLED)
        try:
            loaded = self.switch.load(datapath, config_str)
        except CommandError as err:
            say(f"bm_load_new_config: {err}")
            raise InvalidSwapOperation(SwapOperationErrorCode.CONFIG_SWAP_DISABLED) from None
        if json.loads(bmv2_json(loaded.device.p4info, datapath)) != json.loads(config_str):
            self.switch.discard()
            say(f"bm_load_new_config: the config does not describe the program of {datapath} (made for another "
                "build of it?)")
            raise InvalidSwapOperation(SwapOperationErrorCode.CONFIG_SWAP_DISABLED)

    def bm_swap_configs(self):
        if self.switch.loaded is None:
            raise InvalidSwapOperation(SwapOperationErrorCode.NO_ONGOING_SWAP)
        try:
            self.switch.swap()
        except CommandError as err:
            say(f"bm_swap_configs: {err}")
            raise InvalidSwapOperation(SwapOperationErrorCode.CONFIG_SWAP_DISABLED) from None

    def bm_reset_state(self):
        self.switch.reset()

    def bm_mgmt_get_info(self):
        return BmConfig(device_id=0, thrift_port=self.thrift_port)

    def bm_get_id_from_name(self, cxt_id, resource_type, resource_name):
        """The id the JSON gives the object of that kind and name."""
        config = json.loads(self._program.config)
        objects = {BmResourceType.MATCH_TABLE: config["pipelines"][0]["tables"],
                   BmResourceType.ACTION_PROFILE: config["pipelines"][0]["action_profiles"],
                   BmResourceType.COUNTER: config["counter_arrays"], BmResourceType.METER: config["meter_arrays"],
                   BmResourceType.REGISTER: config["register_arrays"]}.get(resource_type)
        if objects is None:
            raise InvalidIdLookup(IdLookupErrorCode.INVALID_RESOURCE_TYPE)
        found = find({o["name"]: o["id"] for o in objects}, resource_name)
        if found is None:
            raise InvalidIdLookup(IdLookupErrorCode.INVALID_RESOURCE_NAME)
        return found

    # --- what p4odp does otherwise ------------------------------------------------------------

    def bm_set_crc16_custom_parameters(self, cxt_id, calc_name, crc16_config):
        self._set_crc(16, calc_name, crc16_config)

    def bm_set_crc32_custom_parameters(self, cxt_id, calc_name, crc32_config):
        self._set_crc(32, calc_name, crc32_config)

    def _set_crc(self, width: int, name: str, config) -> None:
        """Through the channel's command (the wire has no call for it); the Thrift config's numbers
        are signed, their bit patterns are the parameters."""
        values = [v & ((1 << width) - 1) for v in (config.polynomial, config.initial_remainder, config.final_xor_value)]
        flags = ["true" if flag else "false" for flag in (config.data_reflected, config.remainder_reflected)]
        try:
            self._program.wire.text_command(f"set_crc{width}_parameters {name} {' '.join(map(str, values + flags))}")
        except CommandError as err:
            unknown = str(err).startswith(f"no crc{width}_custom calculation")
            raise InvalidCrcOperation(CrcErrorCode.INVALID_CALCULATION_NAME if unknown
                                      else CrcErrorCode.INVALID_CONFIG) from None

    def bm_learning_ack(self, cxt_id, list_id, buffer_id, sample_ids):
        _no_learning()

    def bm_learning_ack_buffer(self, cxt_id, list_id, buffer_id):
        _no_learning()

    def bm_learning_set_timeout(self, cxt_id, list_id, timeout_ms):
        _no_learning()

    def bm_learning_set_buffer_size(self, cxt_id, list_id, nb_samples):
        _no_learning()

    def bm_dev_mgr_add_port(self, iface_name, port_num, pcap_path):
        _no_device_manager()

    def bm_dev_mgr_remove_port(self, port_num):
        _no_device_manager()

    def bm_dev_mgr_show_ports(self):
        _no_device_manager()

    def bm_serialize_state(self):
        raise TApplicationException(TApplicationException.UNKNOWN_METHOD,
                                    "p4odp: the switch's state is not serialized (BMv2's --restore-state has no "
                                    "equivalent)")


def _no_learning() -> None:
    say("BMv2's learning lists are not served: `p4odp cli --digests` and P4Runtime's DigestEntry have the "
        "switch's digests")
    raise InvalidLearnOperation(LearnOperationErrorCode.ERROR)


def _no_device_manager() -> None:
    say("the switch's ports are its -i options, set when it starts: no port is added or removed at run time")
    raise InvalidDevMgrOperation(DevMgrErrorCode.ERROR)
