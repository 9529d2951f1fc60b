"""The rule router on questions about a repository in five languages: the symbol graph answers
repository-wide structural questions in every language of the layer; a question about one
named file goes to the file AST tool whatever its language (a TypeScript, Go, Rust or Java
file as a Python file), the same file operations; how/why questions and files of other
languages are searched."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.workspace import Workspace
from multilang_repo import FILES

from .test_rules import route_by_rules


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("multilang")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


JAVA = "repo/src/main/java/com/acme/UserRepo.java"
ROUTES = [
    ("where is Router defined?", "symbols", "definition", "Router"),
    ("list the methods of UserService", "symbols", "methods", "UserService"),
    ("who calls parseConfig?", "symbols", "callers", "parseConfig"),
    ("what does web/src/server.ts import?", "ast", "imports", "web/src/server.ts"),
    ("what does server.ts import?", "ast", "imports", "web/src/server.ts"),
    ("which files import web/src/server.ts?", "symbols", "importers", "web/src/server.ts"),
    ("which classes implement Handler?", "symbols", "subclasses", "Handler"),
    ("implementations of the Shape interface", "symbols", "subclasses", "Shape"),
    ("what implements the Speak trait?", "symbols", "subclasses", "Speak"),
    ("outline of geo/shapes/circle.go", "ast", "outline", "geo/shapes/circle.go"),
    ("list the functions in pets/src/lib.rs", "ast", "functions", "pets/src/lib.rs"),
    (f"which classes are in {JAVA}?", "ast", "classes", JAVA),
    ("list the methods in pets/src/lib.rs", "ast", "methods", "pets/src/lib.rs"),
    ("methods of UserRepo in UserRepo.java", "ast", "methods", JAVA),
    ("list the functions in tools/report.py", "ast", "functions", "tools/report.py"),
    # the kind words of these languages name the type ("the X struct", "the X interface")
    ("where is the Circle struct defined?", "symbols", "definition", "Circle"),
    ("where is the Handler interface defined?", "symbols", "definition", "Handler"),
    ("where is the Speak trait defined?", "symbols", "definition", "Speak"),
    ("where is type Shape defined?", "symbols", "definition", "Shape"),
    ("how does the router pick a handler?", "rag", None, None),
    ("why do services extend BaseService?", "rag", None, None),
]


@pytest.mark.parametrize(("question", "tool", "operation", "name"), ROUTES)
def test_routes(
    repo: Path, question: str, tool: str, operation: str | None, name: str | None
) -> None:
    decision = route_by_rules(question, repo)
    assert decision.tool == tool
    if operation is not None:
        args = decision.args
        assert (args["operation"], args.get("name", args.get("file"))) == (operation, name)


def test_answers_cite_path_and_lines(repo: Path, tmp_path: Path) -> None:
    workspace = Workspace(repo, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = workspace.ask("list the methods of Dog")
    assert result.route.tool == "symbols"
    lines = FILES["pets/src/lib.rs"].split("\n")
    cited = [(s.path, s.start_line, s.end_line) for s in result.sources]
    assert {lines[start - 1].strip() for _, start, _ in cited} == {
        "fn speak(&self) -> String {",
        "pub fn new() -> Self {",
        "pub fn fetch(&self) -> bool {",
    }
    assert all(path == "pets/src/lib.rs" and end > start for path, start, end in cited)
    outline = workspace.ask("outline of geo/shapes/circle.go")
    assert outline.route.tool == "ast"
    assert "geo/shapes/circle.go:5-7  method Circle.Area" in outline.answer
