"""The one list of a repository's files, shared by indexing, AST name resolution and eval.

In a git work tree the files are ``git ls-files -co --exclude-standard`` (tracked plus
untracked-but-not-ignored; untracked junk such as ``.venv`` or ``node_modules`` left out); a
directory that is not in git, or that its outer repository ignores, is walked honouring every
``.gitignore`` on the way (junk directories and ``.git`` pruned, symlinked directories listed
but not entered). Paths are POSIX, relative to the resolved root, sorted. A name that is not
valid UTF-8 is left out and counted (``bad_names``): it could be neither stored in the index
nor printed, so neither indexing nor name resolution sees it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codeagent.errors import GitError
from codeagent.repo.git import git_paths, git_toplevel, split_paths
from codeagent.repo.index_copy import run_git_on_copy

log = logging.getLogger(__name__)

# Junk directories skipped outside git, and for untracked files inside it (tracked ones stay).
JUNK_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".tox", ".nox",
        ".mypy_cache", ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints", ".eggs",
    }
)  # fmt: skip


@dataclass(frozen=True)
class FileList:
    """The candidate files of one root."""

    root: Path  # resolved
    paths: tuple[str, ...]
    is_git: bool
    bad_names: int = 0  # names left out because they are not valid UTF-8


def list_files(root: Path) -> FileList:
    """Every file of the repository at ``root`` (a directory), as the module notes describe."""
    base = Path(root).resolve()
    paths = _git_files(base)
    is_git = paths is not None
    if paths is None:
        paths = list(_walk(base))
    safe = {p for p in paths if p and not p.startswith("/") and ".." not in p.split("/")}
    clean = {p for p in safe if _is_utf8(p)}
    return FileList(base, tuple(sorted(clean)), is_git, bad_names=len(safe) - len(clean))


def _is_utf8(path: str) -> bool:
    """Whether the name decoded cleanly (undecodable bytes come back as lone surrogates)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def untracked_excludes() -> list[str]:
    """``ls-files`` options that keep untracked junk directories out."""
    return [f"--exclude={name}/" for name in sorted(JUNK_DIRS)]


def untracked_files(root: Path, index_copies: Path | None = None) -> set[str]:
    """The untracked, not ignored files of a git work tree (as :func:`list_files` counts them);
    ``index_copies``: git's index read from a refreshed copy kept there
    (:mod:`codeagent.repo.index_copy`)."""
    args = ("ls-files", "-o", "--exclude-standard", *untracked_excludes(), "-z")
    return set(split_paths(run_git_on_copy(root, index_copies, *args)))


def _git_files(base: Path, *specs: str) -> list[str] | None:
    """git's listing of ``base`` (only the paths ``specs`` match, when given); None outside
    git or when git fails (the caller then reads the ``.gitignore`` files itself)."""
    if git_toplevel(base) is None:
        return None
    try:
        return git_paths(
            base, "ls-files", "-co", "--exclude-standard", *untracked_excludes(), *specs
        )
    except GitError as exc:
        log.warning("git ls-files failed in %s, reading .gitignore files instead: %s", base, exc)
        return None


def is_listed(root: Path, rel: str) -> bool:
    """Whether ``rel`` (POSIX, relative) is one of :func:`list_files`'s files of ``root`` now,
    by the ignore rules on disk at this moment (for a request that must not show a file made
    ignored after the index that holds it was built); one path's check, not a listing."""
    base = Path(root).resolve()
    # no `--` (git_paths puts -z last); a pathspec that starts with `:` is never an option
    found = _git_files(base, f":(literal){rel}")
    if found is not None:
        return rel in found
    parts = rel.split("/")
    ignores = _Ignores()
    for depth in range(len(parts)):
        rel_dir = "/".join(parts[:depth])
        ignores.read(rel_dir, base / rel_dir if rel_dir else base)
        name = parts[depth]
        is_dir = depth < len(parts) - 1
        if (is_dir and name in JUNK_DIRS) or ignores.ignored("/".join(parts[: depth + 1]), is_dir):
            return False
    return (base / rel).is_file()


class _Ignores:
    """The ``.gitignore`` rules met on the way down a walk, by the directory that holds them."""

    def __init__(self) -> None:
        self.specs: dict[str, Any] = {}  # relative directory -> pathspec.GitIgnoreSpec

    def read(self, rel_dir: str, directory: Path) -> None:
        """Take in ``directory``'s ``.gitignore`` (not a link: git does not read one)."""
        import pathspec

        gitignore = directory / ".gitignore"
        if gitignore.is_file() and not gitignore.is_symlink():
            try:
                lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
                self.specs[rel_dir] = pathspec.GitIgnoreSpec.from_lines(lines)
            except (OSError, ValueError) as exc:
                log.warning("cannot use %s: %s", gitignore, exc)

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Whether the rules read so far exclude ``rel`` (the deepest rule that speaks wins)."""
        parts = rel.split("/")
        verdict = False
        for depth in range(len(parts)):
            spec = self.specs.get("/".join(parts[:depth]))
            if spec is None:
                continue
            include = spec.check_file("/".join(parts[depth:]) + ("/" if is_dir else "")).include
            if include is not None:
                verdict = include
        return verdict


def _walk(root: Path) -> Iterator[str]:
    """Files under ``root`` that no ``.gitignore`` on their way excludes, junk dirs pruned."""
    ignores = _Ignores()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        ignores.read(rel_dir, Path(dirpath))
        prefix = f"{rel_dir}/" if rel_dir else ""
        kept = []
        for name in sorted(dirnames):
            if name in JUNK_DIRS or ignores.ignored(prefix + name, True):
                continue
            if os.path.islink(os.path.join(dirpath, name)):
                yield prefix + name  # a link is listed, never entered
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if not ignores.ignored(prefix + name, False):
                yield prefix + name
