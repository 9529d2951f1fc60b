"""The click group behind ``codeagent``: its options, its help, and the lazy subcommands
named in :data:`codeagent.cli.main.COMMANDS`.

Built by :mod:`codeagent.cli.main` only when a running server did not answer the command
line already (:mod:`codeagent.cli.remote`).
"""

from __future__ import annotations

from collections.abc import Mapping

import click

from codeagent import __version__
from codeagent.cli.group import DefaultGroup

# Commands that set logging up themselves, only once they work in this process: answered
# by a running server, `codeagent ask` never imports logging.
LOGGING_WHEN_NEEDED = frozenset({"default", "ask"})


def build(commands: Mapping[str, str]) -> click.Group:
    """The ``codeagent`` group; ``commands``: name -> ``"module:attribute"`` of each
    subcommand, imported when it runs."""

    @click.group(
        cls=DefaultGroup,
        lazy_commands=dict(commands),
        context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True},
    )
    @click.version_option(__version__, prog_name="codeagent")
    @click.option(
        "-v", "--verbose", count=True, help="More logging on stderr (-v info, -vv debug)."
    )
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

    return cli
