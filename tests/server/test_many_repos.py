"""Many repositories in one server (``serve --repos FILE --max-memory``), through a real
``codeagent serve`` process over real git repositories built here: a question that names no
repository, URL repositories cloned and fetched again, least recently used indexes closed,
and a repositories file with a bad line refused."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from conftest import git
from server_helpers import Served, client

RETRY = '''\
def retry_with_backoff(call, attempts=5):
    """Retry a failing call, waiting longer after each failure."""
    for attempt in range(attempts):
        try:
            return call()
        except ConnectionError:
            backoff_sleep(attempt)
'''
PAYMENT_RETRY = '''\
class PaymentClient:
    def retry_payment(self, payment):
        """Retry a declined payment once the card network is back."""
        return self.send(payment)
'''
LEDGER = """\
class Ledger:
    def post_entry(self, amount):
        return amount

    def balance(self):
        return 0
"""
SERVICES = {
    "billing": {"billing/retry.py": RETRY, "README.md": "# Billing\n"},
    "payments": {"payments/client.py": PAYMENT_RETRY, "payments/ledger.py": LEDGER},
    "search": {"search/query.py": "def parse_query(text):\n    return text.split()\n"},
}


def repos_file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "repos.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def ask(served: Served, question: str, repo: str | None = None) -> dict[str, Any]:
    body = {"question": question, **({"repo": repo} if repo else {})}
    response = client.post(f"{served.url}/v1/ask", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def listing(served: Served) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"{served.url}/v1/repos").json()
    return data


def services(git_repo: Any, names: list[str]) -> list[Path]:
    return [git_repo(SERVICES[name], name=name) for name in names]


def test_question_without_repo_searches_every_repository(
    git_repo: Any, serve_process: Any, tmp_path: Path
) -> None:
    roots = services(git_repo, ["billing", "payments", "search"])
    file = repos_file(tmp_path, ["# our services", *(str(r) for r in roots)])
    served = serve_process("--repos", str(file))

    result = ask(served, "which of our services retries a failed call?")
    cited = {(s["repo"], s["path"]) for s in result["sources"]}
    # the only two files about retrying, one in each of two repositories (written above)
    assert ("billing", "billing/retry.py") in cited
    assert ("payments", "payments/client.py") in cited
    assert "search" not in {s["repo"] for s in result["sources"]}
    assert "billing:billing/retry.py:1-7" in result["answer"]
    assert "payments:payments/client.py:" in result["answer"]
    assert set(result["states"]) == {"billing", "payments"}  # search matched nothing

    # the repositories kept after the first pass are checked: an edit not yet committed shows
    (roots[0] / "billing/retry.py").write_text(RETRY + "\n\ndef retry_forever(call):\n    pass\n")
    fresh = ask(served, "where is retry_forever?")
    assert ("billing", "billing/retry.py") in {(s["repo"], s["path"]) for s in fresh["sources"]}
    assert "retry_forever" in fresh["answer"]
    assert fresh["states"]["billing"] != result["states"]["billing"]

    # a question naming a file: answered by the repository holding it, exactly (ast)
    structural = ask(served, "list the methods of Ledger in payments/ledger.py")
    assert structural["route"]["tool"] == "ast"
    assert structural["repo"] == "payments"
    assert "post_entry" in structural["answer"]
    assert "balance" in structural["answer"]
    assert {s["repo"] for s in structural["sources"]} <= {"payments"}

    # a named repository is still searched alone
    alone = ask(served, "which of our services retries a failed call?", repo="search")
    assert all("repo" not in s for s in alone["sources"])


def test_mcp_tools_search_every_repository_without_repo(
    git_repo: Any, serve_process: Any, tmp_path: Path
) -> None:
    roots = services(git_repo, ["billing", "payments"])
    served = serve_process("--repos", str(repos_file(tmp_path, [str(r) for r in roots])))

    async def main() -> tuple[str, str, str]:
        async with (
            streamable_http_client(f"{served.url}/mcp") as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            found = await session.call_tool("search_code", {"query": "retry", "k": 5})
            asked = await session.call_tool("ask", {"question": "where are retries?"})
            one = await session.call_tool("search_code", {"query": "retry", "repo": "billing"})
            return tuple("\n".join(c.text for c in r.content) for r in (found, asked, one))  # type: ignore[return-value]

    found, asked, one = anyio.run(main)
    assert "billing:billing/retry.py:1-7" in found
    assert "payments:payments/client.py:" in found
    assert "billing:billing/retry.py:1-7" in asked
    assert "payments/client.py" not in one
    assert "billing/retry.py:1-7" in one


def test_url_repository_is_cloned_and_fetched_again(
    git_repo: Any, serve_process: Any, tmp_path: Path
) -> None:
    upstream = git_repo(SERVICES["search"], name="search")
    file = repos_file(
        tmp_path,
        [upstream.as_uri() + "  # cloned", str(git_repo(SERVICES["billing"], name="billing"))],
    )
    served = serve_process("--repos", str(file), "--fetch-every", "0.5")

    repos = {r["id"]: r for r in listing(served)["repos"]}
    clone = Path(repos["search"]["root"])
    assert repos["search"]["url"] == upstream.as_uri()
    assert clone.is_relative_to(served.home / "repos")
    assert (clone / "search/query.py").is_file()

    (upstream / "search/rank.py").write_text("def rank_by_freshness(hits):\n    return hits\n")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-qm", "rank")
    deadline = time.monotonic() + 60
    while not (clone / "search/rank.py").is_file():
        assert time.monotonic() < deadline, "the new commit was not fetched"
        time.sleep(0.2)
    result = ask(served, "where is rank_by_freshness defined?", repo="search")
    assert any(s["path"] == "search/rank.py" for s in result["sources"])
    assert any(f["fetches"] >= 1 for f in listing(served)["fetches"])


def test_least_recently_used_index_is_closed_past_the_budget(
    git_repo: Any, serve_process: Any, tmp_path: Path
) -> None:
    # three repositories of the same size: the same files under other directory names
    roots = [git_repo({"app/retry.py": RETRY, "app/ledger.py": LEDGER}, name=n) for n in "abc"]
    file = repos_file(tmp_path, [str(r) for r in roots])
    first = serve_process("--repos", str(file))
    question = "how does retry_with_backoff wait?"
    ask(first, question, repo="a")
    size = next(r["memory"] for r in listing(first)["repos"] if r["id"] == "a")
    assert size > 0
    first.process.terminate()
    first.process.wait(15)

    served = serve_process("--repos", str(file), "--max-memory", str(int(size * 2.5)))
    for repo in ["a", "b", "c"]:  # a is used least recently: closed when c opens
        ask(served, question, repo=repo)
    state = listing(served)
    assert state["memory"]["open"] == ["b", "c"]
    assert {r["id"]: r["open"] for r in state["repos"]} == {"a": False, "b": True, "c": True}
    assert all(r["progress"] == "ready" for r in state["repos"])

    ask(served, question, repo="a")  # reopened from the cache; now b is the oldest
    state = listing(served)
    assert state["memory"]["open"] == ["c", "a"]
    assert state["memory"]["evictions"] == 2
    assert state["memory"]["used"] <= state["memory"]["budget"]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("missing-dir", "no such directory"),
        ("two words", "one path or git URL a line"),
        ("ftp://example.invalid/x.git", "not a git URL"),
        ("file:///nonexistent/repo.git", "cannot clone"),
    ],
)
def test_bad_line_in_repos_file_is_one_error_line(
    tmp_path: Path, env_setup: Path, line: str, says: str
) -> None:
    (tmp_path / "ok").mkdir()
    file = repos_file(tmp_path, ["# services", "ok", "", line])
    command = [sys.executable, "-m", "codeagent", "serve", "--port", "0", "--repos", str(file)]
    done = subprocess.run(
        [*command, "--llm", "none", "--embed", "none"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CODEAGENT_HOME": str(env_setup)},
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"{file}:4:" in lines[0]
    assert says in lines[0]
    assert "Traceback" not in done.stderr


def test_bad_max_memory_is_one_error_line(env_setup: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "codeagent", "serve", "--max-memory", "lots"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CODEAGENT_HOME": str(env_setup)},
    )
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0
    assert "--max-memory" in done.stderr
