"""Generate eval/stdlib.jsonl: structural and conceptual questions over the standard library.

Structural questions ("list the classes in message.py") get their exact expected name sets from
``pyclbr`` (an implementation independent of codeagent's AST tool; imports, which pyclbr does not
report, from a plain ``ast.walk``), computed once on the Python that runs this script and
checked in; the Python version is written into each item's
``source``. Conceptual questions and their expected files were written by hand after reading
the code. ``repo`` is ``stdlib:PACKAGE``: that package's directory in the running interpreter.

Run from the repository root:  python eval/make_stdlib_suite.py  (rewrites eval/stdlib.jsonl)
"""

from __future__ import annotations

import ast
import json
import platform
import pyclbr
import sys
from pathlib import Path

from stdlib_questions import CONCEPTUAL, REPORTS, STRUCTURAL

OUT = Path(__file__).resolve().parent / "stdlib.jsonl"
LICENSE = "code: CPython standard library, PSF-2.0"


def module_name(package: str, file: str) -> str:
    """("concurrent", "futures/thread.py") -> "concurrent.futures.thread"."""
    parts = [package, *file.removesuffix(".py").split("/")]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(package: str, file: str) -> list[str]:
    """What a file imports: ``import a.b`` gives ``a.b``, ``from m import x`` gives ``x``.

    pyclbr does not report imports; these come from a plain walk of the syntax tree, and only
    files whose imports all sit at module level are asked about (no scope to argue over).
    """
    path = Path(json.__file__).parent.parent / package / file
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    if any(node not in tree.body for node in nodes):
        raise SystemExit(f"{package}/{file}: imports below module level; pick another file")
    names = []
    for node in nodes:
        for alias in node.names:
            if alias.name == "*" and isinstance(node, ast.ImportFrom):
                names.append("." * node.level + (node.module or "") + ".*")
            else:
                names.append(alias.name)
    return sorted(set(names))


def expected_symbols(package: str, file: str, operation: str, cls: str | None) -> list[str]:
    """The exact answer: from pyclbr, top-level functions, classes, or a class's methods."""
    if operation == "imports":
        return imported_names(package, file)
    module = module_name(package, file)
    tree = pyclbr.readmodule_ex(module)
    # pyclbr also records names imported from other modules; keep this file's own definitions.
    own = {name: obj for name, obj in tree.items() if getattr(obj, "module", None) == module}
    if operation == "functions":
        names = [n for n, obj in own.items() if isinstance(obj, pyclbr.Function)]
    elif operation == "classes":
        names = [n for n, obj in own.items() if isinstance(obj, pyclbr.Class)]
    elif operation == "methods":
        if cls is None or not isinstance(own.get(cls), pyclbr.Class):
            raise SystemExit(f"{module}: no class {cls!r}")
        names = list(own[cls].methods)
    else:
        raise SystemExit(f"unknown operation {operation!r}")
    if not names:
        raise SystemExit(f"{module}: pyclbr found no {operation} (question {file})")
    return sorted(set(names))


def main() -> None:
    version = platform.python_version()
    lines = []
    for number, (package, file, operation, cls, question) in enumerate(STRUCTURAL, start=1):
        how = "ast.walk (imports)" if operation == "imports" else "pyclbr"
        item = {
            "id": f"stdlib-s{number:02d}",
            "question": question,
            "repo": f"stdlib:{package}",
            "expected_route": "ast",
            "expected_files": [file],
            "expected_symbols": expected_symbols(package, file, operation, cls),
            "answer_must_contain": [],
            "reference_answer": None,
            "source": f"expected_symbols from {how} on Python {version}; {LICENSE}",
        }
        lines.append(item)
    for number, (package, files, must, question) in enumerate(CONCEPTUAL, start=1):
        for file in files:
            if not (Path(json.__file__).parent.parent / package / file).is_file():
                raise SystemExit(f"conceptual question {number}: no file {package}/{file}")
        lines.append(
            {
                "id": f"stdlib-c{number:02d}",
                "question": question,
                "repo": f"stdlib:{package}",
                "expected_route": "rag",
                "expected_files": files,
                "expected_symbols": None,
                "answer_must_contain": must,
                "reference_answer": None,
                "source": f"hand-written, expected files hand-checked on Python {version}; "
                f"{LICENSE}",
            }
        )
    for number, (package, files, text) in enumerate(REPORTS, start=1):
        lines.append(
            {
                "id": f"stdlib-r{number:02d}",
                "question": text,
                "repo": f"stdlib:{package}",
                "expected_route": "rag",
                "expected_files": files,
                "expected_symbols": None,
                "answer_must_contain": [],
                "reference_answer": None,
                "source": "hand-written issue report in the style of real bug reports, "
                f"expected files hand-checked on Python {version}; {LICENSE}",
            }
        )
    OUT.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines)} questions to {OUT.name} (Python {version})", file=sys.stderr)


if __name__ == "__main__":
    main()
