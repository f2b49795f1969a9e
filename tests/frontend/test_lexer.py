"""Unit tests of `p4odp.frontend.lexer`: tokens, literals, comments, line markers."""

from __future__ import annotations

import pytest

from p4odp.diagnostics import Diagnostics, Loc
from p4odp.frontend.lexer import KEYWORDS, tokenize


def lex(text: str, filename: str = "t.p4"):
    diags = Diagnostics()
    tokens = tokenize(text, filename, diags)
    return tokens, diags


def lex_ok(text: str, filename: str = "t.p4"):
    """The tokens of `text` without the final eof; no diagnostics allowed."""
    tokens, diags = lex(text, filename)
    assert [(str(d.loc), d.message) for d in diags.items] == []
    assert tokens[-1].kind == "eof"
    return tokens[:-1]


def pairs(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in lex_ok(text)]


def errors(diags: Diagnostics) -> list[tuple[str, str]]:
    return [(str(d.loc), d.message) for d in diags.items if d.severity == "error"]


# ----------------------------------------------------------------------------
# Token kinds and positions


def test_every_token_kind():
    assert pairs('header h_t { bit<8> f; } "str" 42') == [
        ("kw", "header"),
        ("id", "h_t"),
        ("op", "{"),
        ("kw", "bit"),
        ("op", "<"),
        ("int", "8"),
        ("op", ">"),
        ("id", "f"),
        ("op", ";"),
        ("op", "}"),
        ("str", '"str"'),
        ("int", "42"),
    ]


def test_eof_token_closes_every_stream():
    tokens, diags = lex("")
    assert [(t.kind, t.loc) for t in tokens] == [("eof", Loc("t.p4", 1, 1))]
    tokens, _ = lex("a\n  b")
    assert tokens[-1].kind == "eof"
    assert tokens[-1].loc == Loc("t.p4", 2, 4)


def test_locations_are_one_based_lines_and_columns():
    tokens = lex_ok("a\n  bb  c\n\tdd")
    assert [(t.text, t.loc.line, t.loc.col) for t in tokens] == [
        ("a", 1, 1),
        ("bb", 2, 3),
        ("c", 2, 7),
        ("dd", 3, 2),
    ]
    assert all(t.loc.file == "t.p4" for t in tokens)


def test_offsets_slice_the_token_text():
    text = 'x = 8w5 + "s";'
    for tok in lex_ok(text):
        assert text[tok.start : tok.end] == tok.text


def test_crlf_line_endings():
    tokens = lex_ok("a\r\nb\r\n  c")
    assert [(t.text, t.loc.line, t.loc.col) for t in tokens] == [("a", 1, 1), ("b", 2, 1), ("c", 3, 3)]


# ----------------------------------------------------------------------------
# Integer literals: value is (value, width, signed, base)


@pytest.mark.parametrize(
    "text, value",
    [
        ("0", (0, None, False, 10)),
        ("5", (5, None, False, 10)),
        ("1_000", (1000, None, False, 10)),
        ("0x1F", (31, None, False, 16)),
        ("0XfF", (255, None, False, 16)),
        ("0xdead_beef", (0xDEADBEEF, None, False, 16)),
        ("0b1010", (10, None, False, 2)),
        ("0B1_0", (2, None, False, 2)),
        ("0o17", (15, None, False, 8)),
        ("0O7", (7, None, False, 8)),
        ("0d99", (99, None, False, 10)),
        ("0D0_9", (9, None, False, 10)),
        ("8w5", (5, 8, False, 10)),
        ("4s3", (3, 4, True, 10)),
        ("16w0xFFFF", (65535, 16, False, 16)),
        ("8s0b1111_0000", (240, 8, True, 2)),
        ("32w0o777", (511, 32, False, 8)),
        ("9w0d300", (300, 9, False, 10)),
        ("1w1", (1, 1, False, 10)),
        ("128w0xffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff", (2**128 - 1, 128, False, 16)),
    ],
)
def test_integer_literal(text, value):
    [tok] = lex_ok(text)
    assert tok.kind == "int"
    assert tok.text == text
    assert tok.value == value


def test_integer_literal_next_to_operators():
    assert [(t.kind, t.text, t.value) for t in lex_ok("8w1..8w5")] == [
        ("int", "8w1", (1, 8, False, 10)),
        ("op", "..", None),
        ("int", "8w5", (5, 8, False, 10)),
    ]
    assert pairs("x[7:0]") == [("id", "x"), ("op", "["), ("int", "7"), ("op", ":"), ("int", "0"), ("op", "]")]


@pytest.mark.parametrize("bad", ["8w", "0xZZ", "0x", "5s", "12abc", "0b102", "0o9", "8w0x", "0xABCDEFG", "16w_1"])
def test_malformed_integer_literal_is_a_positioned_error(bad):
    tokens, diags = lex(f"x = {bad};")
    assert errors(diags) == [("t.p4:1:5", f"malformed integer literal '{bad}'")]
    # The bad literal is dropped; lexing goes on after it.
    assert [(t.kind, t.text) for t in tokens] == [("id", "x"), ("op", "="), ("op", ";"), ("eof", "end of input")]


def test_malformed_literal_position_on_a_later_line():
    tokens, diags = lex("a;\n  b = 8w + 0xZZ;\n")
    assert errors(diags) == [
        ("t.p4:2:7", "malformed integer literal '8w'"),
        ("t.p4:2:12", "malformed integer literal '0xZZ'"),
    ]
    assert [t.text for t in tokens] == ["a", ";", "b", "=", "+", ";", "end of input"]


# ----------------------------------------------------------------------------
# Strings


@pytest.mark.parametrize(
    "source, value",
    [
        (r'""', ""),
        (r'"plain text"', "plain text"),
        (r'"a\"b"', 'a"b'),
        (r'"back\\slash"', "back\\slash"),
        (r'"l1\nl2\tt\rr"', "l1\nl2\tt\rr"),
        (r'"nul\0"', "nul\0"),
        (r'"unknown \q escape"', "unknown q escape"),
    ],
)
def test_string_escapes(source, value):
    [tok] = lex_ok(source)
    assert tok.kind == "str"
    assert tok.text == source  # the raw spelling, quotes included
    assert tok.value == value


def test_string_spanning_lines_keeps_line_numbers():
    tokens = lex_ok('"a\nbc" x\ny')
    assert tokens[0].value == "a\nbc"
    assert [(t.text, t.loc.line, t.loc.col) for t in tokens[1:]] == [("x", 2, 5), ("y", 3, 1)]


def test_unterminated_string_is_an_error_at_the_quote():
    tokens, diags = lex('a = "oops;\n')
    assert errors(diags) == [("t.p4:1:5", "unterminated string literal")]
    assert [t.kind for t in tokens] == ["id", "op", "eof"]


# ----------------------------------------------------------------------------
# Comments


def test_line_comments_are_skipped():
    assert pairs("a // b c\nd // at end of file") == [("id", "a"), ("id", "d")]


def test_block_comment_on_one_line():
    tokens = lex_ok("a /* b */ c")
    assert [(t.text, t.loc.col) for t in tokens] == [("a", 1), ("c", 11)]


def test_block_comment_spanning_lines_keeps_lines_and_columns():
    tokens = lex_ok("x /* one\n two\n three */ y\nz")
    assert [(t.text, t.loc.line, t.loc.col) for t in tokens] == [("x", 1, 1), ("y", 3, 11), ("z", 4, 1)]


def test_comment_markers_inside_strings_are_text():
    [tok] = lex_ok('"// not /* a comment"')
    assert tok.value == "// not /* a comment"


def test_block_comments_do_not_nest():
    assert pairs("/* a /* b */ c */") == [("id", "c"), ("op", "*"), ("op", "/")]


def test_unterminated_block_comment_is_an_error_at_its_start():
    tokens, diags = lex("a\n  /* never closed\n b")
    assert errors(diags) == [("t.p4:2:3", "unterminated comment")]
    assert [t.kind for t in tokens] == ["id", "eof"]


# ----------------------------------------------------------------------------
# Preprocessor output


def test_line_marker_moves_following_tokens():
    tokens = lex_ok('a\n# 12 "foo.p4"\nb c\nd')
    assert [(t.text, str(t.loc)) for t in tokens] == [
        ("a", "t.p4:1:1"),
        ("b", "foo.p4:12:1"),
        ("c", "foo.p4:12:3"),
        ("d", "foo.p4:13:1"),
    ]


def test_line_marker_variants():
    text = '#line 3 "bar.p4"\nx\n  # 40 "inc/v1model.p4" 1 3 4\ny\n# 7 "C:\\\\p4\\\\prog.p4" 2\nz'
    tokens = lex_ok(text)
    assert [(t.text, str(t.loc)) for t in tokens] == [
        ("x", "bar.p4:3:1"),
        ("y", "inc/v1model.p4:40:1"),
        ("z", "C:\\p4\\prog.p4:7:1"),
    ]


def test_line_marker_applies_to_the_eof_token():
    tokens = lex_ok('# 5 "end.p4"\n')
    assert tokens == []
    eof = lex('# 5 "end.p4"\n')[0][-1]
    assert eof.loc == Loc("end.p4", 5, 1)


def test_pragma_lines_are_ignored_other_directives_reported():
    tokens, diags = lex("#pragma once\na\n  #include <core.p4>\nb")
    assert errors(diags) == [("t.p4:3:3", "unexpected preprocessor directive")]
    assert [(t.text, t.loc.line) for t in tokens[:-1]] == [("a", 2), ("b", 4)]


def test_hash_inside_a_line_is_an_operator():
    assert pairs("a # b") == [("id", "a"), ("op", "#"), ("id", "b")]


def test_invalid_header_initializer_is_one_token():
    assert pairs("h = {#};") == [("id", "h"), ("op", "="), ("op", "{#}"), ("op", ";")]


def test_line_marker_with_non_ascii_file_name():
    [tok] = lex_ok('# 1 "dir/é.p4"\nq')
    assert tok.loc == Loc("dir/é.p4", 1, 1)


# ----------------------------------------------------------------------------
# Operators


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a&&&b", ["a", "&&&", "b"]),
        ("a&&b", ["a", "&&", "b"]),
        ("a&b", ["a", "&", "b"]),
        ("a|+|b", ["a", "|+|", "b"]),
        ("a|-|b", ["a", "|-|", "b"]),
        ("a|+b", ["a", "|", "+", "b"]),
        ("a||b", ["a", "||", "b"]),
        ("x|+|=1", ["x", "|+|=", "1"]),
        ("x|-|=1", ["x", "|-|=", "1"]),
        ("a[i+:8]", ["a", "[", "i", "+:", "8", "]"]),
        ("{a, ...}", ["{", "a", ",", "...", "}"]),
        ("1..2", ["1", "..", "2"]),
        ("a++b", ["a", "++", "b"]),
        ("a+++b", ["a", "++", "+", "b"]),
        ("x+=1", ["x", "+=", "1"]),
        ("x<<=1", ["x", "<<=", "1"]),
        ("a<<b", ["a", "<<", "b"]),
        ("a<=b", ["a", "<=", "b"]),
        ("a>=b", ["a", ">=", "b"]),
        ("a==b", ["a", "==", "b"]),
        ("a!=b", ["a", "!=", "b"]),
        ("!~-", ["!", "~", "-"]),
        ("@a[k=1]", ["@", "a", "[", "k", "=", "1", "]"]),
        ("c?x:y", ["c", "?", "x", ":", "y"]),
        ("*/%^", ["*", "/", "%", "^"]),
    ],
)
def test_operators_longest_match(text, expected):
    tokens = lex_ok(text)
    assert [t.text for t in tokens] == expected
    assert all(t.kind == "op" for t in tokens if not t.text[0].isalnum())


def test_right_shift_stays_two_adjacent_greater_than_tokens():
    tokens = lex_ok("a >> 2")
    assert [(t.kind, t.text) for t in tokens] == [("id", "a"), ("op", ">"), ("op", ">"), ("int", "2")]
    assert tokens[1].end == tokens[2].start  # adjacent: the parser may join them
    spaced = lex_ok("a > > 2")
    assert spaced[1].end < spaced[2].start


def test_closing_nested_type_lists():
    assert [t.text for t in lex_ok("bit<bit<8>>")] == ["bit", "<", "bit", "<", "8", ">", ">"]


def test_shift_assign_is_greater_then_greater_equal():
    assert pairs("x >>= 1") == [("id", "x"), ("op", ">"), ("op", ">="), ("int", "1")]


# ----------------------------------------------------------------------------
# Keywords and identifiers


@pytest.mark.parametrize("word", ["apply", "key", "actions", "state", "entries", "type", "priority", "list"])
def test_contextual_words_are_identifiers(word):
    assert pairs(word) == [("id", word)]


@pytest.mark.parametrize(
    "word",
    ["_", "header", "header_union", "struct", "transition", "select", "value_set", "table", "action",
     "control", "parser", "extern", "const", "in", "out", "inout", "this", "for", "break", "continue"],
)
def test_keywords(word):
    assert word in KEYWORDS
    assert pairs(word) == [("kw", word)]


def test_underscore_is_a_keyword_but_not_a_prefix():
    assert pairs("_ _x x_ __") == [("kw", "_"), ("id", "_x"), ("id", "x_"), ("id", "__")]


def test_keyword_prefix_makes_an_identifier():
    words = ["headers", "bits", "int8", "stateful"]
    assert pairs(" ".join(words)) == [("id", w) for w in words]


# ----------------------------------------------------------------------------
# Characters outside P4


@pytest.mark.parametrize("char", ["$", "`", "\\", "'"])
def test_unexpected_character_becomes_a_bad_token(char):
    tokens, diags = lex(f"a {char} b")
    assert diags.items == []  # left for the parser, which allows them in annotation bodies
    assert [(t.kind, t.text, t.loc.col) for t in tokens[:-1]] == [("id", "a", 1), ("bad", char, 3), ("id", "b", 5)]


def test_line_numbers_after_escaped_newline_in_string():
    # Only reachable on text that did not go through cpp, which splices such lines.
    tokens = lex_ok('"a\\\nb" x')
    assert (tokens[1].text, tokens[1].loc.line, tokens[1].loc.col) == ("x", 2, 4)
