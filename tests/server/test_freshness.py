"""A running server answers from the repository as it is now: edits, new, deleted and renamed
files and branch switches made under it show in the next answer (or the answer says the index
is catching up, and the one after the update shows them); a burst of saves costs one or two
index updates; MCP results carry the state too.

Truth: the files the test writes, and the state hash of the repository as the in-process
index computes it."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from conftest import git
from server_helpers import (
    FILES,
    Served,
    ask_json,
    catching_up,
    fresh_answer,
    repo_status,
    state_of,
    wait_until_updated,
)

HELPER = "\n\ndef zebra_unicorn_helper(x):\n    return x\n"


def where(served: Served, name: str) -> tuple[set[str], dict[str, Any]]:
    """The files the answer to "where is NAME defined?" cites (from the current state)."""
    result = fresh_answer(served, f"where is {name} defined?")
    return {s["path"] for s in result["sources"]}, result


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


@pytest.fixture
def served_geo(git_repo: Any, serve_process: Any) -> tuple[Served, Path]:
    root = git_repo(FILES, name="geo")
    return serve_process("--repo", str(root)), root


def test_edits_under_a_running_server_show_in_the_next_answer(
    served_geo: tuple[Served, Path],
) -> None:
    served, root = served_geo
    paths, result = where(served, "zebra_unicorn_helper")
    assert result["route"]["tool"] == "symbols"
    assert result["fallback"] is not None  # nothing by that name: the symbol tool fell back
    assert result["state"] == state_of(root) == repo_status(served)["state"]

    # Edit a tracked file (uncommitted).
    with (root / "geo/shapes.py").open("a", encoding="utf-8") as handle:
        handle.write(HELPER)
    paths, result = where(served, "zebra_unicorn_helper")
    assert paths == {"geo/shapes.py"}
    assert result["fallback"] is None
    assert result["state"] == state_of(root)

    # Add a file (untracked).
    (root / "geo/extra.py").write_text("def quokka_helper():\n    return 2\n", encoding="utf-8")
    paths, result = where(served, "quokka_helper")
    assert paths == {"geo/extra.py"}
    assert result["state"] == state_of(root)

    # Delete it again.
    (root / "geo/extra.py").unlink()
    paths, result = where(served, "quokka_helper")
    assert "geo/extra.py" not in paths
    assert result["fallback"] is not None
    assert result["state"] == state_of(root)

    # Rename a file (committed first, then moved in the work tree).
    commit(root, "helper")
    os.replace(root / "geo/shapes.py", root / "geo/forms.py")
    paths, result = where(served, "unit_square")
    assert paths == {"geo/forms.py"}
    assert result["state"] == state_of(root)
    commit(root, "renamed")

    # Switch branches: a function that exists on one branch only.
    git(root, "checkout", "-qb", "other")
    (root / "geo/branchy.py").write_text("def branch_only_fn():\n    pass\n", encoding="utf-8")
    commit(root, "on other")
    paths, result = where(served, "branch_only_fn")
    assert paths == {"geo/branchy.py"}
    git(root, "checkout", "-q", "main")
    paths, result = where(served, "branch_only_fn")
    assert paths == set()
    assert result["state"] == state_of(root)
    git(root, "checkout", "-q", "other")
    paths, result = where(served, "branch_only_fn")
    assert paths == {"geo/branchy.py"}
    assert result["state"] == state_of(root)
    assert repo_status(served)["updates"] >= 7


def test_an_answer_during_the_update_says_what_is_out_of_date(
    git_repo: Any, serve_process: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEAGENT_UPDATE_WAIT", "0")  # never wait for the update
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root), "--no-watch")  # only the question's check
    before = ask_json(served, "where is zebra_unicorn_helper defined?")
    assert not catching_up(before)
    with (root / "geo/shapes.py").open("a", encoding="utf-8") as handle:
        handle.write(HELPER)
    (root / "geo/new.py").write_text("X = 1\n", encoding="utf-8")

    stale = ask_json(served, "where is zebra_unicorn_helper defined?")
    assert catching_up(stale)
    notice = next(n for n in stale["notices"] if "catching up" in n)
    assert "2 changed files (geo/new.py, geo/shapes.py)" in notice
    assert stale["state"] == before["state"]  # the state it did answer from
    assert stale["sources"] == []

    wait_until_updated(served)
    fresh = ask_json(served, "where is zebra_unicorn_helper defined?")
    assert not catching_up(fresh)
    assert {s["path"] for s in fresh["sources"]} == {"geo/shapes.py"}
    assert fresh["state"] == state_of(root) != before["state"]


def test_a_burst_of_saves_costs_one_or_two_updates(served_geo: tuple[Served, Path]) -> None:
    served, root = served_geo
    ask_json(served, "where is unit_square defined?")
    start = wait_until_updated(served)["updates"]
    stop = threading.Event()
    failures: list[BaseException] = []

    def keep_asking() -> None:
        try:
            while not stop.is_set():
                ask_json(served, "where is unit_square defined?")
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)
            raise

    askers = [threading.Thread(target=keep_asking) for _ in range(3)]
    for thread in askers:
        thread.start()
    target = root / "geo/saved.py"
    for n in range(50):  # an editor saving 50 times in a row
        target.write_text(f"def saved_{n}():\n    return {n}\n", encoding="utf-8")
    stop.set()
    for thread in askers:
        thread.join(120)
    assert not failures
    paths, result = where(served, "saved_49")
    assert paths == {"geo/saved.py"}
    assert result["state"] == state_of(root)
    updates = wait_until_updated(served)["updates"] - start
    assert 1 <= updates <= 2, updates


def test_mcp_results_carry_the_state_and_follow_an_edit(served_geo: tuple[Served, Path]) -> None:
    served, root = served_geo

    async def call(name: str, args: dict[str, Any]) -> str:
        async with (
            streamable_http_client(f"{served.url}/mcp") as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool(name, args)
            assert not result.is_error
            return "\n".join(c.text for c in result.content)  # type: ignore[union-attr]

    before = anyio.run(call, "find_definition", {"name": "zebra_unicorn_helper"})
    assert before.startswith("no definition of zebra_unicorn_helper found")
    assert before.splitlines()[-1] == f"state: {state_of(root)}"

    with (root / "geo/shapes.py").open("a", encoding="utf-8") as handle:
        handle.write(HELPER)
    after = anyio.run(call, "find_definition", {"name": "zebra_unicorn_helper"})
    if "catching up" in after:
        wait_until_updated(served)
        after = anyio.run(call, "find_definition", {"name": "zebra_unicorn_helper"})
    assert after.startswith("geo/shapes.py:21-22  zebra_unicorn_helper  [function]")
    assert after.splitlines()[-1] == f"state: {state_of(root)}"
    answer = anyio.run(call, "ask", {"question": "where is zebra_unicorn_helper defined?"})
    assert "geo/shapes.py:21-22" in answer
    assert answer.splitlines()[-1] == f"state: {state_of(root)}"
