"""How much room a plain baseline leaves at Acc@k, per language family, from eval-dev reports.

    PYTHONPATH=src python eval/headroom.py OUT/report.json [OUT2/report.json ...] [--k 5]
        [--target 10]

For every report of ``codeagent eval-dev`` (the product and the plain BM25 baseline on the
same questions), per language family and per repository: the baseline's and the product's
Acc@k, the questions the baseline misses at k and how many of them the product finds, the
baseline's hits the product loses, and what a margin of ``--target`` points asks for. A
family's figure is the mean of its repositories, as in the eval tables; the most a ranker can
gain over the baseline is what the baseline misses (``room`` = 100 - baseline), so a margin
of ``--target`` points is out of reach of any ranker where ``room`` is below it.

Only questions that both rankers answered are counted (a question that errored for either is
left out). Nothing is run: the figures come from the reports as they are.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codeagent.eval.splits import language_of
from codeagent.eval.tables import FAMILY_TITLES


@dataclass
class Counts:
    """Per-question hit pairs (baseline, product) of one repository."""

    pairs: list[tuple[bool, bool]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.pairs)

    @property
    def base(self) -> float:
        return 100.0 * sum(b for b, _ in self.pairs) / self.n

    @property
    def product(self) -> float:
        return 100.0 * sum(p for _, p in self.pairs) / self.n

    @property
    def base_misses(self) -> int:
        return sum(not b for b, _ in self.pairs)

    @property
    def found(self) -> int:
        """Baseline misses that the product finds."""
        return sum(p and not b for b, p in self.pairs)

    @property
    def lost(self) -> int:
        """Baseline hits that the product misses."""
        return sum(b and not p for b, p in self.pairs)


def read_pairs(report: dict[str, Any], k: int) -> dict[str, Counts]:
    """Repository (as the report spells it) -> hit pairs at ``k``, for questions that both the
    product and the baseline answered."""
    hits: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    for record in report.get("questions", []):
        scores = record.get("scores") or {}
        key = f"hit@{k}"
        if record.get("error") or key not in scores:
            continue
        hits[(record["repo"], record["id"])][record["ranker"]] = bool(scores[key])
    counts: dict[str, Counts] = defaultdict(Counts)
    for (repo, _), by_ranker in sorted(hits.items()):
        if "product" in by_ranker and "baseline" in by_ranker:
            counts[repo].pairs.append((by_ranker["baseline"], by_ranker["product"]))
    return dict(counts)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def render(name: str, counts: dict[str, Counts], k: int, target: float) -> str:
    """One markdown table: a row per repository, a bold row per family (mean of its
    repositories)."""
    lines = [
        f"#### {name}: Acc@{k}, product against the plain BM25 (room = 100 - baseline)",
        "",
        "| family | repository | n | baseline | product | margin | room | baseline misses "
        f"found by the product | baseline hits lost | +{target:g} needs |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    families: dict[str, list[str]] = defaultdict(list)
    for repo in counts:
        families[language_of(repo)].append(repo)
    for family in sorted(
        families,
        key=lambda f: list(FAMILY_TITLES).index(f) if f in FAMILY_TITLES else len(FAMILY_TITLES),
    ):
        repos = sorted(families[family], key=str.lower)
        title = FAMILY_TITLES.get(family, family)
        for repo in repos:
            c = counts[repo]
            lines.append(
                _row(title, repo, c.n, c.base, c.product, c.found, c.base_misses, c.lost, target)
            )
        group = [counts[r] for r in repos]
        lines.append(
            _row(
                f"**{title}**",
                f"**mean of {len(repos)}**",
                sum(c.n for c in group),
                _mean([c.base for c in group]),
                _mean([c.product for c in group]),
                sum(c.found for c in group),
                sum(c.base_misses for c in group),
                sum(c.lost for c in group),
                target,
            )
        )
    return "\n".join(lines) + "\n"


def _row(
    family: str,
    repo: str,
    n: int,
    base: float,
    product: float,
    found: int,
    misses: int,
    lost: int,
    target: float,
) -> str:
    needed = base + target
    needs = f"{needed:.1f}" if needed <= 100.0 else "out of reach"
    share = f"{found}/{misses}" + (f" ({100.0 * found / misses:.0f} %)" if misses else "")
    return (
        f"| {family} | {repo} | {n} | {base:.1f} | {product:.1f} | {product - base:+.1f} | "
        f"{100.0 - base:.1f} | {share} | {lost} | {needs} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=Path, help="report.json of codeagent eval-dev")
    parser.add_argument("--k", type=int, default=5, help="the cut-off of Acc@k (default 5)")
    parser.add_argument(
        "--target",
        type=float,
        default=10.0,
        help="the margin over the baseline asked for, in points (default 10)",
    )
    args = parser.parse_args(argv)
    for path in args.reports:
        try:
            report = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            print(f"headroom: cannot read {path}: {exc}", file=sys.stderr)
            return 2
        counts = read_pairs(report, args.k)
        if not counts:
            print(
                f"headroom: {path}: no question with both a product and a baseline score "
                f"at {args.k}",
                file=sys.stderr,
            )
            return 2
        config = report.get("config", {})
        name = f"{config.get('split', path.parent.name)}, embed {config.get('embed', '?')}"
        print(render(name, counts, args.k, args.target))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
