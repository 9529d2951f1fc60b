"""`codeagent watch`: index a repository, then keep its index current while it is edited."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import click

from codeagent.cli.common import dense_option, embed_option
from codeagent.cli.terminal import notice
from codeagent.display import plural, safe_name

if TYPE_CHECKING:
    from codeagent.cancel import CancelToken
    from codeagent.config import Settings
    from codeagent.index.follow import Follower, Update
    from codeagent.index.stats import IndexStats

NAMED = 3  # changed files a line names before it says "…"


@click.command("watch")
@click.option(
    "--repo",
    default=".",
    show_default=True,
    metavar="PATH",
    help="The repository to watch (a local folder).",
)
@embed_option
@dense_option
@click.option(
    "--max-file-bytes",
    type=click.IntRange(min=1),
    default=None,
    help="Skip files larger than this (default 1000000; env CODEAGENT_MAX_FILE_BYTES).",
)
def command(repo: str, embed: str | None, dense: str | None, max_file_bytes: int | None) -> None:
    """Index a repository, then keep the index current as its files change.

    Each burst of saves (or a checkout, a commit) that changes what is indexed becomes one
    update, printed as one line: the files that changed, the chunks embedded, the seconds it
    took and the new state. Files that .gitignore excludes, junk folders and git's objects
    do not count. Questions asked meanwhile (`codeagent ask`) find the index ready.
    Ctrl-C stops.

    \b
    Examples:
      codeagent watch
      codeagent watch --repo ~/src/project --embed none
    """
    from codeagent.cancel import CancelToken, cancellable
    from codeagent.cli.common import Progress
    from codeagent.config import Settings
    from codeagent.embed.embedders import NO_EMBEDDER_NOTICE, make_embedder
    from codeagent.index.follow import Follower
    from codeagent.repo.watch import RepoWatch

    settings = Settings.load(embed=embed, dense=dense, max_file_bytes=max_file_bytes)
    root = local_root(repo, settings)
    watch = RepoWatch(root, ignore=settings.own_dirs)
    embedder = make_embedder(settings.embed, settings)  # one for every update
    if embedder is None and settings.embed.strip() == "auto":
        notice(NO_EMBEDDER_NOTICE)
    follower = Follower(root, settings, watch, embedder)
    with cancellable():  # Ctrl-C stops the first index as it stops `codeagent index`
        stats = follower.first(progress=Progress())
    for line in stats.notices:
        notice(line)
    click.echo(first_line(stats))
    name = safe_name(root.name)
    notice(f"watching {name} for changes (Ctrl-C stops)")
    token = CancelToken()
    with stopping(follower, token), cancellable(token):
        for update in follower.follow():
            if watch.stopped:
                break
            for line in update.notices:
                notice(line)
            click.echo(update_line(update))
    notice(f"stopped watching {name}")


def local_root(spec: str, settings: Settings) -> Path:
    """The folder ``--repo`` names: a local work tree (a URL or a bare repository is refused:
    there is nothing there to edit)."""
    from codeagent.errors import ConfigError
    from codeagent.repo.remote import is_remote, resolve_repo

    if is_remote(spec):
        raise ConfigError(f"codeagent watch needs a local folder, not a URL: {spec}")
    root = resolve_repo(spec, settings)
    if root != Path(spec).expanduser().resolve():
        raise ConfigError(f"codeagent watch needs a work tree, not a bare repository: {spec}")
    return root


@contextmanager
def stopping(follower: Follower, token: CancelToken) -> Iterator[None]:
    """Ctrl-C (SIGINT) or SIGTERM stops the watch (and an update under way, at its next
    check); a second one interrupts at once."""

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        if follower.watch.stopped:
            raise KeyboardInterrupt
        follower.stop()
        token.cancel()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def first_line(stats: IndexStats) -> str:
    how = "loaded from cache" if stats.cache_hit else "built"
    return (
        f"indexed {safe_name(Path(stats.repo).name)}: {plural(stats.files_indexed, 'file')},"
        f" {plural(stats.chunks, 'chunk')}, {how} in {stats.seconds['total']:.2f} s,"
        f" state {stats.state_hash[:12]}"
    )


def update_line(update: Update) -> str:
    """``HH:MM:SS`` and what one update did, on one line."""
    named = ", ".join(safe_name(p) for p in update.changed[:NAMED])
    more = ", …" if len(update.changed) > NAMED else ""
    what = f"{plural(len(update.changed), 'file')} changed ({named}{more})"
    if not update.changed:
        what = "changed"
    when = time.strftime("%H:%M:%S")
    if update.stats is None:
        return f"{when} {what}: not indexed: {update.error}"
    stats = update.stats
    if stats.embedder == "none":
        chunks = f"{plural(stats.chunks, 'chunk')} (BM25 only)"
    else:
        embedded = plural(stats.chunks_embedded, "chunk")
        chunks = f"{embedded} embedded, {stats.chunks_reused:,} reused"
    return f"{when} {what}: {chunks}, {update.seconds:.2f} s, state {stats.state_hash[:12]}"
