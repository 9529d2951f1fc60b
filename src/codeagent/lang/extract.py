"""Parse a file with its language's grammar and read its symbols from the queries.

The result has the symbol graph's record shape (:mod:`codeagent.symbols.graph`): ``d`` rows
``[qualname, kind, line, start, end, signature, doc, bases]``, ``i`` rows ``[line, module,
name, alias]``, ``c`` rows ``[line, called name, index of the enclosing row in d or -1]``.
``line`` is the line of the definition's name (what ctags reports), ``start`` its first line
(the comments right above it, annotations and decorators included), ``end`` its last.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from codeagent.lang import doc_members
from codeagent.lang.leads import lead, touching
from codeagent.lang.parse_errors import better_reading, count_errors, error_lines
from codeagent.lang.references import calls_of, cast_name, first_capture, imports_of, node_text
from codeagent.lang.signatures import signature
from codeagent.lang.spec import TYPE_KINDS, LanguageSpec, suffix_of

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Query

MAX_DOC = 160
_FUNCTIONS = frozenset({"function", "method"})
# a statement the grammar read as a function's definition (``else if (x) {`` after a C
# ``#endif`` alone): no language names a function so
_STATEMENTS = frozenset({"if", "else", "for", "while", "switch", "do", "return", "case"})
_local = threading.local()  # a tree-sitter parser is not shared between threads


@dataclass
class Parsed:
    """One file's symbols; ``errors`` counts the grammar's ERROR/MISSING nodes, and
    ``error_lines`` are the line spans the grammar could not place
    (:func:`codeagent.lang.parse_errors.error_lines`)."""

    language: str
    defs: list[list[Any]]
    imports: list[list[Any]]
    calls: list[list[Any]]
    errors: int
    error_lines: tuple[tuple[int, int], ...] = ()
    bindings: list[list[str]] | None = None  # TypeScript/JavaScript (lang.ts_calls)
    exports: list[list[str]] | None = None
    bodies_kept: bool = False  # C, C++: a function whose errors lie inside its body is clear

    def clear_defs(self) -> list[list[Any]]:
        """The rows of ``defs`` no error span touches (all of them without an error), and the
        functions whose errors all lie inside their bodies, below the name's line and above the
        last, where ``bodies_kept`` (C, C++: an ``#ifdef`` branch the grammar cannot read,
        ``else if (..) {`` after an ``#endif`` alone; their ends were universal-ctags' on
        zlib)."""
        return [row for row in self.defs if self._clear(row)]

    def _clear(self, row: list[Any]) -> bool:
        touching = [(a, z) for a, z in self.error_lines if a <= row[4] and row[3] <= z]
        if not touching:
            return True
        inside = all(row[2] < a and z < row[4] for a, z in touching)
        return self.bodies_kept and row[1] in _FUNCTIONS and inside

    def record(self, path: str) -> dict[str, Any]:
        """The symbol graph's record of the file (its module name is its path)."""
        rec = {"m": path, "l": self.language, "d": self.defs, "i": self.imports, "c": self.calls}
        return rec | {k: v for k, v in (("b", self.bindings), ("e", self.exports)) if v}


@lru_cache(maxsize=64)
def _language(spec: LanguageSpec, suffix: str) -> Language:
    from tree_sitter import Language

    assert spec.grammar is not None, f"{spec.name} has no tree-sitter grammar"
    return Language(spec.grammar(suffix))


@lru_cache(maxsize=64)
def _queries(spec: LanguageSpec, suffix: str) -> tuple[Query, Query | None, Query | None]:
    from tree_sitter import Query

    lang = _language(spec, suffix)
    imports = Query(lang, spec.imports) if spec.imports else None
    calls = Query(lang, spec.calls) if spec.calls else None
    return Query(lang, spec.definitions), imports, calls


def _parser(spec: LanguageSpec, suffix: str) -> Parser:
    from tree_sitter import Parser

    parsers: dict[tuple[str, str], Parser] = _local.__dict__.setdefault("parsers", {})
    key = (spec.name, suffix)
    if key not in parsers:
        parsers[key] = Parser(_language(spec, suffix))
    return parsers[key]


def parse(spec: LanguageSpec, path: str, text: str) -> Parsed:
    """The symbols of one file (``text`` with ``\\n`` line breaks)."""
    from tree_sitter import QueryCursor

    suffix = suffix_of(path)
    source = text.encode("utf-8", errors="surrogatepass")
    tree = _parser(spec, suffix).parse(source)
    root = tree.root_node
    if root.has_error and spec.repair is not None:
        repaired = spec.repair(text, suffix).encode("utf-8", "surrogatepass")
        tree = better_reading(_parser(spec, suffix).parse, repaired, tree)
        root = tree.root_node
    def_query, import_query, call_query = _queries(spec, suffix)
    errors = count_errors(root, spec.macro_blocks) if root.has_error else 0
    spans = error_lines(root, spec.macro_blocks) if errors else ()
    touched = touching(spans) if spans else None
    defs, nodes = _definitions(spec, QueryCursor(def_query).matches(root), touched)
    if spec.doc_members is not None:  # PHP's @method: members a type's docblock declares
        defs, nodes = doc_members.inserted(spec.doc_members, text, defs, nodes)
    imports = imports_of(spec, QueryCursor(import_query).matches(root)) if import_query else []
    call_matches = QueryCursor(call_query).matches(root) if call_query else []
    found = spec.receivers(tree, call_matches, nodes) if spec.receivers is not None else None
    calls = found.calls if found is not None else []  # with their targets, read in one pass
    if found is None and call_query:
        calls = calls_of(call_matches, nodes)
    kept = bool(spec.macro_blocks)  # C, C++
    if found is None:
        return Parsed(spec.name, defs, imports, calls, errors, spans, bodies_kept=kept)
    return Parsed(
        spec.name, defs, imports, calls, errors, spans, found.bindings, found.exports, kept
    )


@dataclass
class _Def:
    node: Node
    kind: str
    name: str
    name_line: int
    receiver: str
    bases: list[str]
    end: Node  # the last node of the definition (the node itself, or an ``@end`` capture)


# captures whose node is the end of a definition's name, with the words before it: an overloaded
# operator's token (``operator==``), C#'s ``~Parser`` (a destructor) and ``operator int`` (a
# conversion operator), written as ctags writes them
_PREFIXED = (("operator", "operator"), ("destructor", "~"), ("conversion", "operator "))


def _definitions(
    spec: LanguageSpec,
    matches: list[tuple[int, dict[str, list[Node]]]],
    touched: Callable[[int, int], bool] | None = None,
) -> tuple[list[list[Any]], list[tuple[int, int, int]]]:
    """Rows of ``d`` in source order, and each row's byte span (for call scopes);
    ``touched``: whether a parse error lies on lines ``first`` to ``last``
    (:func:`~codeagent.lang.leads.touching`), None for a file without one."""
    found: dict[tuple[int, int, str], _Def] = {}
    for _, captures in sorted(matches, key=lambda m: m[0]):  # the first pattern wins
        kinds = [k for k in captures if k.startswith("def.")]
        name = first_capture(captures, "name")
        cast = first_capture(captures, "cast")  # a conversion operator: named operator bool
        if cast is not None and name is None:
            name = cast
        prefix = ""
        for capture, words in _PREFIXED:  # operator==, ~Parser: a name the grammar splits
            found_node = first_capture(captures, capture)
            if found_node is not None and name is None:
                name, prefix = found_node, words
        if not kinds or name is None or node_text(name) in _STATEMENTS:
            continue
        node = captures[kinds[0]][0]
        key = (node.start_byte, node.end_byte, node.type)
        if key in found:  # another match of the definition: its other bases (one a match)
            more = [_type_name(node_text(b)) for b in _bases(captures)]
            found[key].bases += [b for b in more if b not in found[key].bases]
            continue
        if spec.skip_inside and _inside(node, spec.skip_inside):
            continue
        if spec.declaration_children and any(
            child.type in spec.declaration_children for child in node.children
        ):
            continue
        receivers = captures.get("receiver", ())  # A::B::f: A, then B
        found[key] = _Def(
            node=node,
            kind=kinds[0][4:],
            name=_type_name(node_text(name))
            if kinds[0] == "def.impl"
            else cast_name(name)
            if name is cast
            else prefix + node_text(name).strip("\"'`"),
            name_line=name.start_point[0] + 1,
            receiver=".".join(_type_name(node_text(r)).replace("::", ".") for r in receivers),
            bases=[_type_name(node_text(b)) for b in _bases(captures)],
            end=first_capture(captures, "end") or _open_end(spec, node),
        )
    by_node = {(d.node.start_byte, d.node.end_byte, d.node.type): d for d in found.values()}
    rows: list[list[Any]] = []
    spans: list[tuple[int, int, int]] = []
    ordered = sorted(found.values(), key=lambda d: (d.node.start_byte, -d.node.end_byte))
    opened = [d for d in ordered if d.end is not d.node and d.node.type in spec.open_scopes]
    for d in ordered:
        scope: list[str] = []
        inside_type = False
        parent = d.node.parent
        while parent is not None:
            outer = by_node.get((parent.start_byte, parent.end_byte, parent.type))
            if outer is not None:
                scope.append(outer.receiver or outer.name if outer.kind == "impl" else outer.name)
                if outer.kind != "impl" and outer.receiver:  # class Block::Iter: in Block
                    scope += reversed(outer.receiver.split("."))  # (the scope is read back)
                inside_type = inside_type or outer.kind in TYPE_KINDS
            parent = parent.parent
        scope.reverse()
        scope[:0] = [
            o.name for o in opened if o.node.end_byte <= d.node.start_byte < o.end.end_byte
        ]
        if d.receiver:
            scope.append(d.receiver)
            inside_type = True
        kind = d.kind
        if kind in spec.function_kinds and inside_type:
            kind = "method"
        qualname = ".".join([*scope, d.name]) if d.name else ".".join(scope)
        doc, start = lead(spec, d.node, MAX_DOC)
        own = d.node.start_point[0] + 1
        end = d.end.end_point[0] + 1
        if d.end.end_point[1] == 0 and end > own:
            end -= 1  # a node that ends with its line break
        # a lead the grammar cannot read (a macro in C++'s ``template <..>``) is left to the
        # lines above when the definition is clear of errors: it is still chunked as one
        if touched and own > start and touched(start, own - 1) and not touched(own, end):
            start = own
        rows.append(
            [
                qualname,
                kind,
                d.name_line,
                start,
                end,
                signature(d.node),
                doc,
                [b for b in d.bases if b],
            ]
        )
        spans.append((d.node.start_byte, d.end.end_byte, len(rows) - 1))
    return rows, spans


def _open_end(spec: LanguageSpec, node: Node) -> Node:
    """Where a definition ends: itself, or the block holding it for an open scope's."""
    return node.parent if node.type in spec.open_scopes and node.parent is not None else node


_NOT_BASES = frozenset(
    {"comment", "access_specifier", "virtual", "type_arguments", "argument_list", "arguments"}
)


def _inside(node: Node, types: tuple[str, ...]) -> bool:
    parent = node.parent
    while parent is not None and parent.type not in types:
        parent = parent.parent
    return parent is not None


def _bases(captures: dict[str, list[Node]]) -> list[Node]:
    """``@base`` nodes, and the named children of ``@bases`` lists (comments aside)."""
    out = list(captures.get("base", []))
    for group in captures.get("bases", []):
        out += [c for c in group.named_children if c.type not in _NOT_BASES]
    return out


def _type_name(written: str) -> str:
    """A type as written, without generics, pointers, references or lifetimes: ``*Server``
    -> Server, ``Handler<T>`` -> Handler, ``&'a mut Map<K, V>`` -> Map, ``[u32]`` -> u32."""
    text = written.strip()
    depth = 0
    out = []
    for ch in text:
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    words = [
        w
        for w in "".join(out).replace("*", " ").replace("&", " ").split()
        if not w.startswith("'") and w not in ("mut", "const", "dyn", "impl", "struct")
    ]
    if not words and text[:1] in "[(" and len(text) > 2:
        return _type_name(text[1:-1].split(";")[0])  # a slice or array: its element type
    return " ".join(words)


__all__ = ["Parsed", "parse"]
