"""The served repositories: the only ones a client can ask about, named by id, never by path.

A client sends a repository *id* (``GET /v1/repos`` lists them); anything else — a path, a
``..``, a URL — is refused. A file a client asks to see (a cited source) is looked up under a
served repository with every component checked: no absolute path, no ``..``, no symlink.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from codeagent.errors import CodeAgentError, RepoNotFoundError
from codeagent.repo.listing import is_listed

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_LINES = 2000


class RequestError(CodeAgentError):
    """A client's request is refused; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class ServedRepo:
    id: str
    root: Path
    url: str | None = None  # the git URL it is a clone of (fetched on a schedule)

    def to_json(self) -> dict[str, str]:
        found = {"id": self.id, "name": self.root.name, "root": str(self.root)}
        return {**found, "url": self.url} if self.url else found


def make_ids(
    roots: list[Path], names: list[str | None] | None = None, urls: list[str | None] | None = None
) -> list[ServedRepo]:
    """One id per root: its name (default: its directory's) made safe, ``-2``, ``-3``... on
    a clash."""
    served: list[ServedRepo] = []
    taken: set[str] = set()
    for i, root in enumerate(roots):
        given = (names[i] if names else None) or root.name
        base = re.sub(r"[^A-Za-z0-9_.-]+", "-", given).strip("-.") or "repo"
        base = base[:56]
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name)
        served.append(ServedRepo(name, root, urls[i] if urls else None))
    return served


def serve_roots(specs: list[str]) -> list[Path]:
    """The directories given to ``serve --repo``, resolved; each must exist and be unique."""
    roots: list[Path] = []
    for spec in specs:
        path = Path(spec).expanduser()
        if not path.is_dir():
            raise RepoNotFoundError(f"no such directory: {path}")
        resolved = path.resolve()
        if resolved not in roots:
            roots.append(resolved)
    return roots


def pick(served: dict[str, ServedRepo], name: object) -> ServedRepo:
    """The served repository a client named; a single served one when it named none."""
    if name is None or name == "":
        if len(served) == 1:
            return next(iter(served.values()))
        raise RequestError("name a repository: `repo` is one of " + ", ".join(sorted(served)))
    if not isinstance(name, str) or not ID_PATTERN.match(name) or ".." in name:
        raise RequestError(
            "`repo` must be the id of a served repository (see list_repositories or GET /v1/repos)"
        )
    repo = served.get(name)
    if repo is None:
        raise RequestError(
            f"no served repository {name!r} (see list_repositories or GET /v1/repos)", status=404
        )
    return repo


def safe_file(repo: ServedRepo, rel: object) -> Path:
    """``rel`` inside ``repo``: relative, no ``..``, no symlink anywhere on the way, a file."""
    if not isinstance(rel, str) or not rel or "\x00" in rel or "\\" in rel or "://" in rel:
        raise RequestError("`path` must be a file path relative to the repository")
    parts = PurePosixPath(rel).parts
    if PurePosixPath(rel).is_absolute() or any(p in ("..", ".") for p in parts):
        raise RequestError("`path` must be relative and must not contain `..`")
    current = repo.root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise RequestError(f"{rel} is a symbolic link; it is not shown", status=403)
    if not current.is_file():
        raise RequestError(f"no file {rel} in {repo.id}", status=404)
    return current


def read_lines(
    repo: ServedRepo, rel: object, start: int, end: int, indexed: set[str]
) -> dict[str, object]:
    """Lines ``start``..``end`` (1-based, inclusive, at most MAX_LINES) of a served file; only
    files the index holds (so never ``.git/``, an ignored ``.env`` or a skipped binary) and
    that are not ignored now (an index built before a ``.gitignore`` rule still holds them)."""
    path = safe_file(repo, rel)
    if rel not in indexed:
        raise RequestError(f"{rel} is not an indexed file of {repo.id}", status=404)
    if not is_listed(repo.root, rel):  # ignored since the index was built: the rules on disk win
        raise RequestError(f"{rel} is ignored now in {repo.id}; it is not shown", status=404)
    if start < 1 or end < start:
        raise RequestError("need 1 <= start <= end")
    end = min(end, start + MAX_LINES - 1)
    try:
        lines = []
        with path.open(encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                if number > end:
                    break
                if number >= start:
                    lines.append(line.rstrip("\n"))
    except OSError as exc:
        raise RequestError(f"cannot read {rel}: {exc.strerror}", status=404) from exc
    return {"repo": repo.id, "path": rel, "start_line": start, "lines": lines}
