"""Dump the learned ranker's feature matrices for suite questions (development time only).

    PYTHONPATH=src python eval/dump_features.py SUITE.jsonl [...] --mirrors DIR --out DIR \
        [--embed none|local] [--max-commits N] [--seed 0] [--first N] [--workers 2] [--repos a/b]

Each (repository, commit) of the suites is exported from its bare mirror and indexed through
the product's own cached index (as ``codeagent eval-dev`` does); each question's candidate
pool and feature matrix come from :func:`codeagent.rank.features.compute`, exactly as the
ranker computes them at run time. One pickle per checkout under ``--out``: per question, the
matrix, the pool's paths, the expected files resolved at the commit, the first ranker's
order, and the plain baseline's ranked files from the same chunks. A checkout already dumped
is skipped, so a run can be stopped and resumed. ``eval/fit_ranker.py`` reads the dumps.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def _suite_kind(item_id: str, source: str) -> str:
    if source.startswith("mined"):
        return "mined"
    return "sweqa" if "SWE-QA" in source or item_id.startswith("swe-qa") else "swebench"


def dump_repo(job: tuple[str, list[tuple[str, list[dict[str, object]]]], str, str, str]) -> str:
    """Every commit of one repository, oldest first, checked out in turn in one clone (so the
    index of each commit reuses the chunks of the files the previous one already parsed, as a
    user's checkout does: :func:`codeagent.eval.mirrors.checkout_commit`)."""
    repo, commits, mirrors, out, embed = job
    from codeagent.eval.mirrors import commit_time, find_mirror

    mirror = find_mirror(Path(mirrors), repo)
    if mirror is None:
        return f"{repo}: no mirror"
    dated = sorted((commit_time(mirror, commit), commit, items) for commit, items in commits)
    return "\n".join(dump_commit(repo, mirror, c, items, out, embed) for _, c, items in dated)


def dump_commit(
    repo: str, mirror: Path, commit: str, items: list[dict[str, object]], out: str, embed: str
) -> str:
    from codeagent.config import Settings
    from codeagent.errors import CloneError
    from codeagent.eval import metrics
    from codeagent.eval.baseline import BaselineRanker
    from codeagent.eval.mirrors import checkout_commit
    from codeagent.eval.runner import default_index_builder
    from codeagent.eval.splits import language_of
    from codeagent.progress import NullProgress
    from codeagent.rank import features, file_table
    from codeagent.rank.query import analyze
    from codeagent.repo.listing import list_files

    target = Path(out) / repo.replace("/", "+") / f"{commit}.pkl"
    if target.exists():
        return f"{repo}@{commit[:10]}: cached"
    started = time.perf_counter()
    home = Path(os.environ["CODEAGENT_HOME"])
    try:
        root = checkout_commit(mirror, commit, home / "checkouts", repo)
    except CloneError as exc:
        return f"{repo}@{commit[:10]}: {exc}"
    full = commit
    settings = Settings.load(llm="none", embed=embed)
    store, _ = default_index_builder(root, settings, progress=NullProgress())
    built = time.perf_counter() - started
    existing = list(list_files(root).paths)
    table = file_table.file_table(store)
    baseline = BaselineRanker(store.chunks, language=language_of(repo))
    rows = []
    for item in items:
        question = str(item["question"])
        expected, _ = metrics.resolve_paths(item["expected_files"], existing)  # type: ignore[arg-type]
        if not expected:
            continue
        found = features.compute(store, table, question, analyze(question))
        order = [int(f) for f in (-found.stage1).argsort(kind="stable") if found.kept[f]]
        rows.append({
            "id": item["id"], "repo": repo, "commit": full,
            "kind": _suite_kind(str(item["id"]), str(item.get("source", ""))),
            "matrix": found.matrix, "pool": [table.paths[f] for f in found.pool],
            "expected": expected,
            "stage1": [table.paths[f] for f in order[:100]],
            "baseline": baseline.rank(question, depth=20),
            "words": len(question.split()),
        })  # fmt: skip
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps({"names": features.NAMES, "rows": rows}))
    tmp.replace(target)
    return f"{repo}@{full[:10]}: {len(rows)} questions, {len(store.chunks)} chunks, {built:.1f}s"


def main() -> None:
    from codeagent.eval.repos import repo_key
    from codeagent.eval.splits import sample_commits
    from codeagent.eval.suite import SuiteItem, load_suite

    parser = argparse.ArgumentParser()
    parser.add_argument("suites", nargs="+", type=Path)
    parser.add_argument("--mirrors", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--embed", default="none")
    parser.add_argument("--max-commits", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repos", default="")
    parser.add_argument("--first", type=int, default=None, help="the first N items per repository")
    args = parser.parse_args()
    wanted = {r for r in args.repos.split(",") if r}
    items = []
    for suite in args.suites:
        loaded = [i for i in load_suite(suite) if not wanted or i.repo in wanted]
        if args.first is not None:
            kept: dict[str, list[SuiteItem]] = {}
            for i in loaded:
                kept.setdefault(i.repo, []).append(i)
            loaded = [i for group in kept.values() for i in group[: args.first]]
        items += sample_commits(loaded, args.max_commits, args.seed)
    groups: dict[str, dict[str, list[dict[str, object]]]] = {}
    for item in items:
        if item.commit:
            by_commit = groups.setdefault(repo_key(item.repo), {})
            by_commit.setdefault(item.commit, []).append(item.model_dump())
    jobs = [
        (repo, list(commits.items()), args.mirrors, args.out, args.embed)
        for repo, commits in groups.items()
    ]
    jobs.sort(key=lambda job: -len(job[1]))
    print(f"{len(items)} questions in {len(jobs)} repositories", file=sys.stderr, flush=True)
    # each repository's worker indexes in its own process (with --workers 1 too): a pool
    # worker (daemonic) may not start the index build's own parsing processes
    os.environ["CODEAGENT_WORKERS"] = "1"
    with multiprocessing.Pool(args.workers, maxtasksperchild=1) as pool:
        for n, line in enumerate(pool.imap_unordered(dump_repo, jobs), start=1):
            print(f"[{n}/{len(jobs)}]\n{line}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
