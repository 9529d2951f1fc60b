"""Answers that say which repository each source is from: ``repo`` on every source (in JSON
too), and ``repo:path:start-end`` in the rendered text (:mod:`codeagent.server.across`)."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codeagent.agent.state import RouteDecision
from codeagent.events import Event, NoticeEvent, ResultEvent, SourcesEvent, TokenEvent
from codeagent.records import SearchHit
from codeagent.result import AskResult
from codeagent.tools.base import Source

if TYPE_CHECKING:
    from codeagent.server.backend import RepoBackend

log = logging.getLogger(__name__)

_CITED = re.compile(
    r"(?P<repo>[A-Za-z0-9][A-Za-z0-9_.-]{0,63}):(?P<path>[^\s:`'\"()\[\]<>]+)"
    r":L?(?P<start>\d+)(?:\s*[-–]\s*L?(?P<end>\d+))?(?!\d)"
)


def labelled_events(repo: str, events: Iterable[Event]) -> Iterator[Event]:
    """``events`` of one repository's answer, every source (and the result) naming ``repo``."""
    for event in events:
        if isinstance(event, SourcesEvent):
            event = SourcesEvent(sources=_of(repo, event.sources))
        elif isinstance(event, ResultEvent):
            sources = _of(repo, event.result.sources)
            event = ResultEvent(
                result=event.result.model_copy(update={"repo": repo, "sources": sources})
            )
        yield event


def _of(repo: str, sources: list[Source]) -> list[Source]:
    return [s.model_copy(update={"repo": repo}) for s in sources]


def sources_of(hits: list[tuple[str, SearchHit]]) -> list[Source]:
    return [
        Source(
            repo=repo,
            path=hit.path,
            start_line=hit.start_line,
            end_line=hit.end_line,
            score=hit.score,
        )
        for repo, hit in hits
    ]


def shown(hits: list[tuple[str, SearchHit]]) -> list[SearchHit]:
    """The hits as the answer names them: ``repo:path``."""
    return [replace(hit, path=f"{repo}:{hit.path}") for repo, hit in hits]


def labelled_answer(
    backend: RepoBackend,
    question: str,
    hits: list[tuple[str, SearchHit]],
    cancel: threading.Event,
    roots: dict[str, Path],
    route: RouteDecision,
) -> Iterator[Event]:
    """The answer from the merged sources (the LLM of ``backend``'s workspace, or the ranked
    sources with their lines without one): token, sources and result events."""
    from codeagent.tools.rag_render import query_tokens, render_hits

    model = backend.workspace.chat_model
    notices: list[str] = []
    unverified: list[str] = []
    sources = sources_of(hits)
    if not hits:
        text = "No code in the served repositories matched the question."
        yield TokenEvent(text=text)
    elif model is None:
        text = render_hits(shown(hits), question)
        yield TokenEvent(text=text, terms=sorted(query_tokens(question)))
    else:
        parts: list[str] = []
        for event in _llm_tokens(model, question, hits, notices):
            if cancel.is_set():
                return
            if isinstance(event, TokenEvent):
                parts.append(event.text)
            yield event
        text = "".join(parts)
        extra, unverified = check_cited(text, roots, sources)
        sources += extra
        if unverified:
            note = "\n\n" + "\n".join(unverified)
            text += note
            yield TokenEvent(text=note)
    yield SourcesEvent(sources=sources)
    result = AskResult(question=question, route=route, answer=text, sources=sources,
                       notices=notices, unverified=unverified, states={})  # fmt: skip
    yield ResultEvent(result=result)


def _llm_tokens(
    model: Any, question: str, hits: list[tuple[str, SearchHit]], notices: list[str]
) -> Iterator[Event]:
    """The model's answer over the labelled blocks, token by token; on a failure, what came
    and then the sources without an LLM, with a notice."""
    from codeagent.agent.answer import build_messages
    from codeagent.llm import translate_backend_error, with_context_size
    from codeagent.tools.rag_render import hits_context, render_hits

    context = hits_context(shown(hits)).replace(
        "from the repository", "from the served repositories (each `repo:path:lines`)", 1
    )
    messages = build_messages(question, [], context)
    chars = sum(len(str(m.content)) for m in messages)
    said = False
    try:
        for chunk in with_context_size(model, chars).stream(messages):
            token = chunk.content if isinstance(chunk.content, str) else ""
            if token:
                said = True
                yield TokenEvent(text=token)
    except Exception as exc:  # the backend failed: keep what came, then the sources
        error = translate_backend_error(exc)
        what = "mid-answer" if said else "before answering"
        notice = f"the LLM failed {what} ({error}); showing the answer without an LLM"
        notices.append(notice)
        yield NoticeEvent(kind="llm", text=notice)
        tail = ("\n\n" if said else "") + render_hits(shown(hits), question)
        yield TokenEvent(text=tail)


def check_cited(
    text: str, roots: dict[str, Path], sources: list[Source]
) -> tuple[list[Source], list[str]]:
    """(sources the answer cites besides ``sources``, notes on citations that do not hold):
    every ``repo:path:start-end`` naming a served repository is checked against its files."""
    from codeagent.agent.answer import Citation, CitationChecker

    checkers = {repo: CitationChecker(root) for repo, root in roots.items()}
    extra: list[Source] = []
    notes: list[str] = []
    for match in _CITED.finditer(text):
        repo, path = match.group("repo"), match.group("path").removeprefix("./")
        if repo not in checkers:
            continue
        start = int(match.group("start"))
        end = int(match.group("end") or start)
        problem = checkers[repo].problem(Citation(path, start, end, match.group(0)))
        if problem:
            notes.append(f"[unverified citation: {match.group(0)} — {problem}]")
            continue
        covered = any(
            (s.repo, s.path) == (repo, path)
            and s.start_line <= start <= s.end_line
            and end <= s.end_line
            for s in [*sources, *extra]
        )
        if not covered:
            extra.append(Source(repo=repo, path=path, start_line=start, end_line=end))
    return extra, notes
