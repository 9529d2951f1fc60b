"""How much of a C file tree-sitter could not place, on sources whose faults are written
here and counted by hand: stray tokens (their bytes), missing semicolons (one each), a
comment inside an ERROR (nothing), and a test macro's missing semicolon at the top level
(no error with ``macro_blocks``, an error anywhere else); and the lines each fault lies on,
where the chunker keeps line windows."""

from __future__ import annotations

import pytest

from codeagent.lang.c import TOP_LEVEL
from codeagent.lang.parse_errors import count_errors, error_lines, loose_error_bytes


def _root(source: str) -> object:
    import tree_sitter
    import tree_sitter_c

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_c.language()))
    return parser.parse(source.encode()).root_node


@pytest.mark.parametrize(
    ("source", "loose", "errors"),
    [
        ("int f() { return 1; }\n", 0, 0),  # clean
        ("int f() { return 1 }\n", 1, 1),  # one MISSING ";": one byte, one error
        ("int f() { return 1 }\nint g() { return 2 }\n", 2, 2),
        ("int x = 1;\n) ) )\nint y = 2;\n", 3, 1),  # three stray tokens in one ERROR
        ("int x = 1;\n)))) ))\nint y = 2;\n", 6, 1),
        ("int x = 1;\n) /* a comment */ )\nint y = 2;\n", 2, 1),  # the comment counts nothing
    ],
)
def test_loose_bytes_and_errors_of_hand_counted_faults(
    source: str, loose: int, errors: int
) -> None:
    root = _root(source)
    assert loose_error_bytes(root) == loose
    assert count_errors(root) == errors
    assert count_errors(root, TOP_LEVEL) == errors  # no test macro among them


@pytest.mark.parametrize(
    ("source", "errors", "without"),
    [
        # TEST(group, name) { at the top level: the missing semicolon is the macro's
        ('#include "unity.h"\n\nTEST(parser, reads)\n{\n}\n', 0, 1),
        ("int c;\nTEST(parser, reads)\n{\n  c = 1;\n}\n", 0, 1),
        # with two real faults beside it, those two count
        ("int c;\nTEST(a, b)\n{\n}\nint f() { return 1 }\nint g() { return 2 }\n", 2, 3),
        # no block after the call: a real missing semicolon
        ("int c;\nTEST(parser, reads)\nint x;\n", 1, 1),
        # not a plain name: a member call short of its semicolon
        ("int c;\nx.TEST(parser, reads)\n{\n}\n", 1, 1),
        # not a call: a name or an assignment short of its semicolon, then a block
        ("int c;\nTEST\n{\n}\n", 1, 1),
        ("int c;\nc = 1\n{\n}\n", 1, 1),
        # inside a function body a call needs its semicolon
        ("void g() {\n  int c;\n  TEST(a, b)\n  {\n  }\n}\n", 1, 1),
    ],
)
def test_a_test_macros_missing_semicolon_is_no_error_at_the_top_level_only(
    source: str, errors: int, without: int
) -> None:
    """``errors`` with the C top level's node types given, ``without`` with none."""
    root = _root(source)
    assert count_errors(root, TOP_LEVEL) == errors
    assert count_errors(root) == without


@pytest.mark.parametrize(
    ("source", "spans"),
    [
        ("int f() { return 1; }\n", ()),
        ("int f() { return 1 }\n", ((1, 1),)),  # the MISSING ";" on line 1
        ("int f() { return 1 }\nint g() { return 2 }\n", ((1, 1), (2, 2))),
        ("int x = 1;\n) ) )\nint y = 2;\n", ((2, 2),)),  # three tokens, one line
        ("int x = 1;\n) /* a comment */\n)\nint y = 2;\n", ((2, 2), (3, 3))),
        ("int x = 1;\n/* a comment */ )\n\n\nint y = 2;\n", ((2, 2),)),
        # the stray ")" opens an ERROR that holds the next function, short of its ";"
        ("int a[] = { 1, 2 ) ;\nint f() { return 1 }\n", ((1, 1), (2, 2))),
    ],
)
def test_error_lines_are_where_the_hand_made_faults_are(
    source: str, spans: tuple[tuple[int, int], ...]
) -> None:
    assert error_lines(_root(source)) == spans


def test_a_test_macros_excused_semicolon_has_no_error_line() -> None:
    source = "int c;\nTEST(a, b)\n{\n}\nint f() { return 1 }\n"
    assert error_lines(_root(source), TOP_LEVEL) == ((5, 5),)
    assert error_lines(_root(source)) == ((2, 2), (5, 5))
