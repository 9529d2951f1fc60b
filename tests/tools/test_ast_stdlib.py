"""Ground truth nobody here wrote: the standard library, checked with pyclbr and inspect."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codeagent.tools.ast_tool import run_ast_query
from codeagent.tools.ast_tool.models import ClassInfo, FunctionInfo

STDLIB = Path(os.path.dirname(json.__file__)).parent
MODULES = [
    "json.decoder",
    "email.message",
    "http.client",
    "argparse",
    "dataclasses",
    "functools",
    "typing",
    "_pydecimal",
    "logging.__init__",
    "asyncio.base_events",
]


def _module_name(dotted: str) -> str:
    return dotted.removesuffix(".__init__")


def _file(dotted: str) -> str:
    return dotted.replace(".", "/") + ".py"


def _defs(dotted: str, operation: str) -> list[Any]:
    return list(run_ast_query(STDLIB, _file(dotted), operation).items)  # type: ignore[arg-type]


# pyclbr follows imports through the import system, which pytest's import hooks disturb:
# it runs in a clean interpreter and reports plain data.
_PYCLBR_SCRIPT = """
import json, pyclbr, sys

def dump(obj):
    data = {"kind": "class" if isinstance(obj, pyclbr.Class) else "function",
            "lineno": obj.lineno, "end_lineno": obj.end_lineno, "file": obj.file,
            "children": {k: dump(v) for k, v in obj.children.items()}}
    if isinstance(obj, pyclbr.Class):
        data["methods"] = obj.methods
    return data

out = {}
for name in sys.argv[1:]:
    tree = pyclbr.readmodule_ex(name)
    out[name] = {k: dump(v) for k, v in tree.items() if hasattr(v, "lineno")}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def pyclbr_trees() -> dict[str, dict[str, Any]]:
    names = [_module_name(m) for m in MODULES]
    proc = subprocess.run(
        [sys.executable, "-I", "-c", _PYCLBR_SCRIPT, *names],
        capture_output=True,
        text=True,
        check=True,
        cwd=STDLIB,
    )
    trees: dict[str, dict[str, Any]] = json.loads(proc.stdout)
    return trees


def _truth(trees: dict[str, dict[str, Any]], dotted: str) -> dict[str, Any]:
    """pyclbr's top-level objects defined in the module itself (it also lists imported ones)."""
    path = str(STDLIB / _file(dotted))
    return {k: v for k, v in trees[_module_name(dotted)].items() if v["file"] == path}


@pytest.mark.parametrize("dotted", MODULES)
def test_functions_and_classes_match_pyclbr(
    dotted: str, pyclbr_trees: dict[str, dict[str, Any]]
) -> None:
    truth = _truth(pyclbr_trees, dotted)
    functions = [f for f in _defs(dotted, "functions") if isinstance(f, FunctionInfo)]
    classes = [c for c in _defs(dotted, "classes") if isinstance(c, ClassInfo)]
    want_functions = {k for k, v in truth.items() if v["kind"] == "function"}
    want_classes = {k for k, v in truth.items() if v["kind"] == "class"}
    assert want_functions or want_classes
    assert {f.name for f in functions} == want_functions
    assert {c.name for c in classes} == want_classes
    # pyclbr keeps the last of repeated definitions; its line is the `def`/`class` line
    last = {d.name: d for d in [*functions, *classes]}
    assert {k: last[k].def_line for k in truth} == {k: v["lineno"] for k, v in truth.items()}
    assert {k: last[k].end_line for k in truth} == {k: v["end_lineno"] for k, v in truth.items()}


@pytest.mark.parametrize("dotted", MODULES)
def test_methods_match_pyclbr(dotted: str, pyclbr_trees: dict[str, dict[str, Any]]) -> None:
    truth = {k: v for k, v in _truth(pyclbr_trees, dotted).items() if v["kind"] == "class"}
    classes = {c.name: c for c in _defs(dotted, "classes") if isinstance(c, ClassInfo)}
    compared = 0
    for name, cls in truth.items():
        mine = classes[name]
        last = {m.name: m.def_line for m in mine.methods}
        assert last == cls["methods"], name
        nested = {c.name for c in mine.nested_classes}
        assert nested == {k for k, v in cls["children"].items() if v["kind"] == "class"}
        compared += len(cls["methods"])
        result = run_ast_query(STDLIB, _file(dotted), "methods", name)
        assert set(result.names()) == set(cls["methods"])
    if truth:
        assert compared > 0


def _unwrap(obj: Any) -> Any:
    if isinstance(obj, classmethod | staticmethod):
        return obj.__func__
    if isinstance(obj, property):
        return obj.fget
    return obj


@pytest.mark.parametrize("dotted", [m for m in MODULES if m != "typing"])  # typing: slow
def test_lines_match_inspect(dotted: str) -> None:
    """inspect's first line includes decorators: that is ``start_line``."""
    module = importlib.import_module(_module_name(dotted))
    functions = [f for f in _defs(dotted, "functions") if isinstance(f, FunctionInfo)]
    classes = [c for c in _defs(dotted, "classes") if isinstance(c, ClassInfo)]
    counts: dict[str, int] = {}
    for d in [*functions, *classes]:
        counts[d.name] = counts.get(d.name, 0) + 1
    checked = 0
    for d in [*functions, *classes]:
        obj = getattr(module, d.name, None)
        if (
            counts[d.name] != 1
            or obj is None
            or getattr(obj, "__module__", None) != module.__name__
        ):
            continue
        if inspect.isfunction(obj) and obj.__qualname__ != d.name:
            continue
        try:
            _lines, first = inspect.getsourcelines(obj)
        except (OSError, TypeError):
            continue
        assert d.start_line == first, d.name
        assert first <= d.def_line <= d.end_line
        checked += 1
        if isinstance(d, ClassInfo):
            checked += _check_methods(obj, d)
    assert checked > 0


def _check_methods(cls: type, info: ClassInfo) -> int:
    names = [m.name for m in info.methods]
    checked = 0
    for m in info.methods:
        func = _unwrap(cls.__dict__.get(m.name))
        if names.count(m.name) != 1 or not inspect.isfunction(func):
            continue
        if func.__qualname__ != f"{cls.__qualname__}.{m.name}":
            continue
        assert inspect.getsourcelines(func)[1] == m.start_line, m.qualname
        checked += 1
    return checked


@pytest.mark.parametrize("dotted", ["argparse", "http.client", "email.message", "_pydecimal"])
def test_parameters_match_inspect_signature(dotted: str) -> None:
    module = importlib.import_module(_module_name(dotted))
    checked = 0
    for cls in [c for c in _defs(dotted, "classes") if isinstance(c, ClassInfo)]:
        runtime = getattr(module, cls.name, None)
        for m in cls.methods:
            func = _unwrap(getattr(runtime, "__dict__", {}).get(m.name))
            if not inspect.isfunction(func) or func.__code__.co_firstlineno != m.start_line:
                continue
            expected = [
                (p.name, p.kind.name.lower()) for p in inspect.signature(func).parameters.values()
            ]
            assert [(p.name, p.kind) for p in m.parameters] == expected, m.qualname
            checked += 1
    assert checked > 10


def test_outline_covers_every_pyclbr_object(pyclbr_trees: dict[str, dict[str, Any]]) -> None:
    """Nested functions and classes: pyclbr's children are the outline's qualified names."""
    truth = _truth(pyclbr_trees, "argparse")
    outline = set(run_ast_query(STDLIB, "argparse.py", "outline").names())

    def walk(prefix: str, obj: Any) -> set[str]:
        names = {prefix}
        for child_name, child in obj["children"].items():
            names |= walk(f"{prefix}.{child_name}", child)
        return names

    expected = set().union(*(walk(k, v) for k, v in truth.items()))
    assert len(expected) > 50
    assert expected <= outline
