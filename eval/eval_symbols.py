"""Measure the repository symbol graph and the symbol tool against independent truth.

    PYTHONPATH=src:eval python eval/eval_symbols.py --requests DIR --flask DIR [--write]

``--requests`` / ``--flask``: checkouts of psf/requests and pallets/flask (the commits are in
``eval/symbols.jsonl``). Truth: ``pyclbr`` (definitions, every file listing), ``__subclasses__``
of the imported standard-library classes (subclasses), ``jedi`` references (call sites; jedi is
in the ``dev`` extra). Prints exact-set precision and recall and every difference with its
reason; ``--write`` also rewrites ``eval/symbols.jsonl`` (the sampled questions with truth).
"""

from __future__ import annotations

import argparse
import json
import platform
import sysconfig
from collections import defaultdict
from pathlib import Path
from typing import Any

from symbols_truth import (
    build_graph,
    imported_classes,
    jedi_call_sites,
    package_modules,
    pyclbr_definitions,
    subclass_truth,
)

from codeagent.agent import rules
from codeagent.config import Settings
from codeagent.index.lazy import LazyIndex
from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.ast_tool import run_ast_query
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import default_registry

STDLIB = [
    "json",
    "email",
    "logging",
    "http",
    "asyncio",
    "importlib",
    "concurrent",
    "xml",
    "unittest",
    "collections",
    "urllib",
    "html",
    "wsgiref",
    "multiprocessing",
]
OUT = Path(__file__).resolve().parent / "symbols.jsonl"
PY = f"Python {platform.python_version()}"
REQUESTS_COMMIT = "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e"
FLASK_COMMIT = "2ac89889f4cc330eabd50f295dcef02828522c69"
CALLEE_SAMPLE = 80


def _explained_extra(graph: SymbolGraph, path: str, qualname: str) -> str | None:
    """Why pyclbr may not report a definition the graph has (its known limits), or None."""
    rows = graph.files[path]["d"]
    names = [q for q, *_ in rows]
    imported = {imp.bound for imp in graph.imports_of(path)}
    parts = qualname.split(".")
    for i in range(1, len(parts) + 1):
        prefix = ".".join(parts[:i])
        if names.count(prefix) > 1:
            return f"{prefix} is defined twice in one scope (pyclbr keeps the last)"
        if i == 1 and prefix in imported:
            return f"{prefix} is also imported in the module (pyclbr lets the import win)"
    return None


def definitions(
    graph: SymbolGraph,
    modules: dict[str, str],
    search: list[str] | None,
    prefix: str,
    report: dict[str, Any],
    questions: list[dict[str, Any]],
    repo: dict[str, Any],
) -> None:
    truth_all: dict[str, set[str]] = {}
    compared: set[str] = set()  # the modules pyclbr could read (answers elsewhere: unjudged)
    for module, rel in modules.items():
        path = prefix + rel
        if path not in graph.files:
            continue
        found = pyclbr_definitions(module, search)
        if found is None:
            report["def_skipped_modules"].append(module)
            continue
        truth = {f"{module}.{q}" for q, _k, _l in found}
        compared.add(module)
        mine = {d.full_name for d in graph.definitions_in(path)}
        report["def_truth"] += len(truth)
        report["def_found"] += len(truth & mine)
        for full in sorted(truth - mine):
            report["def_missing"].append(full)
        for full in sorted(mine - truth):
            why = _explained_extra(graph, path, full[len(module) + 1 :])
            (report["def_extra_explained"] if why else report["def_extra"]).append((full, why))
        for full in truth:
            truth_all.setdefault(full.rsplit(".", 1)[-1], set()).add(full)
        report["def_extra_count"] += len(mine - truth)
    # Questions: every 25th name, "where is NAME defined" (bare name: every definition).
    for name in sorted(truth_all)[::25]:
        got = {
            d.full_name
            for d in graph.definitions(name)
            if d.kind != "module" and d.module in compared
        }
        want = truth_all[name]
        extra = {g for g in got - want if _explained_extra(graph, _path_of(graph, g), _q(graph, g))}
        got -= extra
        report["def_q"] += 1
        report["def_q_exact"] += got == want
        if got != want:
            report["def_q_diff"].append((name, sorted(want - got), sorted(got - want)))
        questions.append(
            {
                "question": f"where is {name} defined?",
                "expected_route": "symbols",
                "expected_files": sorted({_path_of(graph, f) for f in want}),
                "expected_symbols": sorted(want),
                **repo,
                "source": f"expected_symbols: every definition named {name}, from pyclbr on {PY}",
            }
        )


def _path_of(graph: SymbolGraph, full: str) -> str:
    return graph.definitions(full)[0].path


def _q(graph: SymbolGraph, full: str) -> str:
    return graph.definitions(full)[0].qualname


def subclasses(
    graph: SymbolGraph,
    package: str,
    modules: list[str],
    report: dict[str, Any],
    questions: list[dict[str, Any]],
) -> None:
    """Over the classes both truths see: imported (``__subclasses__`` works on them) and
    written as class statements (pyclbr); the graph's other answers are counted as unjudged
    (classes under ``if __name__ == "__main__"`` or for another platform, test classes)."""
    defined = set()
    for module in modules:
        for q, kind, _ in pyclbr_definitions(module) or []:
            if kind == "class":
                defined.add(f"{module}.{q}")
    classes = {k: v for k, v in imported_classes(modules).items() if k in defined}
    for n, key in enumerate(sorted(classes)):
        for transitive in (False, True):
            want = subclass_truth(classes, key, transitive)
            if not want and transitive:
                continue
            answer = {d.full_name for d in graph.subclasses(key, transitive=transitive)}
            got = answer & set(classes)
            report["sub_unjudged"] += len(answer - got)
            report["sub_q"] += 1
            report["sub_truth"] += len(want)
            report["sub_found"] += len(want & got)
            report["sub_got"] += len(got)
            if got != want:
                report["sub_diff"].append((key, transitive, sorted(want - got), sorted(got - want)))
            if want and n % 4 == 0:
                word = "all subclasses" if transitive else "subclasses"
                questions.append(
                    {
                        "question": f"list {word} of {key.rsplit('.', 1)[-1]}"
                        if len(graph.definitions(key.rsplit(".", 1)[-1])) == 1
                        else f"list {word} of {key}",
                        "expected_route": "symbols",
                        "expected_files": [],
                        "expected_symbols": sorted(want),
                        "repo": f"stdlib:{package}",
                        "source": f"expected_symbols: __subclasses__() of imported classes, {PY}",
                    }
                )


def callers(
    root: Path,
    graph: SymbolGraph,
    report: dict[str, Any],
    questions: list[dict[str, Any]],
    repo: dict[str, Any],
) -> None:
    kinds = ("function", "method")
    defs = [d for d in graph._defs if d.path.startswith("src/") and d.kind in kinds]
    defs = [d for d in defs if not d.name.startswith("__")][:: max(1, len(defs) // CALLEE_SAMPLE)]
    for d in defs:
        want = jedi_call_sites(root, d.path, d.line, d.name)
        if not want:
            continue
        got = {(c.path, c.line) for c in graph.callers(d.name)}
        report["call_q"] += 1
        report["call_truth"] += len(want)
        report["call_found"] += len(want & got)
        report["call_got"] += len(got)
        if want - got:
            report["call_missing"].append((d.full_name, sorted(want - got)))
        questions.append(
            {
                "question": f"who calls {d.qualname}?",
                "expected_route": "symbols",
                "expected_files": sorted({p for p, _ in want}),
                "expected_symbols": sorted(f"{p}:{line}" for p, line in want),
                **repo,
                "source": "expected_symbols: call sites (path:line) from jedi 0.20 references",
            }
        )


def route_by_rules(question: str, root: Path) -> Any:
    """The rule router's decision (no LLM) with the default tools on ``root``."""
    settings = Settings(llm="none", embed="none")
    ctx = ToolContext(root, settings, LazyIndex(root, settings))
    return rules.route_by_rules(question, ctx, default_registry())


def listings(root: Path, src: str, report: dict[str, Any]) -> None:
    """ "list the functions and classes defined in FILE" for every source file (pyclbr truth)."""
    pkg_dir = root / src
    for module, rel in package_modules(pkg_dir, pkg_dir.name).items():
        path = f"{src}/{rel}"
        want = {q for q, k, _ in pyclbr_definitions(module, [str(pkg_dir.parent)]) if "." not in q}
        question = f"list the functions and classes defined in {path}"
        decision = route_by_rules(question, root)
        report["list_q"] += 1
        args = decision.args
        ok_route = (decision.tool, args.get("operation"), args.get("file")) == (
            "ast",
            "outline",
            path,
        )
        got = set(run_ast_query(root, path, "outline").names()) if ok_route else set()
        report["list_truth"] += len(want)
        report["list_found"] += len(want & got)
        if not ok_route or want - got:
            missing = sorted(want - got)
            report["list_diff"].append((path, decision.tool, args.get("operation"), missing))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=Path, required=True)
    parser.add_argument("--flask", type=Path, required=True)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = defaultdict(int)
    for key in (
        "def_missing",
        "def_extra",
        "def_extra_explained",
        "def_skipped_modules",
        "def_q_diff",
        "sub_diff",
        "call_missing",
        "list_diff",
    ):
        report[key] = []
    questions: list[dict[str, Any]] = []
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for package in STDLIB:
        graph = build_graph(stdlib / package)
        modules = package_modules(stdlib / package, package)
        definitions(graph, modules, None, "", report, questions, {"repo": f"stdlib:{package}"})
        subclasses(graph, package, list(modules), report, questions)
    for root, commit, name in (
        (args.requests, REQUESTS_COMMIT, "psf/requests"),
        (args.flask, FLASK_COMMIT, "pallets/flask"),
    ):
        graph = build_graph(root)
        pkg = name.split("/")[1]
        modules = package_modules(root / "src" / pkg, pkg)
        repo = {"repo": name, "commit": commit}
        definitions(graph, modules, [str(root / "src")], f"src/{pkg}/", report, questions, repo)
        listings(root, f"src/{pkg}", report)
        if name == "psf/requests":
            callers(root, graph, report, questions, repo)
    _print(report)
    if args.write:
        with OUT.open("w", encoding="utf-8") as out:
            for n, q in enumerate(questions, 1):
                out.write(json.dumps({"id": f"symbols-{n:03d}", **q}) + "\n")
        print(f"wrote {len(questions)} questions to {OUT}")


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.2f} % ({a}/{b})" if b else "n/a"


def _print(r: dict[str, Any]) -> None:
    print("definitions, every module (pyclbr truth):")
    print("  recall   ", _pct(r["def_found"], r["def_truth"]))
    explained = len(r["def_extra_explained"])
    print(
        "  precision",
        _pct(r["def_found"], r["def_found"] + len(r["def_extra"])),
        f"(+{explained} extra definitions pyclbr cannot report, each explained)",
    )
    print("  missing:", r["def_missing"][:20])
    print("  unexplained extra:", r["def_extra"][:20])
    reasons: dict[str, int] = {}
    for _full, why in r["def_extra_explained"]:
        key = "defined twice" if "twice" in why else "also imported"
        reasons[key] = reasons.get(key, 0) + 1
    print("  explained extra by reason:", reasons)
    print("  modules pyclbr cannot read (frozen), skipped:", r["def_skipped_modules"])
    print("definition questions, exact set:", _pct(r["def_q_exact"], r["def_q"]))
    for diff in r["def_q_diff"]:
        print("  diff:", diff)
    print("subclasses (__subclasses__ truth):", r["sub_q"], "class queries")
    print("  recall   ", _pct(r["sub_found"], r["sub_truth"]))
    print("  precision", _pct(r["sub_found"], r["sub_got"]))
    print("  answers outside the classes both truths see (unjudged):", r["sub_unjudged"])
    for diff in r["sub_diff"]:
        print("  diff:", diff)
    print("call sites (jedi truth):", r["call_q"], "callees")
    print("  recall   ", _pct(r["call_found"], r["call_truth"]))
    print("  precision", _pct(r["call_found"], r["call_got"]), "(by name: expected to be lower)")
    for diff in r["call_missing"]:
        print("  missing:", diff)
    print("file listings (pyclbr truth):", r["list_q"], "files")
    print("  names listed", _pct(r["list_found"], r["list_truth"]))
    for diff in r["list_diff"]:
        print("  diff:", diff)


if __name__ == "__main__":
    main()
