"""Who must send the token, decided on real HTTP requests to the application on uvicorn.

The client address a transport reports is what the server decides on, so each case sets it the
way a transport does: a Unix socket reports none (uvicorn's own), and a small ASGI wrapper sets
what a proxy or a dual-stack socket would report (``None``, ``""``, ``::1``, the IPv4 loopback
mapped into IPv6, garbage). The answer is checked on ``/v1/health``, which needs the token from
every non-loopback client.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from codeagent.events import Event
from codeagent.server.app import ServerConfig, create_app
from server_helpers import START_TIMEOUT, ScriptedBackend, answered_with

TOKEN = "k" * 32


class ClientAs:
    """Report ``client`` as the peer's address, as a proxy or another transport would."""

    def __init__(self, app: ASGIApp, client: tuple[str, int] | None) -> None:
        self.app = app
        self.client = client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope = {**scope, "client": self.client}
        await self.app(scope, receive, send)


def no_answer(_question: str, _cancel: threading.Event) -> Iterator[Event]:
    yield answered_with("")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., httpx.Client]]:
    """Serve the app on uvicorn (a loopback TCP socket, or a Unix socket with ``uds``)."""
    running: list[tuple[uvicorn.Server, threading.Thread, httpx.Client]] = []

    def start(app: ASGIApp, uds: Path | None = None) -> httpx.Client:
        if uds is None:
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
        else:
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(str(uds))
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        if uds is None:
            base = f"http://127.0.0.1:{sock.getsockname()[1]}"
            client = httpx.Client(base_url=base, timeout=START_TIMEOUT)
        else:
            transport = httpx.HTTPTransport(uds=str(uds))
            client = httpx.Client(base_url="http://127.0.0.1", transport=transport)
        running.append((server, thread, client))
        return client

    yield start
    for server, thread, client in running:
        client.close()
        server.should_exit = True
        thread.join(10)


def app(tmp_path: Path, **kw: Any) -> ASGIApp:
    backend = ScriptedBackend(tmp_path, no_answer)
    return create_app(ServerConfig(backends={"scripted": backend}, token=TOKEN, **kw))


def status(client: httpx.Client, authorization: str | None = None) -> int:
    headers = {"Authorization": authorization} if authorization is not None else {}
    return client.get("/v1/health", headers=headers).status_code


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        (None, False),  # a transport that names no peer
        ("", False),
        ("garbage", False),
        ("localhost", False),  # a name is never what a socket reports
        ("10.0.0.1", False),
        ("::ffff:10.0.0.1", False),
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),  # IPv4 loopback as a dual-stack socket reports it
    ],
)
def test_the_token_is_asked_of_every_client_not_on_loopback(
    serve: Callable[..., httpx.Client], tmp_path: Path, address: str | None, loopback: bool
) -> None:
    client = serve(ClientAs(app(tmp_path), None if address is None else (address, 40000)))
    assert status(client) == (200 if loopback else 401)
    assert status(client, f"Bearer {TOKEN}") == 200


def test_a_unix_socket_client_must_send_the_token(
    serve: Callable[..., httpx.Client], tmp_path: Path
) -> None:
    """uvicorn reports no client address on a Unix socket: not loopback, so the token is due."""
    client = serve(app(tmp_path), uds=tmp_path / "s.sock")
    assert status(client) == 401
    assert status(client, f"Bearer {TOKEN}") == 200


@pytest.mark.parametrize(
    ("authorization", "accepted"),
    [
        (f"Bearer {TOKEN}", True),
        (f"bearer {TOKEN}", True),  # the scheme in any case (RFC 9110)
        (f"Bearer   {TOKEN}", True),
        (f"Basic {TOKEN}", False),
        (f"Token {TOKEN}", False),
        (f"Digest {TOKEN}", False),
        (TOKEN, False),  # no scheme
        (f"Bearer {TOKEN[:-1]}", False),
        (f"Bearer {TOKEN} {TOKEN}", False),
        ("Bearer", False),
        ("", False),
    ],
)
def test_only_a_bearer_token_is_accepted(
    serve: Callable[..., httpx.Client], tmp_path: Path, authorization: str, accepted: bool
) -> None:
    client = serve(ClientAs(app(tmp_path), ("192.0.2.7", 40000)))
    assert status(client, authorization) == (200 if accepted else 401)


def test_require_token_asks_it_of_loopback_too(
    serve: Callable[..., httpx.Client], tmp_path: Path
) -> None:
    client = serve(app(tmp_path, require_token=True))
    assert status(client) == 401
    assert status(client, f"Basic {TOKEN}") == 401
    assert status(client, f"Bearer {TOKEN}") == 200
    assert client.get("/").status_code == 200  # the page itself holds no data
