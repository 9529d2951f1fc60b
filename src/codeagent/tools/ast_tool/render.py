"""Deterministic text for each operation's result, with ``path:line`` locations (the table
in :mod:`codeagent.tools.ast_tool.operations` says which function renders which operation)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from codeagent.display import location, safe_name
from codeagent.tools.ast_tool.models import (
    CallSite,
    ClassInfo,
    DecoratorUse,
    Definition,
    FunctionInfo,
    ImportInfo,
    Item,
    OutlineEntry,
    VariableInfo,
)

T = TypeVar("T")
# How a listing of one line per class is asked for in full.
SIGNATURES_HINT = 'signatures: --long, or ask "with signatures"'


class Answered(Protocol):
    """What a renderer reads of a result (:class:`~codeagent.tools.ast_tool.result.AstResult`)."""

    @property
    def path(self) -> str: ...
    @property
    def symbol(self) -> str | None: ...
    @property
    def line_count(self) -> int: ...
    @property
    def items(self) -> list[Item]: ...


_ROLE_TAG = {
    "classmethod": "classmethod",
    "staticmethod": "staticmethod",
    "property": "property",
    "property_setter": "property setter",
    "property_deleter": "property deleter",
}


def def_header(info: FunctionInfo | ClassInfo) -> str:
    """``async def name(sig) -> ret`` or ``class Name(Base)``, without decorators."""
    if isinstance(info, ClassInfo):
        return f"class {info.name}" + (f"({', '.join(info.bases)})" if info.bases else "")
    return ("async " if info.is_async else "") + f"def {info.name}{info.signature}"


def decorated_header(info: FunctionInfo | ClassInfo) -> str:
    return "".join(f"@{d} " for d in info.decorators) + def_header(info)


def _tags(*tags: str | None) -> str:
    shown = [t for t in tags if t]
    return "  [" + "; ".join(shown) + "]" if shown else ""


def _cond(condition: str | None) -> str | None:
    return f"under: {condition}" if condition else None


def _span(path: str, start: int, end: int) -> str:
    return location(path, start, None if start == end else end)


def _items(r: Answered, kind: type[T]) -> list[T]:
    """The result's items of one model type."""
    return [i for i in r.items if isinstance(i, kind)]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _function_line(path: str, f: FunctionInfo, indent: str = "") -> str:
    role = _ROLE_TAG.get(f.role)
    tags = _tags(role, "overload stub" if f.is_overload else None, _cond(f.condition))
    return f"{indent}{_span(path, f.start_line, f.end_line)}  {decorated_header(f)}{tags}"


def _counted(items: Sequence[FunctionInfo | ClassInfo | VariableInfo], unit: str) -> str:
    """``3`` or ``2 (3 definitions)`` when a name is defined more than once."""
    names = len({i.name for i in items})
    return str(names) if names == len(items) else f"{names} ({_count(len(items), unit)})"


def _listing(items: Sequence[object], empty: str, head: str, lines: Iterable[str]) -> list[str]:
    """``head`` and the item ``lines``, or the one ``empty`` line when there are no items."""
    return [head, *lines] if items else [empty]


def functions(r: Answered) -> list[str]:
    items = _items(r, FunctionInfo)
    head = (
        f"Top-level functions in {safe_name(r.path)}: {_counted(items, 'definition')}. "
        "Methods are listed with their classes, nested functions in the outline."
    )
    lines = (_function_line(r.path, f) for f in items)
    return _listing(items, f"No top-level functions in {safe_name(r.path)}.", head, lines)


def _class_lines(path: str, c: ClassInfo, indent: str = "") -> list[str]:
    out = [f"{indent}{_span(path, c.start_line, c.end_line)}  {decorated_header(c)}"]
    out[-1] += _tags(_cond(c.condition))
    out += [_function_line(path, m, indent + "    ") for m in c.methods]
    for nested in c.nested_classes:
        out += _class_lines(path, nested, indent + "    ")
    return out


def classes_long(r: Answered) -> list[str]:
    """Every class with its methods and nested classes, each with its signature."""
    items = _items(r, ClassInfo)
    head = (
        f"Top-level classes in {safe_name(r.path)}: {_counted(items, 'definition')}. "
        "Methods and nested classes are listed under their class."
    )
    lines = (line for c in items for line in _class_lines(r.path, c))
    return _listing(items, f"No top-level classes in {safe_name(r.path)}.", head, lines)


def _members(c: ClassInfo) -> str:
    """`` (23 methods, 1 nested class)``: what a class holds, counted."""
    parts = [_count(len(c.methods), "method")] if c.methods else []
    if c.nested_classes:
        n = len(c.nested_classes)
        parts.append(f"{n} nested class" + ("" if n == 1 else "es"))
    return f" ({', '.join(parts)})" if parts else ""


def classes(r: Answered) -> list[str]:
    """One line per top-level class: its bases and how many methods it has (the methods
    with their signatures on request: :func:`classes_long`)."""
    items = _items(r, ClassInfo)
    methods = sum(len(c.methods) for c in items)
    head = (
        f"Top-level classes in {safe_name(r.path)}: {_counted(items, 'definition')}, "
        f"{_count(methods, 'method')}; {SIGNATURES_HINT}"
    )
    lines = (
        f"{_span(r.path, c.start_line, c.end_line)}  {def_header(c)}{_members(c)}"
        f"{_tags(_cond(c.condition))}"
        for c in items
    )
    return _listing(items, f"No top-level classes in {safe_name(r.path)}.", head, lines)


def methods(r: Answered) -> list[str]:
    items = _items(r, FunctionInfo)
    head = f"Methods of class {r.symbol} in {safe_name(r.path)}: {_counted(items, 'definition')}"
    return [head, *(_function_line(r.path, m) for m in items)]


def _import_text(i: ImportInfo) -> str:
    names = ", ".join(n.name + (f" as {n.asname}" if n.asname else "") for n in i.names)
    if not i.is_from:
        return f"import {names}"
    return f"from {'.' * i.level}{i.module or ''} import {names}"


def _import_line(path: str, i: ImportInfo) -> str:
    level = f"relative, level {i.level}" if i.level else None
    scope = f"in {i.scope}" if i.scope != "<module>" else None
    tags = _tags(level, scope, _cond(i.condition))
    return f"{_span(path, i.line, i.end_line)}  {_import_text(i)}{tags}"


def imports(r: Answered) -> list[str]:
    items = _items(r, ImportInfo)
    head = f"Imports in {safe_name(r.path)}: {_count(len(items), 'statement')}"
    lines = (_import_line(r.path, i) for i in items)
    return _listing(items, f"No imports in {safe_name(r.path)}.", head, lines)


def _variable_line(path: str, v: VariableInfo) -> str:
    text = v.name + (f": {v.annotation}" if v.annotation else "")
    text += f" {v.operator} {v.value}" if v.value is not None else ""
    tags = _tags("constant" if v.is_constant else None, _cond(v.condition))
    return f"{_span(path, v.line, v.end_line)}  {text}{tags}"


def variables(r: Answered) -> list[str]:
    items = _items(r, VariableInfo)
    head = f"Module-level variables in {safe_name(r.path)}: {_counted(items, 'assignment')}"
    lines = (_variable_line(r.path, v) for v in items)
    return _listing(items, f"No module-level variables in {safe_name(r.path)}.", head, lines)


def decorators(r: Answered) -> list[str]:
    items = _items(r, DecoratorUse)
    distinct = len({d.name for d in items})
    head = f"Decorators in {safe_name(r.path)}: {_count(len(items), 'use')} of {distinct} distinct"
    lines = (
        f"{location(r.path, d.line)}  @{d.expression}  on {d.target_kind} {d.target}" for d in items
    )
    return _listing(items, f"No decorators in {safe_name(r.path)}.", head, lines)


def calls(r: Answered) -> list[str]:
    items = _items(r, CallSite)
    head = f"Calls to {r.symbol} in {safe_name(r.path)}: {len(items)}"
    lines = (f"{_span(r.path, c.line, c.end_line)}  {c.text}  in {c.scope}" for c in items)
    return _listing(items, f"No calls to {r.symbol!s} in {safe_name(r.path)}.", head, lines)


def definition(r: Answered) -> list[str]:
    items = _items(r, Definition)
    out = [f"Definition of {r.symbol} in {safe_name(r.path)}: {len(items)}"]
    width = len(str(max((d.end_line for d in items), default=1)))
    for d in items:
        tags = _tags(d.symbol_kind, "overload stub" if d.is_overload else None, _cond(d.condition))
        out += ["", f"{_span(r.path, d.start_line, d.end_line)}  {d.qualname}{tags}"]
        if d.symbol_kind != "variable":
            out += ["Docstring:" + (" none" if d.docstring is None else "")]
            out += [f"    {line}".rstrip() for line in (d.docstring or "").splitlines()]
        lines = d.source.removesuffix("\n").split("\n")  # a form feed ends no line
        out += [f"{d.start_line + n:>{width}} | {line}".rstrip() for n, line in enumerate(lines)]
    return out


def outline(r: Answered) -> list[str]:
    items = _items(r, OutlineEntry)
    head = (
        f"Outline of {safe_name(r.path)} ({_count(r.line_count, 'line')}): {len(items)} definitions"
    )
    spans = [_span(r.path, e.start_line, e.end_line) for e in items]
    width = max((len(s) for s in spans), default=0)
    out = [head]
    for span, e in zip(spans, items, strict=True):
        out.append(f"{span:<{width}}  {'    ' * e.depth}{e.header}{_tags(_cond(e.condition))}")
    return out


def unique(values: Sequence[T]) -> list[T]:
    """The values, each once, in first-seen order."""
    return list(dict.fromkeys(values))
