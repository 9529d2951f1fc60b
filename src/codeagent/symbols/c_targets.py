"""A C call's target (a name, as :mod:`codeagent.lang.c_calls` writes it) resolved to the
repository function it calls, as the program is linked.

    c_target(graph, "src/a.c", "helper")   # ("src/a.c.helper", False): the file's own
    c_target(graph, "src/a.c", "shared")   # ("src/b.c.shared", False): the one with linkage

The file's own function of the name first (a ``static`` one included); else the one function
of the name the repository's C files define with external linkage (not ``static``), or, of
several (a function per platform, built one at a time: ``unix/core.c``, ``win/core.c``), the
one in the caller's folder; else, when there is none, the one a header defines ``static`` (an
inline helper its includers each get), or a file the calling one includes (``#include
"lz4.c"``). Two candidates left or none (the C library, a function a macro defines) leave the
call by name. Without a preprocessor, a macro of the name that is defined where the call is
(``#define inflateEnd z_inflateEnd`` under a prefix option) is not seen: the function wins.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from codeagent.lang import languages_where

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy
    from codeagent.symbols.types import Definition

Target = tuple[str, bool]
_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".inl")


def c_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    """The function ``written`` names where the file at ``path`` calls it, or None."""
    family = languages_where("linked_functions")
    functions = [
        d
        for d in graph._by_name.get(written, ())
        if d.kind == "function" and d.qualname == written and graph.files[d.path].get("l") in family
    ]
    own = [d for d in functions if d.path == path]
    if own:
        return (own[0].full_name, False)
    linked = {d.full_name: d.path for d in functions if not declared_static(d)}
    if len(linked) > 1:  # one per platform: the one of the caller's folder, if one is
        folder = posixpath.dirname(path)
        mine = [n for n, p in linked.items() if posixpath.dirname(p) == folder]
        return (mine[0], False) if len(mine) == 1 else None
    if not linked:  # a static function of a header, or of a file this one includes
        included = {posixpath.normpath(row[1]) for row in graph.files[path].get("i", ())}
        linked = {
            d.full_name: d.path
            for d in functions
            if d.path.endswith(_HEADERS) or any(_ends(d.path, i) for i in included)
        }
    return (next(iter(linked)), False) if len(linked) == 1 else None


def declared_static(d: Definition) -> bool:
    """Whether the function is declared ``static`` (its signature's words before the name)."""
    return "static" in d.signature.partition("(")[0].split()


def _ends(path: str, included: str) -> bool:
    return path == included or path.endswith(f"/{included}")
