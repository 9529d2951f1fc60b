"""C# call sites resolved by declared type, ``using`` and namespace, against the compiler's
binding as the compiled assembly holds it (``eval/CsCalls.cs`` reads each method's IL: the
method or constructor each ``call``, ``callvirt`` and ``newobj`` names).

    PYTHONPATH=src:eval python eval/csharp_references_truth.py DIR --assembly DLL [--show 8]

Needs Mono's ``mcs`` and ``mono`` (Debian's ``mono-mcs``): the oracle is compiled here, then
run on DLL, the assembly compiled from DIR's ``.cs`` files (by the caller, with the project's
defines: the commands are in docs/symbols.md). The IL keeps no source line without debug
symbols, so the figures are over pairs, not sites: (the type whose code calls, the method or
type called), each pair once. Ours are the pairs of the call sites the symbol graph ties to a
repository method or type, in a type the assembly holds (one an ``#if`` left out is not
counted; nor is a written call of ``GetEnumerator`` or ``MoveNext``: the compiler's pairs
leave out those a ``foreach`` makes); precision over ours, recall over the compiler's. A call of a
method the compiler binds to the virtual method an override of ours overrides counts as
that method (C# binds a call to the method's first declaration, not to the override).

The repositories, each chosen and written down before its first run (none written here):

- serilog/serilog at v2.3.0 (``src/Serilog``, 86 files: the last release that Mono's compiler
  builds; later ones use local functions): a logging pipeline with interfaces
  (``ILogEventSink``, ``ILogEventEnricher``), configuration objects with fluent methods,
  static facades (``Log``), nested classes, fields and properties typed by its interfaces.
  The resolution was then mended on it (partial classes, ``x.Prop.F()``, ``foreach (var
  ..)``): it is not held out.
- JamesNK/Newtonsoft.Json at 8.0.3 (``Src/Newtonsoft.Json``, 198 files), held out: a JSON
  library with a deep class hierarchy (``JToken``, ``JContainer``, ``JObject``), readers and
  writers over abstract bases, contract resolvers, many static utilities (``MiscellaneousUtils``,
  ``StringUtils``) and extension methods.

A newer C# needs Roslyn, which no package here has.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from codeagent import lang
from codeagent.symbols.call_targets import target_of
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import pack_calls

Pair = tuple[str, str, str]  # (caller type, callee, "call" | "new")
# what a foreach calls, left out of the compiler's pairs (no call is written): of ours too
_FOREACH = (".GetEnumerator", ".MoveNext")


def compiler_pairs(assembly: Path) -> tuple[set[Pair], set[str]]:
    """The pairs the compiled ``assembly`` holds (eval/CsCalls.cs, compiled here), and its
    types (the code the defines compiled)."""
    with tempfile.TemporaryDirectory() as work:
        exe = Path(work) / "calls.exe"
        source = Path(__file__).with_name("CsCalls.cs")
        subprocess.run(["mcs", f"-out:{exe}", str(source)], check=True, capture_output=True)
        done = subprocess.run(
            ["mono", str(exe), str(assembly)], check=True, capture_output=True, text=True
        )
    pairs, compiled = set(), set()
    for line in done.stdout.splitlines():
        caller, _method, callee, kind = line.split("\t")
        if kind == "type":
            compiled.add(caller)
        elif kind != "outside":
            pairs.add((caller, callee, kind))
    return pairs, compiled


def graph_of(root: Path) -> SymbolGraph:
    """The symbol graph of every ``.cs`` file under ``root``, as the index extracts it."""
    files = {}
    for file in sorted(root.rglob("*.cs")):
        path = file.relative_to(root).as_posix()
        parsed = lang.parse_file(path, file.read_text(encoding="utf-8-sig", errors="replace"))
        if parsed is not None:
            record = parsed.record(path)
            record["c"] = pack_calls(record["c"])
            files[path] = record
    return SymbolGraph(files)


def our_pairs(graph: SymbolGraph) -> tuple[set[Pair], Counter[str]]:
    """The pairs of the sites tied to a repository definition, and the sites counted."""
    pairs: set[Pair] = set()
    count: Counter[str] = Counter()
    for path, rec in graph.files.items():
        rows = rec["d"]
        names, flat = rec["c"][0], rec["c"][1]
        written = rec["c"][2] if len(rec["c"]) > 2 else [-1] * (len(flat) // 3)
        for k in range(len(flat) // 3):
            scope = flat[3 * k + 2]
            caller = _type_of(rows, scope) if scope >= 0 else None
            found = target_of(graph, path, names[written[k]]) if written[k] >= 0 else None
            count["sites"] += 1
            if found is None:
                count["by name"] += 1
                continue
            if found[1]:
                count["outside"] += 1
                continue
            d = graph._by_full.get(found[0])
            if d is None or caller is None:
                continue
            count["tied"] += 1
            pairs.add((caller, d.qualname, "new" if d.kind in CLASS_KINDS else "call"))
    return pairs, count


def _type_of(rows: list[list], scope: int) -> str | None:
    """The type whose code the definition row ``scope`` is (itself, or its nearest type)."""
    qualname = rows[scope][0]
    types = {r[0] for r in rows if r[1] in CLASS_KINDS}
    while qualname and qualname not in types:
        qualname = qualname.rpartition(".")[0]
    return qualname or None


def overridden(graph: SymbolGraph, ours: Pair, theirs: set[Pair]) -> bool:
    """Whether the method of ``ours`` overrides one the compiler bound the call to."""
    caller, callee, kind = ours
    owner, _, name = callee.rpartition(".")
    if kind != "call":
        return False
    for d in graph._by_name.get(owner.rpartition(".")[2], []):
        if d.qualname == owner and d.kind in CLASS_KINDS:
            for base, _via in graph._mro(d, set()):
                if (caller, f"{base.qualname}.{name}", kind) in theirs:
                    return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("root", type=Path)
    parser.add_argument("--assembly", type=Path, required=True)
    parser.add_argument("--show", type=int, default=8)
    args = parser.parse_args(argv)
    for tool in ("mcs", "mono"):
        if shutil.which(tool) is None:
            print(f"error: no {tool} on the PATH (Debian: mono-mcs)", file=sys.stderr)
            return 2
    if not args.assembly.is_file():
        print(f"error: {args.assembly}: no such assembly", file=sys.stderr)
        return 2
    graph = graph_of(args.root) if args.root.is_dir() else None
    if graph is None or not graph.files:
        print(f"error: {args.root}: no .cs file under it", file=sys.stderr)
        return 2
    try:
        theirs, compiled = compiler_pairs(args.assembly)
    except subprocess.CalledProcessError as exc:
        lines = [line for line in (exc.stderr or "").splitlines() if line.strip()]
        said = [line for line in lines if not line.endswith(":")] or [str(exc)]  # Mono's heading
        print(f"error: the oracle failed on {args.assembly}: {said[0]}", file=sys.stderr)
        return 2
    ours, count = our_pairs(graph)
    ours = {p for p in ours if p[0] in compiled and not p[1].endswith(_FOREACH)}
    right = {p for p in ours if p in theirs or overridden(graph, p, theirs)}
    wrong = sorted(ours - right)
    matched = {t for t in theirs if t in ours or _covered(graph, t, right)}
    missed = sorted(theirs - matched)
    print(f"{args.root}: {count['sites']} call sites: {count['tied']} tied to the repository, "
          f"{count['outside']} outside, {count['by name']} by name")  # fmt: skip
    print(f"pairs: ours {len(ours)}, the compiler's {len(theirs)}")
    print(f"precision {100 * len(right) / max(len(ours), 1):.1f} % ({len(right)} of {len(ours)})")
    print(f"recall {100 * len(matched) / max(len(theirs), 1):.1f} % "
          f"({len(matched)} of {len(theirs)})")  # fmt: skip
    for label, shown in (("wrong", wrong), ("missed", missed)):
        for pair in shown[: args.show]:
            print(f"  {label}: {' -> '.join(pair[:2])} ({pair[2]})")
    return 0


def _covered(graph: SymbolGraph, theirs: Pair, right: set[Pair]) -> bool:
    """Whether a pair of ours that overrides the compiler's ``theirs`` is right."""
    return any(overridden(graph, p, {theirs}) for p in right if p[0] == theirs[0])


if __name__ == "__main__":
    raise SystemExit(main())
