"""Which Python file a question names: path tokens, dotted module names and "module X"
phrases, resolved inside the repository (a name several files share resolves to the one
outside tests, docs, examples, configuration and vendored code when exactly one is)."""

from __future__ import annotations

import re
from pathlib import Path

from codeagent.lang import PYTHON_AST, TREE_SITTER, suffixes_read_by
from codeagent.pathtext import file_token, path_pattern
from codeagent.rank.file_roles import path_kind
from codeagent.tokens import QUESTION_STOPWORDS
from codeagent.tools.ast_tool.errors import (
    AmbiguousFileError,
    AstToolError,
    FileNotFoundInRepoError,
)
from codeagent.tools.ast_tool.resolve import resolve_file

_I = re.IGNORECASE

_PATH_TOKEN = re.compile(
    path_pattern("pyi?", lead=r"(?:\.{0,2}/)?", quoted=True, after=r"(?![\w/])")
)
_DOTTED = re.compile(r"(?<![\w./-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?![\w/(])")
_MODULE_WORD = re.compile(
    r"\b(?:module|package|file)\s+`?([A-Za-z_][\w.]*)`?|`?\b([A-Za-z_][\w.]*)`?\s+(?:module|package)\b",
    _I,
)


def file_mentions(question: str) -> list[str]:
    """Names in the question that could name a Python file, most explicit first."""
    found: list[str] = [m.group(1) for m in _PATH_TOKEN.finditer(question)]
    found += [
        m.group(1)
        for m in _DOTTED.finditer(question)
        if not m.group(1).endswith(suffixes_read_by(PYTHON_AST))
    ]
    for m in _MODULE_WORD.finditer(question):
        name = m.group(1) or m.group(2)
        if name and name.lower() not in QUESTION_STOPWORDS:
            found.append(name)
    unique: list[str] = []
    for name in found:
        name = name.strip("`'\".,;:")
        if name and name not in unique:
            unique.append(name)
    return unique[:6]


def lang_file_tokens(question: str) -> list[str]:
    """What the question writes as a file of the language layer (``src/server.go``)."""
    token = file_token(sorted({e.lstrip(".") for e in suffixes_read_by(TREE_SITTER)}))
    return [m.group(1) for m in token.finditer(question)]


def named_files(question: str) -> list[str]:
    """The mentions written as a file (``x.py``, ``pkg/x``), not as a module name."""
    return [
        m for m in file_mentions(question) if m.endswith(suffixes_read_by(PYTHON_AST)) or "/" in m
    ]


def is_side_file(path: str) -> bool:
    """A test, documentation, example, configuration or vendored file: not the project's
    source (:func:`codeagent.rank.file_roles.path_kind`)."""
    return path_kind(path) != "code"


def resolve_python_file(root: Path, name: str) -> tuple[str | None, str]:
    """The repository-relative path of the Python file ``name`` names, or None and why.

    A name several files share resolves to the one outside tests/docs/examples when exactly
    one is; otherwise the reason lists the candidates.
    """
    try:
        path = resolve_file(root, name)
    except AmbiguousFileError as exc:
        source = [c for c in exc.candidates if not is_side_file(c)]
        if len(source) == 1:
            return source[0], ""
        return None, str(exc)
    except AstToolError as exc:
        return None, str(exc)
    return path.relative_to(root.resolve()).as_posix(), ""


def find_file(question: str, root: Path) -> tuple[str | None, list[str], str]:
    """(resolved file, the mentions it came from, why not) for the question's file mention.

    When nothing resolves, a dotted name may be a module followed by one of its symbols
    (``email.utils.parseaddr``): its longest prefix that resolves is taken, when that file
    defines the symbol. A name it only imports (``pkg.Auth`` re-exported by ``from ._auth
    import *`` in ``pkg/__init__.py``) names no file: the symbol graph follows the import.
    """
    rel, names, why = _find_file(file_mentions(question), root)
    if rel is None and not names:
        for match in _DOTTED.finditer(question):
            parts = match.group(1).split(".")
            for end in range(len(parts) - 1, 0, -1):
                prefix = ".".join(parts[:end])
                found, _why = resolve_python_file(root, prefix)
                if found is not None:
                    if not _only_imports(root / found, parts[end]):
                        return found, [prefix], ""
                    break
    return rel, names, why


def _only_imports(path: Path, name: str) -> bool:
    """Whether the module at ``path`` binds ``name`` at its top level by an import (or a star
    import) and never defines it there; False when it cannot be read or parsed."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return False
    imported = False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return False
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return False
        elif isinstance(node, ast.ImportFrom | ast.Import):
            bound = [a.asname or a.name.split(".")[0] for a in node.names]
            imported = imported or name in bound or "*" in bound
    return imported


def _find_file(mentions: list[str], root: Path) -> tuple[str | None, list[str], str]:
    resolved: dict[str, list[str]] = {}
    failures: list[str] = []
    for name in mentions:
        rel, why = resolve_python_file(root, name)
        if rel is None:
            if name.endswith(suffixes_read_by(PYTHON_AST)) or "/" in name:
                failures.append(why)
            continue
        resolved.setdefault(rel, []).append(name)
    if len(resolved) == 1:
        rel, names = next(iter(resolved.items()))
        return rel, names, ""
    if len(resolved) > 1:
        return None, [], "the question names several Python files: " + ", ".join(resolved)
    return None, [], failures[0] if failures else "the question names no Python file"


def without_mentions(text: str, mentions: list[str]) -> str:
    """``text`` with every file path and the given file mentions replaced by a neutral word,
    so the words of a file name (``decorators.py``) are not read as what the question asks."""
    text = _PATH_TOKEN.sub(" thefile ", text)
    for name in sorted(mentions, key=len, reverse=True):
        text = re.sub(rf"(?<![\w./-]){re.escape(name)}(?![\w/]|\.\w)", " thefile ", text)
    return text


def file_missing(root: Path, name: str) -> bool:
    """``name`` names a file the repository does not have."""
    try:
        resolve_file(root, name)
    except FileNotFoundInRepoError:
        return True
    except AstToolError:
        return False
    return False


def file_candidates(root: Path, name: str) -> list[str]:
    """The files an ambiguous name matches when no single one is outside tests/docs/examples
    (empty otherwise)."""
    try:
        resolve_file(root, name)
    except AmbiguousFileError as exc:
        if len([c for c in exc.candidates if not is_side_file(c)]) == 1:
            return []
        return list(exc.candidates)
    except AstToolError:
        return []
    return []
