"""Resolve a file name to a Python file inside the repository, and nowhere else.

Order: the exact relative (or absolute, inside the root) path; else a unique match on a
path-component boundary among the repository's files, trying in turn the name as given, the
name plus ``.py`` / ``/__init__.py``, and a dotted module name (``requests.models`` ->
``requests/models.py`` or ``requests/models/__init__.py``, found under ``src/`` too).
The first rule that matches anything decides: one match is the answer, several are an
:class:`AmbiguousFileError` listing them.
"""

from __future__ import annotations

import os
import posixpath
import time
from dataclasses import dataclass
from pathlib import Path

from codeagent.lang import PYTHON_AST, specs, suffixes_read_by
from codeagent.repo.listing import list_files
from codeagent.tools.ast_tool.errors import (
    AmbiguousFileError,
    FileNotFoundInRepoError,
    NotAFileError,
    NotPythonError,
    OutsideRepoError,
)

_LIST_TTL_S = 30.0


_listings: dict[Path, _Listing] = {}


def resolve_file(root: Path, name: str) -> Path:
    """Return the absolute, resolved path of the Python file ``name`` names inside ``root``."""
    return root.resolve() / relative_path(root, name)


def relative_path(root: Path, name: str) -> str:
    """Like :func:`resolve_file`, but the POSIX path relative to the root."""
    base = root.resolve()
    rel = _exact(base, name)
    if rel is not None and (base / rel).is_dir() and not (base / rel).is_symlink():
        try:  # `app/models` names app/models.py or app/models/__init__.py, not the folder
            rel = _by_suffix(base, name)
        except FileNotFoundInRepoError:
            raise NotAFileError(f"{rel} is a directory, not a file", path=rel) from None
    elif rel is None:
        rel = _by_suffix(base, name)
    _check_file(base, rel)
    return rel


def _exact(base: Path, name: str) -> str | None:
    raw = name.strip().replace("\\", "/")
    if not raw:
        raise FileNotFoundInRepoError("no file name given")
    if os.path.isabs(raw):
        try:
            target = Path(raw).resolve()
        except (RuntimeError, OSError) as exc:  # a symlink loop
            raise NotAFileError(f"{name!r} cannot be resolved: {exc}", path=name) from None
        if not target.is_relative_to(base):
            raise OutsideRepoError(f"refusing {name!r}: it is outside the repository")
        if not target.exists():
            raise FileNotFoundInRepoError(f"file {name!r} does not exist", path=name)
        return target.relative_to(base).as_posix() or "."
    norm = posixpath.normpath(raw)
    if norm == ".." or norm.startswith("../"):
        raise OutsideRepoError(f"refusing {name!r}: it leads outside the repository")
    candidate = base / norm
    if candidate.exists() or candidate.is_symlink():
        return norm
    return None


def _patterns(name: str) -> list[list[str]]:
    """Suffix patterns to try, one list per rule, in order."""
    norm = posixpath.normpath(name.strip().replace("\\", "/"))
    rules = [[norm]]
    if not norm.endswith(suffixes_read_by(PYTHON_AST)):
        for spec in specs():
            if spec.structure == PYTHON_AST and spec.module_paths is not None:
                rules += spec.module_paths(norm)
    return rules


def _by_suffix(base: Path, name: str) -> str:
    for fresh in (False, True):
        listing = _listing(base, fresh=fresh)
        for rule in _patterns(name):
            found = {
                f
                for p in rule
                for f in listing.by_name.get(p.rpartition("/")[2], ())
                if f == p or f.endswith("/" + p)
            }
            matches = sorted(f for f in found if (base / f).exists() or (base / f).is_symlink())
            if len(matches) == 1:
                return matches[0]
            if matches:
                shown = ", ".join(matches[:10]) + (", ..." if len(matches) > 10 else "")
                raise AmbiguousFileError(
                    f"file name {name!r} is ambiguous: {len(matches)} files match ({shown}); "
                    "give more of the path",
                    candidates=matches,
                )
    raise FileNotFoundInRepoError(f"no file matching {name!r} in the repository", path=name)


def _check_file(base: Path, rel: str) -> None:
    target = base / rel
    try:
        resolved = target.resolve()
    except (RuntimeError, OSError) as exc:  # a symlink loop (RuntimeError before 3.13)
        raise NotAFileError(
            f"{rel} is a symlink that cannot be resolved: {exc}", path=rel
        ) from None
    if not resolved.is_relative_to(base):
        raise OutsideRepoError(
            f"refusing {rel}: a symlink leading outside the repository", path=rel
        )
    if resolved.is_dir():
        raise NotAFileError(f"{rel} is a directory, not a file", path=rel)
    if not resolved.is_file():
        raise NotAFileError(f"{rel} is not a regular file", path=rel)
    if not rel.endswith(suffixes_read_by(PYTHON_AST)):
        suffixes = ", ".join(suffixes_read_by(PYTHON_AST))
        raise NotPythonError(f"{rel} is not a Python file ({suffixes})", path=rel)


@dataclass(frozen=True)
class _Listing:
    when: float
    mtime: float
    files: tuple[str, ...]
    by_name: dict[str, list[str]]


def repo_files(root: Path, *, fresh: bool = False) -> tuple[str, ...]:
    """The repository's files (POSIX, relative to the root), cached per root for a while."""
    return _listing(root.resolve(), fresh=fresh).files


def _listing(base: Path, *, fresh: bool) -> _Listing:
    """The file list and a file-name index of it. A cached list older than the TTL, or
    taken before the root folder changed, is refreshed; a failed lookup retries fresh."""
    now = time.monotonic()
    try:
        mtime = base.stat().st_mtime
    except OSError:
        return _Listing(now, 0.0, (), {})
    cached = _listings.get(base)
    if not fresh and cached and now - cached.when < _LIST_TTL_S and cached.mtime == mtime:
        return cached
    files = list_files(base).paths
    by_name: dict[str, list[str]] = {}
    for f in files:
        by_name.setdefault(f.rpartition("/")[2], []).append(f)
    listing = _Listing(now, mtime, files, by_name)
    _listings[base] = listing
    return listing
