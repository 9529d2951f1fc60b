"""The seal of an index entry: what lets an unchanged entry open without hashing its files.

When an entry's files have been checked against its manifest (as the build writes them, or
by a full check: every sha256, the BM25 files parsed, the chunk rows read), ``seal.json``
records, for the manifest and every file it lists, the size, modification time, change time
and inode number, and when the check ran. An entry whose files all still have exactly those
opens without reading them. The change time is what makes this safe against an edit: no
write from user space leaves it alone (``os.utime`` putting the modification time back sets
it to now), and a copied or restored file has a new inode.

What the seal cannot see is damage the kernel does not see (a bit flipped on the disk,
under the file system). The content check still runs:

- when there is no seal or it does not match (the first open after a crash or a copy, after
  any write to a file of the entry);
- when the seal is older than :data:`RECHECK_AFTER` (a week);
- on ``codeagent index --verify``;
- when a file of an entry opened on its seal fails to load: the entry is marked damaged
  (:func:`mark_damaged`) and rebuilt at the next open;
- in a long-running process (the REPL, the server), in a background thread after an entry
  opened on its seal (:func:`check_in_background`): damage found marks the entry, so the
  next open rebuilds it; an intact entry gets a fresh seal.

Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from codeagent.records import Chunk
from codeagent.store.entry_files import (
    BM25_DIR,
    MANIFEST,
    CorruptIndexError,
    check_bm25_files,
    read_chunks,
    verify_files,
)

log = logging.getLogger(__name__)

SEAL = "seal.json"
RECHECK_AFTER = 7 * 24 * 3600.0  # seconds: a seal older than this is checked again

Signatures = dict[str, list[int]]


def signature(path: Path) -> list[int]:
    """What a file is recognised by without reading it: size, mtime, ctime (ns), inode."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def signatures(directory: Path, manifest: dict[str, Any]) -> Signatures:
    """The signature of the manifest and of every file it lists (``OSError`` if one is gone)."""
    names = [MANIFEST, *sorted(manifest.get("files") or {})]
    return {name: signature(directory / name) for name in names}


def write_seal(directory: Path, seen: Signatures) -> bool:
    """Record that the files, as ``seen`` (taken before they were checked), were checked now.

    Nothing is written when a file changed since ``seen`` (it was not the content checked) or
    the entry cannot be written (a read-only cache: every open then checks); returns whether
    the seal was written.
    """
    try:
        if {name: signature(directory / name) for name in seen} != seen:
            return False
        text = json.dumps({"verified": time.time(), "files": seen})
        partial = directory / f".{SEAL}.partial"
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, directory / SEAL)
    except OSError as exc:
        log.debug("cannot seal %s: %s", directory, exc)
        return False
    return True


def mark_damaged(directory: Path, reason: str) -> None:
    """Replace the seal by a mark that makes the next open rebuild the entry."""
    with contextlib.suppress(OSError):
        (directory / SEAL).write_text(json.dumps({"damaged": reason}), encoding="utf-8")


def unsealed(directory: Path, manifest: dict[str, Any], *, now: float | None = None) -> str | None:
    """Why the entry's content must be checked, or None when its seal vouches for it.

    :class:`CorruptIndexError` when the entry was marked damaged.
    """
    try:
        data = json.loads((directory / SEAL).read_bytes())
    except FileNotFoundError:
        return "no seal"
    except (OSError, ValueError):
        return "unreadable seal"
    if isinstance(data, dict) and isinstance(data.get("damaged"), str):
        raise CorruptIndexError(f"index at {directory} was found damaged: {data['damaged']}")
    verified = data.get("verified") if isinstance(data, dict) else None
    if not isinstance(verified, (int, float)) or not isinstance(data.get("files"), dict):
        return "unreadable seal"
    age = (time.time() if now is None else now) - verified
    if not -60.0 <= age <= RECHECK_AFTER:
        return f"last checked {age / 86400:.1f} days ago"
    try:
        current = signatures(directory, manifest)
    except OSError:
        return "a file is missing"
    sealed = data["files"]
    if current != sealed:
        changed = sorted(n for n in {*current, *sealed} if current.get(n) != sealed.get(n))
        return f"changed since it was checked: {', '.join(changed)}"
    return None


def open_checked(
    directory: Path, manifest: dict[str, Any], *, verify: bool = False
) -> list[Chunk] | None:
    """Check an entry as it opens: None when its seal vouches for it (nothing is read), else
    its chunks, read after every file was hashed and the BM25 files parsed (then sealed).

    ``verify`` checks the content whatever the seal says. :class:`CorruptIndexError` when
    the entry is damaged or was marked so.
    """
    reason = unsealed(directory, manifest)  # first: an entry marked damaged is rebuilt
    if verify:
        reason = "a full check was asked for"
    if reason is None:
        return None
    log.info("checking the files of %s: %s", directory, reason)
    try:
        seen: Signatures | None = signatures(directory, manifest)
    except OSError:
        seen = None  # verify_files names the missing file
    verify_files(directory, manifest)
    chunks = read_chunks(directory, manifest.get("chunks"))
    check_bm25_files(directory / BM25_DIR)
    if seen is not None:
        write_seal(directory, seen)
    return chunks


def check_content(directory: Path, manifest: dict[str, Any]) -> None:
    """Hash every file against the manifest: seal the entry if all match, else mark it damaged
    and raise :class:`CorruptIndexError` (``OSError`` when it went or changed meanwhile)."""
    seen = signatures(directory, manifest)
    try:
        verify_files(directory, manifest)
    except CorruptIndexError as exc:
        try:
            same = signatures(directory, manifest) == seen
        except OSError:
            same = False
        if not same:  # pruned, or replaced by a rebuilt entry, while it was read
            raise OSError(f"{directory} changed while it was checked") from exc
        mark_damaged(directory, str(exc))
        raise
    write_seal(directory, seen)


def check_in_background(
    directory: Path,
    manifest: dict[str, Any],
    on_damage: Callable[[CorruptIndexError], None] | None = None,
) -> threading.Thread:
    """:func:`check_content` in a daemon thread (started); ``on_damage`` hears what it found."""

    def run() -> None:
        try:
            check_content(directory, manifest)
        except CorruptIndexError as exc:
            log.info("%s; it is rebuilt at the next open", exc)
            if on_damage is not None:
                on_damage(exc)
        except OSError as exc:  # the entry was pruned or replaced meanwhile
            log.debug("background check of %s stopped: %s", directory, exc)

    thread = threading.Thread(target=run, name="codeagent-entry-check", daemon=True)
    thread.start()
    return thread
