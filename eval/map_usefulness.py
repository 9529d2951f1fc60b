"""Does the repository map show what an issue's fix changes? Issue-shaped items, real code.

    PYTHONPATH=src python eval/map_usefulness.py ../shared/bench/swebench-loc/dev.jsonl \\
        --mirrors MIRRORS --checkouts DIR --repos psf/requests,pallets/flask [--per-repo N] \\
        [--budgets 1024,2048,4096] [--embed none] [--out results.jsonl]

For each SWE-bench item (``problem_statement``, ``base_commit``, ``gold_files``,
``expected_spans``), the repository is checked out at its base commit from a bare mirror
(one clone per repository, moved from commit to commit so an index reuses the chunks of
files already parsed), indexed, and mapped at each budget twice: **focused** on the issue
text (``build_map(focus=[problem_statement])``) and **without focus**. A map hits the file
when a gold file is among the files it shows (with definitions, not only named on its last
line), and hits the function when one of the gold spans of a gold file (the function, method
or class the fix edits, by qualified name) is among the definitions it shows. Every map's
text is counted again with the tokenizer against its budget: ``over`` (more tokens than the
budget), ``short`` (more than 2 % under it) and ``whole`` (no file left out).

Prints one Markdown table (per repository and overall) and writes one JSON line per item and
budget to ``--out``. A bad argument is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", type=Path, help="SWE-bench localisation items (JSONL)")
    parser.add_argument("--mirrors", type=Path, required=True, help="bare mirrors: OWNER+NAME/")
    parser.add_argument("--checkouts", type=Path, required=True, help="where clones are kept")
    parser.add_argument("--repos", default="", help="owner/name,... (default: all with a mirror)")
    parser.add_argument("--per-repo", type=int, default=0, help="items per repository (0: all)")
    parser.add_argument("--budgets", default="1024,2048,4096")
    parser.add_argument("--embed", default="none", help="the index's embedder (default none)")
    parser.add_argument("--out", type=Path, default=None, help="one JSON line per item, budget")
    return parser.parse_args(argv)


def _fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def load_items(path: Path, repos: set[str], per_repo: int, mirrors: Path) -> list[dict[str, Any]]:
    from codeagent.eval.mirrors import find_mirror

    if not path.is_file():
        _fail(f"{path}: no such file")
    items: list[dict[str, Any]] = []
    taken: dict[str, int] = defaultdict(int)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        repo = item["repo"]
        if (repos and repo not in repos) or (per_repo and taken[repo] >= per_repo):
            continue
        if find_mirror(mirrors, repo) is None:
            continue
        taken[repo] += 1
        items.append(item)
    missing = repos - {i["repo"] for i in items}
    if missing:
        _fail(f"no items or no mirror under {mirrors} for {', '.join(sorted(missing))}")
    return items


def hits(found: Any, item: dict[str, Any]) -> dict[str, Any]:
    """Whether the map shows a gold file, and a gold span of one; the gold file's place."""
    gold = set(item["gold_files"])
    spans = {(path, name) for path, names in item["expected_spans"].items() for name in names}
    shown = [f.path for f in found.files]
    defs = {(f.path, d.qualname) for f in found.files for d in f.definitions}
    place = next((k + 1 for k, p in enumerate(shown) if p in gold), None)
    return {
        "file": place is not None,
        "place": place,
        "function": bool(spans & defs) if spans else None,
        "tokens": found.tokens,
        "files": len(shown),
    }


def run(argv: list[str] | None = None) -> int:
    args = _args(argv)
    from codeagent.config import Settings
    from codeagent.eval.mirrors import checkout_commit, find_mirror
    from codeagent.index.build import load_or_build
    from codeagent.repomap import build_map
    from codeagent.repomap.base import map_base
    from codeagent.repomap.tokens import counter

    try:
        budgets = [int(b) for b in args.budgets.split(",") if b.strip()]
    except ValueError:
        _fail(f"--budgets: whole numbers of tokens, not {args.budgets}")
    repos = {r.strip() for r in args.repos.split(",") if r.strip()}
    items = load_items(args.bench, repos, args.per_repo, args.mirrors)
    settings = Settings.load(embed=args.embed)
    tokens = counter()
    rows: list[dict[str, Any]] = []
    out = args.out.open("w", encoding="utf-8") if args.out else None
    for n, item in enumerate(items, 1):
        mirror = find_mirror(args.mirrors, item["repo"])
        assert mirror is not None
        root = checkout_commit(mirror, item["base_commit"], args.checkouts, item["repo"])
        started = time.perf_counter()
        store, stats = load_or_build(root, settings)
        indexed = time.perf_counter() - started
        state, entry = stats.state_hash, Path(stats.cache_path)
        started = time.perf_counter()
        map_base(store, state=state, entry=entry)  # computed, or read back from the entry
        base_seconds = time.perf_counter() - started
        for budget in budgets:
            row: dict[str, Any] = {
                "id": item["instance_id"],
                "repo": item["repo"],
                "budget": budget,
            }
            for mode, focus in (("focused", [item["problem_statement"]]), ("plain", [])):
                t0 = time.perf_counter()
                found = build_map(store, budget=budget, focus=focus, state=state, entry=entry)
                seconds = time.perf_counter() - t0
                counted = tokens.count(found.text)
                row[mode] = {**hits(found, item), "seconds": round(seconds, 3)}
                row[mode]["over"] = counted > budget
                row[mode]["short"] = counted < 0.98 * budget  # fine when all of it fits
                row[mode]["whole"] = not found.more_count
            row["index_seconds"] = round(indexed, 1)
            row["base_seconds"] = round(base_seconds, 2)
            rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
        print(
            f"[{n}/{len(items)}] {item['instance_id']}: indexed in {indexed:.1f}s", file=sys.stderr
        )
    if out is not None:
        out.close()
    print(table(rows, budgets))
    return 0


def table(rows: list[dict[str, Any]], budgets: list[int]) -> str:
    """Per repository and overall: items, and per budget the focused and plain hit rates."""
    by_repo: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_repo[row["repo"]].append(row)
    head = ["repository", "items"]
    for b in budgets:
        head += [f"{b} focused file / fn", f"{b} plain file / fn"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    groups = [*sorted(by_repo.items()), ("all", rows)]
    for name, group in groups:
        cells = [name, str(len({r["id"] for r in group}))]
        for b in budgets:
            at = [r for r in group if r["budget"] == b]
            cells += [_rate(at, "focused"), _rate(at, "plain")]
        lines.append("| " + " | ".join(cells) + " |")
    maps = [r[m] for r in rows for m in ("focused", "plain")]
    over = sum(m["over"] for m in maps)
    short = [m for m in maps if m["short"]]
    focused = sorted(r["focused"]["seconds"] for r in rows) or [0.0]
    plain = sorted(r["plain"]["seconds"] for r in rows) or [0.0]
    lines.append("")
    whole = sum(m["whole"] for m in short)
    lines.append(f"maps: {len(maps)}; over their budget: {over}; more than 2 % under it:"
                 f" {len(short)} (every file shown in {whole} of them)")  # fmt: skip
    lines.append(
        f"a map once its state's base is in memory: focused on the issue (the search ranker"
        f" included) median {focused[len(focused) // 2]:.3f} s, max {focused[-1]:.3f} s;"
        f" without focus median {plain[len(plain) // 2]:.3f} s, max {plain[-1]:.3f} s"
    )
    return "\n".join(lines)


def _rate(rows: list[dict[str, Any]], mode: str) -> str:
    if not rows:
        return "-"
    files = 100.0 * sum(r[mode]["file"] for r in rows) / len(rows)
    judged = [r for r in rows if r[mode]["function"] is not None]
    fns = 100.0 * sum(r[mode]["function"] for r in judged) / len(judged) if judged else 0.0
    return f"{files:.0f} % / {fns:.0f} %"


if __name__ == "__main__":
    sys.exit(run())
