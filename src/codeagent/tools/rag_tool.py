"""retrieve(): index search shaped for answering a question.

On top of :meth:`IndexStore.search` (BM25 + dense, RRF, at most two chunks per file):

- source code first, then other text (Markdown, reST, config, notebooks), then tests, docs and
  examples, unless the question asks for those (they crowd the top for most questions about the
  code); a long, issue-like question counts as being about the code, because an issue
  mentions tests and docs in passing;
- neighbouring or overlapping chunks of one file are merged into one window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from codeagent.index.types import SearchHit
from codeagent.tools.base import BaseTool, Source, ToolContext

if TYPE_CHECKING:
    from codeagent.index.store import IndexStore

PER_FILE = 2
CANDIDATES = 3  # search k * CANDIDATES before demotion and merging

DEMOTED_DIRS = frozenset({"tests", "test", "testing", "docs", "doc", "examples"})
_ABOUT_TESTS_OR_DOCS = re.compile(
    r"\b(tests?|testing|pytest|unittest|docs?|documentation|examples?)\b", re.IGNORECASE
)
_ABOUT_PROSE = re.compile(
    r"\b(readme|docs?|documentation|changelog|changes|install(ation|ing)?|config(uration)?|"
    r"settings?|markdown|notebooks?|tutorials?|guides?)\b|\.(md|rst|txt|toml|cfg|ini|ya?ml)\b",
    re.IGNORECASE,
)
LONG_QUESTION_WORDS = 60  # longer questions read like issue reports
CODE_SUFFIXES = frozenset((
    ".py", ".pyi", ".pyx", ".js", ".jsx", ".mjs", ".ts", ".tsx", ".go", ".rs", ".java", ".kt",
    ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift", ".m", ".sh",
    ".lua", ".r", ".jl", ".ex", ".exs", ".erl", ".hs", ".ml", ".clj", ".sql",
))  # fmt: skip


def is_demoted_path(path: str) -> bool:
    """Whether ``path`` belongs to tests, docs or examples."""
    parts = PurePosixPath(path).parts
    if any(part.lower() in DEMOTED_DIRS for part in parts[:-1]):
        return True
    name = parts[-1] if parts else ""
    return name == "conftest.py" or (
        name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
    )


def about_tests_or_docs(question: str) -> bool:
    return _ABOUT_TESTS_OR_DOCS.search(question) is not None


def is_code_path(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in CODE_SUFFIXES


def demotion(question: str) -> Callable[[SearchHit], int]:
    """A sort key: 0 for the hits the question is most likely after, higher for later."""
    if len(question.split()) > LONG_QUESTION_WORDS:
        tests_wanted = prose_wanted = False
    else:
        tests_wanted = about_tests_or_docs(question)
        prose_wanted = tests_wanted or _ABOUT_PROSE.search(question) is not None

    def key(hit: SearchHit) -> int:
        if not tests_wanted and is_demoted_path(hit.path):
            return 2
        if not prose_wanted and not is_code_path(hit.path):
            return 1
        return 0

    return key


def merge_hits(first: SearchHit, second: SearchHit) -> SearchHit:
    """One window covering two overlapping or adjacent hits of the same file."""
    a, b = sorted((first, second), key=lambda h: (h.start_line, h.end_line))
    a_lines = a.text.splitlines()
    b_lines = b.text.splitlines()
    if b.end_line <= a.end_line:
        lines = a_lines
    else:
        lines = a_lines + b_lines[max(a.end_line - b.start_line + 1, 0) :]
    symbols = [s for s in dict.fromkeys((first.symbol, second.symbol)) if s]
    ranks = dict(second.ranks)
    for name, rank in first.ranks.items():
        ranks[name] = min(rank, ranks.get(name, rank))
    return SearchHit(
        path=a.path,
        start_line=a.start_line,
        end_line=max(a.end_line, b.end_line),
        symbol=", ".join(symbols),
        score=max(first.score, second.score),
        text="\n".join(lines),
        kind=first.kind if first.kind == second.kind else "window",
        ranks=ranks,
    )


def _touching(a: SearchHit, b: SearchHit) -> bool:
    return a.path == b.path and a.start_line <= b.end_line + 1 and b.start_line <= a.end_line + 1


def retrieve(store: IndexStore, question: str, k: int) -> list[SearchHit]:
    """The ``k`` best windows of code for ``question``, best first."""
    if k <= 0:
        return []
    hits = store.search(question, k=k * CANDIDATES, per_file=PER_FILE)
    # A stable sort: the order within each group is the fused ranking's.
    hits = sorted(hits, key=demotion(question))
    merged: list[SearchHit] = []
    for hit in hits:
        for i, kept in enumerate(merged):
            if _touching(kept, hit):
                merged[i] = merge_hits(kept, hit)
                break
        else:
            merged.append(hit)
    return merged[:k]


class RagArgs(BaseModel):
    """Search takes the question itself; nothing else to fill."""

    model_config = ConfigDict(title="RagArgs")


@dataclass(frozen=True)
class RagResult:
    question: str
    hits: list[SearchHit]

    def render(self) -> str:
        from codeagent.tools.rag_render import render_hits

        return render_hits(self.hits, self.question)

    def context(self) -> str:
        from codeagent.tools.rag_render import hits_context

        return hits_context(self.hits)

    def citations(self) -> list[Source]:
        return [
            Source(path=h.path, start_line=h.start_line, end_line=h.end_line, score=h.score)
            for h in self.hits
        ]

    def to_json(self) -> dict[str, Any] | None:
        return None  # the sources say it all


class RagTool(BaseTool):
    name = "rag"
    description = """search over the whole repository. Use it for everything else: how or why
  questions, behaviour, bugs and issue reports, questions that name no Python file, and
  questions about more than one file."""
    args_model = RagArgs
    fallback = None

    def run(self, args: BaseModel, ctx: ToolContext) -> RagResult:
        return RagResult(ctx.question, retrieve(ctx.store, ctx.question, ctx.settings.k))
