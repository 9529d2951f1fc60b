"""`codeagent ask` (placeholder until implemented)."""

from __future__ import annotations

import click


@click.command("ask")
def command() -> None:
    """Not implemented yet."""
    raise click.ClickException("codeagent ask is not implemented yet")
