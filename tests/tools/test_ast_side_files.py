"""A file name several files share resolves to the one that is the project's source, by the
same file-kind rule the ranking uses (``codeagent.rank.file_roles.path_kind``)."""

from __future__ import annotations

import pytest

from codeagent.rank.file_roles import path_kind
from codeagent.tools.ast_tool.mentions import resolve_python_file
from conftest import GitRepoFactory

SIDE = [
    "tests/models.py",
    "test/unit/models.py",
    "docs/examples/models.py",
    "examples/models.py",
    "benchmarks/models.py",
    "vendor/lib/models.py",
    "pkg/tests/models.py",
]


@pytest.mark.parametrize("side", SIDE)
def test_the_source_file_wins_over_a_side_file(git_repo: GitRepoFactory, side: str) -> None:
    root = git_repo({"shop/models.py": "class A: ...\n", side: "class B: ...\n"})
    assert resolve_python_file(root, "models.py") == ("shop/models.py", "")
    assert path_kind(side) != "code"


def test_two_source_files_stay_ambiguous(git_repo: GitRepoFactory) -> None:
    root = git_repo({"shop/models.py": "", "billing/models.py": "", "tests/models.py": ""})
    path, why = resolve_python_file(root, "models.py")
    assert path is None
    assert "shop/models.py" in why
    assert "billing/models.py" in why
