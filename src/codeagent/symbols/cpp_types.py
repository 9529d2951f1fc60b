"""The C++ class a name stands for where a call is written: looked up in the scopes around
it, in turn, as C++'s unqualified lookup does, through ``using a::B`` and type aliases
(``typedef A B;``, ``using B = ns::A;``). Read by :mod:`codeagent.symbols.cpp_targets`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from codeagent.lang.cpp_types import CONTAINERS, SMART_POINTERS
from codeagent.symbols.tables import CLASS_KINDS

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy
    from codeagent.symbols.types import Definition

TYPE = re.compile(r"(?:\w+::)*\w+")  # a type's name as written (ns::T)
QUALIFIERS = frozenset({"const", "static", "virtual", "inline", "constexpr", "explicit", "extern"})
_WORDS = QUALIFIERS | {"typename", "struct", "class", "volatile"}
_ALIASES = 4  # aliases of aliases followed at most
# the template an alias names and its first argument: ``std::shared_ptr<ns::T>``,
# ``std::vector<const T*>``
_HELD = re.compile(
    r"\s*(?:typename\s+)?(?:::)?(?:std::)?(\w+)\s*<\s*(?:const\s+)?((?:\w+::)*\w+)\s*\**\s*[,>]"
)


def named(spaces: list[str], name: str) -> list[str]:
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


# (graph) -> language -> the namespaces the repository's macros open (``FMT_BEGIN_NAMESPACE``)
_MACRO_SPACES: WeakKeyDictionary[SymbolHierarchy, dict[str, frozenset[str]]] = WeakKeyDictionary()


def unopened(graph: SymbolHierarchy, language: str, spaces: list[str], name: str) -> list[str]:
    """The qualified names ``name`` may stand for (:func:`named`), then, from the namespaces
    among ``spaces``, each without the namespaces a macro of the repository opens: a header
    that opens ``fmt`` by ``FMT_BEGIN_NAMESPACE`` (defined in another file, so not written
    out) has its definitions read outside it, so ``fmt::x`` may name the ``x`` read there."""
    found = named(spaces, name)
    by_language = _MACRO_SPACES.setdefault(graph, {})
    hidden = by_language.get(language)
    if hidden is None:
        opened = [
            spaces
            for rec in graph.files.values()
            if rec.get("l") == language
            for owner, _, spaces in rec.get("b", ())
            if owner == "#"
        ]
        hidden = by_language[language] = frozenset(n for s in opened for n in s.split("."))
    if not hidden:
        return found
    bare = [p for p in name.split(".") if p not in hidden]
    for space in spaces:
        outer = ".".join(p for p in space.split(".") if p and p not in hidden)
        if space.startswith("=") or (outer and class_named(graph, language, outer) is not None):
            continue  # a class's member is never named through a namespace
        qualname = f"{outer}.{'.'.join(bare)}".strip(".")
        if bare and qualname not in found:
            found.append(qualname)
    return found


def spaces_of(context: str) -> list[str]:
    """The scopes a name used in ``context`` is looked up in, the innermost first."""
    parts = context.split(".") if context else []
    return [".".join(parts[:i]) for i in range(len(parts), -1, -1)]


def class_named(
    graph: SymbolHierarchy, language: str, qualname: str, depth: int = 0
) -> Definition | None:
    """The class of that qualified name, or the one a type alias of that name stands for
    (``typedef A B;``, ``using B = ns::A;``, ``using B = Array<int>;`` by its template)."""
    if not qualname:
        return None
    last = qualname.rpartition(".")[2]
    for d in graph._lang_types.get((language, last), ()):
        if d.qualname == qualname and d.kind in CLASS_KINDS:
            return d
    for d in graph._by_name.get(last, ()) if depth < _ALIASES else ():
        if d.kind == "typedef" and d.qualname == qualname:
            written = aliased(d.signature)
            if written and graph.files[d.path].get("l") == language:
                scope = spaces_of(qualname.rpartition(".")[0])
                return type_named(graph, language, scope, written, depth + 1)
    return None


def aliased(signature: str) -> str:
    """The type an alias's declaration names (``typedef A B;``, ``using B = A;``), a
    template's by its name; "" for anything else (an owning pointer, a function's type)."""
    text = _alias_text(signature)
    head, template, _ = text.partition("<")
    words = [w for w in head.replace("*", " ").replace("&", " ").split() if w not in _WORDS]
    if signature.startswith("typedef ") and not template:
        words = words[:-1]  # typedef A B: B is the alias's own name
    if len(words) != 1 or not TYPE.fullmatch(words[0]):
        return ""
    return "" if template and words[0].rpartition("::")[2] in SMART_POINTERS else words[0]


def _alias_text(signature: str) -> str:
    """What an alias's declaration gives its name (``A`` of ``typedef A B;`` with the name,
    of ``using B = A;`` without), or "" for another declaration."""
    text = signature.strip().removesuffix(";")
    if text.startswith("using "):
        return text.partition("=")[2]
    return text[len("typedef ") :] if text.startswith("typedef ") else ""


def typed(
    graph: SymbolHierarchy, language: str, spaces: list[str], written: str, arrow: bool
) -> Definition | None:
    """The class a value of the type ``written`` is (``T``, ``ns::T``; ``P[]``: an element of
    a ``P``), looked up in ``spaces``, read through ``->`` when ``arrow``: an alias of an
    owning pointer (``using P = std::shared_ptr<T>;``) reaches ``T`` through ``->``, an
    element of an alias of a container (``typedef std::vector<T*> Ts;``) is a ``T``."""
    element = written.endswith("[]")
    written = written.removesuffix("[]")
    if not element:
        found = type_named(graph, language, spaces, written)
        if found is not None or not arrow:
            return found
    held, scope = _alias_held(graph, language, spaces, written)
    if element:
        return typed(graph, language, scope, held[2:], arrow) if held[:2] == "[]" else None
    return type_named(graph, language, scope, held[2:]) if held[:2] == "->" else None


def _alias_held(
    graph: SymbolHierarchy, language: str, spaces: list[str], written: str
) -> tuple[str, list[str]]:
    """What an alias of an owning pointer (``->T``) or of a container (``[]T``) holds, and
    the scopes ``T`` is looked up in; ("", []) for any other type."""
    for qualname in unopened(graph, language, spaces, written.replace("::", ".").lstrip(".")):
        for d in graph._by_name.get(qualname.rpartition(".")[2], ()):
            if d.kind != "typedef" or d.qualname != qualname:
                continue
            held = _HELD.match(_alias_text(d.signature))
            if held is None or graph.files[d.path].get("l") != language:
                continue
            template, inner = held.groups()
            mark = "->" if template in ("unique_ptr", "shared_ptr") else ""
            mark = "[]" if template in CONTAINERS else mark
            return (f"{mark}{inner}" if mark else "", spaces_of(qualname.rpartition(".")[0]))
    return "", []


def type_named(
    graph: SymbolHierarchy, language: str, spaces: list[str], written: str, depth: int = 0
) -> Definition | None:
    """The class ``written`` (``T``, ``ns::T``) names, looked up in ``spaces`` in turn; None
    when one file defines two classes of that name (behind an ``#if``, or a template's
    specialisations: which one is meant is the preprocessor's or the compiler's choice)."""
    for qualname in unopened(graph, language, spaces, written.replace("::", ".").lstrip(".")):
        found = class_named(graph, language, qualname, depth)
        if found is not None:
            return None if twice(graph, language, found) else found
    return None


def twice(graph: SymbolHierarchy, language: str, cls: Definition, anywhere: bool = False) -> bool:
    """Whether ``cls``'s file (``anywhere``: any file) defines another class of its qualified
    name."""
    same = [
        d
        for d in graph._lang_types.get((language, cls.name), ())
        if d.qualname == cls.qualname and (anywhere or d.path == cls.path)
    ]
    return len(same) > 1
