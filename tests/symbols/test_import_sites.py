"""Where a name is imported (``SymbolGraph.import_sites``), by its bare name and by its dotted
path, on files written here: truth is which of their lines import the class."""

from __future__ import annotations

import ast

from codeagent.symbols.graph import SymbolGraph

FILES = {
    "pkg/__init__.py": "from .models import Request\n",  # re-exported by the package
    "pkg/models.py": "class Request:\n    pass\n\n\nclass XMLParser:\n    pass\n",
    "app.py": "import os\nfrom pkg.models import Request\n\n"
    "request = Request()\nparser = XMLParser()\n",
    "cli.py": "from pkg import Request as R\n",  # through the package's re-export
    "other.py": "from elsewhere import Request\n",  # another project's Request
    "util.py": "import pkg.models\n",
}


def _sites(query: str) -> list[tuple[str, int]]:
    graph = SymbolGraph.build({path: ast.parse(text) for path, text in FILES.items()})
    return [(i.path, i.line) for i in graph.import_sites(query)]


def test_a_bare_name_finds_every_import_of_that_name() -> None:
    assert _sites("Request") == [("app.py", 2), ("cli.py", 1), ("other.py", 1),
                                 ("pkg/__init__.py", 1)]  # fmt: skip


def test_a_dotted_path_finds_the_imports_of_that_class_only() -> None:
    ours = [("app.py", 2), ("cli.py", 1), ("pkg/__init__.py", 1)]
    assert _sites("pkg.models.Request") == ours
    assert _sites("pkg.Request") == ours  # the package's name for it: the same class


def test_a_module_finds_its_imports_and_the_imports_from_it() -> None:
    assert _sites("pkg.models") == [("app.py", 2), ("pkg/__init__.py", 1), ("util.py", 1)]


def test_a_name_as_a_question_writes_it_is_the_name() -> None:
    """`Request`, Request() and `Request()` name the class: its definition and its call."""
    graph = SymbolGraph.build({path: ast.parse(text) for path, text in FILES.items()})
    for written in ("`Request`", "Request()", "`Request()`", " Request "):
        assert [(d.path, d.line) for d in graph.definitions(written)] == [("pkg/models.py", 1)]
        assert [(c.path, c.line) for c in graph.callers(written)] == [("app.py", 4)]
    # only backticks, spaces and one pair of parentheses go: a name's own letters stay
    assert [(d.path, d.line) for d in graph.definitions("`XMLParser`")] == [("pkg/models.py", 5)]
    assert [(c.path, c.line) for c in graph.callers("XMLParser()")] == [("app.py", 5)]
