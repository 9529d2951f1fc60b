"""`codeagent repl` (placeholder until implemented)."""

from __future__ import annotations

import click


@click.command("repl")
def command() -> None:
    """Not implemented yet."""
    raise click.ClickException("codeagent repl is not implemented yet")
