"""The learned file ranker: a small versioned data file, evaluated with numpy.

``ranker.json`` (next to this module, shipped in the wheel) holds one model per search mode:
``dense`` for an index with a dense side, ``lexical`` for BM25 only. Each is fitted at
development time (``eval/fit_ranker.py``: grouped cross-validation by repository over question
-> files examples mined from the git history of many repositories, plus the public suites) on
the columns of :data:`codeagent.rank.features.NAMES`, and is one of:

- ``linear``: ``score = ((x - mean) / scale) @ weights + bias``;
- ``trees``: a sum of regression trees, each as flat arrays (``feature``, ``threshold``,
  ``left``, ``right``, ``value``; a leaf has ``left == -1``), a row going left when
  ``x[feature] <= threshold``.

A model may also name ``blend_stage1``: its scores and the first ranker's (the ``stage1``
column), each standardised over the question's pool, are added with that weight on the
first ranker's (the dense model: the data with dense vectors was too small to drop the hand
weights whose dense side was tuned on more).

No training library is needed at run time. A file that is missing, of another format, or that
names a column the features do not have is logged once and the first ranker's order is kept.
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

    def score(self, matrix: np.ndarray) -> np.ndarray:
        out = self._score(matrix)
        blend = self.params.get("blend_stage1")
        if blend:
            from codeagent.rank.features import NAMES

            out = _standardised(out) + blend * _standardised(matrix[:, NAMES.index("stage1")])
        return out

    def _score(self, matrix: np.ndarray) -> np.ndarray:
        import numpy as np

        x = matrix[:, self.columns].astype(np.float64)
        if self.kind == "linear":
            z = (x - self.params["mean"]) / self.params["scale"]
            return np.asarray(z @ self.params["weights"] + self.params["bias"])
        out = np.full(len(x), float(self.params.get("base", 0.0)))
        rows = np.arange(len(x))
        for feature, threshold, left, right, value, depth in self.params["trees"]:
            node = np.zeros(len(x), dtype=np.int64)
            for _ in range(depth):
                inner = left[node] >= 0
                if not inner.any():
                    break
                go_left = x[rows, feature[node]] <= threshold[node]
                node = np.where(inner, np.where(go_left, left[node], right[node]), node)
            out += value[node]
        return out


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
        params = {"trees": trees, "base": float(spec.get("base", 0.0))}
    else:
        raise ValueError(f"unknown model kind {kind!r}")
    if spec.get("blend_stage1"):
        params["blend_stage1"] = float(spec["blend_stage1"])
    return Model(kind, columns, params)


@functools.cache
def load(path: Path = MODEL_FILE) -> dict[str, Model]:
    """The models of ``path`` by mode (``dense``, ``lexical``); {} when unusable (logged)."""
    from codeagent.rank.features import NAMES

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT}")
        return {mode: _parse(spec, NAMES) for mode, spec in data["models"].items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        log.warning(
            "learned ranker %s not used (%s): files keep the first ranker's order", path, exc
        )
        return {}


def model_for(has_dense: bool) -> Model | None:
    """The model for an index with (or without) a dense side, if one is shipped."""
    models = load(MODEL_FILE)
    return models.get("dense" if has_dense else "lexical")
