"""The LLM answer's inputs and checks: the context block, the messages, the citation check.

Small models follow context placed in the user turn better than in the system prompt, so
the system rules stay short and the tool's context (retrieved code, exact facts) goes into
the user turn, after the recent history. Every ``path:line`` the answer cites is checked against the
repository: a citation of a missing file or of lines past its end is flagged, never listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent.agent.prompts import render_prompt
from codeagent.agent.sanitize import strip_control_tokens
from codeagent.agent.state import Turn
from codeagent.pathtext import path_pattern
from codeagent.result import Source

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

MAX_HISTORY_ANSWER_CHARS = 1_500  # each past answer, as a follow-up sees it

_CITATION = re.compile(
    path_pattern(r"[A-Za-z0-9]{1,8}", lead=r"(?:\./)?", quoted=True, after="")
    + r":L?(?P<start>\d+)(?:\s*[-–]\s*L?(?P<end>\d+))?(?!\d)"
)


@dataclass(frozen=True)
class Citation:
    path: str
    start_line: int
    end_line: int
    text: str  # as written in the answer

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


def build_messages(question: str, history: list[Turn], context: str) -> list[BaseMessage]:
    """System rules, the recent turns, then one user turn with the context and the question."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    messages: list[BaseMessage] = [SystemMessage(render_prompt("answer_system"))]
    for turn in history:
        answer = turn["answer"]
        if len(answer) > MAX_HISTORY_ANSWER_CHARS:
            answer = answer[:MAX_HISTORY_ANSWER_CHARS] + " ..."
        messages.append(HumanMessage(strip_control_tokens(turn["question"])))
        messages.append(AIMessage(strip_control_tokens(answer)))
    user = render_prompt("answer_user", context=strip_control_tokens(context), question=question)
    messages.append(HumanMessage(user))
    return messages


def find_citations(text: str) -> list[Citation]:
    """Every ``path:12``, ``path:12-30`` or ``path:L12-L30`` in ``text``, in order, each once."""
    found: dict[tuple[str, int, int], Citation] = {}
    for match in _CITATION.finditer(text):
        path = match.group("path").removeprefix("./")
        start = int(match.group("start"))
        end = int(match.group("end") or start)
        found.setdefault((path, start, end), Citation(path, start, end, match.group(0)))
    return list(found.values())


class CitationChecker:
    """Checks citations against the files of one repository (line counts cached)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._lines: dict[str, int | None] = {}

    def problem(self, citation: Citation) -> str | None:
        """None when the cited lines exist in the repository, else what is wrong."""
        count = self._line_count(citation.path)
        if count is None:
            return "no such file in the repository"
        if citation.start_line < 1 or citation.end_line < citation.start_line:
            return "not a valid line range"
        if citation.end_line > count:
            return f"the file has only {count} lines"
        return None

    def _line_count(self, path: str) -> int | None:
        if path not in self._lines:
            self._lines[path] = self._count(path)
        return self._lines[path]

    def _count(self, path: str) -> int | None:
        if Path(path).is_absolute():
            return None
        target = (self.root / path).resolve()
        if not target.is_relative_to(self.root) or not target.is_file():
            return None
        try:
            with target.open("rb") as handle:
                data = handle.read()
        except OSError:
            return None
        return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def check_citations(
    answer: str, root: Path, context_sources: list[Source]
) -> tuple[list[Source], list[str]]:
    """(sources to list, notes on unverified citations) for ``answer``.

    Sources are the context the answer was given (it exists: it came from the index or the
    AST tool) plus each verified citation outside it; an unverified citation is never listed.
    """
    checker = CitationChecker(root)
    sources = list(context_sources)
    notes: list[str] = []
    for citation in find_citations(answer):
        problem = checker.problem(citation)
        if problem:
            notes.append(f"[unverified citation: {citation.text.strip('`')} — {problem}]")
            continue
        if not any(_covers(s, citation) for s in sources):
            sources.append(Source(path=citation.path, start_line=citation.start_line,
                                  end_line=citation.end_line))  # fmt: skip
    return sources, notes


def _covers(source: Source, citation: Citation) -> bool:
    return (
        source.path == citation.path
        and source.start_line <= citation.start_line
        and citation.end_line <= source.end_line
    )
