"""No module re-exports a name it imports: every ``from codeagent.X import N`` in the source,
the tests, eval and bench names the module that defines ``N`` (a ``def``, a ``class``, an
assignment), a submodule, a package ``__init__`` (the public API: ``from codeagent import
Workspace``) or a module that makes its names on demand (a module ``__getattr__``); and no
module lists an imported name in ``__all__`` or imports one ``as`` itself. Read from the source
text with Python's ``ast``, not from the code's own registries."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"


def _module_file(name: str) -> Path | None:
    base = SRC.joinpath(*name.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


@cache
def _defined(path: Path) -> frozenset[str]:
    """Names bound at a module's top level other than by an import."""
    names: set[str] = set()

    def bind(target: ast.AST) -> None:
        names.update(node.id for node in ast.walk(target) if isinstance(node, ast.Name))

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    bind(target)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                bind(node.target)
            elif isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                visit(node.orelse)
                visit(node.finalbody)
                for handler in node.handlers:
                    visit(handler.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return frozenset(names)


def _python_files() -> list[Path]:
    """The project's Python files (not the test fixtures: sample code, some broken on
    purpose)."""
    return sorted(
        path
        for folder in ("src", "tests", "eval", "bench")
        for path in (ROOT / folder).rglob("*.py")
        if "fixtures" not in path.parts and "mutants" not in path.parts
    )


def _through_another_module(path: Path) -> list[str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except SyntaxError:  # a test's broken file, kept as text on purpose
        return []
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    wrong = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        target = _module_file(node.module) if node.module.startswith("codeagent.") else None
        if target is None or target.name == "__init__.py" or "__getattr__" in _defined(target):
            continue
        for alias in node.names:
            if alias.name == "*" or _module_file(f"{node.module}.{alias.name}"):
                continue
            if alias.name not in _defined(target):
                wrong.append(f"{shown}: {alias.name} from {node.module}")
    return wrong


def test_every_project_import_names_the_module_that_defines_it() -> None:
    wrong = [line for path in _python_files() for line in _through_another_module(path)]
    assert wrong == []


def test_no_module_marks_an_imported_name_for_export() -> None:
    wrong = []
    for path in sorted((SRC / "codeagent").rglob("*.py")):
        if path.name == "__init__.py":
            continue
        defined = _defined(path)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom):
                wrong += [
                    f"{path.name}: {a.name} as itself" for a in node.names if a.asname == a.name
                ]
            elif isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
            ):
                listed = ast.literal_eval(node.value)
                wrong += [
                    f"{path.name}: __all__ lists {name}" for name in listed if name not in defined
                ]
    assert wrong == []


def test_the_check_sees_a_re_export(tmp_path: Path) -> None:
    """The rule itself, on a module written here: a name imported through a module that only
    imports it is reported; the defining module and a submodule are not."""
    user = tmp_path / "user.py"
    user.write_text(
        "from codeagent.tools.base import Source\n"  # base imports Source from result
        "from codeagent.result import Source as S\n"
        "from codeagent.store import store\n",
        encoding="utf-8",
    )
    wrong = _through_another_module(user)
    assert [line.partition(": ")[2] for line in wrong] == ["Source from codeagent.tools.base"]
