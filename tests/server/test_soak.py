"""Soak: a real server answers questions for minutes while a thread edits, adds, deletes,
commits and switches branches in the served repository.

Every answer must come from the state the repository was in while it was asked, or say that
the index is catching up; no request may fail; the server's memory must stay bounded. Truth:
the editing thread, which records after each change the repository's state hash and where
each function it wrote is defined (read from the files, not from the server).

Runs for ``CODEAGENT_SOAK_SECONDS`` (default 600) seconds; all traffic stays on 127.0.0.1,
from two clients asking one question at a time.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conftest import git
from server_helpers import CATCHING_UP, FILES, Served, client, state_of

# Read at import: the autouse fixture clears CODEAGENT_* variables before each test.
SOAK_SECONDS = float(os.environ.get("CODEAGENT_SOAK_SECONDS", "600"))
ASKERS = 2
DEF = re.compile(r"^def (soak_fn_\d+)\(", re.MULTILINE)


@dataclass
class Moment:
    """The repository between two changes: from ``since`` until the next change begins."""

    since: float
    state: str
    defined: dict[str, str]  # function name -> the file defining it


@dataclass
class History:
    moments: list[Moment] = field(default_factory=list)
    busy: list[tuple[float, float]] = field(default_factory=list)  # changes being made
    names: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def quiet_state(self, start: float, end: float) -> Moment | None:
        """The one state the repository was in from ``start`` to ``end``; None when a change
        was being made in between."""
        with self.lock:
            if any(b0 <= end and start <= b1 for b0, b1 in self.busy):
                return None
            before = [m for m in self.moments if m.since <= start]
            return before[-1] if before else None


def definitions(root: Path) -> dict[str, str]:
    found = {}
    for path in sorted((root / "soak").glob("*.py")):
        for name in DEF.findall(path.read_text(encoding="utf-8")):
            found[name] = path.relative_to(root).as_posix()
    return found


class Editor:
    """Changes the repository at random, one change at a time, with pauses between."""

    def __init__(self, root: Path, history: History, seed: int) -> None:
        self.root = root
        self.history = history
        self.rng = random.Random(seed)
        self.count = 0
        self.branches = ["main"]
        self.actions: dict[str, int] = {}

    def record(self) -> None:
        moment = Moment(time.monotonic(), state_of(self.root), definitions(self.root))
        with self.history.lock:
            self.history.moments.append(moment)

    def run(self, deadline: float, stop: threading.Event) -> None:
        self.record()
        while time.monotonic() < deadline and not stop.is_set():
            stop.wait(self.rng.uniform(0.3, 1.5))
            action = self.rng.choice(["edit", "edit", "add", "add", "delete", "commit", "branch"])
            began = time.monotonic()
            getattr(self, action)()
            self.actions[action] = self.actions.get(action, 0) + 1
            self.record()
            with self.history.lock:
                self.history.busy.append((began, time.monotonic()))

    def _new_name(self) -> str:
        self.count += 1
        name = f"soak_fn_{self.count}"
        with self.history.lock:
            self.history.names.append(name)
        return name

    def _files(self) -> list[Path]:
        return sorted((self.root / "soak").glob("*.py"))

    def edit(self) -> None:
        files = self._files()
        if not files:
            return self.add()
        with self.rng.choice(files).open("a", encoding="utf-8") as handle:
            handle.write(f"\n\ndef {self._new_name()}(x):\n    return x\n")

    def add(self) -> None:
        if len(self._files()) > 12:
            return self.delete()
        path = self.root / "soak" / f"mod_{self.count + 1}.py"
        path.write_text(f"def {self._new_name()}():\n    return 1\n", encoding="utf-8")

    def delete(self) -> None:
        files = self._files()
        if len(files) > 1:
            self.rng.choice(files).unlink()

    def commit(self) -> None:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-qm", f"soak {self.count}", "--allow-empty")

    def branch(self) -> None:
        self.commit()
        if len(self.branches) < 4 or self.rng.random() < 0.3:
            name = f"b{len(self.branches)}"
            git(self.root, "checkout", "-qb", name)
            self.branches.append(name)
        else:
            git(self.root, "checkout", "-q", self.rng.choice(self.branches))


@dataclass
class Asked:
    started: float
    ended: float
    name: str
    state: str | None
    notices: list[str]
    sources: set[str]
    fell_back: bool


def ask(served: Served, name: str, stream: bool) -> Asked:
    """One question, as JSON or as NDJSON events; any failure raises."""
    question = f"where is {name} defined?"
    started = time.monotonic()
    if stream:
        response = client.post(
            f"{served.url}/v1/ask",
            json={"question": question},
            headers={"Accept": "application/x-ndjson"},
        )
        assert response.status_code == 200, response.text
        events = [json.loads(line) for line in response.text.splitlines() if line.strip()]
        assert events[-1]["type"] == "result", events[-1]
        result = events[-1]["result"]
        notices = [e["text"] for e in events if e["type"] == "notice"]
    else:
        response = client.post(f"{served.url}/v1/ask", json={"question": question})
        assert response.status_code == 200, response.text
        result = response.json()
        notices = result["notices"]
    return Asked(
        started,
        time.monotonic(),
        name,
        result["state"],
        notices,
        {s["path"] for s in result["sources"]},
        result["fallback"] is not None,
    )


def rss_bytes(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    kilobytes = int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE).group(1))  # type: ignore[union-attr]
    return kilobytes * 1024


@pytest.mark.slow
# the soak itself, plus the server's start, the last answers in flight and the checks after
@pytest.mark.timeout(SOAK_SECONDS + 300)
@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads RSS from /proc")
def test_answers_follow_a_repository_that_keeps_changing(
    git_repo: Any, serve_process: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No wait for updates: answers come while the index catches up, and must say so.
    monkeypatch.setenv("CODEAGENT_UPDATE_WAIT", "0")
    files = {**FILES, "soak/mod_0.py": "def soak_fn_0():\n    return 0\n"}
    root = git_repo(files, name="soak-repo")
    served = serve_process("--repo", str(root))
    history = History(names=["soak_fn_0"])
    editor = Editor(root, history, seed=7)
    answers: list[Asked] = []
    failures: list[BaseException] = []
    stop = threading.Event()
    begin = time.monotonic()
    deadline = begin + SOAK_SECONDS
    warm_up = begin + min(30.0, SOAK_SECONDS / 4)
    rss: list[tuple[float, int]] = []

    def asker(seed: int) -> None:
        rng = random.Random(seed)
        try:
            while time.monotonic() < deadline and not stop.is_set():
                with history.lock:
                    name = rng.choice(history.names[-8:])
                answers.append(ask(served, name, stream=rng.random() < 0.5))
        except BaseException as exc:  # reported by the test
            failures.append(exc)
            stop.set()

    ask(served, "soak_fn_0", stream=False)  # the first index is built

    def edit() -> None:
        try:
            editor.run(deadline, stop)
        except BaseException as exc:  # reported by the test
            failures.append(exc)
            stop.set()

    threads = [threading.Thread(target=edit)]
    threads += [threading.Thread(target=asker, args=(n,)) for n in range(ASKERS)]
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        rss.append((time.monotonic(), rss_bytes(served.process.pid)))
        time.sleep(1.0)
    for thread in threads:
        thread.join()
    assert not failures, failures[0]
    assert served.process.poll() is None, "the server died"

    checked = stale = skipped = 0
    for asked in answers:
        if any(CATCHING_UP in n for n in asked.notices):
            stale += 1
            continue
        moment = history.quiet_state(asked.started, asked.ended)
        if moment is None:
            skipped += 1  # asked while a change was being made: either state would do
            continue
        checked += 1
        assert asked.state == moment.state, asked
        expected = moment.defined.get(asked.name)
        if expected is None:
            assert asked.fell_back, asked
        else:
            assert asked.sources == {expected}, asked

    warm = [b for t, b in rss if t >= warm_up]
    base = warm[0] if warm else rss[-1][1]
    peak = max(warm or [base])
    status = client.get(f"{served.url}/v1/repos").json()["repos"][0]
    print(
        f"\nsoak {SOAK_SECONDS:.0f} s: {len(answers)} answers ({checked} checked against the"
        f" state, {stale} catching up, {skipped} asked during a change);"
        f" {len(history.moments) - 1} changes {editor.actions}; {status['updates']} index"
        f" updates; RSS after warm-up {base / 2**20:.1f} MB, peak {peak / 2**20:.1f} MB"
    )
    assert checked >= len(answers) // 2
    assert peak < 1.3 * base + 30 * 2**20
