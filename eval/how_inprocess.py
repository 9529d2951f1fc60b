"""The how-question sets of :mod:`how_functions`, answered in this process (a development tool:
seconds for every set, where fresh processes take many minutes). Each answer is
``Workspace.ask`` with the settings ``codeagent ask --llm none -k 6 --embed E`` makes, so it
has the sources a fresh process has; figures for a report come from ``how_functions.py``.

    python eval/how_inprocess.py eval/*-how.jsonl --mirrors DIR [--embed none] [--out FILE]
        [--against EARLIER.json]

``--against``: an earlier ``--out`` of this script; the questions whose first hit moved are
listed. Clones live where ``how_functions.py`` keeps them (``WORK``, the same default).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from subprocess import CalledProcessError
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from how_functions import KS, clone_at, first_hit


def table(rows: list[dict[str, Any]]) -> None:
    """fn@k per suite and over all."""
    by_suite: dict[str, list[int | None]] = defaultdict(list)
    for row in rows:
        by_suite[row["suite"]].append(row["rank"])
    by_suite["all"] = [row["rank"] for row in rows]
    print("| set | n | " + " | ".join(f"fn@{k}" for k in KS) + " |")
    for suite, ranks in by_suite.items():
        cells = [100 * sum(r is not None and r <= k for r in ranks) / len(ranks) for k in KS]
        print(f"| {suite} | {len(ranks)} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("suites", type=Path, nargs="+")
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--embed", default="none")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--against", type=Path, default=None)
    args = parser.parse_args()
    from codeagent.config import Settings
    from codeagent.errors import CodeAgentError
    from codeagent.workspace import Workspace

    home = Path(os.environ.get("CODEAGENT_HOME", "~/.codeagent")).expanduser()
    work = args.work or home / "checkouts" / "how"
    settings = Settings.load(llm="none", embed=args.embed, k=6)
    rows: list[dict[str, Any]] = []
    try:
        work.mkdir(parents=True, exist_ok=True)
        for suite in args.suites:
            items = [json.loads(line) for line in suite.read_text().splitlines() if line.strip()]
            spaces: dict[Path, Any] = {}
            for item in items:
                root = clone_at(args.mirrors, work, item["repo"], item["commit"])
                if root not in spaces:
                    spaces[root] = Workspace.open(root, settings, chat_model=None)
                sources = [s.model_dump() for s in spaces[root].ask(item["question"]).sources]
                rank = first_hit(sources, item["gold"])
                rows.append({**item, "suite": suite.stem, "rank": rank, "sources": sources})
    except (OSError, ValueError, KeyError, CodeAgentError, CalledProcessError) as exc:
        parser.exit(2, f"how_inprocess: {exc}\n")
    table(rows)
    if args.against:
        earlier = json.loads(args.against.read_text())
        before = {(r["repo"], r["question"]): r["rank"] for r in earlier}
        for row in rows:
            was = before.get((row["repo"], row["question"]), "absent")
            if was != row["rank"]:
                print(f"{was} -> {row['rank']}: [{row['suite']}] {row['question'][:90]}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
