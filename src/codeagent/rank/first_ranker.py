"""The first ranker: every file's evidence for a question, summed into one score.

Chunk retrieval alone ranks *pieces*; a question is about a *file* more often than not, and the
strongest evidence is not lexical: a name the question uses that the file defines, a module or
path it names, a traceback frame in the file. For every file of the index:

- ``bm25``: its best chunk's BM25 score plus a share of its second best, over the best score
  of any file (0..1), over the whole index, not a shortlist;
- ``dense``: its best chunk's cosine among the dense candidates, scaled to 0..1 over them;
- ``defines``: for each code name of the question that the file defines (a function, class,
  method or module-level name, read from the symbol graph), ``1 / number of files defining
  it``, summed and capped (a name defined everywhere says nothing); a dotted name or a
  ``Class`` + ``method`` pair resolved to its defining file;
- ``mentions``: the question names the file's path, its dotted module, or a traceback frame in
  it (the innermost frame counts double);

(the last two in :mod:`codeagent.rank.evidence`);
- ``uses``: the file defines what the best chunks of the top five files call or subclass
  (:func:`codeagent.rank.evidence.use_scores`);
- ``neighbours``: the file imports, or is imported by, one of the top three files
  (:func:`codeagent.rank.evidence.import_neighbours`); for a question, not an issue report;
- ``named``: for a how-question, the file a string of the top files' best chunks names, the
  one whose lines match the question best (:mod:`codeagent.rank.named_files`);
- ``prior``: source code over tests, docs, examples, build and CI configuration, changelogs,
  translation catalogs and vendored or minified assets (see :func:`kind_prior`), softened for
  tests or docs when a short question is about them.

Summed with hand-set weights (set in earlier rounds on a few repositories), this is the
**first ranker**: its best :data:`codeagent.rank.features.POOL` files are re-ordered by a model
fitted across many repositories (:mod:`codeagent.rank.learned`), which reads this evidence
column by column (:mod:`codeagent.rank.features`) with the first ranker's score as one column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.rank.file_table import FileTable, best_chunks
from codeagent.rank.query import QueryAnalysis

if TYPE_CHECKING:
    import numpy as np

    from codeagent.store.store import IndexStore

W_BM25 = 1.0
W_SECOND = 0.3  # share of a file's second best chunk added to its best
W_DENSE = 0.6

ISSUE_PRIOR = 2.0  # the priors times this for an issue report: its fix is rarely in a test
PRIOR_CODE = 0.0
PRIOR_TESTS = -0.35
PRIOR_DOCS = -0.45
PRIOR_OTHER = -0.4  # Markdown, reST, text, notebooks, data
PRIOR_CONFIG = -0.6  # setup.py, setup.cfg, tox.ini, CI files, lock files
PRIOR_JUNK = -1.0  # changelogs, translation catalogs, minified or vendored assets

USES_TOP = 5  # files whose best chunks' calls and bases are followed (evidence.use_scores)
USES_CHUNKS = 2
UNIQUE_TERMS = False  # count each query term once (worse on the tuning split)
W_SYMBOL = 0.3  # a chunk whose own symbol the question names


def kind_prior(kind: str, analysis: QueryAnalysis) -> float:
    """The prior of a file kind; an issue report (long) moves tests and docs further down."""
    scale = ISSUE_PRIOR if analysis.issue_like else 1.0
    return scale * _prior(kind, analysis)


def _prior(kind: str, analysis: QueryAnalysis) -> float:
    if kind == "tests":
        return PRIOR_CODE if analysis.wants_tests else PRIOR_TESTS
    if kind == "docs":
        return PRIOR_OTHER if analysis.wants_docs else PRIOR_DOCS
    if kind == "other":
        return PRIOR_CODE - 0.1 if analysis.wants_docs else PRIOR_OTHER
    return {"code": PRIOR_CODE, "config": PRIOR_CONFIG}.get(kind, PRIOR_JUNK)


def lift_toward(score: np.ndarray, lifts: dict[int, tuple[float, set[int]]]) -> None:
    """Raise each file of ``lifts`` by its value toward, never past, the best of the files it
    was reached from; the ceilings come from the scores before any lift (a source may itself
    be lifted by another)."""
    ceiling = {
        fid: max(float(score[s]) for s in sources) - 1e-3 for fid, (_, sources) in lifts.items()
    }
    for fid, (value, _) in lifts.items():
        score[fid] = max(score[fid], min(score[fid] + value, ceiling[fid]))


def top_spans(
    store: IndexStore, table: FileTable, score: np.ndarray, chunk: np.ndarray
) -> list[tuple[int, str, int, int]]:
    """``(file id, path, start, end)`` of the best :data:`USES_CHUNKS` chunks of each of the
    :data:`USES_TOP` best files so far (the code whose dependencies :func:`use_scores` follows)."""
    import numpy as np

    spans = []
    for fid in np.argsort(-score, kind="stable")[:USES_TOP]:
        for i in best_chunks(table, chunk, int(fid))[:USES_CHUNKS]:
            c = store.chunks[i]
            spans.append((int(fid), c.path, c.start_line, c.end_line))
    return spans
