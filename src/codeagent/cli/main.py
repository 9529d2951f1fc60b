"""The ``codeagent`` command: a question a running server can answer goes to it first;
everything else to a click group whose subcommands live in sibling modules.

:func:`main` first hands the command line to :func:`codeagent.cli.remote.answer_if_served`,
which imports the standard library and a few small modules only: ``codeagent ask``
answered by a server (started by ``codeagent serve``) loads neither click nor anything
heavier. Otherwise the click group (:mod:`codeagent.cli.app`) runs.

``codeagent [OPTIONS] [QUESTION]`` needs no subcommand: a first argument that is not a
command (a question, or an option such as ``--repo``) goes to the hidden default command
(:mod:`codeagent.cli.default`), which asks the question or, with none, starts the REPL.

Subcommand modules are imported only when they run (:class:`codeagent.cli.group.LazyGroup`)
and keep their module-level imports light (click, the standard library): heavy libraries
(langgraph, faiss, torch) and rich are imported inside the functions that need them, so
``codeagent --help`` and the AST route stay fast.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    import click

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
    "status": "codeagent.cli.status:command",
    "mcp": "codeagent.cli.mcp_cmd:mcp_command",
}


# The cyclic collector's thresholds for the command's process. Python's (700, 10, 10) run a
# collection every 700 new containers: importing LangGraph and reading an index's chunks set
# off full collections over everything loaded (at 44,000 chunks: three, and 0.33 s of GC in a
# 2.5 s answer; 0.11-0.12 s with these, docs/benchmarks.md). What is collected is the same.
GC_THRESHOLDS = (50_000, 20, 20)


def __getattr__(name: str) -> click.Group:
    """``cli``, the click group, built on first use (:mod:`codeagent.cli.app`)."""
    if name != "cli":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from codeagent.cli.app import build

    group = globals()["cli"] = build(COMMANDS)
    return group


def _interrupted(exc: BaseException) -> bool:
    cause = exc.__cause__ or exc.__context__
    return isinstance(cause, KeyboardInterrupt)


def main(argv: list[str] | None = None) -> None:
    """Entry point: a question a running server answers goes to it, before click is even
    imported; anything else runs the CLI. A domain error becomes one line and a non-zero
    exit."""
    if argv is None:  # the command itself, not a caller in its own process
        import gc

        gc.set_threshold(*GC_THRESHOLDS)
    args = sys.argv[1:] if argv is None else list(argv)
    from codeagent.cli.remote import answer_if_served

    status = answer_if_served(args, COMMANDS)
    if status is not None:
        if status:
            sys.exit(status)
        return
    run_cli(args)


def run_cli(args: list[str]) -> None:
    """The click group on ``args``, its errors turned into one line and an exit status."""
    import click

    from codeagent.errors import Cancelled, CodeAgentError

    try:
        __getattr__("cli").main(args=args, standalone_mode=False)
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
        from codeagent.display import safe_text

        click.echo(f"error: {safe_text(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(1)
