"""A PHP call's target (as its file wrote it, its class names whole:
:mod:`codeagent.lang.php_calls`) resolved to the repository definition it calls.

    php_target(graph, "src/App.php", "App\\Net\\Client.send")  # ("src/Net/Client.php.Client.send", False)
    php_target(graph, "src/App.php", "^App@3.run")      # run of App's parent class
    php_target(graph, "src/App.php", "Psr\\Log\\LoggerInterface.info")  # outside: True

A class is found by its whole name, as PHP's autoloader finds it whatever the file is called
(names are case-insensitive): the repository's class, interface, trait or enum declared with
that name in its file's namespace (the caller's own file first where two declare it). A name
no repository class has is outside when no class of the repository has its last name either,
else not known (by name). A method is looked up in the class, then its bases breadth first,
the parent class and the interfaces as the bases resolved here say (:func:`php_base`);
``^`` (``parent::f()``) starts after the class. A method no class of the way declares (a
trait's, one ``__call`` answers) leaves the call by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.lang import languages_where
from codeagent.symbols.java_targets import _member
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.ts_targets import _declared
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy
    from codeagent.symbols.tables import SymbolTables

Target = tuple[str, bool]


def php_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    if written.startswith("="):  # new T(...)
        made = php_class(graph, path, written[1:])
        if isinstance(made, str):
            return (made, True)
        return (made.full_name, False) if made is not None else None
    owner, _, member = written.lstrip("^").rpartition(".")
    cls = php_class(graph, path, owner)
    if isinstance(cls, str):
        return (f"{cls}.{member}", True)
    if cls is None:
        return None
    return _member(graph, cls, member, skip_first=written.startswith("^"))


def php_class(graph: SymbolTables, path: str, written: str) -> Definition | str | None:
    """The class ``written`` (whole, or ``Name@line`` of the file at ``path``) names: a
    definition, the name of a class outside the repository, or None (not known)."""
    if "@" in written:
        return _declared(graph, path, written)  # type: ignore[arg-type]
    found = graph.php_types.get(written.lower())
    if found:
        return next((d for d in found if d.path == path), found[0])
    last = written.rpartition("\\")[2]
    return None if graph._by_name.get(last) else written


def php_base(graph: SymbolTables, cls: Definition, written: str) -> str | None:
    """The full name of the base ``written`` of the PHP class ``cls`` (its file's record's
    ``b`` rows make it whole): the repository's class, else the whole name (outside); None
    when the file says nothing of it."""
    rows = graph.files[cls.path].get("b", ())
    for ref, base, whole in rows:
        name, _, line = ref.rpartition("@")
        if base == written and name == cls.name and int(line) in (cls.line, cls.start_line):
            found = php_class(graph, cls.path, whole)
            return found.full_name if isinstance(found, Definition) else whole
    return None


def php_types(graph: SymbolTables) -> dict[str, list[Definition]]:
    """The whole name of each PHP class, interface, trait and enum (lowercase) -> its
    definitions, in path order: a namespace block's (``namespace A { .. }``: its qualified
    name), or one after ``namespace A;``, the last such line above it."""
    php = languages_where("qualified_types")
    index: dict[str, list[Definition]] = {}
    spaces: dict[str, list[tuple[int, str]]] = {}  # path -> (line, namespace;)
    for d in graph._defs:
        if d.kind == "namespace" and graph.files[d.path].get("l") in php:
            spaces.setdefault(d.path, []).append((d.line, d.qualname))
    for d in graph._defs:
        if d.kind not in CLASS_KINDS or graph.files[d.path].get("l") not in php:
            continue
        outer = d.qualname.rpartition(".")[0]
        if not outer:
            above = [name for line, name in spaces.get(d.path, ()) if line <= d.line]
            outer = above[-1] if above else ""
        whole = f"{outer}\\{d.name}" if outer else d.name
        index.setdefault(whole.lower(), []).append(d)
    return index
