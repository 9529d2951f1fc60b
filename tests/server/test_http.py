"""The HTTP API of a real ``codeagent serve`` process: JSON, SSE and NDJSON answers, the
event order, the cited-lines endpoint and indexing."""

from __future__ import annotations

import json
from typing import Any

from cli.clirun import run
from server_helpers import MOD, client, ndjson


def in_process_json(root: Any, question: str, *flags: str) -> dict[str, Any]:
    """The answer `codeagent ask --json --no-server` gives, from the entry point run in this
    process (the server is the other process): the independent reference."""
    flags = ("--no-server", "--json", "--llm", "none", "--embed", "none", *flags)
    done = run("ask", *flags, "--repo", str(root), question)
    assert done.code == 0, done.err
    data: dict[str, Any] = json.loads(done.out)
    return data


def test_health_and_repos(served_repo: Any) -> None:
    served, root = served_repo
    assert client.get(f"{served.url}/v1/health").json()["status"] == "ok"
    listing = client.get(f"{served.url}/v1/repos").json()
    assert [(r["id"], r["root"]) for r in listing["repos"]] == [("geo-repo", str(root))]
    assert listing["settings"]["llm"] == "none"


def test_json_answer_matches_in_process(served_repo: Any) -> None:
    served, root = served_repo
    question = "list the methods of Square in geo/shapes.py"
    response = client.post(f"{served.url}/v1/ask", json={"repo": "geo-repo", "question": question})
    assert response.status_code == 200
    got = response.json()
    want = in_process_json(root, question)
    for key in ("question", "route", "answer", "sources", "tool_result"):
        assert got[key] == want[key], key
    # Independent truth: Square's methods are on lines 10 and 13 of the file written above.
    lines = MOD.splitlines()
    assert lines[9].strip().startswith("def __init__")
    assert lines[12].strip() == "def area(self):"
    assert "geo/shapes.py:10-11" in got["answer"]
    assert "geo/shapes.py:13-14" in got["answer"]


def test_sse_events_in_order_result_last(served_repo: Any) -> None:
    served, _root = served_repo
    events: list[tuple[str, dict[str, Any]]] = []
    with client.stream(
        "POST",
        f"{served.url}/v1/ask",
        json={"question": "where is the area computed?"},
        headers={"Accept": "text/event-stream"},
    ) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        name = None
        for line in response.iter_lines():
            if line.startswith("event:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                events.append((name or "", json.loads(line.split(":", 1)[1])))
    kinds = [kind for kind, _ in events]
    assert kinds[-1] == "result"
    assert kinds.count("result") == 1
    assert {"route", "sources", "token"} <= set(kinds)
    assert all(kind == data["type"] for kind, data in events)
    result = events[-1][1]["result"]
    tokens = "".join(data["text"] for kind, data in events if kind == "token")
    assert tokens == result["answer"]
    assert result["route"]["tool"] == "rag"


def test_ndjson_stream_matches_json(served_repo: Any) -> None:
    served, _root = served_repo
    body = {"question": "list the classes in geo/shapes.py"}
    events = ndjson(
        client.post(f"{served.url}/v1/ask", json=body, headers={"Accept": "application/x-ndjson"})
    )
    assert events[-1]["type"] == "result"
    plain = client.post(f"{served.url}/v1/ask", json=body).json()
    assert events[-1]["result"]["answer"] == plain["answer"]
    assert "".join(e["text"] for e in events if e["type"] == "token") == plain["answer"]


def test_file_lines_are_the_files_lines(served_repo: Any) -> None:
    served, root = served_repo
    got = client.get(
        f"{served.url}/v1/file",
        params={"repo": "geo-repo", "path": "geo/shapes.py", "start": 9, "end": 14},
    ).json()
    assert got["lines"] == (root / "geo/shapes.py").read_text().splitlines()[8:14]


def test_the_page_and_its_icon(served_repo: Any) -> None:
    served, _root = served_repo
    page = client.get(f"{served.url}/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<link rel="icon" href="/favicon.ico"' in page.text
    icon = client.get(f"{served.url}/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def test_index_endpoint_builds_the_named_repository(served_repo: Any) -> None:
    served, root = served_repo
    stats = client.post(f"{served.url}/v1/index", json={"repo": "geo-repo"}, timeout=60).json()
    assert stats["repo"] == str(root)
    # README.md and geo/shapes.py; the empty geo/__init__.py has nothing to index.
    assert stats["files_indexed"] == 2


def test_k_is_a_field_of_the_question(served_repo: Any) -> None:
    served, root = served_repo
    question = "how are squares made"
    body = {"repo": "geo-repo", "question": question, "k": 1}
    one = client.post(f"{served.url}/v1/ask", json=body)
    assert one.status_code == 200, one.text
    assert len(one.json()["sources"]) == 1
    assert one.json()["sources"] == in_process_json(root, question, "-k", "1")["sources"]
    default = client.post(f"{served.url}/v1/ask", json={"question": question}).json()
    assert len(default["sources"]) > 1
    assert default["sources"] == in_process_json(root, question)["sources"]


def test_unknown_or_wrong_request_fields_are_refused(served_repo: Any) -> None:
    served, _root = served_repo
    for path, body, field in (
        ("/v1/ask", {"question": "hi", "top_k": 3}, "top_k"),
        ("/v1/ask", {"question": "hi", "k": 0}, "k"),
        ("/v1/ask", {"question": "hi", "k": "many"}, "k"),
        ("/v1/ask", {"repo": "geo-repo"}, "question"),
        ("/v1/index", {"force": True, "question": "hi"}, "question"),
    ):
        response = client.post(f"{served.url}{path}", json=body)
        assert response.status_code == 422, (path, body, response.text)
        assert f"`{field}`" in response.json()["error"], response.text
