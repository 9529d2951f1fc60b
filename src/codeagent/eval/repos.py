"""Where a suite's ``repo`` lives on this machine: the standard library, a mapped local clone or
mirror (``--repo-map``), a clone of a URL at a commit, or a local path.

``stdlib:`` is the directory of the running interpreter's standard library and ``stdlib:NAME``
one package in it (``stdlib:email``), so a suite over real code runs on every machine.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from codeagent.config import Settings
from codeagent.errors import CloneError, EvalError, GitError, RepoNotFoundError
from codeagent.repo.git import git_text

STDLIB_PREFIX = "stdlib:"
_GITHUB = re.compile(
    r"^(?:https?://|ssh://git@|git@)github\.com[/:]([\w.-]+/[\w.-]+?)(?:\.git)?/?$"
)
_OWNER_NAME = re.compile(r"^[\w.-]+/[\w.-]+$")

Resolver = Callable[..., Path]


def stdlib_dir() -> Path:
    """The standard library directory of the running interpreter (where ``json`` lives)."""
    return Path(os.path.dirname(os.path.dirname(json.__file__))).resolve()


def repo_key(spec: str) -> str:
    """A name to match ``--repo-map`` by: ``owner/name`` for GitHub URLs, else the spec itself."""
    spec = spec.strip()
    match = _GITHUB.match(spec)
    if match:
        return match.group(1).lower()
    if _OWNER_NAME.match(spec) and not spec.startswith("."):
        return spec.lower()
    return spec.rstrip("/")


def parse_repo_map(pairs: Iterable[str]) -> dict[str, Path]:
    """``["psf/requests=/src/requests", ...]`` -> ``{"psf/requests": Path(...)}``."""
    mapping: dict[str, Path] = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise EvalError(f"--repo-map expects NAME=PATH, got {pair!r}")
        target = Path(path.strip()).expanduser()
        if not target.exists():
            raise EvalError(f"--repo-map {name.strip()}: {target} does not exist")
        mapping[repo_key(name)] = target.resolve()
    return mapping


def full_commit(git_dir: Path, commit: str) -> str:
    """Expand an abbreviated commit id with the local clone or mirror that holds it."""
    try:
        return git_text(git_dir, "rev-parse", "--verify", f"{commit}^{{commit}}")
    except GitError as exc:
        raise CloneError(str(exc)) from exc


def _stdlib_root(spec: str) -> Path:
    sub = spec.removeprefix(STDLIB_PREFIX).strip("/")
    if ".." in Path(sub).parts:
        raise EvalError(f"repo {spec!r}: a stdlib package name cannot leave the stdlib")
    root = stdlib_dir() / sub if sub else stdlib_dir()
    if not root.is_dir():
        raise RepoNotFoundError(f"repo {spec!r}: {root} is not a directory in this Python")
    return root


def checkout(
    spec: str,
    commit: str | None,
    settings: Settings,
    *,
    repo_map: Mapping[str, Path] | None = None,
    base_dir: Path | None = None,
    resolver: Resolver | None = None,
) -> Path:
    """The directory holding ``spec`` at ``commit``, cloning into the cache when needed."""
    if spec.startswith(STDLIB_PREFIX):
        if commit:
            raise EvalError(f"repo {spec!r} takes no commit")
        return _stdlib_root(spec)
    if resolver is None:
        from codeagent.repo.remote import resolve_repo

        resolver = resolve_repo
    mapped = (repo_map or {}).get(repo_key(spec))
    if mapped is not None:
        local: Path | None = mapped
    elif _GITHUB.match(spec) or "://" in spec or spec.startswith("git@"):
        local = None
    elif _OWNER_NAME.match(spec) and not (base_dir or Path.cwd()).joinpath(spec).exists():
        return resolver(f"https://github.com/{spec}", settings, commit=commit)
    else:
        local = (base_dir or Path.cwd()) / Path(spec).expanduser()
    if local is None:
        return resolver(spec, settings, commit=commit)
    if commit is None:
        return resolver(str(local), settings)
    # A commit of a local clone or mirror (cloned into the cache unless a clean checkout is
    # already there), spelled in full: a shallow fetch cannot find an abbreviated id.
    return resolver(str(local.resolve()), settings, commit=full_commit(local, commit))
