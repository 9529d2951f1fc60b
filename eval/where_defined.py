""" "where is NAME defined?" on real repositories of the language layer, against an outside truth.

    PYTHONPATH=src:eval python eval/where_defined.py DIR [DIR ...] [--per-language 60]
        [--typescript NODE_MODULES/typescript]

For every language of a checkout, names that the truth (universal-ctags; the TypeScript
compiler for JavaScript/TypeScript with ``--typescript``, see ``compare_ctags.py``) defines
exactly once in the whole repository are sampled (a fixed, hash-ordered sample of at most
``--per-language``); each is asked as "where is NAME defined?" through the whole agent with no
LLM and BM25 only (rule routing, the symbol tool). A question counts as right when the first
cited file is the file the truth names. Also "list the methods of TYPE" for types whose
methods ctags scopes to them: exact when the set of (file, line) of the answer's own methods
is the set ctags gives.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from compare_ctags import (
    GROUPS,
    _plain,
    compiler_definitions,
    ctags_tags,
    files_by_language,
)

from codeagent.config import Settings
from codeagent.workspace import Workspace

CALLABLE_KINDS = {"func", "method", "function", "singletonMethod"}


def _order(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def truth_of(root: Path, typescript: Path | None) -> dict[str, set[tuple[str, str, int]]]:
    """language -> (name, path, line) of every definition the truth has."""
    out: dict[str, set[tuple[str, str, int]]] = defaultdict(set)
    for language, paths in files_by_language(root).items():
        if typescript is not None and language in ("javascript", "typescript"):
            for path, name, line, _ in compiler_definitions(root, paths, typescript):
                out[language].add((name, path, line))
        else:
            groups = GROUPS[language]
            for t in ctags_tags(root, language, paths):
                if t.get("kind") in groups:
                    out[language].add((_plain(t["name"]), t["path"], int(t["line"])))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--per-language", type=int, default=60)
    parser.add_argument("--typescript", type=Path)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ.setdefault("CODEAGENT_HOME", tempfile.mkdtemp(prefix="where-defined-"))
    totals: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for root in args.dirs:
        truth = truth_of(root, args.typescript)
        counts = Counter(name for rows in truth.values() for name, _, _ in rows)
        workspace = Workspace(root, Settings(llm="none", embed="none"))
        for language, rows in sorted(truth.items()):
            unique = sorted(
                (
                    (n, p, line)
                    for n, p, line in rows
                    if counts[n] == 1 and n.isidentifier() and len(n) >= 3
                ),
                key=lambda r: _order(r[0]),
            )[: args.per_language]
            wrong = []
            for name, path, line in unique:
                result = workspace.ask(f"where is {name} defined?")
                first = result.sources[0].path if result.sources else None
                totals[language] += 1
                if first == path and result.route.tool == "symbols":
                    right[language] += 1
                else:
                    wrong.append((name, path, line, result.route.tool, first))
            n = len(unique)
            ok = n - len(wrong)
            print(
                f"{root.name:24} {language:11} where-defined {ok}/{n}"
                + (f" {ok / n:.1%}" if n else "")
            )
            for row in wrong[: args.show]:
                print(f"      wrong {row}")
    print()
    for language in sorted(totals):
        share = right[language] / totals[language]
        print(f"{language:11} {right[language]}/{totals[language]} = {share:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
