"""Questions about one named file of another language (``what does src/server.ts import?``,
``which files import src/context.ts?``, ``outline of geo/shapes.go``, ``methods of Router in
src/router.ts``): the symbol graph answers them, since the file AST tool reads Python only.
Python files never match here."""

from __future__ import annotations

import re
from pathlib import Path

from codeagent import lang
from codeagent.pathtext import file_token
from codeagent.tools.symbol_tool.result import SymbolArgs


def _file_token() -> re.Pattern[str]:
    return file_token(sorted({e.lstrip(".") for e in lang.suffixes_read_by(lang.TREE_SITTER)}))


# "which files import src/context.ts?" (the named file's importers, not its own imports)
_IMPORTERS = re.compile(
    r"\b(?:(?:which|what)\s+(?:other\s+)?(?:files|modules|code|sources|packages)\s+"
    r"(?:imports?|includes?|requires?|uses?|depends?\s+on)\s+thefile"
    r"|who\s+(?:imports|includes|requires|uses|depends\s+on)\s+thefile"
    r"|(?:importers|dependents|includers)\s+of\s+thefile"
    r"|(?:where|by\s+what|by\s+which\s+files)\s+is\s+thefile\s+(?:imported|included|required)"
    r"|thefile\s+is\s+(?:imported|included|required)\s+(?:by|where|from))",
    re.IGNORECASE,
)


def match_lang_file(question: str, root: Path) -> SymbolArgs | None:
    """The symbol question a question about one named file of the language layer asks, or
    None (no such file named, or nothing structural asked)."""
    from codeagent.tools.ast_tool.errors import AstToolError
    from codeagent.tools.ast_tool.mentions import without_mentions
    from codeagent.tools.ast_tool.resolve import relative_path
    from codeagent.tools.ast_tool.rules import (  # the file AST tool's phrasings
        _categories,
        _operation,
    )

    tokens = [m.group(1) for m in _file_token().finditer(question)]
    paths = []
    for token in tokens:
        try:
            relative_path(root, token)
        except AstToolError as exc:  # NotPythonError carries the resolved path
            if exc.reason == "not_python" and exc.path and lang.language_for(exc.path):
                paths.append(exc.path)
    if len(set(paths)) != 1:
        return None
    path = paths[0]
    text = " ".join(question.split())
    listing = without_mentions(text, tokens)
    for token in tokens:
        listing = listing.replace(token, " thefile ")
    if _IMPORTERS.search(" ".join(listing.split())):
        return SymbolArgs(operation="importers", name=path)
    # the placeholder is no name: "methods in thefile" asks for the file's methods
    operation, symbol = _operation(listing, {*tokens, "thefile"}, listing)
    if operation is None:
        return None
    if operation in ("definition", "methods") and symbol:
        # the name defined in the file named, when it is defined there (several may share it)
        return SymbolArgs(operation="definition" if operation == "definition" else "methods",
                          name=symbol, file=path)  # fmt: skip
    if operation == "imports":
        return SymbolArgs(operation="imports", name=path)
    asked = _categories(listing)  # "methods" here, where the file AST tool reads "classes"
    kinds = [k for k in asked if k in ("functions", "classes", "methods")]
    wanted = kinds[0] if len(kinds) == 1 and operation != "outline" else ""
    return SymbolArgs(operation="outline", name=path, listing=wanted)
