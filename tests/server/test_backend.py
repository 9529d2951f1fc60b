"""The server's backend: while the dense index is being built, answers come from an index
held in memory (BM25, symbols, the vectors already cached) and say so; once it is ready, the
full index answers."""

from __future__ import annotations

import threading
from typing import Any

from codeagent.config import Settings
from codeagent.server.backend import RepoBackend
from codeagent.server.repos import ServedRepo
from server_helpers import FILES

WAIT = 60.0
BUILDING = "is still being built in the background"


def answer(backend: RepoBackend, question: str) -> tuple[list[str], dict[str, Any]]:
    events = [e.to_json() for e in backend.ask_stream(question, threading.Event())]
    assert events[-1]["type"] == "result", events
    notices = [e["text"] for e in events if e["type"] == "notice"]
    return notices, events[-1]["result"]


def test_keyword_answers_while_the_dense_index_builds(git_repo: Any) -> None:
    root = git_repo(FILES)
    settings = Settings.load(llm="none", embed="hash:16")  # a dense part, no model to load
    backend = RepoBackend(ServedRepo("geo", root), settings, None)
    release = threading.Event()
    real_build = backend.build_index

    def slow_build(force: bool) -> Any:
        assert release.wait(WAIT)
        return real_build(force)

    backend.build_index = slow_build  # type: ignore[method-assign]
    backend.start_background_index()
    assert backend.status()["index"] == "building"

    notices, result = answer(backend, "where is the area of a square computed?")
    assert any(BUILDING in n and "geo" in n for n in notices)
    assert result["route"]["tool"] == "rag"
    assert "geo/shapes.py" in {s["path"] for s in result["sources"]}

    notices, result = answer(backend, "list the classes in geo/shapes.py")
    assert not any(BUILDING in n for n in notices)  # the AST tool never touched an index
    assert result["route"]["tool"] == "ast"

    release.set()
    for _ in range(int(WAIT / 0.05)):
        if backend.status()["index"] == "ready":
            break
        threading.Event().wait(0.05)
    assert backend.status()["index"] == "ready"
    notices, result = answer(backend, "where is the area of a square computed?")
    assert not any(BUILDING in n for n in notices)
    assert backend.served_store().embedder is not None  # the dense index answers now
    assert result["state"] == backend.status()["state"]
