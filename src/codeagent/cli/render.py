"""How an answer looks on the terminal: the answer text, the sources, the line saying why a
question went to search, the notices.

Everything a repository supplies (file contents, names, paths) passes through
:func:`codeagent.display.safe_text` (code bodies: tabs and newlines kept, every other control
character shown as an escape) or :func:`codeagent.display.safe_name` (names: quoted when they
hold anything unprintable) before it is printed. ``--json`` output does not come through
here: ``json.dumps`` escapes control characters itself, so it stays exact. Nothing here
imports rich: an answer is plain text (``codeagent ask`` through a running server prints
it without loading rich).

:class:`AnswerPrinter` takes the pieces of one answer as they happen (``route``, ``notice``,
``token``, then ``finish`` with the result), so it can be driven by callbacks or by a
stream of events (:meth:`AnswerPrinter.event`). It reads the events' fields only: the route
event's ``line``, a notice's ``text``, a token's ``terms``; it parses no text.
"""

from __future__ import annotations

import re
import shutil
import sys

from codeagent import display
from codeagent.display import safe_text

TYPE_CHECKING = (
    False  # as typing.TYPE_CHECKING: `codeagent ask` through a server never needs typing
)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

_NUMBERED_LINE = re.compile(r"^(\s*\d+ \| )(.*)$")
_HIGHLIGHT_ON, _HIGHLIGHT_OFF = "\x1b[1;33m", "\x1b[0m"
MAX_SOURCES_SHOWN = 12

__all__ = ["AnswerPrinter"]


def location(source: Any) -> str:
    """``path:start-end`` of a source, its path made safe; ``repo:path:start-end`` for a
    source a server labelled with its repository (an answer across repositories)."""
    where = display.location(source.path, source.start_line, source.end_line)
    repo = getattr(source, "repo", None)
    return f"{display.safe_name(repo)}:{where}" if repo else where


def source_lines(result: Any, *, llm: bool, limit: int = MAX_SOURCES_SHOWN) -> list[str]:
    """The ``Sources:`` block under an answer. Without an LLM the answer itself lists every
    source (with its lines), so nothing is repeated here. Scores are for ``--json``."""
    if not llm or not result.sources:
        return []
    lines = ["", "Sources:"]
    lines += [f"  {location(source)}" for source in result.sources[:limit]]
    hidden = len(result.sources) - limit
    if hidden > 0:
        lines.append(f"  ... and {hidden} more")
    return lines


def cut_lines(text: str, width: int) -> str:
    """Each line of ``text`` at most ``width`` characters, a longer one cut and ended by "…"
    (a listing with every signature is asked for with "with signatures" or --long)."""
    return "\n".join(
        line if len(line) <= width else line[: max(width - 1, 1)] + "…" for line in text.split("\n")
    )


def highlight_words(text: str, words: set[str]) -> str:
    """The numbered code lines of a deterministic answer with ``words`` (lower-case,
    matched anywhere, as the answer chose its lines) in bold yellow."""
    if not words:
        return text
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)),
                         re.IGNORECASE)  # fmt: skip
    out = []
    for line in text.split("\n"):
        match = _NUMBERED_LINE.match(line)
        if match:
            code = pattern.sub(lambda m: _HIGHLIGHT_ON + m.group(0) + _HIGHLIGHT_OFF, match[2])
            line = match[1] + code
        out.append(line)
    return "\n".join(out)


class AnswerPrinter:
    """Prints one conversation's answers: text on ``out``, everything else dim on stderr.

    ``llm``: whether answers come from a model (without one the answer lists its sources,
    so no ``Sources:`` block follows it). ``quiet_notice``: said once, after the first
    answer (never before an error that has nothing to do with it).
    """

    def __init__(
        self,
        *,
        llm: bool,
        out: Callable[[str], None] | None = None,
        notice: Callable[[str], None] | None = None,
        terminal: bool | None = None,
        sources_limit: int = MAX_SOURCES_SHOWN,
        quiet_notice: str | None = None,
    ) -> None:
        from codeagent.cli.terminal import notice as stderr_notice
        from codeagent.cli.terminal import write_out

        self.llm = llm
        self._out = out or write_out
        self._notice = notice or stderr_notice
        self.terminal = sys.stdout.isatty() if terminal is None else terminal
        self.width = shutil.get_terminal_size().columns if self.terminal else None
        self.sources_limit = sources_limit
        self._pending = quiet_notice
        self._route: str | None = None
        self._open_line = False
        self._cut = True

    def start(self, question: str) -> None:
        """A new question; one that asks for signatures has its answer's lines uncut."""
        from codeagent.tools.structural import wants_signatures

        self._route = None
        self._cut = not wants_signatures(question)

    def route(self, line: str | None) -> None:
        """Keep the route's line (the route event's ``line``) until the answer goes on (the
        next event, or indexing starts: :meth:`flush_route`): an error before then, such as
        an unusable CODEAGENT_HOME when the index opens, is then the only line."""
        self._route = line

    def flush_route(self) -> None:
        """Print the route line kept by :meth:`route`, once."""
        if self._route:
            self._notice(self._route)
        self._route = None

    def notice(self, text: str) -> None:
        self._notice(text)

    def token(self, text: str, terms: Sequence[str] = ()) -> None:
        """Answer text; ``terms`` (the words a deterministic answer's lines were chosen by)
        are highlighted on a terminal."""
        text = safe_text(text)
        if not self.llm and self.width and self._cut:  # a whole answer: cut to the terminal
            text = cut_lines(text, self.width)
        if terms and self.terminal:
            text = highlight_words(text, {t.lower() for t in terms})
        if text:
            self._out(text)
            self._open_line = not text.endswith("\n")

    def finish(self, result: Any) -> None:
        """After the answer: the sources, then (once) the pending notice."""
        if self._open_line:
            self._out("\n")
            self._open_line = False
        for line in source_lines(result, llm=self.llm, limit=self.sources_limit):
            self._out(line + "\n")
        if self._pending:
            self._notice(self._pending)
            self._pending = None

    def finish_quietly(self) -> None:
        """After a ``--json`` answer: only the pending notice."""
        self.flush_route()
        if self._pending:
            self._notice(self._pending)
            self._pending = None

    def event(self, event: Any) -> Any:
        """Print one event of an answer stream; returns the result on the last one."""
        kind = event.type
        if kind == "route":
            self.route(event.line)
            return None
        self.flush_route()
        if kind == "notice":
            self.notice(event.text)
        elif kind == "token":
            self.token(event.text, event.terms)
        elif kind == "result":
            self.finish(event.result)
            return event.result
        return None


# Said once, after the first answer, when ``--llm auto`` found no model; an explicit
# ``--llm none`` is never remarked on. The long advice is in ``codeagent doctor``.
NO_LLM_AUTO = "no LLM found, answered without one (`codeagent doctor` says how to add one)"
