"""``codeagent serve --repos FILE``: the repositories to serve, one a line.

A line is a directory (absolute, ``~``, or relative to the file's own directory) or a git URL
(``https://``, ``ssh://``, ``git://``, ``file://``, ``user@host:path``). Blank lines and lines
starting with ``#`` are skipped; a ``#`` after a space starts a comment too. A URL is cloned
under ``CODEAGENT_HOME/repos/<name>-<hash>`` (:func:`codeagent.repo.remote.resolve_repo`) and
fetched again on a schedule (:mod:`codeagent.server.fetching`). Any line that is neither, or
a directory that is missing, or a URL that cannot be cloned, stops the server with one line
naming ``FILE:LINE``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from codeagent.config import Settings
from codeagent.errors import CodeAgentError, ConfigError, one_line

_URL_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class RepoLine:
    """One entry of a repositories file: where it was written and what it says."""

    file: Path
    number: int
    spec: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.number}"

    @property
    def is_url(self) -> bool:
        from codeagent.repo.remote import is_remote

        return is_remote(self.spec)


@dataclass(frozen=True)
class RepoEntry:
    """A repository to serve: its directory, the URL it is a clone of (None: a local
    directory), and the name its id is made from."""

    root: Path
    url: str | None = None
    name: str | None = None


def read_repo_lines(path: Path) -> list[RepoLine]:
    """The entries of ``path`` (comments and blank lines left out); a bad line raises
    :class:`ConfigError` naming ``FILE:LINE``."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--repos {path}: cannot read it: {one_line(exc)}") from exc
    lines: list[RepoLine] = []
    for number, raw in enumerate(text.splitlines(), 1):
        spec = re.split(r"(?:^|\s)#", raw, maxsplit=1)[0].strip()
        if not spec:
            continue
        line = RepoLine(path, number, spec)
        if any(c.isspace() for c in spec) or "\x00" in spec:
            raise ConfigError(f"{line.where}: one path or git URL a line, not {spec!r}")
        if "://" in spec and not line.is_url:
            raise ConfigError(f"{line.where}: not a git URL this server can fetch: {spec!r}")
        lines.append(line)
    if not lines:
        raise ConfigError(f"--repos {path}: no repositories in it")
    return lines


def url_name(url: str) -> str:
    """The readable name of a URL's repository: its last path part without ``.git``."""
    tail = re.split(r"[/:]", url.rstrip("/"))[-1].removesuffix(".git")
    return _URL_NAME.sub("-", tail).strip("-.") or "repo"


def resolve_lines(lines: list[RepoLine], settings: Settings) -> list[RepoEntry]:
    """Each line's directory: a path checked, a URL cloned (or fetched when cloned before)."""
    from codeagent.repo.remote import resolve_repo

    entries: list[RepoEntry] = []
    for line in lines:
        if line.is_url:
            try:
                root = resolve_repo(line.spec, settings)
            except CodeAgentError as exc:
                raise ConfigError(f"{line.where}: {one_line(exc)}") from exc
            entries.append(RepoEntry(root, line.spec, url_name(line.spec)))
            continue
        path = Path(line.spec).expanduser()
        if not path.is_absolute():
            path = line.file.parent / path
        if not path.is_dir():
            raise ConfigError(f"{line.where}: no such directory: {path}")
        entries.append(RepoEntry(path.resolve()))
    return entries


def read_repos_file(path: Path, settings: Settings) -> list[RepoEntry]:
    """The repositories ``serve --repos FILE`` serves, URLs cloned."""
    return resolve_lines(read_repo_lines(path), settings)
