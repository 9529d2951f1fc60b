"""`codeagent cache list | prune | clear`: inspect and trim the index cache."""

from __future__ import annotations

import click

from codeagent.cli.common import print_json
from codeagent.display import plural, safe_name


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
    """List cached repositories: states kept, size on disk, last used, and the index builds
    running in the background (pid, log)."""
    from codeagent.config import Settings
    from codeagent.index.background import running
    from codeagent.store.cache import list_repos

    settings = Settings.load()
    repos = list_repos(settings)
    builds = {r.repo_id: running(settings, r.repo_id) for r in repos}
    if as_json:
        listed = [
            {**r.to_json(), "building": [b.to_json() for b in builds[r.repo_id]]} for r in repos
        ]
        print_json({"cache_dir": str(settings.cache_dir), "repos": listed})
        return
    # a folder left by prune --keep 0 or an interruption is not listed; one being built is
    repos = [r for r in repos if r.states or builds[r.repo_id]]
    if not repos:
        click.echo(f"no cached indexes in {safe_name(str(settings.cache_dir))}")
        return
    # Fixed columns first, the path last and whole (never folded, so it can be copied):
    # fits 80 columns, the width when piped.
    click.echo(f"{'states':>6}  {'size':>9}  {'last used':<16}  repository")
    for repo in repos:
        newest = (repo.to_json()["newest"] or "-").replace("T", " ")[:16]
        building = builds[repo.repo_id]
        where = safe_name(repo.repo or (building[0].root if building else "") or repo.repo_id)
        click.echo(f"{repo.states:>6}  {_size(repo.size):>9}  {newest:<16}  {where}")
        for build in building:
            pid = f"pid {build.pid}, " if build.pid else ""
            click.echo(
                f"{'':>6}  {'':>9}  {'':<16}  building ({pid}log {safe_name(str(build.log))})"
            )


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
    from codeagent.store.cache import prune

    removed = prune(Settings.load(), keep)
    click.echo(f"removed {plural(removed, 'index state')}")


@command.command("clear")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--embeddings", is_flag=True, help="Also clear the embedding cache.")
def clear_command(yes: bool, embeddings: bool) -> None:
    """Delete every cached index and the copies of git indexes (and with --embeddings,
    every cached vector)."""
    from codeagent.cli.common import confirm
    from codeagent.config import Settings
    from codeagent.store.cache import clear, foreign

    settings = Settings.load()
    what = "all cached indexes" + (" and embeddings" if embeddings else "")
    if not yes and not confirm(f"delete {what} under {safe_name(str(settings.home))}?"):
        raise click.Abort
    notices: list[str] = []
    repos, vectors = clear(settings, embeddings=embeddings, notices=notices)
    message = f"removed the indexes of {plural(repos, 'repository', 'repositories')}"
    if embeddings:
        message += f" and {plural(vectors, 'cached vector')}"
    click.echo(message)
    for line in notices:
        click.echo(line, err=True)
    left = foreign(settings)
    if left:
        names = ", ".join(p.name for p in left[:5]) + (", ..." if len(left) > 5 else "")
        click.echo(
            f"left alone {len(left)} entr{'ies' if len(left) != 1 else 'y'} in"
            f" {settings.cache_dir} that codeagent did not create: {names}",
            err=True,
        )
