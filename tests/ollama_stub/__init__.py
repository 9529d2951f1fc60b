"""A local stand-in for the Ollama HTTP API that records every request and fails on demand.

It speaks the wire format of a real server closely enough for ``ollama.Client``,
``ChatOllama`` and ``OllamaEmbeddings``: ``GET /api/tags``, ``GET /api/version``,
``POST /api/show``, ``POST /api/chat`` (NDJSON stream, or one object), ``POST /api/embed`` and
``POST /api/embeddings``. It listens on 127.0.0.1 only, on a free port, and stops with the
``with`` block.

Use it from any test (``tests/`` is on the pytest path)::

    from ollama_stub import OllamaStub

    def test_something(monkeypatch):
        with OllamaStub(models=["qwen2.5-coder:7b", "nomic-embed-text"]) as stub:
            monkeypatch.setenv("OLLAMA_HOST", stub.url)
            stub.reply("The answer is 42.")              # next /api/chat answer, streamed by word
            stub.reply_json({"tool": "rag", "file": None})  # the one after: structured output
            ...                                            # code under test talks to stub.url
            request = stub.chat_requests[0]
            assert request.model == "qwen2.5-coder:7b"
            assert request.num_ctx == 4096                 # options.num_ctx
            assert request.stream is True
            assert stub.chat_requests[1].format["title"] == "RouteDecision"  # the JSON schema

Failures, each for the next request to ``path`` (default ``/api/chat``)::

    stub.fail(500, "boom")                  # HTTP 500 {"error": "boom"}
    stub.model_not_found()                  # 404 as Ollama words it: model "x" not found, ...
    stub.drop_after(2, "one two three")     # two NDJSON chunks, then the connection is cut
    stub.delay(3.0)                         # wait 3 s before answering (client timeouts)
    stub.error_in_stream(1, "oops")         # one chunk, then {"error": "oops"} as Ollama does
    stub.script(Reply(text="a b c", pace=0.5))  # 0.5 s between streamed chunks

Any other combination: ``stub.script(Reply(...), path="/api/embed")``. Unscripted chat
requests answer ``stub.default_text``; a request for a model not in ``models`` gets the 404 a
real server sends; ``/api/embed`` returns deterministic unit vectors of ``embed_dim`` from a
hash of each input. ``stub.requests`` holds every request in order (the ``/api/tags`` probe of
``--llm auto`` included); ``stub.chat_requests`` only the chats.

A fixture of your own::

    @pytest.fixture
    def ollama(monkeypatch):
        with OllamaStub(models=["qwen2.5-coder:7b"]) as stub:
            monkeypatch.setenv("OLLAMA_HOST", stub.url)
            yield stub

``tests/llm/conftest.py`` has one (``ollama_stub``) for the backend tests.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any

from ollama_stub.wire import CHAT, Reply, Server, StubHandler, StubRequest

__all__ = ["CHAT", "OllamaStub", "Reply", "StubRequest"]


@dataclass
class OllamaStub:
    """The stand-in server. See the module docstring."""

    models: list[str] = field(default_factory=lambda: ["qwen2.5-coder:7b"])
    embed_dim: int = 16
    version: str = "0.12.0"
    default_text: str = "stub answer"
    requests: list[StubRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._scripts: dict[str, deque[Reply]] = defaultdict(deque)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: Server | None = None
        self._thread: threading.Thread | None = None
        self._port = 0

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> OllamaStub:
        server = Server(("127.0.0.1", 0), StubHandler)
        server.stub = self  # type: ignore[attr-defined]
        self._server = server
        self._port = int(server.server_address[1])
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> OllamaStub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``; still answers after ``stop()`` (a dead address then)."""
        assert self._port, "start the stub first"
        return f"http://127.0.0.1:{self._port}"

    # -- scripting ---------------------------------------------------------------------------
    def script(self, reply: Reply, path: str = CHAT) -> None:
        with self._lock:
            self._scripts[path].append(reply)

    def reply(self, text: str) -> None:
        self.script(Reply(text=text))

    def reply_json(self, obj: Any) -> None:
        self.script(Reply(text=json.dumps(obj)))

    def fail(self, status: int = 500, error: str = "internal error", path: str = CHAT) -> None:
        self.script(Reply(status=status, error=error), path)

    def model_not_found(self, path: str = CHAT) -> None:
        self.script(Reply(status=404, not_found=True), path)

    def drop_after(self, chunks: int, text: str = "one two three four five six") -> None:
        self.script(Reply(text=text, drop_after=chunks))

    def error_in_stream(self, chunks: int, error: str = "model runner crashed") -> None:
        self.script(Reply(text="one two three four five six", error_after=chunks, error=error))

    def delay(self, seconds: float, path: str = CHAT, text: str | None = None) -> None:
        self.script(Reply(text=self.default_text if text is None else text, delay=seconds), path)

    def next_reply(self, path: str) -> Reply | None:
        with self._lock:
            queue = self._scripts.get(path)
            return queue.popleft() if queue else None

    # -- inspection --------------------------------------------------------------------------
    def record(self, request: StubRequest) -> None:
        with self._lock:
            self.requests.append(request)

    @property
    def chat_requests(self) -> list[StubRequest]:
        return [r for r in self.requests if r.path == CHAT]

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]

    def has_model(self, name: str) -> bool:
        def tagged(n: str) -> str:
            return n if ":" in n else f"{n}:latest"

        return any(tagged(name) == tagged(m) for m in self.models)
