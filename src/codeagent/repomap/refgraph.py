"""The files of a repository as a reference graph, ranked by personalised PageRank.

An edge ``a -> b`` says file ``a`` uses something file ``b`` defines, read from the symbol
graph the index built (:mod:`codeagent.symbols.graph`):

- **imports**: a Python import resolved through the repository's own modules and
  re-exports; another language's import resolved to the files it loads
  (:mod:`codeagent.symbols.file_imports`);
- **calls**, by name: a call of ``name`` is an edge to every file of the same language
  family that defines a class, function or method called ``name``, weighted
  ``sqrt(calls) / definers``: a name defined in many files says little about each
  (a tenth when more than five define it, nothing when more than ten do: ``get``, ``close``
  in a large repository would otherwise make most of the edges), a private ``_name`` a
  tenth, dunder names nothing, a long descriptive name (``parse_header``, ``readConfig``)
  twice, a Python call of a name that built-in types have as a method (``items``) a tenth;
- **inheritance**: a class's bases resolved to the classes of the repository.

Each edge carries the name it goes through, so the rank a file passes on is also shared
among the definitions it uses (:func:`definition_scores`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from codeagent import lang
from codeagent.symbols.file_imports import family
from codeagent.symbols.tables import CALL_FIELDS, CLASS_KINDS
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    import numpy as np

    from codeagent.symbols.graph import SymbolGraph

DAMPING = 0.85
IMPORT_WEIGHT = 1.0
BASE_WEIGHT = 2.0
MANY_DEFINERS = 5
MAX_DEFINERS = 10  # a name defined in more files than this says nothing about any of them


@cache
def _builtin_methods(specs: tuple[lang.LanguageSpec, ...], language: str) -> frozenset[str]:
    """The methods of the built-in types of the languages of one family (their specs'
    ``builtin_methods``: Python's ``d.get()``, ``s.encode()``)."""
    found = [spec.builtin_methods for spec in specs if (spec.family or spec.name) == language]
    return frozenset().union(*found)


@dataclass
class Edges:
    """Parallel lists: ``src[k] -> dst[k]`` with ``weight[k]``, through the name ``name[k]``
    (an index into ``names``); files are indices into the graph's sorted paths."""

    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    weight: list[float] = field(default_factory=list)
    name: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    def add(self, src: int, dst: int, weight: float, name: str, ids: dict[str, int]) -> None:
        if src == dst or weight <= 0:
            return
        if name not in ids:
            ids[name] = len(self.names)
            self.names.append(name)
        self.src.append(src)
        self.dst.append(dst)
        self.weight.append(round(weight, 4))
        self.name.append(ids[name])

    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("src", "dst", "weight", "name", "names")}

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``src``, ``dst``, ``weight``, ``name`` as arrays (made once)."""
        import numpy as np

        if "arrays" not in self._cache:
            self._cache["arrays"] = (
                np.asarray(self.src, dtype=np.int64),
                np.asarray(self.dst, dtype=np.int64),
                np.asarray(self.weight, dtype=np.float64),
                np.asarray(self.name, dtype=np.int64),
            )
        found: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] = self._cache["arrays"]
        return found

    def targets(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct (``dst``, ``name``) of the edges as keys ``dst * len(names) + name``
        (sorted), and each edge's place among them (made once)."""
        import numpy as np

        if "targets" not in self._cache:
            _src, dst, _weight, name = self.arrays()
            self._cache["targets"] = np.unique(
                dst * max(len(self.names), 1) + name, return_inverse=True
            )
        found: tuple[np.ndarray, np.ndarray] = self._cache["targets"]
        return found

    def pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One edge per (``src``, ``dst``) with the weights of all its names summed: what
        PageRank walks (made once)."""
        import numpy as np

        if "pairs" not in self._cache:
            src, dst, weight, _name = self.arrays()
            width = int(max(src.max(initial=0), dst.max(initial=0))) + 1
            keys, inverse = np.unique(src * width + dst, return_inverse=True)
            summed = np.bincount(inverse, weights=weight, minlength=len(keys)).astype(np.float64)
            self._cache["pairs"] = (keys // width, keys % width, summed)
        found: tuple[np.ndarray, np.ndarray, np.ndarray] = self._cache["pairs"]
        return found


def _language(rec: dict[str, Any]) -> str:
    """The language family of a symbol-graph record: its ``l``'s; a record without one is the
    graph's own, read by Python's ``ast``."""
    language = rec.get("l")
    return family(language) if language else _ast_family(lang.all_specs())


@cache
def _ast_family(specs: tuple[lang.LanguageSpec, ...]) -> str:
    return next(spec.family or spec.name for spec in specs if spec.structure == lang.PYTHON_AST)


def name_weight(name: str, definers: int, language: str) -> float:
    """How much a call of ``name`` says about each of its ``definers`` files (``language``:
    the family of the calling file)."""
    if name.startswith("__") and name.endswith("__"):
        return 0.0
    weight = 1.0 / definers
    if name in _builtin_methods(lang.all_specs(), language):
        weight *= 0.1
    if name.startswith("_"):
        weight *= 0.1
    if definers > MANY_DEFINERS:
        weight *= 0.1
    if len(name) >= 8 and ("_" in name.strip("_") or name.lower() != name):
        weight *= 2.0
    return weight


def reference_edges(graph: SymbolGraph) -> Edges:
    """The file reference graph of ``graph``; files numbered as ``sorted(graph.files)``."""
    paths = sorted(graph.files)
    index = {p: i for i, p in enumerate(paths)}
    families = [_language(graph.files[p]) for p in paths]
    definers: dict[tuple[str, str], set[int]] = defaultdict(set)
    for i, path in enumerate(paths):
        for row in graph.files[path]["d"]:
            definers[(families[i], row[0].rsplit(".", 1)[-1])].add(i)
    edges, ids = Edges(), dict[str, int]()
    _call_edges(graph, paths, families, definers, edges, ids)
    for i, path in enumerate(paths):
        _import_edges(graph, path, i, index, edges, ids)
        _base_edges(graph, path, i, index, edges, ids)
    return edges


def _call_edges(
    graph: SymbolGraph,
    paths: list[str],
    families: list[str],
    definers: dict[tuple[str, str], set[int]],
    edges: Edges,
    ids: dict[str, int],
) -> None:
    for name, flat in sorted(graph.calls.items()):
        counts: dict[int, int] = defaultdict(int)
        for k in range(0, len(flat), CALL_FIELDS):
            counts[flat[k]] += 1
        for src, n in sorted(counts.items()):
            targets = definers.get((families[src], name), set())
            if not targets or len(targets) > MAX_DEFINERS:
                continue
            weight = name_weight(name, len(targets), families[src])
            for dst in sorted(targets):
                edges.add(src, dst, weight * math.sqrt(n), name, ids)


def _path_of(graph: SymbolGraph, dotted: str) -> str | None:
    """The file defining the module or definition ``dotted`` names, re-exports followed."""
    full = graph.resolve(dotted)
    if full is None:
        return None
    if full in graph.modules:
        return graph.modules[full]
    found = graph.definitions(full)
    return found[0].path if found else None


def _import_edges(
    graph: SymbolGraph, path: str, i: int, index: dict[str, int], edges: Edges, ids: dict[str, int]
) -> None:
    rec = graph.files[path]
    if "l" in rec:  # another language: the files that import this one
        for imp in graph.file_importers(path):
            edges.add(index[imp.path], i, IMPORT_WEIGHT, path.rpartition("/")[2], ids)
        return
    for imp in graph.imports_of(path):
        if imp.name == "*":
            target = _path_of(graph, imp.module)
        else:
            target = _path_of(graph, imp.target) or _path_of(graph, imp.module)
        if target is not None and target in index:
            name = imp.name if imp.name not in (None, "*") else imp.module.rsplit(".", 1)[-1]
            edges.add(i, index[target], IMPORT_WEIGHT, name or "", ids)


def _base_edges(
    graph: SymbolGraph, path: str, i: int, index: dict[str, int], edges: Edges, ids: dict[str, int]
) -> None:
    rec = graph.files[path]
    for q, kind, line, start, end, sig, doc, bases in rec["d"]:
        if kind not in CLASS_KINDS or not bases:
            continue
        cls = Definition(
            q, q.rsplit(".", 1)[-1], kind, path, start, end, sig, doc, (*bases,), rec["m"], line
        )
        for base in graph.resolved_bases(cls):
            found = graph.definitions(base) if "." in base else []
            if found and found[0].path in index:
                edges.add(i, index[found[0].path], BASE_WEIGHT, found[0].name, ids)


def _leaving(arrays: tuple[np.ndarray, ...], active: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """The edges of ``arrays`` (``src`` first) that leave an ``active`` file (all: None)."""
    if active is None or not len(arrays[0]):
        return arrays
    keep = active[arrays[0]]
    return tuple(a[keep] for a in arrays)


def pagerank(
    n: int,
    edges: Edges,
    personal: np.ndarray | None = None,
    *,
    active: np.ndarray | None = None,
    iterations: int = 100,
    tolerance: float = 1e-6,
) -> np.ndarray:
    """Personalised PageRank of ``n`` files over ``edges`` (power iteration); ``personal``:
    where a random surfer jumps to, and where dangling files send their rank (uniform over
    the ``active`` files when None). Only ``active`` files (default: all) pass rank on: a
    test that calls everything does not make everything important. Sums to 1."""
    import numpy as np

    if n == 0:
        return np.zeros(0)
    src, dst, weight = _leaving(edges.pairs(), active)
    out = np.bincount(src, weights=weight, minlength=n)
    share = np.divide(weight, out[src], out=np.zeros_like(weight), where=out[src] > 0)
    if personal is None:
        personal = np.ones(n) if active is None else active.astype(np.float64)
        if not personal.any():
            personal = np.ones(n)
    jump = personal / personal.sum()
    dangling = out == 0
    rank = jump.copy()
    for _ in range(iterations):
        spread = np.bincount(dst, weights=rank[src] * share, minlength=n)
        new = DAMPING * (spread + rank[dangling].sum() * jump) + (1 - DAMPING) * jump
        done = float(np.abs(new - rank).sum()) < tolerance
        rank = new
        if done:
            break
    return np.asarray(rank / rank.sum())


def definition_scores(
    rank: np.ndarray, edges: Edges, active: np.ndarray | None = None
) -> np.ndarray:
    """The rank that flows into each (file, name) of :meth:`Edges.targets` (in its order):
    each ``active`` file's rank shared among the names it uses in proportion to the edges'
    weights."""
    import numpy as np

    src, _dst, weight, _name = edges.arrays()
    if active is not None and len(src):
        weight = np.where(active[src], weight, 0.0)
    out = np.bincount(src, weights=weight, minlength=len(rank))
    flow = rank[src] * weight / np.where(out[src] > 0, out[src], 1.0)
    keys, inverse = edges.targets()
    return np.bincount(inverse, weights=flow, minlength=len(keys)).astype(np.float64)
