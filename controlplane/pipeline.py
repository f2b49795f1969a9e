"""A P4Info indexed for a P4Runtime server: every entity by id, a table's match fields and
actions by id, and whether two P4Infos describe the same program."""

from __future__ import annotations

from dataclasses import dataclass, field

from google.protobuf.message import Message

from p4odp.controlplane.protos import p4info_pb2
from p4odp.controlplane.wire import Key

__all__ = ["Pipeline", "TableInfo", "same_program", "MATCH_KINDS"]

MatchField = p4info_pb2.MatchField
ActionRef = p4info_pb2.ActionRef

# The match kinds whose tables order entries by priority (P4Runtime: priority > 0 required).
PRIORITY_KINDS = frozenset({MatchField.TERNARY, MatchField.RANGE, MatchField.OPTIONAL})
# The match kinds served, by the name of FieldMatch's oneof that gives one.
MATCH_KINDS = {MatchField.EXACT: "exact", MatchField.LPM: "lpm", MatchField.TERNARY: "ternary",
               MatchField.RANGE: "range", MatchField.OPTIONAL: "optional"}


@dataclass
class TableInfo:
    message: p4info_pb2.Table
    fields: dict  # match field id -> p4info MatchField
    actions: dict  # action id -> ActionRef.Scope the table allows it in
    needs_priority: bool
    profile_id: int  # its action profile or selector, 0: none
    direct_counter_id: int = 0
    direct_meter_id: int = 0
    # (field id, p4info MatchField, its MATCH_KINDS name or None, its width) of each key field, in order
    match_kinds: list = field(default_factory=list)
    keys: tuple = ()  # its key fields as the switch matches them (wire.Key)
    # Read from `message` once: a write reads them for every update.
    name: str = ""
    idle_timeout: bool = False  # its entries have idle timeouts (support_timeout)
    is_const: bool = False  # const entries: the program's alone

    @property
    def owner(self) -> str:
        """The table as an error message names it."""
        return f"table {self.name}"


@dataclass
class Pipeline:
    """What a P4Info says the switch has, by id."""
    info: p4info_pb2.P4Info
    tables: dict = field(default_factory=dict)  # id -> TableInfo
    actions: dict = field(default_factory=dict)  # id -> p4info Action
    counters: dict = field(default_factory=dict)
    direct_counters: dict = field(default_factory=dict)
    meters: dict = field(default_factory=dict)
    direct_meters: dict = field(default_factory=dict)
    registers: dict = field(default_factory=dict)
    profiles: dict = field(default_factory=dict)  # action profiles and selectors
    value_sets: dict = field(default_factory=dict)
    digests: dict = field(default_factory=dict)

    @classmethod
    def of(cls, info: p4info_pb2.P4Info) -> "Pipeline":
        pipeline = cls(info)
        for kind in ("actions", "counters", "direct_counters", "meters", "direct_meters", "registers",
                     "value_sets", "digests"):
            getattr(pipeline, kind).update((entity.preamble.id, entity) for entity in getattr(info, kind))
        pipeline.profiles = {profile.preamble.id: profile for profile in info.action_profiles}
        for table in info.tables:
            fields = {f.id: f for f in table.match_fields}
            pipeline.tables[table.preamble.id] = TableInfo(
                message=table, fields=fields, actions={ref.id: ref.scope for ref in table.action_refs},
                needs_priority=any(f.match_type in PRIORITY_KINDS for f in table.match_fields),
                profile_id=table.implementation_id,
                match_kinds=[(f.id, f, MATCH_KINDS.get(f.match_type), f.bitwidth) for f in table.match_fields],
                keys=tuple(Key(MATCH_KINDS.get(f.match_type, "exact"), f.bitwidth) for f in table.match_fields),
                name=table.preamble.name, is_const=table.is_const_table,
                idle_timeout=table.idle_timeout_behavior == p4info_pb2.Table.NOTIFY_CONTROL)
        for counter in info.direct_counters:
            if counter.direct_table_id in pipeline.tables:
                pipeline.tables[counter.direct_table_id].direct_counter_id = counter.preamble.id
        for meter in info.direct_meters:
            if meter.direct_table_id in pipeline.tables:
                pipeline.tables[meter.direct_table_id].direct_meter_id = meter.preamble.id
        return pipeline


def same_program(a: p4info_pb2.P4Info, b: p4info_pb2.P4Info) -> bool:
    """Whether two P4Infos describe one program: equal but for documentation, package
    information and the order of entities (a controller may have its P4Info from p4c)."""
    return _essential(a) == _essential(b)


def _essential(info: p4info_pb2.P4Info) -> dict:
    copy = p4info_pb2.P4Info()
    copy.CopyFrom(info)
    copy.ClearField("pkg_info")
    _strip_documentation(copy)
    return {descriptor.name: sorted(item.SerializeToString(deterministic=True) for item in _items(value))
            for descriptor, value in copy.ListFields()}


def _items(value) -> list:
    """The messages of a field's value: itself, a repeated field's, or a map's values."""
    if isinstance(value, Message):
        return [value]
    return list(value.values()) if hasattr(value, "values") else list(value)


def _strip_documentation(message: Message) -> None:
    for descriptor, value in message.ListFields():
        if descriptor.name == "doc":
            message.ClearField("doc")
        elif descriptor.message_type is not None and not _is_scalar_map(descriptor):
            for item in _items(value):
                _strip_documentation(item)


def _is_scalar_map(descriptor) -> bool:
    entry = descriptor.message_type
    return entry.GetOptions().map_entry and entry.fields_by_name["value"].message_type is None
