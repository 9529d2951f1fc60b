"""Where a definition starts: at the comments right above it (its doc), never at a comment
that trails code on its own line. The sources are written here; the lines are counted by hand."""

from __future__ import annotations

import pytest

from codeagent.lang import parse_file

CASES = [
    (
        "buf.h",
        "namespace detail {\n"  # 1
        "class buffer {};\n"  # 2
        "}  // namespace detail\n"  # 3
        "class format_error {};\n"  # 4
        "// Formats.\n"  # 5
        "class formatter {};\n",  # 6
        {"format_error": (4, ""), "formatter": (5, "Formats.")},
    ),
    (
        "f.go",
        "package f\n"  # 1
        "\n"  # 2
        "var x = 1 // a trailing note\n"  # 3
        "func F() {}\n"  # 4
        "\n"  # 5
        "// G does g.\n"  # 6
        "func G() {}\n"  # 7
        "/* one */ /* two */\n"  # 8
        "func H() {}\n",  # 9
        {"F": (4, ""), "G": (6, "G does g."), "H": (8, "two")},
    ),
    (
        "A.java",
        "class A {\n"  # 1
        "    int x = 1; // the count\n"  # 2
        "    void run() {}\n"  # 3
        "    /** Stops. */\n"  # 4
        "    void stop() {}\n"  # 5
        "}\n",  # 6
        {"A.run": (3, ""), "A.stop": (4, "Stops.")},
    ),
]


@pytest.mark.parametrize(("path", "text", "starts"), CASES)
def test_a_definition_starts_at_its_doc_not_at_a_trailing_comment(
    path: str, text: str, starts: dict[str, tuple[int, str]]
) -> None:
    parsed = parse_file(path, text)
    assert parsed is not None
    rows = {row[0]: (row[3], row[6]) for row in parsed.defs}
    assert {name: rows[name] for name in starts} == starts
