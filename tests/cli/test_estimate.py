"""The time a first index is said to take, corrected from the rate measured while it runs
(a busy machine embeds slower than the rate recorded when it was idle). The clock is the
test's: each step of it is a batch embedded."""

from __future__ import annotations

from codeagent.cli.common import Progress


def embed(expect: float, seconds_per_batch: float, batches: int = 50) -> list[str]:
    """The lines said while 1,000 chunks are embedded in ``batches`` equal batches."""
    now = [0.0]
    lines: list[str] = []
    progress = Progress(enabled=False, interval=30, clock=lambda: now[0], echo=lines.append)
    with progress.task("embedding", total=1000, expect=expect) as advance:
        for _ in range(batches):
            now[0] += seconds_per_batch
            advance(1000 // batches)
    return lines


def test_a_build_slower_than_estimated_says_so_once_with_the_time_left() -> None:
    # Estimated at 2 min; each batch of 20 chunks takes 8 s: 400 s in all, 2.5 chunks/s.
    lines = embed(expect=120.0, seconds_per_batch=8.0)
    assert lines[0].startswith("indexing: embedding 1,000 chunks, roughly 2 min")
    corrected = [line for line in lines if "slower than estimated" in line]
    assert len(corrected) == 1, lines
    # said once 10 s and a twentieth of the chunks are measured (at 32 s): 920 chunks left
    assert corrected[0] == "embedding: slower than estimated: about 6 min left at 2.5/s"
    assert lines[-1] == "embedding: 1,000/1,000 chunks in 7 min"


def test_a_build_as_fast_as_estimated_is_not_corrected() -> None:
    lines = embed(expect=400.0, seconds_per_batch=8.0)  # the estimate was right
    assert not [line for line in lines if "slower" in line], lines
    lines = embed(expect=120.0, seconds_per_batch=2.0)  # 100 s: faster than said, no word
    assert not [line for line in lines if "slower" in line], lines


def test_no_estimate_nothing_to_correct() -> None:
    now = [0.0]
    lines: list[str] = []
    progress = Progress(enabled=False, interval=30, clock=lambda: now[0], echo=lines.append)
    with progress.task("embedding", total=1000) as advance:
        for _ in range(50):
            now[0] += 8.0
            advance(20)
    assert not [line for line in lines if "slower" in line], lines
