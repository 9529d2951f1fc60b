"""Every file's evidence for a question, as the columns of a feature matrix.

The learned ranker (:mod:`codeagent.rank.learned`) scores files from these columns; the
hand-weighted sum of the first ranker (``stage1``, kept as a column and as the order of the
candidate pool) is one of them. All columns are computed for every file at once with numpy;
the matrix holds the :data:`POOL` best files by ``stage1`` (the learned model re-orders them,
the rest keep their ``stage1`` order behind them).

Columns (:data:`NAMES`), per file: BM25 best and second chunk (over the best file), its rank,
the best raw score; the dense side's best and second chunk (scaled over the dense candidates),
its rank and raw cosine, whether a dense index answered; chunks whose symbol the question
names; definitions, path, module and traceback-frame mentions, what the top files use and
import (:mod:`codeagent.rank.evidence`); the file kind and roles
(:mod:`codeagent.rank.file_roles`); size (chunks, lines), depth, importers; the IDF-weighted
share of the question's terms the file holds; the question's own shape (issue report, about
tests or docs, length), and the products of a few of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codeagent.rank import evidence, named_files
from codeagent.rank.file_table import best_chunks
from codeagent.rank.lexical import (
    Lexical,
    file_column,
    inverse_rank,
    lexical_parts,
    per_file_best,
    term_weights,
)
from codeagent.rank.query import QueryAnalysis

if TYPE_CHECKING:
    import numpy as np

    from codeagent.rank.file_table import FileTable
    from codeagent.store.store import IndexStore

POOL = 300  # files the learned model re-orders
DENSE_DEPTH = 400

NAMES = (
    "bm25_best", "bm25_second", "bm25_rank", "bm25_raw",
    "dense_best", "dense_second", "dense_rank", "dense_cos", "has_dense",
    "symbol_hits", "defines", "path_mention", "module_mention", "frames", "uses", "neighbour",
    "kind_code", "kind_tests", "kind_docs", "kind_config", "kind_other", "kind_junk",
    "vendored", "test_tree", "script", "init",
    "chunks", "lines", "depth", "importers", "term_share",
    "stage1", "stage1_rank",
    "q_issue", "q_tests", "q_docs", "q_words", "q_names",
    "tests_x_wants", "tests_x_issue", "docs_x_wants", "neighbour_x_issue", "test_tree_x_issue",
)  # fmt: skip


@dataclass
class Evidence:
    """What :func:`compute` found: per chunk, per file, and the matrix of the pool."""

    chunk_scores: np.ndarray  # per chunk: BM25 + dense (+ symbol) as the first ranker sums them
    stage1: np.ndarray  # per file: the first ranker's score
    kept: np.ndarray  # per file: has any evidence at all
    pool: np.ndarray  # file ids of the matrix's rows, best stage1 first
    matrix: np.ndarray  # (len(pool), len(NAMES)) float32
    has_dense: bool
    lexical: Lexical | None = None  # what did not depend on the vectors, for a second pass


def _kept_order(stage1: np.ndarray, kept: np.ndarray) -> list[int]:
    """The kept files, best ``stage1`` first (ties in file order)."""
    import numpy as np

    by_score = np.argsort(-stage1, kind="stable")
    return list(by_score[kept[by_score]].tolist())


FIRST_FILES = 10  # candidate files whose chunks an index answered first embeds first
FIRST_CHUNKS = 16  # at most this many chunks of one candidate file, its best by BM25


def candidate_files(bm25: np.ndarray, table: FileTable) -> list[list[int]]:
    """The :data:`FIRST_FILES` best files by their best chunk's BM25 score, each as its
    chunk ids best first (at most :data:`FIRST_CHUNKS`)."""
    import numpy as np

    best, _ = per_file_best(bm25, table)
    files = [int(f) for f in np.argsort(-best, kind="stable")[:FIRST_FILES] if best[f] > 0]
    return [
        sorted(table.file_chunks[f], key=lambda i: -float(bm25[i]))[:FIRST_CHUNKS] for f in files
    ]


def _first_texts(
    store: IndexStore, table: FileTable, order: list[int], chunk: np.ndarray
) -> list[tuple[int, str]]:
    """``(file id, text)`` of the best :data:`named_files.HOP_CHUNKS` chunks of each of the
    first :data:`named_files.HOP_TOP` files of ``order``."""
    return [
        (fid, store.chunks[i].text)
        for fid in order[: named_files.HOP_TOP]
        for i in best_chunks(table, chunk, fid)[: named_files.HOP_CHUNKS]
    ]


def compute(
    store: IndexStore,
    table: FileTable,
    question: str,
    a: QueryAnalysis,
    *,
    vectors: bool = True,
    known: Evidence | None = None,
    pool_size: int | None = None,
) -> Evidence:
    """Every column for every file, and the matrix of the :data:`POOL` best by ``stage1``.

    ``vectors=False``: as an index without vectors would (the dense columns empty);
    ``known``: the same question's evidence already computed on ``store``, whose parts that
    do not depend on the vectors (:class:`Lexical`: BM25, names, mentions) are read instead
    of computed again; ``pool_size``: the matrix's rows (None: :data:`POOL`)."""
    import numpy as np

    from codeagent.rank import first_ranker
    from codeagent.rank.file_roles import KINDS
    from codeagent.rank.query import strip_noise
    from codeagent.tokens import bm25_terms

    question = strip_noise(question)
    terms = bm25_terms(question)
    n_files, n_chunks = len(table.paths), len(store.chunks)

    def column(scores: dict[int, float]) -> np.ndarray:
        return file_column(scores, n_files)

    lex = known.lexical if known is not None else None
    if lex is None:
        lex = lexical_parts(store, table, question, terms, a)
    bm25 = lex.bm25
    first = getattr(getattr(store, "dense", None), "embed_first", None) if vectors else None
    if first is not None and bm25 is not None:  # an index answered first: embed these now
        first(candidate_files(bm25, table))
    dense = store.dense_scores(question, DENSE_DEPTH) if vectors else []
    if dense:
        dense_chunk = np.zeros(n_chunks, dtype=np.float32)
        cosine = np.zeros(n_chunks, dtype=np.float32)
        top, low = dense[0][1], dense[-1][1]
        span = max(top - low, 1e-6)
        for i, cos in dense:
            dense_chunk[i] = (cos - low) / span
            cosine[i] = cos
        chunk = (
            first_ranker.W_BM25 * lex.bm25_chunk
            + first_ranker.W_DENSE * dense_chunk
            + first_ranker.W_SYMBOL * lex.symbol_chunk
        )
        dense_best, dense_second = per_file_best(dense_chunk, table)
        dense_rank = inverse_rank(dense_best)
        cos_best, _ = per_file_best(cosine, table)
    else:  # no vectors: their columns are 0, as their per-file maxima of 0 would be
        chunk = first_ranker.W_BM25 * lex.bm25_chunk + first_ranker.W_SYMBOL * lex.symbol_chunk
        dense_best = dense_second = dense_rank = cos_best = np.zeros(n_files, dtype=np.float32)
    chunk = chunk.astype(np.float32)
    best, second = per_file_best(chunk, table)
    defines = lex.defines
    priors = np.array([first_ranker.kind_prior(k, a) for k in KINDS], dtype=np.float32)
    stage1 = best + first_ranker.W_SECOND * second + defines
    stage1 += lex.mentions
    stage1 += priors[table.kind_ids]
    spans = first_ranker.top_spans(store, table, stage1, chunk)
    uses_lift = evidence.use_scores(spans, table.defines)
    uses = column({fid: value for fid, (value, _) in uses_lift.items()})
    first_ranker.lift_toward(stage1, uses_lift)
    kept = (best > 0) | (stage1 > priors[table.kind_ids])
    order = _kept_order(stage1, kept)
    near = evidence.neighbour_scores(order[: evidence.NEIGHBOUR_TOP], table.neighbours)
    neighbour = column({fid: 1.0 for fid in near})
    lifts = {fid: lift for fid, lift in near.items() if kept[fid] and not a.issue_like}
    if lifts:
        first_ranker.lift_toward(stage1, lifts)
        order = _kept_order(stage1, kept)
    if not a.reports:  # a how-question: the files its first files' code names
        texts = _first_texts(store, table, order, chunk)
        weights = term_weights(store, terms)
        named = named_files.named_files(texts, table.named, weights, table.paths)
        if named:
            first_ranker.lift_toward(stage1, named)
            kept[list(named)] = True
            order = _kept_order(stage1, kept)
    pool = np.array(order[: POOL if pool_size is None else pool_size], dtype=np.int64)
    share = lex.share[pool] if len(pool) else np.zeros(0, np.float32)
    words = len(question.split())
    kinds = np.eye(len(KINDS), dtype=np.float32)[table.kind_ids[pool]]
    neighbour_p = neighbour[pool]
    q = [float(a.issue_like), float(a.wants_tests), float(a.wants_docs)]
    columns = [
        lex.bm25_best[pool], lex.bm25_second[pool], lex.bm25_rank[pool],
        np.log1p(lex.raw_best[pool]),
        dense_best[pool], dense_second[pool], dense_rank[pool], cos_best[pool],
        np.full(len(pool), float(bool(dense))),
        lex.symbols[pool], defines[pool], lex.path_m[pool], lex.module_m[pool],
        lex.frame_m[pool], uses[pool],
        neighbour_p,
        *kinds.T,
        table.vendored[pool], table.test_tree[pool], table.script[pool], table.init[pool],
        np.log1p(table.file_chunk_count[pool]), np.log1p(table.file_lines[pool]),
        table.depth[pool], np.log1p(table.importers[pool]), share,
        stage1[pool], 1.0 / (1.0 + np.arange(len(pool), dtype=np.float32)),
        *(np.full(len(pool), v) for v in q),
        np.full(len(pool), math.log1p(words)),
        np.full(len(pool), math.log1p(len(a.identifiers))),
        kinds[:, 1] * q[1], kinds[:, 1] * q[0], kinds[:, 2] * q[2], neighbour_p * q[0],
        table.test_tree[pool] * q[0],
    ]  # fmt: skip
    matrix = (
        np.stack(columns, axis=1).astype(np.float32)
        if len(pool)
        else np.zeros((0, len(NAMES)), dtype=np.float32)
    )
    return Evidence(chunk, stage1, kept, pool, matrix, bool(dense), lex)
