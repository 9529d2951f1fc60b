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
from codeagent.rank.query import QueryAnalysis

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    from codeagent.rank.file_table import FileTable
    from codeagent.store.store import IndexStore

POOL = 300  # files the learned model re-orders
DENSE_DEPTH = 400
TERM_DF_SHARE = 0.05  # terms in more chunks than this share are left out of term_share

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


@dataclass
class Lexical:
    """What :func:`compute` reads that does not depend on the vectors: kept with the
    evidence, so the same question ranked again without them reads it instead of computing it
    again."""

    bm25: np.ndarray | None  # per chunk: the raw BM25 score (None: no term indexed)
    bm25_chunk: np.ndarray  # per chunk: BM25 over the best chunk's
    symbol_chunk: np.ndarray  # per chunk: the question's identifiers it defines
    bm25_best: np.ndarray  # per file, from here on
    bm25_second: np.ndarray
    bm25_rank: np.ndarray
    raw_best: np.ndarray
    symbols: np.ndarray
    defines: np.ndarray
    path_m: np.ndarray
    module_m: np.ndarray
    frame_m: np.ndarray
    mentions: np.ndarray
    share: np.ndarray  # term_share


def _file_max(values: np.ndarray, table: FileTable) -> np.ndarray:
    """Each file's highest chunk value, at least 0, as float32."""
    import numpy as np

    if table.starts is not None:
        found = np.maximum.reduceat(values, table.starts).astype(np.float32)
        return np.maximum(found, np.float32(0.0))
    best = np.zeros(len(table.paths), dtype=np.float32)
    np.maximum.at(best, table.chunk_file, values)
    return best


def _per_file_best(values: np.ndarray, table: FileTable) -> tuple[np.ndarray, np.ndarray]:
    """Each file's best chunk value and its second best (the best set aside)."""
    import numpy as np

    best = _file_max(values, table)
    rest = np.where(values >= best[table.chunk_file], 0.0, values).astype(np.float32)
    return best, _file_max(rest, table)


def _kept_order(stage1: np.ndarray, kept: np.ndarray) -> list[int]:
    """The kept files, best ``stage1`` first (ties in file order)."""
    import numpy as np

    by_score = np.argsort(-stage1, kind="stable")
    return list(by_score[kept[by_score]].tolist())


def _inverse_rank(values: np.ndarray) -> np.ndarray:
    """1 / (1 + rank) of each value among all (0 for a value of 0)."""
    import numpy as np

    order = np.argsort(-values, kind="stable")
    rank = np.empty(len(values), dtype=np.float32)
    rank[order] = np.arange(len(values), dtype=np.float32)
    return np.where(values > 0, 1.0 / (1.0 + rank), 0.0).astype(np.float32)


def term_share(store: IndexStore, table: FileTable, query_terms: list[str]) -> np.ndarray:
    """Per file, the IDF-weighted share of the question's distinct terms that its chunks hold
    (terms in more than :data:`TERM_DF_SHARE` of the chunks count in the total only)."""
    import numpy as np

    share = np.zeros(len(table.paths), dtype=np.float32)
    bm25 = store.bm25
    vocab = bm25.vocab_dict
    ids = [vocab[t] for t in dict.fromkeys(query_terms) if t in vocab]
    if not ids:
        return share
    limit = max(50, int(TERM_DF_SHARE * max(bm25.num_docs, 1)))
    total = 0.0
    for t in ids:
        docs = bm25.docs_of(t)
        idf = bm25.idf(len(docs))
        total += idf
        if 0 < len(docs) <= limit:
            owners = table.chunk_file[docs]  # docs ascend: with files' chunks adjacent, so do these
            if table.starts is not None:
                files = owners[np.flatnonzero(np.diff(owners, prepend=-1))]
            else:
                files = np.unique(owners)
            share[files] += idf
    return share / total if total > 0 else share


def term_weights(store: IndexStore, query_terms: list[str]) -> dict[str, float]:
    """The IDF weight of each of the question's distinct terms that the index holds."""
    bm25 = store.bm25
    vocab = bm25.vocab_dict
    return {
        t: bm25.idf(len(bm25.docs_of(vocab[t]))) for t in dict.fromkeys(query_terms) if t in vocab
    }


FIRST_FILES = 10  # candidate files whose chunks an index answered first embeds first
FIRST_CHUNKS = 16  # at most this many chunks of one candidate file, its best by BM25


def candidate_files(bm25: np.ndarray, table: FileTable) -> list[list[int]]:
    """The :data:`FIRST_FILES` best files by their best chunk's BM25 score, each as its
    chunk ids best first (at most :data:`FIRST_CHUNKS`)."""
    import numpy as np

    best, _ = _per_file_best(bm25, table)
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
) -> Evidence:
    """Every column for every file, and the matrix of the :data:`POOL` best by ``stage1``.

    ``vectors=False``: as an index without vectors would (the dense columns empty);
    ``known``: the same question's evidence already computed on ``store``, whose parts that
    do not depend on the vectors (:class:`Lexical`: BM25, names, mentions) are read instead
    of computed again."""
    import numpy as np

    from codeagent.rank import first_ranker
    from codeagent.rank.file_roles import KINDS
    from codeagent.rank.query import strip_noise
    from codeagent.tokens import bm25_terms

    question = strip_noise(question)
    terms = bm25_terms(question)
    n_files, n_chunks = len(table.paths), len(store.chunks)

    def column(scores: dict[int, float]) -> np.ndarray:
        out = np.zeros(n_files, dtype=np.float32)
        for fid, value in scores.items():
            out[fid] += value
        return out

    lex = known.lexical if known is not None else None
    if lex is None:
        lex = _lexical(store, table, question, terms, a, column)
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
        dense_best, dense_second = _per_file_best(dense_chunk, table)
        dense_rank = _inverse_rank(dense_best)
        cos_best, _ = _per_file_best(cosine, table)
    else:  # no vectors: their columns are 0, as their per-file maxima of 0 would be
        chunk = first_ranker.W_BM25 * lex.bm25_chunk + first_ranker.W_SYMBOL * lex.symbol_chunk
        dense_best = dense_second = dense_rank = cos_best = np.zeros(n_files, dtype=np.float32)
    chunk = chunk.astype(np.float32)
    best, second = _per_file_best(chunk, table)
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
    pool = np.array(order[:POOL], dtype=np.int64)
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


def _lexical(
    store: IndexStore,
    table: FileTable,
    question: str,
    terms: list[str],
    a: QueryAnalysis,
    column: Callable[[dict[int, float]], np.ndarray],
) -> Lexical:
    """The parts of :func:`compute` that do not depend on the vectors (``question``: its
    noise stripped, ``terms`` its BM25 terms)."""
    import numpy as np

    from codeagent.rank import first_ranker

    n_chunks = len(store.chunks)
    bm25 = store.bm25_scores(question, unique=first_ranker.UNIQUE_TERMS)
    bm25_raw = bm25 if bm25 is not None else np.zeros(n_chunks, dtype=np.float32)
    top_bm25 = float(bm25_raw.max()) if n_chunks else 0.0
    bm25_chunk = bm25_raw / top_bm25 if top_bm25 > 0 else bm25_raw
    symbol_chunk = np.zeros(n_chunks, dtype=np.float32)
    for name in a.identifiers:
        for i in table.symbol_chunks.get(name, ()):
            symbol_chunk[i] += 1.0
    bm25_best, bm25_second = _per_file_best(bm25_chunk, table)
    symbols, _ = _per_file_best(symbol_chunk, table)
    raw_best, _ = _per_file_best(bm25_raw, table)
    defines = column(evidence.define_scores(a, table.defines))
    defines += column(evidence.qualified_scores(a, table.defines, table.ids))
    paths, modules, frames = evidence.mention_parts(a, table.paths, table.modules, table.names)
    mentions = column(evidence.mention_scores(a, table.paths, table.modules, table.names))
    return Lexical(
        bm25, bm25_chunk, symbol_chunk, bm25_best, bm25_second, _inverse_rank(bm25_best),
        raw_best, symbols, defines, column(paths), column(modules), column(frames), mentions,
        term_share(store, table, terms),
    )  # fmt: skip
