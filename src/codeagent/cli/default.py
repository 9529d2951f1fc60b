"""The bare command, ``codeagent [OPTIONS] [QUESTION]``: a question is answered as by
``codeagent ask``; without one the interactive session starts, as ``codeagent repl``.

A folder that is not a git repository (``/tmp``, the home folder) is indexed only when the
user says so: asked on a terminal, or ``--yes``; with no terminal to ask on it is an error.
"""

from __future__ import annotations

from pathlib import Path

import click

from codeagent.cli.common import confirm_folder, dense_option, embed_option, k_option, llm_option


@click.command("default", hidden=True)
@click.argument("question", nargs=-1)
@click.option("--repo", default=None, metavar="PATH|URL", help="Repository (default: .).")
@llm_option
@embed_option
@dense_option
@k_option
@click.option("--json", "as_json", is_flag=True, help="With a question: one JSON object.")
@click.option("-y", "--yes", is_flag=True, help="Index the folder even if it is no git repository.")
@click.pass_context
def command(
    ctx: click.Context,
    question: tuple[str, ...],
    repo: str | None,
    llm: str | None,
    embed: str | None,
    dense: str | None,
    k: int | None,
    as_json: bool,
    yes: bool,
) -> None:
    """Answer QUESTION, or start the interactive session when there is none."""
    if repo is None:
        repo = "."
        if not yes:
            confirm_folder(Path.cwd())
    options = {"repo": repo, "llm": llm, "embed": embed, "dense": dense, "k": k}
    if question:
        from codeagent.cli import ask  # it sets logging up when it answers in this process

        ctx.invoke(ask.command, question=" ".join(question), as_json=as_json, **options)
    else:
        from codeagent.cli import repl
        from codeagent.cli.logs import setup_logging_here

        setup_logging_here()
        ctx.invoke(repl.command, yes=True, **options)  # the folder was agreed to above
