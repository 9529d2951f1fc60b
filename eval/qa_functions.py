"""Function level for how-questions: does one of the first k chunks a ranker cites overlap a
function the reference answer names?

    python eval/qa_functions.py OUT/report.json --suites eval/swe-qa-*.jsonl \
        --checkouts CHECKOUTS [--k 1,5,10]

Reads the records of an ``eval-dev`` report of SWE-QA suites, the suites' reference answers,
and the checkouts ``eval-dev`` left (``--checkouts``: ``clones/OWNER+NAME``, which must stand
at the item's commit). The truth is the answer's and Python's: a name the reference answer
writes as code (```should_bypass_proxies```, ```Session.send```) is a function of one of the
item's expected files (the files the answer names) when Python's ``ast`` finds it there at
the commit: a dotted name by its qualified name's end, a bare name when exactly one function
of those files has it. ``fn@k`` is 1 when one of the first ``k`` cited chunks shares a line
with one of them (:mod:`codeagent.eval.functions`). ``added`` is the same with the functions
the question itself names left out (the ones the answer adds: the code that does the work,
which the question did not say). Items with no such function are not scored.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from codeagent.eval.functions import Span, file_functions, function_scores
from codeagent.eval.repos import repo_key

_CODE = re.compile(r"`([A-Za-z_][\w.]*)(?:\(\))?`")
KS = (1, 5, 10)


def named(text: str) -> set[str]:
    """The names ``text`` writes as code (backticks), calls' parentheses dropped."""
    return {m.group(1).strip(".") for m in _CODE.finditer(text or "")}


def gold(root: Path, files: list[str], names: set[str]) -> list[tuple[Span, str]]:
    """The functions of ``files`` (at ``root``) that ``names`` name, with their names."""
    table: dict[str, list[tuple[Span, str]]] = defaultdict(list)  # last part -> functions
    for path in files:
        for qualname, (first, last) in file_functions(root, path).items():
            table[qualname.rpartition(".")[2]].append(((path, first, last), qualname))
    found: list[tuple[Span, str]] = []
    for name in sorted(names):
        last = name.rpartition(".")[2]
        candidates = table.get(last, [])
        if "." in name:
            chosen = [c for c in candidates if ("." + c[1]).endswith("." + name)]
        else:
            chosen = candidates if len(candidates) == 1 else []
        found += [c for c in chosen if c not in found]
    return found


def _head(root: Path) -> str:
    done = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True)
    return done.stdout.decode().strip()


def score(
    report: dict[str, Any], answers: dict[str, dict[str, Any]], checkouts: Path
) -> dict[str, Any]:
    """Per repository and ranker: ``fn@k`` and ``added@k`` means, and the items scored."""
    cells: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    heads: dict[Path, str] = {}
    for record in report["questions"]:
        item = answers.get(record["id"])
        if record.get("error") or item is None:
            continue
        repo = repo_key(record["repo"])
        root = checkouts / "clones" / repo.replace("/", "+")
        if root not in heads:
            heads[root] = _head(root) if root.is_dir() else ""
        if not heads[root] or heads[root] != record["commit"]:
            print(f"{record['id']}: no checkout at {record['commit'][:12]}", file=sys.stderr)
            continue
        functions = gold(root, record["expected_files"], named(item["reference_answer"]))
        asked = named(record["question"])
        added = [f for f in functions if f[1] not in asked and f[1].rpartition(".")[2] not in asked]
        chunks = [(c[0], c[1], c[2]) for c in record.get("cited_chunks") or []]
        cell = cells[(repo, record["ranker"])]
        for key, spans in (("fn", functions), ("added", added)):
            found = function_scores(chunks, [span for span, _ in spans])
            for k in KS:
                if found:
                    cell[f"{key}@{k}"].append(found[f"fn_hit@{k}"])
    table: dict[str, Any] = {}
    for (repo, ranker), cell in sorted(cells.items()):
        row = table.setdefault(repo, {})
        row[ranker] = {name: 100 * statistics.fmean(v) for name, v in cell.items()}
        row[ranker]["n"] = len(cell.get("fn@1", []))
        row[ranker]["n_added"] = len(cell.get("added@1", []))
    return table


def markdown(table: dict[str, Any]) -> str:
    keys = [f"fn@{k}" for k in KS] + [f"added@{k}" for k in KS]
    lines = [
        "| repository | n (added) | " + " | ".join(keys) + " |",
        "|---" * (2 + len(keys)) + "|",
    ]
    for repo, row in table.items():
        product, baseline = row.get("product", {}), row.get("baseline", {})
        cells = [
            f"{product.get(k, float('nan')):.1f} / {baseline.get(k, float('nan')):.1f}"
            for k in keys
        ]
        n = f"{product.get('n', 0)} ({product.get('n_added', 0)})"
        lines.append(f"| {repo} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--suites", type=Path, nargs="+", required=True)
    parser.add_argument("--checkouts", type=Path, required=True)
    args = parser.parse_args()
    try:
        report = json.loads(args.report.read_text(encoding="utf-8"))
        if not isinstance(report, dict) or not isinstance(report.get("questions"), list):
            raise ValueError(f"{args.report} is not an eval-dev report (no questions)")
        answers = {}
        for suite in args.suites:
            for line in suite.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    item = json.loads(line)
                    if item.get("reference_answer"):
                        answers[item["id"]] = item
        if not (args.checkouts / "clones").is_dir():
            raise ValueError(f"no eval-dev checkouts at {args.checkouts} (no clones/)")
        table = score(report, answers, args.checkouts)
    except (OSError, ValueError) as exc:
        parser.exit(2, f"qa_functions: {exc}\n")
    print(markdown(table))


if __name__ == "__main__":
    main()
