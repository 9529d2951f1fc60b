"""No tool, dense backend or language is named by a string literal outside its own module and
the registries: every other place reads the name from the registry, or asks the language's
spec what it needs (a renamed or removed tool, a language added, then breaks nothing
silently). The names come from the registries themselves: the routed tools, the tools MCP
lists, the dense backends, the language specs."""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

from codeagent import lang
from codeagent.eval import sources
from codeagent.store import dense
from codeagent.tools import registry as tool_registry
from codeagent.tools.registry import default_registry

SRC = Path(__file__).resolve().parents[2] / "src"
REGISTRIES = {tool_registry.__name__, dense.__name__}
LANGUAGE_REGISTRIES = {lang.__name__}


def _file(module: str) -> Path:
    return Path(inspect.getfile(sys.modules[module])).resolve()


def owners() -> dict[str, set[Path]]:
    """Each name and the files that may write it: the module (or package) declaring it."""
    found: dict[str, set[Path]] = {}
    registry = default_registry()
    for tool in registry.tools.values():
        home = _file(type(tool).__module__)
        # a tool that is a package (tools/ast_tool/) owns every module in it
        where = set(home.parent.glob("*.py")) if home.parent.name != "tools" else {home}
        found.setdefault(tool.name, set()).update(where)
        for exposed in tool.mcp_tools():
            found.setdefault(exposed.name, set()).update({home, _file(exposed.answer.__module__)})
    for exposed in registry.mcp_tools():
        found.setdefault(exposed.name, set()).add(_file(exposed.answer.__module__))
    for name, target in dense.BACKENDS.items():
        module = target.partition(":")[0] if isinstance(target, str) else target.__module__
        found.setdefault(name, set()).add((SRC / (module.replace(".", "/") + ".py")).resolve())
    for module in REGISTRIES:
        for paths in found.values():
            paths.add(_file(module))
    languages = language_owners()
    for name, paths in languages.items():
        found.setdefault(name, set()).update(paths)
    return found


def language_owners() -> dict[str, set[Path]]:
    """Each language's name, owned by its module; a family's (``LanguageSpec.family``) by
    the module of the language of that name (C's, which C++ reads from it), or, when it names
    no language (``js``), by its members' modules; every one by the language registry and by
    the evaluation's own registry of families (its ``RULES``)."""
    specs = lang.all_specs()
    found = {spec.name: {_file(_spec_module(spec))} for spec in specs}
    names = set(found)
    for spec in specs:
        if spec.family and spec.family not in names:
            found.setdefault(spec.family, set()).add(_file(_spec_module(spec)))
    for name in sources.RULES:
        found.setdefault(name, set()).add(_file(sources.__name__))
    for paths in found.values():
        paths.update(map(_file, LANGUAGE_REGISTRIES))
    return found


def _spec_module(spec: lang.LanguageSpec) -> str:
    """The module whose ``SPEC`` is ``spec``."""
    return next(
        module.__name__
        for module in list(sys.modules.values())
        if getattr(module, "SPEC", None) is spec
    )


def _field_names(tree: ast.AST) -> set[int]:
    """The ids of the constants that name an attribute (``getattr(store, "symbols")``) or a
    field of a data format (``{"symbols": SYMBOLS_FORMAT}``, ``layout.get("symbols")``): the
    same word, not the tool."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("getattr", "hasattr", "setattr") and len(node.args) > 1:
                ids.add(id(node.args[1]))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "get" and node.args:
                ids.add(id(node.args[0]))
        elif isinstance(node, ast.Dict):
            ids.update(id(key) for key in node.keys if key is not None)
        elif isinstance(node, ast.Subscript):  # rec["c"], report["python"]: as .get's
            ids.add(id(node.slice))
        elif isinstance(node, ast.Expr):  # a docstring
            ids.add(id(node.value))
    return ids


def literal_uses(src: Path, names: dict[str, set[Path]]) -> list[str]:
    """``path:line: 'name'`` for each string literal equal to a name, outside its owners."""
    found = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        fields = _field_names(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            owned = node.value in names and path.resolve() in names[node.value]
            if node.value in names and id(node) not in fields and not owned:
                found.append(f"{path.relative_to(src)}:{node.lineno}: {node.value!r}")
    return found


def test_the_registries_name_what_is_scanned_for() -> None:
    names = owners()
    assert {"rag", "ast", "symbols", "search_code", "find_definition", "faiss"} <= set(names)
    assert {spec.name for spec in lang.all_specs()} | {"js"} <= set(names)
    # a family that is a language's name is that language's own: C++ reads it from C's spec
    assert _file("codeagent.lang.c") in names["c"]
    assert _file("codeagent.lang.cpp") not in names["c"]
    assert _file("codeagent.lang.typescript") in names["js"]


def test_no_tool_backend_or_language_name_is_written_outside_its_module() -> None:
    assert literal_uses(SRC, owners()) == []


def test_a_name_written_elsewhere_is_found(tmp_path: Path) -> None:
    package = tmp_path / "codeagent" / "agent"
    package.mkdir(parents=True)
    (package / "route.py").write_text(
        'def pick(tool, seen):\n    """rag"""\n    seen.get("symbols")\n'
        '    return getattr(tool, "rag", None) or tool == "rag" or "search_code" in seen\n'
    )
    # a language asked for by name, and a family; a record's fields are not languages
    (package / "members.py").write_text(
        'def members(rec, report):\n    """go"""\n'
        '    if rec.get("l") == "go" and report["python"]:\n        return rec["c"]\n'
        '    return {"python": 1}.get(rec["l"]) or family(rec) == "js"\n'
    )
    assert sorted(literal_uses(tmp_path, owners())) == [
        "codeagent/agent/members.py:3: 'go'",
        "codeagent/agent/members.py:5: 'js'",
        "codeagent/agent/route.py:4: 'rag'",
        "codeagent/agent/route.py:4: 'search_code'",
    ]
