"""Which files import which, for JavaScript/TypeScript, against the TypeScript compiler.

    PYTHONPATH=src:eval python eval/importers_truth.py DIR [DIR ...] \
        --typescript NODE_MODULES/typescript [--show 5]

For every JavaScript/TypeScript file of a checkout, the truth is the repository files its
import and ``require`` specifiers resolve to, as the TypeScript compiler resolves them
(``ts.preProcessFile`` and ``ts.resolveModuleName``, bundler resolution, ``allowJs``;
``eval/ts_imports.cjs``; a resolved ``x.d.ts`` with ``x.js`` beside it counts as ``x.js``, the
file the program loads); the layer's are the pairs behind "which files import FILE?"
(:meth:`SymbolGraph.file_importers`). Printed per repository: the (importing file, imported
file) pairs of each, recall and precision, and the first differences.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from compare_ctags import files_by_language, typescript_oracle

from codeagent.config import Settings
from codeagent.index.build import load_or_build


def compiler_pairs(root: Path, paths: list[str], typescript: Path) -> set[tuple[str, str]]:
    """(importing file, imported file) as the TypeScript compiler resolves the imports."""
    rows = typescript_oracle("ts_imports.cjs", root, paths, typescript)
    known = set(paths)
    return {(r["path"], _runtime(r["resolved"], known)) for r in rows if r["resolved"] != r["path"]}


def _runtime(resolved: str, known: set[str]) -> str:
    """The file a resolved ``x.d.ts`` stands for when ``x.js`` (``.mjs``, ``.cjs``) is beside it:
    the compiler resolves a specifier to the declarations, the program loads the code."""
    if resolved.endswith(".d.ts"):
        stem = resolved.removesuffix(".d.ts")
        for ext in (".js", ".mjs", ".cjs"):
            if stem + ext in known:
                return stem + ext
    return resolved


def layer_pairs(root: Path, paths: set[str]) -> set[tuple[str, str]]:
    """(importing file, imported file) of the symbol graph, for the files ``paths``."""
    store, _ = load_or_build(root, Settings(llm="none", embed="none"), embedder=None)
    graph = store.symbols
    return {
        (imp.path, target)
        for target in paths
        for imp in graph.file_importers(target)
        if imp.path in paths
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--typescript", type=Path, required=True)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args(argv)
    missing = [str(d) for d in args.dirs if not d.is_dir()]
    if missing or not (args.typescript / "package.json").is_file():
        what = f"no such folder: {', '.join(missing)}" if missing else (
            f"{args.typescript} is not the typescript package (npm install typescript)"
        )  # fmt: skip
        print(f"importers_truth: {what}", file=sys.stderr)
        return 2
    os.environ.setdefault("CODEAGENT_HOME", tempfile.mkdtemp(prefix="importers-truth-"))
    total_truth = total_mine = total_both = 0
    for root in args.dirs:
        by_language = files_by_language(root)
        paths = sorted(
            set(by_language.get("javascript", [])) | set(by_language.get("typescript", []))
        )
        truth = compiler_pairs(root, paths, args.typescript)
        mine = layer_pairs(root, set(paths))
        both = truth & mine
        total_truth, total_mine, total_both = (
            total_truth + len(truth), total_mine + len(mine), total_both + len(both)
        )  # fmt: skip
        recall = len(both) / len(truth) if truth else 1.0
        precision = len(both) / len(mine) if mine else 1.0
        print(f"{root.name:24} files {len(paths):5}  pairs: compiler {len(truth):5}, layer "
              f"{len(mine):5}  recall {recall:.1%}  precision {precision:.1%}")  # fmt: skip
        for pair in sorted(truth - mine)[: args.show]:
            print(f"      missed {pair[0]} -> {pair[1]}")
        for pair in sorted(mine - truth)[: args.show]:
            print(f"      extra  {pair[0]} -> {pair[1]}")
    if total_truth:
        recall, precision = total_both / total_truth, total_both / max(total_mine, 1)
        print(f"\nall: recall {recall:.1%} ({total_both}/{total_truth}), "
              f"precision {precision:.1%} ({total_both}/{total_mine})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
