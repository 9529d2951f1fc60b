"""Who overrides a method: the methods of that name that subclasses define again, read from the
symbol graph's classes, their bases and method order (no source read).

- ``Class.method``: every class that derives from ``Class`` (at any depth) and defines
  ``method`` itself, each with the class whose ``method`` it replaces;
- ``method`` alone: every method of that name in the repository, each with the base class's
  ``method`` it overrides, when one of its bases (in method order) has one.
"""

from __future__ import annotations

from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import Definition
from codeagent.tools.symbol_tool.names import (
    SymbolToolError,
    classes_named,
    in_file,
    preferred,
    several,
)
from codeagent.tools.symbol_tool.result import SymbolItem, SymbolResult, definition_item


def overrides_result(graph: SymbolGraph, name: str, path: str = "") -> SymbolResult:
    """The answer to "who overrides NAME" (``Class.method`` or ``method``)."""
    owner, _, method = name.rpartition(".")
    if owner and (classes := in_file(classes_named(graph, owner), path)):
        if len({d.full_name for d in classes}) > 1:
            raise several("classes", owner, classes)
        cls = classes[0]
        found = [
            m
            for sub in graph.subclasses(cls.full_name, transitive=True)
            for m in _own(graph, sub, method)
        ]
        base = _overridden(graph, cls, method, skip_first=False)
        if base is None and not found:
            raise SymbolToolError(f"no method {method} in {cls.qualname} or its subclasses")
        subject = base.full_name if base is not None else f"{cls.full_name}.{method}"
        items = [_item(graph, m, method) for m in found]
        return SymbolResult(operation="overrides", name=name, subject=subject, items=items)
    methods = [d for d in preferred(graph, graph.definitions(method)) if d.kind == "method"]
    methods = in_file(methods, path)
    if not methods:
        raise SymbolToolError(f"no method named {method} in the repository")
    items = [_item(graph, m, method) for m in methods]
    return SymbolResult(operation="overrides", name=method, items=items)


def _own(graph: SymbolGraph, cls: Definition, method: str) -> list[Definition]:
    return [d for d in graph._own_methods(cls) if d.name == method]


def _class_of(graph: SymbolGraph, method: Definition) -> Definition | None:
    owner = graph._by_full.get(method.full_name.rpartition(".")[0])
    return owner if owner is not None and owner.kind in CLASS_KINDS else None


def _overridden(
    graph: SymbolGraph, cls: Definition, method: str, *, skip_first: bool
) -> Definition | None:
    """The ``method`` a class's bases define, first in method order (``cls``'s own too unless
    ``skip_first``)."""
    order = graph._mro(cls, set())
    for base, _via in order[1:] if skip_first else order:
        own = _own(graph, base, method)
        if own:
            return own[0]
    return None


def _item(graph: SymbolGraph, method: Definition, name: str) -> SymbolItem:
    """A method, with ``via`` the qualified name of the base class's method it overrides."""
    cls = _class_of(graph, method)
    base = _overridden(graph, cls, name, skip_first=True) if cls is not None else None
    return definition_item(method).model_copy(
        update={"via": base.qualname if base is not None else None}
    )
