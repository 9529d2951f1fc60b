"""The rule router on repository-wide questions, file names whose words look like categories,
ambiguous and missing files."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.workspace import Workspace

from .test_rules import route_by_rules


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wide_repo")
    files = {
        "src/click/decorators.py": "def command():\n    pass\n",
        "src/click/globals.py": "def get_current_context():\n    pass\n",
        "src/click/imports.py": "class A:\n    pass\n",
        "src/pkg/utils.py": "def parse_header():\n    pass\n",
        "tests/utils.py": "def helper():\n    pass\n",
        "a/conf.py": "x = 1\n",
        "b/conf.py": "y = 2\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("question", "operation", "file"),
    [
        (
            "list the functions and classes defined in src/click/decorators.py",
            "outline",
            "src/click/decorators.py",
        ),
        (
            "list the functions and classes defined in src/click/globals.py",
            "outline",
            "src/click/globals.py",
        ),
        ("which classes are in src/click/imports.py?", "classes", "src/click/imports.py"),
        ("list the functions in decorators.py", "functions", "src/click/decorators.py"),
        ("list the decorators used in src/click/globals.py", "decorators", "src/click/globals.py"),
    ],
)
def test_category_words_come_from_the_question_not_the_file_name(
    repo: Path, question: str, operation: str, file: str
) -> None:
    decision = route_by_rules(question, repo)
    assert (decision.tool, decision.args["operation"], decision.args["file"]) == (
        "ast",
        operation,
        file,
    )


def test_an_ambiguous_name_prefers_the_one_source_file(repo: Path) -> None:
    decision = route_by_rules("where is parse_header called in utils.py", repo)
    expected = ("ast", "src/pkg/utils.py", "parse_header")
    assert (decision.tool, decision.args["file"], decision.args["symbol"]) == expected


def test_an_ambiguous_name_with_no_single_source_file_asks(repo: Path, tmp_path: Path) -> None:
    workspace = Workspace(repo, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = workspace.ask("list the variables in conf.py")
    assert (result.route.tool, result.fallback) == ("ast", None)
    assert result.tool_result == {"file": "conf.py", "candidates": ["a/conf.py", "b/conf.py"]}
    assert result.answer.splitlines()[1:3] == ["  a/conf.py", "  b/conf.py"]
    assert "Which one do you mean?" in result.answer


def test_a_missing_file_is_said_then_search_runs(repo: Path, tmp_path: Path) -> None:
    workspace = Workspace(repo, Settings(home=tmp_path / "home", llm="none", embed="none"))
    result = workspace.ask("list the classes in src/pkg/nonexistent.py")
    assert result.route.tool == "rag"
    assert result.fallback is not None  # said once: as the fallback, not as a notice too
    assert "src/pkg/nonexistent.py does not exist" in result.fallback.reason
    assert (result.fallback.from_, result.fallback.to) == ("ast", "rag")
    assert not any("nonexistent.py" in n for n in result.notices)


@pytest.mark.parametrize(
    ("question", "operation", "symbol", "transitive"),
    [
        ("show the definition of Session.request", "definition", "Session.request", False),
        ("where is parse_header defined?", "definition", "parse_header", False),
        ("what does Cart.checkout do?", "definition", "Cart.checkout", False),
        ("who calls send?", "callers", "send", False),
        ("where is get_current_context used", "callers", "get_current_context", False),
        ("methods of class Session", "methods", "Session", False),
        ("subclasses of RequestException", "subclasses", "RequestException", False),
        ("list all subclasses of Handler", "subclasses", "Handler", True),
        ("which classes inherit from BaseAdapter?", "subclasses", "BaseAdapter", False),
        ("which modules import requests.utils", "importers", "requests.utils", False),
        ("who imports parse_header?", "importers", "parse_header", False),
        ("what does module requests.sessions import?", "imports", "requests.sessions", False),
    ],
)
def test_repository_wide_questions_go_to_the_symbol_graph(
    repo: Path, question: str, operation: str, symbol: str, transitive: bool
) -> None:
    decision = route_by_rules(question, repo)
    args = decision.args
    assert (decision.tool, args["operation"], args["name"], args["transitive"]) == (
        "symbols",
        operation,
        symbol,
        transitive,
    )
