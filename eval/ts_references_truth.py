"""TypeScript call sites resolved by receiver and import, against the TypeScript compiler's
language service (``getDefinitionAtPosition``) on every sampled site.

    PYTHONPATH=src:eval python eval/ts_references_truth.py DIR [DIR ...] \
        --typescript NODE_MODULES/typescript [--sample 300] [--show 8]

The repositories, chosen and written down before the first run (none written here; each a
checkout of the commit named, its ``.ts``/``.tsx``/``.mts``/``.cts`` files), and why:

- sindresorhus/ky 3419113b48e0: a small HTTP client, a class (``Ky``) whose methods call
  each other through ``this``, static ``Ky.create``, imports through ``index.ts``
  re-exports, tests that call the library by its default import.
- immerjs/immer 061c2425e1c9: plugins and utilities called across files by named imports,
  a class (``Immer``) with methods bound in its constructor, ``export * from`` chains.
- sindresorhus/p-queue 180ab9e25cd1: a class over an injected queue class (``new
  this.#queueClass()``), ``EventEmitter`` as a base from a package, many ``this`` calls.
- honojs/hono 28a9c128912d: a large framework: class hierarchies (``Hono`` over
  ``HonoBase``), routers, middleware factories imported by relative paths, helpers
  re-exported through ``index.ts`` files, typed parameters (``c: Context``).
- pmndrs/zustand f094eebe9bd3: functions returning functions (middleware), hooks, arrow
  functions bound to ``const``, imports with ``.ts`` extensions.

For each repository the records are extracted as the index extracts them
(:func:`codeagent.lang.parse_file`), and ``--sample`` call sites are drawn at random (seed 46).
For each, the language service's definition of the called name is the truth (bundler
resolution, ``allowJs``, every file of the sample's repository a root; ``eval/ts_calls.cjs``); it
counts as a *repository callable* when it names a function, method, class or constructor of
the repository, or a variable or property whose value is a function. A class we resolve to
stands for its constructors as well (``new C()``: the compiler names the constructor). Printed:
precision, recall and the by-name remainder as ``eval/references_truth.py`` defines them, and
the misses by the form of their receiver.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from references_truth import Site, _judge, close, show, tally

from codeagent.symbols.call_targets import target_of
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import call_target, unpack_calls

SEED = 46
SUFFIXES = (".ts", ".tsx", ".mts", ".cts")


def build(root: Path) -> tuple[SymbolGraph, dict[str, str]]:
    from oracle_truth import build as build_records  # it imports this module's sites

    return build_records(root, [f"*{s}" for s in SUFFIXES])


def _form(line_text: str, column: int) -> str:
    """The receiver's form, read back from the text before the called name."""
    before = line_text[:column].rstrip()
    if not before.endswith("."):
        return "new C()" if before.endswith("new") else "f()"
    before = before[:-1].rstrip().removesuffix("?")
    if before.endswith("this"):
        return "this.f()"
    if before.endswith("super"):
        return "super.f()"
    if before.endswith(")"):
        return "call().f()"
    head = before.split()[-1] if before.split() else ""
    if head.startswith("this."):
        return "this.x.f()"
    return "name.x.f()" if "." in head else "name.f()"


def sites(graph: SymbolGraph, texts: dict[str, str]) -> list[Site]:
    where: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for d in graph._defs:
        where[d.full_name].add((d.path, d.line))
        if d.kind == "constructor":  # a class stands for its constructors
            where[d.full_name.rpartition(".")[0]].add((d.path, d.line))
    out = []
    for path, rec in sorted(graph.files.items()):
        lines = texts[path].split("\n")
        taken: Counter[tuple[int, str]] = Counter()
        for number, (line, name, _scope) in enumerate(unpack_calls(rec["c"])):
            text = lines[line - 1] if line <= len(lines) else ""
            columns = [i for i in _occurrences(text, name)]
            k = taken[(line, name)]
            taken[(line, name)] += 1
            if k >= len(columns):
                continue
            written = call_target(rec["c"], number)
            found = target_of(graph, path, written) if written else None
            ours, outside = None, False
            if found is not None:
                full, outside = found
                ours = where.get(full) if not outside else None
            column = len(text[: columns[k]].encode("utf-16-le")) // 2
            out.append(Site(path, line, column, _form(text, columns[k]), ours, outside, text))
    return out


def _occurrences(text: str, name: str) -> list[int]:
    """Where ``name`` stands as a whole word followed by a call (``(``, ``<`` or ``?.(``)."""
    out, start = [], 0
    while (i := text.find(name, start)) >= 0:
        start = i + 1
        before = text[i - 1] if i else " "
        after = text[i + len(name) :].lstrip()
        if (before.isalnum() or before in "_$#") or not after[:1] or after[0] not in "(<?`":
            continue
        out.append(i)
    return out


def compiler_truth(root: Path, chosen: list[Site], typescript: Path) -> list[tuple[set, bool]]:
    lines = "\n".join(json.dumps({"path": s.path, "line": s.line, "column": s.column})
                      for s in chosen)  # fmt: skip
    done = subprocess.run(
        ["node", str(Path(__file__).with_name("ts_calls.cjs")), str(typescript), str(root)],
        input=lines, capture_output=True, text=True, check=True,
    )  # fmt: skip
    out = []
    for row in map(json.loads, done.stdout.splitlines()):
        callable_defs = {(p, line) for p, line, is_callable in row["defs"] if is_callable}
        every = {(p, line) for p, line, _ in row["defs"]}
        out.append((callable_defs, every, row["answered"]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("--typescript", type=Path, required=True)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--show", type=int, default=8)
    args = parser.parse_args(argv)
    if not (args.typescript / "package.json").is_file():
        print(f"error: {args.typescript} is not the typescript package", file=sys.stderr)
        return 2
    totals: Counter[str] = Counter()
    misses: Counter[str] = Counter()
    for root in args.repos:
        if not (root / ".git").exists():
            print(f"error: {root} is not a git checkout", file=sys.stderr)
            return 2
        graph, texts = build(root)
        every = sites(graph, texts)
        chosen = random.Random(SEED).sample(every, min(args.sample, len(every)))
        truth = compiler_truth(root, chosen, args.typescript)
        count: Counter[str] = Counter()
        shown: Counter[str] = Counter()
        for site, (callable_defs, every_def, answered) in zip(chosen, truth, strict=True):
            verdict = _judge(site, callable_defs, answered, count, misses, every_def)
            if verdict and shown[verdict] < args.show:
                shown[verdict] += 1
                show(verdict, site, site.text.strip()[:80], every_def, "tsc")
        tally(root.name, count, every, totals, "tsc")
    close(totals, misses, "tsc")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
