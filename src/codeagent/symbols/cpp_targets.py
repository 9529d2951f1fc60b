"""A C++ call's target (as its file wrote it: :mod:`codeagent.lang.cpp_calls`) resolved to the
repository function or method it calls.

    cpp_target(graph, "src/shop.cpp", "6$Store.add")   # ("include/shop.h.shop.Store.add", False)
    cpp_target(graph, "src/shop.cpp", "2~helper")      # the method's class's, or a function's

The call's function (its row in the record) gives its class (a method's qualified name less
its own: ``shop.Store.total`` -> ``shop.Store``) and its namespaces (each prefix of that
name, the innermost first). A type or namespace as written (``Store``, ``net::Client``) is
looked up in those namespaces in turn, as C++'s unqualified lookup does, then in those the
file's ``using namespace`` directives name (each read for the whole file). A method is the
class's own (in its body, or defined outside it, ``Store::add``, in any file), else its
bases' in order; a class with a base that is not the repository's may inherit the name from
there, so a call not found before it stays by name. An overload is not chosen by its
arguments: the first of the class's methods of the name stands for them. A function of a
namespace is the one of that qualified name (in one file); what a function returns is the
class its declaration names before its name (``const Node* first()``). Anything else (a
template's parameter, ``std::``, a type no file of the repository defines) stays by name.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from codeagent.lang import languages_where
from codeagent.symbols.c_targets import declared_static
from codeagent.symbols.tables import CLASS_KINDS

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy
    from codeagent.symbols.types import Definition

Target = tuple[str, bool]
_WRITTEN = re.compile(r"(-?\d+)([~@$.>:])(.+)")
_QUALIFIERS = frozenset({"const", "static", "virtual", "inline", "constexpr", "explicit", "extern"})
# (language, class qualname, field) -> its declared type, from the records' ``b``, per graph
_FIELDS: WeakKeyDictionary[SymbolHierarchy, dict[tuple[str, str, str], str]] = WeakKeyDictionary()


def cpp_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    found = _WRITTEN.fullmatch(written)
    if found is None:
        return None
    row, form, rest = int(found.group(1)), found.group(2), found.group(3)
    rec = graph.files[path]
    defs = rec["d"]
    context, kind = (defs[row][0], defs[row][1]) if 0 <= row < len(defs) else ("", "")
    language = rec["l"]
    owner = _class(graph, language, context.rpartition(".")[0]) if kind == "method" else None
    spaces = _spaces(context)
    for owner_, alias, used in rec.get("b", ()):
        if not owner_ and not alias:  # using namespace
            spaces += [f"{space}.{used}" if space else used for space in _spaces(context)]
        elif not owner_:  # using a::B: B is a.B
            spaces.append(f"={alias}={used}")
    first, *after = rest.split("().")  # x.g().f(): f of what g returns
    callee = _first(graph, path, owner, spaces, form, first)
    for name in after:
        cls = _returns(graph, language, callee) if callee is not None else None
        callee = _method(graph, cls, name)[0] if cls is not None else None
    return (callee.full_name, False) if callee is not None else None


def _first(
    graph: SymbolHierarchy,
    path: str,
    owner: Definition | None,
    spaces: list[str],
    form: str,
    rest: str,
) -> Definition | None:
    """The function or method the first part of a target (in the file at ``path``) names."""
    language = graph.files[path]["l"]
    if form in "~@":
        if owner is not None:
            method, complete = _method(graph, owner, rest)
            if method is not None or form == "@" or not complete:
                return method
        return _function(graph, path, spaces, rest) if form == "~" else None
    if form == "$":
        written_type, _, name = rest.rpartition(".")
        cls = _type(graph, language, spaces, written_type)
    elif form in ".>":
        field, _, name = rest.partition(".")
        cls = _field(graph, language, owner, field, form == ">") if owner is not None else None
    else:  # S::f: a class's method, or a namespace's function
        scope, _, name = rest.rpartition("::")
        cls = _type(graph, language, spaces, scope)
        if cls is None:
            inner = [f"{s}.{scope.replace('::', '.')}".lstrip(".") for s in spaces]
            return _function(graph, path, inner, name)
    return _method(graph, cls, name)[0] if cls is not None else None


def _returns(graph: SymbolHierarchy, language: str, callee: Definition) -> Definition | None:
    """The class a function or method is declared to return (``T*``, ``const T&``, ``T``),
    looked up from where it is declared; None for anything else."""
    words = callee.signature.partition("(")[0].replace("*", " ").replace("&", " ").split()
    words = [w for w in words if w not in _QUALIFIERS]
    if len(words) != 2 or "<" in words[0]:
        return None  # no return type (a constructor), or one of several words or a template's
    scope = callee.qualname.rpartition(".")[0]
    return _type(graph, language, _spaces(scope), words[0])


def _named(spaces: list[str], name: str) -> list[str]:
    """The qualified names ``name`` may stand for, looked up in ``spaces`` in turn (a ``using
    a::B`` declaration, ``=B=a.B`` among them, names ``B`` and what is under it)."""
    found = []
    head = name.partition(".")[0]
    for space in spaces:
        if space.startswith("="):
            alias, _, full = space[1:].partition("=")
            if alias == head:
                found.append(full + name[len(head) :])
        else:
            found.append(f"{space}.{name}" if space else name)
    return found


def _spaces(context: str) -> list[str]:
    """The scopes a name used in ``context`` is looked up in, the innermost first."""
    parts = context.split(".") if context else []
    return [".".join(parts[:i]) for i in range(len(parts), -1, -1)]


def _class(graph: SymbolHierarchy, language: str, qualname: str) -> Definition | None:
    if not qualname:
        return None
    for d in graph._lang_types.get((language, qualname.rpartition(".")[2]), ()):
        if d.qualname == qualname and d.kind in CLASS_KINDS:
            return d
    return None


def _type(
    graph: SymbolHierarchy, language: str, spaces: list[str], written: str
) -> Definition | None:
    """The class ``written`` (``T``, ``ns::T``) names, looked up in ``spaces`` in turn."""
    for qualname in _named(spaces, written.replace("::", ".").lstrip(".")):
        found = _class(graph, language, qualname)
        if found is not None:
            return found
    return None


def _function(graph: SymbolHierarchy, path: str, spaces: list[str], name: str) -> Definition | None:
    """The function ``name`` of the innermost of ``spaces`` that has one (in one file), for
    a call in the file at ``path``: another file's ``static`` function, or one of its
    anonymous namespace, is that file's own."""
    language = graph.files[path]["l"]
    defined = [  # a namespace's function defined outside it (ns::f) reads as a method
        d
        for d in graph._by_name.get(name, ())
        if d.kind in ("function", "method")
        and graph.files[d.path].get("l") == language
        and (d.path == path or not _file_local(graph, d))
    ]
    for qualname in _named(spaces, name):
        found = [d for d in defined if d.qualname == qualname]
        if found and _class(graph, language, qualname.rpartition(".")[0]) is not None:
            return None  # a class's method, not a namespace's function
        if found:
            return found[0] if len({d.path for d in found}) == 1 else None
    return None


def _file_local(graph: SymbolHierarchy, d: Definition) -> bool:
    """Whether a function is its file's only: ``static``, or of an anonymous namespace."""
    return declared_static(d) or ["-", d.name, ""] in graph.files[d.path].get("b", ())


def _method(graph: SymbolHierarchy, cls: Definition, name: str) -> tuple[Definition | None, bool]:
    """``name`` of ``cls`` or of its bases (in order), and whether every base on the way is
    the repository's (when one is not, a name not found may be inherited from it)."""
    complete = True
    for owner, _ in graph._mro(cls, set()):
        for member in graph.members(owner):
            if member.name == name:
                return member, complete
        if len(graph._named_bases(owner)) < len(owner.bases):
            complete = False  # a base outside the repository comes next
    return None, complete


def _field(
    graph: SymbolHierarchy, language: str, cls: Definition, field: str, arrow: bool
) -> Definition | None:
    """The class of ``cls``'s field ``field`` (its bases' too), as its class declares it
    (``arrow``: reached through ``->``, which an owning pointer passes to what it holds)."""
    for owner, _ in graph._mro(cls, set()):
        written = _fields(graph).get((language, owner.qualname, field))
        if written is not None:
            if written.startswith("->"):
                written = written[2:] if arrow else ""
            return _type(graph, language, _spaces(owner.qualname), written) if written else None
    return None


def _fields(graph: SymbolHierarchy) -> dict[tuple[str, str, str], str]:
    """(language, class qualname, field) -> its declared type, from the records' ``b``."""
    index = _FIELDS.get(graph)
    if index is None:
        index = _FIELDS[graph] = {}
        scoped = languages_where("scoped_names")
        for rec in graph.files.values():
            language = str(rec.get("l", ""))
            for owner, field, written in rec.get("b", ()) if language in scoped else ():
                index.setdefault((language, owner, field), written)
    return index
