"""The slopes of bench_growth.py: how each measure grows with the number of chunks.

For a measure with values ``v`` at chunk counts ``c`` over the repositories, the slope is the
exponent ``b`` of the least-squares fit ``log v = a + b log c`` (1: linear, 0: constant), and
the increment is ``(v2 - v1) / (c2 - c1) * 10,000`` between the two largest repositories.
"""

from __future__ import annotations

import math
from typing import Any

LABELS = {
    "first_answer_s": "first answer s",
    "cold_s": "cold s (wall)",
    "cold_cpu_s": "cold CPU s",
    "edit_s": "edit s",
    "reopen_s": "re-open s (wall)",
    "reopen_total_s": "re-open seconds.total",
    "peak_rss_mib": "peak RSS MiB (max)",
    "cold_rss_mib": "cold peak RSS MiB",
    "disk_mib": "disk MiB (entry)",
    "states_mib": "disk MiB (all states)",
    "embeddings_mib": "embedding cache MiB",
}


def slope(points: list[tuple[float, float]]) -> float | None:
    """``b`` of ``log y = a + b log x`` over the points with both positive; None when fewer
    than two distinct x remain."""
    logs = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len({x for x, _ in logs}) < 2:
        return None
    mx = sum(x for x, _ in logs) / len(logs)
    my = sum(y for _, y in logs) / len(logs)
    sxx = sum((x - mx) ** 2 for x, _ in logs)
    return sum((x - mx) * (y - my) for x, y in logs) / sxx


def per_10k(points: list[tuple[float, float]]) -> float | None:
    """The increment per 10,000 chunks between the two largest chunk counts."""
    ordered = sorted(points)
    if len(ordered) < 2 or ordered[-1][0] == ordered[-2][0]:
        return None
    (x1, y1), (x2, y2) = ordered[-2:]
    return (y2 - y1) / (x2 - x1) * 10_000


def slopes_table(results: list[dict[str, Any]]) -> str:
    """Markdown: measure, slope, increment per 10k chunks."""
    lines = ["| measure | slope b (log-log) | per 10k chunks (two largest) |", "|---|---:|---:|"]
    for key, label in LABELS.items():
        points = [(float(r["chunks"]), float(r["measures"][key])) for r in results]
        b, step = slope(points), per_10k(points)
        shown_b = "-" if b is None else f"{b:.2f}".replace("-0.00", "0.00")
        shown_step = "-" if step is None else f"{step:+.3g}"
        lines.append(f"| {label} | {shown_b} | {shown_step} |")
    return "\n".join(lines)
