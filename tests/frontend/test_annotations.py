"""Unit tests of `p4odp.frontend.annotations`: structured annotations and the standard string ones.

Each rule is shown by a valid snippet and an invalid variant with one error at
an exact position (see `snippets.py`).
"""

from __future__ import annotations

import pytest

from p4odp import ir

from snippets import accept, assert_rule, reject


def action_with(annotation: str) -> str:
    """A snippet: a control with one action carrying `annotation`."""
    return f"""
        control C(in bit<8> x) {{
            {annotation} action a() {{}}
            apply {{ a(); }}
        }}
    """


# ----------------------------------------------------------------------------
# Structured annotations


def test_structured_annotations_hold_constants(tmp_path):
    c = accept(tmp_path, """
        const bit<8> N = 3;
        @my[a = 1, b = "s", c = true, d = N + 1, e = "x" ++ "y"] const bit<8> K = 1;
        @list[1, 2, "three"] const bit<8> L = 1;
    """)
    anno = c.decl("K", ir.Constant).annotations[0]
    assert anno.structured and [item.key for item in anno.items] == ["a", "b", "c", "d", "e"]


def test_structured_annotation_values_are_constants(tmp_path):
    assert_rule(tmp_path, action_with("@my[v = 1]"), action_with("@my[v = x]"),
                at="x]", message="@my: structured annotation values must be int, string or bool constants")


def test_structured_annotation_names_are_declared(tmp_path):
    assert_rule(tmp_path, action_with("@my[v = 1]"), action_with("@my[v = nope]"),
                at="nope", message="nope: declaration not found")


def test_structured_annotation_keys_are_unique(tmp_path):
    assert_rule(tmp_path, action_with("@my[a = 1, b = 2]"), action_with("@my[a = 1, a = 2]"),
                at="a = 2", message="@my: duplicate key a")


def test_structured_annotations_are_not_repeated(tmp_path):
    assert_rule(tmp_path, action_with("@my[a = 1] @other[b = 2]"), action_with("@my[a = 1] @my[b = 2]"),
                at="@my", occurrence=2, message="@my: duplicate structured annotation")


def test_unstructured_annotations_may_repeat_and_hold_any_tokens(tmp_path):
    c = accept(tmp_path, """
        @my(a) @my(b) @whatever(1 2 3 ++) const bit<8> K = 1;
    """)
    assert [anno.name for anno in c.decl("K", ir.Constant).annotations] == ["my", "my", "whatever"]


def test_annotations_on_statements_and_parameters(tmp_path):
    accept(tmp_path, """
        control C(@name("pp") in bit<8> x, inout bit<8> y) {
            table t { key = { x : exact @name("kk"); } actions = { NoAction; } }
            apply { @my[v = 1] { y = x; } t.apply(); }
        }
    """)


# ----------------------------------------------------------------------------
# @name and @deprecated


def test_name_takes_one_string(tmp_path):
    assert_rule(tmp_path, action_with('@name("b")'), action_with("@name(5)"),
                at="@name", message="@name: should contain a string")
    assert_rule(tmp_path, action_with('@name("b")'), action_with('@name("a", "b")'),
                at="@name", message="@name: should contain a string")


def test_name_sets_the_control_plane_name(tmp_path):
    c = accept(tmp_path, action_with('@name("renamed")'))
    assert c.decl("a", ir.Action).control_name == "C.renamed"


def test_name_made_of_concatenated_strings(tmp_path):
    c = accept(tmp_path, action_with('@name("x" ++ "y")'))
    assert c.decl("a", ir.Action).control_name == "C.xy"


@pytest.mark.parametrize("annotation", ["@name()", "@name(foo bar)", "@name"])
def test_name_without_a_string(tmp_path, annotation):
    accept(tmp_path, action_with('@name("b")'))
    reject(tmp_path, action_with(annotation))


def test_deprecated_takes_a_string(tmp_path):
    assert_rule(tmp_path, """
        @deprecated("use g instead") extern void f();
        control C() { apply { f(); } }
    """, """
        @deprecated(1) extern void f();
    """, at="@deprecated", message="@deprecated: should contain a string")
