"""`codeagent ask`: one question, answered with sources (or one JSON object with --json).

Module-level imports stay light (click only): the agent, the index and the LLM backends are
imported inside the command, so the AST route never loads torch or FAISS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from codeagent.cli.common import embed_option, end_line, llm_option, repo_option, write_out

if TYPE_CHECKING:
    from codeagent.agent.session import AgentSession, AskResult
    from codeagent.config import Settings

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

    settings = Settings.load(llm=llm, embed=embed, k=k)
    session = open_session(repo, settings)
    if as_json:
        result = session.ask(question, on_notice=_notice)
        _index_notices(session)
        from codeagent.cli.common import print_json

        print_json(result.to_json())
        return
    result = session.ask(question, on_token=write_out, on_notice=_notice)
    _index_notices(session)
    end_line()
    print_sources(result)


def open_session(repo: str, settings: Settings) -> AgentSession:
    """The repository resolved (cloned when a URL), the chat model chosen, a session on both."""
    from codeagent.agent.session import AgentSession
    from codeagent.cli.common import Progress
    from codeagent.llm import parse_spec, resolve_chat_model
    from codeagent.repo.remote import resolve_repo

    root = resolve_repo(repo, settings)
    model, reason = resolve_chat_model(settings.llm, settings)
    if model is None and parse_spec(settings.llm)[0] != "none":
        _notice(f"answers without an LLM: {reason}")
    return AgentSession(root, settings, chat_model=model, progress=Progress())


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


def _index_notices(session: Any) -> None:
    stats = session.index_stats
    for line in getattr(stats, "notices", None) or []:
        _notice(line)
    if stats is not None:
        stats.notices = []  # shown once
