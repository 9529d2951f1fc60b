"""Run suite questions through the agent: one checkout and one index per (repository, commit).

Every question becomes a plain JSON-ready record (what the agent did, and its scores). A
question that raises is recorded with its error and the run goes on; a repository that cannot
be checked out or indexed marks each of its questions as errored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codeagent.config import Settings
from codeagent.eval import metrics
from codeagent.eval.record import Session, ask_one, blank_record, error_text, score
from codeagent.eval.repos import Resolver, checkout
from codeagent.eval.suite import SuiteItem
from codeagent.progress import NullProgress, ProgressReporter
from codeagent.repo.listing import list_files

log = logging.getLogger(__name__)

MIN_RANKED_FILES = 10  # hit@10 needs ten ranked files


SessionFactory = Callable[..., Session]  # (root, settings, *, store, progress) -> Session
IndexBuilder = Callable[..., Any]  # (root, settings, *, progress) -> (store, stats)
Judge = Callable[[SuiteItem, str], dict[str, Any]]  # (item, answer) -> scores
Ranker = Callable[[Any, str, int], list[str]]  # (store, question, k) -> ranked file paths


def default_session_factory(chat_model: Any = None) -> SessionFactory:
    """A :class:`~codeagent.workspace.Workspace` per checkout; each question is asked alone
    (no conversation: one question's answer never leaks into the next)."""

    def make(root: Path, settings: Settings, *, store: Any, progress: ProgressReporter) -> Session:
        from codeagent.workspace import Workspace

        return Workspace.open(root, settings, chat_model=chat_model, store=store, progress=progress)

    return make


def default_ranker(store: Any, question: str, k: int) -> list[str]:
    """Files in the order the RAG tool ranks them, at a deeper ``k`` than an answer uses."""
    from codeagent.rank.retrieve import retrieve

    return metrics.dedupe(hit.path for hit in retrieve(store, question, k))


def default_index_builder(root: Path, settings: Settings, *, progress: ProgressReporter) -> Any:
    from codeagent.index.build import load_or_build

    return load_or_build(root, settings, progress=progress)


@dataclass
class EvalRun:
    """What a run needs besides the questions; the factories are seams for tests."""

    settings: Settings
    repo_map: Mapping[str, Path] = field(default_factory=dict)
    session_factory: SessionFactory | None = None
    index_builder: IndexBuilder | None = None
    resolver: Resolver | None = None
    ranker: Ranker | None = None
    judge: Judge | None = None
    progress: ProgressReporter = field(default_factory=NullProgress)
    groups: list[dict[str, Any]] = field(default_factory=list)  # one entry per checkout


def group_items(items: Sequence[SuiteItem]) -> dict[tuple[str, str | None], list[SuiteItem]]:
    """Questions by (repo, commit), in first-seen order."""
    groups: dict[tuple[str, str | None], list[SuiteItem]] = {}
    for item in items:
        groups.setdefault(item.group_key, []).append(item)
    return groups


def _key(item: SuiteItem) -> str:
    return f"{item.suite}\0{item.id}"


def _needs_index(group: Sequence[SuiteItem]) -> bool:
    return any(item.reads_index for item in group)


def _prepare(run: EvalRun, key: tuple[str, str | None], group: list[SuiteItem]) -> tuple[Path, Any]:
    """Check the group's repository out and build its index (when a question will need it)."""
    spec, commit = key
    root = checkout(
        spec,
        commit,
        run.settings,
        repo_map=run.repo_map,
        base_dir=Path(group[0].base_dir) if group[0].base_dir else None,
        resolver=run.resolver,
    )
    store = None
    info: dict[str, Any] = {"repo": spec, "commit": commit, "questions": len(group)}
    if _needs_index(group):
        started = time.perf_counter()
        builder = run.index_builder or default_index_builder
        store, stats = builder(root, run.settings, progress=run.progress)
        info["index_seconds"] = time.perf_counter() - started
        to_json = getattr(stats, "to_json", None)
        if callable(to_json):
            stats_json = to_json()
            info["chunks"] = stats_json.get("chunks")
            info["chunks_embedded"] = stats_json.get("chunks_embedded")
            info["cache_hit"] = stats_json.get("cache_hit")
    run.groups.append(info)
    return root, store


def run_items(items: Sequence[SuiteItem], run: EvalRun) -> list[dict[str, Any]]:
    """Every question of ``items`` as a scored record, in the order given."""
    factory = run.session_factory or default_session_factory()
    records: dict[str, dict[str, Any]] = {}
    for key, group in group_items(items).items():
        blanks = {_key(item): blank_record(item) for item in group}
        try:
            root, store = _prepare(run, key, group)
            existing = list_files(root).paths
            session = factory(root, run.settings, store=store, progress=run.progress)
        except Exception as exc:  # a repository that cannot be used fails its questions only
            log.warning("repository %s at %s failed: %s", key[0], key[1], exc)
            log.debug("repository %s traceback", key[0], exc_info=True)
            for item in group:
                record = blanks[_key(item)]
                record["error"], record["route"] = error_text(exc), "error"
                score(item, record, [])
                records[_key(item)] = record
            continue
        label = f"{group[0].suite}: {key[0]}" + (f"@{key[1][:10]}" if key[1] else "")
        with run.progress.task(label, total=len(group)) as advance:
            for item in group:
                record = blanks[_key(item)]
                ask_one(session, item, record)
                _extend_ranking(run, store, item, record)
                score(item, record, existing)
                if run.judge is not None and record["error"] is None and item.reference_answer:
                    record["judge"] = _judge(run.judge, item, record)
                records[_key(item)] = record
                advance(1)
    return [records[_key(item)] for item in items]


def _extend_ranking(run: EvalRun, store: Any, item: SuiteItem, record: dict[str, Any]) -> None:
    """Continue a RAG answer's ranked files to at least ten with the same retriever, deeper.

    The agent's sources come first, in its order (``ranked_from_agent`` says how many); an
    answer of k sources may name fewer than k files (two chunks of one file), and hit@10 needs
    ten. A question the AST tool answered is left as it is.
    """
    ranked = record["ranked_files"]
    record["ranked_from_agent"] = len(ranked)
    from codeagent.tools.registry import default_registry

    used_rag = record["route"] == default_registry().default or record["fallback"] is not None
    if record["error"] or not used_rag or store is None or len(ranked) >= MIN_RANKED_FILES:
        return
    ranker = run.ranker or default_ranker
    try:
        deeper = ranker(store, item.question, 3 * max(run.settings.k, MIN_RANKED_FILES))
    except Exception as exc:  # the answer stands; only the tail of the ranking is missing
        log.warning("deeper ranking for %s failed: %s", item.id, exc)
        return
    record["ranked_files"] = metrics.dedupe([*ranked, *deeper])[: max(len(ranked), 20)]


def _judge(judge: Judge, item: SuiteItem, record: dict[str, Any]) -> dict[str, Any]:
    try:
        return judge(item, record["answer"] or "")
    except Exception as exc:  # a judge failure is recorded beside the answer
        return {"error": error_text(exc)}
