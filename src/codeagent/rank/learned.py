"""The learned file ranker: a small versioned data file, evaluated with numpy.

``ranker.json`` (next to this module, shipped in the wheel) holds one model per search mode:
``dense`` for an index with a dense side, ``lexical`` for BM25 only; a mode may also have a
model for bug reports of its own (``dense-reports``, ``lexical-reports``: fitted on
issue-shaped items by ``eval/fit_dense_reports.py``), which a report gets in that mode instead.
The file ships ``dense-reports``: trees fitted on 593 issue-shaped reports of fifteen
repositories the embedder never saw, with the best chunk's cosine added (``blend_reports``
0.5), kept by its sealed run (docs/eval.md, thirty-fifth round); no ``lexical-reports``.
Each is fitted at development time (``eval/fit_ranker.py``: grouped cross-validation by
repository over question -> files examples mined from the git history of many repositories,
plus the public suites) on the columns of :data:`codeagent.rank.features.NAMES`, and is one of:

- ``linear``: ``score = ((x - mean) / scale) @ weights + bias``;
- ``trees``: a sum of regression trees, each as flat arrays (``feature``, ``threshold``,
  ``left``, ``right``, ``value``; a leaf has ``left == -1``), a row going left when
  ``x[feature] <= threshold``.

A model may also name ``blend_stage1``: its scores and the first ranker's (the ``stage1``
column), each standardised over the question's pool, are added with that weight on the
first ranker's (the dense model: the data with dense vectors was too small to drop the hand
weights whose dense side was tuned on more). And ``blend_reports``, columns with a weight
each (``{"dense_cos": 1.25}``): for a bug report (``analyze(...).reports``: a long question,
or one that pastes code or a traceback) those columns, standardised the same way, are added
too. The dense model adds the best chunk's cosine: its trees were fitted on 96 rows with
vectors, before the tuned embedder shipped, and under-use it on bug reports, where the
embedder alone ranks files as well as the whole product; a how-question, which the trees
rank far better than the cosine does, is left as it was (docs/eval.md, tenth round).

No training library is needed at run time, and a process parses only the models its questions
use. A file that is missing or of another format is logged once and the first ranker's order is
kept; so is a model that names a column the features do not have (a bug report then gets its
mode's model).
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

FORMAT = 1
MODEL_FILE = Path(__file__).with_name("ranker.json")


@dataclass(frozen=True)
class Model:
    """One fitted model over ``columns`` (indexes into the feature matrix)."""

    kind: str
    columns: np.ndarray
    params: dict[str, Any]

    def score(self, matrix: np.ndarray, report: bool = False) -> np.ndarray:
        """The model's score of each row; for a bug ``report``, with ``blend_reports`` too."""
        out = self._score(matrix)
        blend = self.params.get("blend", ())
        if report:
            blend = (*blend, *self.params.get("blend_reports", ()))
        if blend:
            out = _standardised(out)
            for column, weight in blend:  # the first ranker's first: a fixed order of the sum
                out = out + weight * _standardised(matrix[:, column])
        return out

    def _score(self, matrix: np.ndarray) -> np.ndarray:
        import numpy as np

        x = matrix[:, self.columns].astype(np.float64)
        if self.kind == "linear":
            z = (x - self.params["mean"]) / self.params["scale"]
            return np.asarray(z @ self.params["weights"] + self.params["bias"])
        feature, threshold, left, right, value, roots, depths = self.params["forest"]
        walk = self.params.get("walk")
        if walk is not None:  # every leaf its own child: one gather a step (see _walk)
            return _walked(x, walk, value, len(roots), float(self.params.get("base", 0.0)))
        # every tree at once: node[t, r] is where row r stands in tree t (the trees' nodes are
        # numbered one after another, so one array each holds them all); a tree stops after
        # its own depth, as it did walked alone
        node = np.repeat(roots[:, None], len(x), axis=1)
        rows = np.arange(len(x))
        for step in range(int(depths.max(initial=0))):
            inner = (left[node] >= 0) & (depths > step)[:, None]
            if not inner.any():
                break
            go_left = x[rows, feature[node]] <= threshold[node]
            node = np.where(inner, np.where(go_left, left[node], right[node]), node)
        out = np.full(len(x), float(self.params.get("base", 0.0)))
        for leaves in value[node]:  # tree by tree: the order the sum was always taken in
            out += leaves
        return out


def _walked(
    x: np.ndarray, walk: tuple[np.ndarray, ...], value: np.ndarray, trees: int, base: float
) -> np.ndarray:
    """The forest's scores of the rows ``x``, every tree at once, as :meth:`Model._score`
    walks them: each leaf is its own left and right child, so ``steps`` (the deepest tree's
    depth, no tree deeper than it says) moves every row to its leaf, where it stays; a row goes
    right unless ``x <= threshold`` (NaN goes right, as before)."""
    import numpy as np

    feature, threshold, kids, roots, steps = walk
    n = len(x)
    column_major = np.ascontiguousarray(x.T).ravel()  # row r, column c at c * n + r
    node = np.repeat(roots, n)  # tree by tree, row by row
    rows = np.tile(np.arange(n, dtype=np.int64), trees)
    for _ in range(int(steps)):
        right = ~(column_major.take(feature.take(node) * n + rows) <= threshold.take(node))
        node = kids.take(2 * node + right)
    out = np.full(n, base)
    for leaves in value.take(node).reshape(trees, n):  # tree by tree, the same sum order
        out += leaves
    return out


def _walk(forest: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...] | None:
    """:func:`_walked`'s arrays of a forest (leaves their own children, a leaf's feature 0;
    each node's children side by side in ``kids``, left then right), or None when a tree goes
    deeper than its stated depth (a walk stopped by it then ends on an inner node)."""
    import numpy as np

    feature, threshold, left, right, _value, roots, depths = forest
    leaf = left < 0
    nodes = np.arange(len(left), dtype=np.int64)
    kids = np.stack([np.where(leaf, nodes, left), np.where(leaf, nodes, right)], axis=1)
    level = np.full(len(left), -1, dtype=np.int64)  # each node's depth in its tree
    level[roots] = 0
    stack = [int(r) for r in roots]
    while stack:
        at = stack.pop()
        if not leaf[at]:
            for child in (int(left[at]), int(right[at])):
                level[child] = level[at] + 1
                stack.append(child)
    tree_of = np.searchsorted(roots, nodes, side="right") - 1
    if len(left) and (np.any(level < 0) or np.any(level > depths[tree_of])):
        return None
    steps = int(depths.max(initial=0))
    return np.where(leaf, 0, feature), threshold, kids.ravel(), roots, np.asarray(steps)


def _standardised(values: np.ndarray) -> np.ndarray:
    import numpy as np

    values = values.astype(np.float64)
    return np.asarray((values - values.mean()) / (values.std() + 1e-9))


def _parse(spec: dict[str, Any], names: tuple[str, ...]) -> Model:
    import numpy as np

    columns = np.array([names.index(name) for name in spec["features"]], dtype=np.int64)
    kind = spec["kind"]
    if kind == "linear":
        params = {
            "mean": np.asarray(spec["mean"], dtype=np.float64),
            "scale": np.asarray(spec["scale"], dtype=np.float64),
            "weights": np.asarray(spec["weights"], dtype=np.float64),
            "bias": float(spec["bias"]),
        }
    elif kind == "trees":
        trees = []
        for tree in spec["trees"]:
            arrays = [
                np.asarray(tree[key], dtype=dtype)
                for key, dtype in (
                    ("feature", np.int64), ("threshold", np.float64), ("left", np.int64),
                    ("right", np.int64), ("value", np.float64),
                )
            ]  # fmt: skip
            trees.append((*arrays, int(tree["depth"])))
        forest = _forest(trees)
        params = {"forest": forest, "walk": _walk(forest), "base": float(spec.get("base", 0.0))}
    else:
        raise ValueError(f"unknown model kind {kind!r}")
    if spec.get("blend_stage1"):
        params["blend"] = ((names.index("stage1"), float(spec["blend_stage1"])),)
    reports = spec.get("blend_reports") or {}
    if not isinstance(reports, dict):
        raise ValueError(f"blend_reports {reports!r}: expected columns with a weight each")
    if reports:
        params["blend_reports"] = tuple(
            (names.index(name), float(weight)) for name, weight in reports.items()
        )
    return Model(kind, columns, params)


def _forest(trees: list[tuple[Any, ...]]) -> tuple[np.ndarray, ...]:
    """The trees as one: their node arrays end to end (children renumbered, a leaf still
    ``-1``), each tree's root and its depth."""
    import numpy as np

    offsets = np.cumsum([0] + [len(t[2]) for t in trees])[:-1].astype(np.int64)

    def joined(at: int, shift: bool) -> np.ndarray:
        parts = [
            np.where(t[at] >= 0, t[at] + offset, -1) if shift else t[at]
            for t, offset in zip(trees, offsets, strict=True)
        ]
        return np.concatenate(parts) if parts else np.zeros(0)

    feature = joined(0, False).astype(np.int64)
    threshold, value = joined(1, False).astype(np.float64), joined(4, False).astype(np.float64)
    left, right = joined(2, True).astype(np.int64), joined(3, True).astype(np.int64)
    depths = np.array([t[5] for t in trees], dtype=np.int64)
    return feature, threshold, left, right, value, offsets, depths


@functools.cache
def _specs(path: Path) -> dict[str, Any]:
    """The models of ``path`` by mode as the file writes them, not parsed; {} when the file
    is unusable (logged)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"format {found!r}, expected {FORMAT}")
        models = data["models"]
        if not isinstance(models, dict):
            raise TypeError(f"models: expected one per mode, got {type(models).__name__}")
        return models
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning(
            "learned ranker %s not used (%s): files keep the first ranker's order", path, exc
        )
        return {}


def load(path: Path = MODEL_FILE) -> dict[str, Model]:
    """Every model of ``path`` by mode (``dense``, ``lexical``, ...); {} when the file or any
    of its models is unusable (logged). For the tools that fit and judge models; a question
    reads only the model it needs (:func:`model_for`)."""
    models: dict[str, Model] = {}
    for mode in _specs(path):
        model = _model(path, mode)
        if model is None:
            return {}
        models[mode] = model
    return models


@functools.cache
def _model(path: Path, mode: str) -> Model | None:
    """The model of ``mode`` in ``path``, parsed the first time it is asked for; None when
    the file has none or it is unusable (logged)."""
    from codeagent.rank.features import NAMES

    specs = _specs(path)
    if mode not in specs:
        return None
    try:
        return _parse(specs[mode], NAMES)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        log.warning("learned ranker %s: model %r not used (%s)", path, mode, exc)
        return None


def forget() -> None:
    """Read the model files again at the next use (after one was written or replaced)."""
    _specs.cache_clear()
    _model.cache_clear()


def model_for(has_dense: bool, report: bool = False) -> Model | None:
    """The model for an index with (or without) a dense side, if one is shipped; a bug
    ``report`` gets the mode's ``-reports`` model (``dense-reports``) where the file has a
    usable one. Only the model asked for is parsed: a process that ranks without vectors
    never parses the dense ones."""
    mode = "dense" if has_dense else "lexical"
    if report:
        model = _model(MODEL_FILE, f"{mode}-reports")
        if model is not None:
            return model
    return _model(MODEL_FILE, mode)
