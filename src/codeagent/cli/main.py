"""The ``codeagent`` command: a click group whose subcommands live in sibling modules.

``codeagent [OPTIONS] [QUESTION]`` needs no subcommand: a first argument that is not a
command (a question, or an option such as ``--repo``) goes to the hidden default command
(:mod:`codeagent.cli.default`), which asks the question or, with none, starts the REPL.

Subcommand modules keep their module-level imports light (click, the standard library):
heavy libraries (langgraph, faiss, torch) are imported inside the functions that need them,
so ``codeagent --help`` and the AST route stay fast.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import click

from codeagent import __version__
from codeagent.cli import ask, cache, default, doctor, eval_cmd, eval_dev, index, repl, serve
from codeagent.errors import CodeAgentError


class DefaultGroup(click.Group):
    """A group that hands anything that is not one of its commands to ``default``.

    The group's own options (``-v``, ``--version``, ``--help``) are parsed first; an
    unknown option (``--repo``) or a first word that names no command starts the default
    command with every argument, as ``llm "prompt"`` does.
    """

    default_name = "default"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            args = [self.default_name]
        return super().parse_args(ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in self.commands:
            args = [self.default_name, *args]
        return super().resolve_command(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[OPTIONS] [QUESTION] | COMMAND [ARGS]...")


class _StderrHandler(logging.StreamHandler[Any]):
    """Writes to whatever ``sys.stderr`` is when a record comes (tests swap it); the same
    message twice in a row is said once."""

    _last: str | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message == self._last:
            return False
        self._last = message
        return bool(super().filter(record))

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def setup_logging(verbose: int) -> None:
    """Logs on stderr: plain sentences for warnings; ``-v`` info, ``-vv`` debug, with the
    level and the logger's name. Every message is made safe for the terminal."""
    from codeagent.cli.render import SafeFormatter

    level = logging.WARNING - 10 * min(verbose, 2)
    fmt = "%(levelname)s %(name)s: %(message)s" if verbose else "%(message)s"
    root = logging.getLogger()
    handler = next((h for h in root.handlers if isinstance(h, _StderrHandler)), None)
    if handler is None:
        handler = _StderrHandler()
        root.addHandler(handler)
    root.setLevel(level)
    # Some libraries set their own loggers to DEBUG; the handler's level is the real filter.
    handler.setLevel(level)
    handler.setFormatter(SafeFormatter(fmt))


@click.group(
    cls=DefaultGroup,
    context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True},
)
@click.version_option(__version__, prog_name="codeagent")
@click.option("-v", "--verbose", count=True, help="More logging on stderr (-v info, -vv debug).")
@click.pass_context
def cli(ctx: click.Context, verbose: int) -> None:
    """Ask questions about a code repository, locally, with cited answers.

    With a QUESTION, answers it (as `codeagent ask`); without one, starts the interactive
    session (as `codeagent repl`). The options of both are accepted: --repo PATH|URL,
    --llm, --embed, -k N, --json, and --yes to index a folder that is not a git repository
    without being asked.

    \b
    Examples:
      codeagent "how are redirects handled?" --repo ~/src/requests
      codeagent --repo ~/src/project
      codeagent ask "list the classes in src/app/models.py"
      codeagent index --repo https://github.com/psf/requests
      codeagent eval eval/stdlib.jsonl
    """
    ctx.obj = {"verbose": verbose}
    setup_logging(verbose)


for _command in (
    default.command,
    index.command,
    cache.command,
    ask.command,
    repl.command,
    doctor.command,
    eval_cmd.command,
    eval_dev.command,
    serve.serve_command,
    serve.stop_command,
    serve.mcp_command,
):
    cli.add_command(_command)


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
    except KeyboardInterrupt:
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
