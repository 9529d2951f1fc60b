"""A name bound more than one way in one scope, resolved by the binding that reaches the call,
against jedi (which follows a scope's statements in order): each form below is one marked
call in a small real git repository, indexed as a user's would be; the graph's target must be
the definition jedi's ``goto`` lands on, and where the order of the scope's statements does
not decide (a branch, a loop, ``global``) the call stays by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import committed, indexed, jedi_goto, python_marked

pytest.importorskip("jedi")

FILES = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": (
        "class Template:\n"
        "    def render(self):\n"
        "        return ''\n"
        "\n"
        "\n"
        "class Environment:\n"
        "    def from_string(self, source) -> Template:\n"
        "        return Template()\n"
        "\n"
        "\n"
        "class Post:\n"
        "    def load(self, data):\n"
        "        return data\n"
        "\n"
        "    def render(self):\n"
        "        return 'post'\n"
        "\n"
        "\n"
        "class Pre:\n"
        "    def load(self, data):\n"
        "        return None\n"
        "\n"
        "\n"
        "class Session:\n"
        "    def __enter__(self) -> Post:\n"
        "        return Post()\n"
        "\n"
        "    def __exit__(self, *exc):\n"
        "        return None\n"
    ),
    "tests/test_flow.py": (
        "import pytest\n"
        "\n"
        "from pkg.shapes import Environment, Post, Pre, Session\n"
        "\n"
        "client = Post()\n"
        "client.load(0)  # @module-first load\n"
        "client = Pre()\n"
        "client.load(0)  # @module-second load\n"
        "\n"
        "\n"
        "@pytest.fixture\n"
        "def env():\n"
        "    return Post()\n"
        "\n"
        "\n"
        "def test_rebound():\n"
        "    schema = Post()\n"
        "    schema.load(1)  # @first-binding load\n"
        "    schema = Pre()\n"
        "    schema.load(2)  # @second-binding load\n"
        "\n"
        "\n"
        "def test_in_its_own_assignment():\n"
        "    schema = Post()\n"
        "    schema = Pre()\n"
        "    schema = schema.load(schema)  # @read-in-its-own-value load\n"
        "\n"
        "\n"
        "def test_after_a_with(path):\n"
        "    with open(path) as schema:\n"
        "        schema.read()\n"
        "    schema = Pre()\n"
        "    schema.load(3)  # @after-a-with load\n"
        "\n"
        "\n"
        "def test_a_rebound_fixture(env):\n"
        "    env.render()  # @the-fixture-first render\n"
        "    env = Environment()\n"
        "    template = env.from_string('x')\n"
        "    template.render()  # @through-a-rebound-name render\n"
        "\n"
        "\n"
        "class TestInAMethod:\n"
        "    def test_method(self):\n"
        "        made = Pre()\n"
        "        made = Post()\n"
        "        if made:\n"
        "            made.load(4)  # @inside-a-later-if load\n"
        "\n"
        "\n"
        "def test_branch(flag):\n"
        "    schema = Post()\n"
        "    if flag:\n"
        "        schema = Pre()\n"
        "    schema.load(5)  # @unresolved-after-a-branch load\n"
        "\n"
        "\n"
        "def test_loop(items):\n"
        "    schema = Post()\n"
        "    for item in items:\n"
        "        schema.load(item)  # @unresolved-a-loop-brings-one-back load\n"
        "        schema = Pre()\n"
        "\n"
        "\n"
        "def test_in_a_branch(flag):\n"
        "    if flag:\n"
        "        schema = Post()\n"
        "    else:\n"
        "        schema = Pre()\n"
        "    schema.load(6)  # @unresolved-bound-in-both-branches load\n"
        "\n"
        "\n"
        "def test_blocks(flag, items, path):\n"
        "    schema = Post()\n"
        "    schema = Pre()\n"
        "    for item in items:\n"
        "        schema.load(item)  # @a-loop-that-binds-nothing load\n"
        "    with open(path):\n"
        "        schema.load(path)  # @in-a-with-body load\n"
        "    if schema.load(2):  # @read-in-an-if-test load\n"
        "        schema = Post()\n"
        "        schema.load(3)  # @within-an-if-body load\n"
        "    else:\n"
        "        schema = Pre()\n"
        "    for item in items:\n"
        "        made = Post()\n"
        "        made.load(item)  # @within-a-loop-body load\n"
        "        made = Pre()\n"
        "    made.load(4)  # @unresolved-after-a-loop-that-binds load\n"
        "\n"
        "\n"
        "def test_try():\n"
        "    schema = Post()\n"
        "    schema = Pre()\n"
        "    try:\n"
        "        schema.load(1)  # @in-a-try-body load\n"
        "    except ValueError:\n"
        "        schema = Post()\n"
        "    schema.load(1)  # @unresolved-after-a-handler-binds load\n"
        "\n"
        "\n"
        "def test_headers(kind):\n"
        "    schema = Post()\n"
        "    schema = Pre()\n"
        "    with Session() as schema:\n"
        "        schema.load(6)  # @unresolved-bound-by-a-with load\n"
        "    schema = Pre()\n"
        "    match kind:\n"
        "        case Post() as schema:\n"
        "            schema.load(7)  # @unresolved-bound-by-a-pattern load\n"
        "        case 1:\n"
        "            schema = Post()\n"
        "        case _:\n"
        "            schema = Pre()\n"
        "            schema.load(8)  # @within-a-case load\n"
        "    schema = Pre()\n"
        "    if kind:\n"
        "        schema = Post()\n"
        "    else:\n"
        "        schema.load(9)  # @a-branch-beside-one-that-binds load\n"
        "    schema = Pre()\n"
        "    match kind:\n"
        "        case 1:\n"
        "            schema = Post()\n"
        "        case _:\n"
        "            schema.load(10)  # @unresolved-a-case-beside-one-that-binds load"
        "\n"
        "\n"
        "def test_comprehension():\n"
        "    schema = Post()\n"
        "    schema = Pre()\n"
        "    if any(schema.load(1) for schema in [Post()]):  # @unresolved-a-comprehension-s load\n"
        "        pass\n"
        "\n"
        "\n"
        "def test_lambdas(items):\n"
        "    schema = Post()\n"
        "    schema = Pre()\n"
        "    key = lambda schema: schema.load(0)  # @unresolved-a-lambda-s-parameter load\n"
        "    schema.load(11)  # @after-a-lambda load\n"
        "    made = Post()\n"
        "    return sorted(items, key=lambda made: made.load(0))  # @unresolved-in-a-lambda load\n"
        "\n"
        "\n"
        "def test_handler():\n"
        "    schema = Post()\n"
        "    try:\n"
        "        schema = Pre()\n"
        "    except ValueError:\n"
        "        schema.load(5)  # @unresolved-in-a-handler load\n"
        "\n"
        "\n"
        "def test_global():\n"
        "    global client\n"
        "    client = Post()\n"
        "    client.load(7)  # @unresolved-global load\n"
    ),
}
# jedi follows both ways where the order does not decide: the truth is two definitions
BOTH_WAYS = {
    "unresolved-after-a-branch",
    "unresolved-bound-in-both-branches",
    "unresolved-after-a-handler-binds",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SymbolGraph]:
    root = committed(tmp_path_factory, "flow", FILES)
    return root, indexed(root)


@pytest.mark.parametrize(("form", "path", "line", "name"), python_marked(FILES), ids=str)
def test_a_call_on_a_rebound_name_resolves_where_jedi_lands(
    repo: tuple[Path, SymbolGraph], form: str, path: str, line: int, name: str
) -> None:
    root, graph = repo
    [site] = [c for c in graph.callers(name) if (c.path, c.line) == (path, line)]
    truth = jedi_goto(root, path, line, name)
    if form.startswith("unresolved"):  # the statements' order does not decide: by name
        assert (site.resolved, site.target) == (False, ""), form
        if form in BOTH_WAYS:
            assert len(truth) == 2, f"{form}: jedi lands on {truth}"
        return
    assert truth, f"jedi resolves {form} to a repository definition"
    assert site.resolved, f"{form}: {path}:{line} left by name"
    d = graph._by_full[site.target]
    assert (d.path, d.line) in truth, f"{form}: {site.target} is not where jedi lands ({truth})"
