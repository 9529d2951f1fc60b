"""Python's suffixes are written once, in its spec (``lang/python.py``), and every reader agrees:
the index cuts ``.py``, ``.pyi`` and ``.pyw`` files at their definitions, the file AST tool
answers about them and refuses anything else with one line naming them, and Cython's ``.pyx``
(a dialect ``ast`` cannot read) is cut into windows while the file kinds read it as Python.
What a file holds is checked against Python's own ``ast`` reading of it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from codeagent import lang
from codeagent.index.chunking import chunk_file
from codeagent.rank.file_roles import path_kind
from codeagent.tools.ast_tool.errors import NotPythonError
from codeagent.tools.ast_tool.query import run_ast_query
from codeagent.tools.ast_tool.resolve import relative_path
from conftest import GitRepoFactory

SOURCE = "def area(side):\n    return side * side\n\n\nclass Square:\n    side = 1\n"
CYTHON = "cdef int area(int side):\n    return side * side\n"


def test_the_spec_is_the_one_list_of_suffixes() -> None:
    spec = lang.spec_for("pkg/mod.py")
    assert spec is not None
    assert spec.structure == lang.PYTHON_AST
    assert lang.suffixes_read_by(lang.PYTHON_AST) == spec.extensions == (".py", ".pyi", ".pyw")
    assert lang.language_for("pkg/mod.py") is None  # no tree-sitter grammar reads it
    assert lang.spec_for("pkg/mod.pyx") is None  # a dialect: no reader


@pytest.mark.parametrize("suffix", [".py", ".pyi", ".pyw"])
def test_each_suffix_is_chunked_and_answered_by_ast(git_repo: GitRepoFactory, suffix: str) -> None:
    truth = {
        n.name for n in ast.parse(SOURCE).body if isinstance(n, ast.FunctionDef | ast.ClassDef)
    }
    path = f"geo/shapes{suffix}"
    assert {c.symbol for c in chunk_file(path, SOURCE)} >= truth
    root: Path = git_repo({path: SOURCE})
    assert relative_path(root, path) == path
    assert [i.name for i in run_ast_query(root, path, "functions").items] == ["area"]


def test_cython_is_windows_and_refused_with_the_suffixes(git_repo: GitRepoFactory) -> None:
    with pytest.raises(SyntaxError):
        ast.parse(CYTHON)  # what makes it a dialect
    assert {c.kind for c in chunk_file("geo/fast.pyx", CYTHON)} == {"window"}
    root: Path = git_repo({"geo/fast.pyx": CYTHON})
    with pytest.raises(NotPythonError) as caught:
        relative_path(root, "geo/fast.pyx")
    assert str(caught.value) == "geo/fast.pyx is not a Python file (.py, .pyi, .pyw)"


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("pkg/fast.pyx", "code"),
        ("fixtures/fast.pyx", "code"),  # other families' conventions stay off Python's dialect
        ("dist/fast.pyx", "code"),
        ("pkg/test_fast.pyx", "tests"),
        ("pkg/shapes_test.py", "tests"),
        ("pkg/shapes_test.pyi", "code"),
        ("pkg/run.pyw", "code"),
    ],
)
def test_file_kinds_read_the_dialect_as_python(path: str, kind: str) -> None:
    assert path_kind(path) == kind
