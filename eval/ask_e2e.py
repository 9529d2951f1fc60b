"""Ask each question of a suite as a user would: a fresh ``codeagent ask --json`` process per
question (the ``codeagent`` command beside this Python), in a clone checked out at the
question's commit; score the files of its sources, and its cited chunks against the functions
the change edits (``expected_spans``, read at the commit: :mod:`codeagent.eval.functions`).

    PYTHONPATH=src python eval/ask_e2e.py SUITE.jsonl --mirrors DIR [--embed none|local] \
        [--max-commits N] [--seed 0] [--split sealed] [--index-first] [--out FILE.json]

The clone is ``$CODEAGENT_HOME/checkouts/clones/OWNER+NAME`` (the one ``codeagent eval-dev``
moves through, so an index it built is found in the cache, as it would be for a user who asked
before). Each question runs ``codeagent ask QUESTION --json --llm none -k 10 --no-server
--embed E`` in that directory; the ranked files are the ``sources`` in order. Per repository,
Acc@1/5/10 and recall@5/10 (the share of the expected files found: how-questions name
several) of the product beside the plain baseline over the same checkout, and the wall time
of each process.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def main() -> None:
    from codeagent.config import Settings
    from codeagent.eval import functions, metrics
    from codeagent.eval.baseline import BaselineRanker
    from codeagent.eval.mirrors import checkout_commit, commit_time, find_mirror
    from codeagent.eval.repos import repo_key
    from codeagent.eval.splits import sample_commits, select
    from codeagent.eval.suite import load_suite
    from codeagent.index.build import load_or_build
    from codeagent.repo.listing import list_files

    parser = argparse.ArgumentParser()
    parser.add_argument("suite", type=Path)
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--embed", default="none")
    parser.add_argument("--max-commits", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", default="sealed")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--index-first",
        action="store_true",
        help="run `codeagent index --embed E` in the checkout before each (timed) question, "
        "as a user who indexed first: the answer then has every vector",
    )
    args = parser.parse_args()
    items = sample_commits(select(load_suite(args.suite), args.split), args.max_commits, args.seed)
    home = Path(os.environ.get("CODEAGENT_HOME", "~/.codeagent")).expanduser()
    dated = []
    for item in items:
        mirror = find_mirror(args.mirrors, repo_key(item.repo))
        if mirror is not None and item.commit:
            dated.append((repo_key(item.repo), commit_time(mirror, item.commit), item, mirror))
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    walls: list[float] = []
    records = []
    baselines: dict[str, tuple[str, BaselineRanker]] = {}
    for repo, _, item, mirror in sorted(dated, key=lambda d: (d[0], d[1])):
        assert item.commit is not None
        root = checkout_commit(mirror, item.commit, home / "checkouts", repo)
        existing = list(list_files(root).paths)
        expected, _ = metrics.resolve_paths(item.expected_files, existing)
        if not expected:
            continue
        command = str(Path(sys.executable).with_name("codeagent"))
        if args.index_first:
            subprocess.run(
                [command, "index", "--embed", args.embed, "--json"],
                cwd=root, capture_output=True, check=True,
            )  # fmt: skip
        started = time.perf_counter()
        done = subprocess.run(
            [command, "ask", "--json", "--llm", "none", "-k", "10", "--no-server",
             "--embed", args.embed, "--", item.question],  # a question may begin with "-"
            cwd=root, capture_output=True, text=True, check=False,
        )  # fmt: skip
        walls.append(time.perf_counter() - started)
        try:
            data = json.loads(done.stdout)
            sources = data.get("sources") or []
            ranked = metrics.dedupe(s["path"] for s in sources)
            cited = [(s["path"], s["start_line"], s["end_line"]) for s in sources]
            route = (data.get("route") or {}).get("tool")
        except (json.JSONDecodeError, KeyError, TypeError):
            ranked, cited, route = [], [], f"error: {done.stderr.strip()[-200:]}"
        if baselines.get(repo, (None,))[0] != item.commit:  # one per checkout, not per question
            store, _ = load_or_build(root, Settings.load(llm="none", embed="none"))
            baselines[repo] = (item.commit, BaselineRanker(store.chunks))
        plain = baselines[repo][1]
        baseline = plain.rank(item.question, depth=20)
        gold = functions.gold_functions(root, item.expected_spans)
        for name, files, chunks in (
            ("product", ranked, cited),
            ("baseline", baseline, plain.rank_chunks(item.question, depth=10)),
        ):
            for k in (1, 5, 10):
                scores[repo][f"{name} Acc@{k}"].append(metrics.hit_at_k(files, expected, k))
            for k in (5, 10):  # how-questions name several files: the share found
                scores[repo][f"{name} R@{k}"].append(metrics.recall_at_k(files, expected, k))
            for key, value in functions.function_scores(chunks, gold).items():
                scores[repo][f"{name} {key}"].append(value)
        records.append({"id": item.id, "route": route, "ranked": ranked, "expected": expected,
                        "cited": cited, "gold_functions": gold,
                        "baseline": baseline, "seconds": walls[-1]})  # fmt: skip
        print(f"{item.id}: {route} {walls[-1]:.1f}s", file=sys.stderr, flush=True)
    keys = [f"{n} Acc@{k}" for n in ("product", "baseline") for k in (1, 5, 10)]
    keys += [f"{n} fn_hit@{k}" for n in ("product", "baseline") for k in (1, 5)]
    keys += [f"{n} R@{k}" for n in ("product", "baseline") for k in (5, 10)]

    def cell(values: list[float]) -> str:  # function level: items with a gold function only
        return f"{100 * statistics.mean(values):.1f}" if values else "-"

    print("| repository | n | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 2) + "|")
    for repo in sorted(scores):
        cells = " | ".join(cell(scores[repo][k]) for k in keys)
        print(f"| {repo} | {len(scores[repo][keys[0]])} | {cells} |")
    means = " | ".join(
        cell([statistics.mean(scores[r][k]) for r in scores if scores[r][k]]) for k in keys
    )
    print(
        f"| **mean over repositories** | {sum(len(scores[r][keys[0]]) for r in scores)} | {means} |"
    )
    if walls:
        walls.sort()
        p95 = walls[min(len(walls) - 1, int(0.95 * len(walls)))]
        print(f"\nwall per question: median {statistics.median(walls):.2f} s, p95 {p95:.2f} s")
    if args.out:
        args.out.write_text(json.dumps(records, indent=1))


if __name__ == "__main__":
    main()
