"""A language added through the registry alone (one module with a ``SPEC`` and one name in
``lang.MODULES``, both in this test): its files are indexed as that language, cut into chunks
at its definitions, its definitions are in the symbol graph and answer structural questions
(one named file, and where a name is defined), its imports load the files its rule names, and
its test files are known as tests.

The toy language has no grammar of its own (a test cannot build one): it borrows Go's, with
its own suffix, its own queries, its own import rule and its own test-file names. The expected
lines are counted by hand in the source below, and universal-ctags reading the same file as Go
agrees on the definitions."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from codeagent import lang
from codeagent.config import Settings
from codeagent.index.chunking import chunk_file
from codeagent.index.stats import languages_of
from codeagent.lang.layout import Layout
from codeagent.lang.spec import LanguageSpec
from codeagent.rank.file_roles import path_kind
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

pytest.importorskip("tree_sitter_go")


def _grammar(suffix: str) -> object:
    import tree_sitter_go

    return tree_sitter_go.language()


def _import_files(importer: str, module: str, name: str | None, layout: Layout) -> list[str]:
    """The toy's import rule: ``import "x/geo"`` loads the files of the folder ``geo``."""
    return list(layout.by_folder.get(module.rpartition("/")[2], []))


TOY = LanguageSpec(
    package="tree_sitter_go",
    name="toy",
    extensions=(".toy",),
    grammar=_grammar,
    definitions="""
(function_declaration name: (identifier) @name) @def.function
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
""",
    imports="(import_spec path: (_) @module) @import",
    calls="(call_expression function: (identifier) @name) @call",
    import_files=_import_files,
    test_names=r"_check\.toy$",
)

SHAPES = """\
package geo

type Square struct {
	side int
}

func Area(s Square) int {
	return s.side * s.side
}

func Perimeter(s Square) int {
	return 4 * s.side
}
"""
CHECK = """\
package geo

func CheckArea() bool {
	return Area(Square{2}) == 4
}
"""
MAIN = """\
package main

import "example.com/geo"

func main() {
	geo.Area(geo.Square{3})
}
"""
FILES = {"geo/shapes.toy": SHAPES, "geo/area_check.toy": CHECK, "app/main.toy": MAIN,
         "README.md": "# geo\n"}  # fmt: skip
# by hand: name -> (kind, first line, last line) in geo/shapes.toy
SHAPES_DEFS = {"Square": ("struct", 3, 5), "Area": ("function", 7, 9),
               "Perimeter": ("function", 11, 13)}  # fmt: skip


@pytest.fixture
def toy_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module (``codeagent.lang.toy``) and its one registration line."""
    module = types.ModuleType("codeagent.lang.toy")
    module.SPEC = TOY  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "codeagent.lang.toy", module)
    monkeypatch.setattr(lang, "MODULES", (*lang.MODULES, "toy"))


@pytest.fixture
def repo(git_repo: GitRepoFactory) -> Path:
    return git_repo(dict(FILES))


def test_ctags_reads_the_toy_source_as_the_test_expects(tmp_path: Path) -> None:
    """The hand-counted lines, checked by universal-ctags reading the source as Go."""
    if subprocess.run(["which", "ctags"], capture_output=True, check=False).returncode:
        pytest.skip("universal-ctags is not installed (`make install-system`)")
    (tmp_path / "shapes.go").write_text(SHAPES)
    done = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+n+e", "-f", "-", "shapes.go"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    tags = [json.loads(line) for line in done.stdout.splitlines()]
    found = {t["name"]: (t["line"], t["end"]) for t in tags if t["kind"] in ("func", "struct")}
    assert found == {name: (start, end) for name, (_, start, end) in SHAPES_DEFS.items()}


def test_without_its_line_the_toy_language_is_plain_text() -> None:
    assert lang.spec_for("geo/shapes.toy") is None
    assert languages_of(["geo/shapes.toy"]) == {"other": {"files": 1, "structure": "none"}}
    assert {c.kind for c in chunk_file("geo/shapes.toy", SHAPES)} == {"window"}
    assert path_kind("geo/area_check.toy") == "other"


@pytest.mark.usefixtures("toy_language")
def test_its_suffix_is_its_language_and_its_test_files_are_tests() -> None:
    assert languages_of(["geo/shapes.toy", "geo/area_check.toy", "README.md"])["toy"] == {
        "files": 2,
        "structure": lang.TREE_SITTER,
    }
    assert path_kind("geo/shapes.toy") == "code"
    assert path_kind("geo/area_check.toy") == "tests"
    assert path_kind("dist/shapes.toy") == "junk"  # the other families' path conventions


@pytest.mark.usefixtures("toy_language")
def test_it_is_chunked_at_its_definitions() -> None:
    chunks = {c.symbol: (c.start_line, c.end_line) for c in chunk_file("geo/shapes.toy", SHAPES)}
    for name, (_kind, start, end) in SHAPES_DEFS.items():
        assert chunks[name] == (start, end)


@pytest.mark.usefixtures("toy_language")
def test_its_definitions_are_in_the_symbol_graph_and_answer_questions(repo: Path) -> None:
    ws = Workspace.open(repo, Settings.load(llm="none", embed="none"))
    graph = ws.get_store().symbols
    assert graph is not None
    stats = ws.index_stats
    assert stats is not None
    assert stats.languages["toy"] == {"files": 3, "structure": lang.TREE_SITTER}
    assert stats.parse_errors == {}
    defined = graph.definitions_in("geo/shapes.toy")
    found = {d.name: (d.kind, d.start_line, d.end_line) for d in defined if d.kind != "module"}
    assert found == SHAPES_DEFS
    assert [c.path for c in graph.callers("Area")] == ["geo/area_check.toy"]  # not geo.Area
    assert [i.path for i in graph.file_importers("geo/shapes.toy")] == ["app/main.toy"]

    importers = ws.ask("which files import geo/shapes.toy?")
    assert importers.route.tool == "symbols"
    assert [s.path for s in importers.sources] == ["app/main.toy"]

    where = ws.ask("where is Perimeter defined?")
    assert where.route.tool == "symbols"
    assert where.fallback is None
    assert [s.location for s in where.sources] == ["geo/shapes.toy:11-13"]

    listed = ws.ask("list the functions in geo/shapes.toy")  # one file: the file tool's
    assert listed.route.tool == "ast"
    assert listed.fallback is None
    assert "Area" in listed.answer
    assert "Perimeter" in listed.answer
    assert "CheckArea" not in listed.answer
