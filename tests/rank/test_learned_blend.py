"""The learned ranker's blend with the first ranker when a column is constant over the pool.

The z-score of a constant is 0 (every value equals the mean): a pool whose first-ranker
scores are all equal (one file, or ties) must leave the model's own order, not turn every
score into NaN (0 / 0), which would sort the files arbitrarily.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from codeagent.rank import learned
from rank.test_learned import matrix, write

SPEC = {"kind": "linear", "features": ["defines"], "mean": [0.0], "scale": [1.0],
        "weights": [1.0], "bias": 0.0, "blend_stage1": 0.5}  # fmt: skip


def test_a_constant_first_ranker_column_adds_nothing(tmp_path: Path) -> None:
    model = learned.load(write(tmp_path, {"dense": SPEC}))["dense"]
    got = model.score(matrix(defines=[3.0, 0.0, 0.0], stage1=[0.7, 0.7, 0.7]))
    assert all(math.isfinite(v) for v in got)
    # z([3, 0, 0]) = [2, -1, -1] / sqrt(2), plus 0.5 * z([0.7, 0.7, 0.7]) = 0
    assert got.tolist() == pytest.approx([2 / 2**0.5, -1 / 2**0.5, -1 / 2**0.5])


def test_a_constant_model_score_keeps_the_first_rankers_order(tmp_path: Path) -> None:
    model = learned.load(write(tmp_path, {"dense": SPEC}))["dense"]
    got = model.score(matrix(defines=[1.0, 1.0, 1.0], stage1=[1.0, 2.0, 3.0]))
    assert np.isfinite(got).all()
    assert got.tolist() == pytest.approx([-0.5 / (2 / 3) ** 0.5, 0.0, 0.5 / (2 / 3) ** 0.5])


def test_a_pool_of_one_file_scores_zero(tmp_path: Path) -> None:
    model = learned.load(write(tmp_path, {"dense": SPEC}))["dense"]
    assert model.score(matrix(defines=[4.0], stage1=[9.0])).tolist() == [0.0]


def test_a_nearly_constant_first_ranker_column_keeps_its_order(tmp_path: Path) -> None:
    """A first-ranker column that differs by a hair (1e-9) over the pool: its z-score still
    rises with it (a z-score is increasing in the value), whatever guards the division."""
    model = learned.load(write(tmp_path, {"dense": SPEC}))["dense"]
    got = model.score(matrix(defines=[1.0, 1.0], stage1=[0.0, 1e-9]))
    assert np.isfinite(got).all()
    assert got[0] < got[1]
