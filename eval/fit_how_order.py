"""Fit the how-question model (``src/codeagent/rank/how_order.py``) on SWE-QA how-questions.

    CODEAGENT_HOME=H PYTHONPATH=src python eval/fit_how_order.py eval/swe-qa-requests.jsonl \
        eval/swe-qa-flask.jsonl ... --mirrors DIR --work DIR [--c 1.0] [--write]

Development time only (needs the ``fit`` extra: scikit-learn). Each suite's repository is
checked out at the suite's commit from its bare mirror and indexed without vectors through the
product's own cached index (as ``codeagent eval-dev`` does). For every how-question of it (not
a bug report, not a question about the tests or the docs, as :func:`rank_files` decides), the
product ranks the files with the how-question model switched off; the first
:data:`~codeagent.rank.how_order.K` files' columns (:func:`codeagent.rank.how_order.columns`)
and whether each is a file the reference answer names are kept (``--work``, one pickle per
suite, reused on the next run).

A logistic regression (L2, ``--c``) is then fitted leaving one repository out at a time: each
repository's recall@10 under the model fitted on the others, beside the product's order without
it, from the same rankings. ``--write`` fits on every suite given and writes the weights of
the index kind ``--embed`` says (``none``: ``lexical``; ``local``: ``dense``, with vectors).
Which suites to give is the choice of the person running it: never a sealed one.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def collect(suite: Path, mirrors: Path, work: Path, embed: str) -> list[dict[str, Any]]:
    """The suite's how-questions: their first files' columns and labels (cached in ``work``)."""
    target = work / f"{suite.stem}-{embed.replace(':', '-')}.pkl"
    if target.exists():
        rows: list[dict[str, Any]] = pickle.loads(target.read_bytes())
        return rows
    from codeagent.config import Settings
    from codeagent.eval import metrics
    from codeagent.eval.mirrors import checkout_commit, find_mirror
    from codeagent.eval.runner import default_index_builder
    from codeagent.progress import NullProgress
    from codeagent.rank import features, how_order, learned, ranking
    from codeagent.rank.file_table import file_table
    from codeagent.rank.query import analyze
    from codeagent.repo.listing import list_files

    items = [json.loads(line) for line in suite.read_text().splitlines() if line.strip()]
    repo = str(items[0]["repo"]).split("github.com/")[-1]
    mirror = find_mirror(mirrors, repo)
    if mirror is None:
        raise SystemExit(f"{suite}: no mirror of {repo} in {mirrors}")
    home = Path(os.environ["CODEAGENT_HOME"])
    root = checkout_commit(mirror, str(items[0]["commit"]), home / "checkouts", repo)
    settings = Settings.load(llm="none", embed=embed)
    store, _ = default_index_builder(root, settings, progress=NullProgress())
    existing = list(list_files(root).paths)
    table = file_table(store)
    ranking.USE_HOW_ORDER = False
    rows = []
    for item in items:
        question = str(item["question"])
        expected, _ = metrics.resolve_paths(item["expected_files"], existing)
        analysis = analyze(question)
        asked = ranking.asked_kinds(analysis)
        if not expected or asked or not how_order.is_how_question(question, analysis):
            continue
        files = [path for path, _ in ranking.rank_files(store, question, analysis).files]
        found = features.compute(store, table, question, analysis)
        place = {table.paths[int(f)]: i for i, f in enumerate(found.pool)}
        head = files[: how_order.K]
        if len(head) < 2 or any(p not in place for p in head):
            continue
        picked = [place[p] for p in head]
        model = learned.model_for(found.has_dense)
        assert model is not None, "no learned model is shipped for this index"
        scores = model.score(found.matrix, report=False)
        x = how_order.columns(head, found.matrix[picked], scores[picked], question, features.NAMES)
        rows.append({
            "id": item["id"], "repo": repo, "files": files, "expected": expected, "x": x,
            "y": np.array([p in expected for p in head], dtype=int),
        })  # fmt: skip
    work.mkdir(parents=True, exist_ok=True)
    target.write_bytes(pickle.dumps(rows))
    return rows


def reordered(row: dict[str, Any], weights: np.ndarray) -> list[str]:
    head = len(row["y"])
    order = np.argsort(-(row["x"] @ weights), kind="stable")
    return [row["files"][i] for i in order] + row["files"][head:]


def fit(rows: list[dict[str, Any]], c: float) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    x = np.concatenate([r["x"] for r in rows])
    y = np.concatenate([r["y"] for r in rows])
    model = LogisticRegression(C=c, max_iter=5000).fit(x, y)
    weights: np.ndarray = model.coef_[0]
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="+", type=Path)
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument(
        "--embed", default="none", help="none: the lexical weights; local: those with vectors"
    )
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()

    from codeagent.eval.metrics import recall_at_k
    from codeagent.rank import how_order

    by_repo = {}
    for suite in args.suites:
        by_repo[suite.stem] = collect(suite, args.mirrors, args.work, args.embed)
    print(f"recall@10 of how-questions, leaving each repository out (C {args.c}):")
    print("| repository | questions | without | with |\n|---|---|---|---|")
    before, after = [], []
    for held, rows in by_repo.items():
        weights = fit([r for name, rs in by_repo.items() if name != held for r in rs], args.c)
        b = 100 * statistics.mean(recall_at_k(r["files"], r["expected"], 10) for r in rows)
        a = 100 * statistics.mean(
            recall_at_k(reordered(r, weights), r["expected"], 10) for r in rows
        )
        before.append(b)
        after.append(a)
        print(f"| {held} | {len(rows)} | {b:.1f} | {a:.1f} |")
    mean_before, mean_after = statistics.mean(before), statistics.mean(after)
    print(f"| mean over repositories | | {mean_before:.1f} | {mean_after:.1f} |")
    weights = fit([r for rows in by_repo.values() for r in rows], args.c)
    for name, weight in zip(how_order.COLUMNS, weights, strict=True):
        print(f"{name:12s} {weight:+.3f}")
    if args.write:  # this index kind's weights; the other kind's are kept
        kind = "lexical" if args.embed == "none" else "dense"
        shipped = how_order.load.__wrapped__() or {"models": {}}
        shipped["columns"] = list(how_order.COLUMNS)
        shipped["models"][kind] = {
            "weights": [round(float(w), 6) for w in weights],
            "fitted_on": sorted(by_repo),
            "questions": sum(len(rows) for rows in by_repo.values()),
            "c": args.c,
        }
        how_order.MODEL_FILE.write_text(json.dumps(shipped, indent=1) + "\n")
        print(f"wrote the {kind} weights to {how_order.MODEL_FILE}")


if __name__ == "__main__":
    main()
