"""``codeagent mcp``'s own stdio server, checked against the MCP SDK: the SDK's client drives
it (a real process), and its answers equal those of the SDK's server built over the same
repository (``build_mcp``, as ``codeagent serve`` mounts it) for the same calls; a line that
is not JSON-RPC is a JSON-RPC error, the end of stdin ends it, Ctrl-C stops it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from server_helpers import FILES

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_repositories", {}),
    ("ask", {"question": "list the classes in geo/shapes.py"}),
    ("ask", {"question": "hi", "repo": "../etc"}),
    ("ask", {"question": "x" * 5000}),
    ("ask", {"question": 5}),
    ("find_definition", {"name": "Square.area"}),
    ("find_definition", {"name": "Square", "unknown": 1}),
    ("find_references", {"name": "Square"}),
    ("find_overrides", {"name": "Shape.area"}),
    ("file_structure", {"path": "geo/shapes.py"}),
    ("file_structure", {"path": "geo/nothere.py"}),
    ("search_code", {"query": "side times side", "k": 2}),
    ("search_code", {"query": "side", "k": "2"}),
    ("search_code", {"query": "side", "k": 0}),
    ("search_code", {"query": "side", "k": "many"}),
    ("search_code", {}),
    ("repository_map", {"focus": '["geo/shapes.py"]', "budget": 200}),
    ("repository_map", {}),
    ("no_such_tool", {}),
]


def answers(session: Any) -> Any:
    async def run() -> dict[str, Any]:
        listed = await session.list_tools()
        out: dict[str, Any] = {
            "tools": [t.model_dump(mode="json", exclude_none=True) for t in listed.tools]
        }
        out["calls"] = [
            (await session.call_tool(name, args)).model_dump(mode="json", exclude_none=True)
            for name, args in CALLS
        ]
        return out

    return run()


def mcp_command(root: Path) -> list[str]:
    return ["-m", "codeagent", "mcp", "--repo", str(root), "--llm", "none", "--embed", "none"]


def test_stdio_answers_as_the_sdk_server_does(git_repo: Any, env_setup: Path) -> None:
    from codeagent.config import Settings
    from codeagent.server.backend import RepoBackend
    from codeagent.server.mcp import build_mcp
    from codeagent.server.repos import ServedRepo

    root = git_repo(FILES, name="geo")
    params = StdioServerParameters(
        command=sys.executable,
        args=mcp_command(root),
        env={k: v for k, v in os.environ.items() if k.startswith(("CODEAGENT_", "PYTHON", "HF_"))},
    )

    async def over_stdio() -> tuple[Any, dict[str, Any]]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            init = await session.initialize()
            return init, await answers(session)

    settings = Settings.load(llm="none", embed="none")
    sdk_server = build_mcp({"geo": RepoBackend(ServedRepo("geo", root), settings, None)})

    async def over_sdk() -> tuple[Any, dict[str, Any]]:
        async with Client(sdk_server, mode="legacy") as client:
            greeting = (client.instructions, client.server_capabilities, client.server_info)
            return greeting, await answers(client)

    (init, ours), (sdk_init, theirs) = anyio.run(over_stdio), anyio.run(over_sdk)
    assert [t["name"] for t in ours["tools"]][:2] == ["list_repositories", "ask"]
    assert ours["tools"] == theirs["tools"]
    for (name, args), got, expected in zip(CALLS, ours["calls"], theirs["calls"], strict=True):
        assert got == expected, (name, args)
    errors = [c.get("is_error") for c in ours["calls"]]
    assert errors.count(True) == 8  # the refusals and bad arguments above, as the SDK says
    assert ours["calls"][-1]["content"][0]["text"] == "Unknown tool: no_such_tool"
    assert "geo/shapes.py:13-14  Square.area  [method]" in ours["calls"][5]["content"][0]["text"]
    assert (init.instructions, init.capabilities, init.server_info) == sdk_init


def test_a_client_that_probes_first_falls_back_to_the_handshake(
    git_repo: Any, env_setup: Path
) -> None:
    """The SDK's client asks ``server/discover`` (the 2026-07-28 era) first; this server
    refuses it, and the client greets it with ``initialize`` instead."""
    root = git_repo(FILES, name="geo")
    params = StdioServerParameters(
        command=sys.executable,
        args=mcp_command(root),
        env={k: v for k, v in os.environ.items() if k.startswith(("CODEAGENT_", "PYTHON", "HF_"))},
    )

    async def main() -> tuple[str, str]:
        async with Client(params) as client:
            found = await client.call_tool("find_definition", {"name": "Square.area"})
            return client.protocol_version, found.content[0].text  # type: ignore[union-attr]

    version, found = anyio.run(main)
    assert version == "2025-11-25"
    assert found.startswith("geo/shapes.py:13-14  Square.area  [method]")


def start(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, *mcp_command(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def exchange(proc: subprocess.Popen[bytes], line: str) -> dict[str, Any]:
    assert proc.stdin is not None
    assert proc.stdout is not None
    proc.stdin.write(line.encode() + b"\n")
    proc.stdin.flush()
    answer: dict[str, Any] = json.loads(proc.stdout.readline())
    return answer


INIT = {
    "protocolVersion": "2025-03-26",
    "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"},
}


def request(id_: int, method: str, params: Any = None) -> str:
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    return json.dumps(message if params is None else {**message, "params": params})


def test_bad_lines_are_json_rpc_errors_and_eof_ends_it(git_repo: Any, env_setup: Path) -> None:
    proc = start(git_repo(FILES, name="geo"))
    assert exchange(proc, request(1, "tools/list"))["error"]["code"] == -32602  # before init
    assert exchange(proc, request(2, "ping")) == {"jsonrpc": "2.0", "id": 2, "result": {}}
    for line, code in [("not json", -32700), ("[1, 2]", -32600), ('"text"', -32600),
                       ('{"jsonrpc": "2.0", "id": 3}', -32600),
                       ('{"jsonrpc": "2.0", "id": [1], "method": "ping"}', -32600)]:  # fmt: skip
        answer = exchange(proc, line)
        assert answer["id"] is None, (line, answer)
        assert answer["error"]["code"] == code, (line, answer)
    assert exchange(proc, request(4, "initialize", {"capabilities": {}}))["error"]["code"] == -32602
    old = exchange(proc, request(5, "initialize", {**INIT, "protocolVersion": "1999-01-01"}))
    assert old["result"]["protocolVersion"] == "2025-11-25"  # not one it speaks: its newest
    again = exchange(proc, request(6, "initialize", INIT))
    assert again["result"]["protocolVersion"] == "2025-03-26"
    missing = exchange(proc, request(7, "no/such"))
    assert missing["error"] == {"code": -32601, "message": "Method not found", "data": "no/such"}
    assert exchange(proc, request(8, "tools/call", {"arguments": {}}))["error"]["code"] == -32602
    assert exchange(proc, request(9, "tools/call", [1]))["error"]["code"] == -32602
    listed = exchange(proc, request(10, "tools/list"))["result"]["tools"]
    assert "search_code" in {t["name"] for t in listed}
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(30) == 0
    assert proc.stderr is not None
    assert b"Traceback" not in proc.stderr.read()


def test_ctrl_c_stops_it_at_once(git_repo: Any, env_setup: Path) -> None:
    proc = start(git_repo(FILES, name="geo"))
    assert "result" in exchange(proc, request(1, "initialize", INIT))
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(10)
    assert code == 130
    assert time.monotonic() - started < 1.0
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    assert "Traceback" not in err, err
    assert err.strip().endswith("interrupted"), err


def test_a_bad_setting_is_one_line_and_a_failure(git_repo: Any, env_setup: Path) -> None:
    root = git_repo(FILES, name="geo")
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent", "mcp", "--repo", str(root / "nowhere")],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode != 0
    err = proc.stderr.decode().strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: "), err
