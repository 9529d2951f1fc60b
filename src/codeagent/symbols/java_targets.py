"""A Java call's target (as its file wrote it: :mod:`codeagent.lang.java_calls`) resolved to the
repository definition it calls.

    java_target(graph, "a/App.java", "Client.send")     # ("a/Client.java.Client.send", False)
    java_target(graph, "a/App.java", "~App@3.run")      # App's run, or an enclosing class's
    java_target(graph, "a/App.java", "List.add")        # ("java.util.List.add", True)

A type as written is found as the compiler finds it: a class of the file (its own or a nested
one), a class a single-type import names, a class of the file's package (the same folder, or
the same package path under another source root: ``src/main/java/a`` and ``src/test/java/a``),
then one of a package the file imports whole; a qualified name (``a.b.C``) by its path. A type
imported from outside the repository, or one of ``java.lang``, is outside. A method is looked
up in the class, then its bases (breadth first): the first whose parameters take the call's
number of arguments (``T.send#2``; types are not compared), else the first of the name;
``~`` (an unqualified call) goes on to the
enclosing classes, then to the static imports of that name. Anything else leads nowhere: the
call stays by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.lang.java import package_of
from codeagent.symbols.arity import counted, fits
from codeagent.symbols.csharp_targets import (
    extension,
    namespace_head,
    namespace_path,
    outside_extension,
    own_type,
    static_member_types,
)
from codeagent.symbols.file_imports import import_scope, targets
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.ts_targets import _declared
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

Target = tuple[str, bool]
# java.lang's classes a call names most (imported by every file without an import)
_LANG = frozenset({
    "Object", "String", "StringBuilder", "StringBuffer", "Math", "System", "Integer", "Long",
    "Double", "Float", "Short", "Byte", "Boolean", "Character", "Number", "Thread", "Class",
    "Enum", "Runtime", "Objects", "Iterable", "CharSequence", "Comparable", "Runnable",
    "Exception", "RuntimeException", "Throwable", "Error", "Void", "Record",
})  # fmt: skip


def java_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    written, count = counted(written)  # the call's arguments: T.send#2
    first, *after = written.split("().")  # T.make().send: send of what T.make returns
    found = _target(graph, path, first, None if after else count)
    for attr in after:
        if found is None or found[1]:
            return None
        cls = _returns(graph, found[0])
        found = _member(graph, cls, attr, skip_first=False, count=count) if cls else None
    return found


def _target(
    graph: SymbolHierarchy, path: str, written: str, count: int | None = None
) -> Target | None:
    if written.startswith("="):  # new T(...)
        made = java_type(graph, path, written[1:])
        if isinstance(made, str):
            return (made, True)
        return (made.full_name, False) if made is not None else None
    after, unqualified = written.startswith("^"), written.startswith("~")
    owner, _, member = written.lstrip("^~").rpartition(".")
    cls = _declared(graph, path, owner) if "@" in owner else java_type(graph, path, owner)
    if isinstance(cls, str):  # C#: an extension method's, else the outside type's
        return outside_extension(graph, path, cls, member, count) or (f"{cls}.{member}", True)
    if cls is None:
        return None
    found = _member(graph, cls, member, skip_first=after, count=count)
    if found is None and not unqualified and not after:  # C#: T has no F: an extension?
        return extension(graph, path, member, count)
    while found is None and unqualified:
        cls = graph._by_full.get(cls.full_name.rpartition(".")[0])
        if cls is None or cls.kind not in CLASS_KINDS:
            return _static(graph, path, member)
        found = _member(graph, cls, member, skip_first=False, count=count)
    return found


def java_type(graph: SymbolHierarchy, path: str, written: str) -> Definition | str | None:
    """The class ``written`` names in the file at ``path``: a definition, the qualified name
    of a class outside the repository, or None (not known)."""
    head, _, rest = written.partition(".")
    rec = graph.files.get(path)
    if rec is not None and import_scope(rec["l"]):  # C#'s types: A.B.T, a namespace's first
        hit = namespace_path(graph, path, written.split(".")) if rest else None
        found = namespace_head(graph, path, head) if hit is None else hit[0]
        rest = ".".join(written.split(".")[hit[1] :]) if hit is not None else rest
    elif (found := _head(graph, path, head)) is None and rest and head[:1].islower():
        # a.b.C: by its path
        parts = written.split(".")
        for n in range(len(parts), 0, -1):
            files = graph.java_layout.ending_with("/".join(parts[:n]) + ".java")
            cls = _top(graph, files, parts[n - 1])
            if cls is not None:
                found, rest = cls, ".".join(parts[n:])
                break
    if found is None or isinstance(found, str) or not rest:
        return f"{found}.{rest}" if isinstance(found, str) and rest else found
    for name in rest.split("."):  # a nested class, or a field's type (T.FIELD)
        cls = graph._by_full.get(f"{found.full_name}.{name}")
        if cls is None:
            cls = _field_type(graph, found, name)
        if cls is None or cls.kind not in CLASS_KINDS:
            return None
        found = cls
    return found


def _field_type(graph: SymbolHierarchy, cls: Definition, name: str) -> Definition | None:
    """The repository class the field ``name`` of ``cls`` is declared with (the record's
    ``b`` rows: :mod:`codeagent.lang.java_calls`), read in the class's file, or in another
    that declares the class too (C#'s ``partial``)."""
    language = graph.files[cls.path]["l"]
    parts = [cls]
    if import_scope(language):  # C#: a partial class's other files (Java's class is one file)
        same = graph._lang_types.get((language, cls.name), ())
        parts += [d for d in same if d.qualname == cls.qualname and d is not cls]
    for part in parts:
        ref = f"{part.name}@{part.line}"
        for owner, field, written in graph.files[part.path].get("b", ()):
            if owner == ref and field == name:
                found = java_type(graph, part.path, written)
                return found if isinstance(found, Definition) else None
    return None


def _returns(graph: SymbolHierarchy, full: str) -> Definition | None:
    """The repository class the method ``full`` is declared to return (its signature's type
    before the name, read in the method's file; ``List<T>`` is ``List``)."""
    d = graph._by_full.get(full)
    if d is None or d.kind != "method":
        return None
    before = d.signature.partition(f" {d.name}(")[0].rstrip()
    if not before or before == d.signature:
        return None
    if before.endswith(">"):  # List<Map<K, V>>: List
        depth, i = 0, len(before) - 1
        while i >= 0:
            depth += {">": 1, "<": -1}.get(before[i], 0)
            if depth == 0:
                break
            i -= 1
        before = before[:i].rstrip()
    written = before.rpartition(" ")[2]
    if not written or written.endswith("]"):
        return None
    found = java_type(graph, d.path, written)
    return found if isinstance(found, Definition) else None


def _head(graph: SymbolHierarchy, path: str, name: str) -> Definition | str | None:
    rec = graph.files.get(path)
    if rec is None:
        return None
    own = own_type(graph, path, name)
    if own is not None:
        return own
    layout = graph.java_layout
    for _line, module, imported, _alias in rec["i"]:
        if imported == name:  # import a.b.C: that class, wherever it is
            cls = _top(graph, targets(path, rec["l"], module, imported, layout), name)
            return cls if cls is not None else f"{module}.{name}"
    package = package_of(path)
    for d in graph._lang_types.get((rec["l"], name), ()):
        if d.qualname == name and package_of(d.path) == package:
            return d
    for _line, module, imported, _alias in rec["i"]:
        if imported is None:  # import a.b.*
            cls = _top(graph, targets(path, rec["l"], module, None, layout), name)
            if cls is not None:
                return cls
    return f"java.lang.{name}" if name in _LANG else None


def _top(graph: SymbolHierarchy, files: list[str], name: str) -> Definition | None:
    """The top-level class ``name`` of one of ``files``."""
    for file in files:
        d = graph._by_full.get(f"{file}.{name}")
        if d is not None and d.kind in CLASS_KINDS:
            return d
    return None


def _member(
    graph: SymbolHierarchy,
    cls: Definition,
    attr: str,
    *,
    skip_first: bool,
    count: int | None = None,
) -> Target | None:
    """Method ``attr`` of ``cls`` or of its bases, breadth first: the first whose parameters
    take ``count`` arguments (an overload, maybe a base's), else the first of the name."""
    order = [d for d, _via in graph._mro(cls, set())]
    first = None
    for d in order[1:] if skip_first else order:
        for m in graph.members(d):
            if m.name == attr and m.kind != "constructor":
                if fits(m, count):
                    return (m.full_name, False)
                first = first or m
    return (first.full_name, False) if first is not None else None


def _static(graph: SymbolHierarchy, path: str, name: str) -> Target | None:
    """``name`` imported by ``import static a.b.C.name`` (C#: ``using static A.B.C``)."""
    rec = graph.files.get(path)
    if rec is not None and import_scope(rec["l"]):
        for used in static_member_types(graph, path):
            found = _member(graph, used, name, skip_first=False)
            if found is not None:
                return found
        return None
    for _line, module, imported, _alias in rec["i"] if rec is not None else ():
        if imported == name:
            owner, _, cls_name = module.rpartition(".")
            cls = java_type(graph, path, module) if owner else None
            if isinstance(cls, Definition):
                return _member(graph, cls, name, skip_first=False)
            return (f"{module}.{name}", True) if cls_name[:1].isupper() else None
    return None
