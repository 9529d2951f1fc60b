"""One file's definitions (a file of the language layer) as a person reads them.

An outline lists every definition with its signature: for a crate root with 33 methods that
is more than anyone asked for. Here each type (class, struct, trait, impl, ...) and each
top-level function is one line, a type with its members counted (``class Client (1
constructor, 2 methods)``); the members and every signature come on request (``long``). A
question that asks for one kind (``functions``, ``classes``, ``methods``) gets that kind; when
the file has none, the answer says so and then shows what the file has.

Which definition a member belongs to is read from the lines: the innermost definition whose
span holds it, else (a Go method, declared beside its type) the type its qualified name starts
with. A function inside a member (``Ky.create.function_``) is not counted as a member of
the type; it is listed in full (``long``) outlines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from codeagent.display import location, safe_name
from codeagent.tools.ast_tool.render import SIGNATURES_HINT


class SymbolItem(Protocol):
    """What a listing reads of a definition (a :class:`~.result.SymbolItem`)."""

    @property
    def path(self) -> str: ...
    @property
    def start_line(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def detail(self) -> str: ...


CALLABLE_KINDS = frozenset({"function", "method", "constructor", "destructor", "macro"})
WANTED = {"functions": "top-level functions", "classes": "types", "methods": "methods"}
LONG_HINT = SIGNATURES_HINT


@dataclass
class Node:
    item: SymbolItem
    depth: int = 0
    members: list[SymbolItem] = field(default_factory=list)  # callables it holds
    inner: list[SymbolItem] = field(default_factory=list)  # functions inside those

    @property
    def callable(self) -> bool:
        return self.item.kind in CALLABLE_KINDS


def tree(items: Sequence[SymbolItem]) -> list[Node]:
    """The file's non-member definitions in source order, each with its callable members."""
    nodes: list[Node] = []
    by_name: dict[str, Node] = {}
    open_: list[Node] = []  # the definitions whose span holds the current line
    for item in sorted(items, key=lambda i: (i.start_line, -i.end_line)):
        while open_ and open_[-1].item.end_line < item.start_line:
            open_.pop()
        parent = open_[-1] if open_ else None
        if parent is None and item.kind in CALLABLE_KINDS and "." in item.name:
            parent = by_name.get(item.name.rsplit(".", 1)[0])  # a Go method beside its type
        if item.kind in CALLABLE_KINDS and parent is not None:
            rest = item.name.removeprefix(parent.item.name + ".")
            inner = rest != item.name and "." in rest  # a function inside a member
            (parent.inner if inner else parent.members).append(item)
            continue
        node = Node(item, depth=parent.depth + 1 if parent else 0)
        nodes.append(node)
        by_name.setdefault(item.name, node)
        if item.end_line > item.start_line or not node.callable:
            open_.append(node)
    return nodes


def _plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else _words(word)}"


def _words(word: str) -> str:
    """``class`` -> ``classes``, ``enum`` -> ``enums``."""
    return word + ("es" if word.endswith("s") else "s")


def _counts(items: list[SymbolItem]) -> str:
    kinds = Counter(i.kind for i in items)
    return ", ".join(_plural(n, kind) for kind, n in sorted(kinds.items()))


def _span(item: SymbolItem) -> str:
    end = None if item.start_line == item.end_line else item.end_line
    return location(item.path, item.start_line, end)


def _label(item: SymbolItem) -> str:
    if item.kind == "impl" and item.detail:  # "impl Greeter for Config", not "impl Config"
        return " ".join(item.detail.split())
    return f"{item.kind} {safe_name(item.name)}"


def _line(node: Node, *, long: bool) -> list[str]:
    item, indent = node.item, "  " * node.depth
    text = f"  {_span(item)}  {indent}{_label(item)}"
    if node.members:
        text += f" ({_counts(node.members)})"
    if long and item.detail and item.kind != "impl":
        text += f"  {item.detail}"
    lines = [text]
    if long:
        lines += [
            f"  {_span(m)}  {indent}  {m.kind} {safe_name(m.name)}"
            + (f"  {m.detail}" if m.detail else "")
            for m in sorted([*node.members, *node.inner], key=lambda i: i.start_line)
        ]
    return lines


def render_listing(
    path: str, items: Sequence[SymbolItem], wanted: str, *, long: bool, only: str = ""
) -> list[str]:
    """The lines of the answer: what ``wanted`` ("" for an outline, or a key of
    :data:`WANTED`) asks for of the file at ``path``, one line per type or function; of
    the types, those of the kind ``only`` when one is asked for ("list the enums")."""
    nodes = tree(items)
    name = safe_name(path)
    members = sum(len(n.members) for n in nodes)
    hint = "" if long else f"; {LONG_HINT}"
    outline = [line for n in nodes for line in _line(n, long=long)]
    head = f"Outline of {name}: {_plural(len(items), 'definition')}"
    if wanted == "functions":
        chosen = [n for n in nodes if n.depth == 0 and n.item.kind == "function"]
    elif wanted == "classes":
        chosen = [n for n in nodes if not n.callable and n.item.kind not in ("module", "mod")]
    elif wanted == "methods":
        chosen = [n for n in nodes if n.members]
    else:
        return [f"{head} ({members} of them members, counted under their type){hint}", *outline]
    what = WANTED[wanted]
    if only and wanted == "classes":  # one kind: each flush left (its outer types not listed)
        chosen = [Node(n.item, 0, n.members, n.inner) for n in chosen if n.item.kind == only]
        what = _words(only)
    if not chosen:
        defined = _plural(len(items), "definition")
        return [f"{name} defines no {what}. What it defines: {defined}{hint}", *outline]
    if wanted == "methods":
        lines = [f"Methods in {name}: {members}, in {_plural(len(chosen), 'definition')}{hint}"]
        for n in chosen:
            lines.append(f"  {_span(n.item)}  {_label(n.item)}")
            lines += [
                f"    {_span(m)}  {m.kind} {safe_name(m.name)}"
                + (f"  {m.detail}" if long and m.detail else "")
                for m in n.members
            ]
        return lines
    head = f"{what.capitalize()} in {name}: {len(chosen)}"
    kinds = {n.item.kind for n in chosen}
    if wanted == "classes" and len(kinds) > 1:  # "12 (7 structs, 4 interfaces, 1 type)"
        head += f" ({_counts([n.item for n in chosen])})"
    return [head + hint, *(line for n in chosen for line in _line(n, long=long))]
