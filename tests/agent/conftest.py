"""Fakes and a small sample repository for the agent's tests (no server, no real model)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.runnables import RunnableLambda
from pydantic import Field

from codeagent.config import Settings

MODELS = '''\
"""Models of the shop."""
import json
from dataclasses import dataclass

TAX_RATE = 0.2
CURRENCY = "EUR"


@dataclass
class Item:
    name: str
    price: float

    def total(self) -> float:
        return apply_tax(self.price)


class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    def checkout(self):
        return sum(apply_tax(i.price) for i in self.items)


def apply_tax(amount):
    return amount * (1 + TAX_RATE)


def to_json(cart):
    return json.dumps([i.name for i in cart.items])
'''

PAYMENTS = '''\
"""Payments: charge a card, retrying with exponential backoff."""
import time


def charge(card, amount, retries=3):
    delay = 0.5
    for attempt in range(retries):
        if card.authorize(amount):
            return True
        time.sleep(delay)
        delay *= 2  # exponential backoff between retries
    return False
'''

SAMPLE_FILES = {
    "shop/__init__.py": "",
    "shop/models.py": MODELS,
    "shop/payments.py": PAYMENTS,
    "shop/broken.py": "def oops(:\n    pass\n",
    "README.md": "# Shop\n\nA tiny shop used by the tests.\n",
}


@pytest.fixture
def sample_repo(git_repo: Any) -> Path:
    return git_repo(SAMPLE_FILES, name="shop_repo")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", llm="none", embed="none", k=4, router_timeout=2.0)


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model that answers from a script, records what it was sent, supports
    JSON-schema structured output the way Ollama does it (the reply's text is the JSON),
    and can fail part-way through a streamed answer."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)
    fail_after_chunks: int | None = None
    router_delay: float = 0.0

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        for n, chunk in enumerate(super()._stream(*args, **kwargs)):
            if self.fail_after_chunks is not None and n >= self.fail_after_chunks:
                raise RuntimeError("stream broke: connection reset by peer")
            yield chunk

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
        def parse(message: AIMessage) -> Any:
            if self.router_delay:
                time.sleep(self.router_delay)
            return schema.model_validate_json(str(message.content))

        return self | RunnableLambda(parse)


def scripted(*replies: str, **kwargs: Any) -> ScriptedChatModel:
    return ScriptedChatModel(messages=iter(replies), **kwargs)


@pytest.fixture
def make_model() -> Any:
    """``make_model("reply 1", "reply 2", fail_after_chunks=3)`` -> a ScriptedChatModel."""
    return scripted


class FakeStore:
    """Stands in for IndexStore: ``search`` returns fixed hits from the sample repository."""

    def __init__(self, hits: list[Any]) -> None:
        self.hits = hits
        self.queries: list[str] = []

    def search(self, query: str, k: int = 10, **_kwargs: Any) -> list[Any]:
        self.queries.append(query)
        return self.hits[:k]


def searched(store: FakeStore, question: str, k: int) -> list[Any]:
    """The search tool's retrieval on a store that only searches: its hits, as they are."""
    return store.search(question, k=k)


@pytest.fixture
def fake_store(monkeypatch: pytest.MonkeyPatch) -> FakeStore:
    """A store double; the search tool retrieves from it by its hits (:func:`searched`)."""
    from codeagent.records import SearchHit
    from codeagent.tools.rag_tool import RagTool

    monkeypatch.setattr(RagTool, "retriever", staticmethod(searched))

    lines = PAYMENTS.splitlines()
    return FakeStore(
        [
            SearchHit(path="shop/payments.py", start_line=5, end_line=12, symbol="charge",
                      score=0.9, text="\n".join(lines[4:12]), kind="function"),
            SearchHit(path="shop/models.py", start_line=30, end_line=31, symbol="apply_tax",
                      score=0.5, text="def apply_tax(amount):\n    return amount * (1 + TAX_RATE)",
                      kind="function"),
        ]
    )  # fmt: skip


@pytest.fixture
def tool_context() -> Any:
    """``tool_context(root, settings=None, store=None)`` -> a ToolContext on ``root``."""
    from codeagent.index.lazy import LazyIndex
    from codeagent.tools.base import ToolContext

    def make(root: Path, settings: Settings | None = None, store: Any = None) -> ToolContext:
        settings = settings or Settings(llm="none", embed="none")
        return ToolContext(root, settings, LazyIndex(root, settings, store=store))

    return make
