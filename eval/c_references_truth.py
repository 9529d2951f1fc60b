"""C call sites resolved by linkage, against GCC's call graph (``-fcallgraph-info``: each call
the compiler emits, where it is written, and the function it calls).

    PYTHONPATH=src:eval python eval/c_references_truth.py DIR [DIR ...] [--sample 300] [--show 8]

Needs GCC (``gcc`` on the PATH, or ``CC``; 12.2 here). Each tracked ``.c`` file is compiled on
its own (``-O0``, ``-D_GNU_SOURCE``, every folder of the repository that holds a header, and
the folders above them, on the path of ``#include "..."``, those named ``include`` on that of
``#include <...>`` too); a file that does not compile alone (a platform's, one that needs a
configure step) gives no answers. Chosen and written down before the first run (none written
here; each the commit named, its tracked ``.c`` and ``.h`` files), and why:

- DaveGamble/cJSON a29814f: a JSON parser and printer in one file, its utilities in a second
  calling the first's API, tests on a vendored test framework (Unity: its macros call
  functions, a call a macro hides is not a site here).
- madler/zlib d201f04: compression: ``static`` helpers of the same name in several files
  (``zmemcpy``-like and ``local`` functions), an API wrapped by macros (``deflateInit`` is a
  macro for ``deflateInit_``), function pointers in a stream's state (``strm->zalloc``).
- lz4/lz4 d9c01a3d: a compressor library with many ``static`` inline helpers, force-inlined
  functions, its programs and examples calling the library.
- libuv/libuv 6179e7af8: an event loop: one API over two platforms (``unix/`` and ``win/``
  define the same functions; the Windows ones do not compile here), callbacks through
  handles' fields, many files calling each other's internal functions.

(antirez/sds 5347739 was the one the resolution was developed on; it is not scored.) The four
above were scored while the resolution changed (twice after their figures: a macro of the
name no longer hides the function; a function per platform, the caller's folder's). So three
more, written down after those changes and before their one run, held out:

- lua/lua 53b41d0c: an interpreter: the C API (``lua_*``) over internal modules (``luaH_``,
  ``luaV_``), ``static`` helpers, macros that call functions, the standalone interpreter and
  the library loader calling the API.
- facebook/zstd 2dddf0905: a compressor: ``lib/`` in folders (common, compress,
  decompress, dictBuilder, legacy), force-inlined ``static`` template functions in headers,
  ``programs/`` and ``tests/`` calling the library, ``contrib/`` and examples.
- wren-lang/wren 77aeb12a: a scripting language's virtual machine: a compiler, a core
  library, optional modules, a command-line program over ``libuv`` (not in the repository:
  those files do not compile here).

The sites are drawn as in ``eval/go_references_truth.py`` (seed 46, among those GCC's graph
holds). A call GCC ties to a function the translation unit defines is that definition; to one
it only declares, the definition with external linkage of that name among the compiled files
(none: the C library, or a file that did not compile: GCC is silent there, and a site resolved
there is counted apart); a call through a pointer is answered with no repository function. A
call whose written name is not the called function's (a macro that expands to a call of
another) is left out, and so is a pointer's call where the name is a function-like macro of
the repository's.
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

_NODE = re.compile(r'^node: \{ title: "([^"]+)" label: "([^"\\]+)\\n([^"]+):(\d+):(\d+)"( shape)?')
_EDGE = re.compile(r'^edge: \{ sourcename: "[^"]+" targetname: "([^"]+)" label: "(.+):(\d+):(\d+)"')
_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_BEFORE = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*)[ \t]*$")  # the name a C++ call's ( follows
# a C++ function's name in GCC's label (``int shop::Store::total() const``: ``total``)
_CPP_NAME = re.compile(r"(?<!operator )(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)(?:<[^()]*>)?\(")
CPP = (".cpp", ".cc", ".cxx")  # compiled as C++ (with ``CXX``, g++)
_MACRO = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)\(", re.MULTILINE)
INDIRECT = "__indirect_call"
_HEADERS = (".h", ".hh", ".hpp", ".hxx")
Where = tuple[str, int]


def _compile(root: Path, path: str, includes: list[str], out: Path, cc: str) -> list[str]:
    """The lines of GCC's call graph of one file ([] when it does not compile alone)."""
    target = out / "unit.o"
    standard = ["-std=c++17"] if path.endswith(CPP) else []
    done = subprocess.run(
        [cc, "-fcallgraph-info", "-O0", "-w", "-D_GNU_SOURCE", *standard, *includes, "-c",
         path, "-o", str(target)],
        cwd=root, capture_output=True, text=True,
    )  # fmt: skip
    graph = out / "unit.ci"
    if done.returncode != 0 or not graph.exists():
        return []
    lines = graph.read_text(errors="replace").splitlines()
    graph.unlink()
    return lines


def c_truth(
    root: Path, paths: list[str], cc: str | None = None, cxx: str | None = None
) -> dict[tuple[str, int, int], dict[str, Any]]:
    """(path, line, column) of each call GCC's graphs hold whose written name is the called
    function's (column: UTF-16 units) -> its answer. ``cc`` compiles the ``.c`` files, ``cxx``
    the C++ ones (default: ``CC`` and ``CXX``, else ``gcc`` and ``g++``)."""
    cc = cc or os.environ.get("CC") or "gcc"
    cxx = cxx or os.environ.get("CXX") or "g++"
    if shutil.which(cc) is None:
        raise OSError(f"no {cc} on the PATH")
    known = set(paths)
    headers = {posixpath.dirname(p) or "." for p in paths if p.endswith(_HEADERS)}
    for folder in list(headers):  # and the folders above them (``#include "shop/item.h"``)
        while "/" in folder:
            folder = posixpath.dirname(folder)
            headers.add(folder)
    # each for ``#include "x.h"`` only (``include/uv/errno.h`` must not stand for
    # ``<errno.h>``), an ``include`` folder for ``<x.h>`` too
    includes = [f"-iquote{h}" for h in sorted(headers)]
    includes += [f"-I{h}" for h in sorted(headers) if posixpath.basename(h) == "include"]
    edges: list[tuple[str, int, int, str, str, Where | None]] = []  # where, callee, def
    linked: dict[str, set[Where]] = defaultdict(set)  # external name -> its definitions
    with tempfile.TemporaryDirectory() as tmp:
        for path in (p for p in paths if p.endswith((".c", *CPP))):
            nodes: dict[str, tuple[str, Where | None]] = {}
            lines = _compile(root, path, includes, Path(tmp), cxx if path.endswith(CPP) else cc)
            for line in lines:
                if (node := _NODE.match(line)) is not None:
                    title, name, file, number = node.group(1, 2, 3, 4)
                    if "(" in name:  # C++: the name in the signature
                        cpp = _CPP_NAME.search(name)
                        name = cpp.group(1) if cpp is not None else ""
                    defined = node.group(6) is None and title != INDIRECT
                    at = (posixpath.normpath(file), int(number)) if defined else None
                    nodes[title] = (name, at)
                    if at is not None and ":" not in title:
                        linked[title].add(at)
            for line in lines:
                if (edge := _EDGE.match(line)) is not None:
                    title, file, number, column = edge.group(1, 2, 3, 4)
                    name, at = nodes.get(title, (title, None))
                    place = posixpath.normpath(file)
                    if place in known and not (title == INDIRECT and path.endswith(CPP)):
                        # (C++: a virtual method's call is indirect too: not known)
                        edges.append((place, int(number), int(column) - 1, title, name, at))
    texts = {p: (root / p).read_bytes() for p in {e[0] for e in edges}}
    macros = {m.decode() for p in known for m in _MACRO.findall(_read(root, p))}
    out: dict[tuple[str, int, int], dict[str, Any]] = {}
    for path, number, column, title, name, at in edges:
        lines = texts[path].split(b"\n")
        text = lines[number - 1] if number <= len(lines) else b""
        if text[column : column + 1] == b"(":  # C++ places a call at its (: the name before
            before = _BEFORE.search(text, 0, column)
            if before is None:
                continue
            column = before.start(1)
        written = _IDENT.match(text, column)
        word = written.group().decode() if written is not None else ""
        if title == INDIRECT:
            if not word or word in macros:
                continue
            defs: set[Where] = set()
        elif word != name:
            continue  # a macro's name where the call is written: not this site's callee
        else:  # declared only and defined by no file that compiled: silent (not known)
            defs = {at} if at is not None else linked.get(title, set())
        answered = title == INDIRECT or bool(defs)
        defs = {w for w in defs if w[0] in known}  # a library's (a template's instance): none
        utf16 = len(text[:column].decode("utf-8", "replace").encode("utf-16-le")) // 2
        answer = out.setdefault(
            (path, number, utf16),
            {"path": path, "line": number, "column": utf16, "name": word, "defs": []},
        )
        answer["answered"] = answer.get("answered", False) or answered
        answer["defs"] = sorted({*map(tuple, answer["defs"]), *defs})
    return out


def _read(root: Path, path: str) -> bytes:
    try:
        return (root / path).read_bytes()
    except OSError:
        return b""


def main(argv: list[str] | None = None) -> int:
    from oracle_truth import score

    description = __doc__.split("\n\n")[0] if __doc__ else ""
    return score(argv, description, ["*.c", "*.h"], "gcc", "GCC", c_truth)


if __name__ == "__main__":
    raise SystemExit(main())
