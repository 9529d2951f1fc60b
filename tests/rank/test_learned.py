"""The learned ranker's data file, evaluated with numpy: linear and tree models by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank import learned
from codeagent.rank.features import NAMES
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from conftest import GitRepoFactory


def write(tmp_path: Path, models: dict[str, object], fmt: int = learned.FORMAT) -> Path:
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps({"format": fmt, "models": models}))
    learned.forget()
    return path


def matrix(**columns: list[float]) -> np.ndarray:
    rows = len(next(iter(columns.values())))
    out = np.zeros((rows, len(NAMES)), dtype=np.float32)
    for name, values in columns.items():
        out[:, NAMES.index(name)] = values
    return out


def test_a_linear_model_standardises_then_weighs(tmp_path: Path) -> None:
    spec = {"kind": "linear", "features": ["defines", "bm25_best"], "mean": [1.0, 0.5],
            "scale": [2.0, 0.25], "weights": [3.0, -1.0], "bias": 0.5}  # fmt: skip
    model = learned.load(write(tmp_path, {"lexical": spec}))["lexical"]
    got = model.score(matrix(defines=[1.0, 3.0], bm25_best=[0.5, 1.0]))
    # row 0: 3*0 - 1*0 + 0.5; row 1: 3*(2/2) - 1*(0.5/0.25) + 0.5
    assert got.tolist() == pytest.approx([0.5, 1.5])


def test_trees_go_left_at_or_below_the_threshold_and_add_up(tmp_path: Path) -> None:
    # tree 1: defines <= 0.5 ? (bm25_best <= 0.25 ? -1 : 2) : 5 ; tree 2: a single leaf 0.25
    tree1 = {"feature": [0, 1, 0, 0, 0], "threshold": [0.5, 0.25, 0, 0, 0],
             "left": [1, 3, -1, -1, -1], "right": [2, 4, -1, -1, -1],
             "value": [0, 0, 5.0, -1.0, 2.0], "depth": 2}  # fmt: skip
    tree2 = {"feature": [0], "threshold": [0], "left": [-1], "right": [-1], "value": [0.25],
             "depth": 0}  # fmt: skip
    spec = {"kind": "trees", "features": ["defines", "bm25_best"], "trees": [tree1, tree2]}
    model = learned.load(write(tmp_path, {"dense": spec}))["dense"]
    got = model.score(matrix(defines=[0.0, 0.5, 0.6, 0.0], bm25_best=[0.25, 0.9, 0.0, 0.125]))
    assert got.tolist() == pytest.approx([-0.75, 2.25, 5.25, -0.75])


@pytest.mark.parametrize(
    "models",
    [
        {
            "lexical": {
                "kind": "linear",
                "features": ["no_such_column"],
                "mean": [0],
                "scale": [1],
                "weights": [1],
                "bias": 0,
            }
        },
        {"lexical": {"kind": "forest"}},
    ],
)
def test_an_unusable_file_is_no_model(tmp_path: Path, models: dict[str, object]) -> None:
    assert learned.load(write(tmp_path, models)) == {}
    assert learned.load(write(tmp_path, {}, fmt=learned.FORMAT + 1)) == {}
    assert learned.load(tmp_path / "missing.json") == {}


def test_the_shipped_model_is_small_and_reads_known_columns() -> None:
    learned.forget()
    assert learned.MODEL_FILE.stat().st_size <= 1_000_000
    data = json.loads(learned.MODEL_FILE.read_text())
    assert set(data["models"]) == {"lexical", "dense", "dense-reports"}
    models = learned.load()
    assert set(models) == {"lexical", "dense", "dense-reports"}
    for spec in data["models"].values():
        assert set(spec["features"]) <= set(NAMES)


REPO = {
    "pkg/short.py": "def parse_header(line):\n    return line\n",
    "pkg/long.py": "def header_table(rows):\n"
    + "    rows = rows  # header\n" * 30
    + "    return rows\n",
    "pkg/middle.py": "def read(header):\n" + "    header = header\n" * 10 + "    return header\n",
    "pkg/other.py": "def unrelated(x):\n    return x\n",
}


def test_the_model_orders_the_pool(
    git_repo: GitRepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model that only counts a file's lines ranks the files with evidence longest first;
    a file without evidence stays out; switched off, the first ranker's order comes back."""
    store, _ = load_or_build(git_repo(REPO), Settings.load(embed="none"))
    spec = {"kind": "linear", "features": ["lines"], "mean": [0.0], "scale": [1.0],
            "weights": [1.0], "bias": 0.0}  # fmt: skip
    monkeypatch.setattr(learned, "MODEL_FILE", write(tmp_path, {"lexical": spec}))
    question = "how is the header parsed?"
    files = rank_files(store, question, analyze(question)).files
    lines = {path: text.count("\n") for path, text in REPO.items()}
    assert [p for p, _ in files] == sorted(
        ["pkg/short.py", "pkg/long.py", "pkg/middle.py"], key=lambda p: -lines[p]
    )
    scores = [score for _, score in files]
    assert scores == sorted(scores, reverse=True)
    monkeypatch.setattr("codeagent.rank.ranking.USE_MODEL", False)
    first = [p for p, _ in rank_files(store, question, analyze(question)).files]
    assert first[0] == "pkg/short.py"  # defines parse_header, the first ranker's best


def test_a_blend_adds_the_standardised_first_ranker(tmp_path: Path) -> None:
    spec = {"kind": "linear", "features": ["defines"], "mean": [0.0], "scale": [1.0],
            "weights": [1.0], "bias": 0.0, "blend_stage1": 1.0}  # fmt: skip
    model = learned.load(write(tmp_path, {"dense": spec}))["dense"]
    got = model.score(matrix(defines=[3.0, 0.0, 0.0], stage1=[1.0, 2.0, 3.0]))
    # z([3, 0, 0]) = [2, -1, -1] / sqrt(2); z([1, 2, 3]) = [-1, 0, 1] / sqrt(2/3)
    root2, root23 = 2**0.5, (2 / 3) ** 0.5
    assert got.tolist() == pytest.approx(
        [2 / root2 - 1 / root23, -1 / root2, -1 / root2 + 1 / root23]
    )


def test_a_forest_adds_its_base_and_stops_at_shallow_leaves(tmp_path: Path) -> None:
    """A sum of trees starts from ``base``; a tree whose rows all reach a shallow leaf before
    its stated depth is done with them (scores by hand)."""
    # defines <= 0.5 ? 1.0 : (bm25_best <= 0.25 ? 2.0 : 3.0), stated depth 2
    lopsided = {"feature": [0, -1, 1, 0, 0], "threshold": [0.5, 0, 0.25, 0, 0],
                "left": [1, -1, 3, -1, -1], "right": [2, -1, 4, -1, -1],
                "value": [0, 1.0, 0, 2.0, 3.0], "depth": 2}  # fmt: skip
    spec = {"kind": "trees", "features": ["defines", "bm25_best"], "trees": [lopsided],
            "base": 2.5}  # fmt: skip
    model = learned.load(write(tmp_path, {"dense": spec}))["dense"]
    assert model.score(matrix(defines=[0.0, 0.25], bm25_best=[0.0, 1.0])).tolist() == [3.5, 3.5]
    got = model.score(matrix(defines=[0.0, 1.0, 1.0], bm25_best=[0.0, 0.0, 1.0]))
    assert got.tolist() == [3.5, 4.5, 5.5]


@pytest.mark.parametrize("field", ["mean", "scale", "weights"])
def test_a_linear_model_with_a_value_that_is_no_number_is_no_model(
    tmp_path: Path, field: str
) -> None:
    spec = {"kind": "linear", "features": ["defines"], "mean": [0.0], "scale": [1.0],
            "weights": [1.0], "bias": 0.0}  # fmt: skip
    spec[field] = ["a"]
    assert learned.load(write(tmp_path, {"lexical": spec})) == {}


@pytest.mark.parametrize("field", ["feature", "threshold", "left", "right", "value"])
def test_a_tree_with_a_value_that_is_no_number_is_no_model(tmp_path: Path, field: str) -> None:
    tree: dict[str, object] = {"feature": [0], "threshold": [0.0], "left": [-1],
                               "right": [-1], "value": [1.0], "depth": 0}  # fmt: skip
    tree[field] = ["a"]
    spec = {"kind": "trees", "features": ["defines"], "trees": [tree]}
    assert learned.load(write(tmp_path, {"dense": spec})) == {}


def test_an_unknown_kind_is_named_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("WARNING", logger="codeagent.rank.learned"):
        assert learned.load(write(tmp_path, {"lexical": {"kind": "forest", "features": []}})) == {}
    assert "unknown model kind 'forest'" in caplog.text


def test_each_search_mode_gets_its_own_shipped_model() -> None:
    """Truth: the shipped file read as JSON names a model per mode, each with its own
    columns."""
    learned.forget()
    shipped = json.loads(learned.MODEL_FILE.read_text(encoding="utf-8"))["models"]
    for has_dense, mode in [(True, "dense"), (False, "lexical")]:
        model = learned.model_for(has_dense)
        assert model is not None
        assert [NAMES[i] for i in model.columns] == shipped[mode]["features"]
        assert model.kind == shipped[mode]["kind"]
        assert _same_trees(model.params["forest"], shipped[mode]["trees"])
    assert shipped["dense"]["trees"][0]["value"] != shipped["lexical"]["trees"][0]["value"]


def _same_trees(forest: tuple[np.ndarray, ...], raw: list[dict[str, list[float]]]) -> bool:
    """The forest's leaf values, tree by tree (from each root to the next), equal the file's."""
    values, roots = forest[4], [*forest[5].tolist(), len(forest[4])]
    return len(roots) - 1 == len(raw) and all(
        values[roots[i] : roots[i + 1]].tolist() == list(map(float, tree["value"]))
        for i, tree in enumerate(raw)
    )
