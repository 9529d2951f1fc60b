"""`codeagent eval` (placeholder until implemented)."""

from __future__ import annotations

import click


@click.command("eval")
def command() -> None:
    """Not implemented yet."""
    raise click.ClickException("codeagent eval is not implemented yet")
