"""Tables: an application as a lookup and a switch over its actions, as the table-layout pass laid
the table out, and the control-plane description of the table.

A table the table-structures pass compiled to code (`code`: const entries; `empty`: no key) is
matched by the generated C itself, its entries' action data in a static array; the runtime's
table then serves the control plane, and the default action when the control plane may change
it (p4_table_default)."""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t

from p4odp.diagnostics import InternalError, Unsupported
from p4odp.transpiler.codegen.scope import Binding, ExternInstance
from p4odp.transpiler.ctypes_map import c_ident
from p4odp.transpiler.model import CActionParam, CAction, CConstEntry, CFieldMatch, CKeyField, CProfile, CTable
from p4odp.transpiler.passes.table_layout import (ActionLayout, ConstEntry, FieldMatch, KeyField, ProfileLayout,
                                                  TableLayout)
from p4odp.transpiler.passes.table_structures import code_switch

__all__ = ["Tables", "burst_state", "last_hit", "learnt", "c_table", "c_action", "c_profile"]

# The runtime's names of the match kinds and of the table-structures pass's lookup structures.
MATCH_KINDS = {"exact": "P4ODP_MATCH_EXACT", "lpm": "P4ODP_MATCH_LPM", "ternary": "P4ODP_MATCH_TERNARY",
               "range": "P4ODP_MATCH_RANGE", "optional": "P4ODP_MATCH_OPTIONAL"}
TABLE_KINDS = {"auto": "P4ODP_TABLE_AUTO", "empty": "P4ODP_TABLE_EMPTY", "code": "P4ODP_TABLE_CODE",
               "cuckoo": "P4ODP_TABLE_CUCKOO", "dir-24-8": "P4ODP_TABLE_DIR24", "trie": "P4ODP_TABLE_TRIE",
               "tss-lpm": "P4ODP_TABLE_TSS_LPM", "tss": "P4ODP_TABLE_TSS"}


def c_table(layout: TableLayout, profiles: dict, burst_key: tuple = ()) -> CTable:
    return CTable(layout.index, _c_name(layout), layout.name,
                  [CKeyField(k.name, k.width, MATCH_KINDS[k.match_kind], k.signed) for k in layout.keys],
                  [a.id for a in layout.actions], layout.size, layout.default_action, list(layout.default_data),
                  layout.default_const, layout.data_bytes, [_c_const_entry(e, layout.keys) for e in layout.entries],
                  TABLE_KINDS[layout.structure],
                  layout.key_bytes, list(burst_key), burst_state(layout) if burst_key else (),
                  profiles[layout.profile].index if layout.profile else -1,
                  last_hit(layout) if layout.idle_timeout else "")


def _c_const_entry(entry: ConstEntry, keys: tuple) -> CConstEntry:
    return CConstEntry([_c_field_match(m, k) for m, k in zip(entry.matches, keys)], entry.priority, entry.action_id,
                       list(entry.data))


def _c_field_match(match: FieldMatch, key: KeyField) -> CFieldMatch:
    """How the runtime's table takes one key field of a const entry (p4odp_table.h)."""
    def as_bytes(value: int) -> list[int]:
        return list(value.to_bytes((key.width + 7) // 8, "big"))

    if key.match_kind == "range":
        return CFieldMatch(None, low=as_bytes(match.low), high=as_bytes(match.high))
    if key.match_kind == "lpm":
        return CFieldMatch(as_bytes(match.value), prefix_len=bin(match.mask).count("1"))
    if key.match_kind == "ternary":
        return CFieldMatch(as_bytes(match.value), mask=as_bytes(match.mask))
    if key.match_kind == "optional" and match.mask == 0:
        return CFieldMatch(as_bytes(0), wildcard=True)
    return CFieldMatch(as_bytes(match.value))


def _c_name(layout: TableLayout) -> str:
    return f"tbl_{c_ident(layout.name)}"


def last_hit(layout: TableLayout) -> str:
    """The member of `struct p4_worker_state` that holds, for a table with idle timeouts, when the
    worker last hit each entry (uint64_t[size], by entry index)."""
    return f"{_c_name(layout)}_last_hit"


def learnt(layout: TableLayout) -> str:
    """The member of `struct p4_worker_state` that holds the worker's learnt entries of an add-on-miss
    table (p4odp_learner_info)."""
    return f"{_c_name(layout)}_learnt"


def burst_state(layout: TableLayout) -> tuple[str, str]:
    """The members of `struct p4_worker_state` that hold, for each packet of a burst, the key the
    traffic manager looked up in the table before the burst ran (burst-lookup pass) and the entry
    it found: (keys, entries)."""
    return f"{_c_name(layout)}_burst_keys", f"{_c_name(layout)}_burst_entries"


def c_profile(profile: ProfileLayout) -> CProfile:
    return CProfile(profile.name, profile.size, profile.data_bytes, profile.algorithm is not None,
                    list(profile.actions))


def c_action(action: ActionLayout) -> CAction:
    return CAction(action.id, action.name, [CActionParam(f.name, f.width, f.signed) for f in action.data])


class Tables:
    """Table applications."""

    def apply_table(self, table_expr: ir.Expression) -> dict:
        """Generate a table application; the C names of its results."""
        table = self.resolve(table_expr) if isinstance(table_expr, ir.PathExpression) else None
        if not isinstance(table, ir.Table):
            raise Unsupported(table_expr.loc, "this table reference")
        layout = self.gen.table_layouts.get(table.name)
        if layout is None:
            raise InternalError(f"table {table.name} applied but not laid out by the table-layout pass ({table.loc})")
        hit, run = self.temp("hit"), self.temp("run")
        self.prelude.append(f"\tbool {hit} = 0;")
        self.prelude.append(f"\tuint32_t {run} = 0;")
        self.emit(f"/* table {layout.name} */")
        self.emit("{")
        self.indent += 1
        learner = next((i for i, learner in enumerate(self.gen.learners) if learner.table == layout.index), None)
        if layout.structure in ("code", "empty") and learner is None:
            data = self.match_in_code(layout, hit, run)
        elif learner is not None:
            # The worker's own learnt entries; the key stays in scope for add_entry in the default action.
            self.emit(f"uint8_t key[{max(layout.key_bytes, 1)}] = {{0}};")
            for key in layout.keys:
                self.store_value("key", key.bit_offset, key.expr)
            self.emit(f"const struct p4odp_table_entry *entry = p4odp_learner_lookup(pc, {learner}, key, &{hit});")
            self.count_hit(layout, hit)
            self.emit(f"{run} = entry->action_id;")
            data = "entry->data"
        else:
            # The burst's lookup of this packet's key, made before the pipeline ran (burst-lookup pass).
            burst = (", ".join(f"WORKER_STATE->{m}" for m in burst_state(layout)) + ", "
                     if table.name in self.gen.burst_lookups else None)
            if 0 < layout.key_bytes <= 8:
                # The key as the number its bytes spell, from the field values: nothing is stored.
                self.emit(f"uint64_t key = {self.key_integer(layout)};")
                lookup = (f"p4_table_lookup_int{'_burst' if burst else ''}(pc, {layout.index}, "
                          f"{TABLE_KINDS[layout.structure]}, {layout.key_bytes}, key, {burst or ''}&{hit})")
            else:
                if layout.key_bytes:
                    self.emit(f"uint8_t key[{layout.key_bytes}] = {{0}};")
                    for key in layout.keys:
                        self.store_value("key", key.bit_offset, key.expr)
                else:
                    self.emit("const uint8_t *key = NULL;")
                lookup = (f"p4_table_lookup_burst(pc, {layout.index}, key, {layout.key_bytes}, {burst}&{hit})"
                          if burst else f"p4_table_lookup(pc, {layout.index}, key, &{hit})")
            self.emit(f"const struct p4odp_table_entry *entry = {lookup};")
            self.count_hit(layout, hit)
            action = self.indirect_action(layout)
            self.emit(f"{run} = {action}->action_id;")
            data = f"{action}->data"
        meter = self.meter_hit(layout, hit)
        likely = next((a.id for a in layout.actions if a.id != layout.default_action), None)
        if likely is None or layout.structure in ("code", "empty"):
            self.emit(f"switch ({run}) {{")
        else:
            # Lookups that find an entry are the common case: its first action other than
            # the default is tested first.
            self.emit(f"switch (__builtin_expect({run}, {likely})) {{")
        for action in layout.actions:
            self.emit(f"case {action.id}: {{")
            self.indent += 1
            if meter is not None:
                with self.bindings.bound(f"$hit {meter[0]}", Binding(hit, t.Bool())), \
                        self.bindings.bound(f"$color {meter[0]}", Binding(meter[1], None)):
                    self.action_case(self.bindings.lookup(action.action), data)
            elif learner is not None:  # add_entry and the expire-time calls of its actions
                with self.bindings.bound("$learner", Binding(str(learner), layout)), \
                        self.bindings.bound("$learner hit", Binding(hit, t.Bool())), \
                        self.bindings.bound("$entry", Binding("entry", None)):
                    self.action_case(self.bindings.lookup(action.action), data)
            elif layout.structure not in ("code", "empty"):  # the entry found, for a count of its direct counter
                with self.bindings.bound("$entry", Binding("entry", None)):
                    self.action_case(self.bindings.lookup(action.action), data)
            else:
                self.action_case(self.bindings.lookup(action.action), data)
            self.indent -= 1
            self.emit("\tbreak;")
            self.emit("}")
        self.emit("default:")
        self.emit("\tbreak;")
        self.emit("}")
        self.indent -= 1
        self.emit("}")
        return {"hit": hit, "action_run": run, "actions": {a.action: a.id for a in layout.actions}}

    def meter_hit(self, layout: TableLayout, hit: str) -> Optional[tuple]:
        """A hit metered in the cell of its entry's index of the table's direct meter, if it has one,
        before the action runs (whose direct_meter.read() takes the colour): (the meter's IR name,
        the C variable of the colour)."""
        meter = self.bindings.lookup(layout.direct_meter) if layout.direct_meter else None
        if not isinstance(meter, ExternInstance):
            return None
        color = self.temp("color")
        self.emit(f"uint8_t {color} = P4ODP_METER_GREEN;")
        if meter.size and layout.structure not in ("code", "empty"):
            self.emit(f"if ({hit}) {color} = p4odp_meter_execute(pc, &STATE->{meter.member}[entry->index], "
                      f"{'pc->len' if meter.bytes else '1'});")
        return meter.name, color

    def count_hit(self, layout: TableLayout, hit: str) -> None:
        """A hit in the cell of its entry's index in the table's direct counter, if it has one, and
        its time, in a table with idle timeouts."""
        counter = self.bindings.lookup(layout.direct_counter) if layout.direct_counter else None
        if isinstance(counter, ExternInstance) and counter.size and not counter.counted_by_calls:
            self.emit(f"if ({hit}) p4odp_count_packet(WORKER_STATE->{counter.member}[entry->index], pc->len);")
        if layout.idle_timeout:
            self.emit(f"if ({hit}) p4odp_entry_hit(pc, WORKER_STATE->{last_hit(layout)}, entry->index);")

    def indirect_action(self, layout: TableLayout) -> str:
        """The C name of the entry whose action runs: `entry` itself, or in a table with an action
        profile, the member its entry names (an action selector's group: the member the hash of the
        selector keys picks), looked up by p4odp_profile_action."""
        if not layout.profile:
            return "entry"
        profile = self.gen.action_profiles[layout.profile]
        self.emit("const struct p4odp_table_entry *member = entry;")
        self.emit("if (entry->action_id >= P4ODP_ACTION_GROUP) {")
        self.indent += 1
        selection = "0"
        if profile.algorithm is not None:  # the selector keys hashed as hash() hashes its data
            size = self.pack_bits("selector", [key.expr for key in layout.selector])
            selection = f"p4_hash({self.gen.architecture.hash_algorithms[profile.algorithm]}, selector, {size})"
        self.emit(f"member = p4odp_profile_action(pc->sw, {profile.index}, entry, {selection});")
        self.indent -= 1
        self.emit("}")
        return "member"

    def key_integer(self, layout: TableLayout) -> str:
        """The C expression of a key of at most 8 bytes as the big-endian number of its bytes: each
        field's bits shifted to where the table layout puts them (p4odp_table_lookup_int)."""
        terms = []
        for key in layout.keys:
            if not key.width:
                continue
            shift = 8 * layout.key_bytes - key.bit_offset - key.width
            terms.append(f"{self.key_bits(key)} << {shift}" if shift else self.key_bits(key))
        return " | ".join(terms) or "0"

    def key_bits(self, key) -> str:
        """A key field's value as a uint64_t of its bits, as the runtime's key holds them."""
        value = f"(uint64_t)({self.value(key.expr)})"
        return f"({value} & UINT64_C({(1 << key.width) - 1}))" if key.width < 64 else value

    def match_in_code(self, layout: TableLayout, hit: str, run: str) -> str:
        """Match the key against the const entries (none for a keyless table): set `hit` and `run`;
        the C name of the action data."""
        entries, data_bytes = layout.code_entries, layout.data_bytes
        if data_bytes and entries:
            rows = ", ".join("{" + ", ".join(map(str, e.data)) + "}" for e in entries)
            self.emit(f"static const uint8_t entry_data[{len(entries)}][{data_bytes}] = {{{rows}}};")
        if data_bytes and layout.default_const:
            default = list(layout.default_data) + [0] * (data_bytes - len(layout.default_data))
            self.emit(f"static const uint8_t default_data[{data_bytes}] = {{{', '.join(map(str, default))}}};")
        if data_bytes:
            self.emit("const uint8_t *data;")
        keys = [self.code_key(key) for key in layout.keys]
        ids = {a.action: a.id for a in layout.actions}
        found = [f"{run} = {ids[e.action]}; {hit} = 1;" + (f" data = entry_data[{i}];" if data_bytes else "")
                 for i, e in enumerate(entries)]
        switch = bool(entries) and code_switch([(k.match_kind, k.width) for k in layout.keys])
        if switch:
            # One switch on the exact fields side by side, the first in the high bits.
            shifts = [sum(k.width for k in layout.keys[i + 1:]) for i in range(len(layout.keys))]
            self.emit(f"switch ({' | '.join(f'{k} << {n}' if n else k for k, n in zip(keys, shifts))}) {{")
            for entry, statement in zip(entries, found):
                self.emit(f"case UINT64_C({sum(m.value << n for m, n in zip(entry.matches, shifts))}):")
                self.emit(f"\t{statement}")
                self.emit("\tbreak;")
            self.emit("default: {")
        else:
            for n, (entry, statement) in enumerate(zip(entries, found)):
                conditions = [c for m, k, name in zip(entry.matches, layout.keys, keys)
                              for c in _conditions(m, k, name)]
                self.emit(f"{'} else ' if n else ''}if ({' && '.join(conditions) or '1'}) {{")
                self.emit(f"\t{statement}")
            if entries:
                self.emit("} else {")
        self.indent += bool(entries)
        if layout.default_const:
            self.emit(f"{run} = {layout.default_action}; {hit} = 0;" + (" data = default_data;" if data_bytes else ""))
        else:
            self.emit(f"const struct p4odp_table_entry *entry = p4_table_default(pc, {layout.index});")
            action = self.indirect_action(layout)
            self.emit(f"{run} = {action}->action_id; {hit} = 0;" + (f" data = {action}->data;" if data_bytes else ""))
        self.indent -= bool(entries)
        if entries:
            self.emit("}")
        if switch:
            self.emit("}")
        return "data" if data_bytes else "NULL"

    def code_key(self, key) -> str:
        """A key field's bits in a new uint64_t; the C name."""
        name = self.temp("k")
        self.emit(f"uint64_t {name} = {self.key_bits(key)};")
        return name

    def action_case(self, action: ir.Action, data: str) -> None:
        """An action a table runs: its parameters loaded from the action data at the C pointer `data`
        (laid out as the table-layout pass says), then its body, an atomic region (atomic.py)."""
        self.emit(f"/* action {action.control_name or action.name} */")
        for param, field in zip(action.params, self.gen.actions[action.name].data):
            name, typ = f"p_{c_ident(param.name)}_{next(self.gen.tmp)}", param.type
            self.emit(self.gen.member_decl(typ, name, param.loc) + ";")
            if field.width > 64:
                self.emit(f"memcpy({name}, {data} + {field.byte_offset}, sizeof {name});")
            else:
                pad = (field.width + 7) // 8 * 8 - field.width
                load = f"p4odp_load_bits({data}, {field.byte_offset * 8 + pad}, {field.width})"
                self.emit(f"{name} = {self.wrap(load, typ) if isinstance(typ, t.Bits) and typ.signed else load};")
            self.bindings.names[param.name] = Binding(name, typ)
        self.atomic(action.body, lambda: self.block(action.body))


def _conditions(match, key, name: str) -> list:
    """C conditions on the key field `name` (a uint64_t) for one const entry's match."""
    top = (1 << key.width) - 1
    if key.match_kind == "range":
        if match.low > match.high:
            return ["0"]  # an empty range, which the runtime refuses when it adds the entries
        if match.low == match.high:
            return [f"{name} == UINT64_C({match.low})"]
        if (match.low, match.high) == (0, top):
            return []
        if match.low == 0:
            return [f"{name} <= UINT64_C({match.high})"]
        if match.high == top:
            return [f"{name} >= UINT64_C({match.low})"]
        # One unsigned comparison: below low wraps around above high - low.
        return [f"{name} - UINT64_C({match.low}) <= UINT64_C({match.high - match.low})"]
    if not match.mask:
        return []
    if match.mask == top:
        return [f"{name} == UINT64_C({match.value})"]
    return [f"({name} & UINT64_C({match.mask})) == UINT64_C({match.value})"]
