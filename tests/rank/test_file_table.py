"""The ranker's per-index file table on a real (small) index: module names (ambiguous ones
marked), which chunks each symbol part points at, file lines and depth. Truth from the
files' own text and paths."""

from __future__ import annotations

import itertools

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.file_table import file_table
from conftest import GitRepoFactory

FILES = {
    "a/util.py": "def helper():\n    return 1\n",
    "b/util.py": "def other():\n    return 2\n\n\n# trailing comment\n",
    "pkg/__init__.py": '"""The package."""\n',
    "pkg/core.py": (
        "import os\n\n\nclass Session:\n    def send(self):\n        return os.sep\n\n"
        "    def close(self):\n        return None\n"
    ),
    "README.md": "# Title\n\nSome words.\n",
}


@pytest.fixture
def table(git_repo: GitRepoFactory):  # type: ignore[no-untyped-def]
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    return store, file_table(store)


def test_module_names_point_at_one_file_or_none(table) -> None:  # type: ignore[no-untyped-def]
    store, t = table
    assert t.modules["util"] == -1  # a/util.py and b/util.py: ambiguous
    assert t.modules["a.util"] == t.ids["a/util.py"]
    assert t.modules["b.util"] == t.ids["b/util.py"]
    assert t.modules["pkg"] == t.ids["pkg/__init__.py"]
    assert t.modules["pkg.core"] == t.ids["pkg/core.py"]
    assert t.modules["core"] == t.ids["pkg/core.py"]
    assert "README" not in t.modules
    assert file_table(store) is t  # built once per index


def test_symbol_parts_point_at_their_chunks(table) -> None:  # type: ignore[no-untyped-def]
    store, t = table
    symbols = {i: c.symbol for i, c in enumerate(store.chunks)}
    for part in ("Session", "helper", "other"):
        assert t.symbol_chunks[part], part
        for i in t.symbol_chunks[part]:
            assert part in symbols[i].split("."), (part, symbols[i])
    assert not any(key.startswith("<") for key in t.symbol_chunks)  # module headers
    assert "" not in t.symbol_chunks


def test_lines_and_depth_per_file(table) -> None:  # type: ignore[no-untyped-def]
    _, t = table
    for path, text in FILES.items():
        fid = t.ids[path]
        assert t.file_lines[fid] == len(text.splitlines()), path
        assert t.depth[fid] == path.count("/"), path
    assert t.file_lines.dtype.name == "float32"
    assert t.depth.dtype.name == "float32"


def test_shown_scores_follow_the_order_past_the_learned_pool(
    git_repo: GitRepoFactory,
) -> None:
    """With more candidates than the learned model re-orders (POOL), the model's files come
    first and every shown score is at least the next one's: a listing never shows a file
    below one that scored higher."""
    from codeagent.rank import features
    from codeagent.rank.query import analyze
    from codeagent.rank.ranking import USE_MODEL, rank_files

    assert USE_MODEL
    count = features.POOL + 20
    files = {
        f"pkg/m{n:03}.py": f"def parse_header_{n}(raw):\n    return raw  # parse the header\n"
        for n in range(count)
    }
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    question = "how is the header parsed?"
    ranked = rank_files(store, question, analyze(question)).files
    assert len(ranked) == count
    scores = [score for _, score in ranked]
    assert all(a >= b for a, b in itertools.pairwise(scores))
    assert min(scores[: features.POOL]) > max(scores[features.POOL :])
