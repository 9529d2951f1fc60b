"""Go interfaces' implementations (``which types implement Handler?``) against go/types
(``eval/go_implements.go``: a type implements an interface when it or a pointer to it has the
interface's method set, ``types.Implements``).

    PYTHONPATH=src:eval python eval/go_implements_truth.py DIR [DIR ...] [--show 8]

Needs a Go toolchain (``go`` on the PATH). Each DIR is a checkout; its tracked ``.go`` files
are read as the index reads them (:func:`oracle_truth.build`) and, for each interface of the
module that has a method, the types the symbol graph lists as its implementations
(:meth:`SymbolGraph.subclasses` of that interface) are compared with go/types' (test files
left out of both: the oracle checks packages without their tests). A pair is a (interface,
type) of the repository, by path and name; precision over the pairs the graph lists, recall
over those go/types finds. An interface the graph lists under another one because it embeds
it (``Router`` embeds ``Routes``) is not an implementation and is left out; so is a generic
interface (go/types answers for its instances, not for it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

from oracle_truth import build

ORACLE = Path(__file__).with_name("go_implements.go")

Pair = tuple[str, str, str, str]  # interface path, interface name, type path, type name


def go_pairs(root: Path, paths: list[str], cache: Path) -> tuple[set[Pair], set[tuple[str, int]]]:
    """go/types' (interface, type) pairs, and the interfaces it read (path, line)."""
    env = {**os.environ, "HOME": str(cache), "GOCACHE": str(cache / "build"),
           "GOFLAGS": "-mod=mod", "GO111MODULE": "off", "GOPATH": str(cache / "path")}  # fmt: skip
    done = subprocess.run(
        ["go", "run", str(ORACLE), str(root)], input="\n".join(paths), capture_output=True,
        text=True, check=True, env=env, timeout=600,
    )  # fmt: skip
    pairs: set[Pair] = set()
    read: set[tuple[str, int]] = set()
    for line in done.stdout.splitlines():
        row = json.loads(line)
        path, at, name = row["iface"]
        read.add((path, at))
        pairs |= {(path, name, t[0], t[2]) for t in row["types"]}
    return pairs, read


def graph_pairs(root: Path, read: set[tuple[str, int]]) -> set[Pair]:
    """The graph's (interface, type) pairs for the interfaces go/types read, without tests."""
    graph, _texts = build(root, ["*.go"])
    pairs: set[Pair] = set()
    for path, line in read:
        for d in graph.definitions_in(path):
            if d.kind == "interface" and line in (d.line, d.start_line):
                pairs |= {
                    (path, d.name, t.path, t.name)
                    for t in graph.subclasses(d.full_name)
                    if not t.path.endswith("_test.go") and t.kind != "interface"
                }
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=8, help="wrong and missed pairs shown")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/go-implements-cache"))
    args = parser.parse_args(argv)
    total_ok = total_ours = total_truth = 0
    for root in args.dirs:
        paths = subprocess.run(
            ["git", "ls-files", "*.go"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split()
        truth, read = go_pairs(root, paths, args.cache)
        ours = graph_pairs(root, read)
        ok = ours & truth
        total_ok, total_ours, total_truth = (
            total_ok + len(ok), total_ours + len(ours), total_truth + len(truth)
        )  # fmt: skip
        print(f"{root.name}: {len(read)} interfaces; precision {pct(len(ok), len(ours))}, "
              f"recall {pct(len(ok), len(truth))}")  # fmt: skip
        for pair in sorted(ours - truth)[: args.show]:
            print("  listed, not by go/types:", pair)
        for pair in sorted(truth - ours)[: args.show]:
            print("  missed:", pair)
    print(f"all: precision {pct(total_ok, total_ours)}, recall {pct(total_ok, total_truth)}")
    return 0


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f} % ({n}/{d})" if d else "- (0/0)"


if __name__ == "__main__":
    raise SystemExit(main())
