"""Two ``codeagent serve`` processes, each with its own home, sharing one cache volume
(``CODEAGENT_CACHE_HOME``, as replicas of a team deployment do) answer the same questions
alike, build each repository state once between them, and under concurrent clients answer
only 200 or 429.

Truth: a third question asked of each replica alone, the cache folder on disk (one entry per
state), and the status codes the clients receive."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from codeagent.repo.state import repo_id
from codeagent.store.cache import states
from server_helpers import (
    FILES,
    Served,
    ask_json,
    fresh_answer,
    start_serve,
    state_of,
    stop,
    wait_until_updated,
)

QUESTIONS = [
    "list the classes in geo/shapes.py",
    "where is Square defined?",
    "what are the subclasses of Shape?",
    "how is the area of a square computed?",
]


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    """What a user reads: the answer, its sources, the route, the state; not timings."""
    return {
        "answer": result["answer"],
        "sources": [(s["path"], s["start_line"], s["end_line"]) for s in result["sources"]],
        "route": result["route"]["tool"],
        "state": result["state"],
    }


@pytest.fixture
def two_replicas(
    git_repo: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Served, Served, Path]]:
    root = git_repo(FILES, name="geo")
    shared = tmp_path / "volume"
    monkeypatch.setenv("CODEAGENT_CACHE_HOME", str(shared))
    processes = []
    try:
        replicas = []
        for name in ("replica-a", "replica-b"):
            (tmp_path / name).mkdir()
            served, process = start_serve(tmp_path / name, "--repo", str(root))
            processes.append(process)
            replicas.append(served)
        yield replicas[0], replicas[1], root
    finally:
        for process in processes:
            stop(process)


def test_two_replicas_answer_alike_from_one_entry(
    two_replicas: tuple[Served, Served, Path],
) -> None:
    first, second, root = two_replicas
    for served in (first, second):
        wait_until_updated(served)
    answers = {q: comparable(fresh_answer(first, q)) for q in QUESTIONS}
    for question in QUESTIONS:
        assert comparable(fresh_answer(second, question)) == answers[question], question
        assert answers[question]["state"] == state_of(root)
    assert answers[QUESTIONS[1]]["sources"][0][0] == "geo/shapes.py"
    shared = first.home.parent / "volume" / "cache" / repo_id(root)
    assert [e.name for e in states(shared)] == [state_of(root)]  # once, not once per replica
    for served in (first, second):  # nothing of the index in a replica's own home
        assert not (served.home / "cache").exists()


def test_concurrent_clients_across_two_replicas(
    two_replicas: tuple[Served, Served, Path],
) -> None:
    first, second, _ = two_replicas
    for served in (first, second):
        wait_until_updated(served)
    expected = {q: comparable(ask_json(first, q)) for q in QUESTIONS}
    statuses: Counter[int] = Counter()
    wrong: list[str] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        served = (first, second)[n % 2]
        with httpx.Client(timeout=120) as http:
            for i in range(6):
                question = QUESTIONS[(n + i) % len(QUESTIONS)]
                response = http.post(f"{served.url}/v1/ask", json={"question": question})
                with lock:
                    statuses[response.status_code] += 1
                    ok = response.status_code == 200
                    if ok and comparable(response.json()) != expected[question]:
                        wrong.append(question)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(statuses) <= {200, 429}, statuses
    assert statuses[200] > 0
    assert sum(statuses.values()) == 8 * 6
    assert wrong == []
