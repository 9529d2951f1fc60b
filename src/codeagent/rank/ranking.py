"""File-level ranking: the first ranker's score for every file of the index
(:mod:`codeagent.rank.first_ranker`, from the evidence :mod:`codeagent.rank.features`
gathers), then its best :data:`codeagent.rank.features.POOL` files re-ordered by the model
fitted across many repositories (:mod:`codeagent.rank.learned`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from codeagent.rank.file_table import FileTable, best_chunks, file_table
from codeagent.rank.query import QueryAnalysis

if TYPE_CHECKING:
    import numpy as np

    from codeagent.store.store import IndexStore

USE_MODEL = True  # the learned model re-orders the pool (False: the first ranker's order)
SOURCE_FIRST = True  # tests, build files and assets leave the first places (rank.source_first)


@dataclass
class Ranking:
    """Files best first with their scores, and a score for every chunk (to pick what to show)."""

    files: list[tuple[str, float]]
    chunk_scores: np.ndarray
    table: FileTable

    def chunks_of(self, path: str) -> list[int]:
        """Chunk ids of ``path``, best first."""
        return best_chunks(self.table, self.chunk_scores, self.table.ids[path])


def rank_files(store: IndexStore, question: str, analysis: QueryAnalysis) -> Ranking:
    """Every file that has any evidence for ``question``, best first: the learned model's
    order over the first ranker's :data:`codeagent.rank.features.POOL` best files, then the
    rest in the first ranker's order."""
    import numpy as np

    from codeagent.rank import features, learned

    table = file_table(store)
    found = features.compute(store, table, question, analysis)
    by_score = np.argsort(-found.stage1, kind="stable")
    order = by_score[found.kept[by_score]].tolist()
    # the model learned from questions answered by source files (commits, issues, SWE-QA):
    # a short question about the tests or the docs is outside what it saw, so the first
    # ranker, whose priors turn toward tests and docs for it, keeps its order
    off_corpus = analysis.wants_tests or analysis.wants_docs
    model = learned.model_for(found.has_dense) if USE_MODEL and not off_corpus else None
    scores = found.stage1.astype(np.float64)
    if model is not None and len(found.pool):
        learned_scores = model.score(found.matrix)
        head = [int(found.pool[i]) for i in np.argsort(-learned_scores, kind="stable")]
        # shown scores: the model's, squashed to 0..1 and set above the rest of the files
        floor = float(scores[order[len(head)]]) + 1.0 if len(order) > len(head) else 0.0
        scores[found.pool] = floor + 1.0 / (1.0 + np.exp(-learned_scores))
        order = head + order[len(head) :]
    if SOURCE_FIRST:
        order = _source_first(order, scores, table, question, analysis)
    shown = scores[order].tolist() if order else []
    files = [(table.paths[f], score) for f, score in zip(order, shown, strict=True)]
    return Ranking(files, found.chunk_scores, table)


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
    from codeagent.rank.file_roles import KINDS

    if analysis.wants_tests or analysis.wants_docs or rule.asks_about_build(question):
        return order

    def held(f: int) -> bool:
        path = table.paths[f]
        kind = KINDS[int(table.kind_ids[f])]
        if not rule.held_back(path, kind, bool(table.vendored[f]), analysis.reports):
            return False
        return not rule.names_file(path, question, analysis.paths)

    moved, count = rule.source_first(order, held)
    # the moved files sit at TOP .. TOP + count - 1; every file after them scores lower
    for before, f in pairwise(moved[: rule.TOP + count]):
        scores[f] = min(scores[f], scores[before])
    return moved
