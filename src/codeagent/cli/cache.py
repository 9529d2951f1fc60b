"""`codeagent cache` (placeholder until implemented)."""

from __future__ import annotations

import click


@click.command("cache")
def command() -> None:
    """Not implemented yet."""
    raise click.ClickException("codeagent cache is not implemented yet")
