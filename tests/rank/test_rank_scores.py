"""The scores ``rank_files`` shows when the learned model orders the pool: the model's score
squashed to 0..1 (a logistic curve, computed here by hand from a model whose score is a known
column), set just above the best file left out of the pool; and the model that matches the
index (dense or lexical)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank import features, learned
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from conftest import GitRepoFactory

REPO = {
    "pkg/short.py": "def parse_header(line):\n    return line\n",
    "pkg/long.py": "def header_table(rows):\n" + "    rows = rows  # header\n" * 30
    + "    return rows\n",
    "pkg/middle.py": "def read(header):\n" + "    header = header\n" * 10 + "    return header\n",
    "pkg/other.py": "def unrelated(x):\n    return x\n",
}  # fmt: skip
LINES = {path: text.count("\n") for path, text in REPO.items()}
QUESTION = "how is the header parsed?"


def _lines_model(tmp_path: Path, weight: float = 1.0, mode: str = "lexical") -> dict[str, object]:
    """A linear model whose score is ``weight * log1p(lines)`` of the file."""
    return {mode: {"kind": "linear", "features": ["lines"], "mean": [0.0], "scale": [1.0],
                   "weights": [weight], "bias": 0.0}}  # fmt: skip


def _use(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, models: dict[str, object]) -> None:
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps({"format": learned.FORMAT, "models": models}))
    learned.forget()
    monkeypatch.setattr(learned, "MODEL_FILE", path)


def _shown(lines: int) -> float:
    return 1.0 / (1.0 + math.exp(-math.log1p(lines)))


@pytest.fixture
def store(git_repo: GitRepoFactory):  # type: ignore[no-untyped-def]
    store, _ = load_or_build(git_repo(REPO), Settings.load(embed="none"))
    return store


def test_every_file_in_the_pool_shows_the_squashed_model_score(
    store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    _use(monkeypatch, tmp_path, _lines_model(tmp_path))
    files = rank_files(store, QUESTION, analyze(QUESTION)).files
    assert len(files) == 3  # every file with evidence is in the pool: nothing below it
    for path, score in files:
        assert score == pytest.approx(_shown(LINES[path]), rel=1e-5), path


def test_the_pool_sits_just_above_the_best_file_left_out(
    store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("codeagent.rank.ranking.USE_MODEL", False)
    first = rank_files(store, QUESTION, analyze(QUESTION)).files  # the first ranker's scores
    monkeypatch.setattr("codeagent.rank.ranking.USE_MODEL", True)
    monkeypatch.setattr(features, "POOL", 2)
    _use(monkeypatch, tmp_path, _lines_model(tmp_path))
    files = rank_files(store, QUESTION, analyze(QUESTION)).files
    pool, rest = first[:2], first[2:]
    floor = rest[0][1] + 1.0
    shown = dict(files)
    assert [p for p, _ in files[:2]] == sorted((p for p, _ in pool), key=lambda p: -LINES[p])
    for path, _ in pool:
        assert shown[path] == pytest.approx(floor + _shown(LINES[path]), rel=1e-5), path
    assert files[2:] == rest  # the rest keep the first ranker's scores and order


def test_a_dense_index_gets_the_dense_model(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Longest first under the dense model, shortest first under the lexical one."""
    store, _ = load_or_build(git_repo(REPO), Settings.load(embed="hash:32"))
    models = {**_lines_model(tmp_path, 1.0, "dense"), **_lines_model(tmp_path, -1.0, "lexical")}
    _use(monkeypatch, tmp_path, models)
    files = [p for p, _ in rank_files(store, QUESTION, analyze(QUESTION)).files]
    assert files[:2] == ["pkg/long.py", "pkg/middle.py"]
