"""The test suite leaves the user's home alone: module-scoped fixtures and the toolchains
tests run (rustc, cargo, npm, go) included.

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


# Tools a test may run, each writing into the user's home by default: the rustup shim creates
# ~/.rustup (even for `rustc --version` in a home without a toolchain), cargo ~/.cargo, npm
# ~/.npm (a log of every run), go ~/go and its caches.
TOOL_HOMES = ("RUSTUP_HOME", "CARGO_HOME", "npm_config_cache", "GOPATH", "GOCACHE", "GOMODCACHE")
TOOLS = [
    ["rustc", "--version"],
    ["cargo", "--version"],
    ["npm", "config", "get", "cache"],
    ["go", "env", "GOPATH"],
]

RUNS_TOOLS = f"""
import shutil
import subprocess

import pytest


@pytest.mark.parametrize("command", {TOOLS!r})
def test_runs_a_tool(command):
    if shutil.which(command[0]) is None:
        pytest.skip("not installed")
    subprocess.run(command, capture_output=True, timeout=60, check=False)
"""


def _run_suite(tmp_path: Path, source: str, *, caller_home: Path | None = None) -> tuple[int, str]:
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(CONFTEST, suite / "conftest.py")
    (suite / "test_sample.py").write_text(source, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEAGENT_")}
    env["HOME"] = str(tmp_path / "user")
    # as a user's shell has them: unset (each tool then picks its home's default)
    for name in ("XDG_CACHE_HOME", "HF_HOME", *TOOL_HOMES):
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


def test_module_scoped_fixture_and_toolchains_write_nothing_into_the_users_home(
    tmp_path: Path,
) -> None:
    """A module-scoped fixture builds outside the user's home, and what rustc, cargo, npm and
    go write in a home of their own goes to the run's folder (those installed: rustc and
    cargo through the rustup shim here)."""
    user = tmp_path / "user"
    user.mkdir()
    rc, out = _run_suite(tmp_path, MODULE_FIXTURE + RUNS_TOOLS)
    assert rc == 0, out
    assert "passed" in out
    assert sorted(str(p.relative_to(user)) for p in user.rglob("*")) == [], out


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
