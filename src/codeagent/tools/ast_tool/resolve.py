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
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from codeagent.tools.ast_tool.errors import (
    AmbiguousFileError,
    FileNotFoundInRepoError,
    NotAFileError,
    NotPythonError,
    OutsideRepoError,
)

PYTHON_SUFFIXES = (".py", ".pyi")
SKIP_DIRS = frozenset(
    {
        ".git",
        "__pycache__",
        ".venv",
        "venv",
        "node_modules",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
    }
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
        target = Path(raw).resolve()
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
    if not norm.endswith(PYTHON_SUFFIXES):
        rules.append([norm + ".py", norm + "/__init__.py"])
        if "/" not in norm and "." in norm:
            dotted = norm.replace(".", "/")
            rules.append([dotted + ".py", dotted + "/__init__.py"])
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
    resolved = target.resolve()
    if not resolved.is_relative_to(base):
        raise OutsideRepoError(
            f"refusing {rel}: a symlink leading outside the repository", path=rel
        )
    if resolved.is_dir():
        raise NotAFileError(f"{rel} is a directory, not a file", path=rel)
    if not resolved.is_file():
        raise NotAFileError(f"{rel} is not a regular file", path=rel)
    if not rel.endswith(PYTHON_SUFFIXES):
        raise NotPythonError(f"{rel} is not a Python file (.py or .pyi)", path=rel)


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
    files = _git_files(base)
    if not files:  # not a git repository, or one whose ignore rules cover this whole folder
        files = _walk_files(base)
    by_name: dict[str, list[str]] = {}
    for f in files:
        by_name.setdefault(f.rpartition("/")[2], []).append(f)
    listing = _Listing(now, mtime, files, by_name)
    _listings[base] = listing
    return listing


def _git_files(base: Path) -> tuple[str, ...] | None:
    try:
        proc = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=base,
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    names = proc.stdout.decode("utf-8", "surrogateescape").split("\0")
    return tuple(sorted(n for n in names if n))


def _walk_files(base: Path) -> tuple[str, ...]:
    import pathspec

    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(base):
        rel_dir = Path(dirpath).relative_to(base).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        ignore_file = Path(dirpath) / ".gitignore"
        if ignore_file.is_file():
            try:
                lines = ignore_file.read_text(encoding="utf-8", errors="replace").splitlines()
                specs.append((prefix, pathspec.GitIgnoreSpec.from_lines(lines)))
            except OSError:
                pass

        def ignored(rel: str, specs: list[tuple[str, pathspec.GitIgnoreSpec]] = specs) -> bool:
            return any(rel.startswith(p) and s.match_file(rel[len(p) :]) for p, s in specs)

        dirnames[:] = sorted(
            d for d in dirnames if d not in SKIP_DIRS and not ignored(prefix + d + "/")
        )
        found.extend(prefix + f for f in filenames if not ignored(prefix + f))
    return tuple(sorted(found))
