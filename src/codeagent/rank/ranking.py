"""File-level ranking: the first ranker's score for every file of the index
(:mod:`codeagent.rank.first_ranker`, from the evidence :mod:`codeagent.rank.features`
gathers), then its best :data:`codeagent.rank.features.POOL` files re-ordered by the model
fitted across many repositories (:mod:`codeagent.rank.learned`).

A short question about the tests or the docs ("the test class that ...", "which tests cover
...") wants both the tests and the code they exercise. The model learned from questions
answered by source files, so it does not choose the tests: the first ranker, whose priors turn
toward the kind asked about, keeps its places for those files, and the model orders the source
files in the other places (:func:`kind_places`). Measured in-process on SWE-QA how-questions
(docs/eval.md, eighth round): recall@10 pylint 78.0 -> 80.1, flask 93.8 -> 94.3, requests and
astropy unchanged, no question lost; the first ranker's order alone, as before, left the
helper module the answer names one place past ten.

A longer how-question's first files are then put in order again by a small model fitted on
how-questions (:mod:`codeagent.rank.how_order`), without vectors only. With vectors, such a
question's order is fused with the order the same index gives without them (its BM25 scores
read once; :func:`fuse`): on SWE-QA how-questions of seven repositories, each left out in turn
of the fusion's choice, recall@10 90.5 -> 91.3 (docs/eval.md, fourteenth round).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from codeagent.rank import how_order
from codeagent.rank.file_roles import KINDS
from codeagent.rank.file_table import FileTable, best_chunks, file_table
from codeagent.rank.query import QueryAnalysis, asks_workings

if TYPE_CHECKING:
    import numpy as np

    from codeagent.rank.features import Evidence
    from codeagent.store.store import IndexStore

USE_MODEL = True  # the learned model re-orders the pool (False: the first ranker's order)
SOURCE_FIRST = True  # tests, build files and assets leave the first places (rank.source_first)
USE_HOW_ORDER = True  # a how-question's first files put in order again (rank.how_order)
# A how-question with vectors: the order with them and the order without them (the lexical
# model, its how-question step) fused by reciprocal rank over each one's first FUSE_DEPTH
# files (docs/eval.md, fourteenth round).
FUSE_HOW = True
FUSE_K = 5
FUSE_DEPTH = 50
# The order without vectors is read to FUSE_DEPTH only: its model orders the first FUSE_POOL
# files, not POOL (on ten repositories' how-questions, recall@5 and @10 equal; 60 lost).
FUSE_POOL = 100


@dataclass
class Ranking:
    """Files best first with their scores, and a score for every chunk (to pick what to show)."""

    files: list[tuple[str, float]]
    chunk_scores: np.ndarray
    table: FileTable

    def chunks_of(self, path: str) -> list[int]:
        """Chunk ids of ``path``, best first."""
        return best_chunks(self.table, self.chunk_scores, self.table.ids[path])

    def best_score(self, path: str) -> float:
        """The score of the best chunk of ``path``."""
        return float(self.chunk_scores[self.table.file_chunks[self.table.ids[path]]].max())


def rank_files(store: IndexStore, question: str, analysis: QueryAnalysis) -> Ranking:
    """Every file that has any evidence for ``question``, best first: the learned model's
    order over the first ranker's :data:`codeagent.rank.features.POOL` best files, then the
    rest in the first ranker's order; for a question about the tests or the docs, the first
    ranker's order with the model's around the files of that kind (:func:`kind_places`).
    A how-question with vectors: that order and the one without them, fused (:func:`fuse`)."""
    from codeagent.rank import features

    table = file_table(store)
    found = features.compute(store, table, question, analysis)
    order, scores, how = _order(found, table, question, analysis)
    if how and found.has_dense and FUSE_HOW:
        without = features.compute(
            store, table, question, analysis, vectors=False, known=found, pool_size=FUSE_POOL
        )
        lexical, _, _ = _order(without, table, question, analysis)
        order = _fused(order, lexical, scores)
    if SOURCE_FIRST and how:  # the how model's order, or the fusion, may bring a held file back
        order = _source_first(order, scores, table, question, analysis)
    shown = scores[order].tolist() if order else []
    files = list(zip(map(table.paths.__getitem__, order), shown, strict=True))
    return Ranking(files, found.chunk_scores, table)


def _order(
    found: Evidence, table: FileTable, question: str, analysis: QueryAnalysis
) -> tuple[list[int], np.ndarray, bool]:
    """The file order of :func:`rank_files` from ``found`` (the fusion aside), the shown
    score of each file, and whether the question is a how-question the model's step is for."""
    import numpy as np

    from codeagent.rank import learned

    by_score = np.argsort(-found.stage1, kind="stable")
    order = by_score[found.kept[by_score]].tolist()
    model = learned.model_for(found.has_dense, analysis.reports) if USE_MODEL else None
    scores = found.stage1.astype(np.float64)
    asked = asked_kinds(analysis)
    if model is not None and len(found.pool):
        learned_scores = model.score(found.matrix, report=analysis.reports)
        head = [int(found.pool[i]) for i in np.argsort(-learned_scores, kind="stable")]
        if asked:  # the first ranker places the tests (docs) asked about, the model the rest
            placed = kind_places(
                order, head + order[len(head) :], lambda f: KINDS[int(table.kind_ids[f])] in asked
            )
            scores[placed] = scores[order]  # the first ranker's scores, place by place
            order = placed
        else:
            # shown scores: the model's, squashed to 0..1 and set above the rest of the files
            floor = float(scores[order[len(head)]]) + 1.0 if len(order) > len(head) else 0.0
            scores[found.pool] = floor + 1.0 / (1.0 + np.exp(-learned_scores))
            order = head + order[len(head) :]
    if SOURCE_FIRST:
        order = _source_first(order, scores, table, question, analysis)
    how = USE_HOW_ORDER and not asked and how_order.is_how_question(question, analysis)
    if how and model is not None and len(found.pool):
        order = _how_order(order, scores, found, learned_scores, table, question)
    return order, scores, how


def fuse(first: list[int], second: list[int]) -> list[int]:
    """The first :data:`FUSE_DEPTH` files of each order fused by reciprocal rank
    (``1 / (FUSE_K + place)`` summed; a tie keeps ``first``'s order), then the rest of
    ``first``."""
    score: dict[int, float] = {}
    for ranked in (first, second):
        for place, f in enumerate(ranked[:FUSE_DEPTH]):
            score[f] = score.get(f, 0.0) + 1.0 / (FUSE_K + place)
    head = sorted(score, key=lambda f: -score[f])  # stable: first's files come first
    taken = set(head)
    return head + [f for f in first if f not in taken]


def _fused(order: list[int], lexical: list[int], scores: np.ndarray) -> list[int]:
    """``order`` fused with ``lexical`` (:func:`fuse`); the shown scores stay in falling
    order, place by place (a place past ``order``'s end takes its last score)."""
    new = fuse(order, lexical)
    placed = scores[order].tolist() if order else [0.0]
    placed += [placed[-1]] * (len(new) - len(placed))
    scores[new] = placed[: len(new)]
    return new


def asked_kinds(analysis: QueryAnalysis) -> frozenset[str]:
    """The file kinds a short question asks about: ``tests`` (``wants_tests``), ``docs``
    (``wants_docs``); none for any other question, and for a bug report."""
    return frozenset(
        kind for kind, asked in (("tests", analysis.wants_tests), ("docs", analysis.wants_docs))
        if asked
    )  # fmt: skip


def kind_places(first: list[int], model: list[int], asked: Callable[[int], bool]) -> list[int]:
    """``first``'s order with each file ``asked`` says so of at its place, and the other
    places filled by the other files in ``model``'s order (then any left in ``first``'s)."""
    others = [f for f in model if not asked(f)]
    taken = set(others)
    others += [f for f in first if f not in taken and not asked(f)]
    rest = iter(others)
    return [f if asked(f) else next(rest) for f in first]


def source_first_held(
    table: FileTable, question: str, analysis: QueryAnalysis
) -> Callable[[int], bool] | None:
    """Which files of ``table`` the source-first rule keeps out of the first places for
    ``question`` (:func:`codeagent.rank.source_first.held_back`, unless the question names
    them), by file id; None when the rule keeps none back (a short question about the tests or
    the docs, one about the build that is no bug report)."""
    held = held_by_path(question, analysis)
    if held is None:
        return None
    return lambda f: held(table.paths[f], KINDS[int(table.kind_ids[f])], bool(table.vendored[f]))


def held_by_path(question: str, analysis: QueryAnalysis) -> Callable[[str, str, bool], bool] | None:
    """:func:`source_first_held` for a file given by its path, its kind and whether it is
    vendored (for a ranking replayed from its paths: ``eval/fit_dense_reports.py``)."""
    from codeagent.rank import source_first as rule

    build = rule.asks_about_build(question)
    if asked_kinds(analysis) or (build and not analysis.reports):
        return None

    how = not analysis.reports and asks_workings(question)

    def held(path: str, kind: str, vendored: bool) -> bool:
        if not rule.held_back(path, kind, vendored, analysis.reports, how, build):
            return False
        return not rule.names_file(path, question, analysis.paths)

    return held


def _source_first(
    order: list[int],
    scores: np.ndarray,
    table: FileTable,
    question: str,
    analysis: QueryAnalysis,
) -> list[int]:
    """``order`` with tests, configuration, CI, packaging and vendored assets out of the first
    places (:mod:`codeagent.rank.source_first`); the shown scores of the files moved are lowered
    to the score of the file they now follow, so scores still fall down the list."""
    from codeagent.rank import source_first as rule

    held = source_first_held(table, question, analysis)
    if held is None:
        return order
    moved, count = rule.source_first(order, held)
    # the moved files sit at TOP .. TOP + count - 1; every file after them scores lower
    for before, f in pairwise(moved[: rule.TOP + count]):
        scores[f] = min(scores[f], scores[before])
    return moved


def _how_order(
    order: list[int],
    scores: np.ndarray,
    found: Evidence,
    learned_scores: np.ndarray,
    table: FileTable,
    question: str,
) -> list[int]:
    """``order`` with its first files in the how-question model's order
    (:mod:`codeagent.rank.how_order`); the shown scores stay in falling order, place by place.
    Unchanged when one of those files is not in the pool (no row to read)."""
    from codeagent.rank import features

    head = order[: how_order.K]
    place = {int(f): i for i, f in enumerate(found.pool)}
    if any(f not in place for f in head):
        return order
    rows = [place[f] for f in head]
    paths = [table.paths[f] for f in head]
    matrix, learned = found.matrix[rows], learned_scores[rows]
    new = how_order.reorder(
        head, matrix, learned, paths, question, features.NAMES, dense=found.has_dense
    )
    scores[new] = scores[head]
    return new + order[len(head) :]
