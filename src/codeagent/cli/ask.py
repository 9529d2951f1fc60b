"""`codeagent ask`: one question, answered with sources (or one JSON object with --json).

Module-level imports stay light (click only): the agent, the index and the LLM backends are
imported inside the command, so the AST route never loads torch or FAISS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from codeagent.cli.common import embed_option, end_line, llm_option, repo_option, write_out

if TYPE_CHECKING:
    from codeagent.config import Settings
    from codeagent.result import AskResult
    from codeagent.workspace import Workspace

MAX_SOURCES_SHOWN = 12


@click.command("ask")
@click.argument("question")
@repo_option
@llm_option
@embed_option
@click.option("-k", "k", type=click.IntRange(1, 100), default=None, help="Sources per answer.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (notices on stderr).")
@click.option(
    "--no-server", is_flag=True, help="Answer in this process even when a server is running."
)
def command(
    question: str,
    repo: str,
    llm: str | None,
    embed: str | None,
    k: int | None,
    as_json: bool,
    no_server: bool,
) -> None:
    """Answer QUESTION about a repository, citing `path:line` sources.

    Structural questions about one Python file are answered exactly from its syntax tree;
    everything else from a search of the repository (indexed on first use).

    \b
    Examples:
      codeagent ask "list the classes in src/app/models.py"
      codeagent ask "where is parse_header called in utils.py" --llm none
      codeagent ask "how does the retry logic work?" --repo https://github.com/psf/requests

    When `codeagent serve` runs and serves the repository (with the same --llm, --embed
    and -k), the question goes to it: same output, without loading anything here.
    """
    if not no_server:
        from codeagent.cli.remote import ask_server

        if ask_server(question, repo, {"llm": llm, "embed": embed, "k": k}, as_json=as_json):
            return
    from codeagent.config import Settings
    from codeagent.events import NoticeEvent, ResultEvent, TokenEvent

    settings = Settings.load(llm=llm, embed=embed, k=k)
    workspace = open_workspace(repo, settings)
    result = None
    for event in workspace.ask_stream(question):
        if isinstance(event, NoticeEvent):
            _notice(event.text)
        elif isinstance(event, TokenEvent) and not as_json:
            write_out(event.text)
        elif isinstance(event, ResultEvent):
            result = event.result
    assert result is not None
    if as_json:
        from codeagent.cli.common import print_json

        print_json(result.to_json())
        return
    end_line()
    print_sources(result)


def open_workspace(repo: str, settings: Settings) -> Workspace:
    """The workspace the CLI asks (the repository resolved, cloned when a URL, the chat model
    chosen), its opening notices shown."""
    from codeagent.cli.common import Progress
    from codeagent.workspace import Workspace

    workspace = Workspace.open(repo, settings, progress=Progress())
    for text in workspace.notices:
        _notice(text)
    return workspace


def print_sources(result: AskResult) -> None:
    """The sources under an answer (verified locations only), best first."""
    for line in format_sources(result):
        click.echo(line)


def format_sources(result: AskResult, limit: int = MAX_SOURCES_SHOWN) -> list[str]:
    return format_source_dicts([s.model_dump() for s in result.sources], limit)


def format_source_dicts(sources: list[dict[str, Any]], limit: int = MAX_SOURCES_SHOWN) -> list[str]:
    """The sources block from sources as JSON objects (``path``, ``start_line``, ...)."""
    if not sources:
        return []
    lines = ["", "Sources:"]
    for source in sources[:limit]:
        score = f"  (score {source['score']:.3f})" if source.get("score") is not None else ""
        lines.append(f"  {source['path']}:{source['start_line']}-{source['end_line']}{score}")
    hidden = len(sources) - limit
    if hidden > 0:
        lines.append(f"  ... and {hidden} more")
    return lines


def _notice(text: str) -> None:
    from codeagent.cli.common import notice

    notice(text)
