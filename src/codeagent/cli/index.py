"""`codeagent index` (placeholder until implemented)."""

from __future__ import annotations

import click


@click.command("index")
def command() -> None:
    """Not implemented yet."""
    raise click.ClickException("codeagent index is not implemented yet")
