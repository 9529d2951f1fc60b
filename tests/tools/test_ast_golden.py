"""Golden answers for the fixture repository of hard cases (tests/fixtures/ast_repo).

Every golden file under tests/fixtures/ast_golden was written by hand from the fixture's
numbered source; a mismatch means the tool changed what it answers, not that a golden needs
regenerating.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeagent.tools.ast_tool import (
    OPERATIONS,
    BinaryFileError,
    PythonSyntaxError,
    run_ast_query,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
REPO = FIXTURES / "ast_repo"
GOLDEN = FIXTURES / "ast_golden"

CASES = [
    ("shapes.functions", "pkg/shapes.py", "functions", None),
    ("shapes.classes", "pkg/shapes.py", "classes", None),
    ("shapes.methods.Shape", "pkg/shapes.py", "methods", "Shape"),
    ("shapes.methods.Meta", "pkg/shapes.py", "methods", "Meta"),
    ("shapes.imports", "pkg/shapes.py", "imports", None),
    ("shapes.variables", "pkg/shapes.py", "variables", None),
    ("shapes.decorators", "pkg/shapes.py", "decorators", None),
    ("shapes.calls.area", "pkg/shapes.py", "calls", "area"),
    ("shapes.calls.field", "pkg/shapes.py", "calls", "field"),
    ("shapes.calls.lru_cache", "pkg/shapes.py", "calls", "lru_cache"),
    ("shapes.calls.__init__", "pkg/shapes.py", "calls", "__init__"),
    ("shapes.definition.area", "pkg/shapes.py", "definition", "area"),
    ("shapes.definition.inner", "pkg/shapes.py", "definition", "inner"),
    ("shapes.definition.fetch", "pkg/shapes.py", "definition", "fetch"),
    ("shapes.definition.Shape.name", "pkg/shapes.py", "definition", "Shape.name"),
    ("shapes.definition.Point.norm", "pkg/shapes.py", "definition", "Point.norm"),
    ("shapes.definition.Compat", "pkg/shapes.py", "definition", "Compat"),
    ("shapes.definition.MAX_SIDES", "pkg/shapes.py", "definition", "MAX_SIDES"),
    ("shapes.outline", "pkg/shapes.py", "outline", None),
    ("util.calls.fmt", "pkg/util.py", "calls", "fmt"),
    ("init.imports", "pkg/__init__.py", "imports", None),
    ("init.variables", "pkg/__init__.py", "variables", None),
    ("latin1.variables", "pkg/latin1.py", "variables", None),
    ("latin1.definition.greet", "pkg/latin1.py", "definition", "greet"),
    ("legacy.functions", "pkg/legacy.py", "functions", None),
    ("legacy.definition.naive", "pkg/legacy.py", "definition", "naive"),
    ("empty.outline", "pkg/empty.py", "outline", None),
    ("empty.functions", "pkg/empty.py", "functions", None),
    ("empty.imports", "pkg/empty.py", "imports", None),
]


def test_every_golden_file_is_checked() -> None:
    assert {p.stem for p in GOLDEN.glob("*.txt")} == {name for name, *_ in CASES}


@pytest.mark.parametrize(
    ("golden", "file", "operation", "symbol"), CASES, ids=[c[0] for c in CASES]
)
def test_render_matches_golden(golden: str, file: str, operation: str, symbol: str | None) -> None:
    result = run_ast_query(REPO, file, operation, symbol)  # type: ignore[arg-type]
    expected = (GOLDEN / f"{golden}.txt").read_text(encoding="utf-8")
    assert result.render(long=True) == expected  # the goldens: every member, every signature
    again = run_ast_query(REPO, file, operation, symbol)  # type: ignore[arg-type]
    assert again is not result
    assert again.render(long=True) == expected  # a second query: nothing depends on an earlier
    dumped = json.loads(json.dumps(result.model_dump()))  # the `ask --json` output embeds it
    back = type(result).model_validate(dumped)  # the eval reads it back
    assert back.render(long=True) == expected


def test_names_are_the_exact_answer_sets() -> None:
    def names(operation: str, symbol: str | None = None, file: str = "pkg/shapes.py") -> list[str]:
        return run_ast_query(REPO, file, operation, symbol).names()  # type: ignore[arg-type]

    assert names("functions") == ["typed_only", "fast_dumps", "register", "area", "fetch", "outer"]
    assert names("classes") == ["Point", "Shape", "Square", "Compat"]
    assert names("methods", "Shape") == [
        "__init__", "name", "unit", "describe", "area", "modern",
    ]  # fmt: skip
    assert names("imports", file="pkg/__init__.py") == [".shapes.*", "Point", "area", "util"]
    assert "Iterator" in names("imports")
    assert "json" in names("imports")
    assert names("variables", file="pkg/__init__.py") == ["__all__", "VERSION"]
    assert names("decorators")[:3] == ["overload", "functools.lru_cache", "register"]
    assert names("calls", "area") == ["area", "<module>"]
    assert names("definition", "inner") == ["outer.inner"]
    assert "outer.inner.innermost" in names("outline")
    assert "Shape.Meta.label" in names("outline")


def test_citations_point_at_the_sources() -> None:
    result = run_ast_query(REPO, "pkg/shapes.py", "definition", "area")
    assert result.citations() == [
        ("pkg/shapes.py", 44, 45),
        ("pkg/shapes.py", 46, 47),
        ("pkg/shapes.py", 48, 50),
    ]
    calls = run_ast_query(REPO, "pkg/util.py", "calls", "fmt")
    assert calls.citations() == [("pkg/util.py", 6, 6), ("pkg/util.py", 6, 8)]
    assert run_ast_query(REPO, "pkg/empty.py", "outline").citations() == []


def test_typed_items_carry_the_details() -> None:
    fetch = run_ast_query(REPO, "pkg/shapes.py", "functions").items[6]
    assert fetch.model_dump()["is_async"] is True
    dumped = fetch.model_dump()
    assert dumped["decorators"] == ["functools.lru_cache(maxsize=32)"]
    assert [p["kind"] for p in dumped["parameters"]] == [
        "positional_or_keyword", "keyword_only", "var_keyword",
    ]  # fmt: skip
    assert dumped["parameters"][1] == {
        "name": "timeout", "kind": "keyword_only", "annotation": "float", "default": "1.5",
    }  # fmt: skip
    assert (dumped["start_line"], dumped["def_line"], dumped["end_line"]) == (53, 54, 63)
    imports = run_ast_query(REPO, "pkg/shapes.py", "imports").model_dump()["items"]
    relative = imports[8]
    assert (relative["module"], relative["level"], relative["line"]) == ("outside", 2, 13)
    assert relative["names"] == [{"name": "thing", "asname": "other_thing"}]


def test_a_syntax_error_names_its_line() -> None:
    with pytest.raises(PythonSyntaxError) as caught:
        run_ast_query(REPO, "pkg/broken.py", "functions")
    assert caught.value.reason == "syntax_error"
    assert caught.value.line == 5
    assert str(caught.value).startswith("pkg/broken.py has a syntax error at line 5: ")
    assert "\n" not in str(caught.value)


def test_every_operation_answers_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_bytes(b"")
    for operation in OPERATIONS:
        if operation in {"methods", "definition"}:
            continue
        symbol = "x" if operation == "calls" else None
        result = run_ast_query(tmp_path, "empty.py", operation, symbol)
        assert result.items == []
        assert result.line_count == 0
        assert result.render().endswith(".\n") or "0 definitions" in result.render()


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "blob.py").write_bytes(b"x = 1\n\x00\x01\x02")
    with pytest.raises(BinaryFileError) as caught:
        run_ast_query(tmp_path, "blob.py", "functions")
    assert caught.value.reason == "binary_file"
