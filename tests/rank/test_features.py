"""The learned ranker's columns (``rank/features.py``), each computed by hand on a tiny real
index: file by file, chunk by chunk, with plain loops and numpy, from the index's chunks, the
BM25 and dense scores the store gives for the question, and the first ranker's documented sum
(``rank/first_ranker.py``); then compared with ``compute``'s column."""

from __future__ import annotations

import math

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank import evidence, first_ranker
from codeagent.rank.features import DENSE_DEPTH, NAMES, POOL, compute
from codeagent.rank.file_roles import KINDS, path_kind
from codeagent.rank.file_table import file_table
from codeagent.rank.lexical import term_share
from codeagent.rank.query import QueryAnalysis, analyze, strip_noise
from codeagent.store.fusion import bm25_tokens
from codeagent.store.store import IndexStore
from codeagent.tokens import bm25_terms
from conftest import GitRepoFactory

FILES = {
    "pkg/__init__.py": '"""The package."""\n',
    "pkg/matrix.py": "import math\n\n\ndef separability_matrix(model):\n"
    "    return _compute(model) + math.pi\n\n\ndef _compute(model):\n    return model\n\n\n"
    "class Matrix:\n    def separable(self, other):\n        return separability_matrix(other)\n\n"
    "    def padding(self):\n" + "        self.width = 1\n" * 55,  # long: one chunk per method
    "pkg/report.py": "from pkg.matrix import separability_matrix\n\n\ndef report(models):\n"
    + "".join(f"    separability_matrix(models[{i}])  # separability matrix\n" for i in range(6))
    + "\n\ndef summary(models):\n    return len(models)  # matrix summary\n",
    "pkg/net/sessions.py": "from pkg.net.adapters import Adapter\n\n\nclass Session:\n"
    "    def request(self, how):\n        return Adapter().send(how)\n",
    "pkg/net/adapters.py": "class Adapter:\n    def send(self, prepared):\n        raise OSError\n",
    "tests/test_matrix.py": "from pkg.matrix import separability_matrix\n\n\n"
    "def test_separability_matrix():\n    assert separability_matrix(1) == 1  # matrix test\n",
    "docs/guide.md": "# Guide\n\nThe separability matrix of a model, and sessions.\n",
    "setup.cfg": "[metadata]\nname = pkg\n\n[tool:pytest]\ntestpaths = tests\n",
    "CHANGES.rst": "separability matrix fixed\n" * 3,
    "README.md": "# pkg\n\nSessions send prepared requests through an adapter.\n",
    "scripts/release.py": "def release(version):\n    return version  # release the matrix\n",
    "pkg/_vendor/six.py": "def with_metaclass(meta):\n    return meta  # vendored matrix helper\n",
}

QUESTIONS = [
    "where is separability_matrix computed? the matrix matrix of a model",
    "which tests cover the separability matrix?",
    "where is the documentation for pkg.net.sessions and the separability matrix?",
    "Session.request fails in pkg/net/sessions.py:\n"
    'Traceback (most recent call last):\n  File "pkg/net/sessions.py", line 6, in request\n'
    '  File "pkg/net/adapters.py", line 3, in send\nOSError\n'
    + "The adapter raises when a session sends a prepared request to the server. "
    * 6,
    "nothing here matches zzzz",
    "what does `Matrix.separable` return?",  # both parts of a method chunk's symbol
    "report summary",  # pkg/matrix.py: no word of it, but what report() calls
]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, IndexStore]:
    from conftest import git as run_git
    from conftest import write_files

    found = {}
    for embed in ("none", "hash:32"):
        root = tmp_path_factory.mktemp("repo")
        run_git(root, "init", "-q")
        write_files(root, dict(FILES))
        run_git(root, "add", "-A")
        run_git(root, "commit", "-q", "-m", "initial")
        store, _ = load_or_build(root, Settings.load(embed=embed))
        found[embed] = store
    return found


def _per_file(store: IndexStore, paths: list[str], values: np.ndarray) -> tuple[list, list]:
    """Each file's best chunk value and its second (the best of the values below the best;
    0 when there is none), by a loop over the files."""
    best, second = [], []
    for path in paths:
        own = [float(values[i]) for i, c in enumerate(store.chunks) if c.path == path]
        top = max([0.0, *own])
        best.append(top)
        second.append(max([0.0, *(v for v in own if v < top)]))
    return best, second


def _inverse_rank(values: list[float]) -> list[float]:
    """1 / (1 + the value's place among all, ties in file order); 0 for a value of 0."""
    out = []
    for f, v in enumerate(values):
        place = sum(1 for g, w in enumerate(values) if w > v or (w == v and g < f))
        out.append(1.0 / (1.0 + place) if v > 0 else 0.0)
    return out


def _share_by_hand(store: IndexStore, paths: list[str], question: str) -> list[float]:
    """IDF-weighted share of the question's distinct indexed terms each file holds: document
    frequencies counted over the chunks' own BM25 tokens."""
    tokens = [set(bm25_tokens(c)) for c in store.chunks]
    n = len(tokens)
    limit = max(50, int(0.05 * n))
    held = dict.fromkeys(paths, 0.0)
    total = 0.0
    for term in dict.fromkeys(bm25_terms(question)):
        df = sum(1 for t in tokens if term in t)
        if df == 0:
            continue  # not in the index's vocabulary
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
        total += idf
        if df <= limit:
            for path in {c.path for c, t in zip(store.chunks, tokens, strict=True) if term in t}:
                held[path] += idf
    return [held[p] / total if total > 0 else 0.0 for p in paths]


def _by_hand(store: IndexStore, question: str, a: QueryAnalysis) -> dict[str, object]:
    """Every column of every file, by loops; the pool's rows in order."""
    table = file_table(store)
    paths = table.paths
    chunks = store.chunks
    text = strip_noise(question)
    raw = store.bm25_scores(text)
    raw = np.zeros(len(chunks), np.float32) if raw is None else raw
    top = float(raw.max()) if len(raw) else 0.0
    bm25 = raw / top if top > 0 else raw
    pairs = store.dense_scores(text, DENSE_DEPTH)
    dense = np.zeros(len(chunks), np.float32)
    cos = np.zeros(len(chunks), np.float32)
    if pairs:
        high, low = pairs[0][1], pairs[-1][1]
        for i, c in pairs:
            dense[i] = (c - low) / max(high - low, 1e-6)
            cos[i] = c
    hits = np.zeros(len(chunks), np.float32)
    for i, c in enumerate(chunks):
        parts = set(c.symbol.split(".")) if c.symbol and not c.symbol.startswith("<") else set()
        hits[i] = sum(1 for name in a.identifiers if name in parts)
    chunk = first_ranker.W_BM25 * bm25 + first_ranker.W_DENSE * dense
    chunk = chunk + first_ranker.W_SYMBOL * hits
    col: dict[str, list[float]] = {}
    col["bm25_best"], col["bm25_second"] = _per_file(store, paths, bm25)
    col["bm25_rank"] = _inverse_rank(col["bm25_best"])
    col["bm25_raw"] = [math.log1p(v) for v in _per_file(store, paths, raw)[0]]
    col["dense_best"], col["dense_second"] = _per_file(store, paths, dense)
    col["dense_rank"] = _inverse_rank(col["dense_best"])
    col["dense_cos"] = _per_file(store, paths, cos)[0]
    col["symbol_hits"] = _per_file(store, paths, hits)[0]
    best, second = _per_file(store, paths, chunk)

    def spread(scores: dict[int, float]) -> list[float]:
        return [scores.get(f, 0.0) for f in range(len(paths))]

    defines = np.add(
        spread(evidence.define_scores(a, table.defines)),
        spread(evidence.qualified_scores(a, table.defines, table.ids)),
    )
    named, dotted, frames = evidence.mention_parts(a, paths, table.modules)
    col["defines"] = list(defines)
    col["path_mention"], col["module_mention"], col["frames"] = map(spread, (named, dotted, frames))
    prior = [first_ranker.kind_prior(path_kind(p), a) for p in paths]
    mentions = spread(evidence.mention_scores(a, paths, table.modules))
    stage1 = np.array(
        [
            best[f] + 0.3 * second[f] + defines[f] + mentions[f] + prior[f]
            for f in range(len(paths))
        ],
        dtype=np.float32,
    )
    # the code of the five best files so far: their two best chunks each
    ranked = sorted(range(len(paths)), key=lambda f: (-stage1[f], f))[:5]
    spans = []
    for f in ranked:
        own = sorted((i for i, c in enumerate(chunks) if c.path == paths[f]),
                     key=lambda i: -float(chunk[i]))  # fmt: skip
        spans += [(f, paths[f], chunks[i].start_line, chunks[i].end_line) for i in own[:2]]
    uses = evidence.use_scores(spans, table.defines)
    col["uses"] = spread({f: v for f, (v, _) in uses.items()})
    first_ranker.lift_toward(stage1, uses)
    kept = [best[f] > 0 or stage1[f] > prior[f] for f in range(len(paths))]
    order = [f for f in sorted(range(len(paths)), key=lambda f: (-stage1[f], f)) if kept[f]]
    near: set[int] = set()
    for f in order[:3]:
        near |= table.neighbours.get(f, set())
    col["neighbour"] = [1.0 if f in near else 0.0 for f in range(len(paths))]
    if not a.issue_like:
        lifts = {
            f: (evidence.W_NEIGHBOURS, {s for s in order[:3] if f in table.neighbours.get(s, ())})
            for f in near
            if kept[f]
        }
        first_ranker.lift_toward(stage1, lifts)
        order = [f for f in sorted(range(len(paths)), key=lambda f: (-stage1[f], f)) if kept[f]]
    pool = order[:POOL]
    kind = [path_kind(p) for p in paths]
    for k in KINDS:
        col[f"kind_{k}"] = [1.0 if kind[f] == k else 0.0 for f in range(len(paths))]
    col["chunks"] = [math.log1p(sum(1 for c in chunks if c.path == p)) for p in paths]
    col["lines"] = [math.log1p(max(c.end_line for c in chunks if c.path == p)) for p in paths]
    col["depth"] = [float(p.count("/")) for p in paths]
    col["importers"] = [math.log1p(len(table.neighbours.get(f, ()))) for f in range(len(paths))]
    col["term_share"] = _share_by_hand(store, paths, text)
    col["stage1"] = list(stage1)
    for name in ("vendored", "test_tree", "script", "init"):
        col[name] = list(getattr(table, name))
    q = {"q_issue": a.issue_like, "q_tests": a.wants_tests, "q_docs": a.wants_docs}
    for name, on in q.items():
        col[name] = [float(on)] * len(paths)
    col["q_words"] = [math.log1p(len(text.split()))] * len(paths)
    col["q_names"] = [math.log1p(len(a.identifiers))] * len(paths)
    col["has_dense"] = [float(bool(pairs))] * len(paths)
    col["tests_x_wants"] = [t * a.wants_tests for t in col["kind_tests"]]
    col["tests_x_issue"] = [t * a.issue_like for t in col["kind_tests"]]
    col["docs_x_wants"] = [d * a.wants_docs for d in col["kind_docs"]]
    col["neighbour_x_issue"] = [n * a.issue_like for n in col["neighbour"]]
    col["test_tree_x_issue"] = [t * a.issue_like for t in col["test_tree"]]
    rows = {name: [col[name][f] for f in pool] for name in col}
    rows["stage1_rank"] = [1.0 / (1 + r) for r in range(len(pool))]
    return {"pool": pool, "rows": rows, "chunk": chunk, "stage1": stage1, "kept": kept}


@pytest.mark.parametrize("embed", ["none", "hash:32"])
@pytest.mark.parametrize("question", QUESTIONS)
def test_every_column_by_hand(stores: dict[str, IndexStore], embed: str, question: str) -> None:
    store = stores[embed]
    a = analyze(question)
    found = compute(store, file_table(store), question, a)
    want = _by_hand(store, question, a)
    assert [int(f) for f in found.pool] == want["pool"]
    assert found.matrix.shape == (len(want["pool"]), len(NAMES))
    assert found.matrix.dtype == np.float32
    assert found.chunk_scores.dtype == np.float32  # per chunk and per file: float32 arrays
    assert found.stage1.dtype == np.float32
    rows: dict[str, list[float]] = want["rows"]  # type: ignore[assignment]
    assert set(rows) == set(NAMES)
    for i, name in enumerate(NAMES):
        np.testing.assert_allclose(found.matrix[:, i], rows[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)  # fmt: skip
    np.testing.assert_allclose(found.chunk_scores, want["chunk"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(found.stage1, want["stage1"], rtol=1e-5, atol=1e-6)
    assert list(found.kept) == want["kept"]
    assert found.has_dense is (embed != "none")


def test_qualified_names_when_they_weigh(
    stores: dict[str, IndexStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dotted names and Class + method pairs weigh nothing now (``W_QUALIFIED``); given a
    weight, they add to ``defines`` like any definition."""
    monkeypatch.setattr(evidence, "W_QUALIFIED", 0.5)
    store = stores["none"]
    question = "what does `Matrix.separable` return?"
    a = analyze(question)
    assert evidence.qualified_scores(a, file_table(store).defines, file_table(store).ids)
    found = compute(store, file_table(store), question, a)
    want = _by_hand(store, question, a)
    assert [int(f) for f in found.pool] == want["pool"]
    rows: dict[str, list[float]] = want["rows"]  # type: ignore[assignment]
    for name in ("defines", "stage1"):
        np.testing.assert_allclose(found.matrix[:, NAMES.index(name)], rows[name], rtol=1e-5)


def test_a_file_reached_only_through_what_the_top_files_call(
    stores: dict[str, IndexStore],
) -> None:
    """``report summary``: pkg/matrix.py holds no word of it (no BM25 score) but defines what
    report() calls: it is kept, and in the pool."""
    store = stores["none"]
    table = file_table(store)
    found = compute(store, table, "report summary", analyze("report summary"))
    matrix = table.ids["pkg/matrix.py"]
    assert found.kept[matrix]
    assert matrix in [int(f) for f in found.pool]
    assert found.matrix[list(found.pool).index(matrix), NAMES.index("bm25_best")] == 0.0
    assert found.matrix[list(found.pool).index(matrix), NAMES.index("uses")] > 0.0


def test_the_questions_reach_every_kind_of_evidence(stores: dict[str, IndexStore]) -> None:
    """The fixture questions are not vacuous: between them every column is non-zero somewhere
    and differs from file to file or from question to question (columns a tiny repository
    cannot show are named)."""
    never: set[str] = set()
    seen: dict[str, set[float]] = {name: set() for name in NAMES}
    for embed, store in stores.items():
        for question in QUESTIONS:
            found = compute(store, file_table(store), question, analyze(question))
            for i, name in enumerate(NAMES):
                seen[name] |= {round(float(v), 5) for v in found.matrix[:, i]}
            assert embed == "none" or found.has_dense
    flat = sorted(name for name, values in seen.items() if len(values) < 2 and name not in never)
    assert flat == []


def test_term_share_counts_each_term_once_and_leaves_common_ones_out(
    git_repo: GitRepoFactory,
) -> None:
    """Sixty files: ``common`` in 51 chunks (over the 50 a term may be in and still count),
    ``fifty`` in exactly 50 (counted), ``rare`` in one."""
    files = {f"f{i:02}.txt": "filler words here\n" for i in range(60)}
    for i in range(51):
        files[f"f{i:02}.txt"] += "common\n"
    for i in range(50):
        files[f"f{i:02}.txt"] += "fifty\n"
    files["f59.txt"] += "rare\n"
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    assert len(store.chunks) == 60
    table = file_table(store)
    for question in ("common fifty rare", "rare rare rare common", "fifty", "common", "zzz"):
        share = term_share(store, table, bm25_terms(question))
        np.testing.assert_allclose(
            share, _share_by_hand(store, table.paths, question), rtol=1e-5, atol=1e-7,
            err_msg=question,
        )  # fmt: skip
    # "filler": in every chunk, so its best BM25 score is under 1, and still scaled to 1
    raw = store.bm25_scores("filler")
    assert raw is not None
    assert 0 < float(raw.max()) < 1
    for question in ("filler", "filler rare", "common fifty"):
        found = compute(store, table, question, analyze(question))
        want = _by_hand(store, question, analyze(question))
        assert [int(f) for f in found.pool] == want["pool"]
        rows: dict[str, list[float]] = want["rows"]  # type: ignore[assignment]
        for i, name in enumerate(NAMES):
            np.testing.assert_allclose(found.matrix[:, i], rows[name], rtol=1e-5, atol=1e-6,
                                       err_msg=name)  # fmt: skip
    share = term_share(store, table, bm25_terms("common"))
    assert not share.any()  # in too many chunks: in the total only
    share = term_share(store, table, bm25_terms("fifty"))
    assert share[table.ids["f00.txt"]] == pytest.approx(1.0)
    assert share[table.ids["f55.txt"]] == 0.0


def test_the_common_term_cut_grows_with_the_index(git_repo: GitRepoFactory) -> None:
    """1,200 chunks: 5 % of them is 60, over the floor of 50, so a term in 55 chunks still
    counts and one in 61 does not."""
    files = {}
    for f in range(20):
        body = ""
        for g in range(60):
            n = f * 60 + g
            words = ["filler"]
            if n < 55:
                words.append("middling")
            if n < 61:
                words.append("toomany")
            body += f"def func_{n}():\n    return '{' '.join(words)}'\n\n\n"
        files[f"pkg/m{f:02}.py"] = body
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    assert len(store.chunks) == 1200
    table = file_table(store)
    for question in ("middling", "toomany", "middling toomany", "filler middling"):
        share = term_share(store, table, bm25_terms(question))
        np.testing.assert_allclose(
            share, _share_by_hand(store, table.paths, question), rtol=1e-5, atol=1e-7,
            err_msg=question,
        )  # fmt: skip
    assert term_share(store, table, bm25_terms("middling"))[table.ids["pkg/m00.py"]] > 0
    assert not term_share(store, table, bm25_terms("toomany")).any()


def test_an_index_with_no_chunks_has_no_evidence() -> None:
    store = IndexStore.build([], None, None)
    table = file_table(store)
    found = compute(store, table, "where is price defined", analyze("where is price defined"))
    assert found.matrix.shape == (0, len(NAMES))
    assert len(found.pool) == 0
    assert not term_share(store, table, bm25_terms("price")).any()
