"""Questions about one named file of another language than Python (``what does src/server.ts
import?``, ``outline of geo/shapes.go``, ``methods of Router in src/router.ts``): the file AST
tool takes them as it takes a Python file's, with the same phrasings and operations, and the
symbol graph answers them (the language's ``LanguageSpec`` extractor filled it at index
time), each operation as the one table says (:mod:`codeagent.tools.operations`).

Which files import the named file is not a question about that file: the symbol tool answers
it (:func:`asks_for_importers`). Python files never match here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from codeagent import lang
from codeagent.tools.ast_tool.errors import AstToolError
from codeagent.tools.ast_tool.mentions import lang_file_tokens, without_mentions
from codeagent.tools.ast_tool.models import AstArgs
from codeagent.tools.operations import graph_for

if TYPE_CHECKING:
    from codeagent.tools.base import ToolContext
    from codeagent.tools.symbol_tool.result import SymbolToolResult

PLACEHOLDER = "thefile"  # the named file's mentions, replaced in the text the rules read


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


def lang_file(root: Path, name: str) -> str | None:
    """The repository-relative path of the file of another language than Python that
    ``name`` names (exact path, then unique suffix), or None."""
    from codeagent.tools.ast_tool.resolve import relative_path

    try:
        relative_path(root, name)
    except AstToolError as exc:  # NotPythonError carries the resolved path
        if exc.reason == "not_python" and exc.path and lang.language_for(exc.path):
            return exc.path
    return None


def named_lang_file(question: str, root: Path) -> tuple[str, str] | None:
    """(the one file of another language the question names, the question with its mentions
    replaced by :data:`PLACEHOLDER`), or None when it names none or several."""
    tokens = lang_file_tokens(question)
    paths = {p for p in (lang_file(root, t) for t in tokens) if p is not None}
    if len(paths) != 1:
        return None
    listing = without_mentions(" ".join(question.split()), tokens)
    for token in tokens:
        listing = listing.replace(token, f" {PLACEHOLDER} ")
    return paths.pop(), listing


def asks_for_importers(listing: str) -> bool:
    """The question (its file named :data:`PLACEHOLDER`) asks which files import the file."""
    return bool(_IMPORTERS.search(" ".join(listing.split())))


def match_lang_file(question: str, root: Path) -> AstArgs | None:
    """The file operation a question about one named file of the language layer asks, or
    None (no such file named, its importers asked, or nothing structural asked)."""
    from codeagent.tools.ast_tool.rules import (  # the file AST tool's phrasings
        _categories,
        _operation,
        type_kind,
    )

    named = named_lang_file(question, root)
    if named is None or asks_for_importers(named[1]):
        return None
    path, listing = named
    tokens = lang_file_tokens(question)
    # the placeholder is no name: "methods in thefile" asks for the file's methods
    operation, symbol = _operation(listing, {*tokens, PLACEHOLDER}, listing)
    if operation is None:
        return None
    if operation in ("definition", "methods") and symbol:
        # the name defined in the file named, when it is defined there (several may share it)
        return AstArgs(file=path, operation=operation, symbol=symbol)
    if operation == "imports":
        return AstArgs(file=path, operation="imports")
    asked = _categories(listing)  # "methods" here, where the file AST tool reads "classes"
    kinds = [k for k in asked if k in ("functions", "classes", "methods")]
    wanted = kinds[0] if len(kinds) == 1 and operation != "outline" else "outline"
    kind = type_kind(listing) if wanted == "classes" else None
    return AstArgs.model_validate({"file": path, "operation": wanted, "kind": kind})


def answer_lang_file(args: AstArgs, ctx: ToolContext) -> SymbolToolResult:
    """``args`` about a file of another language, answered from the index's symbol graph."""
    from codeagent.tools.symbol_tool.names import SymbolToolError
    from codeagent.tools.symbol_tool.query import run_symbol_query
    from codeagent.tools.symbol_tool.result import SymbolArgs, SymbolToolResult

    graph = ctx.symbols
    if graph is None:
        raise SymbolToolError("the index carries no symbol graph")
    path, operation = args.file or "", args.operation or "outline"
    asked, listing = graph_for(operation, args.symbol)
    if asked in ("definition", "methods"):  # the name, defined in the file named
        query = SymbolArgs.model_validate(
            {"operation": asked, "name": args.symbol or "", "file": path}
        )
    else:
        only = (args.kind or "") if listing == "classes" else ""
        query = SymbolArgs.model_validate(
            {"operation": asked, "name": path, "listing": listing, "only": only}
        )
    return SymbolToolResult(run_symbol_query(graph, query, ctx.repo_root))
