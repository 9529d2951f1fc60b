"""`codeagent index`: build (or load from the cache) the index of a repository."""

from __future__ import annotations

from typing import Any

import click

from codeagent.cli.common import dense_option, embed_option, print_json, repo_argument
from codeagent.cli.terminal import notice
from codeagent.display import plural, safe_name


@click.command("index")
@repo_argument
@embed_option
@dense_option
@click.option("--force", is_flag=True, help="Rebuild even when the cache holds this state.")
@click.option(
    "--verify",
    is_flag=True,
    help="Hash every file of the cached entry (rebuilt if damaged), not only check its seal.",
)
@click.option(
    "--max-file-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Skip files larger than this (default 1000000; env CODEAGENT_MAX_FILE_BYTES).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--background", is_flag=True, hidden=True, help="Run at a lower CPU priority.")
def command(
    repo: str,
    embed: str | None,
    dense: str | None,
    force: bool,
    verify: bool,
    max_file_bytes: int | None,
    as_json: bool,
    background: bool = False,
) -> None:
    """Index a repository (cached by its exact state; re-embeds only changed chunks).

    \b
    Examples:
      codeagent index
      codeagent index ~/src/project --embed none
      codeagent index --verify
      codeagent index --repo https://github.com/psf/requests --json
    """
    import os

    from codeagent.cli.common import Progress
    from codeagent.config import Settings

    if background and hasattr(os, "nice"):  # behind an answer given first: let it go first
        os.nice(10)
    from codeagent.index.build import load_or_build
    from codeagent.repo.remote import resolve_repo

    settings = Settings.load(embed=embed, dense=dense, max_file_bytes=max_file_bytes)
    root = resolve_repo(repo, settings)
    from codeagent.cancel import cancellable

    with cancellable():  # Ctrl-C stops the embedding within a second
        _store, stats = load_or_build(
            root, settings, force=force, verify=verify, progress=Progress()
        )
    for line in stats.notices:
        notice(line)
    if as_json:
        print_json(stats.to_json())
    else:
        click.echo(summary(stats.to_json()))


def summary(stats: dict[str, Any]) -> str:
    """The human-readable report of one index run."""
    skipped = stats["files_skipped"]
    skips = ", ".join(f"{n} {reason}" for reason, n in skipped.items())
    lines = [
        f"{safe_name(stats['repo'])}: {plural(stats['files_indexed'], 'file')}"
        + (f" (skipped {skips}; -vv lists them)" if skips else "")
        + f", {plural(stats['chunks'], 'chunk')}",
    ]
    if stats["embedder"] == "none":
        lines.append("embedder: none (BM25 only)")
    else:
        lines.append(
            f"embedder: {stats['embedder']}: {plural(stats['chunks_embedded'], 'chunk')}"
            f" embedded, {stats['chunks_reused']:,} reused"
        )
    seconds = stats["seconds"]
    how = "loaded from cache" if stats["cache_hit"] else "built"
    phases = ", ".join(f"{k} {v:.2f}s" for k, v in seconds.items() if k != "total" and v)
    lines.append(f"index {how} in {seconds['total']:.2f}s" + (f" ({phases})" if phases else ""))
    lines.append(f"cache: {safe_name(stats['cache_path'])}")
    return "\n".join(lines)
