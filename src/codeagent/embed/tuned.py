"""The code-tuned embedder shipped in the package: all-MiniLM-L6-v2 fine-tuned on questions
that look like what users ask (issue reports, how-questions, pseudo-issues from commits) paired
with the code they are about.

The model is one int8 ONNX file in ``codeagent/embed/models/`` (the graph
:mod:`codeagent.embed.onnx_export` writes: BERT, mean pooling, L2 norm; its matrix products
and its token table quantized), made by ``eval/tune_embedder.py`` (docs/embedder.md is its
card). It reads the base model's tokenizer (the weights package's ``tokenizer.json``: the
vocabulary is unchanged). Its sha256 is checked before the first use in a process: a damaged
or replaced file is refused with one line that says what to do, never used under this id.
``--embed local:base`` selects the base model instead (exported from the weights package on
first use, as before).
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from codeagent.errors import BackendUnavailableError

FILE = Path(__file__).with_name("models") / "minilm-issues-int8.onnx"
SHA256 = "73ba0b9be173b7aa5687b80ceb75765ebbff070d8da77d3112a6121c0909e1f8"
TUNED_ID = f"local:minilm-issues-{SHA256[:12]}:ort-int8g-128t"

_CHECKED: set[tuple[str, int, int]] = set()  # (path, size, mtime_ns) found good
_LOCK = threading.Lock()


def sha256_of(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def verified(path: Path = FILE, expected: str = SHA256) -> Path:
    """``path`` once its sha256 is ``expected`` (checked once per process and file state);
    ``BackendUnavailableError`` when it is missing or differs."""
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
        found = sha256_of(path)
        if found != expected:
            raise BackendUnavailableError(
                f"the code-tuned embedding model is damaged ({path.name}: sha256 {found[:12]}, "
                f"expected {expected[:12]}): reinstall codeagent, or use --embed local:base"
            )
        _CHECKED.add(key)
    return path
