"""Call sites resolved by receiver and import, against jedi's ``goto`` on every sampled site.

    PYTHONPATH=src:eval python eval/references_truth.py DIR [DIR ...] [--sample 400] [--show 8]
        [--silent N]

The repositories, chosen and written down before the first run (none written here; each a
checkout of the commit named), and why:

- psf/requests 1f6589ec3a1e: the issue's own example of a common name (``Session.send``,
  ``adapter.send``); re-exports through ``requests/__init__.py``; instance attributes.
- encode/httpx ae1b9f66238f: ``from ._client import *`` re-exports, ASGI ``send`` callables
  beside ``Client.send``, annotated parameters and attributes throughout.
- pallets/flask 2ac89889f4cc: ``self.`` calls through a deep class hierarchy (``App`` over
  ``Scaffold``), ``super()``, module-level instances in tests (``app = Flask(...)``).
- pallets/click 2c8cd3ac958a: ``Context``/``Command`` methods called through parameters
  (``ctx: Context``), decorators, many bare calls of module functions.
- Textualize/rich 42899d8a0a96: a large repository of small classes, ``Console`` passed
  around annotated, ``self._x = T(...)`` attributes, ``super().__init__``.
- pallets/jinja 5ef70112 (added 2026-11-30, before its first run, for pytest fixtures):
  tests take ``env`` and loaders as fixtures from ``tests/conftest.py`` (``env.from_string``
  is called hundreds of times), ``Environment`` methods called through them.
- python-attrs/attrs c1dc5dcb (added 2026-11-30, before its first run, for type stubs):
  ``attr/__init__.pyi`` and ``attrs/__init__.pyi`` beside the modules that re-export the
  implementation (``attr.evolve``, ``attr.Attribute``).
- marshmallow-code/marshmallow 341b927f (added 2026-12-01, before its first run): ``Schema``
  subclasses defined inside tests and called through locals bound twice in one function
  (``schema = PostSchema(...)`` then ``schema = PreSchema(...)``), fixtures a test class
  defines, ``Field`` methods reached through ``self.`` in a deep hierarchy.
- psf/black 8947c48e (added 2026-12-01, before its first run): a vendored parser
  (``blib2to3``'s ``Node``/``Leaf``) whose methods are called through annotated parameters
  (``line: Line``, ``leaf: Leaf``), dataclasses, many module functions called bare.

For each repository the symbol graph is built from every tracked Python file (as the index
builds it), and ``--sample`` call sites are drawn at random (seed 46) among all its call
sites. For each, jedi 0.20 ``Script.goto(follow_imports=True)`` on the called name is the
truth (where jedi stops at an import statement of the repository, as it does from a type stub
to a package that re-exports the name, it is asked again from there: since 2026-11-30); it
counts as a *repository callable* when it names a class or function defined in the
repository. Printed per repository and over all:

- precision: sites the graph resolves to a repository definition that jedi resolves to the
  same definition, over those it resolves where jedi answers anything (sites jedi leaves
  unanswered are counted apart);
- recall: sites jedi resolves to a repository callable that the graph resolves to the same,
  over those jedi resolves to a repository callable;
- the by-name remainder: call sites of the whole repository the graph leaves by name;
- each miss by the form of its receiver (``self.x.f()``, ``name.f()``, ``f()``, ...), and
  the first ``--show`` differences of each kind.
"""

from __future__ import annotations

import argparse
import ast
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codeagent.pysyntax import calls, scan
from codeagent.symbols.call_targets import target_of
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import call_target

SEED = 46


@dataclass
class Site:
    path: str
    line: int  # the called name's line and column (jedi's: 1-based line, 0-based column)
    column: int
    form: str  # the receiver's form: f(), self.f(), self.x.f(), name.f(), call().f(), ...
    # the repository definition resolved to: (path, def line) of each definition of its full
    # name (a function's @overload stubs and its body are one function)
    ours: set[tuple[str, int]] | None
    outside: bool  # resolved to a name outside the repository
    text: str


def build(root: Path) -> tuple[SymbolGraph, dict[str, ast.Module], dict[str, str]]:
    """The symbol graph of every tracked Python file, the trees and the texts."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "*.py"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split("\0")[:-1]  # -z: names as they are (not quoted), spaces kept
    trees: dict[str, ast.Module] = {}
    texts: dict[str, str] = {}
    for path in listed:
        try:
            text = (root / path).read_text(encoding="utf-8")
            trees[path] = ast.parse(text)
            texts[path] = text
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            continue
    return SymbolGraph.build(trees, root), trees, texts


def form_of(func: ast.expr) -> str:
    """How a call names its callee, for the misses by class."""
    if isinstance(func, ast.Name):
        return "f()"
    assert isinstance(func, ast.Attribute)
    value = func.value
    if isinstance(value, ast.Name):
        return "self.f()" if value.id in ("self", "cls") else "name.f()"
    if isinstance(value, ast.Call):
        is_super = isinstance(value.func, ast.Name) and value.func.id == "super"
        return "super().f()" if is_super else "call().f()"
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
        return "self.x.f()" if value.value.id in ("self", "cls") else "name.x.f()"
    return "other.f()"


def sites(graph: SymbolGraph, trees: dict[str, ast.Module], texts: dict[str, str]) -> list[Site]:
    """Every call site of the graph, with our resolution and the called name's position, in
    the order the graph records them (the same walk as the extraction)."""
    out: list[Site] = []
    where: dict[str, set[tuple[str, int]]] = {}
    for d in graph._defs:
        where.setdefault(d.full_name, set()).add((d.path, d.line))
    for path, tree in trees.items():
        rec = graph.files.get(path)
        if rec is None or len(rec["c"]) < 2:  # no symbols (a file nested too deeply)
            continue
        lines = texts[path].split("\n")
        number = 0
        for node, _scope in calls(scan(tree)):
            assert isinstance(node, ast.Call)
            func = node.func
            if isinstance(func, ast.Name):
                line, col = func.lineno, func.col_offset
            elif isinstance(func, ast.Attribute) and func.end_lineno and func.end_col_offset:
                line, col = func.end_lineno, func.end_col_offset - len(func.attr)
            else:
                continue
            written = call_target(rec["c"], number)
            number += 1
            found = target_of(graph, path, written) if written else None
            ours, outside = None, False
            if found is not None:
                full, outside = found
                ours = where.get(full) if not outside else None
            text = lines[line - 1] if line <= len(lines) else ""
            column = len(text.encode("utf-8")[:col].decode("utf-8", "replace"))
            out.append(Site(path, line, column, form_of(func), ours, outside, text.strip()))
    return out


def jedi_truth(root: Path, chosen: list[Site]) -> list[tuple[set[tuple[str, int]], bool]]:
    """Per site: the repository classes/functions jedi's goto names, and whether it named
    anything at all."""
    import jedi
    import parso

    # parso keeps every file it parsed, across projects, and drops the oldest past a size;
    # jedi then fails on a file of this project whose tree was dropped (a KeyError of its
    # path, seen on the sixth repository of one run): each repository starts with none.
    parso.cache.parser_cache.clear()
    jedi.cache.clear_time_caches(True)
    # The checkout's own code first (its src/ layout too), before an installed copy of the
    # same package in this environment; then the environment (the standard library, deps).
    own = [str(root / "src")] if (root / "src").is_dir() else []
    here = {Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "src"}
    base = [p for p in sys.path if p and Path(p).resolve() not in here]
    project = jedi.Project(str(root), sys_path=[*own, str(root), *base])
    scripts: dict[str, jedi.Script] = {}
    out = []
    for site in chosen:
        script = scripts.get(site.path)
        if script is None:
            source = (root / site.path).read_text(encoding="utf-8")
            script = scripts[site.path] = jedi.Script(
                source, path=str(root / site.path), project=project
            )
        try:
            names = script.goto(site.line, site.column, follow_imports=True)
            names = [_past_imports(root, project, scripts, name) for name in names]
        except Exception:  # jedi's own failure on a site: no answer
            names = []
        found = set()
        for name in names:
            path = name.module_path
            if path is None or name.line is None or name.type not in ("function", "class"):
                continue
            try:
                rel = Path(path).resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                continue
            found.add((rel, name.line))
        out.append((found, bool(names)))
    return out


def _import_lines(path: Path, cache: dict[Path, set[int]]) -> set[int]:
    """The lines of a file's import statements."""
    if path not in cache:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        cache[path] = {
            n
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for n in range(node.lineno, (node.end_lineno or node.lineno) + 1)
        }
    return cache[path]


_IMPORT_LINES: dict[Path, set[int]] = {}


def _past_imports(root: Path, project: Any, scripts: dict[str, Any], name: Any) -> Any:
    """jedi's answer, followed on where it stops at an import statement of the repository (a
    stub's name is mapped to the module's, and a package's ``__init__.py`` that re-exports
    it imports it: jedi lands on that import, not on the definition)."""
    import jedi

    for _hop in range(4):
        path = name.module_path
        if path is None or name.line is None or not Path(path).is_relative_to(root):
            return name
        if name.line not in _import_lines(Path(path), _IMPORT_LINES):
            return name
        key = str(path)
        if key not in scripts:
            scripts[key] = jedi.Script(Path(path).read_text(encoding="utf-8"), path=key,
                                       project=project)  # fmt: skip
        ahead = scripts[key].goto(name.line, name.column, follow_imports=True)
        if not ahead or (ahead[0].module_path, ahead[0].line) == (path, name.line):
            return name
        name = ahead[0]
    return name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--show", type=int, default=8)
    parser.add_argument(
        "--silent", type=int, default=0, help="show this many sites resolved where jedi is silent"
    )
    args = parser.parse_args(argv)
    totals: Counter[str] = Counter()
    misses: Counter[str] = Counter()
    for root in args.repos:
        if not (root / ".git").exists():
            print(f"error: {root} is not a git checkout", file=sys.stderr)
            return 2
        graph, trees, texts = build(root)
        every = sites(graph, trees, texts)
        chosen = random.Random(SEED).sample(every, min(args.sample, len(every)))
        truth = jedi_truth(root, chosen)
        count: Counter[str] = Counter()
        shown: Counter[str] = Counter()
        for site, (jedi_defs, answered) in zip(chosen, truth, strict=True):
            verdict = _judge(site, jedi_defs, answered, count, misses)
            if site.ours is not None and not answered and shown["silent"] < args.silent:
                shown["silent"] += 1
                show("jedi silent", site, site.text[:90], jedi_defs, "jedi")
            if verdict and shown[verdict] < args.show:
                shown[verdict] += 1
                show(verdict, site, site.text[:90], jedi_defs, "jedi")
        tally(root.name, count, every, totals, "jedi")
    close(totals, misses, "jedi")
    return 0


def show(verdict: str, site: Site, text: str, theirs: set[Any], oracle: str) -> None:
    """One judged site, ours beside the oracle's answer."""
    print(f"  {verdict}: {site.path}:{site.line} [{site.form}] {text}")
    print(f"      ours {sorted(site.ours or ())[:3]}  {oracle} {sorted(theirs)[:3]}")


def tally(
    name: str, count: Counter[str], every: list[Site], totals: Counter[str], oracle: str
) -> None:
    """A repository's line: its counts, with the by-name sites of the whole repository."""
    count["by-name (all sites)"] = sum(1 for s in every if s.ours is None and not s.outside)
    count["sites (all)"] = len(every)
    totals.update(count)
    print(f"{name}: {_summary(count, oracle)}")


def close(totals: Counter[str], misses: Counter[str], oracle: str) -> None:
    """The lines over every repository."""
    print(f"all: {_summary(totals, oracle)}")
    print("misses by receiver form: " + ", ".join(f"{k} {v}" for k, v in misses.most_common()))


def _judge(
    site: Site,
    jedi_defs: set[tuple[str, int]],
    answered: bool,
    count: Counter[str],
    misses: Counter[str],
    every_def: set[tuple[str, int]] | None = None,
) -> str | None:
    """Count one site; the kind of difference, or None when both agree (or neither knows).
    ``jedi_defs``: the oracle's repository callables for the site; ``every_def``: all the
    declarations it names (an answer naming any is right; default: ``jedi_defs``)."""
    right = jedi_defs if every_def is None else every_def
    count["sampled"] += 1
    verdict = None
    if site.ours is not None:
        if not answered:
            count["resolved, jedi silent"] += 1
        else:
            count["resolved, jedi answered"] += 1
            if site.ours & right:
                count["resolved right"] += 1
            else:
                verdict = "wrong"
    if jedi_defs:
        count["jedi repo callable"] += 1
        if site.ours and site.ours & jedi_defs:
            count["found"] += 1
        else:
            verdict = verdict or "missed"
            misses[f"{site.form}{' (outside)' if site.outside else ''}"] += 1
    return verdict


def _summary(c: Counter[str], oracle: str = "jedi") -> str:
    precision = (
        c["resolved right"] / c["resolved, jedi answered"] if c["resolved, jedi answered"] else 0
    )
    recall = c["found"] / c["jedi repo callable"] if c["jedi repo callable"] else 0
    line = (
        f"sampled {c['sampled']}, precision {precision:.1%} "
        f"({c['resolved right']}/{c['resolved, jedi answered']}; "
        f"{c['resolved, jedi silent']} resolved where jedi is silent), recall {recall:.1%} "
        f"({c['found']}/{c['jedi repo callable']}); by name {c['by-name (all sites)']} of "
        f"{c['sites (all)']} call sites"
    )
    return line.replace("jedi", oracle)


if __name__ == "__main__":
    raise SystemExit(main())
