"""How a question's name meets the symbol graph's definitions: a name written with ``::``,
the file a question names, type aliases beside the type, several types of one name."""

from __future__ import annotations

import re

from codeagent.display import location
from codeagent.errors import ToolError
from codeagent.rank.file_roles import path_kind
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import Definition


class SymbolToolError(ToolError):
    """The symbol graph cannot answer (nothing of that name); the agent searches instead."""

    reason = "symbol_not_found"


def in_file(found: list[Definition], path: str) -> list[Definition]:
    """The definitions of ``found`` in the file ``path`` when the question names one and
    some are there; else all of them (the name may be defined elsewhere and used there)."""
    return ([d for d in found if d.path == path] or found) if path else found


def several(what: str, name: str, found: list[Definition]) -> SymbolToolError:
    where = ", ".join(location(d.path, d.line) for d in found)
    return SymbolToolError(
        f"several {what} are named {name}: {where}; name the file to choose one "
        f'("... {name} in {found[0].path}")'
    )


def scoped(graph: SymbolGraph, name: str, *, classes: bool) -> str:
    """A name written with ``::`` (``detail::buffer``, ``Value::as_str``,
    ``std::runtime_error``) as the graph knows it: as written when something has that name (a
    base outside the repository keeps its ``::``), else dotted (``detail.buffer``), else with
    its leading qualifiers dropped one by one (``fmt::format_to``, whose namespace a macro
    opens, is ``format_to``); as written when none is known."""
    if classes and graph.subclasses(name):
        return name
    parts = name.replace("::", ".").split(".")
    for start in range(len(parts)):
        dotted = ".".join(parts[start:])
        if any(d.kind in CLASS_KINDS or not classes for d in graph.definitions(dotted)):
            return dotted
    return name


# A type alias (``type Value = Number;``, ``type Id = string``): another name for a type,
# with no members of its own (a Rust associated type is one in every ``impl`` of a visitor).
_ALIAS = re.compile(r"^[^{(]*\btype\s+\w+(?:<[^=]*>)?\s*=")


def classes_named(graph: SymbolGraph, name: str) -> list[Definition]:
    """Python's classes, the other languages' types (see :func:`preferred`)."""
    return preferred(graph, [d for d in graph.definitions(name) if d.kind in CLASS_KINDS])


def preferred(graph: SymbolGraph, found: list[Definition]) -> list[Definition]:
    """``found`` without a Rust type's ``impl`` blocks, then without the type aliases of its
    name (a Rust associated type), then without the tests' (a test's stand-in ``class
    Context`` beside the code's), then without a Python stub's declarations (``m.pyi``
    beside an indexed ``m.py``: the stub types what the source defines or re-exports, as
    attrs' ``attr/__init__.pyi`` does ``attr._make.Attribute``), each where something else of
    that name is left."""
    found = [d for d in found if d.kind != "impl"] or found
    found = [d for d in found if not is_alias(d)] or found
    found = [d for d in found if path_kind(d.path) != "tests"] or found
    return [d for d in found if not is_typed_by_stub(graph, d.path)] or found


def is_typed_by_stub(graph: SymbolGraph, path: str) -> bool:
    """``path`` is a Python stub whose module's source is indexed too."""
    return path.endswith(".pyi") and path[:-1] in graph.files


def is_alias(d: Definition) -> bool:
    return d.kind == "type" and bool(_ALIAS.match(d.signature))


def shown_name(graph: SymbolGraph, d: Definition) -> str:
    """A definition's name as answered: Python's full dotted name; another language's
    qualified name (its file is in the location)."""
    return d.qualname if "l" in graph.files.get(d.path, {}) and d.kind != "module" else d.full_name
