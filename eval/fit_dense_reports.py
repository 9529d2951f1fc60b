"""Fit the learned ranker's bug-report model for an index with vectors, on issue-shaped rows of
repositories the embedder never saw; leave-one-repository-out (development time only).

    PYTHONPATH=src python eval/fit_dense_reports.py --dumps DIR --items ITEMS.jsonl [...] \
        [--lexical-dumps DIR] [--write] [--report FILE.md]

The shipped ``dense`` model's trees were fitted on 96 rows with vectors, with an older
embedder; with vectors the product ranked a bug report below ``--embed none`` on three sealed
groups in turn (docs/eval.md, thirty-fourth round). This script fits a model for bug reports
alone (``dense-reports`` in ``ranker.json``; a how-question keeps ``dense``) on the feature
matrices ``eval/dump_features.py --embed local`` writes for issue-shaped items
(``eval/issue_items.py``) of the spent issue groups of ``src/codeagent/eval/corpus.json``:
repositories in no fitting split, so the embedder's cosines look as they will on a user's
repository. Every figure is out of fold: each repository is scored by a model fitted on the
others. The order scored is the product's for a bug report: the model's order over the pool,
then the rest in the first ranker's order, then the source-first rule (tests, docs,
configuration out of the first five; :func:`codeagent.rank.ranking.held_by_path`, with
vendored files taken as not vendored). ``--lexical-dumps``: the same items dumped with
``--embed none``, scored by the shipped ``lexical`` model: the product without vectors, beside.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from fit_ranker import (
    MODEL_FILE,
    _z,
    check_export,
    export,
    fit,
    load_rows,
    metrics,
    predict,
    ranked,
)

from codeagent.rank import learned
from codeagent.rank import source_first as rule
from codeagent.rank.features import NAMES
from codeagent.rank.file_roles import path_kind
from codeagent.rank.query import analyze
from codeagent.rank.ranking import held_by_path


def product_order(files: list[str], question: str) -> list[str]:
    """``files`` as the product shows them to ``question`` after its model: the source-first
    rule applied (:func:`codeagent.rank.ranking.held_by_path`, no file taken as vendored)."""
    held = held_by_path(question, analyze(question))
    if held is None:
        return files
    moved, _ = rule.source_first(
        list(range(len(files))), lambda i: held(files[i], path_kind(files[i]), False)
    )
    return [files[i] for i in moved]


def table(rows: list[dict[str, Any]], orders: dict[str, list[list[str]]]) -> str:
    """Acc@1 / Acc@5 per repository and their mean, each ranking on one line."""
    repos = sorted({r["repo"] for r in rows})
    short = [r.split("/")[-1] for r in repos]
    lines = [
        f"| {len(rows)} reports | mean Acc@1 / @5 | below baseline | " + " | ".join(short) + " |",
        "|---" * (len(repos) + 3) + "|",
    ]
    base: dict[str, tuple[float, float]] = {}
    for name, lists in orders.items():
        per: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for row, files in zip(rows, lists, strict=True):
            found = metrics(row, files)
            per[row["repo"]].append((found["Acc@1"], found["Acc@5"]))
        means = {r: tuple(100 * np.mean([h[k] for h in per[r]]) for k in (0, 1)) for r in repos}
        if not base:
            base = means  # type: ignore[assignment]
        below = sum(means[r][0] < base[r][0] or means[r][1] < base[r][1] for r in repos)
        mean1 = np.mean([means[r][0] for r in repos])
        mean5 = np.mean([means[r][1] for r in repos])
        cells = " | ".join(f"{means[r][0]:.0f} / {means[r][1]:.0f}" for r in repos)
        lines.append(f"| {name} | {mean1:.1f} / {mean5:.1f} | {below} | {cells} |")
    return "\n".join(lines)


def blended(raw: np.ndarray, row: dict[str, Any], stage1: float, cos: float) -> np.ndarray:
    """A fitted model's scores with the first ranker's and the best chunk's cosine added, each
    standardised over the pool (as ``blend_stage1`` and ``blend_reports`` do at run time)."""
    if not stage1 and not cos:
        return raw
    out = _z(raw)
    if stage1:
        out = out + stage1 * _z(row["matrix"][:, NAMES.index("stage1")])
    if cos:
        out = out + cos * _z(row["matrix"][:, NAMES.index("dense_cos")])
    return out


def chosen(rows: list[dict[str, Any]], questions: dict[str, str], mode: str) -> list[Any]:
    """The rows of bug reports dumped in ``mode`` (with vectors for ``dense``, without for
    ``lexical``), by repository."""
    dense = NAMES.index("has_dense")
    kept = [
        r for r in rows
        if r["id"] in questions and analyze(questions[r["id"]]).reports
        and bool(r["matrix"][:, dense].max()) == (mode == "dense")
    ]  # fmt: skip
    return sorted(kept, key=lambda r: (r["repo"], r["id"]))


VARIANTS = {  # name: (blend_stage1, blend_reports dense_cos)
    "trees": (0.0, 0.0),
    "trees + cosine 0.5": (0.0, 0.5),
    "trees + first ranker 0.5": (0.5, 0.0),
    "trees + first ranker 0.5 + cosine 1.25": (0.5, 1.25),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dumps", type=Path, action="append", required=True)
    parser.add_argument("--items", type=Path, action="append", required=True)
    parser.add_argument("--lexical-dumps", type=Path, default=None)
    parser.add_argument(
        "--mode",
        choices=("dense", "lexical"),
        default="dense",
        help="lexical: fit `lexical-reports` on --dumps made with --embed none instead",
    )
    parser.add_argument(
        "--judge",
        type=Path,
        default=None,
        help="dumps of other reports (e.g. SWE-bench's, with --items), scored by the shipped "
        "model and by each variant fitted on every row of --dumps",
    )
    parser.add_argument("--write", default="", help="a variant's name: fit it on every row, ship")
    parser.add_argument("--report", type=Path, default=None)
    args = parser.parse_args()
    questions = {}
    for path in args.items:
        for line in path.read_text().splitlines():
            item = json.loads(line)
            questions[item["id"]] = item["question"]
    rows = chosen(load_rows(args.dumps), questions, args.mode)
    if not rows:
        raise SystemExit(
            f"no bug report of --items in --dumps {' '.join(map(str, args.dumps))} dumped "
            f"{'with' if args.mode == 'dense' else 'without'} vectors: nothing to fit"
        )
    columns = list(range(len(NAMES)))
    shown = lambda r, files: product_order(files, questions[r["id"]])  # noqa: E731
    orders: dict[str, list[list[str]]] = {
        "plain BM25": [list(r["baseline"]) for r in rows],
        "first ranker": [shown(r, ranked(r, None)) for r in rows],
    }
    shipped = learned.load(MODEL_FILE)
    if args.lexical_dumps is not None:
        lexical = {r["id"]: r for r in load_rows([args.lexical_dumps])}
        model = shipped["lexical"]
        orders["shipped, --embed none"] = [
            shown(r, ranked(lexical[r["id"]], model.score(lexical[r["id"]]["matrix"])))
            if r["id"] in lexical else []
            for r in rows
        ]  # fmt: skip
    model = shipped[args.mode]
    orders[f"shipped {args.mode}"] = [
        shown(r, ranked(r, model.score(r["matrix"], True))) for r in rows
    ]
    repos = sorted({r["repo"] for r in rows})
    variants = {n: v for n, v in VARIANTS.items() if args.mode == "dense" or not v[1]}
    oof: dict[str, list[list[str]]] = {name: [[] for _ in rows] for name in variants}
    for held_out in repos:
        fitted = fit([r for r in rows if r["repo"] != held_out], "trees", columns)
        for i, r in enumerate(rows):
            if r["repo"] == held_out:
                raw = predict(fitted, r, columns)
                for name, (stage1, cos) in variants.items():
                    oof[name][i] = shown(r, ranked(r, blended(raw, r, stage1, cos)))
    for name, lists in oof.items():
        orders[f"{name} (out of fold)"] = lists
    text = f"## bug reports, {args.mode}, leave one repository out\n\n{table(rows, orders)}\n"
    final = fit(rows, "trees", columns) if args.judge or args.write else None
    if args.judge is not None:
        judged = chosen(load_rows([args.judge]), questions, args.mode)
        orders = {
            "plain BM25": [list(r["baseline"]) for r in judged],
            f"shipped {args.mode}": [
                shown(r, ranked(r, model.score(r["matrix"], True))) for r in judged
            ],
        }
        for name, (stage1, cos) in variants.items():
            orders[f"{name} (fitted on every row above)"] = [
                shown(r, ranked(r, blended(predict(final, r, columns), r, stage1, cos)))
                for r in judged
            ]
        text += f"\n## {args.judge}\n\n{table(judged, orders)}\n"
    print(text)
    if args.report:
        args.report.write_text(text)
    if args.write:
        stage1, cos = VARIANTS[args.write]
        check_export(final, columns, rows)
        spec = export(final, columns)
        if stage1:
            spec["blend_stage1"] = stage1
        if cos:
            spec["blend_reports"] = {"dense_cos": cos}
        data = json.loads(MODEL_FILE.read_text())
        key = f"{args.mode}-reports"
        data["models"][key] = spec
        MODEL_FILE.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(f"wrote {key} ({args.write}) to {MODEL_FILE} ({MODEL_FILE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
