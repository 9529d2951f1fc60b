"""`codeagent ask`: one question, answered with sources (or one JSON object with --json).

Module-level imports stay light (click only): the agent, the index and the LLM backends are
imported inside the command, so the AST route never loads torch or FAISS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from codeagent.cli.common import embed_option, k_option, llm_option, repo_option

if TYPE_CHECKING:
    from codeagent.agent.session import AgentSession
    from codeagent.cli.render import AnswerPrinter
    from codeagent.config import Settings


@click.command("ask")
@click.argument("question")
@repo_option
@llm_option
@embed_option
@k_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (notices on stderr).")
def command(
    question: str, repo: str, llm: str | None, embed: str | None, k: int | None, as_json: bool
) -> None:
    """Answer QUESTION about a repository, citing `path:line` sources.

    Structural questions about one Python file are answered exactly from its syntax tree;
    everything else from a search of the repository (indexed on first use).

    \b
    Examples:
      codeagent ask "list the classes in src/app/models.py"
      codeagent ask "where is parse_header called in utils.py" --llm none
      codeagent ask "how does the retry logic work?" --repo https://github.com/psf/requests
    """
    from codeagent.config import Settings
    from codeagent.errors import CodeAgentError

    if not question.strip():
        raise CodeAgentError("the question is empty")
    settings = Settings.load(llm=llm, embed=embed, k=k)
    session, printer = open_session(repo, settings)
    printer.start(question)
    if as_json:
        result = session.ask(question, on_notice=printer.notice, on_route=printer.route)
        _index_notices(session)
        from codeagent.cli.common import print_json

        print_json(result.to_json())
        printer.finish_quietly()
        return
    result = session.ask(
        question, on_token=printer.token, on_notice=printer.notice, on_route=printer.route
    )
    _index_notices(session)
    printer.finish(result)


def open_session(
    repo: str, settings: Settings, *, sources_limit: int | None = None
) -> tuple[AgentSession, AnswerPrinter]:
    """The repository resolved (cloned when a URL), the chat model chosen, a session on both,
    and the printer of its answers."""
    from codeagent.agent.session import AgentSession
    from codeagent.cli.common import Progress
    from codeagent.cli.render import MAX_SOURCES_SHOWN, NO_LLM_AUTO, AnswerPrinter
    from codeagent.index.embedders import check_spec
    from codeagent.llm import parse_spec, resolve_chat_model
    from codeagent.repo.remote import resolve_repo

    check_spec(settings.embed)  # a bad --embed fails now, not after the question is routed
    root = resolve_repo(repo, settings)
    model, _reason = resolve_chat_model(settings.llm, settings)
    auto_fallback = model is None and parse_spec(settings.llm)[0] == "auto"
    session = AgentSession(root, settings, chat_model=model, progress=Progress())
    printer = AnswerPrinter(
        llm=model is not None,
        quiet_notice=NO_LLM_AUTO if auto_fallback else None,
        sources_limit=sources_limit or MAX_SOURCES_SHOWN,
    )
    return session, printer


def _index_notices(session: Any) -> None:
    from codeagent.cli.common import notice

    stats = session.index_stats
    for line in getattr(stats, "notices", None) or []:
        notice(line)
    if stats is not None:
        stats.notices = []  # shown once
