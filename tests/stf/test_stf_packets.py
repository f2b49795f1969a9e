"""Unit tests of `p4odp.stf.packets`: patterns, matching, hex diffs, per-port checks."""

from __future__ import annotations

import textwrap

import pytest

from p4odp.stf.packets import (ExpectedOutputs, HexError, Mismatch, Pattern, check_port,
                               describe_mismatch, hex_diff, hex_dump, matches, packet_bytes)


def pkt(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


# ----------------------------------------------------------------------------
# Patterns


def test_pattern_parse_spaces_wildcards_and_exact():
    assert Pattern.parse(" 0a 0B\t1 * ** $ ") == Pattern("0A0B1***", exact=True)
    assert Pattern.parse("ab") == Pattern("AB", exact=False)
    assert Pattern.parse("$") == Pattern("", exact=True)


def test_pattern_normalizes_and_checks_nibbles():
    assert Pattern("ab*").nibbles == "AB*"
    with pytest.raises(ValueError):
        Pattern("0x12")


def test_pattern_str_and_length():
    assert str(Pattern("001***", exact=True)) == "00 1* ** $"
    assert Pattern("123").length == 2
    assert not Pattern("123", exact=True).can_match()
    assert Pattern("123").can_match()


@pytest.mark.parametrize("text, offset, message", [
    ("00 $ 11", 3, "'$' must end the expected packet"),
    ("00 g", 3, "invalid character 'g' in packet data"),
    ("0x12", 1, "packet data is bare hex digits, without '0x'"),
])
def test_pattern_parse_errors(text, offset, message):
    with pytest.raises(HexError) as err:
        Pattern.parse(text)
    assert (err.value.offset, err.value.message) == (offset, message)


def test_packet_bytes():
    assert packet_bytes("00 1 1 ff") == b"\x00\x11\xff"
    for text, offset in (("00 1*", 4), ("00$", 2), ("  123", 2)):
        with pytest.raises(HexError) as err:
            packet_bytes(text)
        assert err.value.offset == offset


# ----------------------------------------------------------------------------
# matches (the rules of p4c's compare_pkt)


@pytest.mark.parametrize("pattern, packet, expected", [
    ("00 11 22", "001122", True),
    ("00 11 22", "00112233", True),        # a prefix: longer packets match
    ("00 11 22 $", "00112233", False),     # '$': exact length
    ("00 11 22 $", "001122", True),
    ("00 11 22", "0011", False),           # never shorter
    ("00 11 ** $", "0011", False),         # wildcards still need their bytes
    ("0* *1 22", "0F1122", True),
    ("0* *1 22", "1F1122", False),
    ("ab", "AB", True),                    # case does not matter
    ("123", "1234", True),                 # odd nibbles: a prefix of nibbles
    ("123 $", "1230", False),              # odd and exact: nothing fits
    ("", "", True),
    ("", "00", True),
    ("$", "", True),
    ("$", "00", False),
])
def test_matches(pattern, packet, expected):
    assert matches(Pattern.parse(pattern), pkt(packet)) is expected


def test_none_matches_any_packet():
    assert matches(None, b"")
    assert matches(None, b"\x01\x02")


@pytest.mark.parametrize("pattern, packet, message", [
    ("00 11 22", "001122", None),
    ("00 11 22", "00 12 22", "first difference at byte 1: expected 11, got 12"),
    ("00 1* 22", "00 21 22", "first difference at byte 1: expected 1*, got 21"),
    ("00 11 22", "00 11", "too short: 2 bytes, expected at least 3"),
    ("00 11 $", "00 11 22", "too long: 3 bytes, expected exactly 2"),
    ("00 11 $", "01", "first difference at byte 0: expected 00, got 01; "
                      "too short: 1 bytes, expected exactly 2"),
    ("123 $", "1234", "an exact pattern of 3 hex digits fits no packet"),
])
def test_describe_mismatch(pattern, packet, message):
    assert describe_mismatch(Pattern.parse(pattern), pkt(packet)) == message


# ----------------------------------------------------------------------------
# Hex diffs


def lines(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def test_hex_diff_marks_differing_nibbles():
    pattern = Pattern.parse("00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff 01 ** 03")
    packet = pkt("00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee f0 01 02 13 04")
    assert hex_diff(pattern, packet) == lines("""
        0000  exp  00 11 22 33 44 55 66 77  88 99 AA BB CC DD EE FF
              got  00 11 22 33 44 55 66 77  88 99 AA BB CC DD EE F0
                                                                  ^
        0010  exp  01 ** 03
              got  01 02 13 04
                         ^
        """)


def test_hex_diff_marks_missing_and_extra_bytes():
    assert hex_diff(Pattern.parse("00 11 22 33"), pkt("00 11")) == lines("""
        0000  exp  00 11 22 33
              got  00 11
                         ^^ ^^
        """)
    assert hex_diff(Pattern.parse("00 $"), pkt("00 11")) == lines("""
        0000  exp  00
              got  00 11
                      ^^
        """)


def test_hex_diff_elides_rows_far_from_differences():
    data = bytes(range(96))
    wrong = bytearray(data)
    wrong[90] ^= 0x01
    diff = hex_diff(Pattern(data.hex()), bytes(wrong))
    rows = [line.split()[0] for line in diff.splitlines() if not line.startswith(" ")]
    assert rows == ["...", "0040", "0050"]
    assert diff.splitlines()[-1].index("^") == diff.splitlines()[-2].index("5B") + 1


def test_hex_dump():
    assert hex_dump("00" * 17, "got") == lines("""
        0000  got  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
        0010  got  00
        """)
    assert hex_dump("1*") == "0000  1*"


# ----------------------------------------------------------------------------
# Mismatches and the per-port rules


def test_mismatch_messages_and_rendering():
    differs = Mismatch(1, 0, "differs", Pattern.parse("00 11"), pkt("00 12"))
    assert differs.message == "port 1, packet 0: first difference at byte 1: expected 11, got 12"
    assert str(differs) == differs.message
    assert differs.render() == differs.message + "\n" + lines("""
        0000  exp  00 11
              got  00 12
                       ^
        """)
    missing = Mismatch(2, 3, "missing", Pattern.parse("00 11 $"))
    assert missing.render() == ("port 2, packet 3: expected a packet of exactly 2 bytes, "
                                "received nothing\n0000  exp  00 11")
    assert Mismatch(2, 0, "missing").render() == (
        "port 2, packet 0: expected a packet, received nothing")
    unexpected = Mismatch(4, 1, "unexpected", None, pkt("ab cd"))
    assert unexpected.render() == "port 4, packet 1: unexpected packet of 2 bytes\n0000  got  AB CD"


def test_check_port_in_order():
    a, b = Pattern.parse("0a"), Pattern.parse("0b")
    assert check_port(1, [a, b], [pkt("0a"), pkt("0b")]) == []
    assert check_port(1, [a, b], [pkt("0b"), pkt("0a")]) == [
        Mismatch(1, 0, "differs", a, pkt("0b")), Mismatch(1, 1, "differs", b, pkt("0a"))]


def test_check_port_missing_and_extra_packets():
    a = Pattern.parse("0a")
    assert check_port(1, [a, None], [pkt("0a")]) == [Mismatch(1, 1, "missing", None)]
    assert check_port(1, [a], [pkt("0a"), pkt("ff")]) == [
        Mismatch(1, 1, "unexpected", None, pkt("ff"))]


def test_expected_outputs_check_rules():
    a, b = Pattern.parse("0a"), Pattern.parse("0b")
    outputs = ExpectedOutputs.of([0], [(1, a), (2, None), (1, b)])
    assert outputs.ports == {0, 1, 2}
    good = {1: [pkt("0a"), pkt("0b")], 2: [pkt("ffff")], 7: [pkt("00")]}
    assert outputs.check(good) == []  # port 7 is named nowhere: not checked
    # the input port has no expectations: it must send nothing
    assert outputs.check({**good, 0: [pkt("00")]}) == [
        Mismatch(0, 0, "unexpected", None, pkt("00"))]
    # `expect 2` without data still needs one packet
    assert outputs.check({1: good[1]}) == [Mismatch(2, 0, "missing", None)]
    # failures come port by port
    assert [(m.port, m.kind) for m in outputs.check({0: [b"\x01"], 1: [pkt("0b")]})] == [
        (0, "unexpected"), (1, "differs"), (1, "missing"), (2, "missing")]


def test_expected_outputs_without_anything():
    assert ExpectedOutputs(frozenset()).check({1: [b"\x00"]}) == []
