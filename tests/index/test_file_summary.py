"""File summaries (the text of each file-level vector) and their part in the file ranking."""

from __future__ import annotations

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.index import ranking
from codeagent.index.build import load_or_build
from codeagent.index.embedders import HashEmbedder
from codeagent.index.file_summary import file_order, file_summaries, module_docstring
from codeagent.index.query import analyze
from codeagent.index.store import IndexStore
from codeagent.index.types import Chunk
from conftest import GitRepoFactory

PLUGINS = '''"""Plugin discovery.

Entry points are read once per process.
"""
import importlib


class Registry:
    """Holds the loaded plugins."""

    def load(self, name):
        return importlib.import_module(name)

    def names(self):
        return []


def discover():
    return Registry()
'''


@pytest.mark.parametrize(
    ("header", "doc"),
    [
        ('"""One line."""\nimport os\n', "One line."),
        ("r'''Raw\ntwo lines.\n\nSecond paragraph.'''\n", "Raw two lines."),
        ("import os\n'''not first'''\n", ""),
        ("# a comment only\n", ""),
    ],
)
def test_module_docstring(header: str, doc: str) -> None:
    assert module_docstring(header) == doc


def test_summaries_of_a_real_repository(git_repo: GitRepoFactory) -> None:
    root = git_repo({"pkg/plugins.py": PLUGINS, "README.md": "# Readme\n\nWords.\n"})
    store, _ = load_or_build(root, Settings.load(embed="none"))
    assert file_order(store.chunks) == ["README.md", "pkg/plugins.py"]
    readme, plugins = file_summaries(store.chunks, store.symbols)
    assert readme == "README.md"
    # by hand, from PLUGINS: path, docstring's first paragraph, top-level definitions in
    # order with their first docstring line, then the method names
    assert plugins.splitlines() == [
        "pkg/plugins.py",
        "Plugin discovery.",
        "class Registry: Holds the loaded plugins.",
        "function discover",
        "methods: load, names",
    ]


def test_a_file_vector_close_to_the_question_lifts_its_file() -> None:
    embedder = HashEmbedder(64)
    chunks = [
        Chunk("pkg/a.py", 1, 2, "def alpha():\n    return 1", "alpha", "function"),
        Chunk("pkg/b.py", 1, 2, "def beta():\n    return 2", "beta", "function"),
        Chunk("pkg/c.py", 1, 2, "def gamma():\n    return 3", "gamma", "function"),
    ]
    question = "where are plugins discovered"
    vectors = embedder.embed_documents([c.embed_text for c in chunks])
    near = embedder.embed_documents([question, "unrelated words", "other things"])
    files = np.stack([near[1], near[0], near[2]])  # b.py's summary is the question itself
    store = IndexStore.build(chunks, embedder, vectors, file_vectors=files)
    assert store.file_scores(question) is not None
    ranked = [path for path, _ in ranking.rank_files(store, question, analyze(question)).files]
    assert ranked[0] == "pkg/b.py"
    without = IndexStore.build(chunks, embedder, vectors)
    assert without.file_scores(question) is None
    assert "pkg/b.py" not in [p for p, _ in ranking.rank_files(without, question, analyze(question)).files][:1]
