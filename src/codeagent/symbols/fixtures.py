"""pytest's fixtures as call resolution reads them: a test's parameter is the value of the
fixture of its name, and that value's type is what the fixture returns.

    def test_render(env):            # env: the fixture ``env`` of this file or a conftest.py
        env.from_string("x")         # written "@env.from_string": resolved by the graph

At extraction, a parameter pytest fills (of a test function, ``test*`` at module level or in a
``Test*`` class, or of a fixture) is bound to ``@NAME``, the value of the fixture ``NAME``
(:func:`injected`), or to ``@Class:NAME`` when the test's own class (one at module level)
defines the fixture ``NAME``, as pytest prefers it; a file's fixtures are recorded with what
each returns or yields as the file names it (``Environment()``, ``@app.test_client()``: record
field ``x``, a class's under ``Class:NAME``, :func:`fixture_values`). The graph finds the
fixture where pytest does, the nearest first: the test's own module, then ``conftest.py`` in
its folder and each folder above (:func:`providers`), and resolves the value in the file that
defines it. Not followed (the calls stay by name): a parameter ``@pytest.mark.parametrize``
names, one with a default, the fixtures a nested class, a base class or a plugin defines, and
a value no one binding says.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from codeagent.pysyntax import Structure

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
FIXTURE_FIELD = "x"  # a record's module-level fixtures: name -> value as the file names it
_NONE: frozenset[str] = frozenset()
_NO_PARAMS: dict[str, str] = {}


def _last_name(decorator: ast.expr) -> str:
    """The last name of a decorator (``fixture`` of ``@pytest.fixture(scope=...)``)."""
    func = decorator.func if type(decorator) is ast.Call else decorator
    kind = type(func)
    if kind is ast.Attribute:
        return func.attr  # type: ignore[attr-defined, no-any-return]
    return func.id if kind is ast.Name else ""  # type: ignore[attr-defined]


def fixture_name(node: ast.AST) -> str | None:
    """The name pytest gives the fixture ``node`` defines (its own, or the decorator's
    ``name=``); None when it is no fixture (no ``@fixture``/``@pytest.fixture(...)``)."""
    if not isinstance(node, FUNCTIONS):
        return None
    for decorator in node.decorator_list:
        if _last_name(decorator) != "fixture":
            continue
        for keyword in decorator.keywords if isinstance(decorator, ast.Call) else ():
            value = keyword.value
            if keyword.arg == "name" and isinstance(value, ast.Constant):
                return str(value.value)
        return node.name
    return None


def _parametrized(decorators: list[ast.expr]) -> set[str]:
    """The names ``@pytest.mark.parametrize("a, b", ...)`` decorators give values."""
    names: set[str] = set()
    for decorator in decorators:
        if type(decorator) is not ast.Call or _last_name(decorator) != "parametrize":
            continue
        if not decorator.args:
            continue
        first = decorator.args[0]
        texts = first.elts if isinstance(first, ast.Tuple | ast.List) else [first]
        for text in texts:
            if isinstance(text, ast.Constant) and isinstance(text.value, str):
                names.update(n.strip() for n in text.value.split(","))
    return names


def injected(structure: Structure, scope: int) -> dict[str, str]:
    """The parameters of the function at ``scope`` that pytest fills with fixtures (none when
    pytest does not call it: no default, not ``self``, not parametrized), each with what it is
    bound to: ``@name``, the fixture ``name`` of the module or a ``conftest.py``, or
    ``@Class:name``, a fixture the test's own class defines (a class at module level)."""
    site = structure.defs[scope]
    node = site.node
    decorators = node.decorator_list
    test = node.name.startswith("test")
    if not (test or decorators):
        return _NO_PARAMS  # most functions: neither a test nor a fixture
    parent = site.parent
    if parent is not None and site.parent_kind != "class":
        return _NO_PARAMS  # a function in a function: pytest never calls it
    if type(node) is ast.ClassDef:
        return _NO_PARAMS
    owner = structure.defs[parent].node if parent is not None else None
    collected = test and (owner is None or owner.name.startswith("Test"))
    if not collected and (not decorators or fixture_name(node) is None):
        return _NO_PARAMS
    args = node.args  # type: ignore[union-attr]
    params = args.args
    if args.posonlyargs:
        params = [*args.posonlyargs, *params]
    if args.defaults:
        params = params[: len(params) - len(args.defaults)]
    if owner is not None:
        params = params[1:]  # self (or cls)
    if args.kwonlyargs:
        kw = zip(args.kwonlyargs, args.kw_defaults, strict=True)
        params = [*params, *(a for a, d in kw if d is None)]
    skipped = _parametrized(decorators) if decorators else _NONE
    own, prefix = _NONE, "@"
    if owner is not None and parent is not None:
        marked, own = _class_names(owner)
        skipped = skipped | marked
        if structure.defs[parent].parent is None:
            prefix = f"@{owner.name}:"
            if decorators:  # a fixture given its own name gets the one it overrides
                own = own - {fixture_name(node)}
        else:  # a nested class's own fixtures: left alone
            skipped, own = skipped | own, _NONE
    return {
        a.arg: f"{prefix}{a.arg}" if a.arg in own else f"@{a.arg}"
        for a in params
        if a.annotation is None and a.arg not in skipped
    }


@lru_cache(maxsize=8)  # the methods of one class come one after the other
def _class_names(owner: ast.ClassDef) -> tuple[frozenset[str], frozenset[str]]:
    """What a test class changes of the module's and conftest's fixtures: the names its own
    ``parametrize`` marks give values, and its own fixtures."""
    own = {n for n in (fixture_name(s) for s in owner.body) if n is not None}
    return frozenset(_parametrized(owner.decorator_list)), frozenset(own)


def _values(node: ast.AST) -> Iterator[ast.expr | None]:
    """What a function returns or yields, its nested definitions aside."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, _NESTED):
            continue
        if isinstance(child, ast.Return | ast.Yield):
            yield child.value
        stack.extend(ast.iter_child_nodes(child))


def fixture_values(
    structure: Structure, value_of: Callable[[ast.expr, int], str | None]
) -> dict[str, str]:
    """The fixtures of a file, each by its name (``Class:name`` for one a class at module
    level defines), and what each gives as the file names it (``value_of(expression,
    scope)``: :meth:`CallTargets.value`); a fixture whose returns and yields do not all say
    one value is left out."""
    found: dict[str, str] = {}
    defs = structure.defs
    for index, site in enumerate(defs):
        if not site.node.decorator_list:
            continue
        parent = site.parent
        if parent is not None and (site.parent_kind != "class" or defs[parent].parent is not None):
            continue
        name = fixture_name(site.node)
        if name is None:
            continue
        if parent is not None:
            name = f"{defs[parent].node.name}:{name}"
        values = {value_of(v, index) if v is not None else None for v in _values(site.node)}
        value = values.pop() if len(values) == 1 else None
        if value:
            found[name] = value
    return found


def providers(files: dict[str, dict[str, Any]], path: str) -> Iterator[str]:
    """The files whose fixtures a test in ``path`` sees, the nearest first: itself, then
    each ``conftest.py`` from its folder up to the repository's root."""
    yield path
    folder = path.rpartition("/")[0]
    while True:
        conftest = f"{folder}/conftest.py" if folder else "conftest.py"
        if conftest != path and conftest in files:
            yield conftest
        if not folder:
            return
        folder = folder.rpartition("/")[0]
