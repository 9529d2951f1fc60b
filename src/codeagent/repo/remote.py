"""Turn a repository spec (a local path or a git URL) into a local directory to index.

A URL is cloned shallowly (``--depth 1``) into ``settings.repos_dir/<slug>`` and fetched, not
re-cloned, on later calls. With ``commit``, that commit is fetched (by sha, falling back to a
full fetch when the server refuses) and checked out detached. A local bare repository, or a
local checkout that is not at the requested commit, is cloned the same way, so the user's own
checkout is never modified. New clones are made in a temporary directory and renamed into
place; a file lock per slug keeps two processes from working on one clone at once. Clones are
shared between commits: callers that need two commits of one repository at the same time
should not rely on one clone.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import time
import uuid
from pathlib import Path

from codeagent.config import Settings
from codeagent.errors import CloneError, GitError, RepoNotFoundError
from codeagent.home import make_private_dir, write_error, writing
from codeagent.repo.git import filter_overrides, git_text

log = logging.getLogger(__name__)

LOCK_TIMEOUT_S = 600
# A server that stops sending: git gives up after LOW_SPEED_TIME s below LOW_SPEED_LIMIT B/s
# (http and https); every transport is held to ``Settings.clone_timeout`` in all.
LOW_SPEED_LIMIT = 1000
LOW_SPEED_TIME = 30
_SCP_LIKE = re.compile(r"^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:")
_SCHEMES = ("https://", "http://", "ssh://", "git://", "file://")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def is_remote(spec: str) -> bool:
    """Whether ``spec`` is a git URL (https, http, ssh, git, file, or ``user@host:path``)."""
    return spec.lower().startswith(_SCHEMES) or bool(_SCP_LIKE.match(spec))


def resolve_repo(spec: str, settings: Settings, *, commit: str | None = None) -> Path:
    """A local directory holding ``spec`` (at ``commit`` when given); see the module notes."""
    if is_remote(spec):
        return _sync_clone(spec, _url_slug(spec), settings, commit)
    path = Path(spec).expanduser()
    if not path.exists():
        raise RepoNotFoundError(f"no such directory: {path}")
    if not path.is_dir():
        raise RepoNotFoundError(f"not a directory: {path}")
    path = path.resolve()
    kind = _local_kind(path)
    if kind == "bare" or (commit is not None and not _checkout_is_at(path, commit, kind)):
        if kind == "none":
            raise CloneError(f"not the top of a git repository, so no commit to check out: {path}")
        return _sync_clone(str(path), _path_slug(path), settings, commit)
    return path


def _url_slug(url: str) -> str:
    """``host_owner_name-<10 hex>`` from the URL's last three parts."""
    readable = re.sub(r"^[a-z+]+://", "", url.lower()).split("@", 1)[-1]
    readable = re.sub(r":\d*/", "/", readable).replace(":", "/")
    parts = [p for p in readable.removesuffix("/").removesuffix(".git").split("/") if p]
    name = _UNSAFE.sub("_", "_".join(parts[-3:])).strip("._")
    digest = hashlib.sha256(url.encode()).hexdigest()[:10]
    return f"{name[:60] or 'repo'}-{digest}"


def _path_slug(path: Path) -> str:
    """``parent_name-<10 hex>`` from a local path (a mirror is often just ``repo.git``)."""
    parts = [p.removesuffix(".git") for p in path.parts[-2:]]
    name = _UNSAFE.sub("_", "_".join(p for p in parts if p.strip("/"))).strip("._")
    digest = hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"{name[:60] or 'repo'}-{digest}"


def _local_kind(path: Path) -> str:
    """``worktree`` (``path`` is its top level), ``bare`` (``path`` is the git dir), or ``none``."""
    try:
        out = git_text(path, "rev-parse", "--is-bare-repository", "--absolute-git-dir")
        bare, git_dir = out.split("\n", 1)
        if bare == "true":
            return "bare" if Path(git_dir).resolve() == path else "none"
        top = git_text(path, "rev-parse", "--show-toplevel")
    except (GitError, ValueError):
        return "none"
    return "worktree" if Path(top).resolve() == path else "none"


def _checkout_is_at(path: Path, commit: str, kind: str) -> bool:
    """Whether the checkout at ``path`` is clean and its HEAD is ``commit``."""
    if kind != "worktree":
        return False
    try:
        wanted = git_text(path, "rev-parse", "--verify", "-q", f"{commit}^{{commit}}")
        head = git_text(path, "rev-parse", "--verify", "-q", "HEAD")
        # a racily clean entry is hashed: no filter driver of the repository's config runs
        changes = git_text(
            path, *filter_overrides(path), "status", "--porcelain", "--untracked-files=no"
        )
    except GitError:
        return False
    return wanted == head and not changes


def _sync_clone(source: str, slug: str, settings: Settings, commit: str | None) -> Path:
    """Create or update the clone of ``source`` in ``repos_dir/slug`` under a file lock."""
    from filelock import FileLock, Timeout  # only a clone needs it

    repos = settings.repos_dir
    dest = repos / slug
    limit = _Limit(settings.clone_timeout)
    try:
        with writing(settings.home, "a clone"):
            make_private_dir(repos)
            (repos / ".locks").mkdir(exist_ok=True)
        with FileLock(str(repos / ".locks" / f"{slug}.lock"), timeout=LOCK_TIMEOUT_S):
            for stale in repos.glob(f".tmp-{slug}-*"):  # left by a killed process
                shutil.rmtree(stale, ignore_errors=True)
            if _is_clone(dest):
                log.info("updating %s in %s", source, dest)
                for name in ("index.lock", "shallow.lock"):  # left by a killed git
                    (dest / ".git" / name).unlink(missing_ok=True)
                _checkout(dest, commit, limit)
            else:
                shutil.rmtree(dest, ignore_errors=True)
                _fresh_clone(source, dest, commit, limit)
    except CloneError as exc:
        raise CloneError(f"cannot clone {source}: {exc}") from exc
    except Timeout as exc:
        raise CloneError(f"another process holds the clone lock for {source}; try again") from exc
    except GitError as exc:
        where = f" at {commit}" if commit else ""
        raise CloneError(f"cannot clone {source}{where}: {_last_stderr_line(exc)}") from exc
    except OSError as exc:  # the lock file or the clone folder cannot be written
        raise write_error(settings.home, "a clone", exc) from exc
    return dest.resolve()


class _Limit:
    """The time left for one clone or update, shared by its git commands."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self.exceeded()
        return left

    def exceeded(self) -> CloneError:
        return CloneError(
            f"the server did not finish within {self.seconds:g} s"
            " (CODEAGENT_CLONE_TIMEOUT sets the limit)"
        )


def _fresh_clone(source: str, dest: Path, commit: str | None, limit: _Limit) -> None:
    tmp = dest.parent / f".tmp-{dest.name}-{uuid.uuid4().hex[:8]}"
    log.info("cloning %s into %s", source, dest)
    try:
        tmp.mkdir()
        _git(tmp, limit, "init", "-q")
        _git(tmp, limit, "remote", "add", "origin", source)
        _checkout(tmp, commit, limit)
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _checkout(clone: Path, commit: str | None, limit: _Limit) -> None:
    """Fetch what is wanted (HEAD of origin, or ``commit``) shallowly; check it out detached."""
    depth = ["--depth", "1"]
    if commit is None:
        _git(clone, limit, "fetch", "-q", *depth, "origin", "HEAD")
        target = "FETCH_HEAD"
    else:
        target = _local_commit(clone, commit, limit) or _fetch_commit(clone, commit, depth, limit)
    checkout = ("-c", "advice.detachedHead=false", "checkout", "-q", "-f", "--detach", target)
    _git(clone, limit, *checkout)
    _git(clone, limit, "clean", "-ffdq")


def _local_commit(clone: Path, commit: str, limit: _Limit) -> str | None:
    try:
        return _git(clone, limit, "rev-parse", "--verify", "-q", f"{commit}^{{commit}}")
    except GitError:
        return None


def _fetch_commit(clone: Path, commit: str, depth: list[str], limit: _Limit) -> str:
    try:
        _git(clone, limit, "fetch", "-q", *depth, "origin", commit)
        return "FETCH_HEAD"
    except GitError as exc:
        # Servers refuse abbreviated (and some unadvertised) shas: fetch the history instead.
        log.info("fetching %s by sha failed (%s); fetching full history", commit, exc.stderr)
    shallow = _git(clone, limit, "rev-parse", "--is-shallow-repository") == "true"
    refs = "+refs/heads/*:refs/remotes/origin/*"
    unshallow = ["--unshallow"] if shallow else []
    _git(clone, limit, "fetch", "-q", "--tags", *unshallow, "origin", refs)
    found = _local_commit(clone, commit, limit)
    if found is None:
        raise CloneError(f"commit {commit} not found in the repository")
    return found


def _git(clone: Path, limit: _Limit, *args: str) -> str:
    """git in a clone of codeagent's: within the time ``limit`` leaves (a server that stops
    answering is given up on), SSH never prompts, and Git LFS (when installed) does not
    download what the repository's attributes ask for."""
    env = {
        "GIT_LFS_SKIP_SMUDGE": "1",
        "GIT_HTTP_LOW_SPEED_LIMIT": str(LOW_SPEED_LIMIT),  # http.lowSpeedLimit
        "GIT_HTTP_LOW_SPEED_TIME": str(LOW_SPEED_TIME),  # http.lowSpeedTime
    }
    if "GIT_SSH_COMMAND" not in os.environ:
        env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
    try:
        return git_text(clone, *args, timeout=limit.left(), env=env)
    except GitError as exc:
        if exc.status is None and time.monotonic() >= limit.deadline:
            raise limit.exceeded() from exc  # killed at the time limit
        raise


def _is_clone(dest: Path) -> bool:
    return (dest / ".git").is_dir() and _local_kind(dest.resolve()) == "worktree"


def _last_stderr_line(exc: Exception) -> str:
    """git's ``fatal:``/``error:`` lines joined (else its last line) from a GitError."""
    text = str(getattr(exc, "stderr", "") or exc)
    lines = [ln.strip().removeprefix("stderr:").strip(" '\"") for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    errors = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
    return "; ".join(errors) if errors else (lines or ["git failed"])[-1]
