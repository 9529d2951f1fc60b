"""What the names, paths and traceback frames of a question say about each file of an index.

The strongest evidence for a file is rarely lexical: a name the question uses that the file
defines, a dotted name or ``Class.method`` that resolves to it, its path, a traceback frame in
it. The definitions come from the repository symbol graph (:mod:`codeagent.symbols.graph`),
built at index time from the parse the chunker did, so they are real ``def`` and ``class``
statements (nested ones included), not words that look like them in a docstring; module-level
assignments, which the graph does not hold, are read from the files' module chunks.

- :func:`define_scores`: for each code name of the question, every file defining it gets
  ``1 / number of files defining it`` (a method counts :data:`METHOD_SHARE` of that), summed
  and capped; a name defined in more than :data:`MAX_DEFINERS` files says nothing;
- :func:`qualified_scores`: a dotted name of the question that the graph resolves (re-exports
  followed: ``sympy.Matrix``, ``requests.Session.send``), or a class and one of its methods
  both named (``Session`` ... ``send``), points at the defining file;
- :func:`mention_scores`: the question names the file's path, its dotted module, or a
  traceback frame in it (the innermost frame of the project counts double);
- :func:`use_scores`: the files that define what the best chunks of the top files call or
  subclass (a SQL dialect's grammar built from ``Sequence`` and ``Ref`` points at the grammar
  modules; a checker at its base checker): one step along the symbol graph, bounded;
- :func:`import_neighbours`: the project files each file imports or is imported by (a
  question about a formatter is often answered by the command that uses it too).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codeagent.lang import PYTHON_AST, suffixes_read_by
from codeagent.rank.query import QueryAnalysis

if TYPE_CHECKING:
    from codeagent.records import Chunk
    from codeagent.symbols.graph import SymbolGraph

W_DEFINES = 0.6
DEFINES_CAP = 1.5
WEAK = 0.3  # a plain word of a code block, against a name that looks like code
METHOD_SHARE = 1.0  # a method's share of a definition (methods share names across classes)
MAX_DEFINERS = 8  # a name defined in more files than this is not evidence
W_QUALIFIED = 0.0  # dotted names, Class + method pairs: off (no better on the tuning split)
W_MODULE = 0.8
W_PATH = 1.0
W_FRAME = 0.6
W_USES = 0.3  # the definers of what the top files' best chunks call or subclass
USES_CAP = 2.0
USES_MAX_DEFINERS = 3  # a name defined in more files than this is not followed
W_NEIGHBOURS = 0.2  # the import neighbours of the top files
NEIGHBOUR_TOP = 3
USE_GRAPH = True  # definitions from the symbol graph (else from regular expressions)

_DEFINED = re.compile(r"(?:def|class) +([A-Za-z_]\w*)")  # a store without a symbol graph
_ASSIGNED = re.compile(r"^([A-Za-z_]\w*) *(?::[^=\n]*)?=[^=]", re.MULTILINE)  # module level


@dataclass
class Definers:
    """Who defines what, by file id."""

    names: dict[str, dict[int, float]] = field(default_factory=dict)  # name -> {file: share}
    pairs: dict[str, set[int]] = field(default_factory=dict)  # "Class.method" -> files
    graph: SymbolGraph | None = None

    def add(self, name: str, fid: int, share: float) -> None:
        self.add_all((name,), fid, share)

    def add_all(self, names: Iterable[str], fid: int, share: float = 1.0) -> None:
        """Each of ``names`` defined in file ``fid`` with ``share`` (the best share a file
        gives a name is kept); one call for a chunk's names: this runs over every chunk of a
        store on its first question."""
        table = self.names
        for name in names:
            files = table.get(name)
            if files is None:
                table[name] = {fid: max(0.0, share)}
            elif files.get(fid, 0.0) < share:
                files[fid] = share


def definers(chunks: Iterable[Chunk], ids: dict[str, int], graph: SymbolGraph | None) -> Definers:
    """The definitions of every file: the symbol graph's, plus module-level assignments (built
    on a store's first question, over every chunk)."""
    found = Definers(graph=graph if graph is not None and graph.files else None)
    use_graph = USE_GRAPH and found.graph is not None
    python_suffixes = suffixes_read_by(PYTHON_AST)
    for chunk in chunks:
        fid = ids[chunk.path]
        python = chunk.path.endswith(python_suffixes)
        defined: list[str] = []
        if chunk.symbol and chunk.symbol[0] != "<" and not (python and use_graph):
            defined += chunk.symbol.split(".")
        if python:
            if not use_graph:
                defined += _DEFINED.findall(chunk.text)
            if chunk.kind in {"module", "window"}:
                defined += _ASSIGNED.findall(chunk.text)
        found.add_all(defined, fid)
    if use_graph and found.graph is not None:
        pairs = found.pairs
        for path, record in found.graph.files.items():
            fid = ids.get(path, -1)
            if fid < 0:
                continue
            for qualname, kind, *_ in record["d"]:
                parts = qualname.split(".")
                found.add(parts[-1], fid, METHOD_SHARE if kind == "method" else 1.0)
                if kind == "method" and len(parts) > 1:
                    pairs.setdefault(".".join(parts[-2:]), set()).add(fid)
    return found


def define_scores(analysis: QueryAnalysis, table: Definers) -> dict[int, float]:
    """The definition evidence per file id (see the module doc)."""
    scores: dict[int, float] = {}
    names = [(name, 1.0) for name in analysis.identifiers]
    names += [(name, WEAK) for name in analysis.weak]
    if analysis.wants_tests:  # the test of ``parse`` is ``test_parse``
        names += [(f"test_{name}", 1.0) for name in analysis.identifiers]
    for name, weight in names:
        files = table.names.get(name)
        if not files or len(files) > MAX_DEFINERS:
            continue
        for fid, share in files.items():
            scores[fid] = scores.get(fid, 0.0) + weight * share / len(files)
    return {fid: W_DEFINES * min(s, DEFINES_CAP) for fid, s in scores.items()}


def qualified_scores(
    analysis: QueryAnalysis, table: Definers, ids: dict[str, int]
) -> dict[int, float]:
    """Dotted names and Class + method pairs of the question, resolved to defining files."""
    scores: dict[int, float] = {}
    if not W_QUALIFIED:
        return scores
    hits: list[set[int]] = []
    if table.graph is not None:
        for dotted in analysis.dotted:
            found = {ids[d.path] for d in table.graph.definitions(dotted) if d.path in ids}
            if found:
                hits.append(found)
    named = set(analysis.identifiers)
    for name in analysis.identifiers:
        if not name[:1].isupper():
            continue
        for other in named:
            files = table.pairs.get(f"{name}.{other}")
            if files:
                hits.append(files)
    for files in hits:
        if len(files) <= MAX_DEFINERS:
            for fid in files:
                scores[fid] = max(scores.get(fid, 0.0), W_QUALIFIED / len(files))
    return scores


def by_name(paths: list[str]) -> dict[str, list[int]]:
    """The ids of ``paths`` by file name (the last part), in order: the only files a path
    suffix ending in that name can match (:func:`resolve_path`)."""
    found: dict[str, list[int]] = {}
    for i, p in enumerate(paths):
        found.setdefault(p.rpartition("/")[2], []).append(i)
    return found


def resolve_path(
    written: str, paths: list[str], names: dict[str, list[int]] | None = None
) -> int | None:
    """The file a path as written names: the longest path suffix match, if unique.

    ``names`` (:func:`by_name` of ``paths``) narrows the files to compare to those of the
    same name; the answer is the same without it."""
    parts = [p for p in written.replace("\\", "/").split("/") if p not in {"", "."}]
    if not parts:
        return None
    ids = names.get(parts[-1], []) if names is not None else range(len(paths))
    for start in range(len(parts)):
        suffix = "/".join(parts[start:])
        found = [i for i in ids if paths[i] == suffix or paths[i].endswith("/" + suffix)]
        if len(found) == 1:
            return found[0]
        if found:
            return None
    return None


def mention_scores(
    analysis: QueryAnalysis,
    paths: list[str],
    modules: dict[str, int],
    names: dict[str, list[int]] | None = None,
) -> dict[int, float]:
    """Path, module and traceback-frame evidence per file id (``names``: :func:`by_name`)."""
    scores: dict[int, float] = {}

    def add(fid: int | None, value: float) -> None:
        if fid is not None and fid >= 0:
            scores[fid] = max(scores.get(fid, 0.0), value)

    for written in analysis.paths:
        add(resolve_path(written, paths, names), W_PATH)
    resolved = [resolve_path(f.path, paths, names) for f in analysis.frames]
    frames = [fid for fid in resolved if fid is not None]
    for n, frame in enumerate(frames, start=1):
        scores[frame] = scores.get(frame, 0.0) + W_FRAME * (2.0 if n == len(frames) else 1.0)
    for dotted in analysis.dotted:
        parts = dotted.split(".")
        for end in range(len(parts), 1, -1):
            fid = modules.get(".".join(parts[:end]))
            if fid is not None:
                add(fid, W_MODULE)
                break
    return scores


def mention_parts(
    analysis: QueryAnalysis,
    paths: list[str],
    modules: dict[str, int],
    names: dict[str, list[int]] | None = None,
) -> tuple[dict[int, float], dict[int, float], dict[int, float]]:
    """The three parts of :func:`mention_scores` apart: the files whose path the question
    names, whose dotted module it names, and the traceback-frame score of each file."""
    named = {fid: 1.0 for w in analysis.paths if (fid := resolve_path(w, paths, names)) is not None}
    frames: dict[int, float] = {}
    found = [
        fid for f in analysis.frames if (fid := resolve_path(f.path, paths, names)) is not None
    ]
    for n, fid in enumerate(found, start=1):
        frames[fid] = frames.get(fid, 0.0) + (2.0 if n == len(found) else 1.0)
    dotted: dict[int, float] = {}
    for name in analysis.dotted:
        parts = name.split(".")
        for end in range(len(parts), 1, -1):
            fid = modules.get(".".join(parts[:end]))
            if fid is not None:
                if fid >= 0:
                    dotted[fid] = 1.0
                break
    return named, dotted, frames


def use_scores(
    spans: Iterable[tuple[int, str, int, int]], table: Definers
) -> dict[int, tuple[float, set[int]]]:
    """For chunks ``(file id, path, start, end)`` of the top files: each name the chunk calls
    or subclasses gives each of its definers (at most :data:`USES_MAX_DEFINERS`, the chunk's
    own file left out) ``1 / number of definers``, summed over names and capped. Returns
    ``{definer: (score, the top files it was reached from)}``."""
    scores: dict[int, tuple[float, set[int]]] = {}
    if table.graph is None or not W_USES:
        return scores
    names_of: dict[int, set[str]] = {}
    for fid, path, start, end in spans:
        names_of.setdefault(fid, set()).update(table.graph.used_names(path, start, end))
    for own, names in names_of.items():
        for name in names:
            files = table.names.get(name)
            if not files or len(files) > USES_MAX_DEFINERS:
                continue
            for fid in files:
                if fid != own:
                    value, sources = scores.get(fid, (0.0, set()))
                    scores[fid] = (value + 1.0 / len(files), sources | {own})
    return {fid: (W_USES * min(v, USES_CAP), src) for fid, (v, src) in scores.items()}


def neighbour_scores(
    sources: Iterable[int], neighbours: dict[int, set[int]]
) -> dict[int, tuple[float, set[int]]]:
    """Each import neighbour of the ``sources`` (the top files) gains :data:`W_NEIGHBOURS`,
    as ``{file: (value, the sources it neighbours)}`` (the shape of :func:`use_scores`)."""
    scores: dict[int, tuple[float, set[int]]] = {}
    if not W_NEIGHBOURS:
        return scores
    for source in sources:
        for fid in neighbours.get(source, ()):
            scores.setdefault(fid, (W_NEIGHBOURS, set()))[1].add(source)
    return scores


def import_neighbours(graph: SymbolGraph | None, ids: dict[str, int]) -> dict[int, set[int]]:
    """Each file's import neighbours, by file id: the project modules it imports (a
    ``from package import module`` counts as the module) and the files that import it."""
    found: dict[int, set[int]] = {}
    if graph is None:
        return found
    for path in graph.files:
        own = ids.get(path)
        if own is None:
            continue
        for imp in graph.imports_of(path):
            target = graph.modules.get(imp.target) or graph.modules.get(imp.module)
            fid = ids.get(target) if target is not None else None
            if fid is not None and fid != own:
                found.setdefault(own, set()).add(fid)
                found.setdefault(fid, set()).add(own)
    return found
