"""`codeagent watch` as a real process on a real git repository: an edit reaches the index
cache by itself, a burst of saves costs one update (two at most), a file .gitignore excludes
costs none, Ctrl-C ends it at once and cleanly; bad input is one line.

Truth: the state hash of the repository as a fresh discovery computes it, and what a separate
`codeagent index --json` reports for it (a cache hit: the watcher built that very entry)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codeagent.repo.state import repo_id
from server_helpers import state_of

from .clirun import run

DEADLINE = 60.0
BASE = {
    "geo/__init__.py": "",
    "geo/shapes.py": "class Shape:\n    def area(self):\n        return 0\n",
    ".gitignore": "build/\n",
}


class WatchProcess:
    """``codeagent watch --embed none --repo ROOT``, its stdout lines read as they come."""

    def __init__(self, root: Path, home: Path) -> None:
        self.err_path = home / "watch.err"
        env = {**os.environ, "CODEAGENT_HOME": str(home)}
        with self.err_path.open("wb") as err:
            command = ["watch", "--embed", "none", "--repo", str(root)]
            self.process = subprocess.Popen(
                [sys.executable, "-m", "codeagent", *command],
                stdout=subprocess.PIPE, stderr=err, env=env, text=True,
            )  # fmt: skip
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def err(self) -> str:
        return self.err_path.read_text(errors="replace")

    def wait_for(self, what: str, timeout: float = DEADLINE) -> None:
        """Until stderr says ``what`` (the process must not end first)."""
        deadline = time.monotonic() + timeout
        while what not in self.err:
            assert self.process.poll() is None, f"watch exited early:\n{self.err}"
            assert time.monotonic() < deadline, f"no {what!r} in:\n{self.err}"
            time.sleep(0.05)

    def updates(self) -> list[str]:
        return [line for line in self.lines if not line.startswith("indexed ")]

    def interrupt(self, signum: int = signal.SIGINT) -> tuple[int, float]:
        """SIGINT (as Ctrl-C sends) or another signal: the exit status and the seconds it
        took to exit."""
        started = time.monotonic()
        self.process.send_signal(signum)
        code = self.process.wait(10)
        return code, time.monotonic() - started

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._reader.join(5)


@pytest.fixture
def watching(git_repo: Any, env_setup: Path) -> Iterator[tuple[WatchProcess, Path, Path]]:
    root = git_repo(BASE, name="geo")
    watch = WatchProcess(root, env_setup)
    watch.wait_for("watching geo for changes")
    yield watch, root, env_setup
    watch.close()


def entry(home: Path, root: Path, state: str) -> Path:
    return home / "cache" / repo_id(root) / state


def wait_for_entry(home: Path, root: Path, state: str) -> None:
    """Until the cache holds the index of ``state`` (sealed: its manifest written)."""
    deadline = time.monotonic() + DEADLINE
    while not (entry(home, root, state) / "manifest.json").is_file():
        assert time.monotonic() < deadline, f"no cache entry for state {state[:12]}"
        time.sleep(0.05)


def index_json(root: Path, home: Path) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent", "index", "--embed", "none", "--json"],
        cwd=root, env={**os.environ, "CODEAGENT_HOME": str(home)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def wait_for_lines(watch: WatchProcess, count: int) -> list[str]:
    deadline = time.monotonic() + DEADLINE
    while len(watch.updates()) < count:
        assert time.monotonic() < deadline, f"{watch.lines}\n{watch.err}"
        time.sleep(0.05)
    return watch.updates()


def mark(watch: WatchProcess, root: Path, home: Path, name: str) -> list[str]:
    """Add ``geo/mark_NAME.py`` and wait until the watcher reports it: every update so far,
    the marker's the last (the watcher handles changes in order)."""
    (root / f"geo/mark_{name}.py").write_text(f"{name} = 1\n", encoding="utf-8")
    wait_for_entry(home, root, state_of(root))
    deadline = time.monotonic() + DEADLINE
    while not any(f"geo/mark_{name}.py" in line for line in watch.updates()):
        assert time.monotonic() < deadline, f"{watch.lines}\n{watch.err}"
        time.sleep(0.05)
    lines = watch.updates()
    assert f"geo/mark_{name}.py" in lines[-1], lines
    return lines


def test_an_edit_reaches_the_index_without_asking(
    watching: tuple[WatchProcess, Path, Path],
) -> None:
    watch, root, home = watching
    before = state_of(root)
    deadline = time.monotonic() + DEADLINE
    while not watch.lines:  # written before "watching", read by another thread
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert watch.lines[0].endswith(f"state {before[:12]}")
    with (root / "geo/shapes.py").open("a", encoding="utf-8") as handle:
        handle.write("\n\ndef zebra_helper():\n    return 1\n")
    after = state_of(root)
    assert after != before
    wait_for_entry(home, root, after)
    [line] = wait_for_lines(watch, 1)
    assert "1 file changed (geo/shapes.py)" in line
    assert line.endswith(f"state {after[:12]}")
    report = index_json(root, home)  # another process finds the entry the watcher built
    assert report["state_hash"] == after
    assert report["cache_hit"] is True

    # A new file, then a commit: each its own update, each state in the cache.
    (root / "geo/extra.py").write_text("def quokka():\n    return 2\n", encoding="utf-8")
    wait_for_entry(home, root, state_of(root))
    lines = wait_for_lines(watch, 2)
    assert "(geo/extra.py)" in lines[1]
    code, seconds = watch.interrupt()
    assert code in (0, 130)
    assert seconds < 1.0
    assert "Traceback" not in watch.err


def test_a_burst_of_saves_is_one_update_and_ignored_files_none(
    watching: tuple[WatchProcess, Path, Path],
) -> None:
    """Each "nothing more happened" is read once the watcher has handled a later, unrelated
    change (:func:`mark`): its updates come in the order of the changes."""
    watch, root, home = watching
    (root / "build").mkdir()
    (root / "build/out.py").write_text("generated = 1\n", encoding="utf-8")  # .gitignore'd
    [line] = mark(watch, root, home, "first")  # nothing discovery sees changed before it
    assert "1 file changed (geo/mark_first.py)" in line
    target = root / "geo/saved.py"
    for n in range(20):  # an editor saving 20 times in a row, 20 ms apart
        target.write_text(f"def saved_{n}():\n    return {n}\n", encoding="utf-8")
        time.sleep(0.02)
    final = state_of(root)
    wait_for_entry(home, root, final)
    lines = mark(watch, root, home, "second")[1:-1]  # the burst's, a second one if any
    assert 1 <= len(lines) <= 2, lines
    assert lines[-1].endswith(f"state {final[:12]}")
    assert all("build/" not in line for line in lines)
    assert "geo/saved.py" in lines[0]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_while_watching_exits_at_once_and_cleanly(
    watching: tuple[WatchProcess, Path, Path], signum: int
) -> None:
    watch, root, home = watching
    mark(watch, root, home, "idle")  # it has handled a change and waits for the next
    code, seconds = watch.interrupt(signum)
    assert code == 0
    assert seconds < 1.0, seconds
    assert "Traceback" not in watch.err
    assert watch.err.rstrip().endswith("stopped watching geo")


def test_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    result = run("watch", "--embed", "none", "--repo", str(tmp_path / "nowhere"))
    assert result.code != 0
    assert result.err.strip() == f"error: no such directory: {tmp_path / 'nowhere'}"


def test_a_url_is_refused_in_one_line() -> None:
    result = run("watch", "--repo", "https://example.com/a/b.git")
    assert result.code == 2
    assert result.err.strip().splitlines() == [
        "error: codeagent watch needs a local folder, not a URL: https://example.com/a/b.git"
    ]


def test_a_folder_with_nothing_to_index_is_one_line(git_repo: Any) -> None:
    root = git_repo({"logo.png": b"\x89PNG\r\n\x1a\n\0\0\0"}, name="empty")
    result = run("watch", "--embed", "none", "--repo", str(root))
    assert result.code != 0
    assert result.err.count("\n") == 1
    assert result.err.startswith("error: no indexable files")


def test_a_watch_the_system_refuses_is_one_line(
    git_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """inotify's limit reached (as watchfiles reports it): the index is built, then one line."""
    import watchfiles

    def refused(*_paths: object, **_options: object) -> Iterator[set[Any]]:
        raise OSError(28, "OS file watch limit reached")
        yield set()

    monkeypatch.setattr(watchfiles, "watch", refused)
    root = git_repo(BASE, name="geo")
    result = run("watch", "--embed", "none", "--repo", str(root))
    assert result.code == 1
    assert result.out.startswith("indexed geo: 2 files")
    assert result.err.strip().splitlines()[-1] == (
        f"error: cannot watch {root.resolve()}: [Errno 28] OS file watch limit reached"
    )
    assert "Traceback" not in result.err
