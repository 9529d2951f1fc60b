"""The structural operations, one row each: the one table the file AST tool, the symbol tool
and MCP read.

A row says what the operation answers (the router prompt lists it), whether it names a
symbol, and how the symbol graph answers it:

- ``in_file``: it is asked of one named file, of any language the language layer reads (the
  file AST tool's operations: "list the classes in X", "what does X import"). A Python file
  is answered exactly from its syntax tree; a file of another language from the symbol graph,
  which its ``LanguageSpec`` extractor filled at index time, by ``graph`` (the graph's
  operation) and ``listing`` (for an outline: the kind of definitions listed).
- ``wide``: the graph's operation when the question names no file ("where is X defined?",
  "who calls X?", "methods of class X"); the symbol tool answers it for the whole repository.

An MCP tool that answers one of these operations names its row (``McpTool.operation``: the
file outline, a name's definitions, its references), so what MCP offers and what the router
offers are the same operations.

The graph-only operations (``callers``, ``subclasses``, ``importers``, ``overrides``) are not
asked of one file: which files import a named file is a question about the rest of the repository.
"""

from __future__ import annotations

from dataclasses import dataclass

Listing = str  # "" (everything the file defines), "functions", "classes" or "methods"


@dataclass(frozen=True)
class StructuralOperation:
    name: str
    help: str  # what it answers; ``symbol`` is what it names
    needs_symbol: bool = False
    in_file: bool = True  # asked of one named file (the file AST tool's operation)
    graph: str | None = "outline"  # the graph's operation for one file of another language
    listing: Listing = ""  # graph == "outline": the kind of definitions listed
    wide: str | None = None  # the graph's operation when no file is named


OPERATIONS: tuple[StructuralOperation, ...] = (
    StructuralOperation(
        "functions", "the top-level functions of the file", listing="functions"
    ),
    StructuralOperation(
        "classes", "the classes of the file (with their bases and methods)", listing="classes"
    ),
    StructuralOperation(
        "methods", "the methods of one class (`symbol` = the class)",
        needs_symbol=True, graph="methods", wide="methods",
    ),
    StructuralOperation("imports", "what the file imports", graph="imports"),
    StructuralOperation("variables", "module-level variables and constants"),
    StructuralOperation("decorators", "the decorators used in the file"),
    StructuralOperation(
        "calls", "where a name is called in the file (`symbol` = the called name)",
        needs_symbol=True, wide="callers",
    ),
    StructuralOperation(
        "definition",
        "the definition, signature or docstring of one symbol (`symbol` = its name)",
        needs_symbol=True, graph="definition", wide="definition",
    ),
    StructuralOperation("outline", "an outline of everything the file defines"),
    StructuralOperation(
        "callers", "who calls a name across the repository", needs_symbol=True,
        in_file=False, graph="callers",
    ),
    StructuralOperation(
        "subclasses", "the subclasses (implementations) of a type", needs_symbol=True,
        in_file=False, graph="subclasses",
    ),
    StructuralOperation(
        "importers", "the files that import a module or a named file", needs_symbol=True,
        in_file=False, graph="importers",
    ),
    StructuralOperation(
        "overrides", "the methods that override a method in subclasses (`symbol` = "
        "Class.method, or the method's name)", needs_symbol=True, in_file=False,
        graph="overrides",
    ),
)  # fmt: skip
BY_NAME: dict[str, StructuralOperation] = {op.name: op for op in OPERATIONS}
IN_FILE: tuple[StructuralOperation, ...] = tuple(op for op in OPERATIONS if op.in_file)
# The file operations that, with no file named, the symbol graph answers for the repository.
WIDE: dict[str, str] = {op.name: op.wide for op in OPERATIONS if op.wide}


def graph_for(operation: str, symbol: str | None) -> tuple[str, Listing]:
    """How the symbol graph answers file ``operation`` about one file of another language:
    (its operation, the outline's listing). ``methods`` with no class named lists the
    file's methods."""
    row = BY_NAME[operation]
    if row.name == "methods" and not symbol:
        return "outline", "methods"
    if not row.in_file or row.graph is None:
        raise ValueError(f"{operation} is not asked of one file")
    return row.graph, row.listing
