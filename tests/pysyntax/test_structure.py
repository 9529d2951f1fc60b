"""scan() and calls(): every definition with its qualified name, lines and blocks, and every
call in its scope; definitions checked against ``pyclbr``, blocks and scopes against
hand-read source."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from codeagent.pysyntax import calls, scan

STDLIB = Path(sysconfig.get_paths()["stdlib"])
MODULES = ["argparse", "json.decoder", "email.message", "http.client", "typing", "ntpath"]


# pyclbr follows imports through the import system, which pytest's import hooks disturb: it
# runs in a clean interpreter, from the standard library's folder, and reports plain data.
_PYCLBR = """
import json, pyclbr, sys
out = {}
def walk(prefix, children, module):
    for name, item in children.items():
        if getattr(item, "module", module) != module:
            continue
        kind = "class" if isinstance(item, pyclbr.Class) else "function"
        out[prefix + name] = [item.lineno, item.end_lineno, kind]
        walk(prefix + name + ".", item.children, module)
walk("", pyclbr.readmodule_ex(sys.argv[1]), sys.argv[1])
print(json.dumps(out))
"""


def _pyclbr_defs(module: str) -> dict[str, list[Any]]:
    """qualified name -> [line, end line, kind], nested functions and classes included."""
    done = subprocess.run(
        [sys.executable, "-I", "-X", "frozen_modules=off", "-c", _PYCLBR, module],
        capture_output=True, text=True, check=True, cwd=STDLIB,
    )  # fmt: skip
    found: dict[str, list[Any]] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("module", MODULES)
def test_definitions_match_pyclbr(module: str) -> None:
    path = STDLIB / (module.replace(".", "/") + ".py")
    found = scan(ast.parse(path.read_text(encoding="utf-8")))
    ours: dict[str, list[int]] = {}
    for site in found.defs:
        ours.setdefault(site.qualname, []).append(site.node.lineno)
    truth = _pyclbr_defs(module)
    assert set(ours) == set(truth)
    assert len(truth) > 5
    for qualname, (line, end, kind) in truth.items():  # pyclbr keeps a repeated name's last
        site = [s for s in found.defs if s.qualname == qualname][-1]
        assert (site.node.lineno, site.end_line) == (line, end), qualname
        assert site.kind in (("class",) if kind == "class" else ("function", "method"))


SOURCE = """\
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path
    def typed(): ...
try:
    import json
except ImportError:
    json = None
else:
    LIMIT = 3

@register(name())
class Box(Base, meta=make()):
    size = compute()

    def open(self, flag=default()) -> kind():
        helper = lambda: inner()
        return [build(x) for x in self.items]

    match os.name:
        case "nt":
            def win(self): ...
"""


def test_blocks_scopes_and_assignments_as_written() -> None:
    found = scan(ast.parse(SOURCE))
    got = [(s.qualname, s.kind, s.start_line, s.end_line, s.condition()) for s in found.defs]
    assert got == [
        ("typed", "function", 6, 6, "if TYPE_CHECKING"),
        ("Box", "class", 14, 24, None),
        ("Box.open", "method", 18, 20, None),
        ("Box.win", "method", 24, 24, "case 'nt'"),
    ]
    imports = [(s.stmt.lineno, found.scope_name(s.scope), s.condition()) for s in found.imports]
    assert imports == [
        (1, "<module>", None),
        (2, "<module>", None),
        (5, "<module>", "if TYPE_CHECKING"),
        (8, "<module>", "try"),
    ]
    assigned = [(s.stmt.lineno, s.condition()) for s in found.assignments]
    assert assigned == [(10, "except ImportError"), (12, "else of try")]
    assert [m.qualname for m in found.members(1)] == ["Box.open"]  # win sits in a match block


def test_each_call_runs_in_its_scope() -> None:
    found = scan(ast.parse(SOURCE))
    sites = [
        (call.func.id, found.scope_name(scope))
        for call, scope in calls(found)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
    ]
    assert sites == [
        ("register", "<module>"),  # a decorator runs where the class is defined
        ("name", "<module>"),
        ("make", "<module>"),  # a class keyword too
        ("compute", "Box"),  # the class body is a scope of its own
        ("default", "Box"),  # a default value runs in the class body
        ("kind", "Box"),  # so does the return annotation
        ("inner", "Box.open"),  # a lambda belongs to the function around it
        ("build", "Box.open"),  # a comprehension too
    ]


def test_only_the_lines_asked_for_are_read() -> None:
    found = scan(ast.parse(SOURCE))
    names = [
        c.func.id
        for c, _ in calls(found, lines=[16, 20])
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
    ]
    assert names == ["compute", "build"]
