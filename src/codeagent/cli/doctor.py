"""`codeagent doctor` (placeholder until implemented)."""

from __future__ import annotations

import click


@click.command("doctor")
def command() -> None:
    """Not implemented yet."""
    raise click.ClickException("codeagent doctor is not implemented yet")
