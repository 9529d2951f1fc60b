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
over those go/types finds. The same for the structs that embed a type (a field without a
name: ``which types embed basicWriter?``, the graph's subclasses of a Go struct). An
interface the graph lists under another one because it embeds
it (``Router`` embeds ``Routes``) is not an implementation and is left out; so is a generic
interface (go/types answers for its instances, not for it).

The repositories: every Go repository mirrored here when the script was first run (none
chosen among them; the first run was the baseline, before the changes it measured):
go-chi/chi 735ae2b, go-resty/resty c34e460, gorilla/mux db9d1d0, labstack/echo 05489dc,
rs/zerolog 1396655, spf13/cobra adbc881, spf13/viper 528f741, urfave/cli 1305a08. cobra's one
missed pair is the oracle's: a type of pflag (outside the module, checked as an empty package)
reads as implementing an interface whose methods name pflag's types.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

from oracle_truth import build

from codeagent.symbols.tables import CLASS_KINDS

ORACLE = Path(__file__).with_name("go_implements.go")

Pair = tuple[str, str, str, str]  # interface path, interface name, type path, type name


def go_pairs(
    root: Path, paths: list[str], cache: Path
) -> tuple[dict[str, set[Pair]], dict[str, set[tuple[str, int]]]]:
    """go/types' (type, implementation or embedder) pairs, and the types it read (path,
    line), for each relation ("implements", "embeds")."""
    env = {**os.environ, "HOME": str(cache), "GOCACHE": str(cache / "build"),
           "GOFLAGS": "-mod=mod", "GO111MODULE": "off", "GOPATH": str(cache / "path")}  # fmt: skip
    done = subprocess.run(
        ["go", "run", str(ORACLE), str(root)], input="\n".join(paths), capture_output=True,
        text=True, check=True, env=env, timeout=600,
    )  # fmt: skip
    pairs: dict[str, set[Pair]] = {"implements": set(), "embeds": set()}
    read: dict[str, set[tuple[str, int]]] = {"implements": set(), "embeds": set()}
    for line in done.stdout.splitlines():
        row = json.loads(line)
        relation = "implements" if "iface" in row else "embeds"
        path, at, name = row.get("iface") or row["embedded"]
        read[relation].add((path, at))
        pairs[relation] |= {(path, name, t[0], t[2]) for t in row["types"]}
    return pairs, read


def graph_pairs(root: Path, read: dict[str, set[tuple[str, int]]]) -> dict[str, set[Pair]]:
    """The graph's pairs for the types go/types read (its subclasses: an interface's
    implementations, a struct's embedders), without tests and without interfaces."""
    graph, _texts = build(root, ["*.go"])
    pairs: dict[str, set[Pair]] = {}
    for relation, types in read.items():
        pairs[relation] = set()
        for path, line in types:
            for d in graph.definitions_in(path):
                if d.kind in CLASS_KINDS and d.kind != "impl" and line in (d.line, d.start_line):
                    pairs[relation] |= {
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
    totals = {"implements": [0, 0, 0], "embeds": [0, 0, 0]}
    for root in args.dirs:
        paths = subprocess.run(
            ["git", "ls-files", "*.go"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split()
        truth, read = go_pairs(root, paths, args.cache)
        ours = graph_pairs(root, read)
        for relation in totals:
            ok = ours[relation] & truth[relation]
            for n, value in enumerate((len(ok), len(ours[relation]), len(truth[relation]))):
                totals[relation][n] += value
            print(f"{root.name} {relation}: {len(read[relation])} types; precision "
                  f"{pct(len(ok), len(ours[relation]))}, recall "
                  f"{pct(len(ok), len(truth[relation]))}")  # fmt: skip
            for pair in sorted(ours[relation] - truth[relation])[: args.show]:
                print("  listed, not by go/types:", pair)
            for pair in sorted(truth[relation] - ours[relation])[: args.show]:
                print("  missed:", pair)
    for relation, (ok, listed, found) in totals.items():
        print(f"all {relation}: precision {pct(ok, listed)}, recall {pct(ok, found)}")
    return 0


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f} % ({n}/{d})" if d else "- (0/0)"


if __name__ == "__main__":
    raise SystemExit(main())
