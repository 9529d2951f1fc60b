"""Go call sites resolved by receiver, package and stated type, against go/types
(``eval/go_calls.go``: the function or method the type checker ties each call to).

    PYTHONPATH=src:eval python eval/go_references_truth.py DIR [DIR ...] [--sample 300] [--show 8]

Needs a Go toolchain (``go`` on the PATH; Debian's ``golang-go`` 1.19 here). The repositories,
chosen and written down before the first run (none written here; each a checkout of the
commit named, its tracked ``.go`` files; none needs a module from outside but the standard
library), and why:

- spf13/pflag 5fdac2d: command-line flags: a ``FlagSet`` whose methods call each other
  through the receiver, one ``Value`` type per kind with constructors (``newIntValue``),
  package-level functions over a default ``CommandLine`` set.
- gorilla/mux db9d1d0: a router: ``Router`` and ``Route`` with builder methods that return
  ``*Route`` (chains), matchers behind interfaces, unexported helpers.
- BurntSushi/toml d733fc5: a parser and an encoder: a lexer's state functions, a decoder over
  ``reflect``, types embedded in others, an internal package.
- go-chi/chi 735ae2b: a router with sub-packages (``middleware``) importing the root
  package by a versioned path (``.../chi/v5``: the root is not told apart from another
  module), interfaces (``Router``), handlers as function values.

(google/uuid 2d3c2a9 was the one the resolution was developed on; it is not scored.)

For each repository the records are extracted as the index extracts them
(:func:`codeagent.lang.parse_file`), and ``--sample`` call sites are drawn at random (seed 46)
among those go/types holds (a site its tree does not hold is left out). Each package is
checked with its own tests; an external test package (``name_test``) on its own; packages of
other modules are empty (a call into one is "silent"). A conversion (``T(x)``), a builtin and
a variable holding a function are answered with no repository callable. Counted as in
``eval/ts_references_truth.py``: precision over the sites go/types answers, recall over those
it ties to a repository function or method.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from references_truth import _judge, close, show, tally
from ts_references_truth import sites

from codeagent import lang
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import pack_calls

SEED = 46


def build(root: Path) -> tuple[SymbolGraph, dict[str, str]]:
    listed = subprocess.run(
        ["git", "ls-files", "*.go"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    files, texts = {}, {}
    for path in listed:
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        parsed = lang.parse_file(path, text)
        if parsed is None:
            continue
        record = parsed.record(path)
        record["c"] = pack_calls(record["c"])
        files[path], texts[path] = record, text
    return SymbolGraph(files), texts


def go_truth(root: Path, paths: list[str]) -> dict[tuple[str, int, int], dict]:
    """(path, line, column) of each call go/types's tree holds -> its answer."""
    done = subprocess.run(
        ["go", "run", str(Path(__file__).with_name("go_calls.go")), str(root)],
        input="\n".join(paths), capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = map(json.loads, done.stdout.splitlines())
    return {(r["path"], r["line"], r["column"]): r for r in rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--show", type=int, default=8)
    args = parser.parse_args(argv)
    if shutil.which("go") is None:
        print("error: no go on the PATH (a Go toolchain runs the oracle)", file=sys.stderr)
        return 2
    totals: Counter[str] = Counter()
    misses: Counter[str] = Counter()
    for root in args.repos:
        if not (root / ".git").exists():
            print(f"error: {root} is not a git checkout", file=sys.stderr)
            return 2
        graph, texts = build(root)
        every = sites(graph, texts)
        truth = go_truth(root.resolve(), sorted(texts))
        held = [s for s in every if (s.path, s.line, s.column) in truth]
        chosen = random.Random(SEED).sample(held, min(args.sample, len(held)))
        count: Counter[str] = Counter()
        shown: Counter[str] = Counter()
        for site in chosen:
            row = truth[(site.path, site.line, site.column)]
            defs = {(p, line) for p, line in row["defs"]}
            verdict = _judge(site, defs, row["answered"], count, misses)
            if verdict and shown[verdict] < args.show:
                shown[verdict] += 1
                show(verdict, site, site.text.strip()[:80], defs, "go/types")
        print(f"{root.name}: {len(held)} of {len(every)} call sites held by go/types's tree")
        tally(root.name, count, every, totals, "go/types")
    close(totals, misses, "go/types")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
