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

from codeagent.errors import GitError
from codeagent.repo.git import git_paths, git_toplevel

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


def untracked_files(root: Path) -> set[str]:
    """The untracked, not ignored files of a git work tree (as :func:`list_files` counts them)."""
    return set(git_paths(root, "ls-files", "-o", "--exclude-standard", *untracked_excludes()))


def _git_files(base: Path) -> list[str] | None:
    if git_toplevel(base) is None:
        return None
    try:
        return git_paths(base, "ls-files", "-co", "--exclude-standard", *untracked_excludes())
    except GitError as exc:
        log.warning("git ls-files failed in %s, walking instead: %s", base, exc)
        return None


def _walk(root: Path) -> Iterator[str]:
    """Files under ``root`` that no ``.gitignore`` on their way excludes, junk dirs pruned."""
    import pathspec

    specs: dict[str, pathspec.GitIgnoreSpec] = {}

    def ignored(rel: str, is_dir: bool) -> bool:
        parts = rel.split("/")
        verdict = False
        for depth in range(len(parts)):
            spec = specs.get("/".join(parts[:depth]))
            if spec is None:
                continue
            include = spec.check_file("/".join(parts[depth:]) + ("/" if is_dir else "")).include
            if include is not None:
                verdict = include
        return verdict

    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        gitignore = Path(dirpath) / ".gitignore"
        if gitignore.is_file() and not gitignore.is_symlink():  # as git: a link is not read
            try:
                lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
                specs[rel_dir] = pathspec.GitIgnoreSpec.from_lines(lines)
            except (OSError, ValueError) as exc:
                log.warning("cannot use %s: %s", gitignore, exc)
        prefix = f"{rel_dir}/" if rel_dir else ""
        kept = []
        for name in sorted(dirnames):
            if name in JUNK_DIRS or ignored(prefix + name, True):
                continue
            if os.path.islink(os.path.join(dirpath, name)):
                yield prefix + name  # a link is listed, never entered
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if not ignored(prefix + name, False):
                yield prefix + name
