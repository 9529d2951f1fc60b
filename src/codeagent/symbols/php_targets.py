"""A PHP call's target (as its file wrote it, its class names whole:
:mod:`codeagent.lang.php_calls`) resolved to the repository definition it calls.

    php_target(graph, "src/App.php", "App\\Net\\Client.send")  # ("src/Net/Client.php.Client.send",
                                                             #  False)
    php_target(graph, "src/App.php", "^App@3.run")      # run of App's parent class
    php_target(graph, "src/App.php", "Psr\\Log\\LoggerInterface.info")  # outside: True

A class is found by its whole name, as PHP's autoloader finds it whatever the file is called
(names are case-insensitive): the repository's class, interface, trait or enum declared with
that name in its file's namespace (the caller's own file first where two declare it). A name
no repository class has is outside when no class of the repository has its last name either,
else not known (by name). A method (by its name, case-insensitive) is looked up in the class,
then the traits it uses, then its parent class (its traits, its parent ...), then the
interfaces of them all, as the bases resolved say (:mod:`codeagent.symbols.php_classes`); ``^``
(``parent::f()``) starts at the parent class. ``T.g().f``: ``f`` of the class ``T.g`` is
declared to return. ``{A|B.g()}.f``: ``f`` of the class every alternative is (a variable
bound more than once: :mod:`codeagent.lang.php_alternatives`). ``T::.f``: ``f`` of ``T``
when ``T`` is an enum (``T::C``, one of its cases), else by name. ``A&B.f`` (an intersection
type): ``f`` of the one repository class among them that has it. A method no class of the way
declares (one ``__call`` answers that no docblock's ``@method`` names) leaves the call by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codeagent.lang.php_alternatives import split
from codeagent.symbols.php_classes import php_class
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

Target = tuple[str, bool]


def php_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    if written.startswith("="):  # new T(...)
        made = php_class(graph, path, written[1:])
        if isinstance(made, str):
            return (made, True)
        return (made.full_name, False) if made is not None else None
    either = split(written)  # {A|B.g()}.send: send of the class every alternative is
    if either is not None:
        agreed = _agreed(graph, path, either[0])
        first, *after = either[1].split("().")
        if agreed is not None and first.startswith("$"):  # {A|B.g()}.$p.f: p of that class
            prop, _, first = first[1:].partition(".")
            agreed = _property(graph, agreed, prop)
        found = _member(graph, agreed, first, after=False) if agreed is not None else None
        return _chain(graph, found, agreed, after)
    first, *after = written.split("().")  # T.make().send: send of what T.make returns
    owner, _, member = first.lstrip("^").rpartition(".")
    ref, _, prop = owner.partition(".$")  # REF.$x: the class of a parent's property x
    if "&" in ref and not prop:  # A&B (an intersection type): the one part's method
        return _chain(graph, _intersected(graph, path, ref.split("&"), member), None, after)
    cls = php_class(graph, path, ref.removesuffix("::"))
    if ref.endswith("::") and (not isinstance(cls, Definition) or cls.kind != "enum"):
        return None  # T::C: a case if T is an enum, else a constant of any type
    if isinstance(cls, str):
        return (f"{cls}.{member}", True) if not after and not prop else None
    if cls is not None and prop:
        cls = _property(graph, cls, prop)
    found = _member(graph, cls, member, after=first.startswith("^")) if cls else None
    return _chain(graph, found, cls, after)


def _intersected(graph: SymbolHierarchy, path: str, parts: list[str], member: str) -> Target | None:
    """Method ``member`` of the one repository class among ``parts`` that has it, or None
    (none, or two: a part outside the repository is not known)."""
    found = set()
    for part in parts:
        cls = php_class(graph, path, part)
        if isinstance(cls, Definition) and (one := _member(graph, cls, member, after=False)):
            found.add(one)
    return found.pop() if len(found) == 1 else None


def _property(graph: SymbolHierarchy, cls: Definition, prop: str) -> Definition | None:
    """The repository class of the property ``prop`` that ``cls`` or its parents declare;
    where none declares a type for it, the one class every ``$this->prop = ...`` of one of
    them assigns (``=$prop``)."""
    lineage = _lineage(graph, cls)
    found = next((c for d in lineage if (c := _row(graph, d, f"${prop}"))), None)
    if found is not None or any(_written(graph, d, f"${prop}") for d in lineage):
        return found
    return next((c for d in lineage if (c := _row(graph, d, f"=${prop}"))), None)


def _chain(
    graph: SymbolHierarchy, found: Target | None, cls: Definition | None, after: list[str]
) -> Target | None:
    """``found`` (a method of ``cls``), then each of ``after`` called on what the one before
    is declared to return."""
    for attr in after:
        cls = _returned(graph, found, cls)
        found = _member(graph, cls, attr, after=False) if cls is not None else None
    return found


def _returned(
    graph: SymbolHierarchy, found: Target | None, on: Definition | None
) -> Definition | None:
    """The repository class the method ``found`` is declared to return (``: static``: ``on``,
    the class it is called on), or None."""
    method = graph._by_full.get(found[0]) if found is not None and not found[1] else None
    owner = graph._by_full.get(method.full_name.rpartition(".")[0]) if method else None
    if method is None or owner is None:
        return None
    if _static(graph, owner, f"(){method.name}"):
        return on
    return _row(graph, owner, f"(){method.name}")


def _agreed(graph: SymbolHierarchy, path: str, alternatives: list[str]) -> Definition | None:
    """The repository class every alternative (``T``, or ``T.g()``: what ``g`` is declared to
    return) is, or None."""
    classes = set()
    for one in alternatives:
        if not one.endswith("()"):
            cls = php_class(graph, path, one)
        else:  # T.g(): what g is declared to return
            called = one[:-2]
            on = php_class(graph, path, called.rpartition(".")[0])
            on = on if isinstance(on, Definition) else None
            cls = _returned(graph, php_target(graph, path, called), on)
        if not isinstance(cls, Definition):
            return None
        classes.add(cls.full_name)
    return graph._by_full.get(classes.pop()) if len(classes) == 1 else None


def _member(graph: SymbolHierarchy, cls: Definition, name: str, *, after: bool) -> Target | None:
    """Method ``name`` of ``cls`` (``after``: from its parent class on), case-insensitive."""
    lowered = name.lower()
    for d in _lineage(graph, cls, after=after):
        for m in graph.members(d):
            if m.name.lower() == lowered:
                return (m.full_name, False)
    return None


def _lineage(graph: SymbolHierarchy, cls: Definition, *, after: bool = False) -> list[Definition]:
    """``cls``, then its traits, then its parent class (its traits, its parent ...), then the
    interfaces of them all (``after``: from its parent class on)."""
    concrete: list[Definition] = []
    interfaces: list[Definition] = []
    queue = [b for b in _bases(graph, cls) if b.kind != "interface"] if after else [cls]
    seen = {cls.full_name} if after else set()
    while queue:
        d = queue.pop(0)
        if d.full_name in seen:
            continue
        seen.add(d.full_name)
        (interfaces if d.kind == "interface" else concrete).append(d)
        queue[:0] = [b for b in _bases(graph, d) if b.kind != "interface"]
        queue += [b for b in _bases(graph, d) if b.kind == "interface"]
    return concrete + interfaces


def _bases(graph: SymbolHierarchy, cls: Definition) -> list[Definition]:
    """The traits ``cls`` uses, then its bases, as repository definitions."""
    found = _rows(graph, cls, "use")
    for base in graph.resolved_bases(cls):
        d = graph._by_full.get(base)
        if d is not None and d.kind in CLASS_KINDS:
            found.append(d)
    return found


def _row(graph: SymbolHierarchy, cls: Definition, what: str) -> Definition | None:
    """The repository class of ``cls``'s first ``b`` row ``what`` (``$x``: its property's,
    ``()f``: what its method ``f`` is declared to return)."""
    found = _rows(graph, cls, what)
    return found[0] if found else None


def _rows(graph: SymbolHierarchy, cls: Definition, what: str) -> list[Definition]:
    """The repository classes of ``cls``'s ``b`` rows ``what`` (``use``: its traits)."""
    found = (php_class(graph, cls.path, whole) for whole in _written(graph, cls, what))
    return [d for d in found if isinstance(d, Definition)]


def _static(graph: SymbolHierarchy, cls: Definition, what: str) -> bool:
    """Whether ``cls``'s method is declared to return ``static`` (``what``: ``()f``)."""
    return "static" in _written(graph, cls, what)


def _written(graph: SymbolHierarchy, cls: Definition, what: str) -> list[str]:
    """What ``cls``'s ``b`` rows ``what`` say, as written."""
    found = []
    for owner, kind, whole in graph.files[cls.path].get("b", ()):
        name, _, line = owner.rpartition("@")
        if kind == what and name == cls.name and int(line) in (cls.line, cls.start_line):
            found.append(whole)
    return found
