"""`codeagent ask`: one question, answered with sources (or one JSON object with --json).

Module-level imports stay light (click only): the agent, the index and the LLM backends are
imported inside the command, so the AST route never loads torch or FAISS, and a question a
running server answers loads none of them (nor rich, nor logging).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from codeagent.cli.common import dense_option, embed_option, k_option, llm_option, repo_option

if TYPE_CHECKING:
    from codeagent.cli.render import AnswerPrinter
    from codeagent.config import Settings
    from codeagent.workspace import Workspace

wait_option = click.option(
    "--wait",
    is_flag=True,
    help="On a first index that takes long to embed, wait for it instead of answering at once"
    " (keyword search, symbols, cached vectors) while it is built in the background.",
)


@click.command("ask")
@click.argument("question")
@repo_option
@llm_option
@embed_option
@dense_option
@k_option
@wait_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (notices on stderr).")
@click.option(
    "--no-server", is_flag=True, help="Answer in this process even when a server is running."
)
@click.option("-y", "--yes", is_flag=True, help="Index the folder even if it is no git repository.")
@click.option(
    "--long",
    is_flag=True,
    help='A listing with every member and signature, lines uncut (the same as adding "with'
    ' signatures" to the question); by default one line per class or function.',
)
def command(
    question: str,
    repo: str,
    llm: str | None,
    embed: str | None,
    dense: str | None,
    k: int | None,
    wait: bool,
    as_json: bool,
    no_server: bool,
    yes: bool = False,
    long: bool = False,
) -> None:
    """Answer QUESTION about a repository, citing `path:line` sources.

    Structural questions about one Python file are answered exactly from its syntax tree;
    everything else from a search of the repository (indexed on first use). When that
    first index would take more than a few seconds to embed (CODEAGENT_BACKGROUND_AFTER,
    default 5), the answer comes at once from keyword search, the symbol graph, the
    vectors already cached and those of the question's best keyword-search files, embedded
    first (CODEAGENT_FIRST_EMBED_SECONDS, default 2), and a detached `codeagent index`
    finishes the index (`codeagent cache list` shows it; the next question uses it); --wait
    waits for it instead.

    \b
    Examples:
      codeagent ask "list the classes in src/app/models.py"
      codeagent ask "where is parse_header called in utils.py" --llm none
      codeagent ask "how does the retry logic work?" --repo https://github.com/psf/requests

    When `codeagent serve` runs and serves the repository, and --llm, --embed and --dense
    (when given) name what it runs, the question goes to it (any -k goes with the question):
    same output, without loading anything here. --no-server answers here.
    """
    from codeagent.errors import CodeAgentError

    if not question.strip():
        raise CodeAgentError("the question is empty")
    from codeagent.tools.structural import LONG_SUFFIX, wants_signatures

    if long and not wants_signatures(question):
        question = question.rstrip().rstrip("?.") + LONG_SUFFIX
    if not no_server:
        from codeagent.cli.remote import ask_server

        if ask_server(
            question, repo, {"llm": llm, "embed": embed, "dense": dense, "k": k}, as_json=as_json
        ):
            return
    from codeagent.cli.common import confirm_folder
    from codeagent.cli.logs import setup_logging_here
    from codeagent.config import Settings

    setup_logging_here()
    ctx = click.get_current_context()
    if not yes and ctx.get_parameter_source("repo") is click.core.ParameterSource.DEFAULT:
        confirm_folder(Path.cwd())  # a folder that is no git repository: asked first

    from codeagent.cancel import cancellable

    settings = Settings.load(llm=llm, embed=embed, dense=dense, k=k)
    workspace, printer = open_workspace(repo, settings, background=not wait)
    printer.start(question)
    result = None
    with cancellable():  # Ctrl-C stops an index build within a second, not at its end
        for event in workspace.ask_stream(question):
            if as_json and event.type == "token":
                continue
            if as_json and event.type == "result":
                result = event.result
                continue
            printer.event(event)
    if as_json and result is not None:
        from codeagent.cli.common import print_json

        printer.flush_route()
        print_json(result.to_json())
        printer.finish_quietly()
    if not no_server:
        from codeagent.cli.warm import leave_server

        started = leave_server(repo, settings, {"llm": llm, "embed": embed, "dense": dense})
        if started is not None:
            printer.notice(started)


def open_workspace(
    repo: str, settings: Settings, *, sources_limit: int | None = None, background: bool = False
) -> tuple[Workspace, AnswerPrinter]:
    """The workspace the CLI asks (the repository resolved, cloned when a URL, the chat model
    chosen) and the printer of its answers; ``background``: answer first when a first index
    would take long to embed (codeagent.index.answer_first)."""
    from codeagent.cli.common import Progress
    from codeagent.cli.render import MAX_SOURCES_SHOWN, NO_LLM_AUTO, AnswerPrinter
    from codeagent.embed.embedders import check_spec
    from codeagent.llm import parse_spec
    from codeagent.workspace import Workspace

    check_spec(settings.embed)  # a bad --embed fails now, not after the question is routed
    progress = Progress()
    workspace = Workspace.open(repo, settings, progress=progress, background=background)
    llm = workspace.chat_model is not None
    auto_fallback = not llm and parse_spec(settings.llm)[0] == "auto"
    printer = AnswerPrinter(
        llm=llm,
        quiet_notice=NO_LLM_AUTO if auto_fallback else None,
        sources_limit=sources_limit or MAX_SOURCES_SHOWN,
    )
    progress.before = printer.flush_route  # why it indexes, said before the indexing
    return workspace, printer
