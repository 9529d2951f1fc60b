"""The dev/test run: retrieval only, the product's ranking beside the plain baseline.

Each (repository, commit) of the selected questions is exported from a local bare mirror into
a checkout cache (:mod:`codeagent.eval.mirrors`), indexed once with the product's index
(``load_or_build``: cached, so a second run only searches) and searched by every ranker:

- ``product``: the files of the RAG tool's sources for a ``k``-source answer, continued with the
  same retriever at a deeper ``k`` to at least ten files, exactly as ``codeagent eval`` ranks a
  RAG answer; the router and the answer node are skipped (so a question the router would send
  to the AST tool is still ranked by retrieval);
- ``baseline``: :class:`codeagent.eval.baseline.BaselineRanker` over the same chunks (the
  source files of the repository's language family, ``splits.language_of``).

One record per (question, ranker), scored by :func:`codeagent.eval.record.score`. A
repository without a mirror, or a commit its mirror lacks, is skipped and counted, never
scored; any other failure marks its questions as errored and the run goes on.
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codeagent.config import Settings
from codeagent.errors import CloneError, EvalError
from codeagent.eval import functions, metrics
from codeagent.eval.mirrors import checkout_commit, commit_time, find_mirror, resolve_commit
from codeagent.eval.record import blank_record, error_text, score
from codeagent.eval.repos import repo_key
from codeagent.eval.runner import (
    MIN_RANKED_FILES,
    IndexBuilder,
    default_index_builder,
    default_ranker,
    group_items,
)
from codeagent.eval.suite import SuiteItem
from codeagent.progress import NullProgress, ProgressReporter
from codeagent.repo.listing import list_files
from codeagent.tools.registry import default_registry

log = logging.getLogger(__name__)

# first: the product without its learned model; answer_first: the product's first answer on a
# repository seen for the first time, while its vectors are built (codeagent.eval.first_answer)
RANKERS = ("product", "baseline", "first", "answer_first")
DEFAULT_RANKERS = ("product", "baseline")
DEPTH = 20  # files kept per ranking

Span = tuple[str, int, int]  # a cited chunk: path, first line, last line
# question -> ranked files, and the chunks an answer cites in order (function-level scoring)
FileRanker = Callable[[str], tuple[list[str], list[Span]]]


def parse_rankers(spec: str) -> tuple[str, ...]:
    """``"product,baseline"`` -> ``("product", "baseline")``; EvalError for an unknown name."""
    names = tuple(dict.fromkeys(part.strip() for part in spec.split(",") if part.strip()))
    unknown = [name for name in names if name not in RANKERS]
    if not names or unknown:
        raise EvalError(f"--ranker {spec!r}: choose from {', '.join(RANKERS)} (comma-separated)")
    return names


def product_search(store: Any, question: str, k: int) -> tuple[list[str], list[Span]]:
    """The product's ranked files for ``question``, as ``codeagent eval`` scores a RAG
    answer, and the chunks that answer cites, in its order."""
    from codeagent.rank.retrieve import retrieve

    hits = retrieve(store, question, k)
    chunks = [(hit.path, hit.start_line, hit.end_line) for hit in hits]
    ranked = metrics.dedupe(hit.path for hit in hits)
    if len(ranked) >= MIN_RANKED_FILES:
        return ranked, chunks
    deeper = default_ranker(store, question, 3 * max(k, MIN_RANKED_FILES))
    return metrics.dedupe([*ranked, *deeper])[: max(len(ranked), DEPTH)], chunks


def product_ranking(store: Any, question: str, k: int) -> list[str]:
    """The product's ranked files for ``question``, as ``codeagent eval`` scores a RAG answer."""
    return product_search(store, question, k)[0]


@dataclass
class DevRun:
    """What a dev run needs besides the questions; ``index_builder`` is a seam for tests."""

    settings: Settings
    mirrors: Path
    checkouts: Path
    rankers: tuple[str, ...] = DEFAULT_RANKERS
    index_builder: IndexBuilder | None = None
    progress: ProgressReporter = field(default_factory=NullProgress)
    groups: list[dict[str, Any]] = field(default_factory=list)  # one per checkout
    skipped: list[dict[str, Any]] = field(default_factory=list)  # one per skipped checkout
    # Called with the records so far after each checkout (a long run reports as it goes).
    after_checkout: Callable[[list[dict[str, Any]]], None] | None = None
    # the answer_first ranker's: vectors by text (one embedding per text a run), and the
    # chunks each question embedded first
    first_memo: dict[str, Any] = field(default_factory=dict)
    first_counts: list[int] = field(default_factory=list)


def _rankers(run: DevRun, store: Any, repo: str) -> dict[str, FileRanker]:
    def product(question: str) -> tuple[list[str], list[Span]]:
        return product_search(store, question, run.settings.k)

    def first(question: str) -> tuple[list[str], list[Span]]:
        from codeagent.rank import ranking

        saved, ranking.USE_MODEL = ranking.USE_MODEL, False
        try:
            return product_search(store, question, run.settings.k)
        finally:
            ranking.USE_MODEL = saved

    found: dict[str, FileRanker] = {"first": first}
    if "product" in run.rankers:
        found["product"] = product
    if "baseline" in run.rankers:
        from codeagent.eval.baseline import BaselineRanker
        from codeagent.eval.splits import language_of

        baseline = BaselineRanker(store.chunks, language=language_of(repo))

        def plain(question: str) -> tuple[list[str], list[Span]]:
            depth = max(run.settings.k, max(functions.K_VALUES))
            return baseline.rank(question, depth=DEPTH), baseline.rank_chunks(question, depth)

        found["baseline"] = plain
    if "answer_first" in run.rankers:
        from codeagent.eval.first_answer import answer_first_ranker

        found["answer_first"] = answer_first_ranker(
            store,
            run.settings,
            lambda quick, question: product_search(quick, question, run.settings.k),
            run.first_memo,
            run.first_counts,
        )
    return {name: found[name] for name in run.rankers}  # ``first`` only when asked for


def _skip(run: DevRun, repo: str, commit: str | None, group: list[SuiteItem], why: str) -> None:
    log.warning("skipping %s at %s (%d questions): %s", repo, commit, len(group), why)
    run.skipped.append({"repo": repo, "commit": commit, "questions": len(group), "reason": why})


def _mirror_commit(run: DevRun, repo: str, commit: str | None) -> tuple[Path, str] | None:
    mirror = find_mirror(run.mirrors, repo)
    if mirror is None or commit is None:
        return None
    try:
        return mirror, resolve_commit(mirror, commit)
    except CloneError:
        return None


def run_dev(items: Sequence[SuiteItem], run: DevRun) -> list[dict[str, Any]]:
    """One scored record per (question, ranker) of ``items``; skipped checkouts give none."""
    records: list[dict[str, Any]] = []
    builder = run.index_builder or default_index_builder
    for (spec, commit), group in _oldest_first(run, group_items(items)):
        repo = repo_key(spec)
        found = _mirror_commit(run, repo, commit)
        if found is None:
            why = "no mirror" if find_mirror(run.mirrors, repo) is None else "commit not in mirror"
            _skip(run, repo, commit, group, why if commit else "no commit")
            continue
        mirror, full = found
        info: dict[str, Any] = {"repo": repo, "commit": full, "questions": len(group)}
        started = time.perf_counter()
        try:
            root = checkout_commit(mirror, full, run.checkouts, repo)
            info["checkout_seconds"] = time.perf_counter() - started
            store, stats = builder(root, run.settings, progress=run.progress)
            info["index_seconds"] = time.perf_counter() - started - info["checkout_seconds"]
            to_json = getattr(stats, "to_json", None)
            if callable(to_json):
                info["chunks"] = to_json().get("chunks")
                info["cache_hit"] = to_json().get("cache_hit")
            existing = list(list_files(root).paths)
            rankers = _rankers(run, store, repo)
        except Exception as exc:  # a repository that cannot be used fails its questions only
            log.warning("repository %s at %s failed: %s", repo, full, exc)
            info["error"] = error_text(exc)
            run.groups.append(info)
            for item in group:
                for name in run.rankers:
                    record = _record(item, name)
                    record["error"], record["route"] = info["error"], "error"
                    score(item, record, [])
                    records.append(record)
            continue
        search_started = time.perf_counter()
        with run.progress.task(f"{repo}@{full[:10]}", total=len(group)) as advance:
            for item in group:
                gold = functions.gold_functions(root, item.expected_spans)
                edits = _edited(mirror, full, item)
                for name, rank in rankers.items():
                    records.append(_ranked(item, name, rank, existing, gold, edits))
                advance(1)
        info["search_seconds"] = time.perf_counter() - search_started
        if run.first_counts:  # chunks embedded first, per question, for answer_first
            info["first_embedded"], run.first_counts[:] = list(run.first_counts), []
        run.groups.append(info)
        if run.after_checkout is not None:
            run.after_checkout(records)
    return records


def _oldest_first(
    run: DevRun, groups: dict[tuple[str, str | None], list[SuiteItem]]
) -> list[tuple[tuple[str, str | None], list[SuiteItem]]]:
    """The checkouts by repository, each repository's commits oldest first (one clone per
    repository moves forward through them, as a user's checkout does)."""

    def when(key: tuple[str, str | None]) -> tuple[str, int]:
        repo = repo_key(key[0])
        mirror = find_mirror(run.mirrors, repo)
        return repo, commit_time(mirror, key[1]) if mirror is not None and key[1] else 0

    return sorted(groups.items(), key=lambda pair: when(pair[0]))


def _edited(mirror: Path, parent: str, item: SuiteItem) -> list[Span]:
    """The lines a mined commit (its id ``OWNER/NAME@COMMIT``, asked at its parent) edits in
    its expected files; none for another item, or a commit the mirror does not have."""
    commit = item.id.rpartition("@")[2]
    if not item.suite.startswith("mined") or not commit:
        return []
    try:
        return functions.edited_lines(mirror, parent, commit, item.expected_files or [])
    except subprocess.CalledProcessError as exc:
        log.warning("no diff of %s in %s: %s", item.id, mirror, exc.stderr.strip())
        return []


def _record(item: SuiteItem, ranker: str) -> dict[str, Any]:
    record = blank_record(item)
    record["ranker"] = ranker
    return record


def _ranked(
    item: SuiteItem,
    ranker: str,
    rank: FileRanker,
    existing: list[str],
    gold: list[Span] | None = None,
    edits: list[Span] | None = None,
) -> dict[str, Any]:
    record = _record(item, ranker)
    started = time.perf_counter()
    chunks: list[Span] = []
    try:
        record["ranked_files"], chunks = rank(item.question)
        record["route"] = default_registry().default  # a ranking: the search route
    except Exception as exc:  # one failed search is recorded, never fatal
        log.warning("ranking %s with %s failed: %s", item.id, ranker, exc)
        record["error"], record["route"] = error_text(exc), "error"
    record["timings"] = {"retrieve": time.perf_counter() - started}
    record["cited_chunks"] = [list(chunk) for chunk in chunks]
    record["gold_functions"] = [list(span) for span in gold or []]
    score(item, record, existing)
    if edits:
        record["gold_edits"] = [list(span) for span in edits]
    if record["error"] is None:
        record["scores"].update(functions.function_scores(chunks, gold or []))
        record["scores"].update(functions.edit_scores(chunks, edits or []))
    return record
