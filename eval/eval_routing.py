"""Route accuracy of the rule router on a suite (no LLM, no index): the route each question
gets against ``expected_route``.

    PYTHONPATH=src python eval/eval_routing.py eval/repo-wide-routing.jsonl --repo psf/requests=DIR
    PYTHONPATH=src python eval/eval_routing.py eval/stdlib.jsonl

``--repo NAME=DIR`` maps a suite's ``repo`` to a checkout; ``stdlib:`` repos need none.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from codeagent.agent.rules import route_by_rules
from codeagent.config import Settings
from codeagent.eval.repos import STDLIB_PREFIX, stdlib_dir
from codeagent.eval.suite import load_suite
from codeagent.index.lazy import LazyIndex
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import default_registry


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("suite", type=Path)
    parser.add_argument("--repo", action="append", default=[])
    args = parser.parse_args()
    repos = dict(item.split("=", 1) for item in args.repo)
    settings = Settings(llm="none", embed="none")
    registry = default_registry()
    total = right = 0
    for item in load_suite(args.suite):
        if item.expected_route is None:
            continue
        if item.repo.startswith(STDLIB_PREFIX):
            root = stdlib_dir() / item.repo.removeprefix(STDLIB_PREFIX)
        else:
            root = Path(repos[item.repo])
        ctx = ToolContext(root, settings, LazyIndex(root, settings))
        decision = route_by_rules(item.question, ctx, registry)
        total += 1
        if decision.tool == item.expected_route:
            right += 1
        else:
            print(f"MISS {item.id}: {item.question!r} -> {decision.tool} ({decision.reason})")
    print(f"{args.suite.name}: {right}/{total} routed as expected ({100 * right / total:.1f} %)")


if __name__ == "__main__":
    main()
