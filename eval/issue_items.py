"""Issue-shaped items from a repository's history: a suite to judge retrieval on, not to fit.

    python eval/issue_items.py --mirrors DIR --repos OWNER/NAME,... --out SUITE.jsonl
        [--history 4000] [--per-repo 40] [--seed 41]

A commit that qualifies as :mod:`mine_commits` says, changes a function of a source file
(:func:`codeagent.eval.sources.is_source`) and adds or changes a test function becomes one
item, written the way a bug report is: the message without the file paths it names (an issue
names a symptom, not the file: :func:`tune_pairs.pseudo_issue`) and, below it, the test as the
reproducing snippet. The item is asked at the parent commit; ``expected_files`` are the source
files the commit changes, ``expected_spans`` the functions it changes there (read at the parent),
so ``eval/ask_e2e.py`` scores files and ``eval/dense_eval.py --suite`` files and functions.

The commits are drawn without reading them: the first ``--history`` of each repository's
qualifying history shuffled by ``random.Random(f"{seed}:{repo}")``, the first ``--per-repo``
that make an item. Items stay out of this repository (other projects' text).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tune_pairs import (
    QUERY_CHARS,
    TEST_CHARS,
    Blobs,
    _defs,
    _touching,
    pseudo_issue,
    qualifying,
    report,
    test_defs,
)

from codeagent.eval.sources import is_source


def _test_function(blobs: Blobs, sha: str, changed: dict[str, Any]) -> str | None:
    """The first test function the commit adds or changes, as its text at the commit."""
    for path in sorted(changed):
        if is_source(path, "python") or "test" not in path:
            continue
        hit = test_defs(blobs, sha, path, changed[path][1])
        if hit:
            return hit[0].text[:TEST_CHARS]
    return None


def repo_items(mirror: Path, repo: str, history: int, cap: int, seed: int) -> list[dict[str, Any]]:
    blobs = Blobs(mirror)
    found: list[dict[str, Any]] = []
    for message, sha, parent, changed in qualifying(mirror, repo, history, seed):
        if len(found) >= cap:
            break
        spans: dict[str, list[str]] = {}
        for path, (old, _new) in sorted(changed.items()):
            if is_source(path, "python"):
                hit = _touching(_defs(path, blobs.text(parent, path)), old)
                if hit:
                    spans[path] = sorted(
                        {c.symbol for c in hit if c.kind != "class"} or {hit[0].symbol}
                    )
        test = _test_function(blobs, sha, changed)
        message_text = pseudo_issue(message)[:QUERY_CHARS]
        if not spans or test is None or not message_text:
            continue
        found.append(
            {
                "id": f"{repo}@{sha[:12]}",
                "question": report(message_text, test),
                "repo": repo,
                "commit": parent,
                "expected_files": sorted(spans),
                "expected_spans": spans,
                "source": f"pseudo-issue from commit {sha} (eval/issue_items.py)",
            }
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--repos", required=True, help="OWNER/NAME,... (mirrors under --mirrors)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--history", type=int, default=4000)
    parser.add_argument("--per-repo", type=int, default=40)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    with args.out.open("w", encoding="utf-8") as out:
        for repo in args.repos.split(","):
            mirror = args.mirrors / repo.replace("/", "+") / "repo"
            made = repo_items(mirror, repo, args.history, args.per_repo, args.seed)
            for item in made:
                out.write(json.dumps(item) + "\n")
            print(f"{repo}: {len(made)} items", flush=True)


if __name__ == "__main__":
    main()
