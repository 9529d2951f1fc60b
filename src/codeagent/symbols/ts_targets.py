"""A TypeScript/JavaScript call's target (as its file wrote it: :mod:`codeagent.lang.ts_calls`)
resolved to the repository definition it calls.

    ts_target(graph, "src/a.ts", "./client Client.send")  # ("src/client.ts.Client.send", False)
    ts_target(graph, "src/a.ts", "K@3.run")               # ("src/a.ts.K.run", False)
    ts_target(graph, "src/a.ts", "ky default.get")        # ("ky.default.get", True): a package

A module specifier is the file :mod:`codeagent.symbols.file_imports` finds for it (a package
is outside the repository); an export is followed through the file's exports (``export {a as
b} from``, ``export * from``, ``export default``), then its own declarations and imports (a
re-export of an import); an attribute of a class is its member or, failing that, one of its
bases' (``extends`` first, as written, resolved in the class's file); of a module, its export;
of a namespace, its member. Anything else leads nowhere: the call stays by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.symbols.file_imports import targets
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

MAX_HOPS = 12  # re-exports and bases followed
Target = tuple[str, bool]


def ts_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    after = written.startswith("^")  # super.f(): f of the class's bases
    written = written.lstrip("^")
    if " " in written:
        spec, _, rest = written.partition(" ")
        export, _, members = rest.partition(".")
        if not spec.startswith("."):
            return (f"{spec}.{rest}", True)
        found = _export(graph, path, spec, export, 0)
    else:
        head, _, members = written.partition(".")
        found = _declared(graph, path, head)
    attrs = members.split(".") if members else []
    if after and found is not None and attrs:
        found = _in_bases(graph, found, attrs.pop(0), 0)
    for attr in attrs:
        found = _member(graph, found, attr, 0) if found is not None else None
    if found is None or found.kind == "module":
        return None
    return (found.full_name, False)


def _declared(graph: SymbolHierarchy, path: str, head: str) -> Definition | None:
    """``NAME@LINE``: the definition of the file with that name on that line."""
    name, _, line = head.rpartition("@")
    rec = graph.files.get(path)
    for row in rec["d"] if rec is not None and line.isdigit() else ():
        if row[2] == int(line) and row[0].rpartition(".")[2] == name:
            return graph._by_full.get(f"{path}.{row[0]}")
    return None


def _export(
    graph: SymbolHierarchy, importer: str, spec: str, name: str, hops: int, star: bool = False
) -> Definition | None:
    """Export ``name`` (``*``: the module itself) of what ``spec`` loads from ``importer``."""
    if hops > MAX_HOPS or not spec.startswith("."):
        return None
    language = graph.files[importer].get("l", "")
    found = targets(importer, language, spec, None, graph.js_layout)
    if not found or found[0] not in graph.files:
        return None
    if name == "*":
        return graph._by_full.get(found[0])
    return _exported(graph, found[0], name, hops + 1, star)


def _exported(
    graph: SymbolHierarchy, path: str, name: str, hops: int, star: bool = False
) -> Definition | None:
    """Export ``name`` of the file at ``path``: as its exports name it, else (``star`` off:
    imported by name, which the compiler checks) a declaration of its top level; through
    ``export * from`` only what the file exports (a same-named object literal's method of a
    file re-exported by ``*`` is not the name)."""
    exports = graph.files[path].get("e", ())
    for exported, local, spec in exports:
        if exported == name:
            return (
                _export(graph, path, spec, local, hops) if spec else _top(graph, path, local, hops)
            )
    if name == "default":
        return None
    found = None if star else _top(graph, path, name, hops)
    for exported, _local, spec in exports if found is None else ():
        if exported == "*":
            found = _export(graph, path, spec, name, hops, star=True)
            if found is not None:
                break
    return found


def _top(graph: SymbolHierarchy, path: str, name: str, hops: int) -> Definition | None:
    """What ``name`` names at the top of the file: its declaration, or the import binding it."""
    found = graph._by_full.get(f"{path}.{name}")
    if found is not None:
        return found
    for local, spec, export in graph.files[path].get("b", ()):
        if local == name:
            return _export(graph, path, spec, export, hops)
    return None


def _written(graph: SymbolHierarchy, path: str, written: str, hops: int) -> Definition | None:
    """A dotted name written in the file at ``path`` (a base class: ``Base``, ``ns.Base``)."""
    head, *attrs = written.split(".")
    found = _top(graph, path, head, hops)
    for attr in attrs:
        found = _member(graph, found, attr, hops) if found is not None else None
    return found


def _member(graph: SymbolHierarchy, owner: Definition, attr: str, hops: int) -> Definition | None:
    if owner.kind == "module":
        return _exported(graph, owner.path, attr, hops)
    if owner.kind == "namespace":
        return graph._by_full.get(f"{owner.full_name}.{attr}")
    if owner.kind not in CLASS_KINDS:
        return None
    for d in graph.members(owner):
        if d.name == attr:
            return d
    return _in_bases(graph, owner, attr, hops)


def _in_bases(graph: SymbolHierarchy, cls: Definition, attr: str, hops: int) -> Definition | None:
    if hops > MAX_HOPS or cls.kind not in CLASS_KINDS:
        return None
    for base in cls.bases:
        found = _written(graph, cls.path, base, hops + 1)
        found = _member(graph, found, attr, hops + 1) if found is not None else None
        if found is not None:
            return found
    return None
