"""Each planted bug in ``planted.toml`` makes at least one of its tests fail.

The bug is applied to a copy of ``src/`` (the checkout itself is never touched) and the named
test files run against that copy in a fresh process (``PYTHONPATH`` puts it first), so what
fails is the bug, not the test. Slow: one pytest process per bug
(``pytest -m slow tests/mutation/test_planted.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLANTED = tomllib.loads(Path(__file__).with_name("planted.toml").read_text(encoding="utf-8"))
MARKERS = "not slow and not ollama and not llamacpp and not browser"


def copy_package(copy: Path) -> None:
    """``src/`` and, beside it as in the checkout, ``prompts/`` (the agent reads its templates
    from there: without them every test that renders a prompt fails, bug or no bug)."""
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "prompts", copy / "prompts")


def plant(name: str, copy: Path) -> None:
    bug = PLANTED[name]
    copy_package(copy)
    target = copy / bug["file"]
    text = target.read_text(encoding="utf-8")
    assert text.count(bug["old"]) == 1, f"{name}: the code to change is not in {bug['file']}"
    target.write_text(text.replace(bug["old"], bug["new"]), encoding="utf-8")


def run_tests(tests: list[str], src: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", MARKERS]
    return subprocess.run(
        [*command, *tests], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLANTED))
def test_the_planted_bug_is_caught(name: str, tmp_path: Path) -> None:
    plant(name, tmp_path)
    done = run_tests(PLANTED[name]["tests"], tmp_path / "src")
    # 1: tests ran and some failed (2 and up: collection errors, usage, no tests)
    assert done.returncode == 1, f"{name} was not caught:\n{done.stdout[-3000:]}"


@pytest.mark.slow
def test_the_tests_import_the_copy(tmp_path: Path) -> None:
    """The control: with PYTHONPATH set so, the package comes from the copy, not the checkout."""
    shutil.copytree(ROOT / "src", tmp_path / "src")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "src")}
    where = subprocess.run(
        [sys.executable, "-c", "import codeagent; print(codeagent.__file__)"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(tmp_path / "src")


@pytest.mark.slow
def test_the_tests_pass_on_a_copy_without_a_bug(tmp_path: Path) -> None:
    """The other control: every test file a bug names passes against an unchanged copy, so a
    failure under a bug is the bug's (not a file the copy lacks, nor a test failing anyway)."""
    copy_package(tmp_path)
    tests = sorted({test for bug in PLANTED.values() for test in bug["tests"]})
    done = run_tests(tests, tmp_path / "src")
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_the_planted_code_is_still_there_once(name: str) -> None:
    """Fast, in the default suite: each bug's ``old`` text stands exactly once in its file and
    its test files exist, so a change that moves the planted line is seen at once (the slow
    test above would otherwise fail only in CI's slow run)."""
    bug = PLANTED[name]
    text = (ROOT / bug["file"]).read_text(encoding="utf-8")
    assert text.count(bug["old"]) == 1, f"{name}: the code to change is not in {bug['file']}"
    assert bug["old"] != bug["new"]
    for test in bug["tests"]:
        assert (ROOT / test.split("::")[0]).is_file(), f"{name}: no test file {test}"
