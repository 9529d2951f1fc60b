"""Commits of local bare mirrors, exported into a checkout cache: one directory per commit, or
checked out in turn in one clone per repository (:func:`checkout_commit`).

A mirrors directory holds ``<owner>+<name>/repo`` (or ``<owner>+<name>`` itself) as a bare git
repository for ``owner/name``. :func:`export_commit` writes the regular files of one commit's
tree (``git ls-tree`` and one ``git cat-file --batch``; ``git archive`` stops at the first
blob a mirror lacks) into ``<cache>/<owner>+<name>/<full sha>``, through a temporary sibling
renamed into place, so a directory that exists is complete and is reused as it is. The
mirror is only read. An export is not a git work tree: the index walks it honouring its
``.gitignore`` files.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from codeagent.errors import CloneError

GIT_TIMEOUT_S = 600


def mirror_name(key: str) -> str:
    """``owner/name`` -> ``owner+name`` (the mirrors directory's spelling)."""
    return key.strip("/").replace("/", "+")


def find_mirror(mirrors: Path, key: str) -> Path | None:
    """The bare repository of ``owner/name`` under ``mirrors``, or None when there is none."""
    base = mirrors / mirror_name(key)
    if not base.exists() and mirrors.is_dir():  # GitHub names are case-insensitive
        wanted = mirror_name(key).lower()
        base = next((p for p in mirrors.iterdir() if p.name.lower() == wanted), base)
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def _git(mirror: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(mirror), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=GIT_TIMEOUT_S,
    )
    if done.returncode != 0:
        message = (done.stderr.strip().splitlines() or ["git failed"])[-1]
        raise CloneError(f"git {' '.join(args)} in {mirror}: {message}")
    return done.stdout.strip()


def resolve_commit(mirror: Path, commit: str) -> str:
    """The full id of ``commit`` (abbreviated or not) in ``mirror``; CloneError if absent."""
    return _git(mirror, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")


def _tree(mirror: Path, commit: str) -> list[tuple[str, str]]:
    """(blob id, path) of each regular file of ``commit`` (links and submodules left out)."""
    listing = _git(mirror, "ls-tree", "-r", "-z", "--full-tree", commit)
    files: list[tuple[str, str]] = []
    for entry in filter(None, listing.split("\0")):
        meta, _, path = entry.partition("\t")
        mode, kind, blob = meta.split()
        if kind == "blob" and mode in ("100644", "100755"):
            files.append((blob, path))
    return files


def _write_blobs(mirror: Path, files: list[tuple[str, str]], into: Path) -> int:
    """Write each blob under ``into``; returns how many the mirror lacks (left out)."""
    done = subprocess.run(
        ["git", "--git-dir", str(mirror), "cat-file", "--batch"],
        input="".join(f"{blob}\n" for blob, _ in files).encode(),
        capture_output=True,
        check=False,
        timeout=GIT_TIMEOUT_S,
    )
    if done.returncode != 0:
        raise CloneError(f"git cat-file in {mirror}: {done.stderr.decode(errors='replace')}")
    out, pos, missing = done.stdout, 0, 0
    for _blob, path in files:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            missing += 1
            continue
        size = int(header[2])
        target = into / path
        if ".." in Path(path).parts:
            raise CloneError(f"{mirror}: unsafe path in tree: {path!r}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(out[pos : pos + size])
        pos += size + 1
    return missing


def export_commit(mirror: Path, commit: str, cache: Path, key: str) -> Path:
    """The directory holding the tree of ``commit``, exported from ``mirror`` when missing.

    A blob the mirror does not hold (a mirror may leave out its largest files) is left out.
    """
    try:
        full = resolve_commit(mirror, commit)
    except CloneError as exc:
        raise CloneError(f"commit {commit} is not in the mirror {mirror}") from exc
    parent = cache / mirror_name(key)
    target = parent / full
    if target.is_dir():
        return target
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=parent))
    try:
        _write_blobs(mirror, _tree(mirror, full), tmp)
        tmp.chmod(0o755)  # mkdtemp makes it private; an export is an ordinary directory
        try:
            tmp.rename(target)
        except OSError:
            if not target.is_dir():  # another process did not win the race: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def commit_time(mirror: Path, commit: str) -> int:
    """The committer timestamp of ``commit`` (0 when the mirror cannot tell)."""
    try:
        return int(_git(mirror, "log", "-1", "--format=%ct", commit) or 0)
    except (CloneError, ValueError):
        return 0


def checkout_commit(mirror: Path, commit: str, cache: Path, key: str) -> Path:
    """One clone of ``mirror`` per repository (``<cache>/clones/<owner>+<name>``, sharing the
    mirror's objects), checked out at ``commit`` with nothing else in its work tree.

    As a user's checkout moves from commit to commit, so does this one: an index of the next
    commit reuses the chunks of every file the last one already parsed. A blob the mirror does
    not hold fails the checkout of that file only (it is then missing from the work tree).
    """
    try:
        full = resolve_commit(mirror, commit)
    except CloneError as exc:
        raise CloneError(f"commit {commit} is not in the mirror {mirror}") from exc
    clone = cache / "clones" / mirror_name(key)
    if not (clone / ".git").is_dir():
        clone.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(clone, ignore_errors=True)
        _run(["git", "clone", "-q", "--shared", "--no-checkout", str(mirror), str(clone)])
    _run(["git", "-C", str(clone), "checkout", "-q", "-f", "--detach", full], check=False)
    head = _run(["git", "-C", str(clone), "rev-parse", "HEAD"]).strip()
    if head != full:
        raise CloneError(f"cannot check out {full} in {clone}")
    _run(["git", "-C", str(clone), "clean", "-q", "-f", "-d", "-x"])
    return clone


def _run(args: list[str], *, check: bool = True) -> str:
    done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=GIT_TIMEOUT_S)
    if check and done.returncode != 0:
        message = (done.stderr.strip().splitlines() or ["git failed"])[-1]
        raise CloneError(f"{' '.join(args[:4])}: {message}")
    return done.stdout
