"""The MCP tools mounted at /mcp share the HTTP API's admission (one cap, one queue), and an
over-long question is refused as it came, before any sanitizing: HTTP 413 with a one-line
JSON error whatever the Accept, an MCP tool error likewise. A real uvicorn server on a
loopback port, scripted answers (nothing depends on how fast anything runs)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from codeagent.events import Event, TokenEvent
from codeagent.server.app import ServerConfig
from server_helpers import ScriptedBackend, answered_with

WAIT = 30.0  # an upper bound for something that happens at once; never reached when it works
CAP = 50


def config(backend: Any, **kw: Any) -> ServerConfig:
    return ServerConfig(backends={"scripted": backend}, token="t" * 32, mcp=True, **kw)


def answered(_question: str, _cancel: threading.Event) -> Iterator[Event]:
    yield TokenEvent(text="done")
    yield answered_with("done")


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


async def call_tool(url: str, name: str, args: dict[str, Any]) -> Any:
    async with (
        streamable_http_client(f"{url}/mcp") as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        return await session.call_tool(name, args)


class Gate:
    """A scripted answer that holds its slot until the test opens the gate."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.entered = threading.Event()

    def __call__(self, question: str, cancel: threading.Event) -> Iterator[Event]:
        self.entered.set()
        self.open.wait(WAIT)
        yield from answered(question, cancel)


def test_mcp_call_is_refused_while_http_answers_hold_the_cap(
    app_server: Any, tmp_path: Path
) -> None:
    gate = Gate()
    url = app_server(config(ScriptedBackend(tmp_path, gate), max_concurrent=1, max_queue=0))
    holder = threading.Thread(
        target=lambda: httpx.post(f"{url}/v1/ask", json={"question": "q"}, timeout=WAIT)
    )
    holder.start()
    assert gate.entered.wait(WAIT)  # the only slot is taken by an HTTP answer
    refused = anyio.run(call_tool, url, "ask", {"question": "q"})
    assert refused.is_error
    # The SDK puts "Error executing tool ask: " before the tool's message.
    assert text(refused).endswith(": busy: too many questions at once: try again in 1 s")
    gate.open.set()
    holder.join(WAIT)
    served = anyio.run(call_tool, url, "ask", {"question": "q"})
    assert not served.is_error
    assert text(served) == "done"


def test_http_is_refused_while_an_mcp_call_holds_the_cap(app_server: Any, tmp_path: Path) -> None:
    gate = Gate()
    url = app_server(config(ScriptedBackend(tmp_path, gate), max_concurrent=1, max_queue=0))
    outcome: dict[str, Any] = {}

    async def main() -> None:
        async with anyio.create_task_group() as group:

            async def mcp_call() -> None:
                outcome["mcp"] = await call_tool(url, "ask", {"question": "q"})

            group.start_soon(mcp_call)
            await anyio.to_thread.run_sync(gate.entered.wait, WAIT)  # the MCP call holds it
            async with httpx.AsyncClient() as http:
                outcome["http"] = await http.post(f"{url}/v1/ask", json={"question": "q"})
                outcome["load"] = (await http.get(f"{url}/v1/health")).json()["load"]
            gate.open.set()

    anyio.run(main)
    assert outcome["http"].status_code == 429
    assert outcome["http"].headers["retry-after"] == "1"
    assert outcome["load"]["running"] == 1
    assert text(outcome["mcp"]) == "done"


# 58 characters as sent, 36 once its chat-template control tokens are stripped.
SANITIZED_UNDER_CAP = "what does <|im_start|><|im_end|> the area function return?"


@pytest.mark.parametrize(
    "accept", ["application/json", "text/event-stream", "application/x-ndjson"]
)
def test_over_long_question_gets_413_whatever_the_accept(
    app_server: Any, tmp_path: Path, accept: str
) -> None:
    backend = ScriptedBackend(tmp_path, answered)
    url = app_server(config(backend, max_question_chars=CAP))
    for question in ("x" * (CAP + 1), SANITIZED_UNDER_CAP):
        assert len(question) > CAP
        response = httpx.post(
            f"{url}/v1/ask", json={"question": question}, headers={"Accept": accept}
        )
        assert response.status_code == 413
        assert response.headers["content-type"] == "application/json"
        assert "\n" not in response.text.strip()
        message = json.loads(response.text)["error"]
        assert message == (
            f"the question has {len(question)} characters, over the limit of {CAP}"
            " (max_question_chars): shorten it"
        )
    assert not backend.started.is_set()  # refused before any work
    at_cap = httpx.post(f"{url}/v1/ask", json={"question": "y" * CAP}, headers={"Accept": accept})
    assert at_cap.status_code == 200
    assert backend.started.is_set()


def test_over_long_question_or_query_is_an_mcp_tool_error(app_server: Any, tmp_path: Path) -> None:
    backend = ScriptedBackend(tmp_path, answered)
    url = app_server(config(backend, max_question_chars=CAP))
    asked = anyio.run(call_tool, url, "ask", {"question": SANITIZED_UNDER_CAP})
    assert asked.is_error
    assert text(asked).endswith(
        f": the question has {len(SANITIZED_UNDER_CAP)} characters, over the limit of {CAP}"
        " (max_question_chars): shorten it"
    )
    searched = anyio.run(call_tool, url, "search_code", {"query": "z" * (CAP + 1)})
    assert searched.is_error
    assert f": the query has {CAP + 1} characters, over the limit of {CAP}" in text(searched)
    assert not backend.started.is_set()
