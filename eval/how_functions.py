"""Hand-written how-questions about a repository's code, each with the functions that do the
work: is one of them among the first k chunks a fresh ``codeagent ask`` cites?

    python eval/how_functions.py eval/rust-how.jsonl --mirrors DIR [--embed none|local] \
        [--work DIR] [--out FILE.json]

A suite line is ``{"repo": "OWNER/NAME", "commit": SHA, "question": ..., "gold": ["PATH:LINE",
...]}``: each gold entry is a line of the code that does the work at that commit (a
function's first line, or the line in it that does it), chosen by reading the code (a
question may have several). The clone is
``WORK/OWNER+NAME`` from the mirror (made and checked out at the commit when missing; the
default ``WORK`` is ``$CODEAGENT_HOME/checkouts/how``). Each clone is indexed first
(``codeagent index --embed E``, so an answer has every vector); each question then runs
``codeagent ask QUESTION --json --llm none -k 6 --no-server --embed E`` there (the ``codeagent``
command beside this Python). ``fn@k``: one of the first ``k`` cited chunks holds a gold line.
Prints a line per question (the rank of the first hit, the first five sources) and a table per
repository.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

KS = (1, 3, 5)


def first_hit(sources: list[dict[str, Any]], gold: list[str]) -> int | None:
    """The 1-based rank of the first source that holds a gold ``PATH:LINE``, or None."""
    lines = [(g.rsplit(":", 1)[0], int(g.rsplit(":", 1)[1])) for g in gold]
    for rank, s in enumerate(sources, start=1):
        if any(s["path"] == p and s["start_line"] <= n <= s["end_line"] for p, n in lines):
            return rank
    return None


def clone_at(mirrors: Path, work: Path, repo: str, commit: str) -> Path:
    """``WORK/OWNER+NAME`` at ``commit``, cloned from the mirror when missing."""
    name = repo.replace("/", "+")
    root = work / name
    if not root.is_dir():
        mirror = mirrors / name / "repo"
        source = mirror if mirror.is_dir() else mirrors / name
        subprocess.run(["git", "clone", "-q", str(source), str(root)], check=True,
                       capture_output=True)  # fmt: skip
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True)
    if head.stdout.decode().strip() != commit:
        subprocess.run(["git", "-C", str(root), "checkout", "-q", commit], check=True,
                       capture_output=True)  # fmt: skip
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--embed", default="none")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    home = Path(os.environ.get("CODEAGENT_HOME", "~/.codeagent")).expanduser()
    work = args.work or home / "checkouts" / "how"
    try:
        work.mkdir(parents=True, exist_ok=True)
        items = [json.loads(line) for line in args.suite.read_text().splitlines() if line.strip()]
        roots = [clone_at(args.mirrors, work, item["repo"], item["commit"]) for item in items]
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as exc:
        parser.exit(2, f"how_functions: {exc}\n")
    command = str(Path(sys.executable).with_name("codeagent"))
    for root in dict.fromkeys(roots):  # every vector there before the first question
        done = subprocess.run(
            [command, "index", "--repo", str(root), "--embed", args.embed, "--json"],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            sys.exit(f"how_functions: index {root}: {done.stderr.strip()[-300:]}")
    rows: list[dict[str, Any]] = []
    for item, root in zip(items, roots, strict=True):
        done = subprocess.run(
            [command, "ask", item["question"], "--json", "--llm", "none", "-k", "6",
             "--no-server", "--embed", args.embed, "--repo", str(root)],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            sys.exit(f"how_functions: {item['question']!r}: {done.stderr.strip()[-300:]}")
        sources = json.loads(done.stdout).get("sources", [])
        rank = first_hit(sources, item["gold"])
        rows.append({**item, "rank": rank, "sources": sources})
        shown = " ".join(f"{s['path'].rsplit('/', 1)[-1]}:{s['start_line']}" for s in sources[:5])
        print(f"{rank or '-':>2} {item['question'][:70]} | {shown}", flush=True)
    by_repo: dict[str, list[int | None]] = defaultdict(list)
    for row in rows:
        by_repo[row["repo"]].append(row["rank"])
    by_repo["all"] = [row["rank"] for row in rows]
    print("\n| repository | n | " + " | ".join(f"fn@{k}" for k in KS) + " |")
    print("|---" * (2 + len(KS)) + "|")
    for repo, ranks in by_repo.items():
        cells = [100 * sum(r is not None and r <= k for r in ranks) / len(ranks) for k in KS]
        print(f"| {repo} | {len(ranks)} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
