"""Action profiles and selectors through P4Runtime: members and groups written and read back,
table entries that name them, taking effect on the packets the switch forwards; a member still
named cannot go, and every bad reference gets its status and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.rpc import code_pb2
from one_header_switch import build_switch, eventually, one_header_program
from p4runtime_client import Controller, entry, p4runtime_switch, rejected, update

from p4odp.controlplane.protos import p4runtime_pb2 as p4r

PROGRAM = one_header_program(
    "bit<8> kind; bit<8> flow;",
    ingress="        mark_to_drop(sm);\n        by_member.apply();\n        by_group.apply();",
    ingress_locals="""\
    counter(8, CounterType.packets) seen;
    action count(bit<32> cell) { seen.count(cell); }
    action_profile(16) members;
    action_selector(HashAlgorithm.crc16, 16, 16) pool;
    table by_member { key = { hdr.h.kind: exact; } actions = { count; NoAction; } implementation = members; }
    table by_group {
        key = { hdr.h.kind: exact; hdr.h.flow: selector; }
        actions = { count; NoAction; }
        implementation = pool;
    }""")

# Kind 1 (by_member), kind 2 (by_group) in flows 0..15: a group's members each get some.
FRAMES = tuple(bytes([1, 0]) + bytes(58) for _ in range(4)) + tuple(bytes([2, f]) + bytes(58) for f in range(16))


@pytest.fixture(scope="module")
def profiles_binary(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("profiles"), PROGRAM, "profiles.p4")


@pytest.fixture
def controller(profiles_binary: Path, tmp_path: Path):
    with p4runtime_switch(profiles_binary, tmp_path, FRAMES) as target:
        primary = Controller(target, election_id=1)
        try:
            assert primary.arbitrate().arbitration.status.code == code_pb2.OK
            yield primary
        finally:
            primary.close()


def member(controller: Controller, profile: str, member_id: int, cell: int) -> p4r.Entity:
    entity = p4r.Entity()
    m = entity.action_profile_member
    m.action_profile_id, m.member_id = controller.id_of("action_profiles", profile), member_id
    m.action.action_id = controller.id_of("actions", "count")
    m.action.params.add(param_id=1, value=bytes([cell]))
    return entity


def group(controller: Controller, group_id: int, *member_ids: int, profile: str = "pool") -> p4r.Entity:
    entity = p4r.Entity()
    g = entity.action_profile_group
    g.action_profile_id, g.group_id = controller.id_of("action_profiles", profile), group_id
    for member_id in member_ids:
        g.members.add(member_id=member_id, weight=1)
    return entity


def indirect(controller: Controller, table: str, kind: int, member_id: int = 0, group_id: int = 0) -> p4r.Entity:
    entity = entry(controller, table, ("hdr.h.kind", "exact", bytes([kind])))
    if member_id:
        entity.table_entry.action.action_profile_member_id = member_id
    else:
        entity.table_entry.action.action_profile_group_id = group_id
    return entity


def counting(controller: Controller, cell: int) -> bool:
    start = controller.cell(cell)
    return eventually(lambda: controller.cell(cell) > start + 10)


def test_members_and_entries_that_name_them(controller: Controller):
    # A member and the entry naming it, in one batch: the entry waits for the member.
    controller.write(update(p4r.Update.INSERT, member(controller, "members", 7, 1)),
                     update(p4r.Update.INSERT, indirect(controller, "by_member", 1, member_id=7)))
    assert counting(controller, 1)
    controller.write(update(p4r.Update.MODIFY, member(controller, "members", 7, 3)))
    assert counting(controller, 3)
    [read] = controller.read(member(controller, "members", 0, 0))  # member id 0: every member
    assert read.action_profile_member.member_id == 7
    assert read.action_profile_member.action.params[0].value == b"\x03"
    [named] = controller.table_entries("by_member")
    assert named.action.action_profile_member_id == 7
    code, details = rejected(lambda: controller.write(update(p4r.Update.DELETE, member(controller, "members", 7, 3))))
    assert details[0][0] == code_pb2.FAILED_PRECONDITION  # an entry names it
    controller.write(update(p4r.Update.DELETE, indirect(controller, "by_member", 1, member_id=7)),
                     update(p4r.Update.DELETE, member(controller, "members", 7, 3)))
    assert controller.read(member(controller, "members", 0, 0)) == []


def test_groups_spread_packets_over_their_members(controller: Controller):
    controller.write(update(p4r.Update.INSERT, member(controller, "pool", 1, 4)),
                     update(p4r.Update.INSERT, member(controller, "pool", 2, 5)),
                     update(p4r.Update.INSERT, group(controller, 9, 1, 2)),
                     update(p4r.Update.INSERT, indirect(controller, "by_group", 2, group_id=9)))
    assert counting(controller, 4) and counting(controller, 5)
    controller.write(update(p4r.Update.MODIFY, group(controller, 9, 2)))  # member 1 leaves
    before = controller.cell(4)
    assert counting(controller, 5) and controller.cell(4) == before
    [read] = controller.read(group(controller, 0))
    assert [m.member_id for m in read.action_profile_group.members] == [2]
    # A pipeline committed anew: entries, groups and members are gone, from the switch too.
    controller.stub.SetForwardingPipelineConfig(p4r.SetForwardingPipelineConfigRequest(
        device_id=0, election_id=p4r.Uint128(low=1), action=p4r.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT,
        config=p4r.ForwardingPipelineConfig(p4info=controller.info)))
    assert controller.read(group(controller, 0)) == [] and controller.table_entries("by_group") == []
    controller.write(update(p4r.Update.INSERT, member(controller, "pool", 1, 4)),
                     update(p4r.Update.INSERT, group(controller, 9, 1)),
                     update(p4r.Update.INSERT, indirect(controller, "by_group", 2, group_id=9)))
    assert counting(controller, 4)


def test_bad_references_get_their_status_and_change_nothing(controller: Controller):
    controller.write(update(p4r.Update.INSERT, member(controller, "members", 1, 1)))
    direct = entry(controller, "by_member", ("hdr.h.kind", "exact", b"\x01"), action="count", params=(b"\x01",))
    bad_action = member(controller, "members", 2, 1)
    bad_action.action_profile_member.action.action_id = 1234
    cases = [
        (p4r.Update.INSERT, indirect(controller, "by_member", 1, member_id=5), code_pb2.NOT_FOUND),
        (p4r.Update.INSERT, indirect(controller, "by_group", 2, group_id=5), code_pb2.NOT_FOUND),
        (p4r.Update.INSERT, direct, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, member(controller, "members", 1, 2), code_pb2.ALREADY_EXISTS),
        (p4r.Update.INSERT, bad_action, code_pb2.INVALID_ARGUMENT),
        (p4r.Update.INSERT, group(controller, 3, 1, profile="members"), code_pb2.INVALID_ARGUMENT),  # no groups
        (p4r.Update.MODIFY, member(controller, "members", 9, 1), code_pb2.NOT_FOUND),
    ]
    for kind, entity, expected in cases:
        code, details = rejected(lambda: controller.write(update(kind, entity)))
        assert [d[0] for d in details] == [expected], (entity, details)
    controller.write(update(p4r.Update.INSERT, member(controller, "pool", 4, 1)))
    twice = group(controller, 3, 4, 4)
    assert rejected(lambda: controller.write(update(p4r.Update.INSERT, twice)))[1][0][0] == code_pb2.INVALID_ARGUMENT
    assert controller.read(group(controller, 0)) == []
    assert controller.table_entries("by_member") == [] and len(controller.read(member(controller, "members", 0, 0))) == 1
