"""AgentSession end to end on a real git repository and a real index (BM25 or hash vectors)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.agent.session import AgentSession
from codeagent.config import Settings

JSON_KEYS = ["question", "route", "fallback", "answer", "sources", "tool_result", "timings"]
ROUTE_KEYS = {"tool", "file", "operation", "symbol", "decided_by", "reason"}


@pytest.fixture(params=["none", "hash:64"])
def index_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", llm="none", embed=request.param, k=4)


def test_an_ast_question_answers_exactly_and_never_loads_the_index(
    sample_repo: Path, settings: Settings
) -> None:
    agent = AgentSession(sample_repo, settings)
    result = agent.ask("where is apply_tax called in shop/models.py")
    assert result.route.tool == "ast"
    assert result.fallback is None
    assert not agent.store_loaded
    lines = (sample_repo / "shop/models.py").read_text().splitlines()
    calls = [n for n, ln in enumerate(lines, 1) if "apply_tax(" in ln and "def " not in ln]
    assert len(calls) == 2
    for number in calls:
        assert f"shop/models.py:{number} " in result.answer
    payload = result.to_json()
    assert list(payload) == JSON_KEYS
    assert set(payload["route"]) == ROUTE_KEYS
    assert set(payload["timings"]) == {"route", "retrieve", "answer", "total"}
    assert payload["tool_result"]["operation"] == "calls"
    json.dumps(payload)  # serialisable as it is


def test_a_rag_question_searches_the_index_once_per_session(
    sample_repo: Path, index_settings: Settings
) -> None:
    agent = AgentSession(sample_repo, index_settings)
    first = agent.ask("how does charge retry with exponential backoff?")
    assert first.route.tool == "rag"
    assert first.sources[0].path == "shop/payments.py"
    store = agent.get_store()
    agent.ask("what is the tax rate?")
    assert agent.get_store() is store  # loaded once, reused
    for source in first.sources:
        text = (sample_repo / source.path).read_text().splitlines()
        assert 1 <= source.start_line <= source.end_line <= len(text)
        assert source.score is not None
    assert first.to_json()["tool_result"] is None
    assert agent.reindex().files_indexed >= 4
    assert agent.get_store() is not store


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("methods of class Basket in shop/models.py", "Basket"),
        ("list the functions in shop/broken.py", "syntax"),
        ("show me `charge_twice` in shop/payments.py", "charge_twice"),
    ],
)
def test_an_ast_failure_falls_back_to_search_with_the_reason_kept(
    sample_repo: Path, settings: Settings, question: str, reason: str
) -> None:
    notices: list[str] = []
    result = AgentSession(sample_repo, settings).ask(question, on_notice=notices.append)
    assert result.route.tool == "ast"
    assert result.fallback is not None
    assert result.fallback["from"] == "ast"
    assert reason in result.fallback["reason"]
    failed = [n for n in notices if n.startswith("AST tool failed (")]
    assert len(failed) == 1  # shown once
    assert "answering from search instead" in failed[0]
    assert result.answer.startswith("Most relevant code")
    assert result.to_json()["fallback"] == result.fallback
    assert result.tool_result is None


def test_a_missing_file_routes_to_search_with_the_reason(
    sample_repo: Path, settings: Settings, make_model: Any
) -> None:
    route = json.dumps({"tool": "ast", "file": "shop/basket.py", "operation": "classes"})
    agent = AgentSession(sample_repo, settings, chat_model=make_model(route, "No basket here."))
    result = agent.ask("list the classes in the basket module")
    assert result.route.tool == "rag"
    assert "shop/basket.py" in result.route.reason
    assert result.answer.startswith("No basket here.")


def test_an_empty_question_is_an_error(sample_repo: Path, settings: Settings) -> None:
    from codeagent.errors import CodeAgentError

    with pytest.raises(CodeAgentError, match="empty"):
        AgentSession(sample_repo, settings).ask("  <|im_end|> ")


def test_a_session_is_reusable_across_many_questions(sample_repo: Path, settings: Settings) -> None:
    agent = AgentSession(sample_repo, settings)
    questions = ["outline of shop/payments.py", "how is tax applied?"] * 5
    results = [agent.ask(q) for q in questions]
    assert [r.route.tool for r in results] == ["ast", "rag"] * 5
    assert len(agent.history) == settings.history_turns
    assert agent.last is results[-1]
