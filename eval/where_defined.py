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
is the set ctags gives (not for JavaScript/TypeScript); and, for a type whose name several
files define, "list the methods of TYPE in PATH" (Java, PHP: see ``shared_methods_exact``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from compare_ctags import (
    GROUPS,
    _plain,
    compiler_definitions,
    ctags_tags,
    files_by_language,
)

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.symbols.graph import SymbolGraph
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


TYPE_GROUP = "type"


def _ctags_languages(root: Path) -> Iterator[tuple[str, dict[str, str], list[dict[str, Any]]]]:
    """(language, its kind groups, ctags' tags) for the languages whose ctags scopes are read
    (not JavaScript/TypeScript: ctags 5.9 reads their methods poorly)."""
    for language, paths in sorted(files_by_language(root).items()):
        if language not in ("javascript", "typescript"):
            yield language, GROUPS[language], ctags_tags(root, language, paths)


def _scoped(tags: list[dict[str, Any]], groups: dict[str, str]) -> dict[tuple[str, str], set]:
    """(file, owner type) -> the (file, line) of the callables ctags scopes to it there."""
    scoped: dict[tuple[str, str], set[tuple[str, int]]] = defaultdict(set)
    for t in tags:
        if groups.get(t.get("kind", "")) == "callable" and t.get("scope"):
            scoped[(t["path"], _plain(str(t["scope"])))].add((t["path"], int(t["line"])))
    return scoped


def _show(*parts: object) -> None:
    if os.environ.get("WHERE_DEFINED_SHOW"):
        print("   ", *parts)


def methods_exact(root: Path, graph: SymbolGraph, per_language: int) -> dict[str, tuple[int, int]]:
    """language -> (exact, asked): types whose name ctags defines once in the repository and
    scopes callables to; exact when the graph's own methods of the type, as (file, name
    line), are the callables ctags scopes to it."""
    out: dict[str, tuple[int, int]] = {}
    for language, groups, tags in _ctags_languages(root):
        types = Counter(_plain(t["name"]) for t in tags if groups.get(t.get("kind", "")) == "type")
        scoped: dict[str, set[tuple[str, int]]] = defaultdict(set)
        for (_, owner), lines in _scoped(tags, groups).items():
            scoped[owner] |= lines
        names = sorted((n for n in scoped if types[n] == 1), key=_order)[:per_language]
        exact = 0
        for name in names:
            found = {(d.path, d.line) for d, via in graph.methods(name) if via is None}
            exact += found == scoped[name]
        out[language] = (exact, len(names))
    return out


def shared_methods_exact(
    root: Path, workspace: Workspace, graph: SymbolGraph, per_language: int
) -> dict[str, tuple[int, int]]:
    """language -> (exact, asked): types whose name ctags defines in two files or more (once
    in each), in languages whose methods are declared in the type's body
    (:func:`codeagent.lang.members_in_body`; not JavaScript/TypeScript, whose ctags scopes are
    unreliable); each asked through the agent as "list the methods of NAME in PATH". Exact
    when the symbol tool answers it for that file and its own methods, as (file, name line),
    are the callables ctags scopes to the type in that file."""
    from codeagent.lang import members_in_body
    from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query

    out: dict[str, tuple[int, int]] = {}
    for language, groups, tags in _ctags_languages(root):
        if language not in members_in_body():
            continue
        where: dict[str, list[str]] = defaultdict(list)
        for t in tags:
            if groups.get(t.get("kind", "")) == "type":
                where[_plain(t["name"])].append(t["path"])
        scoped = _scoped(tags, groups)
        asked = sorted(
            (
                (name, path)
                for name, files in where.items()
                if len(files) > 1 and len(set(files)) == len(files) and name.isidentifier()
                for path in files
                if (path, name) in scoped
            ),
            key=lambda r: _order(f"{r[0]} {r[1]}"),
        )[:per_language]
        exact = 0
        for name, path in asked:
            result = workspace.ask(f"list the methods of {name} in {path}")
            route = result.route
            if route.tool != "symbols" or route.args.get("file") != path:
                _show("not routed", name, path, route.tool, route.args, route.reason)
                continue
            try:
                answer = run_symbol_query(graph, SymbolArgs.model_validate(route.args), root)
            except SymbolToolError as exc:  # two types of that name in the file: not answered
                _show("not answered", name, path, exc)
                continue
            # the name line of each method the answer lists as the type's own
            lines = {(d.path, d.start_line): d.line for d in graph.definitions_in(path)}
            found = {
                (i.path, lines.get((i.path, i.start_line), i.start_line))
                for i in answer.items
                if i.via is None
            }
            exact += found == scoped[(path, name)]
            if found != scoped[(path, name)]:
                _show("differs", name, path, sorted(found ^ scoped[(path, name)])[:6])
        out[language] = (exact, len(asked))
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
    methods_total: Counter[str] = Counter()
    methods_right: Counter[str] = Counter()
    shared_right: Counter[str] = Counter()
    shared_total: Counter[str] = Counter()
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
        store, _ = load_or_build(root, Settings(llm="none", embed="none"), embedder=None)
        for language, (exact, asked) in methods_exact(
            root, store.symbols, args.per_language
        ).items():
            methods_right[language] += exact
            methods_total[language] += asked
            print(f"{root.name:24} {language:11} methods-of-type exact {exact}/{asked}")
        for language, (exact, asked) in shared_methods_exact(
            root, workspace, store.symbols, args.per_language
        ).items():
            shared_right[language] += exact
            shared_total[language] += asked
            print(f"{root.name:24} {language:11} methods-of-type-in-file exact {exact}/{asked}")
    print()
    for language in sorted(totals):
        share = right[language] / totals[language]
        print(f"{language:11} {right[language]}/{totals[language]} = {share:.1%}")
    for language in sorted(methods_total):
        n = methods_total[language]
        print(f"{language:11} methods of a type exact {methods_right[language]}/{n}")
    for language in sorted(shared_total):
        n = shared_total[language]
        print(f"{language:11} methods of a type named in several files, asked with its file, "
              f"exact {shared_right[language]}/{n}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
