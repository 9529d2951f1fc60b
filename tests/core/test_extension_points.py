"""A tool (or a dense backend) lives in its own module and the registry: no other module of
``src/`` names it in a string literal. Read with Python's own parser, so a name inside a
longer text (a docstring, a message) is not a use; an attribute or data key that happens to
spell the same word (``getattr(store, "symbols")``, a JSON key) is not one either."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import codeagent
from codeagent.tools.registry import default_registry

SRC = Path(codeagent.__file__).resolve().parent
REGISTRY = SRC / "tools" / "registry.py"


def _own_files(obj: object) -> set[Path]:
    """The module that defines ``obj``, or its whole folder when that is a tool's package."""
    path = Path(inspect.getfile(type(obj))).resolve()
    if path.parent.name != "tools" and (path.parent / "__init__.py").is_file():
        return set(path.parent.glob("*.py"))
    return {path}


def _is_key(node: ast.Constant, parents: dict[ast.AST, ast.AST]) -> bool:
    """A data key or an attribute name, not a name of the tool."""
    parent = parents.get(node)
    if isinstance(parent, ast.Dict) and node in parent.keys:
        return True
    if isinstance(parent, ast.Subscript) and parent.slice is node:
        return True
    if isinstance(parent, ast.Call) and node in parent.args:
        func = parent.func
        if isinstance(func, ast.Name) and func.id in {"getattr", "hasattr", "setattr"}:
            return parent.args.index(node) == 1
        if isinstance(func, ast.Attribute) and func.attr in {"get", "pop", "setdefault"}:
            return parent.args.index(node) == 0
    return False


def literal_uses(names: set[str], allowed: set[Path]) -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path.resolve() in allowed:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in names
                and not _is_key(node, parents)
            ):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {node.value!r}")
    return found


def test_no_tool_name_is_a_literal_outside_its_module_and_the_registry() -> None:
    registry = default_registry()
    allowed = {REGISTRY}
    for tool in registry.tools.values():
        allowed |= _own_files(tool)
    assert literal_uses(set(registry.names()), allowed) == []


def test_the_check_finds_a_tool_name_written_elsewhere() -> None:
    """The check itself can fail: with no module allowed, it finds each tool's own
    ``name = "..."`` line."""
    registry = default_registry()
    hits = literal_uses(set(registry.names()), set())
    for tool in registry.tools.values():
        own = {p.relative_to(SRC).as_posix() for p in _own_files(tool)}
        assert any(hit.split(":")[0] in own and repr(tool.name) in hit for hit in hits), tool.name


def test_no_dense_backend_is_named_outside_its_module_and_the_registry() -> None:
    from codeagent.store import dense

    names: set[str] = set()
    allowed = {Path(dense.__file__).resolve()}
    for spec in dense.BACKENDS:
        kind = dense.backend_class(spec)
        names |= {spec, kind.backend, kind.file_name}
        allowed.add(Path(inspect.getfile(kind)).resolve())  # type: ignore[arg-type]
    assert literal_uses(names, allowed) == []
    assert literal_uses(names, set())  # the check finds them where they are declared
