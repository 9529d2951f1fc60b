"""Structural answers about one named file of a repository: a Python file's exact, from
Python's ``ast``; a file of another language the layer reads, from the symbol graph
(``lang_files.py``, by the one table of structural operations, ``tools/operations.py``).

    run_ast_query(root, "requests.models", "methods", "Session").render()

Operations (:data:`OPERATIONS`): functions, classes, methods (symbol: a class), imports,
variables, decorators, calls (symbol: a called name), definition (symbol: a qualified or
unique name), outline. Failures raise :class:`AstToolError` subclasses with a ``reason``.
Only the standard library and pydantic are imported: the AST route starts fast.
"""

from __future__ import annotations

from codeagent.tools.ast_tool.errors import (
    AmbiguousFileError,
    AmbiguousSymbolError,
    AstToolError,
    BinaryFileError,
    FileNotFoundInRepoError,
    InvalidQueryError,
    NotAFileError,
    NotPythonError,
    OutsideRepoError,
    PythonSyntaxError,
    SymbolNotFoundError,
)
from codeagent.tools.ast_tool.models import OPERATIONS, Operation
from codeagent.tools.ast_tool.query import run_ast_query
from codeagent.tools.ast_tool.resolve import resolve_file
from codeagent.tools.ast_tool.result import AstResult

__all__ = [
    "OPERATIONS",
    "AmbiguousFileError",
    "AmbiguousSymbolError",
    "AstResult",
    "AstToolError",
    "BinaryFileError",
    "FileNotFoundInRepoError",
    "InvalidQueryError",
    "NotAFileError",
    "NotPythonError",
    "Operation",
    "OutsideRepoError",
    "PythonSyntaxError",
    "SymbolNotFoundError",
    "resolve_file",
    "run_ast_query",
]
