"""Calls on pytest's fixtures resolved to the fixture's value, against jedi (whose pytest
plugin infers a test's parameter from the fixture of its name): each form below is one
marked call in a small real git repository, indexed as a user's would be; the graph's target
must be the definition jedi's ``goto`` lands on, and what pytest would not fill stays by
name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import committed, indexed, jedi_goto

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
MARKS = re.compile(r"# @([\w-]+) (\w+)")


def _marked() -> list[tuple[str, str, int, str]]:
    return [
        (m.group(1), path, number, m.group(2))
        for path, text in FILES.items()
        for number, line in enumerate(text.splitlines(), 1)
        if (m := MARKS.search(line))
    ]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SymbolGraph]:
    root = committed(tmp_path_factory, "fixtures", FILES)
    return root, indexed(root)


@pytest.mark.parametrize(("form", "path", "line", "name"), _marked(), ids=lambda v: str(v))
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
