"""Typed failures: what the agent falls back on and tells the user."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.errors import ToolError
from codeagent.tools.ast_tool import (
    OPERATIONS,
    AmbiguousSymbolError,
    AstToolError,
    InvalidQueryError,
    SymbolNotFoundError,
    run_ast_query,
)
from codeagent.tools.ast_tool import source as source_module
from conftest import GitRepoFactory

SESSIONS = """\
class SessionRedirectMixin:
    def get_redirect_target(self, resp):
        pass


class Session(SessionRedirectMixin):
    def get(self, url):
        return self.request("GET", url)

    def request(self, method, url):
        pass


def session():
    return Session()
"""


@pytest.fixture
def repo(git_repo: GitRepoFactory) -> Path:
    return git_repo({"requests/sessions.py": SESSIONS, "requests/__init__.py": ""})


def test_a_missing_symbol_suggests_close_matches(repo: Path) -> None:
    with pytest.raises(SymbolNotFoundError) as caught:
        run_ast_query(repo, "requests/sessions.py", "definition", "Sesion")
    error = caught.value
    assert isinstance(error, ToolError)
    assert error.reason == "symbol_not_found"
    assert error.close_matches == ["Session", "session", "SessionRedirectMixin", "Session.get"]
    assert str(error) == (
        "symbol 'Sesion' not found in requests/sessions.py; "
        "did you mean: Session, session, SessionRedirectMixin, Session.get?"
    )


def test_methods_of_a_missing_class(repo: Path) -> None:
    with pytest.raises(SymbolNotFoundError) as caught:
        run_ast_query(repo, "requests.sessions", "methods", "session")
    assert caught.value.close_matches[0] == "Session"
    assert str(caught.value).startswith("class 'session' not found in requests/sessions.py")
    with pytest.raises(SymbolNotFoundError) as nothing_close:
        run_ast_query(repo, "requests.sessions", "methods", "Zebra")
    assert str(nothing_close.value) == "class 'Zebra' not found in requests/sessions.py"
    assert nothing_close.value.close_matches == []


def test_a_bare_name_shared_by_two_definitions_is_ambiguous(git_repo: GitRepoFactory) -> None:
    root = git_repo(
        {"m.py": "class A:\n    def run(self): ...\n\nclass B:\n    def run(self): ...\n"}
    )
    with pytest.raises(AmbiguousSymbolError) as caught:
        run_ast_query(root, "m.py", "definition", "run")
    assert caught.value.reason == "ambiguous_symbol"
    assert caught.value.close_matches == ["A.run", "B.run"]
    assert isinstance(caught.value, SymbolNotFoundError)
    assert run_ast_query(root, "m.py", "definition", "B.run").names() == ["B.run"]


def test_qualified_names_reach_nested_definitions(repo: Path) -> None:
    result = run_ast_query(repo, "sessions.py", "definition", "Session.get")
    assert result.symbol == "Session.get"
    assert result.citations() == [("requests/sessions.py", 7, 8)]
    methods = run_ast_query(repo, "sessions.py", "methods", "Session")
    assert methods.names() == ["get", "request"]


def test_calls_match_names_and_attributes(repo: Path) -> None:
    result = run_ast_query(repo, "sessions.py", "calls", "request")
    assert [(c.line, c.scope) for c in result.items] == [(8, "Session.get")]  # type: ignore[union-attr]
    dotted = run_ast_query(repo, "sessions.py", "calls", "self.request")
    assert dotted.names() == ["Session.get"]
    assert run_ast_query(repo, "sessions.py", "calls", "other.request").items == []
    assert run_ast_query(repo, "sessions.py", "calls", "Session").names() == ["session"]


@pytest.mark.parametrize(
    ("operation", "symbol"), [("methods", None), ("calls", ""), ("bogus", "x")]
)
def test_an_invalid_query_is_a_typed_error(repo: Path, operation: str, symbol: str | None) -> None:
    with pytest.raises(InvalidQueryError) as caught:
        run_ast_query(repo, "sessions.py", operation, symbol)  # type: ignore[arg-type]
    assert caught.value.reason == "invalid_query"


def test_every_reason_code_is_distinct() -> None:
    import codeagent.tools.ast_tool.errors as errors

    classes = [
        c
        for c in vars(errors).values()
        if isinstance(c, type) and issubclass(c, AstToolError) and c is not AstToolError
    ]
    reasons = {c.reason for c in classes}
    assert len(reasons) == len(classes)
    assert {
        "file_not_found", "ambiguous_file", "not_python", "syntax_error", "symbol_not_found",
        "outside_repo", "not_a_file", "binary_file",
    } <= reasons  # fmt: skip


def test_parsing_is_cached_by_content(repo: Path) -> None:
    source_module.clear_cache()
    first = run_ast_query(repo, "sessions.py", "outline")
    assert len(source_module._cache) == 1
    run_ast_query(repo, "requests/sessions.py", "classes")
    assert len(source_module._cache) == 1  # same bytes: one parse
    (repo / "requests" / "sessions.py").write_text(SESSIONS + "\nX = 1\n", encoding="utf-8")
    assert run_ast_query(repo, "sessions.py", "variables").names() == ["X"]
    assert len(source_module._cache) == 2
    assert first.names()[0] == "SessionRedirectMixin"


def test_all_operations_serialise(repo: Path) -> None:
    for operation in OPERATIONS:
        symbol = {"methods": "Session", "calls": "get", "definition": "session"}.get(operation)
        result = run_ast_query(repo, "requests/sessions.py", operation, symbol)
        assert json.loads(json.dumps(result.model_dump()))["operation"] == operation
        assert type(result).model_validate(result.model_dump()) == result


def test_the_ast_route_loads_no_heavy_modules(repo: Path) -> None:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from codeagent.tools.ast_tool import run_ast_query\n"
        f"r = run_ast_query(Path({str(repo)!r}), 'sessions.py', 'outline')\n"
        "r.render()\n"
        "heavy = ('torch', 'faiss', 'numpy', 'langchain_core', 'langgraph', 'bm25s')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
