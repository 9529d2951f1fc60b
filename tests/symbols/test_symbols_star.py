"""The symbol graph follows ``from ._x import *`` re-exports (with ``__all__`` and without),
and finds subclasses written through the package name and classes defined in functions.

Truth from Python itself: the package is imported in a subprocess, names are looked up on
it and ``__subclasses__()`` is called (after calling the functions that define classes).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from conftest import write_files

FILES = {
    "pkg/__init__.py": (
        '"""Re-exports its private modules."""\nfrom ._auth import *\nfrom ._models import *\n'
    ),
    # with __all__: only the names listed are re-exported
    "pkg/_auth.py": (
        '__all__ = ["Auth", "BasicAuth"]\n\n\n'
        "class Auth:\n    def flow(self, request):\n        return request\n\n\n"
        "class BasicAuth(Auth):\n    pass\n\n\n"
        "class _Hidden(Auth):\n    pass\n\n\n"
        "class NotExported:\n    pass\n"
    ),
    # without __all__: every public name, imported ones included
    "pkg/_models.py": (
        "from ._auth import Auth\n\n\n"
        "class Request:\n    pass\n\n\n"
        "class _Private:\n    pass\n\n\n"
        "class SignedRequest(Request, Auth):\n    pass\n"
    ),
    "users/__init__.py": "",
    "users/ext.py": (
        "import pkg\nfrom pkg import Auth\n\n\n"
        "class TokenAuth(pkg.Auth):\n    pass\n\n\n"
        "class DigestAuth(Auth):\n    pass\n\n\n"
        "def make():\n    class LocalAuth(pkg.Auth):\n        pass\n\n    return LocalAuth\n\n\n"
        "def make_request_type():\n"
        "    class LocalRequest(pkg.Request):\n        pass\n\n    return LocalRequest\n"
    ),
}
NAMES = ["Auth", "BasicAuth", "_Hidden", "NotExported", "Request", "_Private", "SignedRequest"]

TRUTH = """
import json, sys
import pkg, users.ext
users.ext.make(); users.ext.make_request_type()  # the classes defined in functions exist now
out = {"defined": {}, "subclasses": {}}
for name in sys.argv[1:]:
    obj = getattr(pkg, name, None)
    out["defined"][name] = None if obj is None else f"{obj.__module__}.{obj.__qualname__}"
for name in ("Auth", "Request"):
    out["subclasses"][name] = sorted(
        f"{c.__module__}.{c.__qualname__}".replace(".<locals>", "")
        for c in getattr(pkg, name).__subclasses__()
    )
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("star")
    write_files(root, FILES)  # type: ignore[arg-type]
    return root


@pytest.fixture(scope="module")
def truth(repo: Path) -> dict[str, dict[str, object]]:
    out = subprocess.run(
        [sys.executable, "-c", TRUTH, *NAMES], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    data: dict[str, dict[str, object]] = json.loads(out)
    return data


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    trees = {rel: ast.parse((repo / rel).read_text()) for rel in FILES}
    return SymbolGraph.build(trees, root=repo)


def test_the_truth_is_as_read_by_hand(truth: dict[str, dict[str, object]]) -> None:
    assert truth["defined"] == {
        "Auth": "pkg._auth.Auth",
        "BasicAuth": "pkg._auth.BasicAuth",
        "_Hidden": None,  # private, and not in __all__
        "NotExported": None,  # public, but __all__ leaves it out
        "Request": "pkg._models.Request",
        "_Private": None,
        "SignedRequest": "pkg._models.SignedRequest",
    }


@pytest.mark.parametrize("name", NAMES)
def test_a_name_resolves_through_star_imports_as_python_does(
    name: str, graph: SymbolGraph, truth: dict[str, dict[str, object]]
) -> None:
    assert graph.resolve(f"pkg.{name}") == truth["defined"][name]
    found = [d.full_name for d in graph.definitions(f"pkg.{name}")]
    expected = truth["defined"][name]
    assert found == ([expected] if expected else [])


@pytest.mark.parametrize("name", ["Auth", "Request"])
def test_subclasses_through_the_package_name_and_in_functions(
    name: str, graph: SymbolGraph, truth: dict[str, dict[str, object]]
) -> None:
    found = sorted(d.full_name for d in graph.subclasses(f"pkg.{name}"))
    assert found == truth["subclasses"][name]
    assert found == sorted(d.full_name for d in graph.subclasses(name))  # the bare name too


def test_where_is_a_re_exported_name_defined_end_to_end(git_repo) -> None:  # type: ignore[no-untyped-def]
    from codeagent.config import Settings
    from codeagent.workspace import Workspace

    root = git_repo(FILES)
    ws = Workspace.open(root, Settings.load(llm="none", embed="none"))
    result = ws.ask("where is pkg.Auth defined?")
    assert result.route.tool == "symbols"
    assert result.fallback is None
    assert [s.location for s in result.sources] == ["pkg/_auth.py:4-6"]  # by hand
    subclasses = ws.ask("subclasses of pkg.Auth")
    locations = {s.location for s in subclasses.sources}
    assert "users/ext.py:14-15" in locations  # LocalAuth, defined in make()
    assert "users/ext.py:5-6" in locations  # TokenAuth(pkg.Auth)
    assert "pkg/_models.py:12-13" in locations  # SignedRequest(Request, Auth)
