"""The one way codeagent runs git (reading a repository, cloning one): gitpython's command
wrapper (``git.cmd.Git.execute``: a subprocess, no shell), no prompts, and nothing the
repository's own configuration can make git execute.

A repository that arrives with its ``.git`` folder (an archive, a shared disk) carries its
own ``.git/config``. Read-only commands such as ``ls-files`` and ``diff`` run the command
named by ``core.fsmonitor`` and the ``clean`` command of any ``filter.<driver>``; every call
here turns those off, so asking about a repository never runs code from it.

gitpython is imported inside :func:`run_git` (it runs ``git version`` when imported): paths
that never call git do not pay for it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path

from codeagent.errors import GitError

log = logging.getLogger(__name__)

TIMEOUT_S = 120.0
# Read-only use: no fsmonitor hook, no pager, no prompt for credentials.
SAFE_OPTIONS = ("-c", "core.fsmonitor=false", "-c", "core.pager=cat", "--no-optional-locks")
_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}


def run_git(
    cwd: Path,
    *args: str,
    timeout: float | None = TIMEOUT_S,
    env: Mapping[str, str] | None = None,
) -> bytes:
    """``git ARGS`` in ``cwd``: its stdout; :class:`GitError` when git fails or is missing.
    ``timeout`` None waits as long as git takes (a clone); ``env`` adds variables."""
    label = f"git {args[0] if args else ''} in {cwd}"
    if not Path(cwd).is_dir():
        raise GitError(f"no such directory: {cwd}", status=None)
    if not os.access(cwd, os.X_OK):  # gitpython would run git in the current folder instead
        raise GitError(f"{label}: permission denied", status=None)
    try:
        from git.cmd import Git
        from git.exc import GitCommandNotFound
    except ImportError as exc:  # gitpython checks for a git executable when imported
        raise GitError("git is not installed", status=None) from exc
    try:
        status, stdout, stderr_text = Git(cwd).execute(
            ["git", *SAFE_OPTIONS, *args],
            with_extended_output=True,
            with_exceptions=False,
            stdout_as_string=False,
            strip_newline_in_stdout=False,
            kill_after_timeout=timeout,
            env={**_ENV, **(env or {})},
        )
    except GitCommandNotFound as exc:
        raise GitError("git is not installed", status=None) from exc
    except OSError as exc:
        raise GitError(f"{label}: {exc}", status=None) from exc
    if status != 0:
        stderr = stderr_text.strip()
        message = (stderr.splitlines() or ["git failed"])[-1]
        raise GitError(
            f"git {' '.join(args)} in {cwd}: {message}",
            status=status if status > 0 else None,  # negative: killed (the time limit)
            stderr=stderr,
        )
    assert isinstance(stdout, bytes)
    return stdout


def git_text(
    cwd: Path, *args: str, timeout: float | None = TIMEOUT_S, env: Mapping[str, str] | None = None
) -> str:
    """``git ARGS`` output as text, surrounding whitespace stripped."""
    return os.fsdecode(run_git(cwd, *args, timeout=timeout, env=env)).strip()


def git_paths(cwd: Path, *args: str) -> list[str]:
    """``git ARGS -z``: the NUL-separated output as paths (undecodable bytes kept as
    surrogates, as :func:`os.fsdecode` does)."""
    raw = run_git(cwd, *args, "-z")
    return [os.fsdecode(item) for item in raw.split(b"\0") if item]


def filter_overrides(cwd: Path) -> list[str]:
    """``-c`` options that empty every filter driver the repository's config defines, so
    hashing the work tree (``git diff``) runs none of their commands."""
    try:
        raw = git_text(cwd, "config", "--name-only", "--get-regexp", r"^filter\.")
    except GitError:  # status 1: no filter configured
        return []
    options: list[str] = []
    for key in dict.fromkeys(raw.splitlines()):
        driver, _, field = key.rpartition(".")
        if field in {"clean", "smudge", "process"}:
            options += ["-c", f"{driver}.{field}="]
    return options


def git_toplevel(root: Path) -> Path | None:
    """The top of the work tree ``root`` is in, or None outside git (or when git is unusable,
    or when the outer repository ignores ``root``: a clone inside an ignored folder)."""
    try:
        top = Path(git_text(root, "rev-parse", "--show-toplevel")).resolve()
    except GitError:  # not in a work tree, a bare repository, or no git
        return None
    if top == root:
        return top
    try:
        run_git(root, "check-ignore", "-q", str(root))
    except GitError as exc:
        if exc.status == 1:  # not ignored
            return top
        log.warning("git unusable in %s, walking the directory instead: %s", root, exc)
    return None
