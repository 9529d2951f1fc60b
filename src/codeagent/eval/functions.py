"""Function-level scoring: does a cited chunk overlap a function the gold patch edits?

A SWE-bench item's ``expected_spans`` names, per file, the code spans its gold patch edits
(``{"astropy/modeling/separable.py": ["_cstack"], "…/table.py": ["Table._convert_data_to_col"]}``).
:func:`gold_functions` reads each named function or method at the item's commit with Python's
own ``ast`` (not the project's chunker), decorators included: ``(path, first line, last
line)``. A span that names a class, a module-level name or nothing ``ast`` finds is not a
function and is left out; an item with no function left is not scored at this level.

``fn_hit@k`` is 1.0 when one of the first ``k`` cited chunks (``(path, start, end)``, in the
order an answer cites them) shares a line with one of those functions. The product's chunks are
the RAG tool's sources; the plain baseline's are its best BM25 chunks
(:meth:`codeagent.eval.baseline.BaselineRanker.rank_chunks`).

A mined commit (``eval/mine_commits.py``, in any language) is scored the same way against the
lines the commit edits at its parent, read from git (:func:`edited_lines`): ``edit@k``.
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

Span = tuple[str, int, int]  # path, first line, last line (1-based, inclusive)
K_VALUES = (1, 3, 5, 10)


def functions_in(tree: ast.Module) -> dict[str, tuple[int, int]]:
    """Every function and method of a module by qualified name (``Class.method``,
    ``outer.inner``): its first line (decorators included) and last line."""
    found: dict[str, tuple[int, int]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    first = min([d.lineno for d in child.decorator_list] + [child.lineno])
                    found.setdefault(name, (first, child.end_lineno or child.lineno))
                visit(child, name + ".")
            elif isinstance(child, ast.If | ast.Try | ast.With):  # defs under if/try at the top
                visit(child, prefix)

    visit(tree, "")
    return found


def file_functions(root: Path, path: str) -> dict[str, tuple[int, int]]:
    """:func:`functions_in` of the Python file ``path`` under ``root``; empty for a file that
    is not Python, is missing or does not parse."""
    target = root / path
    if not path.endswith(".py") or not target.is_file():
        return {}
    try:
        return functions_in(ast.parse(target.read_bytes(), filename=path))
    except (SyntaxError, ValueError):
        return {}


def gold_functions(root: Path, spans: Mapping[str, Sequence[str]] | None) -> list[Span]:
    """The functions ``spans`` names, as ``(path, first, last)`` read at ``root``."""
    found: list[Span] = []
    for path, names in (spans or {}).items():
        functions = file_functions(root, path)
        for name in names:
            if name in functions:
                first, last = functions[name]
                found.append((path, first, last))
    return found


def overlaps(chunk: Span, function: Span) -> bool:
    return chunk[0] == function[0] and chunk[1] <= function[2] and function[1] <= chunk[2]


def function_scores(cited: Sequence[Span], gold: Iterable[Span]) -> dict[str, float]:
    """``fn_hit@k`` for every k of :data:`K_VALUES`; empty when there is no gold function."""
    return hits_at(cited, gold, "fn_hit")


def edit_scores(cited: Sequence[Span], edited: Iterable[Span]) -> dict[str, float]:
    """``edit@k`` for every k of :data:`K_VALUES` (one of the first k cited chunks shares a
    line with a line the commit edits: :func:`edited_lines`); empty when there is none."""
    return hits_at(cited, edited, "edit")


def hits_at(
    cited: Sequence[Span], gold: Iterable[Span], name: str, ks: Iterable[int] = K_VALUES
) -> dict[str, float]:
    """``NAME@k`` for every k of ``ks``: 1.0 when one of the first k ``cited`` chunks
    overlaps a span of ``gold``; empty when ``gold`` is."""
    wanted = list(gold)
    if not wanted:
        return {}
    first = next(
        (i for i, chunk in enumerate(cited) if any(overlaps(chunk, f) for f in wanted)), None
    )
    return {f"{name}@{k}": 1.0 if first is not None and first < k else 0.0 for k in ks}


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.MULTILINE)


def edited_lines(mirror: Path, parent: str, commit: str, files: Iterable[str]) -> list[Span]:
    """The lines of ``parent`` that ``commit`` edits in ``files``, as ``(path, first, last)``,
    from git's ``diff -U0`` in the bare ``mirror``: a hunk that removes or rewrites lines is
    those lines; one that only adds lines is the two lines around the place it adds them."""
    spans: list[Span] = []
    for path in files:
        diff = subprocess.run(
            ["git", "--git-dir", str(mirror), "diff", "-U0", parent, commit, "--", path],
            capture_output=True,
            text=True,
            errors="replace",
            check=True,
        ).stdout
        for match in _HUNK.finditer(diff):
            start, count = int(match.group(1)), int(match.group(2) or "1")
            if count:
                spans.append((path, start, start + count - 1))
            else:  # lines added after line ``start`` of the parent
                spans.append((path, max(start, 1), start + 1))
    return spans
