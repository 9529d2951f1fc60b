"""The one way codeagent runs git (reading a repository, cloning one): a subprocess with no
shell, no prompts, and nothing the repository's own configuration can make git execute.

A repository that arrives with its ``.git`` folder (an archive, a shared disk) carries its
own ``.git/config``. Read-only commands such as ``ls-files`` and ``diff`` run the command
named by ``core.fsmonitor`` and the ``clean`` command of any ``filter.<driver>``; every call
here turns those off, so asking about a repository never runs code from it.

``subprocess`` directly, not gitpython's command wrapper: importing gitpython costs a fresh
process about 90 ms and a ``git version`` run, for the same ``Popen`` underneath.
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from codeagent.errors import GitError

log = logging.getLogger(__name__)

TIMEOUT_S = 120.0
# Read-only use: no fsmonitor hook, no pager, no prompt for credentials.
SAFE_OPTIONS = ("-c", "core.fsmonitor=false", "-c", "core.pager=cat", "--no-optional-locks")
_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "LANGUAGE": "C"}


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
    if not os.access(cwd, os.X_OK):  # said plainly, not as an OSError from the subprocess
        raise GitError(f"{label}: permission denied", status=None)
    try:
        done = subprocess.run(
            ["git", *SAFE_OPTIONS, *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            env={**os.environ, **_ENV, **(env or {})},
            check=False,
        )
    except FileNotFoundError as exc:
        raise GitError("git is not installed", status=None) from exc
    except subprocess.TimeoutExpired as exc:  # killed: the time limit
        raise GitError(f"{label}: no answer within {timeout:g} s", status=None) from exc
    except OSError as exc:
        raise GitError(f"{label}: {exc}", status=None) from exc
    status, stdout = done.returncode, done.stdout
    stderr_text = done.stderr.decode("utf-8", "replace")
    if status != 0:
        stderr = stderr_text.strip()
        message = (stderr.splitlines() or ["git failed"])[-1]
        raise GitError(
            f"git {' '.join(args)} in {cwd}: {message}",
            status=status if status > 0 else None,  # negative: killed by a signal
            stderr=stderr,
        )
    return stdout


def git_text(
    cwd: Path, *args: str, timeout: float | None = TIMEOUT_S, env: Mapping[str, str] | None = None
) -> str:
    """``git ARGS`` output as text, surrounding whitespace stripped."""
    return os.fsdecode(run_git(cwd, *args, timeout=timeout, env=env)).strip()


def git_paths(cwd: Path, *args: str) -> list[str]:
    """``git ARGS -z``: the NUL-separated output as paths (:func:`split_paths`)."""
    return split_paths(run_git(cwd, *args, "-z"))


def split_paths(raw: bytes) -> list[str]:
    """git's NUL-separated (``-z``) output as paths, undecodable bytes kept as surrogates (as
    :func:`os.fsdecode` does)."""
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
