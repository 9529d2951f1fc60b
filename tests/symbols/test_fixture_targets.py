"""Calls on pytest's fixtures resolved to the fixture's value, against jedi (whose pytest
plugin infers a test's parameter from the fixture of its name): each form below is one
marked call in a small real git repository, indexed as a user's would be; the graph's target
must be the definition jedi's ``goto`` lands on, and what pytest would not fill stays by
name."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import committed, indexed, jedi_goto, python_marked

jedi = pytest.importorskip("jedi")

FILES = {
    "pkg/__init__.py": "",
    "pkg/app.py": (
        "class Client:\n"
        "    def get(self, url):\n"
        "        return url\n"
        "\n"
        "\n"
        "class App:\n"
        "    def render(self):\n"
        "        return ''\n"
        "\n"
        "    def client(self) -> Client:\n"
        "        return Client()\n"
        "\n"
        "\n"
        "class SubApp(App):\n"
        "    def render(self):\n"
        "        return 'sub'\n"
    ),
    "tests/conftest.py": (
        "import pytest\n"
        "\n"
        "from pkg import app as app_module\n"
        "from pkg.app import App\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def app():\n"
        "    made = App()\n"
        "    yield made\n"
        "\n"
        "\n"
        "@pytest.fixture()\n"
        "def client(app):\n"
        "    return app.client()\n"
        "\n"
        "\n"
        "@pytest.fixture(scope='session')\n"
        "def raw():\n"
        "    return app_module.Client()\n"
    ),
    "tests/sub/conftest.py": (
        "import pytest\n"
        "\n"
        "from pkg.app import SubApp\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def app():\n"
        "    return SubApp()\n"
    ),
    "tests/test_app.py": (
        "import pytest\n"
        "\n"
        "\n"
        "def test_render(app):\n"
        "    assert app.render() == ''  # @fixture-from-conftest render\n"
        "\n"
        "\n"
        "def test_client(client, raw):\n"
        "    client.get('/')  # @fixture-of-a-fixture get\n"
        "    raw.get('/')  # @fixture-of-a-module-attribute get\n"
        "\n"
        "\n"
        "class TestApp:\n"
        "    def test_render(self, app):\n"
        "        app.render()  # @in-a-test-class render\n"
        "        self.check()  # @self-in-a-test-class check\n"
        "\n"
        "    def check(self):\n"
        "        return True\n"
        "\n"
        "\n"
        "@pytest.mark.parametrize('app', [None])\n"
        "def test_parametrized(app):\n"
        "    app.render()  # @unresolved-parametrized render\n"
        "\n"
        "\n"
        "def test_default(app=None):\n"
        "    app.render()  # @unresolved-default render\n"
        "\n"
        "\n"
        "def helper(app):\n"
        "    app.render()  # @unresolved-not-a-test render\n"
    ),
    "tests/test_own.py": (
        "import pytest\n"
        "\n"
        "from pkg.app import Client\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def app():\n"
        "    return Client()\n"
        "\n"
        "\n"
        "def test_own(app):\n"
        "    app.get('/')  # @fixture-of-the-module-itself get\n"
    ),
    "tests/test_class_fixtures.py": (
        "import pytest\n"
        "\n"
        "from pkg.app import App, Client\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def made():\n"
        "    return App()\n"
        "\n"
        "\n"
        "class TestOwn:\n"
        "    @pytest.fixture\n"
        "    def made(self):\n"
        "        return Client()\n"
        "\n"
        "    @pytest.fixture\n"
        "    def wrapped(self, made):\n"
        "        return made\n"
        "\n"
        "    def test_own(self, made):\n"
        "        made.get('/')  # @@a-fixture-of-the-class get\n"
        "\n"
        "    def test_through(self, wrapped):\n"
        "        wrapped.get('/')  # @@a-class-fixture-of-a-class-fixture get\n"
        "\n"
        "\n"
        "class TestWraps:\n"
        "    @pytest.fixture\n"
        "    def made(self, made):\n"
        "        return made\n"
        "\n"
        "    def test_wraps(self, made):\n"
        "        made.render()  # @@a-class-fixture-over-the-module-one render\n"
        "\n"
        "\n"
        "class TestModule:\n"
        "    def test_module(self, made):\n"
        "        made.render()  # @@the-module-fixture-beside-a-class-one render\n"
        "\n"
        "\n"
        "def test_module_level(made):\n"
        "    made.render()  # @@a-module-test-beside-a-class-fixture render\n"
    ),
    "tests/test_nested_fixtures.py": (
        "import pytest\n"
        "\n"
        "from pkg.app import App, Client\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def made():\n"
        "    return App()\n"
        "\n"
        "\n"
        "class TestOuter:\n"
        "    class TestInner:\n"
        "        @pytest.fixture\n"
        "        def made(self):\n"
        "            return Client()\n"
        "\n"
        "        def test_inner(self, made):\n"
        "            made.render()  # @unresolved-a-nested-class-fixture render\n"
    ),
    "tests/loop/conftest.py": (
        "import pytest\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def first(second):\n"
        "    return second\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def second(first):\n"
        "    return first\n"
    ),
    "tests/loop/test_loop.py": (
        "def test_loop(first):\n    first.render()  # @unresolved-fixtures-in-a-loop render\n"
    ),
    "tests/sub/test_nearest.py": (
        "def test_nearest(app):\n    app.render()  # @nearest-conftest render\n"
    ),
}
# Marks whose truth is pytest itself (jedi does not read a class's fixtures): the class of the
# value pytest gives the test, and where Python finds the called method from it
RUN = re.compile(r"(\w+)\.(\w+)\(.*# @@([\w-]+)")
# A plugin for the oracle's run: for each test, each fixture value's methods defined in the
# repository (``pkg``), each with the qualified name of the class that defines it
PLUGIN = """
import inspect, json, os

def pytest_runtest_call(item):
    with open(os.environ["FIXTURE_ORACLE"], "a") as out:
        for name, value in item.funcargs.items():
            found = {}
            for cls in reversed(type(value).__mro__):
                if cls.__module__.startswith("pkg"):
                    for attr, member in vars(cls).items():
                        if inspect.isfunction(member):
                            found[attr] = f"{cls.__module__}.{cls.__qualname__}.{attr}"
            out.write(json.dumps([item.name, name, found]) + "\\n")
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SymbolGraph]:
    root = committed(tmp_path_factory, "fixtures", FILES)
    return root, indexed(root)


@pytest.mark.parametrize(("form", "path", "line", "name"), python_marked(FILES), ids=str)
def test_a_call_on_a_fixture_resolves_where_jedi_lands(
    repo: tuple[Path, SymbolGraph], form: str, path: str, line: int, name: str
) -> None:
    root, graph = repo
    [site] = [c for c in graph.callers(name) if (c.path, c.line) == (path, line)]
    if form.startswith("unresolved"):  # pytest does not fill it: kept, by name
        assert (site.resolved, site.target) == (False, "")
        return
    truth = jedi_goto(root, path, line, name)
    assert truth, f"jedi resolves {form} to a repository definition"
    assert site.resolved, f"{form}: {path}:{line} left by name"
    d = graph._by_full[site.target]
    assert (d.path, d.line) in truth, f"{form}: {site.target} is not where jedi lands ({truth})"


def test_a_call_on_a_fixture_of_a_test_class_resolves_where_pytest_gives_it(
    repo: tuple[Path, SymbolGraph], tmp_path: Path
) -> None:
    """The fixtures a test class defines (and a module's beside them), against pytest run on
    the repository: the method Python finds on the value pytest passes."""
    root, graph = repo
    (tmp_path / "fixture_oracle.py").write_text(PLUGIN, encoding="utf-8")
    answers = tmp_path / "answers.jsonl"
    env = {
        **os.environ,
        "PYTHONPATH": f"{tmp_path}{os.pathsep}{root}",
        "FIXTURE_ORACLE": str(answers),
    }
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    path = "tests/test_class_fixtures.py"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "fixture_oracle",
            "-p",
            "no:cacheprovider",
            path,
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    truth = {(t, n): found for t, n, found in map(json.loads, answers.read_text().splitlines())}
    lines = FILES[path].splitlines()
    marks = [(n, m) for n, line in enumerate(lines, 1) if (m := RUN.search(line))]
    assert len(marks) == 5
    for number, mark in marks:
        receiver, called, form = mark.groups()
        test = next(
            d.group(1)
            for line in reversed(lines[:number])
            if (d := re.search(r"def (test\w*)", line))
        )
        [site] = [c for c in graph.callers(called) if (c.path, c.line) == (path, number)]
        assert site.resolved, f"{form}: {path}:{number} left by name"
        assert site.target == truth[(test, receiver)][called], form
