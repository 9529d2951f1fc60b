"""The shipped tree models, walked all trees at once, give the scores of a plain walk of each
tree on its own, one row at a time, bit for bit (the walk written here from the JSON)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from codeagent.rank import learned
from codeagent.rank.features import NAMES


def walked(spec: dict, matrix: np.ndarray) -> np.ndarray:
    """Each row down each tree of ``spec`` as the format says, summed tree by tree."""
    x = matrix[:, [NAMES.index(name) for name in spec["features"]]].astype(np.float64)
    out = np.full(len(x), float(spec.get("base", 0.0)))
    for tree in spec["trees"]:
        leaves = np.empty(len(x))
        for r, row in enumerate(x):
            node = 0
            for _ in range(int(tree["depth"])):
                if tree["left"][node] < 0:
                    break
                go_left = row[tree["feature"][node]] <= np.float64(tree["threshold"][node])
                node = tree["left"][node] if go_left else tree["right"][node]
            leaves[r] = tree["value"][node]
        out += leaves
    return out


@pytest.mark.parametrize("mode", ["lexical", "dense"])
def test_all_trees_at_once_score_as_each_alone(mode: str) -> None:
    spec = json.loads(learned.MODEL_FILE.read_text(encoding="utf-8"))["models"][mode]
    if spec["kind"] != "trees":
        pytest.skip(f"the {mode} model is {spec['kind']}")
    rng = np.random.default_rng(7)
    matrix = rng.random((300, len(NAMES)), dtype=np.float32) * 3
    matrix[::4] = 0.0  # rows on the thresholds' low side too
    matrix[1::7] = np.round(matrix[1::7])
    model = learned.load(learned.MODEL_FILE)[mode]
    assert np.array_equal(model._score(matrix), walked(spec, matrix))


def test_a_tree_deeper_than_it_says_stops_at_its_depth_as_walked_alone() -> None:
    """A tree stated one level short: the walk ends on an inner node and scores its value;
    the one-gather walk (leaves their own children) is not used for it."""
    tree = {
        "feature": [0, 1, -2, -2, -2],
        "threshold": [0.5, 0.5, 0.0, 0.0, 0.0],
        "left": [1, 2, -1, -1, -1],
        "right": [4, 3, -1, -1, -1],
        "value": [0.0, 7.0, 1.0, 2.0, 3.0],
    }
    names = [NAMES[0], NAMES[1]]
    matrix = np.zeros((4, len(NAMES)), dtype=np.float32)
    matrix[:, :2] = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [np.nan, 0.0]]
    for depth, walk_used in ((1, False), (2, True)):
        spec = {"kind": "trees", "features": names, "base": 0.5, "trees": [tree | {"depth": depth}]}
        model = learned._parse(spec, NAMES)
        assert (model.params["walk"] is not None) is walk_used
        assert np.array_equal(model._score(matrix), walked(spec, matrix))
