"""Action profiles and selectors from the commands (simple_switch_CLI's act_prof_* and
table_indirect_* commands): the member an entry, a group or a default names runs, a group's member
is the one BMv2 picks (the selector keys' hash modulo the group's size, members in handle order),
profiles are shared by tables, and bad lines are refused with the line's place, changing nothing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from one_header_switch import build_switch, one_header_program, run_with_commands

from p4odp.stf.pcap import read_packets

# h.k picks the entry of `t` (selector `sel`, crc16 of a and b) and of `u` (profile `prof`, shared
# with `v`, keyed by a); h.hv is hash() of the same fields with the same algorithm, h.r and h.s what
# the members ran.
PROGRAM = one_header_program("bit<8> k; bit<8> a; bit<8> b; bit<16> hv; bit<8> r; bit<8> s;", """\
        sm.egress_spec = 1;
        hash(hdr.h.hv, HashAlgorithm.crc16, 16w0, { hdr.h.a, hdr.h.b }, 32w65536);
        t.apply();
        u.apply();
        v.apply();""", ingress_locals="""\
    action set_r(bit<8> r) { hdr.h.r = r; }
    action set_s(bit<8> s) { hdr.h.s = s; }
    action_selector(HashAlgorithm.crc16, 32w16, 32w16) sel;
    action_profile(32w4) prof;
    table t {
        key = { hdr.h.k : exact; hdr.h.a : selector; hdr.h.b : selector; }
        actions = { set_r; NoAction; }
        implementation = sel;
    }
    table u {
        key = { hdr.h.k : exact; }
        actions = { set_s; NoAction; }
        implementation = prof;
    }
    table v {
        key = { hdr.h.a : exact; }
        actions = { set_s; NoAction; }
        implementation = prof;
    }""")

MEMBERS = "".join(f"act_prof_create_member sel set_r {r}\n" for r in (10, 20, 30, 40))  # handles 0 to 3


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    return build_switch(tmp_path_factory.mktemp("profiles"), PROGRAM, "profiles.p4")


def _run(switch: Path, tmp_path: Path, commands: str, frames: list[bytes]):
    run = run_with_commands(switch, tmp_path, commands, frames)
    out = read_packets(str(tmp_path / "out.pcap")) if run.returncode == 0 else []
    return run, out


def _frame(k: int, a: int = 0, b: int = 0) -> bytes:
    return bytes([k, a, b, 0, 0, 0, 0])


def test_a_group_runs_the_member_the_selector_hash_picks(switch: Path, tmp_path: Path):
    rng = random.Random(7)
    frames = [_frame(1, rng.randrange(256), rng.randrange(256)) for _ in range(40)]
    run, out = _run(switch, tmp_path, MEMBERS + "act_prof_create_group sel\n"
                    "act_prof_add_member_to_group sel 3 0\nact_prof_add_member_to_group sel 1 0\n"
                    "act_prof_add_member_to_group sel 2 0\ntable_indirect_add_with_group t 1 => 0\n", frames)
    assert run.returncode == 0, run.stderr
    assert "Group has been created with handle 0" in run.stdout.splitlines()
    group = [20, 30, 40]  # members 1, 2, 3: in handle order, whatever order they joined in
    assert len(out) == len(frames)
    assert [p[5] for p in out] == [group[int.from_bytes(p[3:5], "big") % 3] for p in out]
    assert len({p[5] for p in out}) == 3


def test_an_entry_and_a_default_run_the_member_they_name(switch: Path, tmp_path: Path):
    run, out = _run(switch, tmp_path, MEMBERS + "table_indirect_add t 2 => 1\ntable_indirect_set_default t 3\n",
                    [_frame(2, 5, 6), _frame(9)])
    assert run.returncode == 0, run.stderr
    assert [p[5] for p in out] == [20, 40]


def test_a_modified_member_and_entry_run_their_new_action_data(switch: Path, tmp_path: Path):
    run, out = _run(switch, tmp_path, MEMBERS + "table_indirect_add t 2 => 1\nreceive 0\n"
                    "act_prof_modify_member sel set_r 1 99\nreceive 0\ntable_indirect_modify t 0 2\nreceive 0\n",
                    [_frame(2)] * 3)
    assert run.returncode == 0, run.stderr
    assert [p[5] for p in out] == [20, 99, 30]


def test_an_empty_group_runs_no_action(switch: Path, tmp_path: Path):
    run, out = _run(switch, tmp_path, MEMBERS + "act_prof_create_group sel\nact_prof_add_member_to_group sel 0 0\n"
                    "table_indirect_add_with_group t 1 => 0\nact_prof_remove_member_from_group sel 0 0\n",
                    [_frame(1, 1, 2)])
    assert run.returncode == 0, run.stderr
    assert [p[5] for p in out] == [0]  # forwarded, no member ran


def test_tables_share_a_profile_and_its_members(switch: Path, tmp_path: Path):
    commands = ("act_prof_create_member prof set_s 7\ntable_indirect_add u 3 => 0\ntable_indirect_add v 4 => 0\n"
                "receive 0\ntable_delete u 0\ntable_indirect_delete v 0\nact_prof_delete_member prof 0\nreceive 0\n")
    run, out = _run(switch, tmp_path, commands, [_frame(3, 4), _frame(3, 4)])
    assert run.returncode == 0, run.stderr
    assert [p[6] for p in out] == [7, 0]


def test_what_entries_and_defaults_name_is_in_use_until_they_go(switch: Path, tmp_path: Path):
    run, out = _run(switch, tmp_path, MEMBERS + "table_indirect_add t 2 => 1\ntable_clear t\n"
                    "act_prof_delete_member sel 1\ntable_indirect_set_default t 2\n", [_frame(2)])
    assert run.returncode == 0, run.stderr
    assert [p[5] for p in out] == [30]  # the entry cleared, the default member runs
    run, _ = _run(switch, tmp_path, MEMBERS + "table_indirect_set_default t 2\nact_prof_delete_member sel 2\n",
                  [_frame(2)])
    assert "commands.txt:6: error: member 2 of action profile Ing.sel is in use" in run.stderr, run.stderr


def test_users_are_counted_through_modifies_defaults_groups_and_deletes(switch: Path, tmp_path: Path):
    # Each command counts its own change: what a modified entry, a replaced default, a group left
    # and a deleted group named is free; what is still named is not.
    commands = MEMBERS + ("act_prof_create_group sel\nact_prof_add_member_to_group sel 0 0\n"
                          "table_indirect_add t 1 => 1\ntable_indirect_modify t 0 2\nact_prof_delete_member sel 1\n"
                          "table_indirect_set_default t 3\ntable_indirect_set_default t 2\n"
                          "act_prof_delete_member sel 3\nact_prof_remove_member_from_group sel 0 0\n"
                          "act_prof_delete_member sel 0\nact_prof_delete_group sel 0\nact_prof_delete_member sel 2\n")
    run, _ = _run(switch, tmp_path, commands, [_frame(1)])
    place = len(commands.splitlines())
    assert run.returncode != 0 and (f"commands.txt:{place}: error: member 2 of action profile Ing.sel is in use "
                                    "(by 2 table entries and groups)") in run.stderr, run.stderr


@pytest.mark.parametrize("line, message", [
    ("act_prof_create_member nothing set_r 1", "no action profile named 'nothing'"),
    ("act_prof_create_member sel set_s 1", "action profile Ing.sel has no action named 'set_s'"),
    ("act_prof_create_member sel set_r", "action Ing.set_r takes 1 parameters, 0 given"),
    ("act_prof_create_group prof", "action profile Ing.prof has no groups (it is not an action_selector)"),
    ("act_prof_add_member_to_group sel 9 0", "action profile Ing.sel has no member 9"),
    ("act_prof_add_member_to_group sel 0 0", "member 0 is already in group 0 of action profile Ing.sel"),
    ("act_prof_remove_member_from_group sel 1 0", "member 1 is not in group 0 of action profile Ing.sel"),
    ("act_prof_delete_member sel 0", "member 0 of action profile Ing.sel is in use (by 1 table entries and groups)"),
    ("act_prof_delete_group sel 0", "group 0 of action profile Ing.sel is in use (by 1 table entries)"),
    ("table_add t set_r 1 => 5", "the entries of table Ing.t name members of action profile Ing.sel: use the "
                                 "table_indirect_ commands"),
    ("table_indirect_add_with_group t 2 => 1", "group 1 of action profile Ing.sel is empty"),
    ("table_indirect_add t 2 => 0 1", "one member handle after =>, 2 words given"),
    ("table_indirect_add u 2 => 0", "action profile Ing.prof has no member 0"),
    ("table_indirect_add_with_group u 2 => 0", "action profile Ing.prof has no groups (it is not an "
                                               "action_selector)"),
])
def test_a_bad_line_is_refused_with_its_place(switch: Path, tmp_path: Path, line: str, message: str):
    setup = MEMBERS + ("act_prof_create_group sel\nact_prof_create_group sel\nact_prof_add_member_to_group sel 0 0\n"
                       "table_indirect_add_with_group t 1 => 0\n")
    run, _ = _run(switch, tmp_path, f"{setup}{line}\n", [_frame(1)])
    place = len(setup.splitlines()) + 1
    assert run.returncode != 0 and f"commands.txt:{place}: error: {message}" in run.stderr, run.stderr
