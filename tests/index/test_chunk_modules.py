"""A reused file's symbols follow its module name as packages come and go between builds: the
symbols of each state are those of that state built from scratch."""

from __future__ import annotations

from pathlib import Path

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from conftest import GitRepoFactory


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
