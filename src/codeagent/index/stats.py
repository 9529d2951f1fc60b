"""What an index build found and did (``codeagent index --json`` prints it), and the
languages of its files."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from codeagent import lang

PHASES = ("discover", "chunk", "embed", "bm25", "dense", "save", "total")


@dataclass
class IndexStats:
    """What a load_or_build() call found and did."""

    repo: str = ""
    repo_id: str = ""
    files_indexed: int = 0
    files_skipped: dict[str, int] = field(default_factory=dict)
    chunks: int = 0
    chunks_embedded: int = 0
    chunks_reused: int = 0
    files_reused: int = 0  # files whose chunks and symbols came from an earlier state
    workers: int = 1  # processes that parsed the files (1: the building one, no pool)
    embedder: str = "none"
    dim: int | None = None
    state_hash: str = ""
    cache_path: str = ""
    cache_hit: bool = False
    # how a cached entry was trusted: "seal" (its files' size, times and inode as when they
    # were last hashed: nothing read) or "sha256" (every file hashed); "" when built
    entry_check: str = ""
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    notices: list[str] = field(default_factory=list)
    # answered first (:mod:`codeagent.index.answer_first`): the share of chunks with a vector
    # in this in-memory index, the rest embedded in the background; None for a full index
    dense_coverage: float | None = None
    # language -> {"files": n, "structure": "python-ast" | "tree-sitter" | "none"} (every indexed
    # file), and language -> files that did not parse in this build (cut into windows).
    languages: dict[str, dict[str, Any]] = field(default_factory=dict)
    parse_errors: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["seconds"] = {k: round(v, 3) for k, v in self.seconds.items()}
        return data


def languages_of(paths: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Files per language and where their structure comes from: ``python-ast`` (Python),
    ``tree-sitter`` (the languages of :mod:`codeagent.lang`) or ``none`` (line windows)."""
    counts = Counter(lang.language_name(p) for p in paths)
    reader = {spec.name: spec.structure for spec in lang.specs()}
    return {
        name: {"files": n, "structure": reader.get(name, "none")}
        for name, n in sorted(counts.items())
    }
