"""Small repositories whose calls are marked with what an oracle (a compiler) must tie them to:
the marks read from the files, the repository committed, the oracle's answers read back
(tests/symbols/test_java_call_targets.py, test_go_call_targets.py, and the C and C++ ones,
whose oracle, GCC's call graph, is read here)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.types import CallSite
from conftest import git, write_files

MARKS = re.compile(r"// @([\w-]+) (-)? ?(\w+)")
PYTHON_MARKS = re.compile(r"# @([\w-]+) (\w+)")
EVAL = Path(__file__).resolve().parents[1] / "eval"
Answers = dict[tuple[str, int, str], set[tuple[str, int]]]


def marked(files: dict[str, str]) -> list[tuple[str, str, int, str, bool]]:
    """``(form, path, line, called name, typed)`` of each call marked ``// @form NAME`` in
    ``files`` (``// @form - NAME``: not typed, the call stays by name)."""
    out = []
    for path, text in files.items():
        for number, line in enumerate(text.splitlines(), 1):
            found = MARKS.search(line)
            if found:
                out.append((found.group(1), path, number, found.group(3), not found.group(2)))
    return out


# ``// @form NAME WHERE:QUALNAME``, ``-`` for WHERE when nothing in the code states the type
TARGET_MARKS = re.compile(r"// @([\w-]+) (?:- )?(\w+) (\S+)")


# the same after Ruby's ``#`` (a method's name may end with ``?`` or ``!``)
RUBY_TARGET_MARKS = re.compile(r"# @([\w-]+) (?:- )?([\w?!]+) (\S+)")


def target_marked(
    files: dict[str, str], marks: re.Pattern[str] = TARGET_MARKS
) -> list[tuple[str, str, int, str, str]]:
    """``(form, path, line, called name, expected target)`` of each call marked with
    :data:`TARGET_MARKS` (or ``marks``) in ``files``."""
    out = []
    for path, text in files.items():
        for number, line in enumerate(text.splitlines(), 1):
            found = marks.search(line)
            if found:
                out.append((found.group(1), path, number, found.group(2), found.group(3)))
    return out


def assert_written_target(
    graph: SymbolGraph, form: str, path: str, line: int, name: str, expected: str
) -> None:
    """The call of ``name`` at ``path:line`` is tied to ``expected`` (``WHERE:QUALNAME``), or
    with ``-`` kept by name."""
    [site] = [c for c in graph.callers(name) if (c.path, c.line) == (path, line)]
    if expected == "-":  # nothing in the code states the type: kept, marked by name
        assert (site.resolved, site.target) == (False, ""), form
        return
    assert site.resolved, f"{form}: {path}:{line} left by name"
    where, _, qualname = expected.partition(":")
    assert site.target == f"{where}.{qualname}", form


def python_marked(files: dict[str, str]) -> list[tuple[str, str, int, str]]:
    """``(form, path, line, called name)`` of each call marked ``# @form NAME`` in ``files``."""
    return [
        (m.group(1), path, number, m.group(2))
        for path, text in files.items()
        for number, line in enumerate(text.splitlines(), 1)
        if (m := PYTHON_MARKS.search(line))
    ]


def committed(tmp_path_factory: pytest.TempPathFactory, name: str, files: dict[str, str]) -> Path:
    """A git repository holding ``files`` in one commit."""
    root = tmp_path_factory.mktemp(name) / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write_files(root, dict(files))
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "initial")
    return root


def answers(lines: str) -> Answers:
    """An oracle's JSON lines (eval/JavaCalls.java, eval/go_calls.go) as (path, line, called
    name) -> the declarations it ties the call to."""
    out: Answers = {}
    for row in map(json.loads, lines.splitlines()):
        key = (row["path"], row["line"], row["name"])
        out.setdefault(key, set()).update((p, line) for p, line in row["defs"])
    return out


def indexed(root: Path) -> SymbolGraph:
    """The symbol graph of ``root`` as an index without vectors builds it."""
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    return store.symbols


def declared(graph: SymbolGraph, site: CallSite) -> set[tuple[str, int]]:
    """Where a site's target is declared: the definition's line, and for a class (``new
    C()``) each of its constructors' too."""
    d = graph._by_full[site.target]
    found = {(d.path, d.line)}
    if d.kind == "class":
        found |= {(m.path, m.line) for m in graph.members(d) if m.kind == "constructor"}
    return found


def lands(
    graph: SymbolGraph, truth: Answers, mark: tuple[str, str, int, str, bool], oracle: str
) -> None:
    """The marked call is tied where the oracle ties it, or (a mark ``-``) kept by name."""
    form, path, line, name, typed = mark
    [site] = [c for c in graph.callers(name) if (c.path, c.line) == (path, line)]
    if not typed:  # the code does not state the type there: kept, marked by name
        assert (site.resolved, site.target) == (False, ""), form
        return
    assert truth.get((path, line, name)), f"{form}: {oracle} ties no {name} on {path}:{line}"
    assert site.resolved, f"{form}: {path}:{line} left by name"
    assert declared(graph, site) & truth[(path, line, name)], f"{form}: {site.target}"


def tied_only_where(graph: SymbolGraph, truth: Answers, at_least: int) -> set[tuple[str, str]]:
    """Every resolved call of the repository is tied where the oracle ties it (at least
    ``at_least`` of them); the (name, target) of the calls resolved outside."""
    names = {name for _path, _line, name in truth}
    sites = [c for name in names for c in graph.callers(name)]
    resolved = [c for c in sites if c.resolved]
    assert len(resolved) >= at_least
    for site in resolved:
        assert declared(graph, site) & truth.get((site.path, site.line, site.name), set()), site
    return {(c.name, c.target) for c in sites if c.outside}


def jedi_goto(root: Path, path: str, line: int, name: str) -> set[tuple[str, int]]:
    """(path, line) of the repository definitions jedi's ``goto`` lands on from the name
    called on ``line`` of ``path`` (its last call on the line before the line's ``#``)."""
    jedi = pytest.importorskip("jedi")
    text = (root / path).read_text().splitlines()[line - 1]
    column = text.rindex(name + "(", 0, text.index("#"))
    script = jedi.Script(path=str(root / path), project=jedi.Project(str(root)))
    found = set()
    for d in script.goto(line, column, follow_imports=True):
        path = Path(d.module_path) if d.module_path is not None else None
        if path is not None and path.is_relative_to(root) and d.type in ("function", "class"):
            found.add((path.relative_to(root).as_posix(), d.line))
    return found


def compiler(variable: str, command: str, what: str) -> str:
    """The compiler ``variable`` (``CC``) names, else ``command`` on the PATH: a test without
    it fails in CI and is skipped elsewhere (``what``: why the test needs it)."""
    found = os.environ.get(variable) or shutil.which(command)
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"no {command} ({what}): CI runs this")
        pytest.skip(f"no {command} ({what})")
    return found


def eval_script(name: str) -> ModuleType:
    """The scoring script ``eval/NAME.py``, loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, EVAL / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gcc_answers(
    repo: Path, paths: list[str], cc: str | None = None, cxx: str | None = None
) -> Answers:
    """GCC's call graph of ``paths`` in ``repo`` (``eval/c_references_truth.py``) as (path,
    line, called name) -> the definitions it ties the call to (path, line)."""
    out: Answers = {}
    for row in eval_script("c_references_truth").c_truth(repo, paths, cc, cxx).values():
        key = (row["path"], row["line"], row["name"])
        out.setdefault(key, set()).update((p, line) for p, line in row["defs"])
    return out
