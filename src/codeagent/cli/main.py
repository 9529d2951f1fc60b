"""The ``codeagent`` command: a click group whose subcommands live in sibling modules.

``codeagent [OPTIONS] [QUESTION]`` needs no subcommand: a first argument that is not a
command (a question, or an option such as ``--repo``) goes to the hidden default command
(:mod:`codeagent.cli.default`), which asks the question or, with none, starts the REPL.

Subcommand modules are imported only when they run (:class:`codeagent.cli.group.LazyGroup`)
and keep their module-level imports light (click, the standard library): heavy libraries
(langgraph, faiss, torch) and rich are imported inside the functions that need them, so
``codeagent --help``, the AST route and ``codeagent ask`` through a running server stay fast.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from codeagent import __version__
from codeagent.cli.group import DefaultGroup
from codeagent.errors import Cancelled, CodeAgentError

# name -> "module:attribute", imported when the command runs.
COMMANDS = {
    "default": "codeagent.cli.default:command",
    "ask": "codeagent.cli.ask:command",
    "repl": "codeagent.cli.repl:command",
    "index": "codeagent.cli.index:command",
    "watch": "codeagent.cli.watch:command",
    "cache": "codeagent.cli.cache:command",
    "map": "codeagent.cli.map_cmd:command",
    "doctor": "codeagent.cli.doctor:command",
    "eval": "codeagent.cli.eval_cmd:command",
    "eval-dev": "codeagent.cli.eval_dev:command",
    "serve": "codeagent.cli.serve:serve_command",
    "stop": "codeagent.cli.serve:stop_command",
    "mcp": "codeagent.cli.serve:mcp_command",
}
# Commands that set logging up themselves, only once they work in this process: answered
# by a running server, `codeagent ask` never imports logging.
LOGGING_WHEN_NEEDED = frozenset({"default", "ask"})


@click.group(
    cls=DefaultGroup,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True},
)
@click.version_option(__version__, prog_name="codeagent")
@click.option("-v", "--verbose", count=True, help="More logging on stderr (-v info, -vv debug).")
@click.pass_context
def cli(ctx: click.Context, verbose: int) -> None:
    """Ask questions about a code repository, locally, with cited answers.

    With a QUESTION, answers it (as `codeagent ask`); without one, starts the interactive
    session (as `codeagent repl`). The options of both are accepted: --repo PATH|URL,
    --llm, --embed, --dense, -k N, --json, and --yes to index a folder that is not a git
    repository without being asked.

    \b
    Examples:
      codeagent "how are redirects handled?" --repo ~/src/requests
      codeagent --repo ~/src/project
      codeagent ask "list the classes in src/app/models.py"
      codeagent index --repo https://github.com/psf/requests
      codeagent eval eval/stdlib.jsonl
    """
    ctx.obj = {"verbose": verbose}
    if verbose or ctx.invoked_subcommand not in LOGGING_WHEN_NEEDED:
        from codeagent.cli.logs import setup_logging

        setup_logging(verbose)


def _interrupted(exc: BaseException) -> bool:
    cause: Any = exc.__cause__ or exc.__context__
    return isinstance(cause, KeyboardInterrupt)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; a domain error becomes one line and a non-zero exit."""
    try:
        cli.main(args=argv, standalone_mode=False)
    except click.exceptions.Abort as exc:
        if _interrupted(exc):
            click.echo("interrupted", err=True)
            sys.exit(130)
        click.echo("aborted", err=True)  # a question left unanswered (stdin at its end)
        sys.exit(1)
    except (KeyboardInterrupt, Cancelled):
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except CodeAgentError as exc:
        from codeagent.cli.render import safe_text

        click.echo(f"error: {safe_text(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(1)
