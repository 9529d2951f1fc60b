"""A Rust crate's modules as rustc lays them out, for :mod:`codeagent.symbols.rust_targets`:
the definitions by module, the methods by type name, the ``impl`` blocks, and each module's
``use`` declarations.

    crate = crate_of(graph)
    crate.items[("src/parse.rs", "Parser")]       # the definitions of that name in that module
    parent(graph, ("src/a/b.rs", ""))              # ("src/a.rs", "") or ("src/a/mod.rs", "")
    uses(graph, ("src/lib.rs", ""))                # ({"Version": ["crate", "version", ...]}, globs)

A module is a file (``src/a.rs`` or ``src/a/mod.rs`` is ``crate::a``; ``src/lib.rs`` or
``src/main.rs`` is the crate) or an inline ``mod`` in one (its dotted path in the file).
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from codeagent.symbols.types import Definition

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

Module = tuple[str, str]  # (file, the dotted path of the inline modules in it)
Uses = tuple[dict[str, list[str]], list[list[str]]]  # names bound -> paths; the globs
_USE = re.compile(r"\s*(::|\{|\}|,)\s*")


@dataclass
class Crate:
    """The repository's Rust definitions: items by (file, qualified name), methods by (the
    name of their impl's type, name), impl blocks by (file, qualified name), functions not at
    a module's top by (file, name)."""

    items: dict[tuple[str, str], list[Definition]] = field(default_factory=dict)
    methods: dict[tuple[str, str], list[Definition]] = field(default_factory=dict)
    impls: dict[tuple[str, str], list[Definition]] = field(default_factory=dict)
    # functions declared in a function, or in a type's or module's body, by (file, name)
    nested: dict[tuple[str, str], list[Definition]] = field(default_factory=dict)
    impls_of: dict[str, list[Definition]] = field(default_factory=dict)  # by the type's name
    uses: dict[Module, Uses] = field(default_factory=dict)
    # what a name names in a module, once found (None while it is being found: a cycle of
    # globs or re-exports finds nothing through itself)
    lookups: dict[tuple[Module, str], object] = field(default_factory=dict)


_CRATES: WeakKeyDictionary[SymbolHierarchy, Crate] = WeakKeyDictionary()


def crate_of(graph: SymbolHierarchy) -> Crate:
    """The graph's Rust definitions, indexed once per graph."""
    found = _CRATES.get(graph)
    if found is None:
        items: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        methods: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        impls: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        nested: dict[tuple[str, str], list[Definition]] = defaultdict(list)
        impls_of: dict[str, list[Definition]] = defaultdict(list)
        for d in graph._defs:
            if d.path.endswith(".rs"):
                if d.kind == "method":
                    owner = d.qualname.rpartition(".")[0]
                    methods[(owner.rpartition(".")[2], d.name)].append(d)
                elif d.kind == "impl":
                    impls[(d.path, d.qualname)].append(d)
                    impls_of[d.name].append(d)
                else:
                    items[(d.path, d.qualname)].append(d)
                    if d.kind == "function" and "." in d.qualname:
                        nested[(d.path, d.name)].append(d)
        found = _CRATES[graph] = Crate(
            dict(items), dict(methods), dict(impls), dict(nested), dict(impls_of)
        )
    return found


def child(graph: SymbolHierarchy, module: Module, name: str, inline: bool) -> Module | None:
    """The module ``name`` declared in ``module``: inline, or its own file."""
    path, prefix = module
    qual = f"{prefix}.{name}" if prefix else name
    crate = crate_of(graph)
    if inline and any(
        d.end_line > d.line for d in crate.items.get((path, qual), ()) if d.kind == "mod"
    ):
        return (path, qual)
    base = _folder(path)
    stem = posixpath.join(base, *prefix.split("."), name) if prefix else f"{base}/{name}"
    stem = stem.lstrip("/")
    for candidate in (f"{stem}.rs", f"{stem}/mod.rs"):
        if candidate in graph.files:
            return (candidate, "")
    return None


def _folder(path: str) -> str:
    """The folder a file's child modules live in: a crate root's or ``mod.rs``'s own, else
    the one named for the file (``src/a.rs``: ``src/a``)."""
    folder, _, name = path.rpartition("/")
    if name in ("lib.rs", "main.rs", "mod.rs"):
        return folder
    return f"{folder}/{name[:-3]}" if folder else name[:-3]


def root(graph: SymbolHierarchy, path: str) -> str:
    """The crate root of a file: the ``lib.rs`` (else ``main.rs``) of the ``src`` folder it is
    under; a file outside one (a test, an example) is its own."""
    head, marker, _ = path.rpartition("src/")
    if not marker:
        return path
    for name in ("lib.rs", "main.rs"):
        if f"{head}src/{name}" in graph.files:
            return f"{head}src/{name}"
    return path


def parent(graph: SymbolHierarchy, module: Module) -> Module | None:
    path, prefix = module
    if prefix:
        return (path, prefix.rpartition(".")[0])
    if root(graph, path) == path:
        return None
    folder, _, name = path.rpartition("/")
    if name == "mod.rs":
        folder = folder.rpartition("/")[0]
    if folder.rpartition("/")[2] == "src":
        top = root(graph, path)
        return (top, "") if top != path else None
    for candidate in (f"{folder}.rs", f"{folder}/mod.rs"):
        if candidate in graph.files:
            return (candidate, "")
    return None


def uses(graph: SymbolHierarchy, module: Module) -> Uses:
    """The names the ``use`` declarations of ``module`` bind (to their paths), and its globs."""
    cache = crate_of(graph).uses
    if module in cache:
        return cache[module]
    path, prefix = module
    rec = graph.files.get(path, {})
    spans = [(d[2], d[4], d[0]) for d in rec.get("d", ()) if d[1] == "mod"]
    bound: dict[str, list[str]] = {}
    globs: list[list[str]] = []
    for line, written, *_rest in rec.get("i", ()):
        inner = [q for start, end, q in spans if start <= line <= end and q != "" and end > start]
        holder = max(inner, key=len) if inner else ""
        if holder != prefix:
            continue
        for parts, alias in _expand(_USE.sub(r"\1", " ".join(written.split()))):
            if parts and parts[-1] == "*":
                globs.append(parts[:-1])
            elif parts:
                last = parts[-1] if parts[-1] != "self" else (parts[-2] if len(parts) > 1 else "")
                parts = parts[:-1] if parts[-1] == "self" else parts
                if alias != "_" and (alias or last) and parts != [alias or last]:
                    bound[alias or last] = parts
    cache[module] = (bound, globs)
    return cache[module]


def _expand(written: str) -> list[tuple[list[str], str]]:
    """``a::{b, c::d as e, f::*}``: ([a, b], ""), ([a, c, d], "e"), ([a, f, *], "")."""
    brace = written.find("{")
    if brace < 0:
        body, _, alias = written.partition(" as ")
        return [(body.strip().split("::"), alias.strip())] if body.strip() else []
    head = written[:brace].rstrip(":")
    inside = written[brace + 1 : written.rfind("}")]
    out = []
    for item in _split(inside):
        for parts, alias in _expand(item):
            out.append(([*head.split("::"), *parts] if head else parts, alias))
    return out


def _split(inside: str) -> list[str]:
    """The items of a group, at its own depth."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(inside):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(inside[start:i])
            start = i + 1
    items.append(inside[start:])
    return [item for item in items if item]
