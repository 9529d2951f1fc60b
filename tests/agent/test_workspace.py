"""Workspace end to end on a real git repository and a real index (BM25 or hash vectors):
the event stream, the lazy index, conversations, and two questions at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.config import Settings
from codeagent.workspace import Conversation, Workspace
from streams import collect

JSON_KEYS = [
    "question", "route", "fallback", "answer", "sources", "tool_result", "timings", "state",
]  # fmt: skip
ROUTE_KEYS = {"tool", "file", "operation", "symbol", "decided_by", "reason"}


@pytest.fixture(params=["none", "hash:64"])
def index_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", llm="none", embed=request.param, k=4)


def test_an_ast_question_answers_exactly_and_never_loads_the_index(
    sample_repo: Path, settings: Settings
) -> None:
    agent = Workspace(sample_repo, settings)
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
    assert payload["state"] is None  # read from the file itself: no index state
    json.dumps(payload)  # serialisable as it is


def test_a_rag_question_searches_the_index_once_per_session(
    sample_repo: Path, index_settings: Settings
) -> None:
    agent = Workspace(sample_repo, index_settings)
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
    assert agent.index_stats is not None
    assert first.state == agent.index_stats.state_hash != ""
    assert agent.index(force=True).files_indexed >= 4
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
    got = collect(Workspace(sample_repo, settings), question)
    result, notices = got.result, got.notices
    assert result.route.tool == "ast"
    assert result.fallback is not None
    assert (result.fallback.from_, result.fallback.to) == ("ast", "rag")
    assert reason in result.fallback.reason
    assert not any(reason in n for n in notices)  # said once: by the route event's line
    lines = [e.line for e in got.events if e.type == "route" and e.line]
    said = f"the AST tool could not answer ({result.fallback.reason})"
    assert lines == [f"searching the repository instead: {said}"]
    assert result.answer.startswith("Most relevant code")
    assert result.to_json()["fallback"] == result.fallback.to_json()
    assert result.tool_result is None


def test_a_missing_file_routes_to_search_with_the_reason(
    sample_repo: Path, settings: Settings, make_model: Any
) -> None:
    route = json.dumps({"tool": "ast", "file": "shop/basket.py", "operation": "classes"})
    agent = Workspace(sample_repo, settings, chat_model=make_model(route, "No basket here."))
    result = agent.ask("list the classes in the basket module")
    assert result.route.tool == "rag"
    assert "shop/basket.py" in result.route.reason
    assert result.answer.startswith("No basket here.")


def test_an_empty_question_is_an_error(sample_repo: Path, settings: Settings) -> None:
    from codeagent.errors import CodeAgentError

    with pytest.raises(CodeAgentError, match="empty"):
        Workspace(sample_repo, settings).ask("  <|im_end|> ")


def test_a_workspace_is_reusable_across_many_questions(
    sample_repo: Path, settings: Settings
) -> None:
    agent = Workspace(sample_repo, settings)
    chat = Conversation()
    questions = ["outline of shop/payments.py", "how is tax applied?"] * 5
    results = [agent.ask(q, chat) for q in questions]
    assert [r.route.tool for r in results] == ["ast", "rag"] * 5
    assert len(chat.history) == settings.history_turns
    assert chat.last is results[-1]
    assert Conversation().history == []  # another user's conversation starts empty


def test_the_event_stream_is_route_then_tokens_then_sources_then_the_result(
    sample_repo: Path, settings: Settings
) -> None:
    got = collect(Workspace(sample_repo, settings), "methods of class Basket in shop/models.py")
    types = [e.type for e in got.events]
    assert types[-1] == "result"
    assert types.count("result") == 1
    assert types[0] == "route"
    # the AST tool failed (no class Basket): a second route event names the fallback
    routes = [e for e in got.events if e.type == "route"]
    assert [r.fallback is None for r in routes] == [True, False]
    assert routes[1].fallback == got.result.fallback
    assert types.index("sources") > max(i for i, t in enumerate(types) if t == "token")
    assert "".join(got.tokens) == got.result.answer
    for event in got.events:
        json.dumps(event.to_json())  # each event is one JSON object


QUESTIONS = [
    "list the classes in shop/models.py",
    "how does charge retry with exponential backoff?",
    "where is apply_tax called in shop/models.py",
    "methods of class Basket in shop/models.py",
    "what is the tax rate?",
    "outline of shop/payments.py",
]


def test_two_threads_on_one_workspace_get_the_sequential_answers(
    sample_repo: Path, index_settings: Settings
) -> None:
    """Two conversations on two threads share one workspace (one graph, one index built
    once); each gets exactly the answers a single thread gets."""
    import threading

    def answers(workspace: Workspace, questions: list[str]) -> list[Any]:
        chat = Conversation()
        return [
            (r.route.tool, r.answer, [s.location for s in r.sources], r.fallback)
            for r in (workspace.ask(q, chat) for q in questions)
        ]

    sequential = answers(Workspace(sample_repo, index_settings), QUESTIONS * 2)
    shared = Workspace(sample_repo, index_settings)
    loads: list[int] = []
    real_load = shared._index.load

    def counting_load(*, force: bool) -> Any:
        loads.append(1)
        return real_load(force=force)

    shared._index.load = counting_load  # type: ignore[method-assign]
    out: dict[str, list[Any]] = {}
    barrier = threading.Barrier(2)

    def worker(name: str, questions: list[str]) -> None:
        barrier.wait()
        out[name] = answers(shared, questions)

    threads = [
        threading.Thread(target=worker, args=("a", QUESTIONS * 2)),
        threading.Thread(target=worker, args=("b", list(reversed(QUESTIONS)) * 2)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert out["a"] == sequential
    assert out["b"] == list(reversed(sequential[: len(QUESTIONS)])) * 2
    assert len(loads) == 1  # the index was built once, not once per thread


def test_notices_say_their_kind(sample_repo: Path, settings: Settings) -> None:
    """A front end tells notices apart by ``kind``, never by their words."""
    short = settings.model_copy(update={"max_question_chars": 40})
    question = "list the classes in shop/models.py and please also tell me more"
    got = collect(Workspace(sample_repo, short), question, None)
    notices = [(e.kind, e.text) for e in got.events if e.type == "notice"]
    cut = f"question cut to its first 40 of {len(question)} characters (max_question_chars)"
    assert notices == [("question", cut)]
    given = Workspace(sample_repo, settings).ask_stream("hi there", notices=["catching up"])
    first = next(iter(given))
    assert (first.type, first.kind, first.text) == ("notice", "index", "catching up")


@pytest.mark.parametrize("embed", ["none", "hash:64"])
def test_a_workspace_answers_from_the_state_after_an_edit(
    git_repo: Any, tmp_path: Path, embed: str
) -> None:
    """A workspace opened as the library opens it (no background build, as `ask --wait` and
    `repl --wait` do) keeps its index current: after an edit the next answer comes from the
    new state and finds the new definition. Truth: the state hash of a fresh discovery and
    the file the test wrote."""
    from codeagent.embed.embedders import HashEmbedder
    from codeagent.index.build import fingerprint
    from codeagent.repo.discover import discover
    from codeagent.repo.state import state_hash

    root = git_repo({"shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n"})
    settings = Settings(home=tmp_path / "home", llm="none", embed=embed, k=4)
    workspace = Workspace.open(root, settings)
    question = "where is refund_order defined?"
    before = workspace.ask(question)
    assert before.state is not None
    assert "shop/refunds.py" not in {s.path for s in before.sources}

    (root / "shop/refunds.py").write_text("def refund_order(order):\n    return order.total\n")
    after = workspace.ask(question)
    embedder = HashEmbedder(64) if embed != "none" else None
    assert after.state == state_hash(discover(root), fingerprint(embedder)) != before.state
    assert "shop/refunds.py" in {s.path for s in after.sources}
