"""Answer a :class:`SymbolArgs` from the repository's :class:`SymbolGraph`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from codeagent.display import safe_name
from codeagent.lang import languages_where
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import Definition, Import
from codeagent.tools.operations import OPERATIONS
from codeagent.tools.symbol_tool.callers import callers_result, line_text
from codeagent.tools.symbol_tool.names import (
    SymbolToolError,
    classes_named,
    in_file,
    preferred,
    scoped,
    several,
    shown_name,
)
from codeagent.tools.symbol_tool.overrides import overrides_result
from codeagent.tools.symbol_tool.result import (
    MAX_SOURCE_LINES,
    SYMBOL_OPERATIONS,
    SymbolArgs,
    SymbolItem,
    SymbolOperation,
    SymbolResult,
    definition_item,
)


def run_symbol_query(
    graph: SymbolGraph, args: SymbolArgs, root: Path | None = None
) -> SymbolResult:
    """The answer to ``args``; ``root`` (the repository) lets a unique definition show its
    source. Raises :class:`SymbolToolError` when the repository has nothing of that name."""
    name = args.name.strip().strip("`'\"").removesuffix("()").lstrip("@").strip()
    name = _INSTANCE_METHOD.sub(".", name)  # Ruby's Request#perform: Request.perform
    if not name:
        raise SymbolToolError("the question names no symbol")
    op = args.operation
    named_file = args.file.strip().strip("`'\"")
    if "::" in name and op in ("definition", "methods", "subclasses"):
        name = scoped(graph, name, classes=op != "definition")
    return ANSWERS[op](Asked(graph, name, args, root, named_file))


_INSTANCE_METHOD = re.compile(r"(?<=\w)#(?=[A-Za-z_])")


@dataclass(frozen=True)
class Asked:
    """One symbol question, its name cleaned (and resolved when written with ``::``)."""

    graph: SymbolGraph
    name: str
    args: SymbolArgs
    root: Path | None
    file: str  # the file the question names ("" when none)


def _importers(q: Asked) -> SymbolResult:
    graph, name = q.graph, q.name
    if "l" in graph.files.get(name, {}):  # a file of another language, named by its path
        sites = graph.file_importers(name)
        if not sites:
            raise SymbolToolError(f"no file of the repository imports {name}")
        items = _as_written(graph, _import_items(sites), q.root)
        return SymbolResult(operation="importers", name=name, subject=name, items=items)
    sites = graph.import_sites(name)
    if not sites:
        raise SymbolToolError(f"no file in the repository imports {name}")
    items = _as_written(graph, _import_items(sites), q.root)
    return SymbolResult(operation="importers", name=name, items=items)


def _imports(q: Asked) -> SymbolResult:
    graph, name = q.graph, q.name
    modules = graph.modules_named(name)
    path = name if name in graph.files else (graph.modules[modules[0]] if modules else None)
    if path is None or (len(modules) > 1 and name not in graph.files):
        found = ", ".join(safe_name(graph.modules[m]) for m in modules) or "none"
        raise SymbolToolError(f"{name} names no single module of the repository ({found})")
    subject = f"{graph.files[path]['m']} ({path})"  # shown through safe_name
    items = _as_written(graph, _import_items(graph.imports_of(path)), q.root)
    return SymbolResult(operation="imports", name=name, subject=subject, items=items)


def _outline(q: Asked) -> SymbolResult:
    graph, name = q.graph, q.name
    if name not in graph.files or "l" not in graph.files[name]:
        raise SymbolToolError(f"{name} is not a file of the language layer in the index")
    items = [definition_item(d) for d in graph.definitions_in(name)]
    return SymbolResult(
        operation="outline",
        name=name,
        subject=name,
        items=items,
        listing=q.args.listing,
        only=q.args.only,
    )


# The symbol graph's operations, one row each: the function that answers it. Which question
# each answers (a file operation about another language's file, or one that names no file)
# is the one table's (codeagent.tools.operations).
ANSWERS: dict[SymbolOperation, Callable[[Asked], SymbolResult]] = {
    "definition": lambda q: _definition(q.graph, q.name, q.root, q.file),
    "callers": lambda q: callers_result(q.graph, q.name, q.root),
    "subclasses": lambda q: _subclasses(q.graph, q.name, q.args.transitive, q.file),
    "importers": _importers,
    "imports": _imports,
    "methods": lambda q: _methods(q.graph, q.name, q.file),
    "overrides": lambda q: overrides_result(q.graph, q.name, q.file),
    "outline": _outline,
}
if tuple(ANSWERS) != SYMBOL_OPERATIONS or set(ANSWERS) != {o.graph for o in OPERATIONS if o.graph}:
    # pragma: no cover - a row missing or out of order
    raise RuntimeError("the symbol operation table, SymbolOperation and the one table differ")


def _definition(graph: SymbolGraph, name: str, root: Path | None, path: str = "") -> SymbolResult:
    found = graph.definitions(name)
    if not found:
        raise SymbolToolError(f"nothing named {name} is defined in the repository")
    found = preferred(graph, found)  # not a Rust type's impl blocks, not a stub's types
    types = {(d.path, d.qualname) for d in found if d.kind in CLASS_KINDS}
    # a constructor named as its type (C#, Java, C++) is part of the type's answer (a Python
    # method named as its class is a method: Python's constructor is __init__)
    found = [
        d
        for d in found
        if "l" not in graph.files.get(d.path, {})
        or (d.path, d.qualname.rpartition(".")[0]) not in types
    ] or found
    found = in_file(found, path)
    items = [definition_item(d) for d in found]
    if len(found) > 1:
        return SymbolResult(operation="definition", name=name, ambiguous=True, items=items)
    d = found[0]
    source = [] if d.kind == "module" else _source(root, d)
    return SymbolResult(
        operation="definition", name=name, subject=shown_name(graph, d), items=items, source=source
    )


def _subclasses(graph: SymbolGraph, name: str, transitive: bool, path: str = "") -> SymbolResult:
    classes = in_file(classes_named(graph, name), path)
    if len({d.full_name for d in classes}) > 1:
        raise several("classes", name, classes)
    found = graph.subclasses(classes[0].full_name if path and classes else name,
                             transitive=transitive)  # fmt: skip
    if not found and not classes:
        raise SymbolToolError(f"no class named {name} in the repository, and none derives from it")
    subject = shown_name(graph, classes[0]) if classes else name
    items = [definition_item(d) for d in found]
    kind = classes[0].kind if classes else "class"
    return SymbolResult(
        operation="subclasses",
        name=name,
        subject=subject,
        transitive=transitive,
        items=items,
        kind=kind,
        embeds=bool(classes) and _embeds(graph, classes[0]),
    )


def _methods(graph: SymbolGraph, name: str, path: str = "") -> SymbolResult:
    classes = in_file(classes_named(graph, name), path)
    if not classes:
        raise SymbolToolError(f"no class named {name} in the repository")
    if len(classes) > 1:
        raise several("classes", name, classes)
    cls = classes[0]
    items = [
        definition_item(d).model_copy(update={"via": via})
        for d, via in graph.methods(cls.full_name)
    ]
    subject = f"`{shown_name(graph, cls)}` ({cls.path}:{cls.line})"  # shown through safe_name
    return SymbolResult(
        operation="methods",
        name=name,
        subject=subject,
        items=items,
        kind=cls.kind,
        embeds=_embeds(graph, cls),
    )


def _embeds(graph: SymbolGraph, cls: Definition) -> bool:
    """A type whose language has no inheritance but embedding (Go's struct fields): what it
    gets from another type is promoted, not inherited."""
    return cls.kind != "interface" and graph.files.get(cls.path, {}).get("l") in languages_where(
        "implicit_interfaces"
    )


def _import_items(imports: list[Import]) -> list[SymbolItem]:
    """One item per import statement (``from m import a, b`` is one), in file order."""
    groups: dict[tuple[str, int, str, bool], list[Import]] = {}
    for i in imports:
        groups.setdefault((i.path, i.line, i.module, i.name is None), []).append(i)
    items = []
    for (path, line, module, plain), group in groups.items():
        names = [
            (i.module if plain else i.name or "") + (f" as {i.alias}" if i.alias else "")
            for i in group
        ]
        text = f"import {', '.join(names)}" if plain else f"from {module} import {', '.join(names)}"
        items.append(
            SymbolItem(
                path=path,
                start_line=line,
                end_line=line,
                kind="import",
                name=group[0].target,
                detail=text,
            )
        )
    return items


def _as_written(graph: SymbolGraph, items: list[SymbolItem], root: Path | None) -> list[SymbolItem]:
    """Import items of files of other languages with the statement as written (``import {
    X } from './x'``, ``#include "x.h"``), not in Python's words; Python's stay."""
    if root is None:
        return items
    lines: dict[str, list[str]] = {}
    return [
        i.model_copy(update={"detail": line_text(root, i.path, i.start_line, lines) or i.detail})
        if "l" in graph.files.get(i.path, {})
        else i
        for i in items
    ]


def _source(root: Path | None, d: Definition) -> list[str]:
    if root is None:
        return []
    try:
        text = (root / d.path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    lines = text.split("\n")[d.start_line - 1 : d.end_line]  # not splitlines(): see above
    if len(lines) > MAX_SOURCE_LINES:
        lines = [*lines[:MAX_SOURCE_LINES], "..."]
    return lines
