"""The symbol tool's arguments and its result: typed items, a deterministic rendering, the
context an LLM answer is given, and the citations."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from codeagent.display import location, safe_name
from codeagent.tools.base import ModelToolResult

if TYPE_CHECKING:
    from codeagent.symbols.types import Definition

SymbolOperation = Literal[
    "definition",
    "callers",
    "subclasses",
    "importers",
    "imports",
    "methods",
    "overrides",
    "outline",
]
SYMBOL_OPERATIONS: tuple[str, ...] = SymbolOperation.__args__  # type: ignore[attr-defined]
MAX_LISTED = 200  # items shown in the text answer (the result keeps them all)
MAX_SOURCE_LINES = 60  # lines of a unique definition's source shown
MAX_LINE_CHARS = 160  # a call site's line, as shown

BY_NAME_NOTE = (
    "Calls marked [by name] could not be tied to a type: obj.{n}() on an object whose type "
    "the code does not state counts whatever obj is, an imported alias "
    "(from m import {n} as g; g()) counts as {n}, and a reference that is not called does not."
)
# The other languages' (their receivers are followed too: LanguageSpec.receivers).
JS_BY_NAME_NOTE = (
    "Calls marked [by name] could not be tied to a type: obj.{n}() on an object whose type "
    "the code does not state (an untyped local, a call's result, an object literal) counts "
    "whatever obj is, and a reference that is not called does not."
)


class SymbolArgs(BaseModel):
    """A repository-wide structural question."""

    operation: SymbolOperation = Field(
        description="definition (where is X defined / show X), callers (who calls X), "
        "subclasses (of class X), importers (which files import X), imports (what module X "
        "imports), methods (of class X, inherited ones included), overrides (who overrides "
        "method X: Class.method, or a method's name), outline (the definitions of "
        "one file of another language than Python, named by its path)"
    )
    name: str = Field(description="The name: X, Class.method, a dotted path, or a module.")
    transitive: bool = Field(default=False, description="subclasses: all descendants.")
    file: str = Field(
        default="",
        description="definition, methods, subclasses: the file the question names, when it "
        "asks for the name defined there (several types can share a name); else empty.",
    )
    listing: Literal["", "functions", "classes", "methods"] = Field(
        default="",
        description="outline: the kind of definitions the question lists (functions, "
        "classes or methods of the file), empty for everything the file defines.",
    )
    only: str = Field(
        default="",
        description="outline of classes: the one kind of type listed (struct, interface, "
        "enum, trait), empty for every type.",
    )


class SymbolItem(BaseModel):
    """One answered fact, located at ``path:start_line-end_line``."""

    model_config = ConfigDict(frozen=True)

    path: str
    start_line: int
    end_line: int
    kind: str  # module | class | function | method | call | import
    name: str  # qualified name; for a call the scope; for an import the imported target
    detail: str = ""  # signature; the call's source line; import statement
    doc: str = ""
    via: str | None = None  # methods: the in-repository base it is inherited from
    # callers: whether the call was tied to its target by receiver, import or type (else it
    # is a call "by name"), the target's full name, and the caller's qualified name
    resolved: bool | None = None
    target: str = ""
    caller: str = ""


class SymbolResult(BaseModel):
    """The answer to one :class:`SymbolArgs` over the repository's symbol graph."""

    model_config = ConfigDict(frozen=True)

    operation: SymbolOperation
    name: str
    subject: str = ""  # what the name resolved to (a full name or a path), when one thing
    transitive: bool = False
    ambiguous: bool = False  # definition: several candidates, listed
    items: list[SymbolItem]
    source: list[str] = []  # definition: the unique definition's source lines
    note: str = ""
    kind: str = "class"  # methods, subclasses: the type's kind (struct, trait, interface, ...)
    embeds: bool = False  # methods, subclasses: a Go type's, which embeds and promotes
    listing: str = ""  # outline: the kind of definitions asked for (SymbolArgs.listing)
    only: str = ""  # outline of classes: the one kind of type asked for (SymbolArgs.only)

    def render(self, *, long: bool = False) -> str:
        """A deterministic, readable answer with ``path:line`` locations; an outline is one
        line per type or function unless ``long`` (every member, every signature)."""
        if self.operation == "outline":
            from codeagent.tools.symbol_tool.listing import render_listing

            return "\n".join(
                render_listing(self.name, self.items, self.listing, long=long, only=self.only)
            )
        lines = [self._head()]
        shown = self.items[:MAX_LISTED]
        for item in shown:
            lines.append(self._line(item))
        if len(self.items) > len(shown):
            lines.append(f"... and {len(self.items) - len(shown)} more")
        if self.source:
            first = self.items[0].start_line
            width = len(str(first + len(self.source)))
            lines += [""] + [
                f"{first + n:>{width}} | {text}".rstrip() for n, text in enumerate(self.source)
            ]
        if self.note:
            lines += ["", self.note]
        return "\n".join(lines)

    def context(self) -> str:
        """What an LLM answer is given: the rendered answer (it holds every location)."""
        return self.render(long=True)

    def citations(self) -> list[tuple[str, int, int]]:
        """``(path, start_line, end_line)`` of each listed item, each once, in order."""
        seen: dict[tuple[str, int, int], None] = {}
        for item in self.items[:MAX_LISTED]:
            seen.setdefault((item.path, item.start_line, item.end_line), None)
        return list(seen)

    def names(self) -> list[str]:
        """The names answered with, each once (qualified names; for calls, the scopes)."""
        return list(dict.fromkeys(i.name for i in self.items))

    # -- rendering helpers --------------------------------------------------------------------

    def _head(self) -> str:
        # A qualified name holds its module's path (``new\nline.f``): shown as a name is.
        n, what = len(self.items), safe_name(self.subject or self.name)
        if self.operation == "definition":
            if self.ambiguous:
                return f"`{self.name}` names {n} definitions in the repository:"
            item = self.items[0]
            return f"`{self.name}` is defined at {_span(item)} ({item.kind} {what})"
        if self.operation == "callers":
            return self._callers_head()
        if self.operation == "subclasses":
            what_kind = "implementations" if self.kind in ("interface", "trait") else "subclasses"
            if self.embeds:
                how = ", directly or through another type," if self.transitive else ""
                return f"Types that embed `{what}`{how} in the repository: {n}"
            scope = f"all {what_kind}" if self.transitive else f"direct {what_kind}"
            return f"{scope.capitalize()} of `{what}` in the repository: {n}"
        if self.operation == "importers":
            files = len({i.path for i in self.items})
            return f"Files importing `{what}`: {files} ({_plural(n, 'import')})"
        if self.operation == "imports":
            return f"Imports of {what}: {n}"
        if self.operation == "overrides":
            if self.subject:
                return f"Overrides of `{what}` in its subclasses: {n}"
            over = sum(1 for i in self.items if i.via)
            return f"Methods named `{what}` in the repository: {n}, {over} overriding a base's"
        own = sum(1 for i in self.items if i.via is None)
        got = "promoted from embedded types" if self.embeds else "inherited"
        return f"Methods of {self.kind} {what}: {n} ({own} own, {n - own} {got})"

    def _callers_head(self) -> str:
        """How many calls were tied to the definition asked for, how many only by name."""
        resolved = [i for i in self.items if i.resolved]
        other = len(self.items) - len(resolved)
        head = f"Calls of `{self.name}` in the repository: "
        if not resolved:
            files = len({i.path for i in self.items})
            return head + f"{other} in {_plural(files, 'file')}, by name (none tied to a type)"
        in_files = _plural(len({i.path for i in resolved}), "file")
        whom = f"`{safe_name(self.subject)}`" if self.subject else "its definitions"
        text = head + f"{len(resolved)} resolved to {whom} (in {in_files})"
        if other:
            last = self.name.rsplit(".", 1)[-1]
            text += (
                f"; {other} other call{'s' if other != 1 else ''} of `{last}` that could not "
                "be tied to a type (by name, listed after)"
            )
        return text

    def _line(self, item: SymbolItem) -> str:
        if self.operation == "callers":
            where = location(item.path, item.start_line)
            mark = "" if item.resolved else "  [by name]"
            return f"  {where}  {item.detail}  in {safe_name(item.name) or '<module>'}{mark}"
        if self.operation in ("importers", "imports"):
            return f"  {location(item.path, item.start_line)}  {item.detail}"
        if self.operation == "overrides":  # the class is the news: Class.method
            over = f"  [overrides {safe_name(item.via)}]" if item.via else ""
            return f"  {_span(item)}  {item.kind} {safe_name(item.name)}{over}"
        text = f"  {_span(item)}  {item.kind} {safe_name(item.name)}"
        said = bool(item.detail) and _says(item.detail, item.kind, item.name)
        if item.detail and (self.operation != "definition" or said):
            text = f"  {_span(item)}  {item.detail}"  # ``class Mixin``: said once
        elif item.detail:
            text += f"  {item.detail}"
        if item.via:
            got = "promoted from" if self.embeds else "inherited from"
            text += f"  [{got} {safe_name(item.via)}]"
        if item.doc and self.operation == "definition" and not self.ambiguous:
            text += f"\n  {item.doc}"
        return text


def definition_item(d: Definition) -> SymbolItem:
    """A definition as an answered item (a module by its full name, the rest qualified)."""
    return SymbolItem(
        path=d.path,
        start_line=d.start_line,
        end_line=d.end_line,
        kind=d.kind,
        name=d.full_name if d.kind == "module" else d.qualname,
        detail=d.signature,
        doc=d.doc,
    )


def _says(signature: str, kind: str, name: str) -> bool:
    """Whether ``signature`` itself says ``KIND NAME`` before its parameters (``class Mixin``,
    ``pub trait Buf``, ``public class A extends B``, ``template <class T> class Box``)."""
    head = signature.split("(", 1)[0]
    return re.search(rf"(?:^|\s){re.escape(kind)} {re.escape(name)}(?![\w.])", head) is not None


class SymbolToolResult(ModelToolResult):
    """A :class:`SymbolResult` as a tool result (``names()`` is what eval scores)."""

    result: SymbolResult


def _span(item: SymbolItem) -> str:
    end = None if item.start_line == item.end_line else item.end_line
    return location(item.path, item.start_line, end)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
