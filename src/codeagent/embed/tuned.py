"""The code-tuned embedder shipped in the package: all-MiniLM-L6-v2 fine-tuned on questions
that look like what users ask (issue reports, how-questions, pseudo-issues from commits) paired
with the code they are about.

The model is one int8 ONNX file in ``codeagent/embed/models/`` (the graph
:mod:`codeagent.embed.onnx_export` writes: BERT, mean pooling, L2 norm; its matrix products
and its token table quantized), made by ``eval/tune_embedder.py`` (docs/embedder.md is its
card). It reads the base model's tokenizer (the weights package's ``tokenizer.json``: the
vocabulary is unchanged). Its sha256 is checked before the first use: a damaged or replaced
file is refused with one line that says what to do, never used under this id.

The check is remembered, as git's index remembers a file's hash: a process that hashed the file
records its stamp (size, modification and change times, inode, device:
:mod:`codeagent.repo.stamps`) and the sha256 found in ``verified.json`` beside the exported
models (``record``), and a later process whose stat of the file gives the same stamp takes
the check as done (23 MB not hashed: 0.2 s on two cores). What that still guarantees: the
bytes are the ones hashed, since no write from user space leaves the change time alone and a
replaced file has a new inode; a file changed within two seconds of its hashing is recorded
with no stamp (racy), and a record older than a week is hashed again. What it cannot see is
damage under the file system (a flipped bit on the disk), as the entry seal cannot
(:mod:`codeagent.store.seal`).
``--embed local:base`` selects the base model instead (exported from the weights package on
first use, as before).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from pathlib import Path

from codeagent.errors import BackendUnavailableError
from codeagent.home import make_private_dir
from codeagent.repo.stamps import now_ns, stamp

FILE = Path(__file__).with_name("models") / "minilm-issues-int8.onnx"
SHA256 = "eb56fd74b334d2a8d8f3a2481ee11da6a334d11c852691f4de8daae1b88a6889"
TUNED_ID = f"local:minilm-issues-{SHA256[:12]}:ort-int8g-128t"

_CHECKED: set[tuple[str, int, int]] = set()  # (path, size, mtime_ns) found good
_LOCK = threading.Lock()
RECORD = "verified.json"  # in the models folder: path -> stamp, sha256, when hashed
RECHECK_AFTER = 7 * 24 * 3600.0  # seconds: a record older than this is hashed again


def sha256_of(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def verified(path: Path = FILE, expected: str = SHA256, record: Path | None = None) -> Path:
    """``path`` once its sha256 is ``expected`` (hashed once per process and file state, and
    not at all when ``record``, a ``verified.json``, holds the stamp it has now with that
    sha256); ``BackendUnavailableError`` when it is missing or differs."""
    since = now_ns()  # before the stat: a change after it is racy, never recorded
    try:
        stat = path.stat()
    except OSError as error:
        raise BackendUnavailableError(
            f"the code-tuned embedding model is missing ({path.name}: {error.strerror}): "
            "reinstall codeagent, or use --embed local:base"
        ) from None
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    with _LOCK:
        if key in _CHECKED:
            return path
        now = stamp(stat, since)
        if record is not None and now is not None and recorded(record, path, now) == expected:
            _CHECKED.add(key)
            return path
        found = sha256_of(path)
        if found != expected:
            raise BackendUnavailableError(
                f"the code-tuned embedding model is damaged ({path.name}: sha256 {found[:12]}, "
                f"expected {expected[:12]}): reinstall codeagent, or use --embed local:base"
            )
        _CHECKED.add(key)
        if record is not None and now is not None:
            remember(record, path, now, found)
    return path


def records(record: Path) -> dict[str, dict[str, object]]:
    try:
        loaded = json.loads(record.read_bytes())
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def recorded(record: Path, path: Path, now: str) -> str | None:
    """The sha256 ``record`` holds for ``path`` with the stamp ``now``, if recent enough."""
    entry = records(record).get(str(path))
    if not isinstance(entry, dict) or entry.get("stamp") != now:
        return None
    checked = entry.get("checked")
    if not isinstance(checked, (int, float)) or not 0 <= time.time() - checked <= RECHECK_AFTER:
        return None
    found = entry.get("sha256")
    return found if isinstance(found, str) else None


def remember(record: Path, path: Path, now: str, found: str) -> None:
    """Record that ``path``, with the stamp ``now`` (taken before it was hashed), hashed to
    ``found``; nothing when the folder cannot be written (every process then hashes)."""
    known = records(record)
    known[str(path)] = {"stamp": now, "sha256": found, "checked": time.time()}
    partial = record.with_name(f".{record.name}.{os.getpid()}.partial")
    try:
        make_private_dir(record.parent)
        partial.write_text(json.dumps(known), encoding="utf-8")
        os.replace(partial, record)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
