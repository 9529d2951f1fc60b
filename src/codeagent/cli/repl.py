"""`codeagent repl` (and bare `codeagent`): an interactive session about one repository.

Line editing and persistent history come from prompt_toolkit on a terminal; when stdin is not
a terminal (a script, a test) lines are read from it plainly. Ctrl-C cancels the answer in
progress (or clears the line at the prompt); EOF (Ctrl-D) or /exit ends the session.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

import click

from codeagent.cli.common import embed_option, llm_option, repo_option, write_out

if TYPE_CHECKING:
    from pathlib import Path

HELP = """\
Ask a question about the repository, or use a command:
  /help      this help
  /sources   the sources of the last answer
  /route     how the last question was routed (tool, file, operation, who decided, why)
  /reindex   rebuild the index from the repository's current state
  /clear     forget the conversation (follow-ups see the last turns)
  /exit      leave (also Ctrl-D); Ctrl-C cancels an answer in progress"""


SOURCES_SHOWN = 5  # under each answer; /sources lists all


@click.command("repl")
@repo_option
@llm_option
@embed_option
@click.option("-k", "k", type=click.IntRange(1, 100), default=None, help="Sources per answer.")
def command(repo: str, llm: str | None, embed: str | None, k: int | None) -> None:
    """Ask questions interactively; follow-up questions see the last few turns.

    \b
    Examples:
      codeagent
      codeagent repl --repo ~/src/project --llm ollama:qwen2.5-coder:7b
    """
    from codeagent.cli.ask import open_workspace
    from codeagent.config import Settings

    settings = Settings.load(llm=llm, embed=embed, k=k)
    workspace = open_workspace(repo, settings)
    Repl(workspace, history_file=settings.home / "history").run()


class Repl:
    """The read-answer loop: one conversation over a ``Workspace`` (or anything with its
    ``repo_root``, ``ask_stream``, ``index`` and ``get_store``)."""

    def __init__(
        self,
        workspace: Any,
        *,
        history_file: Path | None = None,
        stdin: TextIO | None = None,
        out: Callable[[str], None] | None = None,
    ) -> None:
        from codeagent.workspace import Conversation

        self.workspace = workspace
        self.conversation = Conversation()
        self.history_file = history_file
        self.stdin = stdin or sys.stdin
        self.out = out or write_out
        self._shown: set[str] = set()

    def run(self) -> None:
        self.out(f"codeagent: {self.workspace.repo_root} — /help for commands, Ctrl-D to leave\n")
        for line in self._lines():
            text = line.strip()
            if not text:
                continue
            if text.startswith("/"):
                if not self.command(text):
                    break
                continue
            self.ask(text)

    def ask(self, question: str) -> None:
        from codeagent.cli.ask import format_sources
        from codeagent.errors import CodeAgentError
        from codeagent.events import NoticeEvent, ResultEvent, TokenEvent

        result = None
        try:
            for event in self.workspace.ask_stream(question, self.conversation):
                if isinstance(event, TokenEvent):
                    self.out(event.text)
                elif isinstance(event, NoticeEvent):
                    self._notice(event.text)
                elif isinstance(event, ResultEvent):
                    result = event.result
        except KeyboardInterrupt:
            self.out("\ncancelled\n")
            return
        except CodeAgentError as exc:
            self.out(f"error: {exc}\n")
            return
        self.out("\n")
        for line in format_sources(result, limit=SOURCES_SHOWN) if result else []:
            self.out(line + "\n")

    def command(self, text: str) -> bool:
        """Run one /command; False means leave."""
        name = text.split()[0].lower()
        last = self.conversation.last
        if name in ("/exit", "/quit", "/q"):
            return False
        if name == "/help":
            self.out(HELP + "\n")
        elif name == "/sources":
            if last is None or not last.sources:
                self.out("no sources yet\n")
            for source in [] if last is None else last.sources:
                score = f"  (score {source.score:.3f})" if source.score is not None else ""
                self.out(f"{source.location}{score}\n")
        elif name == "/route":
            if last is None:
                self.out("no question yet\n")
            else:
                self.out(_describe_route(last) + "\n")
        elif name == "/reindex":
            try:
                stats = self.workspace.index(force=True)
            except KeyboardInterrupt:
                self.out("cancelled\n")
                return True
            files = getattr(stats, "files_indexed", "?")
            chunks = len(getattr(self.workspace.get_store(), "chunks", []))
            self.out(f"reindexed: {files} files, {chunks} chunks\n")
        elif name == "/clear":
            self.conversation.clear()
            self.out("conversation cleared\n")
        else:
            self.out(f"unknown command {name}; /help lists them\n")
        return True

    def _notice(self, text: str) -> None:
        if text.startswith("answered without an LLM"):
            if text in self._shown:
                return  # once per session is enough
            self._shown.add(text)
        from codeagent.cli.common import notice

        notice(text)

    def _lines(self) -> Iterator[str]:
        if not self.stdin.isatty():
            yield from self.stdin
            return
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory

        history: Any = InMemoryHistory()
        if self.history_file is not None:
            self.history_file.parent.mkdir(parents=True, exist_ok=True)
            history = FileHistory(str(self.history_file))
        prompt: PromptSession[str] = PromptSession(history=history)
        while True:
            try:
                yield prompt.prompt("> ")
            except KeyboardInterrupt:
                continue  # Ctrl-C at the prompt clears the line
            except EOFError:
                return


def _describe_route(result: Any) -> str:
    route = result.route
    parts = [f"tool: {route.tool}"]
    parts.extend(f"{name}: {value}" for name, value in route.args.items() if value is not None)
    parts.append(f"decided by: {route.decided_by} ({route.reason})")
    lines = [", ".join(parts)]
    if result.fallback:
        lines.append(f"fallback from {result.fallback['from']}: {result.fallback['reason']}")
    timings = ", ".join(f"{k} {v:.3f}s" for k, v in result.timings.items())
    lines.append(f"timings: {timings}")
    return "\n".join(lines)
