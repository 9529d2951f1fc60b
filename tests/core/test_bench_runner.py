"""`make bench` (``bench/run.py``) runs every benchmark script that needs nothing more, and
skips with a line each one that needs a repository or arguments: a script with a required
argument the runner does not know of would fail the whole run. The scripts' arguments are read
from their own text (their ``add_argument`` calls), not from the runner."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _required_positionals(script: Path) -> list[str]:
    """The positional arguments a script's parser requires (no ``nargs`` of ``?`` or ``*``)."""
    found = []
    for node in ast.walk(ast.parse(script.read_text())):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument"):
            continue
        first = node.args[0] if node.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        if first.value.startswith("-"):
            continue
        nargs = {k.arg: k.value for k in node.keywords}.get("nargs")
        if isinstance(nargs, ast.Constant) and nargs.value in ("?", "*"):
            continue
        found.append(first.value)
    return found


def test_every_script_with_a_required_argument_is_known_to_the_runner() -> None:
    run = _runner()
    known = set(run.NEEDS_REPO) | set(run.BY_HAND)
    scripts = {p.stem: p for p in BENCH.glob("bench_*.py")}
    needing = {name for name, path in scripts.items() if _required_positionals(path)}
    assert needing  # the scan finds them (bench_pool's PATH, bench_declarations' two, ...)
    assert needing - known == set()
    assert known - set(scripts) == set()  # no stale names


def test_the_runner_skips_a_script_run_by_hand_with_its_usage() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "declarations"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "skipped: run it by hand with CHECKOUT QUESTIONS.jsonl" in proc.stdout
