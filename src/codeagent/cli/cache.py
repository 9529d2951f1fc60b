"""`codeagent cache list | prune | clear`: inspect and trim the index cache."""

from __future__ import annotations

import click

from codeagent.cli.common import print_json


def _size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover


@click.group("cache")
def command() -> None:
    """Inspect and trim the index cache ($CODEAGENT_HOME/cache)."""


@command.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def list_command(as_json: bool) -> None:
    """List cached repositories: states kept, size on disk, last used."""
    from codeagent.config import Settings
    from codeagent.index.cache import list_repos

    settings = Settings.load()
    repos = list_repos(settings)
    if as_json:
        print_json({"cache_dir": str(settings.cache_dir), "repos": [r.to_json() for r in repos]})
        return
    if not repos:
        click.echo(f"no cached indexes in {settings.cache_dir}")
        return
    from rich.table import Table

    from codeagent.cli.common import console

    table = Table()
    table.add_column("repo id", no_wrap=True)
    table.add_column("states", justify="right")
    table.add_column("size", justify="right", no_wrap=True)
    table.add_column("newest", no_wrap=True)
    table.add_column("repository", overflow="fold")
    for repo in repos:
        data = repo.to_json()
        table.add_row(
            repo.repo_id,
            str(repo.states),
            _size(repo.size),
            (data["newest"] or "-").replace("T", " "),
            repo.repo,
        )
    console.print(table)


@command.command("prune")
@click.option(
    "--keep",
    type=click.IntRange(min=0),
    default=None,
    help="States to keep per repository (default: the keep_states setting, 3).",
)
def prune_command(keep: int | None) -> None:
    """Delete all but the newest states of each repository."""
    from codeagent.config import Settings
    from codeagent.index.cache import prune

    removed = prune(Settings.load(), keep)
    click.echo(f"removed {removed} index state{'s' if removed != 1 else ''}")


@command.command("clear")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--embeddings", is_flag=True, help="Also clear the embedding cache.")
def clear_command(yes: bool, embeddings: bool) -> None:
    """Delete every cached index (and with --embeddings, every cached vector)."""
    from codeagent.config import Settings
    from codeagent.index.cache import clear, foreign

    settings = Settings.load()
    what = "all cached indexes" + (" and embeddings" if embeddings else "")
    if not yes:
        click.confirm(f"delete {what} under {settings.home}?", abort=True)
    repos, vectors = clear(settings, embeddings=embeddings)
    message = f"removed the indexes of {repos} repositor{'ies' if repos != 1 else 'y'}"
    if embeddings:
        message += f" and {vectors} cached vectors"
    click.echo(message)
    left = foreign(settings)
    if left:
        names = ", ".join(p.name for p in left[:5]) + (", ..." if len(left) > 5 else "")
        click.echo(
            f"left alone {len(left)} entr{'ies' if len(left) != 1 else 'y'} in"
            f" {settings.cache_dir} that codeagent did not create: {names}",
            err=True,
        )
