"""Java call sites resolved by declared type, import and package, against javac's attribution
(``eval/JavaCalls.java``: the method or constructor javac ties each call and ``new`` to).

    PYTHONPATH=src:eval python eval/java_references_truth.py DIR [DIR ...] [--sample 300] [--show 8]

Needs a JDK 17 or later (``java`` on the PATH: the source launcher runs the oracle). The
repositories, chosen and written down before the first run (none written here; each a checkout
of the commit named, its tracked ``.java`` files), and why:

- jhy/jsoup 46b62086: an HTML parser; a node hierarchy (``Node``, ``Element``, ``TextNode``)
  whose methods call each other through ``this``, inherited methods, static helpers
  (``StringUtil``, ``Validate``) called by class, fields typed by repository classes.
- google/gson 9835b6f90: a library with public types in one package and internals in
  others, type adapters and factories, nested classes, generics, anonymous classes.
- square/javapoet b9017a9: builders (``TypeSpec.Builder``), fluent calls on a call's result,
  static factories (``ClassName.get``), nested ``Builder`` classes.
- apache/commons-cli 0a68ae0e: a small command-line parser: ``Option``, ``Options``,
  parsers over a base class, static imports in tests.

(apache/commons-csv d9b9f062 was the one the resolution was developed on; it is not scored.)

For each repository the records are extracted as the index extracts them
(:func:`codeagent.lang.parse_file`), and ``--sample`` call sites are drawn at random (seed 46)
among those javac attributed or failed to (a site javac's tree does not hold is left out).
javac compiles every tracked ``.java`` file of the repository at once, without the libraries
(JUnit, ...): a call on a library's type is not attributed ("silent"). Counted as in
``eval/ts_references_truth.py``: a class stands for its constructors; precision over the sites
javac answers, recall over those javac ties to a repository method or constructor.
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
        ["git", "ls-files", "*.java"], cwd=root, capture_output=True, text=True, check=True
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


def javac_truth(root: Path, paths: list[str]) -> dict[tuple[str, int, int], dict]:
    """(path, line, column) of each call javac's tree holds -> its answer."""
    done = subprocess.run(
        ["java", str(Path(__file__).with_name("JavaCalls.java")), str(root)],
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
    if shutil.which("java") is None:
        print("error: no java on the PATH (a JDK 17 or later runs the oracle)", file=sys.stderr)
        return 2
    totals: Counter[str] = Counter()
    misses: Counter[str] = Counter()
    for root in args.repos:
        if not (root / ".git").exists():
            print(f"error: {root} is not a git checkout", file=sys.stderr)
            return 2
        graph, texts = build(root)
        every = sites(graph, texts)
        truth = javac_truth(root.resolve(), sorted(texts))
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
                show(verdict, site, site.text.strip()[:80], defs, "javac")
        print(f"{root.name}: {len(held)} of {len(every)} call sites held by javac's tree")
        tally(root.name, count, every, totals, "javac")
    close(totals, misses, "javac")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
