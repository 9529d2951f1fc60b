""" "Who calls X": the call sites resolved to X first, then those that could not be tied to a
type (by name), each marked; calls resolved to something else (another class's ``send``,
``json.dumps``) are counted, not listed."""

from __future__ import annotations

from pathlib import Path

from codeagent.symbols.call_targets import inherited
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import CallSite, Definition
from codeagent.tools.symbol_tool.names import SymbolToolError, shown_name
from codeagent.tools.symbol_tool.result import (
    BY_NAME_NOTE,
    JS_BY_NAME_NOTE,
    MAX_LINE_CHARS,
    MAX_LISTED,
    SymbolItem,
    SymbolResult,
)


def callers_result(graph: SymbolGraph, name: str, root: Path | None) -> SymbolResult:
    name = name.replace("::", ".")  # called by its last name: Type::new() is a call of new
    last = name.rsplit(".", 1)[-1]
    sites = graph.callers(name)
    if not sites:
        raise SymbolToolError(f"nothing in the repository calls {last}")
    wanted = wanted_targets(graph, name)
    resolved = [c for c in sites if _is_wanted(c, wanted, name)]
    owner = name.rpartition(".")[0]
    read_as_last = bool(owner) and not resolved and names_nothing(graph, owner)
    if read_as_last:  # "who calls c.JSON?": `c` is a variable, not a type: calls of JSON
        name, wanted = last, wanted_targets(graph, last)
        resolved = [c for c in sites if _is_wanted(c, wanted, last)]
    by_name = [c for c in sites if not c.target]
    elsewhere = len(sites) - len(resolved) - len(by_name)
    lines: dict[str, list[str]] = {}
    items = [
        SymbolItem.model_construct(  # trusted values: no validation for thousands of sites
            path=c.path,
            start_line=c.line,
            end_line=c.line,
            kind="call",
            name=c.scope,
            # the source line of the sites the answer lists (reading every file would cost
            # more than the query on a big repository)
            detail=(line_text(root, c.path, c.line, lines) if n < MAX_LISTED else "")
            or f"{c.name}(...)",
            doc="",
            via=None,
            resolved=bool(c.target),
            target=c.target,
            caller=_caller(graph, c),
        )
        for n, c in enumerate([*resolved, *by_name])
    ]
    targets = sorted({c.target for c in resolved})
    notes = []
    if by_name:
        notes.append(by_name_note(graph, by_name, last))
    if elsewhere:
        notes.append(
            f"{elsewhere} other call{'s' if elsewhere != 1 else ''} of `{last}` resolved to "
            "another definition (another class's, or outside the repository) are not listed."
        )
    if last != name and not resolved:
        notes.insert(0, f"Resolved by the last name, {last}, whatever it is called on.")
    if read_as_last:
        notes.insert(
            0,
            f"`{owner}` names no type or module of the repository (a variable?): these are "
            f"the calls of `{last}`, whatever they are called on.",
        )
    classes = [graph._by_full[t] for t in targets if t in graph._by_full]
    if classes and all(d.kind in CLASS_KINDS for d in classes):
        notes.append(_class_note(graph, classes[0].full_name, last))
    return SymbolResult(
        operation="callers",
        name=name if resolved else last,
        subject=_subject(graph, targets[0]) if len(targets) == 1 else "",
        items=items,
        note=" ".join(notes),
    )


def _subject(graph: SymbolGraph, target: str) -> str:
    """The one definition the calls resolve to, as answers name it (outside: its full name)."""
    d = graph._by_full.get(target)
    return shown_name(graph, d) if d is not None else target


def names_nothing(graph: SymbolGraph, owner: str) -> bool:
    """Whether ``owner`` (``c`` of ``c.JSON``, ``self``, ``session`` of ``session.request``)
    names no type or module, of the repository or imported: a variable's name, as a user
    copies it from a call. A function of that name (requests' ``session()``, imported in its
    ``__init__``) is no receiver: its calls' results are."""
    head = owner.split(".", 1)[0]
    if any(_typed(d) for d in graph.definitions(owner)):
        return False
    for imp in [site for name in {owner, head} for site in graph.import_sites(name)]:
        found = graph.definitions(imp.target) if imp.name is not None else []
        if not found or any(_typed(d) for d in found):  # a module, or a name from outside
            return False
    return True


def _typed(d: Definition) -> bool:
    return d.kind in CLASS_KINDS or d.kind == "module"


def _class_note(graph: SymbolGraph, full: str, last: str) -> str:
    """What a class's calls leave out: its other uses, and where to ask for them."""
    files = len(graph.importers(full))
    many = files != 1
    imports = (
        f"; {files} file{'s' if many else ''} import{'' if many else 's'} it (`who imports {last}`)"
    )
    return (
        f"`{last}` is a class: its calls are where it is instantiated. Other uses (except "
        f"clauses, isinstance, annotations) are not listed; subclasses: `which classes "
        f"inherit from {last}`" + (imports if files else "") + "."
    )


def wanted_targets(graph: SymbolGraph, name: str) -> set[str]:
    """The full names of the definitions ``name`` names (``Client.send`` inherited from a
    base: the base's ``send``)."""
    found = {d.full_name for d in graph.definitions(name) if d.kind != "module"}
    owner, _, attr = name.rpartition(".")
    if not found and owner:
        for cls in graph.definitions(owner):
            if cls.kind in CLASS_KINDS and "l" not in graph.files.get(cls.path, {}):
                hit = inherited(graph, cls, attr, skip_first=False)
                if hit is not None:
                    found.add(hit[0])
    return found


def _is_wanted(site: CallSite, wanted: set[str], name: str) -> bool:
    if not site.target:
        return False
    if site.outside:  # a name outside the repository, asked for as such (json.dumps)
        return not wanted and ("." + site.target).endswith("." + name)
    return site.target in wanted


def _caller(graph: SymbolGraph, c: CallSite) -> str:
    """The qualified name of the code that makes the call (its module's, at module level)."""
    rec = graph.files.get(c.path, {})
    if "l" in rec:
        return c.scope or c.path
    module = str(rec.get("m", ""))
    return ".".join(part for part in (module, c.scope) if part) or "<module>"


def by_name_note(graph: SymbolGraph, sites: list[CallSite], name: str) -> str:
    """How call sites were found, in the words of the languages they are in: Python's note
    for Python files, the language layer's for the others (each follows its receivers:
    ``LanguageSpec.receivers``), both when both."""
    languages = [graph.files.get(c.path, {}).get("l", "") for c in sites]
    notes = []
    if "" in languages:
        notes.append(BY_NAME_NOTE.format(n=name))
    if any(languages):
        note = JS_BY_NAME_NOTE.format(n=name)
        where = "In other languages than Python"
        notes.append(f"{where}: {note[0].lower()}{note[1:]}" if notes else note)
    return " ".join(notes)


def line_text(root: Path | None, path: str, line: int, cache: dict[str, list[str]]) -> str:
    """Line ``line`` of ``path``, stripped ("" without the repository or the line)."""
    if root is None:
        return ""
    if path not in cache:
        try:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
            cache[path] = text.split("\n")  # as ast counts lines: a form feed ends none
        except OSError:
            cache[path] = []
    text = cache[path][line - 1].strip() if 0 < line <= len(cache[path]) else ""
    return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 3] + "..."
