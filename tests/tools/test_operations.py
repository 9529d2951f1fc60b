"""The one table of structural operations: the file AST tool, the symbol tool and MCP answer
its rows, and a question about one named file takes the same tool and the same operation in
every language (answered exactly for Python, from the symbol graph for the others).

Truth for the answers: the lines of the files the test writes."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from codeagent.config import Settings
from codeagent.tools.ast_tool.models import Operation
from codeagent.tools.ast_tool.tool import AstTool
from codeagent.tools.operations import BY_NAME, IN_FILE, OPERATIONS, WIDE, graph_for
from codeagent.tools.registry import default_registry
from codeagent.tools.symbol_tool.result import SYMBOL_OPERATIONS
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

FILES = {
    "shop/cart.py": "import os\n\n\nclass Cart:\n    def add(self, item):\n        pass\n",
    "web/cart.ts": (
        'import { Item } from "./item";\n\n'
        "export class Cart {\n  add(item: Item) {}\n}\n\n"
        "export function total(): number {\n  return 0;\n}\n"
    ),
    "web/item.ts": "export class Item {}\n",
}


def test_the_file_tool_answers_the_rows_asked_of_one_file_in_their_order() -> None:
    assert tuple(op.name for op in IN_FILE) == get_args(Operation)
    assert all(BY_NAME[name].help in AstTool.description for name in get_args(Operation))


def test_the_symbol_graph_answers_every_row_and_nothing_else() -> None:
    graph = {op.graph for op in OPERATIONS if op.graph}
    assert graph == set(SYMBOL_OPERATIONS)
    assert set(WIDE.values()) <= graph
    assert {op.name for op in OPERATIONS if not op.in_file} <= graph  # the graph's own rows


def test_an_mcp_tool_that_answers_an_operation_names_its_row() -> None:
    registry = default_registry()
    named = [t.operation for tool in registry.tools.values() for t in tool.mcp_tools()]
    assert {"outline", "definition", "callers"} <= set(named)
    assert all(name in BY_NAME for name in named if name is not None)


def test_a_file_operation_of_another_language_reads_the_graph_by_its_row() -> None:
    assert graph_for("functions", None) == ("outline", "functions")
    assert graph_for("methods", "Cart") == ("methods", "")
    assert graph_for("methods", None) == ("outline", "methods")  # the file's methods
    with pytest.raises(ValueError, match="not asked of one file"):
        graph_for("callers", "add")


@pytest.mark.parametrize(
    ("asked", "operation", "cited"),
    [
        ("what does {f} import?", "imports", [1, 1]),
        ("list the classes in {f}", "classes", [4, 3]),
        ("methods of Cart in {f}", "methods", [5, 4]),
    ],
)
def test_one_named_file_is_the_file_tools_in_either_language(
    git_repo: GitRepoFactory, tmp_path: Path, asked: str, operation: str, cited: list[int]
) -> None:
    workspace = Workspace(
        git_repo(FILES), Settings(home=tmp_path / "home", llm="none", embed="none")
    )
    for path, line in zip(("shop/cart.py", "web/cart.ts"), cited, strict=True):
        result = workspace.ask(asked.format(f=path))
        assert (result.route.tool, result.route.args["operation"]) == ("ast", operation)
        assert result.fallback is None
        assert (result.sources[0].path, result.sources[0].start_line) == (path, line)


def test_which_files_import_a_named_file_is_the_symbol_graphs(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    root = git_repo(FILES)
    workspace = Workspace(root, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = workspace.ask("which files import web/item.ts?")
    assert (result.route.tool, result.route.args["operation"]) == ("symbols", "importers")
    assert [(s.path, s.start_line) for s in result.sources] == [("web/cart.ts", 1)]
