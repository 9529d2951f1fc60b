"""File-level ranking: every file's evidence for a question, summed into one score.

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

(the last two in :mod:`codeagent.index.evidence`);
- ``uses``: the file defines what the best chunks of the top five files call or subclass
  (:func:`codeagent.index.evidence.use_scores`);
- ``neighbours``: the file imports, or is imported by, one of the top three files
  (:func:`codeagent.index.evidence.import_neighbours`); for a question, not an issue report;
- ``prior``: source code over tests, docs, examples, build and CI configuration, changelogs,
  translation catalogs and vendored or minified assets (see :func:`kind_prior`), softened for
  tests or docs when a short question is about them.

Summed with hand-set weights (set in earlier rounds on a few repositories), this is the
**first ranker**: its best :data:`codeagent.index.features.POOL` files are re-ordered by a model
fitted across many repositories (:mod:`codeagent.index.learned`), which reads this evidence
column by column (:mod:`codeagent.index.features`) with the first ranker's score as one column.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codeagent.index import evidence, file_roles
from codeagent.index.evidence import Definers
from codeagent.index.query import QueryAnalysis

if TYPE_CHECKING:
    import numpy as np

    from codeagent.index.store import IndexStore

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

CODE_SUFFIXES = frozenset((
    ".py", ".pyi", ".pyx", ".js", ".jsx", ".mjs", ".ts", ".tsx", ".go", ".rs", ".java", ".kt",
    ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift", ".m", ".sh",
    ".lua", ".r", ".jl", ".ex", ".exs", ".erl", ".hs", ".ml", ".clj", ".sql",
))  # fmt: skip
TEST_DIRS = frozenset({"tests", "test", "testing", "unittests", "integration", "functional"})
DOC_DIRS = frozenset({"docs", "doc", "examples", "example", "tutorials", "tutorial", "benchmarks"})
VENDOR_DIRS = frozenset({"vendor", "vendored", "_vendor", "third_party", "extern", "node_modules"})
CONFIG_NAMES = frozenset({
    "setup.py", "setup.cfg", "tox.ini", "noxfile.py", "conftest.py", "pyproject.toml",
    "manifest.in", "makefile", "dockerfile", "requirements.txt", "pytest.ini", ".coveragerc",
    "codecov.yml", ".gitignore", ".gitattributes", ".gitblameignore", ".mailmap",
    ".pre-commit-config.yaml", ".readthedocs.yml", ".readthedocs.yaml", "environment.yml",
})  # fmt: skip
CONFIG_SUFFIXES = frozenset({".cfg", ".ini", ".toml", ".yml", ".yaml", ".lock", ".in"})
JUNK_SUFFIXES = frozenset({".po", ".pot", ".mo", ".map", ".svg", ".csv", ".min.js", ".min.css"})
KINDS = ("code", "tests", "docs", "config", "other", "junk")
_CHANGELOG = re.compile(r"^(changes|changelog|history|news|release|whatsnew|authors)", re.I)


def path_kind(path: str) -> str:
    """``code``, ``tests``, ``docs``, ``config``, ``other`` or ``junk`` (see the module doc)."""
    pure = PurePosixPath(path)
    parts = [p.lower() for p in pure.parts]
    name = parts[-1] if parts else ""
    dirs = parts[:-1]
    suffix = pure.suffix.lower()
    if (
        suffix in JUNK_SUFFIXES
        or name.endswith((".min.js", ".min.css"))
        or _CHANGELOG.match(name)
        or any(d in VENDOR_DIRS or d.startswith("changelog") for d in dirs)
        or "locale" in dirs
    ):
        return "junk"
    if (
        name.startswith("test_")
        or name.endswith(("_test.py", "_tests.py"))
        or any(d in TEST_DIRS for d in dirs)
    ):
        return "tests"
    if name in CONFIG_NAMES or (dirs and dirs[0] in {".github", ".circleci", "ci"}):
        return "config"
    if any(d in DOC_DIRS for d in dirs):
        return "docs"
    if suffix in CODE_SUFFIXES:
        return "code"
    if suffix in CONFIG_SUFFIXES or name.startswith("."):
        return "config"
    return "other"


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


def module_names(path: str) -> list[str]:
    """Dotted module names of a Python file, longest first (``src.flask.app``, ``flask.app``, …)."""
    pure = PurePosixPath(path)
    if pure.suffix not in {".py", ".pyi"}:
        return []
    parts = list(pure.with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return [".".join(parts[i:]) for i in range(len(parts)) if parts[i:]]


@dataclass
class FileTable:
    """Per-index lookup tables, built once per store (lazily, at the first question)."""

    paths: list[str]
    ids: dict[str, int]  # path -> file id
    chunk_file: np.ndarray  # file id of each chunk
    file_chunks: list[list[int]]  # chunk ids of each file
    kind_ids: np.ndarray  # index into KINDS of each file
    symbol_chunks: dict[str, list[int]]  # each part of a chunk's symbol -> chunk ids
    defines: Definers  # who defines which name
    modules: dict[str, int]  # dotted module (and every suffix of it) -> file id; -1 if ambiguous
    neighbours: dict[int, set[int]]  # file id -> the files it imports or is imported by
    # per file, for the learned ranker's columns (codeagent.index.features)
    vendored: np.ndarray
    test_tree: np.ndarray
    script: np.ndarray
    init: np.ndarray
    file_chunk_count: np.ndarray
    file_lines: np.ndarray
    depth: np.ndarray
    importers: np.ndarray


_TABLES: weakref.WeakKeyDictionary[IndexStore, FileTable] = weakref.WeakKeyDictionary()


def file_table(store: IndexStore) -> FileTable:
    table = _TABLES.get(store)
    if table is None:
        table = _build_table(store)
        _TABLES[store] = table
    return table


def _build_table(store: IndexStore) -> FileTable:
    import numpy as np

    ids: dict[str, int] = {}
    chunk_file = np.empty(len(store.chunks), dtype=np.int64)
    file_chunks: list[list[int]] = []
    symbol_chunks: dict[str, list[int]] = {}
    for i, chunk in enumerate(store.chunks):
        fid = ids.setdefault(chunk.path, len(ids))
        if fid == len(file_chunks):
            file_chunks.append([])
        file_chunks[fid].append(i)
        chunk_file[i] = fid
        names = set(chunk.symbol.split(".")) if chunk.symbol and chunk.symbol[0] != "<" else set()
        for name in names:
            symbol_chunks.setdefault(name, []).append(i)
    paths = list(ids)
    modules: dict[str, int] = {}
    for fid, path in enumerate(paths):
        for dotted in module_names(path):
            modules[dotted] = -1 if modules.get(dotted, fid) != fid else fid
    graph = getattr(store, "symbols", None)
    neighbours = evidence.import_neighbours(graph, ids)
    found = file_roles.roles(paths, store.chunks)
    lines = np.zeros(len(paths), dtype=np.float32)
    np.maximum.at(lines, chunk_file, np.array([c.end_line for c in store.chunks], np.float32))

    def floats(values: list[float]) -> np.ndarray:
        return np.asarray(values, dtype=np.float32)

    return FileTable(
        paths=paths,
        ids=ids,
        chunk_file=chunk_file,
        file_chunks=file_chunks,
        kind_ids=np.array([KINDS.index(path_kind(p)) for p in paths], dtype=np.int64),
        symbol_chunks=symbol_chunks,
        defines=evidence.definers(store.chunks, ids, graph),
        modules=modules,
        neighbours=neighbours,
        vendored=floats(found.vendored),
        test_tree=floats(found.test_tree),
        script=floats(found.script),
        init=floats(found.init),
        file_chunk_count=floats([len(c) for c in file_chunks]),
        file_lines=lines,
        depth=floats([p.count("/") for p in paths]),
        importers=floats([len(neighbours.get(f, ())) for f in range(len(paths))]),
    )


USES_TOP = 5  # files whose best chunks' calls and bases are followed (evidence.use_scores)
USES_CHUNKS = 2
UNIQUE_TERMS = False  # count each query term once (worse on the tuning split)
W_SYMBOL = 0.3  # a chunk whose own symbol the question names
USE_MODEL = True  # the learned model re-orders the pool (False: the first ranker's order)


@dataclass
class Ranking:
    """Files best first with their scores, and a score for every chunk (to pick what to show)."""

    files: list[tuple[str, float]]
    chunk_scores: np.ndarray
    table: FileTable

    def chunks_of(self, path: str) -> list[int]:
        """Chunk ids of ``path``, best first."""
        return _best_chunks(self.table, self.chunk_scores, self.table.ids[path])


def _best_chunks(table: FileTable, chunk_scores: np.ndarray, fid: int) -> list[int]:
    """Chunk ids of file ``fid``, best first."""
    return sorted(table.file_chunks[fid], key=lambda i: -float(chunk_scores[i]))


def rank_files(store: IndexStore, question: str, analysis: QueryAnalysis) -> Ranking:
    """Every file that has any evidence for ``question``, best first: the learned model's
    order over the first ranker's :data:`codeagent.index.features.POOL` best files, then the
    rest in the first ranker's order."""
    import numpy as np

    from codeagent.index import features, learned

    table = file_table(store)
    found = features.compute(store, table, question, analysis)
    order = [int(f) for f in np.argsort(-found.stage1, kind="stable") if found.kept[f]]
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
    return Ranking([(table.paths[f], float(scores[f])) for f in order], found.chunk_scores, table)


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
        for i in _best_chunks(table, chunk, int(fid))[:USES_CHUNKS]:
            c = store.chunks[i]
            spans.append((int(fid), c.path, c.start_line, c.end_line))
    return spans
