"""Scoring functions: pure, no I/O, each tested with hand-computed values.

File metrics compare a ranked list of file paths (best first, no duplicates) with a set of
expected paths; set metrics compare the names an AST answer gave with the exact expected set.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from codeagent.pathtext import path_pattern

K_VALUES = (1, 3, 5, 10)

# A ``.py`` path as a reference answer writes it: `src/flask/app.py`, flask/app.py:120, app.py.
_PY_PATH = re.compile(path_pattern("py"))


def dedupe(paths: Iterable[str]) -> list[str]:
    """Paths in first-seen order, each once."""
    return list(dict.fromkeys(paths))


def hit_at_k(ranked: Sequence[str], expected: Iterable[str], k: int) -> float:
    """1.0 when any expected file is among the top ``k``, else 0.0."""
    wanted = set(expected)
    return 1.0 if any(path in wanted for path in ranked[:k]) else 0.0


def recall_at_k(ranked: Sequence[str], expected: Iterable[str], k: int) -> float:
    """The share of expected files among the top ``k`` (0.0 when nothing is expected)."""
    wanted = set(expected)
    if not wanted:
        return 0.0
    return len(wanted.intersection(ranked[:k])) / len(wanted)


def reciprocal_rank(ranked: Sequence[str], expected: Iterable[str]) -> float:
    """1 / rank of the first expected file in ``ranked``; 0.0 when none is there."""
    wanted = set(expected)
    for rank, path in enumerate(ranked, start=1):
        if path in wanted:
            return 1.0 / rank
    return 0.0


def set_scores(predicted: Iterable[str], expected: Iterable[str]) -> dict[str, float]:
    """Precision, recall and exact match of a predicted name set against the exact set.

    An empty prediction has precision 1.0 only when nothing was expected.
    """
    got, wanted = set(predicted), set(expected)
    common = len(got & wanted)
    precision = common / len(got) if got else (1.0 if not wanted else 0.0)
    recall = common / len(wanted) if wanted else (1.0 if not got else 0.0)
    return {"precision": precision, "recall": recall, "exact": 1.0 if got == wanted else 0.0}


def extract_py_paths(text: str) -> list[str]:
    """The ``.py`` file names a text mentions, in order, each once (``./`` stripped)."""
    return dedupe(m.group(1).removeprefix("./") for m in _PY_PATH.finditer(text))


def resolve_path(name: str, existing: Sequence[str]) -> str | None:
    """``name`` as a path that exists: itself, else the unique path ending in ``/name``."""
    name = name.strip().removeprefix("./")
    if name in existing:
        return name
    matches = [path for path in existing if path.endswith("/" + name)]
    return matches[0] if len(matches) == 1 else None


def resolve_paths(names: Iterable[str], existing: Sequence[str]) -> tuple[list[str], list[str]]:
    """(resolved paths, names that did not resolve), each in order and deduplicated."""
    resolved: list[str] = []
    unresolved: list[str] = []
    for name in dedupe(names):
        path = resolve_path(name, existing)
        if path is None:
            unresolved.append(name)
        elif path not in resolved:
            resolved.append(path)
    return resolved, unresolved


def file_scores(ranked: Sequence[str], expected: Iterable[str]) -> dict[str, float]:
    """hit@k and recall@k for every k in :data:`K_VALUES`, and the reciprocal rank."""
    wanted = list(expected)
    scores = {f"hit@{k}": hit_at_k(ranked, wanted, k) for k in K_VALUES}
    scores.update({f"recall@{k}": recall_at_k(ranked, wanted, k) for k in K_VALUES})
    scores["mrr"] = reciprocal_rank(ranked, wanted)
    return scores


def mean(values: Iterable[float]) -> float | None:
    """The arithmetic mean; ``None`` for no values (so "not measured" differs from 0)."""
    items = list(values)
    return sum(items) / len(items) if items else None


def percentile(values: Iterable[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) by linear interpolation between closest ranks."""
    items = sorted(values)
    if not items:
        return None
    position = (len(items) - 1) * q / 100.0
    low, high = math.floor(position), math.ceil(position)
    return items[low] + (items[high] - items[low]) * (position - low)


def routing(pairs: Iterable[tuple[str, str]]) -> dict[str, object]:
    """Accuracy and confusion matrix of (expected, actual) routes.

    ``matrix[expected][actual]`` counts questions; an errored question's actual is ``error``.
    """
    matrix: dict[str, Counter[str]] = {}
    total = correct = 0
    for expected, actual in pairs:
        matrix.setdefault(expected, Counter())[actual] += 1
        total += 1
        correct += expected == actual
    return {
        "accuracy": correct / total if total else None,
        "n": total,
        "confusion": {exp: dict(sorted(row.items())) for exp, row in sorted(matrix.items())},
    }


def latency(timings: Iterable[Mapping[str, float | None]]) -> dict[str, dict[str, float | None]]:
    """p50 and p95 seconds per stage over the questions that ran that stage."""
    per_stage: dict[str, list[float]] = {}
    for row in timings:
        for stage, seconds in row.items():
            if seconds is not None:
                per_stage.setdefault(stage, []).append(float(seconds))
    return {
        stage: {"p50": percentile(values, 50), "p95": percentile(values, 95), "n": len(values)}
        for stage, values in sorted(per_stage.items())
    }
