"""Typed failures of the AST tool; the agent falls back to RAG on any of them.

AstToolError(ToolError)            .reason is a short code
├── FileNotFoundInRepoError        file_not_found
├── AmbiguousFileError             ambiguous_file   (.candidates)
├── OutsideRepoError               outside_repo
├── NotAFileError                  not_a_file
├── NotPythonError                 not_python
├── BinaryFileError                binary_file
├── UnreadableFileError            unreadable       (no permission, vanished, I/O error)
├── PythonSyntaxError              syntax_error     (.line)
├── SymbolNotFoundError            symbol_not_found (.close_matches)
│   └── AmbiguousSymbolError       ambiguous_symbol (.close_matches: the candidates)
└── InvalidQueryError              invalid_query    (unknown operation, missing symbol)
"""

from __future__ import annotations

from codeagent.errors import ToolError


class AstToolError(ToolError):
    """Base of every AST tool failure; ``reason`` is a stable short code."""

    reason: str = "ast_error"

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class FileNotFoundInRepoError(AstToolError):
    reason = "file_not_found"


class AmbiguousFileError(AstToolError):
    reason = "ambiguous_file"

    def __init__(self, message: str, *, candidates: list[str]) -> None:
        super().__init__(message)
        self.candidates = candidates


class OutsideRepoError(AstToolError):
    reason = "outside_repo"


class NotAFileError(AstToolError):
    reason = "not_a_file"


class NotPythonError(AstToolError):
    reason = "not_python"


class BinaryFileError(AstToolError):
    reason = "binary_file"


class UnreadableFileError(AstToolError):
    reason = "unreadable"


class PythonSyntaxError(AstToolError):
    reason = "syntax_error"

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message, path=path)
        self.line = line


class SymbolNotFoundError(AstToolError):
    reason = "symbol_not_found"

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        symbol: str = "",
        close_matches: list[str] | None = None,
    ) -> None:
        super().__init__(message, path=path)
        self.symbol = symbol
        self.close_matches = close_matches or []


class AmbiguousSymbolError(SymbolNotFoundError):
    """A bare name that several definitions share; ``close_matches`` lists their qualified names."""

    reason = "ambiguous_symbol"


class InvalidQueryError(AstToolError):
    reason = "invalid_query"
