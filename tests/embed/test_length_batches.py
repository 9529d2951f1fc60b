"""How the ONNX encoder groups texts: every text once, longest first, each batch within its
padded-token budget and row cap (a text over the budget alone)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

from codeagent.embed.onnx_encoder import length_batches


def test_hand_checked_grouping() -> None:
    # lengths by index: 0:256, 1:10, 2:128, 3:120, 4:300 (over the budget), 5:64
    lengths = [256, 10, 128, 120, 300, 64]
    batches = length_batches(lengths, max_rows=3, max_tokens=512)
    # 300 alone (over budget); 256 + 128 would pad to 2 x 256 = 512: allowed; adding 120
    # would be 3 x 256 = 768; 120 + 64 + 10 pads to 3 x 120 = 360.
    assert batches == [[4], [0, 2], [3, 5, 1]]


@pytest.mark.parametrize("seed", range(5))
def test_budget_and_cover(seed: int) -> None:
    rng = random.Random(seed)
    lengths = [rng.randint(1, 256) for _ in range(500)]
    batches = length_batches(lengths, max_rows=64, max_tokens=2048)
    flat = [i for batch in batches for i in batch]
    assert sorted(flat) == list(range(500))
    assert [lengths[i] for i in flat] == sorted(lengths, reverse=True)
    for batch in batches:
        assert len(batch) <= 64
        assert len(batch) == 1 or len(batch) * lengths[batch[0]] <= 2048
