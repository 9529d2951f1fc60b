"""The ``codeagent`` command: a click group whose subcommands live in sibling modules.

Subcommand modules keep their module-level imports light (click, the standard library):
heavy libraries (langgraph, faiss, torch) are imported inside the functions that need them,
so ``codeagent --help`` and the AST route stay fast.
"""

from __future__ import annotations

import logging
import sys

import click

from codeagent import __version__
from codeagent.cli import ask, cache, doctor, eval_cmd, index, repl, serve
from codeagent.errors import CodeAgentError


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="codeagent")
@click.option("-v", "--verbose", count=True, help="More logging on stderr (-v info, -vv debug).")
@click.pass_context
def cli(ctx: click.Context, verbose: int) -> None:
    """Ask questions about a code repository, locally, with cited answers.

    Without a command, starts the interactive session (same as `codeagent repl`).

    \b
    Examples:
      codeagent ask "list the classes in src/app/models.py"
      codeagent ask "how does the retry logic work?" --repo ~/src/project
      codeagent index --repo https://github.com/psf/requests
      codeagent eval eval/stdlib.jsonl
    """
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    # Some libraries set their own loggers to DEBUG; the handler's level is the real filter.
    for handler in logging.getLogger().handlers:
        handler.setLevel(level)
    if ctx.invoked_subcommand is None:
        ctx.invoke(repl.command)


for _command in (
    index.command,
    cache.command,
    ask.command,
    repl.command,
    doctor.command,
    eval_cmd.command,
    serve.serve_command,
    serve.stop_command,
    serve.mcp_command,
):
    cli.add_command(_command)


def main() -> None:
    """Entry point: run the CLI; a domain error becomes one line and a non-zero exit."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except CodeAgentError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(1)
