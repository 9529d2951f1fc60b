"""The tests a Rust source file holds: its ``#[test]`` functions and its ``#[cfg(test)]``
modules.

Rust keeps a module's unit tests in the module's own file. A test repeats the words of the code
it exercises (``is_within_less_than`` for ``SizeFilter::is_within``, ``count_matches`` for the
printer's count), and it is short, so inside such a file it can score above the function it
tests; "how is a file's size compared against the size filter?" then cites the tests first. In
the other languages read here tests live in files of their own (``_test.go``, ``*.test.ts``,
``src/test/java``), which the file ranking already tells apart (:mod:`codeagent.rank.file_roles`).

A chunk is a test when its definition carries a test attribute before its ``fn`` (``#[test]``,
``#[tokio::test]``, ``#[rstest]``, ``#[test_case(..)]``, ``#[cfg(test)]``), or when it sits in a
module the same file marks ``#[cfg(test)]`` or names ``tests`` (its symbol's first part).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.records import Chunk
    from codeagent.store.store import IndexStore

SUFFIX = ".rs"
# an attribute line that makes the item after it a test (or test-only code)
_TEST_ATTRIBUTE = re.compile(
    r"^[ \t]*#\[(?:cfg\(test\)|(?:[A-Za-z_][\w:]*::)?test\b|rstest\b|test_case\b)", re.M
)
_ITEM = re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:async[ \t]+)?(?:fn|mod)[ \t]", re.M)
_TEST_MODULES = frozenset({"tests", "test"})
# per index, per file: its tests (an index's chunks do not change; an edit makes another index)
_FOUND: weakref.WeakKeyDictionary[IndexStore, dict[str, list[int]]] = weakref.WeakKeyDictionary()


def tests_of(store: IndexStore, path: str, ids: Sequence[int]) -> list[int]:
    """:func:`rust_tests` of the file ``path`` of ``store`` (its chunk ``ids``), remembered."""
    found = _FOUND.get(store)
    if found is None:
        found = _FOUND[store] = {}
    tests = found.get(path)
    if tests is None:
        tests = found[path] = rust_tests(store.chunks, ids)
    return tests


def rust_tests(chunks: Sequence[Chunk], ids: Sequence[int]) -> list[int]:
    """Of ``ids`` (the chunks of one ``.rs`` file, as :attr:`IndexStore.chunks` indexes
    them), the ones that are tests."""
    marked = {
        chunks[i].symbol
        for i in ids
        if chunks[i].kind == "mod" and chunks[i].symbol and _is_marked(chunks[i].text)
    }
    found: list[int] = []
    for i in ids:
        chunk = chunks[i]
        if _in_test_module(chunk, marked) or (chunk.kind != "mod" and _is_marked(chunk.text)):
            found.append(i)
    return found


def _in_test_module(chunk: Chunk, marked: set[str]) -> bool:
    """Whether ``chunk`` is (a part of) a module marked ``#[cfg(test)]`` (``marked``: their
    dotted symbols) or named ``tests``, or lies inside one: the modules its symbol's parts name
    (all of them for a module's own chunk, all but its own name for any other)."""
    parts = chunk.symbol.split(".") if chunk.symbol else []
    modules = len(parts) if chunk.kind == "mod" else len(parts) - 1
    return any(
        parts[n - 1] in _TEST_MODULES or ".".join(parts[:n]) in marked
        for n in range(1, modules + 1)
    )


def _is_marked(text: str) -> bool:
    """Whether the lead of the item ``text`` (its doc comment and the attributes above its
    first ``fn`` or ``mod`` line) holds a test attribute."""
    if "test" not in text:
        return False
    item = _ITEM.search(text)
    return item is not None and _TEST_ATTRIBUTE.search(text, 0, item.start()) is not None
