"""One short text per file, embedded as a file-level vector beside the chunk vectors.

A question about a concept ("how are plugins discovered?") often matches what a *file* is
about better than any single chunk of it: the file's path, the first paragraph of its module
docstring, and the names (with the first docstring line) of the classes and functions it
defines, read from the repository symbol graph. The embedder reads the first
:data:`~codeagent.index.embedders.DOC_TOKENS` tokens, so the most telling parts come first.

Files are in the order they first appear among the chunks (:func:`file_order`), which is how
the stored vectors line up with the files without a list of their own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.index.symbols import SymbolGraph
    from codeagent.index.types import Chunk

MAX_DOCSTRING = 300  # characters of the module docstring's first paragraph
_DOCSTRING = re.compile(r"(?s)^\s*(?:[rubRUB]{0,2})(\"\"\"|''')(.*?)\1")


def file_order(chunks: Sequence[Chunk]) -> list[str]:
    """The files of ``chunks`` in the order they first appear."""
    return list(dict.fromkeys(chunk.path for chunk in chunks))


def module_docstring(text: str) -> str:
    """The first paragraph of the docstring that opens ``text`` (a module header chunk)."""
    found = _DOCSTRING.search(text)
    if found is None:
        return ""
    return found.group(2).strip().split("\n\n")[0].replace("\n", " ")[:MAX_DOCSTRING]


def file_summaries(chunks: Sequence[Chunk], graph: SymbolGraph | None) -> list[str]:
    """One text per file of :func:`file_order`: path, module docstring, what it defines."""
    docs: dict[str, str] = {}
    for chunk in chunks:
        if chunk.kind == "module" and chunk.path not in docs:
            docs[chunk.path] = module_docstring(chunk.text)
    files = graph.files if graph is not None else {}
    texts = []
    for path in file_order(chunks):
        parts = [path]
        if docs.get(path):
            parts.append(docs[path])
        record = files.get(path)
        if record:
            methods = []
            for row in record["d"]:  # [qualname, kind, line, start, end, signature, doc, bases]
                qualname, kind, doc = row[0], row[1], row[6]
                if "." in qualname:
                    methods.append(qualname.rsplit(".", 1)[1])
                    continue
                parts.append(f"{kind} {qualname}: {doc}" if doc else f"{kind} {qualname}")
            if methods:
                parts.append("methods: " + ", ".join(methods))
        texts.append("\n".join(parts))
    return texts
