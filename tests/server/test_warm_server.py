"""The server `codeagent ask` leaves running: started after an in-process answer, said once,
answering the next question, listed by `codeagent status`, stopped by `codeagent stop` or
after its idle time, never started with `--no-server` or the setting off, one per home.

Real processes throughout; each test stops any server it started (``leftover``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codeagent.errors import ConfigError
from codeagent.server.idle import hold_home_lock
from server_helpers import FILES

STARTED = "started a server for this repository"
QUESTION = "list the classes in geo/shapes.py"
PROBE = """
import sys
sys.argv = ["codeagent", *sys.argv[1:]]
from codeagent.cli.main import main
try:
    main()
finally:
    print("CLICK" if "click" in sys.modules else "NO-CLICK", file=sys.stderr)
"""


def codeagent(*args: str, home: Path, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "CODEAGENT_HOME": str(home), "CODEAGENT_AUTO_SERVER": "true"}
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**environment, **env},
        timeout=300,
    )


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, gone but not yet reaped by whoever adopted it, does
    not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def wait_for_server(home: Path) -> dict[str, Any]:
    deadline = time.monotonic() + 120  # a hang guard
    while time.monotonic() < deadline:
        try:
            data: dict[str, Any] = json.loads((home / "server.json").read_text())
            return data
        except (OSError, ValueError):
            time.sleep(0.1)
    raise AssertionError("no server came up")


@pytest.fixture
def leftover(env_setup: Path) -> Iterator[Path]:
    """The test's home; a server still recorded there afterwards is stopped."""
    yield env_setup
    try:
        pid = json.loads((env_setup / "server.json").read_text())["pid"]
    except (OSError, ValueError, KeyError):
        try:  # one still starting
            pid = int((env_setup / "server.starting").read_text())
        except (OSError, ValueError):
            return
    if pid_alive(pid):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)


def test_ask_leaves_a_server_that_answers_the_next_question(git_repo: Any, leftover: Path) -> None:
    home, root = leftover, git_repo(FILES)
    flags = ("--llm", "none", "--embed", "none")
    first = codeagent("ask", *flags, QUESTION, home=home, cwd=root)
    assert first.returncode == 0, first.stderr
    assert "class Square" in first.stdout
    assert sum(STARTED in line for line in first.stderr.splitlines()) == 1  # said once
    address = wait_for_server(home)
    assert address["host"] == "127.0.0.1"  # loopback only
    assert address["exit_after_idle"] == 600
    status = codeagent("status", home=home, cwd=root)
    assert f"server pid {address['pid']}" in status.stdout
    assert str(root) in status.stdout
    second = codeagent("ask", *flags, QUESTION, home=home, cwd=root)
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout
    assert "NO-CLICK" in second.stderr  # the server answered: nothing of the CLI loaded
    assert STARTED not in second.stderr
    stopped = codeagent("stop", home=home, cwd=root)
    assert f"stopped the server (pid {address['pid']})" in stopped.stdout
    assert not pid_alive(address["pid"])
    assert codeagent("status", home=home, cwd=root).stdout.strip() == "no server is running"


def test_stop_right_after_the_ask_stops_the_server_it_started(
    git_repo: Any, leftover: Path
) -> None:
    """`codeagent stop` run as soon as `ask` says it started a server (before the server has
    written its address) waits for it and stops it, rather than saying none runs and leaving
    it to run its idle time."""
    home, root = leftover, git_repo(FILES)
    asked = codeagent("ask", "--llm", "none", "--embed", "none", QUESTION, home=home, cwd=root)
    assert STARTED in asked.stderr
    status = codeagent("status", home=home, cwd=root).stdout
    assert "a server is starting (pid" in status or "server pid" in status  # or up already
    stopped = codeagent("stop", home=home, cwd=root)
    assert stopped.returncode == 0, stopped.stderr
    pid = int(stopped.stdout.rpartition("(pid ")[2].rstrip(")\n"))
    assert not pid_alive(pid)
    assert not (home / "server.starting").exists()
    assert codeagent("status", home=home, cwd=root).stdout.strip() == "no server is running"


def test_the_server_exits_after_its_idle_time(git_repo: Any, leftover: Path) -> None:
    home, root = leftover, git_repo(FILES)
    flags = ("--llm", "none", "--embed", "none")
    asked = codeagent("ask", *flags, QUESTION, home=home, cwd=root, CODEAGENT_SERVER_IDLE="1")
    assert STARTED in asked.stderr
    assert "stops after 1 s idle" in asked.stderr
    pid = wait_for_server(home)["pid"]
    deadline = time.monotonic() + 120  # a hang guard: it goes about a second after starting
    while pid_alive(pid) or (home / "server.json").exists():
        assert time.monotonic() < deadline, "the idle server did not exit"
        time.sleep(0.1)


@pytest.mark.parametrize(
    ("args", "env"),
    [(("--no-server",), {}), ((), {"CODEAGENT_AUTO_SERVER": "false"})],
    ids=["--no-server", "setting off"],
)
def test_no_server_is_left_when_asked_not_to(
    git_repo: Any, leftover: Path, args: tuple[str, ...], env: dict[str, str]
) -> None:
    home, root = leftover, git_repo(FILES)
    asked = codeagent("ask", "--llm", "none", *args, QUESTION, home=home, cwd=root, **env)
    assert asked.returncode == 0, asked.stderr
    assert STARTED not in asked.stderr
    time.sleep(0.5)  # (a server would write its address within a few seconds; none starts)
    assert not (home / "server.json").exists()


def test_one_server_per_home(tmp_path: Path) -> None:
    held = hold_home_lock(tmp_path)
    try:
        with pytest.raises(ConfigError, match="already running"):
            hold_home_lock(tmp_path)
    finally:
        os.close(held)
    os.close(hold_home_lock(tmp_path))  # free again once released


def test_no_second_server_while_one_is_starting(git_repo: Any, leftover: Path) -> None:
    """A server that has taken the home's lock but not yet written its address (one still
    starting, as the lock held here stands for): the question is answered in-process, no
    start is said and none is tried (a second would only fail on the lock)."""
    home, root = leftover, git_repo(FILES)
    held = hold_home_lock(home)
    try:
        asked = codeagent("ask", "--llm", "none", "--embed", "none", QUESTION, home=home, cwd=root)
        time.sleep(1.0)  # (a server started anyway would have failed on the lock by now)
    finally:
        os.close(held)
    assert asked.returncode == 0, asked.stderr
    assert "class Square" in asked.stdout
    assert STARTED not in asked.stderr
    log = home / "server.log"
    assert "already running" not in (log.read_text() if log.exists() else "")
    assert not (home / "server.json").exists()


LINGERING = """
import json, os, signal, sys, time
home = sys.argv[1]
def stop(*_):
    os.unlink(os.path.join(home, "server.json"))
    time.sleep(1.5)  # still closing after its address is gone
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
address = {"pid": os.getpid(), "host": "127.0.0.1", "port": 9}
with open(os.path.join(home, "server.json"), "w") as file:
    json.dump(address, file)
print("ready", flush=True)
while True:
    time.sleep(0.05)
"""


def test_stop_says_stopped_only_once_the_process_has_ended(env_setup: Path, tmp_path: Path) -> None:
    """A server removes its address file and goes on for a moment (closing its socket and
    lock); `codeagent stop` waits for the process, not for the file."""
    server = subprocess.Popen(
        [sys.executable, "-c", LINGERING, str(env_setup)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline() == "ready\n"
        stopped = codeagent("stop", home=env_setup, cwd=tmp_path)
        assert stopped.returncode == 0, stopped.stderr
        assert f"stopped the server (pid {server.pid})" in stopped.stdout
        assert server.poll() is not None  # ended (and reaped here) before stop returned
    finally:
        server.kill()
        server.wait()


def test_a_zombie_is_not_a_running_server() -> None:
    """A server that exited but that nobody reaped (its parent `ask` is gone; a container's
    first process may never reap) is not running: `stop` and `status` must not wait on it."""
    from codeagent.server.address import pid_alive as product_pid_alive

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        assert product_pid_alive(os.getpid())
        deadline = time.monotonic() + 60  # a hang guard
        while pid_alive(child.pid):  # until it has exited (unreaped: a zombie)
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert os.kill(child.pid, 0) is None  # the kernel still has it
        assert not product_pid_alive(child.pid)
    finally:
        child.wait()
    assert not product_pid_alive(child.pid)
