"""How long the local model takes to embed texts on this machine: the estimate said before a
first index, from the texts' lengths and a rate measured here.

A chunk costs about its token count (read up to ``DOC_TOKENS``), and the tokens are about its
characters over ``CHARS_PER_TOKEN`` (MiniLM's WordPiece on code; within 2 % of the real count
on three repositories, docs/benchmarks.md). The rate is the shipped ``TOKENS_PER_SECOND``
until an embedding job of ``MIN_SECONDS`` or more has run on this machine; from then on the
rate that job measured, kept beside the exported model. A model not exported yet adds its
one-time export.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

CHARS_PER_TOKEN = 3.2
TOKENS_PER_SECOND = 11_800.0  # the int8 graph on two cores (docs/benchmarks.md)
EXPORT_SECONDS = 8.0  # the one-time export and quantization, two cores
MIN_SECONDS = 5.0  # a rate is recorded from at least this much embedding
RATE_FILE = "local-rate.json"


def tokens(texts: Iterable[str], read_tokens: int) -> float:
    """Roughly how many tokens the model reads of ``texts`` (each cut at ``read_tokens``)."""
    return sum(min(read_tokens, 2 + len(text) / CHARS_PER_TOKEN) for text in texts)


def recorded_rate(models_dir: Path) -> float | None:
    """The tokens per second last measured on this machine (None: none recorded, or unreadable)."""
    try:
        rate = json.loads((models_dir / RATE_FILE).read_text(encoding="utf-8"))["tokens_per_second"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return float(rate) if isinstance(rate, int | float) and rate > 0 else None


def record_rate(models_dir: Path, tokens_read: float, seconds: float) -> None:
    """Keep the rate of a job that took ``seconds`` for ``tokens_read`` tokens (an estimate is
    not worth an error: a folder that cannot be written keeps the last rate)."""
    if seconds < MIN_SECONDS or tokens_read <= 0:
        return
    data = json.dumps({"tokens_per_second": round(tokens_read / seconds, 1)})
    try:
        fd, name = tempfile.mkstemp(prefix="tmp-", suffix=".json", dir=models_dir)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(data)
        os.replace(name, models_dir / RATE_FILE)
    except OSError:
        Path(name).unlink(missing_ok=True)


def estimate(texts: list[str], read_tokens: int, models_dir: Path, *, exported: bool) -> float:
    """Roughly the seconds to embed ``texts``, the export included when ``exported`` is false."""
    rate = recorded_rate(models_dir) or TOKENS_PER_SECOND
    return tokens(texts, read_tokens) / rate + (0.0 if exported else EXPORT_SECONDS)
