"""``tests/`` mirrors ``src/codeagent``: the rule docs/testing.md states ("Where a test lives").

- every folder of tests under ``tests/`` is named after a package of ``src/codeagent``, or is
  one of the cross-cutting folders (``core``, ``faults``, ``mutation``); every package has one;
- a test module that imports nothing from its folder's package, and whose imports name exactly
  one package ``P`` of codeagent, not counting the set-up packages (``index`` builds the index
  a test reads, ``llm`` hands in a chat model), lives in ``tests/P``; tests in ``core``,
  ``faults`` and the entry points' folders (``cli``, ``server``), which drive the program as
  a user does, are exempt.

Imports are read with ``ast`` (function-level ones too); ``from codeagent import lang`` names
the package ``lang``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import write_files

ROOT = Path(__file__).resolve().parents[2]
CROSS_CUTTING = {"core", "faults", "mutation"}
SET_UP = {"index", "llm"}
ENTRY_POINTS = {"cli", "server"}


def packages(src: Path) -> set[str]:
    """The packages directly under ``src``."""
    return {p.name for p in src.iterdir() if (p / "__init__.py").is_file()}


def imported_packages(path: Path, known: set[str], root: str = "codeagent") -> set[str]:
    """The packages of ``root`` (among ``known``) a test module imports anything from."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == root:
                names = [f"{root}.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == root and len(parts) > 1:
                found.add(parts[1])
    return found & known


def misplaced(tests: Path, src: Path, root: str = "codeagent") -> list[str]:
    """Every break of the rule, one line each."""
    known = packages(src)
    problems = []
    folders = {d.name: d for d in tests.iterdir() if d.is_dir() and any(d.glob("test_*.py"))}
    for name in sorted(set(folders) - known - CROSS_CUTTING):
        problems.append(f"tests/{name}/ is named after no package of {root}")
    for name in sorted(known - set(folders)):
        problems.append(f"{root}/{name} has no tests/{name}/")
    for name, folder in sorted(folders.items()):
        if name in CROSS_CUTTING | ENTRY_POINTS:
            continue
        for module in sorted(folder.glob("test_*.py")):
            named = imported_packages(module, known, root)
            subject = named - SET_UP
            if name not in named and len(subject) == 1:
                problems.append(f"tests/{name}/{module.name} tests {subject.pop()}")
    return problems


def test_tests_mirror_the_packages() -> None:
    assert misplaced(ROOT / "tests", ROOT / "src" / "codeagent") == []


def test_the_rule_finds_what_it_looks_for(tmp_path: Path) -> None:
    """A planted tree breaks each clause once; the set-up packages, a test naming two packages
    and the exempt folders do not count."""
    files = {
        "src/app/__init__.py": "",
        "src/app/rank/__init__.py": "",
        "src/app/store/__init__.py": "",
        "src/app/index/__init__.py": "",
        "src/app/cli/__init__.py": "",
        "src/app/top.py": "",
        "tests/rank/test_ok.py": "from app.index.build import b\nfrom app.rank import r\n",
        "tests/rank/test_two.py": "from app.store import s\nfrom app.rank import r\n",
        "tests/rank/test_setup_only.py": "from app.index import build\n",
        "tests/rank/test_wrong.py": "def test():\n    from app import store\n",
        "tests/rank/test_top.py": "import app.top\n",
        "tests/cli/test_drives.py": "import app.store.x\n",
        "tests/core/test_any.py": "from app.rank import r\n",
        "tests/stray/test_x.py": "",
        "tests/fixtures/data.py": "",
    }
    write_files(tmp_path, dict(files))
    assert misplaced(tmp_path / "tests", tmp_path / "src" / "app", root="app") == [
        "tests/stray/ is named after no package of app",
        "app/index has no tests/index/",
        "app/store has no tests/store/",
        "tests/rank/test_wrong.py tests store",
    ]
