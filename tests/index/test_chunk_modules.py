"""Files reused from an earlier entry: their symbols follow their module names as packages come
and go between builds (the symbols of each state are those of that state built from scratch),
and each is a step of the progress as a parsed file is."""

from __future__ import annotations

from pathlib import Path

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunked import chunk_repo
from codeagent.index.stats import IndexStats
from codeagent.repo.discover import discover
from codeagent.store import cache as index_cache
from conftest import GitRepoFactory
from index.test_chunk_repo import Recorder


def modules(root: Path, *, force: bool = False) -> dict[str, str]:
    """Each Python file's module name in the symbols of the index of ``root`` as it is."""
    store, _ = load_or_build(root, Settings.load(embed="none"), force=force)
    return {path: record["m"] for path, record in store.symbols.files.items() if "m" in record}


def test_a_package_made_and_unmade_renames_reused_modules_each_time(
    git_repo: GitRepoFactory,
) -> None:
    root = git_repo({"pkg/core.py": "class Core:\n    pass\n", "main.py": "import pkg\n"})
    assert modules(root) == {"pkg/core.py": "core", "main.py": "main"}
    (root / "pkg" / "__init__.py").write_text("VERSION = 1\n")  # pkg is a package now
    package = {"pkg/core.py": "pkg.core", "main.py": "main", "pkg/__init__.py": "pkg"}
    assert modules(root) == package
    (root / "pkg" / "__init__.py").unlink()  # the record reused from the last entry is renamed
    (root / "main.py").write_text("import pkg.core\n")  # (a state not built before)
    assert modules(root) == {"pkg/core.py": "core", "main.py": "main"}
    assert modules(root, force=True) == {"pkg/core.py": "core", "main.py": "main"}


def test_a_reused_file_is_one_step_of_the_progress(git_repo: GitRepoFactory) -> None:
    """Each file is one step of the chunking's progress, parsed or taken from an entry."""
    files = {f"m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(5)}
    root = git_repo(files)
    _, first = load_or_build(root, Settings.load(embed="none"))
    (root / "m2.py").write_text("def changed():\n    return 2\n")
    discovery = discover(root)
    stats = IndexStats(repo=str(root), files_indexed=len(discovery.files))
    progress = Recorder([], [])
    earlier = index_cache.states(Path(first.cache_path).parent)
    chunk_repo(discovery, stats, progress, earlier)
    assert stats.files_reused == 4
    assert progress.tasks == [("chunking", 5)]
    assert progress.advanced == [1] * 5
