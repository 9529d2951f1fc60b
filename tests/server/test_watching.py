"""A running server watches its repositories: an edit is indexed before any question is
asked (the served state, seen through ``GET /v1/repos``, moves by itself); with
``--no-watch`` it stays where it was until a question comes.

Truth: the state hash of the repository as a fresh discovery computes it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from server_helpers import FILES, Served, fresh_answer, repo_status, state_of, wait_until_updated

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


@pytest.mark.slow  # a deliberate 1.5 s wait, plus a server start
def test_without_watching_the_next_question_updates(git_repo: Any, serve_process: Any) -> None:
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root), "--no-watch")
    first = wait_until_updated(served)
    after = edit(root)
    time.sleep(1.5)  # long past the moment a watching server has updated
    assert repo_status(served)["state"] == first["state"]
    result = fresh_answer(served, "where is zebra_unicorn_helper defined?")
    assert result["state"] == after == repo_status(served)["state"]
