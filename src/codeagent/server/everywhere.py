"""A question that names no repository, asked of a server serving several: every served
repository is searched and each source says which repository it is from.

1. A question naming a file path that exists in served repositories (``what does
   app/retry.py define?``) is answered by the first repository holding it, as if it had
   been named (a notice names the others holding it).
2. Otherwise the agent answers it (:mod:`codeagent.agent.across`: the same graph, with a
   step that searches several repositories); this module says which are worth searching.
   Each repository's index is opened (through the pool: least recently used ones close past
   the memory budget) and scored for the question: its best BM25 chunk score and, with a
   dense index, its best cosine similarity (the query is embedded once), each divided by the
   best over the repositories, averaged. This first pass reads the index served now, without
   the per-question look at the repository (a ``git status`` each, about 5 ms: half a second
   for 100 repositories). The ``SELECT`` best repositories with any match are then checked
   and updated as a question naming them is, and searched.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from codeagent.agent.context import Scored
from codeagent.errors import CodeAgentError, one_line
from codeagent.events import Event, NoticeEvent, ResultEvent, SourcesEvent
from codeagent.index.keeper import Pinned
from codeagent.pathtext import FILE_PATH as _FILE
from codeagent.result import Source
from codeagent.server.backend import RepoBackend, import_agent, relay

log = logging.getLogger(__name__)

SELECT = 8  # repositories searched in full after the first scoring
PARALLEL = 8  # repositories checked and opened at once (a check runs `git status`)


def named_files(question: str) -> list[str]:
    """The relative file paths the question names (``src/app.py``, ``setup.cfg``)."""
    return [m for m in _FILE.findall(question) if ".." not in m and not m.endswith(".")]


def holders(backends: Iterable[RepoBackend], question: str) -> tuple[str, list[RepoBackend]]:
    """The first file path the question names that some served repositories hold, and
    those repositories ('' and none when no named path is held)."""
    backends = list(backends)
    for path in named_files(question):
        found = [b for b in backends if (b.repo.root / path).is_file()]
        if found:
            return path, found
    return "", []


class AllRepos:
    """Every served repository, asked at once (``POST /v1/ask`` without ``repo``)."""

    def __init__(self, backends: dict[str, RepoBackend]) -> None:
        self.backends = backends
        self.roots = {b.repo.id: b.repo.root for b in backends.values()}
        # the agent answers these questions: imported before the first comes (repositories
        # indexed lazily never start it themselves)
        threading.Thread(target=import_agent, name="import-agent", daemon=True).start()

    def ask_stream(
        self, question: str, cancel: threading.Event, *, k: int | None = None
    ) -> Generator[Event, None, None]:
        path, found = holders(self.backends.values(), question)
        if found:
            first = found[0]
            if len(found) > 1:
                others = ", ".join(b.repo.id for b in found[1:])
                text = (
                    f"{path} is in {first.repo.id} and in {others}: answering from"
                    f" {first.repo.id} (name the repository to ask another)"
                )
                yield NoticeEvent(kind="route", text=text)
            yield from labelled_events(first.repo.id, first.ask_stream(question, cancel, k=k))
            return
        first = next(iter(self.backends.values()))
        stream = first.workspace.ask_stream(question, k=k, repos=self)
        yield from relay(stream, cancel, f"answering {question!r} across repositories")

    def score(self, question: str) -> tuple[list[Scored], list[str], dict[str, str | None]]:
        """The ``SELECT`` best repositories for ``question`` (best first, only those with a
        match), each with its score and its index of the current state; the notices of their
        indexes; the state each answers from. The first pass scores the indexes served now
        without looking at the repositories (a `git status` each); the repositories it keeps
        are checked and updated as a question on one of them is."""
        import numpy as np

        rows: list[tuple[RepoBackend, Any, float, float]] = []
        notices: list[str] = []
        states: dict[str, str | None] = {}
        query: dict[str, Any] = {}  # embedder id -> the query's vector
        with ThreadPoolExecutor(PARALLEL, thread_name_prefix="open") as workers:
            opened = list(workers.map(lambda b: _open(b, checked=False), self.backends.values()))
        for backend, pinned, store in opened:
            if isinstance(pinned, str):
                notices.append(f"{backend.repo.id}: not searched: {pinned}")
                continue
            scores = store.bm25_scores(question)
            lexical = float(scores.max()) if scores is not None and len(scores) else 0.0
            rows.append((backend, store, lexical, _cosine(store, question, query, np)))
        best_lexical = max((r[2] for r in rows), default=0.0) or 1.0
        best_dense = max((r[3] for r in rows), default=0.0) or 1.0
        dense_used = any(r[3] > 0 for r in rows)
        scored = []
        for backend, store, lexical, cosine in rows:
            score = lexical / best_lexical
            if dense_used:
                score = (score + max(cosine, 0.0) / best_dense) / 2
            if lexical > 0 or cosine > 0:
                scored.append((score, backend, store))
        scored.sort(key=lambda row: -row[0])
        kept = scored[:SELECT]
        with ThreadPoolExecutor(PARALLEL, thread_name_prefix="check") as workers:
            checked = list(workers.map(lambda row: _open(row[1], checked=True), kept))
        selected: list[Scored] = []
        for (score, _, _), (backend, pinned, store) in zip(kept, checked, strict=True):
            if isinstance(pinned, str):
                notices.append(f"{backend.repo.id}: not searched: {pinned}")
                continue
            states[backend.repo.id] = pinned.state
            notices += [f"{backend.repo.id}: {n}" for n in pinned.notices]
            notices += [f"{backend.repo.id}: {n}" for n in pinned.index.take_notices()]
            selected.append((score, backend.repo.id, store))
        return selected, notices, states


def _open(backend: RepoBackend, *, checked: bool) -> tuple[RepoBackend, Pinned | str, Any]:
    """``backend``'s index (``checked``: of the current state, updated when it moved; else
    the one served now), or why it cannot be searched."""
    try:
        pinned = backend.pin() if checked else backend.unchecked()
        return backend, pinned, pinned.index.get()
    except CodeAgentError as exc:
        return backend, one_line(exc), None


def _cosine(store: Any, question: str, query: dict[str, Any], np: Any) -> float:
    """The best cosine similarity of ``question`` in ``store``'s dense index (0 without one);
    the question is embedded once per embedder."""
    dense = store.dense
    embedder = store.embedder
    if dense is None or embedder is None or not len(dense):
        return 0.0
    if embedder.id not in query:
        query[embedder.id] = np.asarray(embedder.embed_query(question)).reshape(1, -1)
    scores, _ids = dense.search(query[embedder.id], 1)
    return float(scores[0][0]) if scores.size else 0.0


def labelled_events(repo: str, events: Iterable[Event]) -> Iterator[Event]:
    """``events`` of one repository's answer, every source (and the result) naming ``repo``."""
    for event in events:
        if isinstance(event, SourcesEvent):
            event = SourcesEvent(
                sources=[s.model_copy(update={"repo": repo}) for s in event.sources]
            )
        elif isinstance(event, ResultEvent):
            update = {"repo": repo, "sources": _labelled(repo, event.result.sources)}
            event = ResultEvent(result=event.result.model_copy(update=update))
        yield event


def _labelled(repo: str, sources: list[Source]) -> list[Source]:
    return [s.model_copy(update={"repo": repo}) for s in sources]


__all__ = ["AllRepos", "holders", "labelled_events", "named_files"]
