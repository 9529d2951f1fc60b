"""Of a C/C++ function or class that two files define (a library's headers and an amalgamated
copy of them, ``include/lib/table.hpp`` and ``single_include/lib/lib.hpp``), the one a call
means: the copy the calling file's ``#include`` lines reach, directly or through the files
they include (the graph's index of which files each include loads, the one "which files
include X?" reads)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy
    from codeagent.symbols.types import Definition

# per graph: each file -> the files its includes load; each file -> every file it reaches
_FORWARD: WeakKeyDictionary[SymbolHierarchy, dict[str, set[str]]] = WeakKeyDictionary()
_REACHED: WeakKeyDictionary[SymbolHierarchy, dict[str, frozenset[str]]] = WeakKeyDictionary()


def reached(graph: SymbolHierarchy, path: str) -> frozenset[str]:
    """The file at ``path`` and every file its includes load, directly or not."""
    known = _REACHED.setdefault(graph, {})
    found = known.get(path)
    if found is None:
        forward = _forward(graph)
        seen, todo = {path}, [path]
        while todo:
            for loaded in forward.get(todo.pop(), ()):
                if loaded not in seen:
                    seen.add(loaded)
                    todo.append(loaded)
        found = known[path] = frozenset(seen)
    return found


def reachable_copy(graph: SymbolHierarchy, path: str, callee: Definition) -> Definition:
    """``callee``, or the copy of it (the same kind and signature in another file, its
    qualified name the same or one inside the other: a copy whose namespaces were not read)
    that the includes of the file at ``path`` reach when ``callee``'s file is not."""
    copies = [
        d
        for d in graph._by_name.get(callee.name, ())
        if d.kind == callee.kind and d.signature == callee.signature
        and _same(d.qualname, callee.qualname)
    ]  # fmt: skip
    if len({d.path for d in copies}) < 2:
        return callee
    near = reached(graph, path)
    if callee.path in near:
        return callee
    return next((d for d in copies if d.path in near), callee)


def _forward(graph: SymbolHierarchy) -> dict[str, set[str]]:
    forward = _FORWARD.get(graph)
    if forward is None:
        forward = _FORWARD[graph] = defaultdict(set)
        for target, imports in graph._file_importers.items():
            for imp in imports:
                forward[imp.path].add(target)
    return forward


def _same(one: str, other: str) -> bool:
    """Whether two qualified names are one, or one ends the other (``Table.format`` and
    ``tabulate.Table.format``)."""
    short, long = sorted((one, other), key=len)
    return long == short or long.endswith(f".{short}")
