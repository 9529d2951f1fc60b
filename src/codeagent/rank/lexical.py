"""The part of a question's evidence that does not depend on the vectors: BM25 per chunk and
per file, the chunks whose symbols the question names, definitions and mentions, the share of
the question's terms each file holds (:mod:`codeagent.rank.features` reads it; a second pass
of the same question without the vectors reads it again instead of computing it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from codeagent.rank import evidence

if TYPE_CHECKING:
    import numpy as np

    from codeagent.rank.file_table import FileTable
    from codeagent.rank.query import QueryAnalysis
    from codeagent.store.store import IndexStore

TERM_DF_SHARE = 0.05  # terms in more chunks than this share are left out of term_share


@dataclass
class Lexical:
    """What :func:`codeagent.rank.features.compute` reads that does not depend on the
    vectors: kept with the evidence, so the same question ranked again without them reads it
    instead of computing it again."""

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


def file_column(scores: dict[int, float], n_files: int) -> np.ndarray:
    """Per-file scores (file id -> score) as a column of ``n_files`` rows, 0 elsewhere."""
    import numpy as np

    out = np.zeros(n_files, dtype=np.float32)
    for fid, value in scores.items():
        out[fid] += value
    return out


def file_max(values: np.ndarray, table: FileTable) -> np.ndarray:
    """Each file's highest chunk value, at least 0, as float32."""
    import numpy as np

    if table.starts is not None:
        found = np.maximum.reduceat(values, table.starts).astype(np.float32)
        return np.maximum(found, np.float32(0.0))
    best = np.zeros(len(table.paths), dtype=np.float32)
    np.maximum.at(best, table.chunk_file, values)
    return best


def per_file_best(values: np.ndarray, table: FileTable) -> tuple[np.ndarray, np.ndarray]:
    """Each file's best chunk value and its second best (the best set aside)."""
    import numpy as np

    best = file_max(values, table)
    rest = np.where(values >= best[table.chunk_file], 0.0, values).astype(np.float32)
    return best, file_max(rest, table)


def inverse_rank(values: np.ndarray) -> np.ndarray:
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


def lexical_parts(
    store: IndexStore,
    table: FileTable,
    question: str,
    terms: list[str],
    a: QueryAnalysis,
) -> Lexical:
    """The parts of :func:`codeagent.rank.features.compute` that do not depend on the vectors
    (``question``: its noise stripped, ``terms`` its BM25 terms)."""
    import numpy as np

    from codeagent.rank import first_ranker

    n_chunks, n_files = len(store.chunks), len(table.paths)

    def column(scores: dict[int, float]) -> np.ndarray:
        return file_column(scores, n_files)

    bm25 = store.bm25_scores(question, unique=first_ranker.UNIQUE_TERMS)
    bm25_raw = bm25 if bm25 is not None else np.zeros(n_chunks, dtype=np.float32)
    top_bm25 = float(bm25_raw.max()) if n_chunks else 0.0
    bm25_chunk = bm25_raw / top_bm25 if top_bm25 > 0 else bm25_raw
    symbol_chunk = np.zeros(n_chunks, dtype=np.float32)
    for name in a.identifiers:
        for i in table.symbol_chunks.get(name, ()):
            symbol_chunk[i] += 1.0
    bm25_best, bm25_second = per_file_best(bm25_chunk, table)
    symbols, _ = per_file_best(symbol_chunk, table)
    raw_best, _ = per_file_best(bm25_raw, table)
    defines = column(evidence.define_scores(a, table.defines))
    defines += column(evidence.qualified_scores(a, table.defines, table.ids))
    paths, modules, frames = evidence.mention_parts(a, table.paths, table.modules, table.names)
    mentions = column(evidence.mention_scores(a, table.paths, table.modules, table.names))
    return Lexical(
        bm25, bm25_chunk, symbol_chunk, bm25_best, bm25_second, inverse_rank(bm25_best),
        raw_best, symbols, defines, column(paths), column(modules), column(frames), mentions,
        term_share(store, table, terms),
    )  # fmt: skip
