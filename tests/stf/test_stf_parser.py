"""Unit tests of `p4odp.stf.parser`: STF lines in, typed statements or positioned errors out."""

from __future__ import annotations

import textwrap

import pytest

from p4odp.diagnostics import CompileError, Diagnostics, Loc, format_diagnostic
from p4odp.stf.packets import Pattern
from p4odp.stf.parser import (CLI_COMMANDS, ActionArg, ActionCall, Add, CheckCounter, CliCommand,
                              Expect, KeyMatch, NoPacket, Packet, RemoveAll, SetDefault, Value,
                              Wait, expected_outputs, parse_stf, parse_stf_file)

# ----------------------------------------------------------------------------
# Helpers


def parse(text: str, dedent: bool = True) -> tuple[list, Diagnostics]:
    diags = Diagnostics(max_errors=10_000)
    return parse_stf(textwrap.dedent(text) if dedent else text, "t.stf", diags), diags


def messages(diags: Diagnostics) -> list[tuple[str, str, str]]:
    return [(str(d.loc), d.severity, d.message) for d in diags.items]


def one(line: str):
    """The one statement of a line that must parse without diagnostics."""
    statements, diags = parse(line, dedent=False)
    assert messages(diags) == []
    assert len(statements) == 1
    return statements[0]


def error(line: str) -> tuple[int, str]:
    """The column and message of the one error on a line, which yields no statement."""
    statements, diags = parse(line, dedent=False)
    assert statements == []
    assert [d.severity for d in diags.items] == ["error"]
    return diags.items[0].loc.col, diags.items[0].message


def at(line: int, col: int) -> Loc:
    return Loc("t.stf", line, col)


# ----------------------------------------------------------------------------
# packet and expect


def test_packet_bytes_with_spaces_anywhere():
    statement = one("packet 0 0a0B 1 1  22\t33")
    assert statement == Packet(at(1, 1), 0, bytes.fromhex("0a0b112233"))


def test_packet_keyword_case_port_zeros_and_trailing_comment():
    assert one("  PACKET 007 ff # the comment") == Packet(at(1, 3), 7, b"\xff")


def test_expect_pattern_with_wildcards_and_exact_length():
    statement = one("expect 2 00 1* ** ab $")
    assert statement == Expect(at(1, 1), 2, Pattern("001***AB", exact=True))


def test_expect_prefix_pattern_keeps_odd_nibbles():
    assert one("expect 1 abc").pattern == Pattern("ABC", exact=False)


def test_expect_without_data_expects_any_packet():
    assert one("expect 5") == Expect(at(1, 1), 5, None)
    assert one("expect 5   # comment").pattern is None


def test_expect_dollar_alone_is_the_empty_packet():
    assert one("expect 1 $").pattern == Pattern("", exact=True)


def test_expect_dollar_may_touch_the_data():
    assert one("expect 1 00**$").pattern == Pattern("00**", exact=True)


def test_odd_exact_pattern_warns():
    statements, diags = parse("expect 1 123 $\n")
    assert statements == [Expect(at(1, 1), 1, Pattern("123", exact=True))]
    assert messages(diags) == [("t.stf:1:1", "warning", "an exact ('$') expected packet of 3 hex "
                                "digits, an odd number, matches no packet")]


# ----------------------------------------------------------------------------
# add and setdefault


def test_add_exact_key_and_action_arguments():
    statement = one("add tbl hdr.h.f:0x0a0B act(port:2, val:0x7f)")
    assert statement == Add(
        at(1, 1), "tbl", None,
        (KeyMatch(at(1, 9), "hdr.h.f", Value("0x0a0B", 0x0A0B, 0xFFFF, 16)),),
        ActionCall(at(1, 24), "act", (ActionArg(at(1, 28), "port", Value("2", 2)),
                                      ActionArg(at(1, 36), "val", Value("0x7f", 0x7F, 0xFF, 8)))))


def test_add_priority_and_ternary_masks():
    statement = one("add test1 503 data.f1:0x****0202 h.b:0b1*0 ingress.setb1(val:7)")
    assert statement.priority == 503
    f1, b = statement.matches
    assert f1.value == Value("0x****0202", 0x0202, 0x0000FFFF, 32)
    assert f1.value.has_wildcards
    assert b.value == Value("0b1*0", 0b100, 0b101, 3)
    assert statement.action.name == "ingress.setb1"


def test_add_decimal_value_has_no_width_or_mask():
    value = one("add t k:1113 a()").matches[0].value
    assert value == Value("1113", 1113, None, None)
    assert not value.has_wildcards


def test_add_lpm_prefix():
    match = one("add pipe 0 key.field0:0x010a/16 pipe_Reject()").matches[0]
    assert (match.field, match.value.value, match.prefix_len) == ("key.field0", 0x010A, 16)
    assert match.lpm_prefix_len(32) == 16


@pytest.mark.parametrize("text, value, prefix_len", [
    ("0x0a01****", Value("0x0a01****", 0x0A010000, 0xFFFF0000, 32, 16), 16),
    ("0x0A0101f*", Value("0x0A0101f*", 0x0A0101F0, 0xFFFFFFF0, 32, 28), 28),
    ("0x********", Value("0x********", 0, 0, 32, 0), 0),
    ("0b10**", Value("0b10**", 0b1000, 0b1100, 4, 2), 2),
    ("0b1" + "*" * 31, Value("0b1" + "*" * 31, 1 << 31, 1 << 31, 32, 1), 1),
])
def test_add_lpm_trailing_wildcards_are_a_prefix(text, value, prefix_len):
    """p4c's BMv2 runner reads trailing '*' digits of an lpm key as the host bits:
    0x0a01**** is 0x0a010000/16 (not a /32); the ternary mask stays as it was."""
    match = one(f"add routes hdr.route.dst:{text} route(port:3)").matches[0]
    assert match.value == value
    assert match.prefix_len is None
    assert match.lpm_prefix_len(value.width) == prefix_len


def test_add_lpm_wildcard_prefix_follows_the_key_width():
    """The '*' digits are the key's low bits, whatever the number of digits written."""
    def on(text: str, width: int) -> int | None:
        return one(f"add t k:{text} a()").matches[0].lpm_prefix_len(width)

    assert on("0x1**", 9) == 1           # 12 bits written, 8 of them '*': 1 bit of 9 given
    assert on("0x0a**", 32) == 24        # the leading zeros of the number are given too
    assert on("0x****", 8) == 0          # more '*' bits than the key: /0
    assert on("0x0a010000", 32) == 32    # no '*': the whole key
    assert on("10", 32) == 32


@pytest.mark.parametrize("text", ["0x****0202", "0x0a*1", "0b1*0"])
def test_add_lpm_wildcards_before_digits_are_no_prefix(text):
    value = one(f"add t k:{text} a()").matches[0]
    assert value.value.prefix_len is None
    assert value.lpm_prefix_len(32) is None


@pytest.mark.parametrize("name", ["h.$valid$", "extra$0.h", "h[1].f", "a.b[2].c", "$valid$",
                                  "ethernet.srcAddr.slice"])
def test_add_key_names(name):
    assert one(f"add t {name}:1 a()").matches[0].field == name


def test_add_quoted_names():
    statement = one('add "my.tbl" "odd name":1 "x.y"("p q":1)')
    assert (statement.table, statement.matches[0].field) == ("my.tbl", "odd name")
    assert (statement.action.name, statement.action.args[0].name) == ("x.y", "p q")


def test_add_several_keys_entry_name_and_spaces_around_tokens():
    statement = one("Add t k : 1 k2:2 a ( x : 1 ) = E1")
    assert [m.field for m in statement.matches] == ["k", "k2"]
    assert statement.action.args[0].value.value == 1
    assert statement.entry == "E1"


def test_add_upper_case_hex_prefix():
    assert one("add t k:0X1F a()").matches[0].value.value == 0x1F


def test_setdefault():
    statement = one("setdefault pipe_t pipe_Reject(rej:0, bar:1)")
    assert statement == SetDefault(
        at(1, 1), "pipe_t",
        ActionCall(at(1, 19), "pipe_Reject", (ActionArg(at(1, 31), "rej", Value("0", 0)),
                                               ActionArg(at(1, 38), "bar", Value("1", 1)))))
    assert one("setdefault t NoAction()").action == ActionCall(at(1, 14), "NoAction")


# ----------------------------------------------------------------------------
# remove, wait, no_packet, check_counter, CLI commands


def test_remove_all_wait_no_packet():
    assert one("remove ALL") == RemoveAll(at(1, 1))
    assert one("wait") == Wait(at(1, 1))
    assert one("no_packet") == NoPacket(at(1, 1))


def test_check_counter_index_without_condition():
    assert one("check_counter cntDum(10)") == CheckCounter(at(1, 1), "cntDum", 10, None)


def test_check_counter_entry_and_condition():
    statement = one("check_counter ingress.c($A) BYTES >= 0x40")
    assert statement == CheckCounter(at(1, 1), "ingress.c", None, "A", "bytes", ">=", 64)


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_check_counter_comparisons(op):
    assert one(f"check_counter c(1) packets {op} 2").op == op


CLI_CASES = [
    ("mirroring_add 5 4", ("5", "4")),
    ("mirroring_add_mc 10 5", ("10", "5")),
    ("mirroring_delete 5", ("5",)),
    ("mirroring_get 8", ("8",)),
    ("mc_mgrp_create 1113", ("1113",)),
    ("mc_node_create 257 6 8", ("257", "6", "8")),
    ("mc_node_update 0 1", ("0", "1")),
    ("mc_node_associate 1113 0", ("1113", "0")),
    ("counter_read c.cnt 1", ("c.cnt", "1")),
    ("counter_write c.cnt 1 2 3", ("c.cnt", "1", "2", "3")),
    ("register_read cIngress.regfile 0x5", ("cIngress.regfile", "0x5")),
    ("register_write cIngress.regfile 5 100", ("cIngress.regfile", "5", "100")),
    ("register_reset cIngress.regfile", ("cIngress.regfile",)),
    ("meter_get_rates cIngress.meter0 1", ("cIngress.meter0", "1")),
    ("meter_set_rates cIngress.meter0 2 0.000005:4 0.00002:5",
     ("cIngress.meter0", "2", "0.000005:4", "0.00002:5")),
    ("act_prof_create_member Ing.sel set_nhop 00:00:00:00:02:02 2  # a member",
     ("Ing.sel", "set_nhop", "00:00:00:00:02:02", "2")),
    ("act_prof_create_member Ing.sel NoAction", ("Ing.sel", "NoAction")),
    ("act_prof_create_group Ing.sel", ("Ing.sel",)),
    ("act_prof_add_member_to_group Ing.sel 1 0", ("Ing.sel", "1", "0")),
    ("act_prof_remove_member_from_group Ing.sel 1 0", ("Ing.sel", "1", "0")),
    ("table_indirect_add_with_group routes 10.0.0.0/8 0x50&&&0xf0 => 0 7",
     ("routes", "10.0.0.0/8", "0x50&&&0xf0", "=>", "0", "7")),
    ("table_indirect_add routes 0x0a000000/8 => 2", ("routes", "0x0a000000/8", "=>", "2")),
    ("table_indirect_set_default routes 2", ("routes", "2")),
    ("table_indirect_set_default_with_group routes 0", ("routes", "0")),
    ("meter_array_set_rates m 6:7 0.00008 : 9", ("m", "6:7", "0.00008:9")),
]


@pytest.mark.parametrize("line, args", CLI_CASES)
def test_cli_commands_pass_through(line, args):
    name = line.split()[0]
    statement = one(name.upper() + line[len(name):])  # keywords are case-insensitive
    assert statement == CliCommand(at(1, 1), name, args)
    assert statement.line == " ".join((name,) + args)


def test_every_cli_command_is_tested():
    assert {line.split()[0] for line, _ in CLI_CASES} == set(CLI_COMMANDS)


# ----------------------------------------------------------------------------
# Files: comments, blank lines, line numbers, recovery


def test_file_with_comments_blank_lines_and_crlf():
    text = ("# a test\r\n\r\n  \t\r\nadd t k:1 a()  # entry\r\npacket 0 00\r\n## end\r\n"
            "expect 1 00 $\r\n")
    statements, diags = parse(text)
    assert messages(diags) == []
    assert [(type(s).__name__, s.loc.line) for s in statements] == [
        ("Add", 4), ("Packet", 5), ("Expect", 7)]


def test_errors_on_several_lines_are_all_reported_and_good_lines_kept():
    statements, diags = parse("""\
        packet 0 00
        bogus 1
        add t a()
        expect 1 00
        """)
    assert [type(s).__name__ for s in statements] == ["Packet", "Expect"]
    assert messages(diags) == [
        ("t.stf:2:1", "error", "unknown statement 'bogus'"),
        ("t.stf:3:7", "error", "expected a key match 'FIELD:VALUE' before the action"),
    ]


def test_too_many_errors_stop_the_parse():
    with pytest.raises(CompileError):
        parse_stf("bad\n" * 5, "t.stf", Diagnostics(max_errors=3))


def test_parse_file_and_diagnostic_format(tmp_path):
    path = tmp_path / "x.stf"
    path.write_text("packet 0 00\nexpect 1 0x12\n")
    diags = Diagnostics()
    statements = parse_stf_file(str(path), diags)
    assert statements == [Packet(Loc(str(path), 1, 1), 0, b"\x00")]
    assert format_diagnostic(diags.items[0]) == (
        f"{path}:2:11: error: packet data is bare hex digits, without '0x'\n"
        "expect 1 0x12\n"
        "          ^\n")


def test_parse_missing_file():
    diags = Diagnostics()
    assert parse_stf_file("/nonexistent/x.stf", diags) == []
    assert [(d.loc, d.message) for d in diags.items] == [
        (Loc("/nonexistent/x.stf", 0, 0), "cannot read the STF file: No such file or directory")]


def test_expected_outputs_of_statements():
    statements, _ = parse("""\
        packet 0 00
        expect 1 01
        expect 2
        packet 3 00
        expect 1 02 $
        """)
    outputs = expected_outputs(statements)
    assert outputs.ports == {0, 1, 2, 3}
    assert outputs.packets == {1: (Pattern("01"), Pattern("02", exact=True)), 2: (None,)}


# ----------------------------------------------------------------------------
# Every error


@pytest.mark.parametrize("line, col, message", [
    # statements
    ("12 packet", 1, "expected a statement (packet, expect, add, ...)"),
    ("  foo bar", 3, "unknown statement 'foo'"),
    ("add t k:1 a() extra", 15, "expected end of line, found 'extra'"),
    ("wait now", 6, "expected end of line, found 'now'"),
    ("no_packet 1", 11, "expected end of line, found '1'"),
    # characters
    ("add t k:-1 a()", 9, "unexpected character '-'"),
    ('add t "k:1 a()', 7, "missing closing '\"'"),
    ('add t "":1 a()', 7, "empty quoted name"),
    # packet and expect
    ("packet", 7, "expected a port number after 'packet', found end of line"),
    ("packet 0x1 00", 8, "expected a port number after 'packet', found '0x1'"),
    ("expect 1a 00", 8, "expected a port number after 'expect', found '1a'"),
    ("packet 1", 9, "expected packet data after the port"),
    ("packet 1 # nothing", 9, "expected packet data after the port"),
    ("packet 0 123", 10, "packet data has an odd number of hex digits (3)"),
    ("packet 0 00 1*", 14, "'*' is only allowed in expected packets"),
    ("packet 0 00 $", 13, "'$' is only allowed in expected packets"),
    ("expect 1 00 $ 11", 13, "'$' must end the expected packet"),
    ("expect 1 00 zz", 13, "invalid character 'z' in packet data"),
    ("expect 1 0x12", 11, "packet data is bare hex digits, without '0x'"),
    # add
    ("add", 4, "expected a table name, found end of line"),
    ("add t a()", 7, "expected a key match 'FIELD:VALUE' before the action"),
    ("add t 0x10 k:1 a()", 7, "a priority is a decimal number, found '0x10'"),
    ("add t k:1", 10, "expected a key match 'FIELD:VALUE' or the action, found end of line"),
    ("add t k 1 a()", 9, "expected ':' (a key match FIELD:VALUE) or '(' (the action), found '1'"),
    ("add t k: a()", 10, "expected a key value, found 'a'"),
    ("add t k:1a a()", 9, "invalid number '1a'"),
    ("add t k:0xg a()", 9, "invalid number '0xg'"),
    ("add t k:0b12 a()", 9, "invalid number '0b12'"),
    ("add t k:12* a()", 9, "invalid number '12*': '*' digits need a hexadecimal (0x) or binary "
                           "(0b) number"),
    ("add t k:1.5 a()", 9, "invalid number '1.5'"),
    ("add t k:0x1*/8 a()", 13, "a key value takes '*' digits or a '/LEN' prefix length, not both"),
    ("add t k:0x1/ a()", 14, "expected a prefix length, found 'a'"),
    ("add t k:1 k:2 a()", 11, "key field 'k' given twice"),
    ("add t h[x].f:1 a()", 9, "expected an index, found 'x'"),
    ("add t h[1.f:1 a()", 9, "expected an index, found '1.f'"),
    ("add t h.:1 a()", 9, "expected a name after '.', found ':'"),
    ("add t k:1 a", 12, "expected ':' (a key match FIELD:VALUE) or '(' (the action), "
                        "found end of line"),
    ("add t k:1 a(x:1,)", 17, "expected an action argument 'NAME:VALUE', found ')'"),
    ("add t k:1 a(x 1)", 15, "expected ':' after the argument name, found '1'"),
    ("add t k:1 a(x:0b*1)", 15, "'*' digits are only allowed in key values"),
    ("add t k:1 a(x:1 y:2)", 17, "expected ')' to close the action's arguments, found 'y'"),
    ("add t k:1 a(x:1, x:2)", 18, "argument 'x' given twice"),
    ("add t k:1 a() =", 16, "expected an entry name after '=', found end of line"),
    # setdefault
    ("setdefault t", 13, "expected an action name, found end of line"),
    ("setdefault t a(", 16, "expected an action argument 'NAME:VALUE', found end of line"),
    # remove
    ("remove t", 8, "only 'remove all' is supported (STF has no syntax to remove one entry)"),
    ("remove", 7, "only 'remove all' is supported (STF has no syntax to remove one entry)"),
    # check_counter
    ("check_counter c", 16, "expected '(' after the counter name, found end of line"),
    ("check_counter c(x)", 17, "expected a counter index or '$ENTRY' (an entry named by "
                               "'add ... = ENTRY'), found 'x'"),
    ("check_counter c(1", 18, "expected ')' after the counter index, found end of line"),
    ("check_counter c(1) frames == 1", 20, "expected 'packets' or 'bytes', found 'frames'"),
    ("check_counter c(1) packets = 1", 28, "expected a comparison (== != < <= > >=), found '='"),
    ("check_counter c(1) packets == x", 31, "expected a number, found 'x'"),
    # CLI commands
    ("mc_node_create 0", 17, "expected a number, found end of line"),
    ("mc_mgrp_create 1 2", 18, "expected end of line, found '2'"),
    ("mirroring_add 1 x", 17, "expected a number, found 'x'"),
    ("register_read 1 2", 15, "expected a name, found '1'"),
    ("meter_set_rates m 1 x", 21, "expected a meter rate 'RATE:BURST', found 'x'"),
    ("meter_set_rates m 1 0.5", 24, "expected ':' between the rate and the burst size, "
                                    "found end of line"),
])
def test_errors(line, col, message):
    assert error(line) == (col, message)
