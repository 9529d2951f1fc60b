"""Per-repository tables of a dev run: each ranker's numbers side by side, per split.

Two benchmarks, each with its own metric: SWE-bench localization (suites ``swebench*``) with
file Acc@1/3/5/10 (``hit@k``: an expected file among the top k ranked files), and SWE-QA
(suites ``swe-qa*``) with the recall@5/10 of the expected files: the files the reference answer
names, or for an answer that names none, the files defining the classes and functions it
names (``eval/convert_bench.py``). A row is one repository of one split; under
the rows come the mean over repositories (each counts once) and the mean over questions.
Errored records are counted, not scored. Pure functions over the records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from codeagent.eval import metrics
from codeagent.eval.repos import repo_key
from codeagent.eval.splits import LANG_SPLITS, language_of, split_of

BENCHMARKS = {
    "swebench": ("SWE-bench file Acc@k", [f"hit@{k}" for k in metrics.K_VALUES]),
    "mined": ("Mined commits: file Acc@k", [f"hit@{k}" for k in metrics.K_VALUES]),
    "swe-qa": ("SWE-QA expected-file recall@k", ["recall@5", "recall@10"]),
    # an item whose gold patch edits a function: one of the first k cited chunks overlaps it
    "functions": ("SWE-bench function Acc@k", [f"fn_hit@{k}" for k in (1, 5, 10)]),
    # a mined commit: one of the first k cited chunks shares a line the commit edits
    "edits": ("Mined commits: edited-line Acc@k", [f"edit@{k}" for k in (1, 5, 10)]),
}
HEADERS = {
    **{f"hit@{k}": f"Acc@{k}" for k in metrics.K_VALUES},
    "recall@5": "R@5",
    "recall@10": "R@10",
    **{f"fn_hit@{k}": f"Fn@{k}" for k in (1, 5, 10)},
    **{f"edit@{k}": f"Edit@{k}" for k in (1, 5, 10)},
}
SPLIT_TITLES = {"fit": "Fit", "choose": "Choose", "sealed": "Sealed", None: "In no split"}
FAMILY_TITLES = {"go": "Go", "js": "JavaScript/TypeScript", "rust": "Rust", "java": "Java"}


def table_of(repo: str) -> str | None:
    """The table a repository's rows go to: its split; ``langs:FAMILY`` for a repository in
    another language (one table, one mean, per language family)."""
    split = split_of(repo)
    return f"langs:{language_of(repo)}" if split in LANG_SPLITS else split


def _title(table: str) -> str:
    if table.startswith("langs:"):
        family = table.partition(":")[2]
        return f"Other languages, {FAMILY_TITLES.get(family, family)}"
    return SPLIT_TITLES.get(table, table.capitalize())


def benchmark_of(suite: str) -> str | None:
    """``swebench`` or ``swe-qa`` from a suite name; None for any other suite."""
    for name in BENCHMARKS:
        if suite.startswith(name):
            return name
    return None


def benchmarks_of(record: Mapping[str, Any]) -> list[str]:
    """The tables a record counts in: its suite's benchmark, and ``functions`` (``edits``)
    when it was scored at function level (against the lines a mined commit edits:
    :mod:`codeagent.eval.functions`)."""
    found = [bench] if (bench := benchmark_of(record["suite"])) is not None else []
    scores = record.get("scores") or {}
    if any(key.startswith("fn_hit@") for key in scores):
        found.append("functions")
    if any(key.startswith("edit@") for key in scores):
        found.append("edits")
    return found


def _scored(record: Mapping[str, Any], keys: Sequence[str]) -> bool:
    return record["error"] is None and all(key in record["scores"] for key in keys)


def build_tables(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{split: {benchmark: {"rows": {repo: {ranker: cell}}, "mean": ..., "pooled": ...}}}``.

    A cell is ``{"n": scored questions, "errors": n, metric: mean}``; ``mean`` averages the
    rows' metric means (repositories with no scored question left out), ``pooled`` all the
    split's scored questions.
    """
    grouped: dict[Any, dict[str, dict[str, dict[str, list[Mapping[str, Any]]]]]] = {}
    rankers: list[str] = []  # in first-seen order
    for record in records:
        for bench in benchmarks_of(record):
            split = table_of(record["repo"])
            rows = grouped.setdefault(split, {}).setdefault(bench, {})
            by_ranker = rows.setdefault(repo_key(record["repo"]), {})
            ranker = record.get("ranker", "product")
            by_ranker.setdefault(ranker, []).append(record)
            if ranker not in rankers:
                rankers.append(ranker)
    tables: dict[str, Any] = {}
    for split, benches in grouped.items():
        for bench, rows in benches.items():
            keys = BENCHMARKS[bench][1]
            table_rows = {
                repo: {r: _cell(by_ranker[r], keys) for r in rankers if r in by_ranker}
                for repo, by_ranker in sorted(rows.items())
            }
            mean = {
                ranker: _mean_of_rows(
                    [cells[ranker] for cells in table_rows.values() if ranker in cells], keys
                )
                for ranker in rankers
            }
            pooled = {
                ranker: _cell([rec for by in rows.values() for rec in by.get(ranker, [])], keys)
                for ranker in rankers
            }
            table = {"rows": table_rows, "mean": mean, "pooled": pooled}
            tables.setdefault(str(split).lower(), {})[bench] = table
    return tables


def _cell(records: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> dict[str, Any]:
    scored = [r for r in records if _scored(r, keys)]
    cell: dict[str, Any] = {
        "n": len(scored),
        "errors": sum(1 for r in records if r["error"] is not None),
    }
    for key in keys:
        cell[key] = metrics.mean(r["scores"][key] for r in scored)
    return cell


def _mean_of_rows(cells: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> dict[str, Any]:
    used = [cell for cell in cells if cell["n"]]
    mean: dict[str, Any] = {"n": len(used)}  # repositories
    for key in keys:
        mean[key] = metrics.mean(cell[key] for cell in used)
    return mean


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def render_tables(tables: Mapping[str, Any]) -> str:
    """Markdown: one table per (split, benchmark); a cell shows each ranker's number, ``/``."""
    parts: list[str] = []
    order = ["fit", "choose", "sealed", *(f"langs:{f}" for f in FAMILY_TITLES), "none"]
    for split in sorted(tables, key=lambda s: order.index(s) if s in order else len(order)):
        for bench in BENCHMARKS:
            table = tables[split].get(bench)
            if table is None:
                continue
            title, keys = BENCHMARKS[bench]
            rankers = list(table["mean"])
            parts.append(f"#### {_title(split)}: {title} (%, {' / '.join(rankers)})\n")
            head = ["repository", "n", *(HEADERS[k] for k in keys)]
            parts.append("| " + " | ".join(head) + " |")
            parts.append("|" + "---|" * len(head))
            for repo, cells in table["rows"].items():
                first = cells[rankers[0]] if rankers[0] in cells else next(iter(cells.values()))
                n = str(first["n"]) + (f" ({first['errors']} errors)" if first["errors"] else "")
                parts.append(_row(repo, n, cells, rankers, keys))
            means = table["mean"]
            n_repos = str(means[rankers[0]]["n"]) + " repos"
            parts.append(_row("**mean over repositories**", n_repos, means, rankers, keys))
            pooled = table["pooled"]
            n_q = str(pooled[rankers[0]]["n"])
            parts.append(_row("mean over questions", n_q, pooled, rankers, keys))
            parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def _row(
    label: str,
    n: str,
    cells: Mapping[str, Mapping[str, Any]],
    rankers: Sequence[str],
    keys: Sequence[str],
) -> str:
    values = [
        " / ".join(_pct(cells[r][key]) if r in cells else "—" for r in rankers) for key in keys
    ]
    return "| " + " | ".join([label, n, *values]) + " |"
