"""What the agent sends to an Ollama server, checked on the wire with a local stand-in:
the router's JSON schema in `format`, a streamed answer with `num_ctx` set, and failures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.llm import resolve_chat_model
from codeagent.workspace import Workspace
from ollama_stub import OllamaStub
from streams import collect

MODEL = "qwen2.5-coder:7b"


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[OllamaStub]:
    with OllamaStub(models=[MODEL]) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        yield server


def agent(root: Path, tmp_path: Path, stub: OllamaStub) -> Workspace:
    settings = Settings(home=tmp_path / "home", embed="none", ollama_host=stub.url,
                        llm_timeout=5.0, router_timeout=5.0, k=3)  # fmt: skip
    model, _reason = resolve_chat_model(f"ollama:{MODEL}", settings)
    return Workspace(root, settings, chat_model=model)


def test_router_schema_and_streamed_answer_on_the_wire(
    sample_repo: Path, tmp_path: Path, stub: OllamaStub
) -> None:
    stub.reply_json({"tool": "rag", "file": None, "operation": None, "symbol": None,
                     "reason": "how question"})  # fmt: skip
    stub.reply("It retries with a doubling delay (shop/payments.py:5-12).")
    got = collect(agent(sample_repo, tmp_path, stub), "how does charge retry?")
    result, tokens = got.result, got.tokens
    router, answer = stub.chat_requests
    assert router.model == answer.model == MODEL
    schema = router.format
    assert schema["title"] == "RouteDecision"
    assert set(schema["properties"]) == {
        "tool",
        "name",
        "transitive",
        "file",
        "listing",
        "only",
        "kind",
        "operation",
        "symbol",
        "reason",
    }
    assert "decided_by" not in schema["properties"]
    assert answer.stream is True
    assert answer.format in (None, "")
    assert answer.num_ctx is not None
    assert answer.num_ctx >= 2048
    assert answer.num_ctx & (answer.num_ctx - 1) == 0  # a power of two
    assert [m["role"] for m in answer.messages] == ["system", "user"]
    assert "def charge" in answer.messages[-1]["content"]
    assert len(tokens) > 3
    assert result.answer == "It retries with a doubling delay (shop/payments.py:5-12)."
    assert result.route.decided_by == "llm"


def test_a_router_error_falls_back_to_rules_and_a_broken_stream_keeps_the_partial_answer(
    sample_repo: Path, tmp_path: Path, stub: OllamaStub
) -> None:
    stub.fail(500, "router exploded")
    stub.drop_after(2, "The charge function retries payments")
    got = collect(agent(sample_repo, tmp_path, stub), "how does charge retry?")
    result, notices = got.result, got.notices
    assert result.route.decided_by == "rules"
    assert "LLM router failed" in result.route.reason
    assert result.answer.startswith("The charge")
    assert "Most relevant code" in result.answer
    assert any("the LLM failed mid-answer" in n for n in notices)
