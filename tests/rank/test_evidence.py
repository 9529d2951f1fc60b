"""Definition evidence from the symbol graph, on a small real repository.

Which file defines what is checked against ``pyclbr`` reading the same files (an independent
reader of ``def`` and ``class`` statements), never recomputed with the code under test.
"""

from __future__ import annotations

import pyclbr
import sys
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank import evidence
from codeagent.rank.file_table import file_table
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from conftest import GitRepoFactory

FILES = {
    "pkg/__init__.py": "from .net.sessions import Session\n",
    "pkg/net/__init__.py": '"""The network layer."""\n',
    # defines the class; says little about it in words
    "pkg/net/sessions.py": "class Session:\n    def send(self, request):\n        return request\n",
    "pkg/net/adapters.py": "class Adapter:\n    def send(self, prepared):\n        raise OSError\n",
    # talks about the class at length, and writes "class Session" in prose: defines nothing
    "pkg/notes.py": '"""Notes.\n\n'
    + "The class Session keeps a pool; a Session send goes through the adapter.\n" * 6
    + '"""\n\n\ndef describe(session):\n    return "Session send adapter pool"\n',
}


@pytest.fixture
def repo(git_repo: GitRepoFactory) -> Path:
    return git_repo(FILES)


@pytest.fixture
def store(repo: Path):  # type: ignore[no-untyped-def]
    store, _ = load_or_build(repo, Settings.load(embed="none"))
    return store


def pyclbr_definers(repo: Path, name: str) -> set[str]:
    """The files whose classes, functions or methods pyclbr finds called ``name`` (each file
    read as a top-level module of its own directory)."""
    found = set()
    for path in FILES:
        if path.endswith("__init__.py"):  # one relative import, which pyclbr would follow
            continue
        folder, _, file_name = path.rpartition("/")
        stem = file_name.removesuffix(".py")
        for obj in pyclbr.readmodule_ex(stem, path=[str(repo / folder)]).values():
            if obj.module == stem and (obj.name == name or name in getattr(obj, "methods", {})):
                found.add(path)
        sys.modules.pop(stem, None)
    return found


def definers_of(store, name: str) -> set[str]:  # type: ignore[no-untyped-def]
    table = file_table(store)
    return {table.paths[fid] for fid in table.defines.names.get(name, {})}


def test_definitions_are_real_statements(store, repo: Path) -> None:  # type: ignore[no-untyped-def]
    for name in ("Session", "send", "Adapter", "describe"):
        assert definers_of(store, name) == pyclbr_definers(repo, name), name
    assert "pkg/notes.py" not in definers_of(store, "Session")  # "class Session" in prose


def test_the_defining_file_wins_over_prose(store) -> None:  # type: ignore[no-untyped-def]
    question = "Why does `Session` keep a pool, and where is the class Session written?"
    ranked = [path for path, _ in rank_files(store, question, analyze(question)).files]
    assert ranked.index("pkg/net/sessions.py") < ranked.index("pkg/notes.py")


def test_dotted_names_and_class_method_pairs(store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(evidence, "W_QUALIFIED", 1.0)
    table = file_table(store)
    sessions = table.ids["pkg/net/sessions.py"]
    # a re-export: pkg.Session is the class of pkg/net/sessions.py
    question = "what does pkg.Session do"
    assert evidence.qualified_scores(analyze(question), table.defines, table.ids) == {sessions: 1.0}
    # the class and one of its methods, both named: send of Session, not of Adapter
    question = "`Session` calls `send` twice"
    assert evidence.qualified_scores(analyze(question), table.defines, table.ids) == {sessions: 1.0}


IMPORT_FILES = {
    "app/__init__.py": "",
    "app/cli.py": "import os\n\nfrom app import formatters\nfrom app.config import load\n",
    "app/formatters.py": "from . import colours\n\n\ndef format_header(text):\n    return text\n",
    "app/colours.py": "RED = 1\n",
    "app/config.py": "import json\n\n\ndef load(path):\n    return json.load(path)\n",
    "app/plugins.py": "import app.config\n",
    "app/lonely.py": "import collections\n",
}
# written by hand from the import statements above: an edge per project module imported
# (``from app import formatters`` is the module, ``from . import colours`` is relative),
# each in both directions; ``os``, ``json`` and ``collections`` are not in the project
IMPORT_EDGES = {
    ("app/cli.py", "app/formatters.py"),
    ("app/cli.py", "app/config.py"),
    ("app/formatters.py", "app/colours.py"),
    ("app/plugins.py", "app/config.py"),
}


def test_import_neighbours_follow_the_import_statements(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(IMPORT_FILES), Settings.load(embed="none"))
    table = file_table(store)
    found = {(table.paths[a], table.paths[b]) for a, near in table.neighbours.items() for b in near}
    expected = IMPORT_EDGES | {(b, a) for a, b in IMPORT_EDGES}
    assert found == expected
    assert evidence.import_neighbours(None, table.ids) == {}
