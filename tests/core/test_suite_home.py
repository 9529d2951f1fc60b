"""The test suite leaves the user's home alone: module-scoped fixtures included.

Each test runs pytest in a fresh process over a small test file that sits beside a copy of the
suite's own ``conftest.py``, with ``HOME`` pointed at a folder of this test and no
``CODEAGENT_HOME``: what that run writes under ``HOME`` is what the real suite would write
under the user's home.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

MODULE_FIXTURE = """
import pytest
from codeagent.paths import default_home


@pytest.fixture(scope="module")
def built():
    home = default_home()
    (home / "cache").mkdir(parents=True, exist_ok=True)
    (home / "cache" / "entry").write_text("x")
    return home


def test_uses_module_fixture(built):
    assert (built / "cache" / "entry").read_text() == "x"
"""

WRITES_HOME = """
from pathlib import Path


def test_writes_into_home():
    target = Path.home() / ".codeagent" / "stray"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("x")
"""


def _run_suite(tmp_path: Path, source: str, *, caller_home: Path | None = None) -> tuple[int, str]:
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(CONFTEST, suite / "conftest.py")
    (suite / "test_sample.py").write_text(source, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEAGENT_")}
    env["HOME"] = str(tmp_path / "user")
    for name in ("XDG_CACHE_HOME", "HF_HOME"):
        env.pop(name, None)
    if caller_home is not None:
        env["CODEAGENT_HOME"] = str(caller_home)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "--rootdir",
            str(suite),
            str(suite),
        ],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stdout + proc.stderr


def test_module_scoped_fixture_builds_outside_the_users_home(tmp_path: Path) -> None:
    (tmp_path / "user").mkdir()
    rc, out = _run_suite(tmp_path, MODULE_FIXTURE)
    assert rc == 0, out
    assert not (tmp_path / "user" / ".codeagent").exists(), out


def test_module_scoped_fixture_leaves_the_callers_codeagent_home_alone(tmp_path: Path) -> None:
    caller = tmp_path / "caller-home"
    caller.mkdir()
    (caller / "config.toml").write_text("", encoding="utf-8")
    rc, out = _run_suite(tmp_path, MODULE_FIXTURE, caller_home=caller)
    assert rc == 0, out
    assert sorted(p.name for p in caller.iterdir()) == ["config.toml"], out


def test_a_write_into_the_users_home_fails_the_run(tmp_path: Path) -> None:
    (tmp_path / "user").mkdir()
    rc, out = _run_suite(tmp_path, WRITES_HOME)
    assert rc != 0, out
    assert "changed the user's codeagent home" in out
    assert "stray" in out
