"""A loopback server is still a server: against a real ``codeagent serve``, requests a web page
could make (a rebound host name, another origin, a ``text/plain`` body that needs no CORS
preflight) are refused on every route, and the legitimate ones still work."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
import uvicorn
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from codeagent.server.app import ServerConfig, create_app
from codeagent.server.client import connect
from server_helpers import FILES, START_TIMEOUT, ScriptedBackend, client

QUESTION = {"question": "list the methods of Square in geo/shapes.py"}
# What a leaked answer would contain: the definition lines of geo/shapes.py.
LEAK = "geo/shapes.py:13-14"
ROUTES = [
    ("GET", "/"),
    ("GET", "/favicon.ico"),
    ("GET", "/v1/health"),
    ("GET", "/v1/repos"),
    ("GET", "/v1/file?repo=geo-repo&path=geo/shapes.py"),
    ("POST", "/v1/ask"),
    ("POST", "/v1/index"),
    ("POST", "/mcp"),
]


def refused(response: httpx.Response, status: int) -> str:
    """The one-line JSON error of a refused request (its message)."""
    assert response.status_code == status, response.text
    assert "\n" not in response.text.strip()
    assert LEAK not in response.text
    message: str = response.json()["error"]
    return message


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_a_rebound_host_name_is_refused_everywhere(
    served_repo: Any, method: str, path: str
) -> None:
    """curl -H 'Host: evil.example:PORT' http://127.0.0.1:PORT/v1/repos"""
    served, _root = served_repo
    headers = {"Host": f"evil.example:{served.port}"}
    response = client.request(method, served.url + path, headers=headers, json=QUESTION)
    assert "Host" in refused(response, 421)


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_another_origin_is_refused_everywhere(served_repo: Any, method: str, path: str) -> None:
    """curl -H 'Origin: http://evil.example' -H 'Content-Type: application/json' -d ... /v1/ask"""
    served, _root = served_repo
    headers = {"Origin": "http://evil.example"}
    response = client.request(method, served.url + path, headers=headers, json=QUESTION)
    assert "origin" in refused(response, 403)


@pytest.mark.parametrize(
    "origin",
    [
        "null",
        "http://localhost:{port}",  # the same server under another name: another origin
        "http://127.0.0.1:1",  # a page of another local server
        "https://127.0.0.1:{port}",
    ],
)
def test_other_origins_that_look_local_are_refused(served_repo: Any, origin: str) -> None:
    served, _root = served_repo
    headers = {"Origin": origin.format(port=served.port)}
    response = client.post(f"{served.url}/v1/ask", headers=headers, json=QUESTION)
    refused(response, 403)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", None],
)
def test_a_body_that_is_not_json_is_refused(served_repo: Any, content_type: str | None) -> None:
    """curl -H 'Content-Type: text/plain' -d '{"question": ...}' .../v1/ask: the body is JSON,
    but a page on any site may send it so without a preflight."""
    served, _root = served_repo
    headers = {"Content-Type": content_type} if content_type else {}
    for path in ("/v1/ask", "/v1/index", "/mcp"):
        response = client.post(served.url + path, content=json.dumps(QUESTION), headers=headers)
        assert "application/json" in refused(response, 415)


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        (None, None),  # a loopback client such as curl or `codeagent ask`: no Origin
        (None, "http://127.0.0.1:{port}"),  # the page itself
        ("localhost:{port}", "http://localhost:{port}"),  # the page, opened as localhost
        ("[::1]:{port}", None),
        ("127.0.0.1", None),
    ],
)
def test_legitimate_requests_are_answered(
    served_repo: Any, host: str | None, origin: str | None
) -> None:
    served, _root = served_repo
    headers = {}
    if host:
        headers["Host"] = host.format(port=served.port)
    if origin:
        headers["Origin"] = origin.format(port=served.port)
    answer = client.post(f"{served.url}/v1/ask", headers=headers, json=QUESTION)
    assert answer.status_code == 200, answer.text
    assert LEAK in answer.json()["answer"]
    assert client.get(f"{served.url}/v1/repos", headers=headers).status_code == 200
    assert client.get(f"{served.url}/", headers=headers).status_code == 200


def test_allowed_host_and_origin(git_repo: Any, serve_process: Any) -> None:
    root = git_repo(FILES, name="geo-repo")
    served = serve_process(
        "--repo",
        str(root),
        "--allowed-host",
        "code.example.com",
        "--allowed-origin",
        "https://code.example.com",
    )
    proxied = {"Host": "code.example.com", "Origin": "https://code.example.com"}
    answer = client.post(f"{served.url}/v1/ask", headers=proxied, json=QUESTION)
    assert answer.status_code == 200, answer.text
    assert LEAK in answer.json()["answer"]
    # Rewritten by a proxy to the server's own address, the allowed origin still passes.
    origin_only = {"Origin": "https://code.example.com"}
    assert client.get(f"{served.url}/v1/repos", headers=origin_only).status_code == 200
    # Nothing else was opened up.
    evil_host = {"Host": f"evil.example:{served.port}"}
    refused(client.get(f"{served.url}/v1/repos", headers=evil_host), 421)
    refused(client.get(f"{served.url}/v1/repos", headers={"Origin": "https://evil.example"}), 403)
    refused(client.get(f"{served.url}/v1/repos", headers={"Host": "code.example.com:1"}), 421)


def test_a_bad_allowed_value_is_one_error_line(env_setup: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent", "serve", "--port", "0", "--allowed-origin", "x"],
        capture_output=True,
        text=True,
        env={**os.environ, "CODEAGENT_HOME": str(env_setup)},
        timeout=120,
    )
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert "'x'" in lines[0]


def test_require_token_on_loopback(git_repo: Any, serve_process: Any, tmp_path: Path) -> None:
    root = git_repo(FILES, name="geo-repo")
    token_file = tmp_path / "elsewhere" / "token"
    token_file.parent.mkdir()
    served = serve_process("--repo", str(root), "--require-token", "--token-file", str(token_file))
    token = token_file.read_text().strip()
    for method, path in ROUTES[2:]:
        response = client.request(method, served.url + path, json=QUESTION)
        assert "token" in refused(response, 401), path
    for scheme in ("Basic", "Token", ""):
        header = {"Authorization": f"{scheme} {token}".strip()}
        refused(client.get(f"{served.url}/v1/repos", headers=header), 401)
    for scheme in ("Bearer", "bearer"):
        header = {"Authorization": f"{scheme} {token}"}
        assert client.get(f"{served.url}/v1/repos", headers=header).status_code == 200
    answer = client.post(
        f"{served.url}/v1/ask", headers={"Authorization": f"Bearer {token}"}, json=QUESTION
    )
    assert LEAK in answer.json()["answer"]
    # The page itself holds no data: it loads with the token in its URL, and reads it there.
    page = client.get(f"{served.url}/", params={"token": token})
    assert page.status_code == 200
    assert "sessionStorage" in page.text
    # The start line prints the page's URL with the token (as Jupyter does).
    start_line = (served.home / "serve.err").read_text()
    assert f"{served.url}/?token={token} " in start_line
    # The CLI client finds the token (through the address file: --token-file) and sends it.
    remote = connect(served.home)
    try:
        assert [r["id"] for r in remote.get("/v1/repos")["repos"]] == ["geo-repo"]
    finally:
        remote.close()
    asked = subprocess.run(
        [sys.executable, "-m", "codeagent", "ask", "list the methods of Square in geo/shapes.py"],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "CODEAGENT_HOME": str(served.home)},
        timeout=300,
    )
    assert asked.returncode == 0, asked.stderr
    assert LEAK in asked.stdout


def test_mcp_sdk_client_with_the_token(git_repo: Any, serve_process: Any) -> None:
    root = git_repo(FILES, name="geo-repo")
    served = serve_process("--repo", str(root), "--require-token")

    async def tools(token: str | None) -> list[str]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            streamable_http_client(f"{served.url}/mcp", http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return sorted(t.name for t in (await session.list_tools()).tools)

    assert "find_definition" in anyio.run(tools, served.token)
    with pytest.raises(Exception):  # noqa: B017, PT011 - the SDK's own error for a 401
        anyio.run(tools, None)


@pytest.fixture
def unix_server(tmp_path: Path) -> Iterator[str]:
    """The application on uvicorn over a Unix socket: requests with no client address."""
    path = str(tmp_path / "s.sock")
    config = ServerConfig(backends={"scripted": ScriptedBackend(tmp_path, None)}, token="t" * 32)
    server = uvicorn.Server(uvicorn.Config(create_app(config), uds=path, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield path
    server.should_exit = True
    thread.join(10)


def test_no_client_address_is_not_loopback(unix_server: str) -> None:
    with httpx.Client(transport=httpx.HTTPTransport(uds=unix_server)) as uds:
        refused(uds.get("http://localhost/v1/health"), 401)
        token = {"Authorization": "Bearer " + "t" * 32}
        assert uds.get("http://localhost/v1/health", headers=token).status_code == 200


@pytest.mark.parametrize(
    ("forwarded", "status"),
    [("::ffff:127.0.0.1", 200), ("127.0.0.1", 200), ("10.0.0.1", 401), ("not-an-address", 401)],
)
def test_client_address_seen_through_a_local_proxy(
    served_repo: Any, forwarded: str, status: int
) -> None:
    """uvicorn takes the client address from a loopback proxy's X-Forwarded-For: an IPv4
    loopback address mapped into IPv6 is loopback; any other address, or none, is not."""
    served, _root = served_repo
    response = client.get(f"{served.url}/v1/repos", headers={"X-Forwarded-For": forwarded})
    assert response.status_code == status


def test_ipv4_mapped_loopback_client_on_a_dual_stack_socket(tmp_path: Path) -> None:
    """A real connection from 127.0.0.1 to a server listening on ``::`` (dual stack) comes
    from ``::ffff:127.0.0.1``: it counts as loopback."""
    if not socket.has_dualstack_ipv6():
        pytest.skip("no dual-stack IPv6 here")
    sock = socket.create_server(("::", 0), family=socket.AF_INET6, dualstack_ipv6=True)
    port = sock.getsockname()[1]
    config = ServerConfig(
        backends={"scripted": ScriptedBackend(tmp_path, None)}, token="t" * 32, host="::"
    )
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        assert client.get(f"http://127.0.0.1:{port}/v1/health").status_code == 200
    finally:
        server.should_exit = True
        thread.join(10)
