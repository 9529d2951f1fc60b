"""Which files of a repository are indexable; everything skipped is counted by reason.

The candidates come from :func:`codeagent.repo.listing.list_files` (the one file list that
name resolution uses too; names that are not valid UTF-8 are left out there and counted here
as ``bad_name``). Each candidate is then checked in order: symlinks (never followed out of the
root; one that stays inside is indexed under its own path), file type, likely secrets, lock
files, minified assets, size, emptiness, and a NUL-byte sniff for binaries. Skip reasons:
``bad_name``, ``symlink_outside``, ``not_regular``, ``secret``, ``lockfile``, ``minified``,
``too_large``, ``empty``, ``binary``, ``unreadable``. Deleted-but-tracked files are left out
uncounted.
"""

from __future__ import annotations

import errno
import fnmatch
import logging
import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from codeagent.errors import RepoNotFoundError
from codeagent.repo.listing import list_files

log = logging.getLogger(__name__)

SNIFF_BYTES = 8192
MINIFIED_AVG_LINE = 400  # average characters per line in the sniffed head
MINIFIED_MIN_BYTES = 2048

LOCKFILE_NAMES = frozenset(
    {
        "poetry.lock", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "Cargo.lock",
        "uv.lock", "Pipfile.lock", "pnpm-lock.yaml", "composer.lock", "Gemfile.lock", "go.sum",
        "pdm.lock", "bun.lockb", "flake.lock", "mix.lock", "pubspec.lock", "Package.resolved",
        "packages.lock.json", "conda-lock.yml",
    }
)  # fmt: skip
LOCKFILE_GLOBS = ("*.lock",)

SECRET_NAMES = frozenset(
    {
        ".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "credentials", "credentials.json",
        ".netrc", ".pgpass", ".pypirc", ".npmrc", ".git-credentials", ".htpasswd",
        "secrets.json", "secrets.yaml", "secrets.yml", "service-account.json",
    }
)  # fmt: skip
SECRET_GLOBS = (
    "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx", "*.asc", "*.gpg",
    "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
)  # fmt: skip
# Each list of globs as one pattern: fnmatchcase(name, g) for any g, in one match per name
# (fnmatch.translate's patterns end in \Z; fnmatchcase matches them from the start too).
_LOCKFILE_GLOB = re.compile("|".join(fnmatch.translate(g) for g in LOCKFILE_GLOBS))
_SECRET_GLOB = re.compile("|".join(fnmatch.translate(g) for g in SECRET_GLOBS))
# ``.env.example`` and friends document variables without holding values: kept.
ENV_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".dist", ".defaults")


@dataclass(frozen=True)
class RepoFile:
    """One indexable file."""

    path: str  # POSIX, relative to the root
    location: str  # the absolute path
    size: int

    @cached_property
    def abs_path(self) -> Path:
        """The absolute path as a ``Path`` (made at first use: a repository of 4,000 files
        spent a fifth of an unchanged re-open making them)."""
        return Path(self.location)

    def read_text(self) -> str:
        """The file as UTF-8, undecodable bytes replaced, a leading BOM dropped."""
        return self.abs_path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")


@dataclass
class Discovery:
    """The indexable files of one root and what was skipped."""

    root: Path
    files: list[RepoFile]
    skipped: Counter[str] = field(default_factory=Counter)
    is_git: bool = False


def discover(root: Path, *, max_bytes: int = 1_000_000) -> Discovery:
    """List the indexable files under ``root``; raises RepoNotFoundError if it is no directory."""
    listing = list_files(_checked_root(root))
    root = listing.root
    skipped: Counter[str] = Counter()
    if listing.bad_names:
        skipped["bad_name"] = listing.bad_names
    files: dict[str, RepoFile] = {}
    classify = _Classifier(root, max_bytes)
    for rel in listing.paths:
        reason, size = classify(rel)
        if reason is None:
            files[rel] = RepoFile(path=rel, location=os.path.join(classify.root, rel), size=size)
        elif reason != "missing":
            skipped[reason] += 1
            log.debug("skipped %s: %s", rel, reason)
    log.debug("discovered %s files under %s (skipped %s)", len(files), root, dict(skipped))
    return Discovery(
        root=root,
        files=sorted(files.values(), key=lambda f: f.path),
        skipped=skipped,
        is_git=listing.is_git,
    )


def _checked_root(root: Path) -> Path:
    path = Path(root).expanduser()
    if not path.exists():
        raise RepoNotFoundError(f"no such directory: {path}")
    if not path.is_dir():
        raise RepoNotFoundError(f"not a directory: {path}")
    return path.resolve()


class _Classifier:
    """Decides the skip reason of one candidate; caches resolved directories."""

    def __init__(self, root: Path, max_bytes: int) -> None:
        self.root = str(root)
        self.max_bytes = max_bytes
        self._real_dirs: dict[str, str] = {}

    def _inside(self, abs_path: str, is_link: bool) -> bool:
        """Whether the file resolves inside the root (it, or a directory on its way, may link)."""
        if is_link:
            real = os.path.realpath(abs_path)
        else:
            parent, name = os.path.split(abs_path)
            real_parent = self._real_dirs.get(parent)
            if real_parent is None:
                real_parent = self._real_dirs[parent] = os.path.realpath(parent)
            real = os.path.join(real_parent, name)
        return real == self.root or real.startswith(self.root.rstrip(os.sep) + os.sep)

    def __call__(self, rel: str) -> tuple[str | None, int]:
        """``(skip reason or None, size)``; reason ``missing`` is not counted (deleted files)."""
        abs_path = os.path.join(self.root, rel.rstrip("/"))
        try:
            st = os.lstat(abs_path)
            is_link = stat.S_ISLNK(st.st_mode)
            if not self._inside(abs_path, is_link):
                return "symlink_outside", 0
            if is_link:
                st = os.stat(abs_path)
        except FileNotFoundError:
            # Deleted but still tracked; or a dangling symlink.
            return ("not_regular" if os.path.islink(abs_path) else "missing"), 0
        except OSError as exc:
            return ("not_regular" if exc.errno == errno.ELOOP else "unreadable"), 0
        return _check_file(abs_path, rel, st, self.max_bytes)


def _check_file(
    abs_path: str, rel: str, st: os.stat_result, max_bytes: int
) -> tuple[str | None, int]:
    """The skip reason of a file that exists inside the root, from its name, size and head."""
    if not stat.S_ISREG(st.st_mode):
        return "not_regular", 0
    name = rel.rsplit("/", 1)[-1]
    if is_secret_name(name):
        return "secret", 0
    if name in LOCKFILE_NAMES or _LOCKFILE_GLOB.match(name):
        return "lockfile", 0
    lower = name.lower()
    if lower.endswith((".min.js", ".min.css", ".min.mjs")):
        return "minified", 0
    if st.st_size > max_bytes:
        return "too_large", st.st_size
    if st.st_size == 0:
        return "empty", 0
    try:
        with open(abs_path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return "unreadable", 0
    if b"\0" in head:
        return "binary", st.st_size
    if len(head) == st.st_size and not head.strip():
        return "empty", 0
    if len(head) >= MINIFIED_MIN_BYTES and len(head) / (head.count(b"\n") + 1) > MINIFIED_AVG_LINE:
        return "minified", st.st_size
    return None, st.st_size


def is_secret_name(name: str) -> bool:
    """Whether a file name looks like it holds credentials or keys."""
    if name.endswith(".pub"):
        return False
    if name in SECRET_NAMES or _SECRET_GLOB.match(name):
        return True
    return name.startswith(".env.") and not name.endswith(ENV_TEMPLATE_SUFFIXES)
