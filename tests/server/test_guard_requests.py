"""The request guard on real HTTP requests: :class:`RequestGuard` around a small application,
on uvicorn in a thread (in this process, so a mutation run sees which tests reach it).

Each request's ``Host``, ``Origin`` and ``Content-Type`` are written by hand, and the status and
body it gets are the rules of docs/safety.md: 421, 403 or 415 with the error's words, or the
application's own answer. What a transport reports in the ASGI scope (the address and port a
request came in on, ``https`` behind TLS, nothing on a Unix socket, no ``scheme`` at all, which
the ASGI specification says means ``http``) is set by a small wrapper, as a proxy would.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from codeagent.server.guard import RequestGuard, make_policy
from server_helpers import START_TIMEOUT

HOST_REFUSED = "this server does not answer for that Host (see --allowed-host)"
ORIGIN_REFUSED = "requests from another origin are refused (see --allowed-origin)"
BODY_REFUSED = "the request body must be application/json"
PORT = 8765  # the port the wrapped transports report


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    """What the guard protects: says it was reached, with the request's method (a body is
    read through, as a route does)."""
    body = await Request(scope, receive).body()
    assert body == (b"{}" if scope["method"] == "POST" else b"")
    await JSONResponse({"reached": scope["method"]})(scope, receive, send)


class Transport:
    """Report ``fields`` in the scope (and leave out ``drop``), as another transport would."""

    def __init__(self, app: ASGIApp, drop: tuple[str, ...] = (), **fields: Any) -> None:
        self.app = app
        self.drop = drop
        self.fields = fields

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope = {k: v for k, v in {**scope, **self.fields}.items() if k not in self.drop}
        await self.app(scope, receive, send)


def guarded(bound: str = "127.0.0.1", **transport: Any) -> ASGIApp:
    policy = make_policy(
        bound, ["code.example.com", "proxy.example:8443"], ["https://code.example.com"]
    )
    return Transport(RequestGuard(application, policy), **transport)


def servers() -> dict[str, ASGIApp]:
    """Made inside the fixture, so a mutation run sees the guard made in a test."""
    return {
        "tcp": guarded(),
        "tls": guarded(scheme="https"),  # behind TLS: the page's own origin is https://Host
        "no-scheme": guarded(drop=("scheme",)),  # ASGI: a missing scheme is "http"
        "wildcard": guarded("0.0.0.0", server=("10.1.2.3", PORT)),  # reached on one address
        "unix": guarded(server=None),  # uvicorn on a Unix socket reports no server
        "unix-path": guarded(server=("/run/codeagent.sock", None)),  # others: (path, None)
    }


@pytest.fixture(scope="module")
def urls() -> Iterator[dict[str, str]]:
    """Each of ``servers()`` on uvicorn in a thread, on an ephemeral loopback port."""
    running: list[tuple[uvicorn.Server, threading.Thread]] = []
    urls = {}
    for name, app in servers().items():
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        running.append((server, thread))
        urls[name] = f"http://127.0.0.1:{sock.getsockname()[1]}"
    deadline = time.monotonic() + START_TIMEOUT
    while not all(server.started for server, _ in running):
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield urls
    for server, thread in running:
        server.should_exit = True
        thread.join(10)


def request(url: str, method: str = "GET", **headers: str) -> httpx.Response:
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    body = b"{}" if method == "POST" else None
    return httpx.request(method, f"{url}/v1/x", headers=sent, content=body, timeout=10)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def assert_reached(response: httpx.Response, method: str = "GET") -> None:
    assert (response.status_code, response.json()) == (200, {"reached": method})


def assert_refused(response: httpx.Response, status: int, message: str) -> None:
    assert (response.status_code, response.json()) == (status, {"error": message})


def test_the_servers_own_host_and_an_allowed_one_reach_the_application(
    urls: dict[str, str],
) -> None:
    url = urls["tcp"]
    port = port_of(url)
    assert_reached(request(url, Host=f"127.0.0.1:{port}"))
    assert_reached(request(url, Host=f"localhost:{port}"))
    assert_reached(request(url, Host="code.example.com"))
    assert_reached(request(url, Host="proxy.example:8443"))


def test_another_host_or_another_port_is_refused_with_421(urls: dict[str, str]) -> None:
    url = urls["tcp"]
    port = port_of(url)
    assert_refused(request(url, Host=f"evil.example:{port}"), 421, HOST_REFUSED)
    # 127.0.0.1 on another port is another server: the port the request came in on counts.
    assert_refused(request(url, Host=f"127.0.0.1:{port + 1}"), 421, HOST_REFUSED)
    assert_refused(request(url, Host="proxy.example"), 421, HOST_REFUSED)


def test_the_origin_is_checked_against_the_requests_own(urls: dict[str, str]) -> None:
    url = urls["tcp"]
    host = f"127.0.0.1:{port_of(url)}"
    assert_reached(request(url, Host=host, Origin=f"http://{host}"))
    assert_reached(request(url, Host=host, Origin="https://code.example.com"))
    assert_refused(request(url, Host=host, Origin="http://evil.example"), 403, ORIGIN_REFUSED)
    assert_refused(request(url, Host=host, Origin=f"https://{host}"), 403, ORIGIN_REFUSED)


def test_a_body_must_be_json(urls: dict[str, str]) -> None:
    url = urls["tcp"]
    host = f"127.0.0.1:{port_of(url)}"
    json_type = "application/json; charset=utf-8"
    assert_reached(request(url, "POST", Host=host, Content_Type=json_type), "POST")
    refused = request(url, "POST", Host=host, Content_Type="text/plain")
    assert_refused(refused, 415, BODY_REFUSED)
    # Each check in its order: the Host first, then the Origin, then the body.
    bad_all = {"Origin": "http://evil.example", "Content_Type": "text/plain"}
    assert_refused(request(url, "POST", Host="evil.example", **bad_all), 421, HOST_REFUSED)
    assert_refused(request(url, "POST", Host=host, **bad_all), 403, ORIGIN_REFUSED)


def test_behind_tls_the_own_origin_is_https(urls: dict[str, str]) -> None:
    url = urls["tls"]
    host = f"127.0.0.1:{port_of(url)}"
    assert_reached(request(url, Host=host, Origin=f"https://{host}"))
    assert_refused(request(url, Host=host, Origin=f"http://{host}"), 403, ORIGIN_REFUSED)


def test_a_scope_without_a_scheme_is_http(urls: dict[str, str]) -> None:
    url = urls["no-scheme"]
    host = f"127.0.0.1:{port_of(url)}"
    assert_reached(request(url, Host=host, Origin=f"http://{host}"))
    assert_refused(request(url, Host=host, Origin=f"https://{host}"), 403, ORIGIN_REFUSED)


def test_a_wildcard_bind_answers_for_the_address_a_request_came_in_on(
    urls: dict[str, str],
) -> None:
    url = urls["wildcard"]
    assert_reached(request(url, Host=f"10.1.2.3:{PORT}"))
    assert_reached(request(url, Host="10.1.2.3"))
    assert_refused(request(url, Host=f"10.1.2.4:{PORT}"), 421, HOST_REFUSED)
    assert_refused(request(url, Host=f"10.1.2.3:{PORT + 1}"), 421, HOST_REFUSED)


@pytest.mark.parametrize("transport", ["unix", "unix-path"])
def test_on_a_unix_socket_there_is_no_port_to_compare(urls: dict[str, str], transport: str) -> None:
    url = urls[transport]
    assert_reached(request(url, Host="localhost"))
    assert_reached(request(url, Host="localhost:9999"))
    assert_refused(request(url, Host="evil.example"), 421, HOST_REFUSED)
