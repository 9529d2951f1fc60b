"""Call sites resolved by receiver, import and type, against jedi (an independent resolver
with its own inference): each binding form below is one marked call in a small real git
repository, indexed as a user's would be; the graph's target must be the definition jedi's
``goto`` lands on, and a call nothing ties to a type stays by name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.symbols.graph import SymbolGraph
from conftest import git, write_files
from oracle_marks import jedi_goto

jedi = pytest.importorskip("jedi")

FILES = {
    "pkg/__init__.py": "from pkg.client import Client as Client\nfrom pkg.extra import *\n",
    "pkg/base.py": (
        "class Base:\n"
        "    def send(self, x):\n"
        "        return x\n"
        "\n"
        "    def close(self):\n"
        "        self.send(1)  # @self-inherited send\n"
        "\n"
        "    @classmethod\n"
        "    def build(cls):\n"
        "        return cls.create()  # @cls create\n"
        "\n"
        "    @classmethod\n"
        "    def create(cls):\n"
        "        return cls()\n"
    ),
    "pkg/extra.py": ("__all__ = ['helper']\n\ndef helper():\n    return 1\n"),
    "pkg/transport.py": (
        "class Transport:\n"
        "    def send(self, r):\n"
        "        return r\n"
        "\n"
        "    def __enter__(self):\n"
        "        return self\n"
        "\n"
        "    def __exit__(self, *exc):\n"
        "        return None\n"
    ),
    "pkg/client.py": (
        "from typing import Optional\n"
        "\n"
        "from pkg.base import Base\n"
        "from pkg.transport import Transport\n"
        "\n"
        "\n"
        "class Client(Base):\n"
        "    timeout: Transport\n"
        "\n"
        "    def __init__(self, t: Optional[Transport] = None) -> None:\n"
        "        self._t = t\n"
        "        self._own = Transport()\n"
        "\n"
        "    def send(self, x):\n"
        "        super().send(x)  # @super send\n"
        "        self._t.send(x)  # @attribute-from-parameter send\n"
        "        self._own.send(x)  # @attribute-from-constructor send\n"
        "        self.timeout.send(x)  # @class-annotation send\n"
        "        return x\n"
        "\n"
        "    def transport(self) -> Transport:\n"
        "        return self._own\n"
        "\n"
        "    def run(self):\n"
        "        def inner():\n"
        "            return self.close()  # @self-in-closure close\n"
        "        return inner()  # @nested-def inner\n"
        "\n"
        "\n"
        "class Holder:\n"
        "    def __init__(self) -> None:\n"
        "        self._both = Transport()\n"
        "\n"
        "    def start(self, path):\n"
        "        with Transport() as self._entered:\n"
        "            self._entered.send(6)  # @with-attribute send\n"
        "        with open(path) as self._both:\n"
        "            self._both.send(7)  # @attribute-also-bound-by-with send\n"
    ),
    "app/__init__.py": "",
    "app/generics.py": (
        "from typing import ClassVar, Generic, Literal, TypeVar\n"
        "\n"
        "from pkg.client import Client\n"
        "from pkg.transport import Transport\n"
        "\n"
        "T = TypeVar('T')\n"
        "\n"
        "\n"
        "class Box(Generic[T]):\n"
        "    def get(self) -> T:\n"
        "        raise NotImplementedError\n"
        "\n"
        "\n"
        "class Pool:\n"
        "    shared: ClassVar[Transport]\n"
        "\n"
        "    def use(self):\n"
        "        self.shared.send(1)  # @class-var-annotation send\n"
        "\n"
        "\n"
        "def go(b: Box[int], k: type[Client], items: list[Client]):\n"
        "    b.get()  # @generic-class-annotation get\n"
        "    k.create()  # @type-annotation create\n"
        "    items.append(k())  # @outside-a-generic-builtin append\n"
        "\n"
        "\n"
        "S = TypeVar('S', bound='Maker')\n"
        "\n"
        "\n"
        "class Maker:\n"
        "    @classmethod\n"
        "    def make(cls: type[S]) -> S:\n"
        "        return cls.build()  # @cls-annotated-with-a-type-variable build\n"
        "\n"
        "    @classmethod\n"
        "    def build(cls):\n"
        "        return cls()\n"
        "\n"
        "\n"
        "class Keeper:\n"
        "    held: Transport\n"
        "\n"
        "    def __init__(self) -> None:\n"
        "        self.held = Transport()\n"
        "\n"
        "    def go(self):\n"
        "        self.held.send(1)  # @annotated-and-assigned-attribute send\n"
        "        kept: Transport\n"
        "        kept = Transport()\n"
        "        kept.send(2)  # @annotated-and-assigned-local send\n"
        "\n"
        "\n"
        "def pick(mode: Literal['a', 'b']):\n"
        "    return mode.upper()  # @a-literal upper\n"
    ),
    "app/shadow.py": (
        "def helper():\n"
        "    return 0\n"
        "\n"
        "\n"
        "def use():\n"
        "    from pkg.extra import helper\n"
        "\n"
        "    return helper()  # @function-import-shadows-module-def helper\n"
    ),
    "app/main.py": (
        "import pkg\n"
        "import pkg.client as pc\n"
        "from pkg import Client, helper\n"
        "from pkg.client import Client as C\n"
        "from pkg.transport import Transport\n"
        "\n"
        "\n"
        "def local_helper():\n"
        "    return 2\n"
        "\n"
        "\n"
        "def go(c: Client, d, t: 'Transport | None'):\n"
        "    c.send(1)  # @annotated-parameter send\n"
        "    t.send(1)  # @string-union-annotation send\n"
        "    d.send(2)  # @unknown send\n"
        "    k = pc.Client()  # @import-as-module Client\n"
        "    k.close()  # @constructor-local close\n"
        "    C(None).run()  # @alias-constructor-chain run\n"
        "    pkg.Client.build()  # @module-attribute-reexport build\n"
        "    helper()  # @star-reexport helper\n"
        "    local_helper()  # @module-function local_helper\n"
        "    with Transport() as w:\n"
        "        w.send(3)  # @with-enter send\n"
        "    Client().transport().send(4)  # @return-annotation send\n"
        "    for q in [c]:\n"
        "        q.send(5)  # @loop-variable send\n"
        "    return len([])\n"
    ),
}
MARKS = re.compile(r"# @([\w-]+) (\w+)")
UNRESOLVED = {"unknown", "loop-variable", "attribute-also-bound-by-with", "a-literal"}
OUTSIDE = {"outside-a-generic-builtin": "list.append"}  # jedi lands in the builtins' stubs


def _marked() -> list[tuple[str, str, int, str]]:
    """(form, path, line, called name) of each marked call."""
    out = []
    for path, text in FILES.items():
        for number, line in enumerate(text.splitlines(), 1):
            found = MARKS.search(line)
            if found:
                out.append((found.group(1), path, number, found.group(2)))
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SymbolGraph]:
    root = tmp_path_factory.mktemp("calls") / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write_files(root, dict(FILES))
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "initial")
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    return root, store.symbols


@pytest.mark.parametrize(("form", "path", "line", "name"), _marked(), ids=lambda v: str(v))
def test_a_call_resolves_where_jedi_lands(
    repo: tuple[Path, SymbolGraph], form: str, path: str, line: int, name: str
) -> None:
    root, graph = repo
    [site] = [c for c in graph.callers(name) if (c.path, c.line) == (path, line)]
    truth = jedi_goto(root, path, line, name)
    if form in OUTSIDE:  # a method of a class outside the repository: tied there
        assert not truth, f"{form}: jedi lands in the repository ({truth})"
        assert (site.outside, site.target) == (True, OUTSIDE[form])
        return
    if form in UNRESOLVED:  # nothing in the code states the type: kept, marked by name
        assert not site.resolved
        assert site.target == ""
        return
    assert truth, f"jedi resolves {form} to a repository definition"
    assert site.resolved, f"{form}: {path}:{line} left by name"
    d = graph._by_full[site.target]
    assert (d.path, d.line) in truth, f"{form}: {site.target} is not where jedi lands ({truth})"


def test_a_call_outside_the_repository_is_resolved_there_not_to_the_repository(
    repo: tuple[Path, SymbolGraph],
) -> None:
    _root, graph = repo
    assert graph.callers("Optional") == []  # an annotation is not a call
    [builtin] = graph.callers("len")
    assert (builtin.target, builtin.outside, builtin.resolved) == ("len", True, False)
