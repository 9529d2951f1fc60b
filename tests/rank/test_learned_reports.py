"""The dense model's ``blend_reports``: a bug report adds the best chunk's cosine to the
model's score; any other question, and the lexical model, rank as before.

The model in the end-to-end test is a stand-in that prefers longer files (its score is the
``lines`` column), so its own first file is the longest one, counted from the files written
below. The file nearest a question by the vectors is found by hand: every chunk embedded with
the same deterministic embedder, one dot product each, without the index's dense search. The
two differ, so the test fails when the cosine is left out of a report's score, and when it is
added to a how-question's.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.embed.embedders import HashEmbedder
from codeagent.index.build import load_or_build
from codeagent.rank import learned
from codeagent.rank.features import NAMES
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from conftest import GitRepoFactory
from rank.test_learned import _same_trees, matrix, write

DIM = 32
FILES = {
    # the question's own words, and the shortest file
    "net/headers.py": "def parse_header_line(line):\n"
    '    """Parse one header line of a request: its name and its value."""\n'
    "    name, value = line.split(':', 1)\n    return name, value\n",
    # one of its words, many times over, and the longest
    "net/table.py": "def header_table(rows):\n"
    + "    rows = rows  # header\n" * 40
    + "    return rows\n",
    "net/body.py": "def read_body(stream, header):\n"
    + "    stream = stream\n" * 12
    + "    return header\n",
}
HOW = "how is the header line of a request parsed into its name and value"
REPORT = " ".join([HOW] * 6)  # a long question, the same words: the same hashed vector
LINES_ONLY = {"kind": "linear", "features": ["lines"], "mean": [0.0], "scale": [1.0],
              "weights": [1.0], "bias": 0.0}  # fmt: skip


def _nearest_file(store: object, question: str) -> str:
    """The file whose best chunk is nearest ``question``, each chunk embedded here."""
    embedder = HashEmbedder(DIM)
    chunks = store.chunks  # type: ignore[attr-defined]
    cosines = embedder.embed_documents([c.embed_text for c in chunks]) @ embedder.embed_query(
        question
    )
    best: dict[str, float] = {}
    for chunk, cosine in zip(chunks, cosines, strict=True):
        best[chunk.path] = max(best.get(chunk.path, -1.0), float(cosine))
    return max(best, key=lambda path: best[path])


def test_a_report_adds_the_cosine_and_a_how_question_keeps_the_models_order(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed=f"hash:{DIM}"))
    spec = {**LINES_ONLY, "blend_reports": {"dense_cos": 50.0}}
    monkeypatch.setattr(learned, "MODEL_FILE", write(tmp_path, {"dense": spec}))
    longest = max(FILES, key=lambda path: FILES[path].count("\n"))
    nearest = _nearest_file(store, HOW)
    assert nearest == _nearest_file(store, REPORT) != longest
    assert analyze(REPORT).reports
    assert not analyze(HOW).reports

    report = [path for path, _ in rank_files(store, REPORT, analyze(REPORT)).files]
    how = [path for path, _ in rank_files(store, HOW, analyze(HOW)).files]

    assert report[0] == nearest
    assert how[0] == longest
    assert sorted(report) == sorted(how) == sorted(FILES)


def test_the_cosine_is_standardised_then_weighed_for_a_report_only(tmp_path: Path) -> None:
    spec = {"kind": "linear", "features": ["defines"], "mean": [0.0], "scale": [1.0],
            "weights": [1.0], "bias": 0.0, "blend_stage1": 1.0,
            "blend_reports": {"dense_cos": 0.5}}  # fmt: skip
    model = learned.load(write(tmp_path, {"dense": spec}))["dense"]
    rows = matrix(defines=[3.0, 0.0, 0.0], stage1=[1.0, 2.0, 3.0], dense_cos=[0.2, 0.6, 0.4])
    # z([3, 0, 0]) = [2, -1, -1] / sqrt(2); z([1, 2, 3]) = [-1, 0, 1] / sqrt(2/3);
    # z([0.2, 0.6, 0.4]) = [-1, 1, 0] / sqrt(2/3)
    root2, root23 = 2**0.5, (2 / 3) ** 0.5
    plain = [2 / root2 - 1 / root23, -1 / root2, -1 / root2 + 1 / root23]
    assert model.score(rows).tolist() == pytest.approx(plain)
    assert model.score(rows, report=True).tolist() == pytest.approx(
        [plain[0] - 0.5 / root23, plain[1] + 0.5 / root23, plain[2]]
    )


@pytest.mark.parametrize("blend", [["dense_cos", 1.0], {"no_such_column": 1.0}])
def test_an_unusable_blend_is_no_model(tmp_path: Path, blend: object) -> None:
    assert learned.load(write(tmp_path, {"dense": {**LINES_ONLY, "blend_reports": blend}})) == {}


def test_only_the_shipped_dense_model_weighs_a_report_apart() -> None:
    """Truth: the shipped file read as JSON. The lexical model (no vectors) names no
    ``blend_reports`` and scores a report as any question; the dense model names the cosine."""
    learned.forget()
    shipped = json.loads(learned.MODEL_FILE.read_text(encoding="utf-8"))["models"]
    assert "blend_reports" not in shipped["lexical"]
    assert set(shipped["dense"]["blend_reports"]) == {"dense_cos"}
    rows = np.random.default_rng(0).random((40, matrix(lines=[0.0]).shape[1])).astype(np.float32)
    lexical, dense = learned.model_for(False), learned.model_for(True)
    assert lexical is not None
    assert dense is not None
    assert np.array_equal(lexical.score(rows, report=True), lexical.score(rows))
    assert not np.allclose(dense.score(rows, report=True), dense.score(rows))


SHORTEST_FIRST = {**LINES_ONLY, "weights": [-1.0]}


@pytest.mark.parametrize("embed", [f"hash:{DIM}", "none"])
def test_a_report_is_ranked_by_its_modes_reports_model(
    git_repo: GitRepoFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    embed: str,
) -> None:
    """With vectors a bug report is ranked by ``dense-reports`` (here the shortest file first)
    and a how-question by ``dense`` (the longest first); without vectors ``lexical-reports``
    and ``lexical`` are the pair, the other way round, so a model taken from the wrong mode
    or the wrong kind of question puts the other file first. Truth: the files' line counts."""
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed=embed))
    models = {
        "dense": LINES_ONLY, "dense-reports": SHORTEST_FIRST,
        "lexical": SHORTEST_FIRST, "lexical-reports": LINES_ONLY,
    }  # fmt: skip
    monkeypatch.setattr(learned, "MODEL_FILE", write(tmp_path, models))
    lines = {path: text.count("\n") for path, text in FILES.items()}
    longest, shortest = max(lines, key=lines.__getitem__), min(lines, key=lines.__getitem__)
    report = [path for path, _ in rank_files(store, REPORT, analyze(REPORT)).files]
    how = [path for path, _ in rank_files(store, HOW, analyze(HOW)).files]
    if embed == "none":
        assert (report[0], how[0]) == (longest, shortest)
    else:
        assert (report[0], how[0]) == (shortest, longest)


def test_a_report_model_that_cannot_be_read_leaves_the_modes_model_in_use(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``dense-reports`` that names a column the features do not have is not used: a bug
    report with vectors is ranked by ``dense`` (the longest file first, as a how-question),
    not by the first ranker's order alone, and the index without vectors keeps ``lexical``
    (the shortest first). Truth: the files' line counts."""
    broken = {**SHORTEST_FIRST, "features": ["no_such_column"]}
    models = {"dense": LINES_ONLY, "dense-reports": broken, "lexical": SHORTEST_FIRST}
    monkeypatch.setattr(learned, "MODEL_FILE", write(tmp_path, models))
    lines = {path: text.count("\n") for path, text in FILES.items()}
    longest, shortest = max(lines, key=lines.__getitem__), min(lines, key=lines.__getitem__)
    dense, _ = load_or_build(git_repo(FILES), Settings.load(embed=f"hash:{DIM}"))
    assert rank_files(dense, REPORT, analyze(REPORT)).files[0][0] == longest
    lexical, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    assert rank_files(lexical, HOW, analyze(HOW)).files[0][0] == shortest
    assert learned.load(learned.MODEL_FILE) == {}  # the tools that fit models: all or none


def test_a_question_parses_only_the_model_it_is_ranked_by(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without vectors only ``lexical`` is parsed, however many the file holds; a report
    with vectors parses ``dense-reports`` and nothing else; each once."""
    models = {"dense": LINES_ONLY, "dense-reports": SHORTEST_FIRST, "lexical": SHORTEST_FIRST}
    monkeypatch.setattr(learned, "MODEL_FILE", write(tmp_path, models))
    parsed: list[list[str]] = []
    real = learned._parse
    monkeypatch.setattr(
        learned, "_parse", lambda spec, names: parsed.append(spec["features"]) or real(spec, names)
    )
    for _ in range(3):
        assert learned.model_for(False) is not None
    assert parsed == [SHORTEST_FIRST["features"]]
    parsed.clear()
    report = learned.model_for(True, report=True)
    assert report is not None
    assert report.params["weights"].tolist() == SHORTEST_FIRST["weights"]
    assert len(parsed) == 1


def test_a_report_gets_its_modes_reports_model_where_the_file_names_one() -> None:
    """Truth: the shipped file read as JSON. A mode whose ``-reports`` model the file names
    gives a report that one, a mode that names none its own model (the file ships none now:
    docs/eval.md, thirty-fifth round); any other question gets the mode's model."""
    learned.forget()
    shipped = json.loads(learned.MODEL_FILE.read_text(encoding="utf-8"))["models"]
    for has_dense, mode in [(True, "dense"), (False, "lexical")]:
        key = f"{mode}-reports" if f"{mode}-reports" in shipped else mode
        got = learned.model_for(has_dense, report=True)
        assert got is not None
        assert [NAMES[i] for i in got.columns] == shipped[key]["features"]
        assert _same_trees(got.params["forest"], shipped[key]["trees"])
        plain = learned.model_for(has_dense)
        assert plain is not None
        assert _same_trees(plain.params["forest"], shipped[mode]["trees"])
