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

from codeagent.cancel import cancellable
from codeagent.cli.ask import wait_option
from codeagent.cli.common import dense_option, embed_option, k_option, llm_option, repo_option
from codeagent.cli.repl_input import read_lines
from codeagent.cli.terminal import write_out
from codeagent.errors import Cancelled

if TYPE_CHECKING:
    from pathlib import Path

    from codeagent.agent.followup import Focus
    from codeagent.cli.render import AnswerPrinter

HELP = """\
Ask a question about the repository, or use a command:
  /help      this help
  /sources   the sources of the last answer
  /route     how the last question was routed (tool, file, operation, who decided, why)
  /reindex   rebuild the index from the repository's current state
  /map [TOKENS] [QUESTION|PATH]  the files that matter and their definitions, as a tree
  /clear     forget the conversation (follow-ups see the last turns; without an LLM,
             "it", "its" and "that file" mean the last exact answer's symbol and file)
  /exit      leave (also Ctrl-D); Ctrl-C cancels an answer in progress
help, clear, exit and quit typed alone do the same as with the slash; "with signatures"
after a listing asks for it again with every member and signature."""

# A command a user types without its slash: a one-word line is the command, never searched.
BARE_COMMANDS = {"help": "/help", "clear": "/clear", "exit": "/exit", "quit": "/quit"}


SOURCES_SHOWN = 5  # under each answer; /sources lists all


@click.command("repl")
@repo_option
@llm_option
@embed_option
@dense_option
@k_option
@wait_option
@click.option("-y", "--yes", is_flag=True, help="Index the folder even if it is no git repository.")
def command(
    repo: str,
    llm: str | None,
    embed: str | None,
    dense: str | None,
    k: int | None,
    wait: bool,
    yes: bool,
) -> None:
    """Ask questions interactively; follow-up questions see the last few turns.

    Without --repo, a folder that is not a git repository is indexed only after you agree
    (or with --yes), as `codeagent ask` does. A first index that takes long to embed is
    built in the background, as `codeagent ask` does (--wait waits for it): the first
    answers use keyword search, later ones the full index once it is ready.

    \b
    Examples:
      codeagent
      codeagent repl --repo ~/src/project --llm ollama:qwen2.5-coder:7b
    """
    from pathlib import Path

    from codeagent.cli.ask import open_workspace
    from codeagent.cli.common import confirm_folder
    from codeagent.config import Settings

    ctx = click.get_current_context()
    if not yes and ctx.get_parameter_source("repo") is click.core.ParameterSource.DEFAULT:
        confirm_folder(Path.cwd())  # a folder that is no git repository: asked first

    settings = Settings.load(llm=llm, embed=embed, dense=dense, k=k)
    workspace, printer = open_workspace(
        repo, settings, sources_limit=SOURCES_SHOWN, background=not wait
    )
    Repl(workspace, history_file=settings.home / "history", printer=printer).run()


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
        printer: AnswerPrinter | None = None,
    ) -> None:
        from codeagent.cli.render import AnswerPrinter
        from codeagent.workspace import Conversation

        self.workspace = workspace
        self.conversation = Conversation()
        self.focus: Focus | None = None  # what "it" and "that file" mean (without an LLM)
        self.history_file = history_file
        self.stdin = stdin or sys.stdin
        self.out = out or write_out
        llm = getattr(workspace, "chat_model", None) is not None
        self.printer = printer or AnswerPrinter(llm=llm, out=self.out, sources_limit=SOURCES_SHOWN)

    def run(self) -> None:
        from codeagent.display import safe_name

        root = safe_name(str(self.workspace.repo_root))
        self.out(f"codeagent: {root} — /help for commands, Ctrl-D to leave\n")
        for line in self._lines():
            text = line.strip()
            if not text:
                continue
            text = BARE_COMMANDS.get(text.lower().rstrip(".!?"), text)
            if text.startswith("/"):
                if not self.command(text):
                    break
                continue
            self.ask(self._with_signatures(text))

    def ask(self, question: str) -> None:
        from codeagent.display import safe_text
        from codeagent.errors import CodeAgentError

        printer = self.printer
        resolved = self._followup(question)
        if resolved is None:
            return
        printer.start(resolved)
        try:
            with cancellable():  # Ctrl-C stops an index build too, within a second
                for event in self.workspace.ask_stream(resolved, self.conversation):
                    printer.event(event)
        except (KeyboardInterrupt, Cancelled):
            self.out("\ncancelled\n")
            return
        except CodeAgentError as exc:
            self.out(f"error: {safe_text(str(exc))}\n")
            return
        if self.conversation.last is not None:
            from codeagent.agent.followup import focus_after

            self.focus = focus_after(self.focus, self.conversation.last)

    def _with_signatures(self, text: str) -> str:
        """``with signatures`` alone after a listing: the last question again, in full."""
        from codeagent.tools.structural import LONG_SUFFIX, wants_signatures

        last = self.conversation.last
        if last is None or len(text.split()) > 3 or not wants_signatures(text):
            return text
        if wants_signatures(last.question):
            return last.question
        from codeagent.cli.terminal import notice

        question = last.question.rstrip().rstrip("?.") + LONG_SUFFIX
        notice(f"read as: {question}")
        return question

    def _followup(self, question: str) -> str | None:
        """Without an LLM, a follow-up's "it" / "its" / "that file" read as the symbol and
        file of the last exact answers (said in a dim line); one that cannot be read so is
        declined in one line (None: not asked)."""
        if self.printer.llm or self.conversation.last is None:
            return question  # a first question has nothing earlier to refer to
        from codeagent.agent.followup import resolve_followup
        from codeagent.cli.terminal import notice

        followup = resolve_followup(question, self.focus)
        if followup.declined:
            notice(followup.declined)
            return None
        if followup.question != question:
            notice(f"read as: {followup.question}")
        return followup.question

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
            from codeagent.cli.render import location

            for source in [] if last is None else last.sources:
                self.out(f"{location(source)}\n")
        elif name == "/route":
            if last is None:
                self.out("no question yet\n")
            else:
                self.out(_describe_route(last) + "\n")
        elif name == "/reindex":
            try:
                with cancellable():
                    stats = self.workspace.index(force=True)
            except (KeyboardInterrupt, Cancelled):
                self.out("cancelled\n")
                return True
            files = getattr(stats, "files_indexed", "?")
            chunks = len(getattr(self.workspace.get_store(), "chunks", []))
            self.out(f"reindexed: {files} files, {chunks} chunks\n")
        elif name == "/map":
            from codeagent.cli.map_render import repl_map

            self.out(repl_map(self.workspace, text))
        elif name == "/clear":
            self.conversation.clear()
            self.focus = None
            self.out("conversation cleared\n")
        else:
            self.out(f"unknown command {name}; /help lists them\n")
        return True

    def _lines(self) -> Iterator[str]:
        return read_lines(self.stdin, self.history_file)


def _describe_route(result: Any) -> str:
    from codeagent.display import safe_name, safe_text

    route = result.route
    parts = [f"tool: {route.tool}"]
    for name, value in route.args.items():
        if value is not None:
            shown = safe_name(value) if name == "file" else safe_text(str(value))
            parts.append(f"{name}: {shown}")
    parts.append(f"decided by: {route.decided_by} ({safe_text(route.reason)})")
    lines = [", ".join(parts)]
    if result.fallback:
        reason = safe_text(result.fallback.reason)
        lines.append(f"fallback from {result.fallback.from_}: {reason}")
    timings = ", ".join(f"{k} {v:.3f}s" for k, v in result.timings.items())
    lines.append(f"timings: {timings}")
    return "\n".join(lines)
