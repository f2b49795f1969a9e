"""A program described as BMv2 describes one to its Thrift clients (the JSON of `bm_get_config`,
which simple_switch_CLI reads at start): printed from the program's P4Info, so that every name is
P4Info's, which the switch's objects have too.

It holds what those clients read: the actions and their parameters' widths; the tables, their
match kinds, key fields (a header and field per key field name, for its width), action profiles,
direct counters and meters; the action profiles and selectors; counters, meters, registers and
parser value sets.  It describes the program, it is not one BMv2 could run (no parser, no
control flow).  A description made to load the program into a running switch (`p4odp compile
--datapath`: bm_load_new_config, simple_switch_CLI's load_new_config_file) names its datapath.so
under DATAPATH_KEY.
"""

from __future__ import annotations

import json
from typing import Optional

from p4odp.controlplane.pipeline import MATCH_KINDS
from p4odp.controlplane.protos import p4info_pb2

__all__ = ["DATAPATH_KEY", "bmv2_json", "datapath_of", "register_width", "value_set_width", "KEY_KINDS"]

DATAPATH_KEY = "p4odp_datapath"
# What BMv2's CLI calls each P4Info match kind: an optional field is a ternary one whose mask is
# all ones or zero (don't care), as BMv2's CLIs before optional fields send it.
KEY_KINDS = {**MATCH_KINDS, p4info_pb2.MatchField.OPTIONAL: "ternary"}
MeterUnit = p4info_pb2.MeterSpec.Unit


def bmv2_json(info: p4info_pb2.P4Info, datapath: Optional[str] = None) -> str:
    """The description of the program of P4Info `info`; naming `datapath`, the absolute path of
    its datapath.so, when given."""
    actions = {action.preamble.id: (i, action) for i, action in enumerate(info.actions)}
    tables = {table.preamble.id: table for table in info.tables}
    profiles = {profile.preamble.id: profile for profile in info.action_profiles}
    fields = _key_fields(info.tables)
    out = {
        "__meta__": {"version": [2, 23], "compiler": "p4odp"},
        "header_types": [{"name": f"{header}_t", "id": i, "fields": [[name, width, False]
                                                                       for name, width in header_fields.items()]}
                         for i, (header, header_fields) in enumerate(fields.items())],
        "headers": [{"name": header, "id": i, "header_type": f"{header}_t", "metadata": False}
                    for i, header in enumerate(fields)],
        "actions": [{"name": action.preamble.name, "id": i,
                     "runtime_data": [{"name": p.name, "bitwidth": p.bitwidth} for p in action.params]}
                    for i, action in enumerate(info.actions)],
        # P4Info does not say which block applies a table: one pipeline holds them all.
        "pipelines": [{
            "name": "p4odp", "id": 0,
            "tables": [_table(table, i, actions, profiles, info) for i, table in enumerate(info.tables)],
            "action_profiles": [_profile(profile, i) for i, profile in enumerate(info.action_profiles)],
        }],
        "counter_arrays": [*({"name": c.preamble.name, "id": i, "is_direct": False, "size": c.size}
                             for i, c in enumerate(info.counters)),
                           *({"name": c.preamble.name, "id": len(info.counters) + i, "is_direct": True,
                              "binding": tables[c.direct_table_id].preamble.name}
                             for i, c in enumerate(info.direct_counters))],
        "meter_arrays": [*({"name": m.preamble.name, "id": i, "is_direct": False, "size": m.size,
                            "rate_count": 2, "type": _meter_type(m)} for i, m in enumerate(info.meters)),
                         *({"name": m.preamble.name, "id": len(info.meters) + i, "is_direct": True,
                            "binding": tables[m.direct_table_id].preamble.name, "rate_count": 2,
                            "type": _meter_type(m)} for i, m in enumerate(info.direct_meters))],
        # Registers of bit<W> and int<W> cells: Thrift reads and writes no other.
        "register_arrays": [{"name": r.preamble.name, "id": i, "size": r.size, "bitwidth": register_width(r)}
                            for i, r in enumerate(r for r in info.registers if register_width(r))],
        "parse_vsets": [{"name": v.preamble.name, "id": i, "compressed_bitwidth": value_set_width(v)}
                        for i, v in enumerate(info.value_sets)],
    }
    if datapath is not None:
        out[DATAPATH_KEY] = datapath
    return json.dumps(out, indent=2) + "\n"


def datapath_of(config: str) -> Optional[str]:
    """The datapath.so a description names; None when it names none (or is not one)."""
    try:
        found = json.loads(config).get(DATAPATH_KEY)
    except (ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def register_width(register: p4info_pb2.Register) -> int:
    """The bits of a register's cells; 0 for cells that are not bit<W> or int<W>."""
    spec = register.type_spec
    if spec.WhichOneof("type_spec") != "bitstring":
        return 0
    kind = spec.bitstring.WhichOneof("type_spec")
    return getattr(spec.bitstring, kind).bitwidth if kind in ("bit", "int") else 0


def value_set_width(value_set: p4info_pb2.ValueSet) -> int:
    """The bits of a value set's values: its fields', one after the other (as BMv2 packs them)."""
    return sum(f.bitwidth for f in value_set.match)


def _key_target(name: str) -> tuple[str, str]:
    """The header and field BMv2's CLI joins with a dot into the key field's name: `hdr.ipv4` and
    `dstAddr` for `hdr.ipv4.dstAddr`; a name without a dot is a field of p4c's `scalars`."""
    header, _, field = name.rpartition(".")
    return header or "scalars", field


def _key_fields(tables) -> dict[str, dict[str, int]]:
    """The headers the key fields of `tables` name: header -> field -> width."""
    headers: dict[str, dict[str, int]] = {}
    for table in tables:
        for f in table.match_fields:
            header, field = _key_target(f.name)
            headers.setdefault(header, {})[field] = f.bitwidth
    return headers


def _table_match_type(table: p4info_pb2.Table) -> str:
    """The table's match type as p4c's BMv2 back end gives it: range, ternary (an optional field
    too), lpm or exact, the first its fields have."""
    kinds = {KEY_KINDS.get(f.match_type) for f in table.match_fields}
    return next((kind for kind in ("range", "ternary", "lpm") if kind in kinds), "exact")


def _table(table: p4info_pb2.Table, index: int, actions: dict, profiles: dict, info) -> dict:
    """A table; `actions`: action id -> (its index, the action)."""
    out = {"name": table.preamble.name, "id": index,
           "key": [{"match_type": KEY_KINDS.get(f.match_type, "exact"), "name": f.name,
                    "target": list(_key_target(f.name)), "mask": None} for f in table.match_fields],
           "match_type": _table_match_type(table), "type": "simple", "max_size": table.size,
           "with_counters": any(c.direct_table_id == table.preamble.id for c in info.direct_counters),
           "support_timeout": table.idle_timeout_behavior == p4info_pb2.Table.NOTIFY_CONTROL,
           "direct_meters": next((m.preamble.name for m in info.direct_meters
                                  if m.direct_table_id == table.preamble.id), None),
           "action_ids": [actions[ref.id][0] for ref in table.action_refs],
           "actions": [actions[ref.id][1].preamble.name for ref in table.action_refs]}
    profile = profiles.get(table.implementation_id)
    if profile is not None:
        out["type"] = "indirect_ws" if profile.with_selector else "indirect"
        out["action_profile"] = profile.preamble.name
    return out


def _profile(profile: p4info_pb2.ActionProfile, index: int) -> dict:
    out = {"name": profile.preamble.name, "id": index, "max_size": profile.size}
    if profile.with_selector:
        out["selector"] = {"max_group_size": profile.max_group_size or profile.size}
    return out


def _meter_type(meter) -> str:
    return "bytes" if meter.spec.unit == MeterUnit.BYTES else "packets"
