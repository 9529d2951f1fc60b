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
there, so a call not found before it stays by name. A field read on from a variable or from
the class (``T>y.z>f``: ``y`` of ``T``, then ``z`` of ``y``'s type) is typed as its class
declares it; an owning pointer's (``std::unique_ptr<U>``, and an alias of one: ``using P =
std::shared_ptr<U>;``) passes to ``U`` through ``->`` only; ``x[]`` is an element of a field
declared a container (``std::vector<U*>``, or an alias of one). A ``using a::B`` declaration
is read from the call's namespaces too (``using internal::f;`` inside ``namespace testing``).
Of overloads, the one whose parameters take the call's number of arguments (``R~f#2``) is
chosen when the first of the name does not (their types are not compared); else the first
stands for them. A function of a namespace is the one of that qualified name (in one file, or
the one file's whose overload takes the arguments, or the calling file's own: two programs
may each define a helper of one name); what a function returns is the class its declaration
names before its name (``const Node* first()``). Anything else (a template's parameter,
``std::``, a type no file of the repository defines) stays by name.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from codeagent.lang import languages_where
from codeagent.lang.cpp_types import MACRO_NAMESPACE
from codeagent.symbols.arity import counted, fits
from codeagent.symbols.c_targets import declared_static
from codeagent.symbols.cpp_includes import reachable_copy, reached
from codeagent.symbols.cpp_types import (
    QUALIFIERS,
    TYPE,
    class_named,
    spaces_of,
    twice,
    type_named,
    typed,
    unopened,
)
from codeagent.symbols.tables import METHOD_KINDS

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy
    from codeagent.symbols.types import Definition

Target = tuple[str, bool]
_WRITTEN = re.compile(r"(-?\d+)([~@$.:])(.+)")
_CHAIN = re.compile(r"([.>])")  # a field read with . or ->
_CALLED = re.compile(r"\(\)[.>]")  # what a call returns, read on
_MACRO_WORD = re.compile(MACRO_NAMESPACE)  # a macro before a return type (SPDLOG_INLINE T f())
# test frameworks' macros whose body is a method of a class derived from a fixture: the
# fixture's place among the macro's arguments (googletest, Catch2, doctest, Boost.Test)
_FIXTURES = {
    "TEST_F": 0,
    "TEST_P": 0,
    "TYPED_TEST": 0,
    "TYPED_TEST_P": 0,
    "TEST_CASE_METHOD": 0,
    "TEST_CASE_FIXTURE": 0,
    "BOOST_FIXTURE_TEST_CASE": 1,
}
# (language, class qualname, field) -> its declared type, from the records' ``b``, per graph
_FIELDS: WeakKeyDictionary[SymbolHierarchy, dict[tuple[str, str, str], str]] = WeakKeyDictionary()


def cpp_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    written, count = counted(written)  # the call's arguments: R~f#2
    found = _WRITTEN.fullmatch(written)
    if found is None:
        return None
    row, form, rest = int(found.group(1)), found.group(2), found.group(3)
    rec = graph.files[path]
    defs = rec["d"]
    context, kind = (defs[row][0], defs[row][1]) if 0 <= row < len(defs) else ("", "")
    language = rec["l"]
    spaces = spaces_of(context)
    around = tuple(spaces[1:] if kind in ("function", "method") else spaces)  # a using's place
    owner = class_named(graph, language, context.rpartition(".")[0]) if kind == "method" else None
    if owner is not None and form in "~@." and twice(graph, language, owner, anywhere=True):
        # one of several classes of the name (#if, specialisations): which one is not known,
        # so neither are its members; f() that none of them (nor a base outside) may hold is
        # a function's (the lookup in the class's scope finds no function of a member's name)
        if form != "~" or not _method(graph, owner, _CALLED.split(rest)[0])[1]:
            return None
        owner = None
    for owner_, alias, used in rec.get("b", ()):
        if not owner_ and not alias:  # using namespace
            spaces += [f"{space}.{used}" if space else used for space in spaces_of(context)]
        elif not owner_:  # using a::B: B is a.B, a looked up from the call's namespaces
            spaces += [f"={alias}={space}.{used}".replace("=.", "=") for space in around]
    fixture = _fixture(defs[row]) if kind == "function" else ""
    if fixture:  # a test of a fixture (TEST_F(Fixture, Name) { ... }) is a method of its class's
        owner = type_named(graph, language, spaces, fixture)
        if owner is None and form in "~@":
            return None  # a fixture the repository does not show (a macro's): any name may be its
    first, *after = _CALLED.split(rest)  # x.g().f(): f of what g returns
    last = None if after else count  # the first part is the call itself
    callee = _first(graph, path, owner, spaces, form, first, bool(fixture), last)
    for name in after:
        if callee is None and form in "~:":  # T(a).f(): f of the class T
            cls = type_named(graph, language, spaces, first)
        else:
            cls = _result(graph, language, callee) if callee is not None else None
        callee, form = _along(graph, language, cls, _CHAIN.split(name)), ""
    if callee is None:
        return None
    called = reachable_copy(graph, path, _overload(graph, language, callee, count))
    return (called.full_name, False)


def _overload(
    graph: SymbolHierarchy, language: str, callee: Definition, count: int | None
) -> Definition:
    """``callee``, or another function of its qualified name (an overload, in another file)
    whose parameters take ``count`` arguments when ``callee``'s do not."""
    if fits(callee, count):
        return callee
    for d in graph._by_name.get(callee.name, ()):
        same = d.qualname == callee.qualname and d.kind == callee.kind
        if same and graph.files[d.path].get("l") == language and fits(d, count):
            return d
    return callee


def _result(graph: SymbolHierarchy, language: str, callee: Definition) -> Definition | None:
    """The class a call of ``callee`` gives: its class for a constructor, else the class it
    is declared to return."""
    owner = callee.qualname.rpartition(".")[0]
    if callee.kind in METHOD_KINDS and owner.rpartition(".")[2] == callee.name:
        return class_named(graph, language, owner)
    return _returns(graph, language, callee)


def _first(
    graph: SymbolHierarchy,
    path: str,
    owner: Definition | None,
    spaces: list[str],
    form: str,
    rest: str,
    test: bool = False,
    count: int | None = None,
) -> Definition | None:
    """The function or method the first part of a target (in the file at ``path``) names
    (``test``: ``owner`` is a test's fixture, whose base outside the repository is the test
    framework's class: a name not found in the repository's classes is then a function's)."""
    language = graph.files[path]["l"]
    if form in "~@":
        if owner is not None:
            method, complete = _method(graph, owner, rest)
            if method is not None or form == "@" or not (complete or test):
                return method
        return _function(graph, path, spaces, rest, count) if form == "~" else None
    if form == "$":  # T.f, T.x>y.f: a variable's type, then the fields read from it
        written_type, *chain = _CHAIN.split(rest)
        cls = typed(graph, language, spaces, written_type, chain[:1] == [">"])
        chain = chain[1:]
    elif form == ".":  # x.f, x>y.f: a field of the function's class, then its fields'
        cls, chain = owner, _CHAIN.split(rest)
    else:  # S::f: a class's method, or a namespace's function
        scope, _, name = rest.rpartition("::")
        cls, chain = type_named(graph, language, spaces, scope), [name]
        if cls is None:
            inner = [f"{s}.{scope.replace('::', '.')}".lstrip(".") for s in spaces]
            return _function(graph, path, inner, name, count)
    return _along(graph, language, cls, chain)


def _along(
    graph: SymbolHierarchy, language: str, cls: Definition | None, chain: list[str]
) -> Definition | None:
    """The method ``chain`` names from ``cls``: ``[x, op, y, op, f]`` reads field ``x`` of
    ``cls``, then ``y`` of its type (each ``op``, ``.`` or ``>``, how the field before it is
    read), then ``f`` of the last."""
    for field, op in zip(chain[:-1:2], chain[1::2], strict=True):
        if cls is None:
            return None
        cls = _field(graph, language, cls, field, op == ">")
    return _method(graph, cls, chain[-1])[0] if cls is not None else None


def _fixture(row: list[Any]) -> str:
    """The fixture class a test written with a test framework's macro names (``TEST_F(Fixture,
    Name) { ... }``: the body is a method of a class derived from ``Fixture``), or ""."""
    name, signature = str(row[0]).rpartition(".")[2], str(row[5])
    at = _FIXTURES.get(name)
    if at is None or not signature.startswith(f"{name}(") or not signature.endswith(")"):
        return ""
    arguments = signature[len(name) + 1 : -1].split(",")
    written = arguments[at].strip() if at < len(arguments) else ""
    return written if TYPE.fullmatch(written) else ""


def _returns(graph: SymbolHierarchy, language: str, callee: Definition) -> Definition | None:
    """The class a function or method is declared to return (``T*``, ``const T&``, ``T``),
    looked up from where it is declared; None for anything else."""
    words = callee.signature.partition("(")[0].replace("*", " ").replace("&", " ").split()
    words = [w for w in words if w not in QUALIFIERS and not _MACRO_WORD.match(w)]
    if len(words) != 2 or "<" in words[0]:
        return None  # no return type (a constructor), or one of several words or a template's
    scope = callee.qualname.rpartition(".")[0]
    return type_named(graph, language, spaces_of(scope), words[0])


def _function(
    graph: SymbolHierarchy, path: str, spaces: list[str], name: str, count: int | None = None
) -> Definition | None:
    """The function ``name`` of the innermost of ``spaces`` that has one (in one file; of
    overloads in several files, the one file's whose parameters take ``count`` arguments),
    for a call in the file at ``path``: another file's ``static`` function, or one of its
    anonymous namespace, is that file's own."""
    language = graph.files[path]["l"]
    defined = [  # a namespace's function defined outside it (ns::f) reads as a method
        d
        for d in graph._by_name.get(name, ())
        if d.kind in ("function", "method")
        and graph.files[d.path].get("l") == language
        and (d.path == path or not _file_local(graph, d))
    ]
    for qualname in unopened(graph, language, spaces, name):
        found = [d for d in defined if d.qualname == qualname]
        if found and class_named(graph, language, qualname.rpartition(".")[0]) is not None:
            return None  # a class's method, not a namespace's function
        fitting = [d for d in found if fits(d, count)]
        own = [d for d in fitting if d.path == path]  # of several files', the caller's own
        if own:
            return own[0]
        found = fitting or found
        if len({d.path for d in found}) > 1 and len({d.signature for d in found}) == 1:
            near = [d for d in found if d.path in reached(graph, path)]  # copies of one
            return near[0] if near else None  # (an amalgamated header): the one included
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
    (``arrow``: reached through ``->``, which an owning pointer passes to what it holds);
    ``field[]``: an element of the field, declared a container (``std::vector<T>``)."""
    element = field.endswith("[]")
    field = field.removesuffix("[]")
    for owner, _ in graph._mro(cls, set()):
        written = _fields(graph).get((language, owner.qualname, field))
        if written is None:
            continue
        if written.startswith("[]"):  # a container: its element, or its own members
            written, element = (written[2:] if element else ""), False
        if written.startswith("->"):
            written = written[2:] if arrow else ""
        if not written:
            return None
        suffix = "[]" if element else ""
        return typed(graph, language, spaces_of(owner.qualname), written + suffix, arrow)
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
