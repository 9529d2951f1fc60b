"""The tuned model's graph as ONNX Runtime optimizes it, kept so a process need not redo it.

Opening a session on the shipped int8 graph costs about 0.2 s on two cores, most of it
ONNX Runtime fusing the graph's operators; opening the graph it fused, saved once, costs about
0.06 s. The first process saves it (``optimized_model_filepath``, at the extended level: the
level ONNX Runtime says stays portable, no hardware-specific layout) beside the exported
models, named by the shipped file's sha256 and ONNX Runtime's version; later processes open
that file with every optimization still on (the passes already done find nothing left to do;
the layout pass runs as before), so the session runs the same graph: the vectors are equal
bit for bit (``tests/embed/test_optimized.py`` compares them with a session on the shipped
file).

The kept file is trusted as the model is (:mod:`codeagent.embed.tuned`): ``verified.json``
holds its sha256 from when it was written and its stamp; a stamp that differs means it is
hashed again and compared, and a file that no longer matches is made again. The shipped file
it was made from is checked first, as always.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any

from codeagent.embed import tuned
from codeagent.home import make_private_dir
from codeagent.repo.stamps import now_ns, stamp

log = logging.getLogger(__name__)

PROVIDERS = ["CPUExecutionProvider"]


def kept_file(models_dir: Path, version: str) -> Path:
    """Where the optimized graph of the shipped model is kept for ONNX Runtime ``version``."""
    return models_dir / f"minilm-issues-{tuned.SHA256[:16]}.ort-{version}.onnx"


def trusted(path: Path, record: Path) -> bool:
    """Whether ``path`` holds the bytes ``record`` says it was written with."""
    since = now_ns()
    try:
        now = stamp(path.stat(), since)
    except OSError:
        return False
    kept = tuned.records(record).get(str(path))
    written = kept.get("sha256") if isinstance(kept, dict) else None
    if not isinstance(written, str):
        return False
    if now is not None and tuned.recorded(record, path, now) == written:
        return True
    if tuned.sha256_of(path) != written:
        log.info("the optimized model %s changed since it was written: made again", path)
        return False
    if now is not None:
        tuned.remember(record, path, now, written)
    return True


def open_session(ort: Any, onnx_file: Path, options: Any, models_dir: Path) -> Any:
    """An ONNX Runtime session on the shipped ``onnx_file`` (verified), through its kept
    optimized graph when there is one to trust, else saving that graph for next time."""
    record = models_dir / tuned.RECORD
    kept = kept_file(models_dir, str(ort.__version__))
    if trusted(kept, record):
        try:
            return ort.InferenceSession(str(kept), options, providers=PROVIDERS)
        except Exception as exc:  # onnxruntime's own error types: opened from the shipped file
            log.info("cannot open %s (%s): opening the shipped model", kept, exc)
    session = ort.InferenceSession(str(onnx_file), options, providers=PROVIDERS)
    _save(ort, onnx_file, options, kept, record)
    return session


def _save(ort: Any, onnx_file: Path, options: Any, kept: Path, record: Path) -> None:
    """Save the graph ONNX Runtime makes of ``onnx_file`` at the extended level as ``kept``;
    nothing when the folder cannot be written (every process then optimizes)."""
    partial = kept.with_name(f".{kept.name}.{os.getpid()}.partial")
    try:
        make_private_dir(kept.parent)
        save = ort.SessionOptions()
        save.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        save.optimized_model_filepath = str(partial)
        save.log_severity_level = options.log_severity_level
        ort.InferenceSession(str(onnx_file), save, providers=PROVIDERS)
        written = tuned.sha256_of(partial)
        os.replace(partial, kept)
        tuned.remember(record, kept, "", written)  # just written: racy, no stamp yet
    except Exception as exc:  # a folder that cannot be written, a runtime that cannot save
        log.debug("cannot keep the optimized model at %s: %s", kept, exc)
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
