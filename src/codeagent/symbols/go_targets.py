"""A Go call's target (as its file wrote it: :mod:`codeagent.lang.go_calls`) resolved to the
repository definition it calls.

    go_target(graph, "server/a.go", "Client.send")   # ("server/client.go.Client.send", False)
    go_target(graph, "server/a.go", "http.Get")      # ("net/http.Get", True): the standard library
    go_target(graph, "server/a.go", "NewClient().Do") # Do of what NewClient returns first

A package is a folder. The first name of a target is an import's (its alias, else its path's
last element, a major version ``v2`` skipped), then a type or a function of the file's own
package; a package of the module is the folder its import path ends with (the root's when
the root's package has the name the import binds: the module's own path is not in the
records), one of the standard library (no dot in its first element) is outside; any other
path leads nowhere. A package-level variable's type is what it states or what the call that
gives its value returns (the record's ``b`` rows whose owner is ""). A
method is the type's own (declared for it by receiver anywhere in its folder), else one of its
embedded fields'; a field's type is read from its struct (the record's ``b`` rows). A call
of a type (a conversion) and anything else that leads nowhere stays by name.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from codeagent.symbols.file_imports import targets
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

Target = tuple[str, bool]
MAX_DEPTH = 4  # embedded fields followed
_BUILTINS = frozenset({
    "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
    "max", "min", "new", "panic", "print", "println", "real", "recover",
})  # fmt: skip
_VERSION = re.compile(r"v[0-9]+")


def go_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    first, *after = written.split("().")  # NewClient().Do: Do of what NewClient returns
    found = _first(graph, path, first)
    for names in after:
        if found is None or found[1]:
            return None
        cls = _returns(graph, found[0])
        found = _walk(graph, cls, names.split("."), 0) if cls is not None else None
    return found


def _first(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    head, *rest = written.split(".")
    folder = path.rpartition("/")[0]
    imported = _import(graph, path, head)
    if imported is not None:
        module, place = imported
        if place is None:  # the standard library
            return (f"{module}.{'.'.join(rest)}", True) if rest else None
        if len(rest) == 1:
            fn = _function(graph, place, rest[0])
            return (fn.full_name, False) if fn is not None else None
        cls = _type(graph, place, rest[0]) if rest else None
        return _walk(graph, cls, rest[1:], 0) if cls is not None else None
    if not rest:
        fn = _function(graph, folder, head)
        if fn is not None:
            return (fn.full_name, False)
        builtin = head in _BUILTINS and (folder, head) not in graph.package_index
        return (head, True) if builtin else None
    cls = _type(graph, folder, head)
    if cls is None:  # a package-level variable: its type, or what its value's call returns
        where, value = graph.package_level.get((folder, head), ("", ""))
        cls = _value_type(graph, where, value) if where else None
    return _walk(graph, cls, rest, 0) if cls is not None else None


def _value_type(graph: SymbolHierarchy, path: str, written: str) -> Definition | None:
    """The repository type ``T``, ``pkg.T`` or ``NewT()`` (what it returns) names in the file
    at ``path``."""
    if not written.endswith("()"):
        return _written_type(graph, path, written)
    found = go_target(graph, path, written[:-2])
    return _returns(graph, found[0]) if found is not None and not found[1] else None


def _import(graph: SymbolHierarchy, path: str, name: str) -> tuple[str, str | None] | None:
    """The import binding ``name`` in the file: its path, and its folder in the repository
    (None for the standard library); None when no import binds it or it leads nowhere."""
    rec = graph.files[path]
    for _line, module, _name, alias in rec["i"]:
        parts = module.split("/")
        bound = alias or (parts[-2] if _VERSION.fullmatch(parts[-1]) and len(parts) > 1
                          else parts[-1]).removesuffix(".go")  # fmt: skip
        if bound != name or alias in ("_", "."):
            continue
        if "." not in parts[0]:
            return (module, None)
        files = targets(path, rec["l"], module, None, graph.go_layout)
        if files:
            return (module, files[0].rpartition("/")[0])
        # the module's root package (its path is go.mod's, which the layout does not hold):
        # when the root's package has the name the import binds
        root = graph.package_level.get(("", ""))
        return (module, "") if root is not None and root[1] == bound else None
    return None


def _function(graph: SymbolHierarchy, folder: str, name: str) -> Definition | None:
    d = graph.package_index.get((folder, name))
    return d if d is not None and d.kind == "function" else None


def _type(graph: SymbolHierarchy, folder: str, name: str) -> Definition | None:
    d = graph.package_index.get((folder, name))
    return d if d is not None and d.kind in CLASS_KINDS else None


def _walk(graph: SymbolHierarchy, cls: Definition, names: list[str], depth: int) -> Target | None:
    """The method ``names[-1]`` of the type reached from ``cls`` through the fields before
    it (their types read in the struct's file), embedded fields' methods promoted."""
    if not names or depth > MAX_DEPTH or cls.kind not in CLASS_KINDS:
        return None
    if len(names) > 1:
        typed = _field(graph, cls, names[0])
        return _walk(graph, typed, names[1:], depth) if typed is not None else None
    for m in graph.members(cls):
        if m.name == names[0]:
            return (m.full_name, False)
    for owner, field, written in graph.files[cls.path].get("b", ()):
        if owner == cls.qualname and not field:  # an embedded type
            inner = _written_type(graph, cls.path, written)
            found = _walk(graph, inner, names, depth + 1) if inner is not None else None
            if found is not None:
                return found
    return None


def _field(graph: SymbolHierarchy, cls: Definition, name: str) -> Definition | None:
    for owner, field, written in graph.files[cls.path].get("b", ()):
        if owner == cls.qualname and field == name:
            return _written_type(graph, cls.path, written)
    return None


def _written_type(graph: SymbolHierarchy, path: str, written: str) -> Definition | None:
    """The repository type ``T`` or ``pkg.T`` names in the file at ``path``."""
    head, dot, name = written.partition(".")
    if not dot:
        return _type(graph, path.rpartition("/")[0], head)
    imported = _import(graph, path, head)
    return _type(graph, imported[1], name) if imported and imported[1] is not None else None


def _returns(graph: SymbolHierarchy, full: str) -> Definition | None:
    """The repository type a function or method returns first, as its signature says."""
    d = graph._by_full.get(full)
    if d is None or d.kind not in ("function", "method"):
        return None
    sig = d.signature
    at = sig.find(f"{d.name}(")
    if at < 0:
        return None
    depth, i = 0, at + len(d.name)
    for i in range(at + len(d.name), len(sig)):  # to the end of the parameters
        depth += {"(": 1, ")": -1}.get(sig[i], 0)
        if depth == 0:
            break
    result = sig[i + 1 :].strip()
    if result.startswith("("):
        result = result[1:].split(",")[0].rstrip(")").strip()
    written = result.split()[-1] if result else ""
    written = written.lstrip("*").partition("[")[0]
    if not written or not (written[0].isalpha() or written[0] == "_"):
        return None
    return _written_type(graph, d.path, written)
