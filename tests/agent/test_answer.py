"""Answers: the messages an LLM gets, streaming, citation checks, failures mid-answer, and
the deterministic answers without an LLM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.agent.answer import CitationChecker, find_citations
from codeagent.config import Settings
from codeagent.workspace import Conversation, Workspace
from streams import collect

from .conftest import MODELS

RAG = json.dumps({"tool": "rag", "reason": "a how question"})


def session(root: Path, settings: Settings, store: Any, model: Any = None) -> Workspace:
    return Workspace(root, settings, chat_model=model, store=store)


def test_find_citations_reads_the_usual_forms() -> None:
    text = (
        "See `shop/models.py:12-30`, shop/payments.py:5, ./shop/models.py:L3-L4 and "
        "a.py:7–9; not http://example.com:8080 nor a ratio 3:4."
    )
    found = [(c.path, c.start_line, c.end_line) for c in find_citations(text)]
    assert found == [
        ("shop/models.py", 12, 30),
        ("shop/payments.py", 5, 5),
        ("shop/models.py", 3, 4),
        ("a.py", 7, 9),
    ]


def test_citation_checker_checks_files_and_line_ranges(sample_repo: Path) -> None:
    checker = CitationChecker(sample_repo)
    (cite,) = find_citations("shop/payments.py:1-12")
    assert checker.problem(cite) is None  # PAYMENTS has exactly 12 lines
    (past,) = find_citations("shop/payments.py:12-13")
    assert "12 lines" in str(checker.problem(past))
    (ghost,) = find_citations("shop/ghost.py:1")
    assert checker.problem(ghost) == "no such file in the repository"
    (outside,) = find_citations("../outside.py:1")
    assert checker.problem(outside) == "no such file in the repository"


def test_llm_answer_is_streamed_and_a_hallucinated_citation_is_flagged(
    sample_repo: Path, settings: Settings, fake_store: Any, make_model: Any
) -> None:
    reply = (
        "charge retries with exponential backoff (shop/payments.py:5-12); the delay "
        "doubles each time (see shop/retry_utils.py:3 and shop/models.py:900-910)."
    )
    model = make_model(RAG, reply)
    got = collect(session(sample_repo, settings, fake_store, model), "how are payments retried?")
    result, tokens = got.result, got.tokens
    assert "".join(tokens) == result.answer
    assert len(tokens) > 5  # streamed piece by piece
    assert result.answer.startswith(reply)
    assert "[unverified citation: shop/retry_utils.py:3 — no such file" in result.answer
    assert "[unverified citation: shop/models.py:900-910 — the file has only" in result.answer
    assert len(result.unverified) == 2
    listed = {s.path for s in result.sources}
    assert "shop/retry_utils.py" not in listed
    assert all(s.end_line < 900 for s in result.sources)
    assert ("shop/payments.py", 5, 12) in {
        (s.path, s.start_line, s.end_line) for s in result.sources
    }
    assert result.route.decided_by == "llm"


def test_the_user_turn_holds_the_code_and_the_system_rules_are_short(
    sample_repo: Path, settings: Settings, fake_store: Any, make_model: Any
) -> None:
    model = make_model(RAG, "answer")
    session(sample_repo, settings, fake_store, model).ask("how are payments retried?")
    system, user = model.seen[1][0], model.seen[1][-1]
    assert system.type == "system"
    assert user.type == "human"
    assert len(str(system.content)) < 800
    assert "shop/payments.py:5-12" in str(user.content)
    assert "delay *= 2" in str(user.content)
    assert str(user.content).rstrip().endswith("how are payments retried?")
    assert "delay *= 2" not in str(system.content)


def test_an_ast_answer_gets_the_rendered_ast_result(
    sample_repo: Path, settings: Settings, fake_store: Any, make_model: Any
) -> None:
    from codeagent.tools.ast_tool import run_ast_query

    route = json.dumps({"tool": "ast", "file": "shop/models.py", "operation": "classes"})
    model = make_model(route, "Two classes: Item and Cart (shop/models.py:10-16).")
    result = session(sample_repo, settings, fake_store, model).ask("which classes are there?")
    rendered = run_ast_query(sample_repo, "shop/models.py", "classes").render(long=True)
    assert rendered in str(model.seen[1][-1].content)
    assert result.tool_result is not None
    assert result.unverified == []
    assert fake_store.queries == []  # the index was never searched


def test_follow_ups_see_the_last_turns_capped(
    sample_repo: Path, tmp_path: Path, fake_store: Any, make_model: Any
) -> None:
    settings = Settings(home=tmp_path / "h", embed="none", history_turns=2)
    replies = [r for i in range(4) for r in (RAG, f"answer {i}")]
    model = make_model(*replies)
    agent = session(sample_repo, settings, fake_store, model)
    chat = Conversation()
    for i in range(4):
        agent.ask(f"question {i} about retries?", chat)
    last_call = model.seen[-1]
    kinds = [m.type for m in last_call]
    assert kinds == ["system", "human", "ai", "human", "ai", "human"]
    assert [str(m.content) for m in last_call[1:5]] == [
        "question 1 about retries?",
        "answer 1",
        "question 2 about retries?",
        "answer 2",
    ]
    assert len(chat.history) == 2
    chat.clear()
    assert chat.history == []
    assert chat.last is None


@pytest.mark.parametrize("fail_after", [3, 0])
def test_an_llm_failing_mid_answer_keeps_the_partial_text_and_adds_the_plain_answer(
    sample_repo: Path, settings: Settings, fake_store: Any, make_model: Any, fail_after: int
) -> None:
    model = make_model(
        RAG, "charge retries three times with a growing delay", fail_after_chunks=fail_after
    )
    got = collect(session(sample_repo, settings, fake_store, model), "how are payments retried?")
    result, tokens = got.result, got.tokens
    assert "".join(tokens) == result.answer
    if fail_after:
        assert result.answer.startswith("charge retries\n\n")  # 3 chunks: word, space, word
    assert "Most relevant code" in result.answer  # the deterministic answer follows
    assert any("the LLM failed" in n and "connection reset" in n for n in result.notices)


def test_without_an_llm_the_ast_answer_is_the_rendered_result(
    sample_repo: Path, settings: Settings, fake_store: Any
) -> None:
    from codeagent.tools.ast_tool import run_ast_query

    result = session(sample_repo, settings, fake_store).ask("list the classes in shop/models.py")
    assert result.answer == run_ast_query(sample_repo, "shop/models.py", "classes").render()
    assert not result.notices  # answering without an LLM is no news to the library caller
    # independent ground truth: the file this test suite wrote
    lines = MODELS.splitlines()
    classes = {"Item": lines.index("class Item:") + 1, "Cart": lines.index("class Cart:") + 1}
    for name, line in classes.items():
        assert f"class {name}" in result.answer
        assert f"shop/models.py:{line}" in result.answer or any(
            s.start_line <= line <= s.end_line for s in result.sources
        )
    # one line per class, its methods counted: Item's total; Cart's __init__, add, checkout
    assert "class Item (1 method)" in result.answer
    assert "class Cart (3 methods)" in result.answer
    assert "def " not in result.answer  # the signatures come when asked for
    assert {s.path for s in result.sources} == {"shop/models.py"}


def test_without_an_llm_the_rag_answer_lists_sources_with_their_best_lines(
    sample_repo: Path, settings: Settings, fake_store: Any
) -> None:
    result = session(sample_repo, settings, fake_store).ask(
        "how does the exponential backoff work?"
    )
    lines = result.answer.splitlines()
    assert lines[1] == "1. shop/payments.py:5-12 (charge)"
    assert "exponential backoff between retries" in lines[2] + lines[3] + lines[4]
    assert "2. shop/models.py:30-31 (apply_tax)" in lines
    assert [s.path for s in result.sources] == ["shop/payments.py", "shop/models.py"]


@pytest.mark.parametrize(
    "text",
    ["a = 1\nb = 2\nc = 3", "a = 1\nb = 2\nc = 3\n", "only = 1", "one\n\n\nfour"],
)
def test_the_last_line_counts_with_or_without_a_final_newline(tmp_path: Path, text: str) -> None:
    (tmp_path / "m.py").write_bytes(text.encode())
    lines = len(text.splitlines())  # the count a reader sees, from Python's own splitter
    checker = CitationChecker(tmp_path)
    (last,) = find_citations(f"m.py:{lines}")
    assert checker.problem(last) is None
    (whole,) = find_citations(f"m.py:1-{lines}")
    assert checker.problem(whole) is None
    (past,) = find_citations(f"m.py:{lines + 1}")
    assert checker.problem(past) == f"the file has only {lines} lines"


def test_an_empty_file_has_no_line_to_cite(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_bytes(b"")
    (cite,) = find_citations("empty.py:1")
    assert CitationChecker(tmp_path).problem(cite) == "the file has only 0 lines"
