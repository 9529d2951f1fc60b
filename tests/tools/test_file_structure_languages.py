"""MCP's ``file_structure`` outlines a file of any language the index structures, not Python
alone: a Go file's types, functions and methods at the lines universal-ctags reads for them,
and a file of no language is one clear error."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.lazy import LazyIndex
from codeagent.tools.ast_tool.errors import AstToolError
from codeagent.tools.ast_tool.tool import FILE_STRUCTURE, StructureArgs
from codeagent.tools.base import ToolContext
from conftest import GitRepoFactory

pytest.importorskip("tree_sitter_go")

SHAPES = """\
package geo

type Square struct {
	side int
}

func (s Square) Area() int {
	return s.side * s.side
}

func NewSquare(side int) Square {
	return Square{side}
}
"""


@pytest.fixture
def ctx(git_repo: GitRepoFactory) -> ToolContext:
    root = git_repo(
        {
            "geo/shapes.go": SHAPES,
            "geo/notes.txt": "squares\n",
            "app.py": "def run():\n    return 1\n",
        }
    )
    settings = Settings.load(llm="none", embed="none")
    return ToolContext(root, settings, LazyIndex(root, settings))


def ctags(root: Path, path: str) -> dict[str, int]:
    done = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+n", "-f", "-", path],
        cwd=root, capture_output=True, text=True, check=True,
    )  # fmt: skip
    tags = [json.loads(line) for line in done.stdout.splitlines()]
    return {t["name"]: t["line"] for t in tags if t["kind"] in ("func", "struct", "method")}


def test_a_go_file_is_outlined_where_ctags_reads_its_definitions(ctx: ToolContext) -> None:
    if shutil.which("ctags") is None:
        pytest.skip("universal-ctags is not installed (`make install-system`)")
    truth = ctags(ctx.repo_root, "geo/shapes.go")
    assert set(truth) == {"Square", "Area", "NewSquare"}
    text = FILE_STRUCTURE.answer(StructureArgs(path="geo/shapes.go"), ctx)
    for name, line in truth.items():
        assert f"geo/shapes.go:{line}" in text, (name, text)
        assert name in text


def test_a_python_file_is_still_read_from_its_syntax_tree(ctx: ToolContext) -> None:
    text = FILE_STRUCTURE.answer(StructureArgs(path="app.py"), ctx)
    assert "app.py:1-2" in text
    assert "def run()" in text


def test_a_file_of_no_language_is_one_clear_error(ctx: ToolContext) -> None:
    with pytest.raises(AstToolError) as caught:
        FILE_STRUCTURE.answer(StructureArgs(path="geo/notes.txt"), ctx)
    assert str(caught.value) == (
        "cannot outline geo/notes.txt: geo/notes.txt is not a Python file (.py, .pyi, .pyw)"
    )
