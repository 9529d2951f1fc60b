"""Plain value types shared by the index, the tools, the agent and the eval harness.

Kept free of heavy imports (no numpy, faiss, torch) so any module can use them cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Chunk:
    """A contiguous piece of one file, the unit that is embedded and retrieved.

    ``start_line`` and ``end_line`` are 1-based and inclusive. ``symbol`` is the qualified
    name of the definition the chunk holds (``Session.send``), ``"<module>"`` for a Python
    module header, or ``""`` for a plain line window. ``kind`` is one of ``module``,
    ``function``, ``class``, ``method``, ``window`` for Python; for the languages of
    :mod:`codeagent.lang`, the language's own kind (``struct``, ``interface``, ``impl``, ...).
    ``header`` (those languages only) is the definition's signature, embedded after the name.
    """

    path: str
    start_line: int
    end_line: int
    text: str
    symbol: str = ""
    kind: str = "window"
    header: str = ""

    @property
    def embed_text(self) -> str:
        """What is embedded and hashed: the chunk text prefixed with ``path: symbol`` (and
        the header line, when there is one)."""
        head = f"{self.path}: {self.symbol}" if self.symbol else self.path
        if self.header:
            head = f"{head}\n{self.header}"
        return f"{head}\n{self.text}"

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


@dataclass(slots=True)
class SearchHit:
    """One ranked retrieval result."""

    path: str
    start_line: int
    end_line: int
    symbol: str
    score: float
    text: str
    kind: str = "window"
    ranks: dict[str, int] = field(default_factory=dict)  # e.g. {"bm25": 1, "dense": 4}

    @classmethod
    def of(cls, chunk: Chunk, score: float, ranks: dict[str, int]) -> SearchHit:
        """``chunk`` as a hit with this score and these ranks."""
        return cls(
            path=chunk.path,
            start_line=chunk.start_line,
            end_line=chunk.end_line,
            symbol=chunk.symbol,
            score=score,
            text=chunk.text,
            kind=chunk.kind,
            ranks=ranks,
        )

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"
