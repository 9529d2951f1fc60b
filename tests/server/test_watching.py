"""A running server watches its repositories: an edit is indexed before any question is
asked (the served state, seen through ``GET /v1/repos``, moves by itself); with
``--no-watch`` it stays where it was until a question comes.

Truth: the state hash of the repository as a fresh discovery computes it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from server_helpers import (
    FILES,
    Served,
    fresh_answer,
    repo_status,
    start_serve,
    state_of,
    stop,
    wait_until_updated,
)

DEADLINE = 60.0
HELPER = "\n\ndef zebra_unicorn_helper(x):\n    return x\n"


def wait_for_state(served: Served, state: str) -> dict[str, Any]:
    """The repository's status once it serves ``state`` (no question asked meanwhile)."""
    deadline = time.monotonic() + DEADLINE
    while True:
        status = repo_status(served)
        if status["state"] == state:
            return status
        assert time.monotonic() < deadline, f"still at {status['state']}, not {state}"
        time.sleep(0.05)


def edit(root: Path) -> str:
    with (root / "geo/shapes.py").open("a", encoding="utf-8") as handle:
        handle.write(HELPER)
    return state_of(root)


def test_an_edit_is_indexed_before_any_question(git_repo: Any, serve_process: Any) -> None:
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root))
    first = wait_until_updated(served)
    assert first["state"] == state_of(root)
    after = edit(root)
    assert after != first["state"]
    wait_for_state(served, after)
    status = wait_until_updated(served)  # its count is raised as the update ends
    assert (status["state"], status["updates"]) == (after, first["updates"] + 1)
    (root / "geo/new.py").write_text("def quokka():\n    return 1\n", encoding="utf-8")
    wait_for_state(served, state_of(root))
    status = wait_until_updated(served)
    assert (status["state"], status["updates"]) == (state_of(root), first["updates"] + 2)


@pytest.mark.slow  # two server starts
def test_without_watching_the_next_question_updates(
    git_repo: Any, serve_process: Any, tmp_path: Path
) -> None:
    """The edit's moment is marked by a watching server on the same repository (a home of
    its own): once it serves the new state, the server that does not watch still serves the
    old one."""
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root), "--no-watch")
    (tmp_path / "control").mkdir()
    control, process = start_serve(tmp_path / "control", "--repo", str(root))
    try:
        first = wait_until_updated(served)
        wait_until_updated(control)
        after = edit(root)
        wait_for_state(control, after)
    finally:
        stop(process)
    assert repo_status(served)["state"] == first["state"]
    result = fresh_answer(served, "where is zebra_unicorn_helper defined?")
    assert result["state"] == after == repo_status(served)["state"]
