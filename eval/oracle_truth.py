"""What the scoring of call targets against a compiler shares (``eval/ts_references_truth.py``,
``eval/java_references_truth.py``, ``eval/go_references_truth.py``): the records of a
language's files extracted as the index extracts them, and the run over repositories, each
one's sites drawn at random (seed 46) among those the oracle's tree holds, then counted as
``eval/references_truth.py`` counts (precision over the sites the oracle answers, recall over
those it ties to a repository callable) and printed with the misses by receiver form.

An oracle is a function ``(root, paths) -> {(path, line, column): answer}`` for every call of
the files it was given, an answer ``{"defs": [[path, line], ...], "answered": bool}`` (line
1-based, column 0-based in UTF-16 units, of the called name; ``defs`` the declarations of the
repository it ties the call to).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from references_truth import _judge, close, show, tally
from ts_references_truth import sites

from codeagent import lang
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import pack_calls

SEED = 46
Oracle = Callable[[Path, list[str]], dict[tuple[str, int, int], dict[str, Any]]]


def run_oracle(command: list[str], paths: list[str]) -> dict[tuple[str, int, int], dict[str, Any]]:
    """An oracle program's answers: ``command`` given ``paths`` on its input, one JSON line
    a call out, keyed by (path, line, column)."""
    done = subprocess.run(
        command, input="\n".join(paths), capture_output=True, text=True, check=True
    )
    rows = map(json.loads, done.stdout.splitlines())
    return {(r["path"], r["line"], r["column"]): r for r in rows}


def build(root: Path, patterns: list[str]) -> tuple[SymbolGraph, dict[str, str]]:
    """The symbol graph of the tracked files of ``root`` that match ``patterns`` (``*.go``),
    and their texts."""
    listed = subprocess.run(
        ["git", "ls-files", *patterns], cwd=root, capture_output=True, text=True, check=True
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


def score(
    argv: list[str] | None, description: str, patterns: list[str], tool: str, label: str,
    oracle: Oracle,
) -> int:  # fmt: skip
    """The command line of a scoring script: ``DIR [DIR ...] [--sample N] [--show N]``; the
    exit status (2: ``tool`` missing, a directory that is not a git checkout or tracks no
    file of the language, an oracle that failed)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--show", type=int, default=8)
    args = parser.parse_args(argv)
    if shutil.which(tool) is None:
        print(f"error: no {tool} on the PATH (it runs the oracle, {label})", file=sys.stderr)
        return 2
    totals: Counter[str] = Counter()
    misses: Counter[str] = Counter()
    for root in args.repos:
        if not (root / ".git").exists():
            print(f"error: {root} is not a git checkout", file=sys.stderr)
            return 2
        graph, texts = build(root, patterns)
        if not texts:
            print(f"error: {root} tracks no {' or '.join(patterns)} file", file=sys.stderr)
            return 2
        every = sites(graph, texts)
        try:
            truth = oracle(root.resolve(), sorted(texts))
        except (subprocess.CalledProcessError, OSError, ValueError) as exc:
            # a compiler that fails; a file the oracle reads missing (a crate's Cargo.toml) or
            # unreadable (ValueError: a manifest that is no TOML)
            said = (getattr(exc, "stderr", "") or "").strip().splitlines() or [str(exc)]
            print(f"error: the oracle failed on {root}: {said[-1]}", file=sys.stderr)
            return 2
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
                show(verdict, site, site.text.strip()[:80], defs, label)
        print(f"{root.name}: {len(held)} of {len(every)} call sites held by {label}'s tree")
        tally(root.name, count, every, totals, label)
    close(totals, misses, label)
    return 0
