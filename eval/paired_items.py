"""Each SWE-bench report beside the pseudo-issue its own fix makes: how far the issue-shaped
items of :mod:`issue_items` are from what users write, on the same fixes, asked at the same
commit.

    python eval/paired_items.py --mirrors DIR --out-real REAL.jsonl --out-pseudo PSEUDO.jsonl
        [--bench ../shared/bench/swebench-loc/dev.jsonl] [--repos OWNER/NAME,...]
        [--variant report|message|test]

For an instance of the bench whose repository has a mirror, its fix is the first commit whose
parent is the instance's ``base_commit`` and that changes one of its gold files (an instance
whose fix was merged otherwise, squashed onto a later commit, has none and is left out); the
commits that follow it one by one (its pull request's, up to a merge) are read for the test it
adds. The pseudo-issue is made from that fix the way :mod:`issue_items` makes one from any
commit (``report``: the message without its paths, the test below it as the snippet; the
``message`` or the ``test`` alone as variants). Both items are asked at ``base_commit`` and
judged on the bench's gold files and spans, so the two suites differ in the question only;
their ids are the instance's with ``~real`` or ``~VARIANT`` after it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

from issue_items import _test_function
from tune_pairs import QUERY_CHARS, Blobs, _changed, pseudo_issue, report

from codeagent.eval.mirrors import find_mirror

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "swebench-loc" / "dev.jsonl"
VARIANTS = ("report", "message", "test")
PR_COMMITS = 12  # a pull request's commits read for its test, at most


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(mirror), *args],
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    ).stdout


def fix_commits(mirror: Path, base: str, gold: list[str]) -> list[str]:
    """The fix of an instance and the commits that follow it one by one: the first child of
    ``base`` that changes a gold file, then while a commit has exactly one child that is not a
    merge, that child (a pull request's commits); empty when no child of ``base`` changes one."""
    rows = _git(mirror, "rev-list", "--reverse", "--parents", "--ancestry-path", f"{base}..HEAD")
    children: dict[str, list[str]] = defaultdict(list)
    parents: dict[str, list[str]] = {}
    for line in rows.splitlines():
        sha, *ps = line.split()
        parents[sha] = ps
        for p in ps:
            children[p].append(sha)
    touched = set(_git(mirror, "rev-list", "--ancestry-path", f"{base}..HEAD", "--", *gold).split())
    first = next((c for c in children[base] if c in touched and len(parents[c]) == 1), None)
    if first is None:
        return []
    chain = [first]
    while len(chain) < PR_COMMITS:
        nxt = children[chain[-1]]
        if len(nxt) != 1 or len(parents[nxt[0]]) != 1:
            break
        chain.append(nxt[0])
    return chain


def pseudo_question(
    mirror: Path, blobs: Blobs, base: str, chain: list[str], variant: str
) -> str | None:
    """The question :mod:`issue_items` would make of the fix (``chain[0]``'s message, the first
    test the chain, which starts from ``base``, adds or changes), as ``variant`` says; None when
    a part it needs is missing."""
    message = pseudo_issue(_git(mirror, "log", "-1", "--format=%B", chain[0]).strip())[:QUERY_CHARS]
    test = None
    parent = base  # the fix's one parent (fix_commits)
    for sha in chain:
        test = _test_function(blobs, sha, _changed(mirror, parent, sha))
        if test is not None:
            break
        parent = sha
    if variant == "message":
        return message or None
    if variant == "test":
        return test
    return report(message, test) if message and test else None


def paired(
    rows: list[dict[str, Any]], mirrors: Path, variant: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, int]]:
    """The real and the pseudo items of every instance that has both, and per repository how
    many instances were left out."""
    real: list[dict[str, Any]] = []
    pseudo: list[dict[str, Any]] = []
    left: dict[str, int] = defaultdict(int)
    blobs: dict[str, Blobs] = {}
    for row in rows:
        repo = row["repo"]
        mirror = find_mirror(mirrors, repo)
        if mirror is None:
            left[repo] += 1
            continue
        base = row["base_commit"]
        chain = fix_commits(mirror, base, row["gold_files"])
        blob = blobs.setdefault(repo, Blobs(mirror))
        question = pseudo_question(mirror, blob, base, chain, variant) if chain else None
        if question is None:
            left[repo] += 1
            continue
        item = {
            "repo": repo,
            "commit": base,
            "expected_files": row["gold_files"],
            "expected_spans": row["expected_spans"],
        }
        ident = row["instance_id"]  # each suite's own suffix: one report has its rows apart
        real.append(
            {"id": f"{ident}~real", **item, "question": row["problem_statement"],
             "source": "SWE-bench report"}
        )  # fmt: skip
        pseudo.append(
            {"id": f"{ident}~{variant}", **item, "question": question,
             "source": f"pseudo-issue ({variant}) from {chain[0]}"}
        )  # fmt: skip
    return real, pseudo, dict(left)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--out-real", type=Path, required=True)
    parser.add_argument("--out-pseudo", type=Path, required=True)
    parser.add_argument("--bench", type=Path, default=BENCH)
    parser.add_argument("--repos", default="", help="OWNER/NAME,... (default: every one)")
    parser.add_argument("--variant", choices=VARIANTS, default="report")
    args = parser.parse_args()
    if not args.bench.is_file():
        parser.error(f"--bench {args.bench}: no such file")
    if not args.mirrors.is_dir():
        parser.error(f"--mirrors {args.mirrors}: no such folder")
    wanted = {r for r in args.repos.split(",") if r}
    rows = [json.loads(line) for line in args.bench.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if not wanted or r["repo"] in wanted]
    real, pseudo, left = paired(rows, args.mirrors, args.variant)
    for path, items in ((args.out_real, real), (args.out_pseudo, pseudo)):
        path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    counts: dict[str, int] = defaultdict(int)
    for item in real:
        counts[item["repo"]] += 1
    for repo in sorted({*counts, *left}):
        print(f"{repo}: {counts.get(repo, 0)} pairs, {left.get(repo, 0)} left out", flush=True)


if __name__ == "__main__":
    main()
