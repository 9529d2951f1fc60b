"""A folder without ``__init__.py`` inside a package is a namespace package of it (flask's
``src/flask/sansio/``): its modules are named as Python imports them, and what they define is
reached through the package's relative imports. The truth is Python's own import system (each
module imported by the name the graph gives it, in a fresh interpreter, must be that file) and
jedi's ``goto`` for a call through the namespace folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from conftest import GitRepoFactory

FILES = {
    "src/pkg/__init__.py": "from .app import App\n",
    "src/pkg/app.py": (
        "from .ns.base import Base\n"
        "\n"
        "\n"
        "class App(Base):\n"
        "    pass\n"
        "\n"
        "\n"
        "def use():\n"
        "    return App().run()\n"
    ),
    "src/pkg/ns/base.py": "class Base:\n    def run(self):\n        return 1\n",
    "src/pkg/ns/deeper/leaf.py": "def leaf():\n    return 2\n",
    "src/pkg/ns/sub/__init__.py": "X = 1\n",
    "src/pkg/ns/sub/mod.py": "def sub():\n    return 3\n",
    "scripts/tool.py": "def main():\n    return 0\n",
}
PROBE = """
import importlib, json, sys
sys.path[:0] = sys.argv[2:]
out = {}
for name in json.loads(sys.argv[1]):
    out[name] = importlib.import_module(name).__file__
print(json.dumps(out))
"""


def test_a_namespace_folder_in_a_package_is_named_as_python_imports_it(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo(FILES)
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    graph = store.symbols
    names = {path: rec["m"] for path, rec in graph.files.items()}
    assert names["src/pkg/ns/base.py"] == "pkg.ns.base"  # was "base"
    imported = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE, json.dumps(sorted(names.values())),
             str(root / "src"), str(root / "scripts")],
            capture_output=True, text=True, check=True, cwd=root,
        ).stdout
    )  # fmt: skip
    for path, name in names.items():
        assert Path(imported[name]).resolve() == (root / path).resolve(), (path, name)

    [site] = graph.callers("run")
    jedi = pytest.importorskip("jedi")
    script = jedi.Script(path=str(root / "src/pkg/app.py"), project=jedi.Project(str(root)))
    line = FILES["src/pkg/app.py"].splitlines()[site.line - 1]
    [found] = script.goto(site.line, line.index("run"), follow_imports=True)
    assert Path(found.module_path).resolve() == (root / "src/pkg/ns/base.py").resolve()
    assert site.resolved
    d = graph._by_full[site.target]
    assert (d.path, d.line) == ("src/pkg/ns/base.py", found.line)
