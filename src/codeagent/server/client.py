"""A light client for a running ``codeagent serve``: HTTP/1.1 over a plain socket.

``codeagent ask`` imports it on every run, before anything else of the command (see
:mod:`codeagent.cli.remote`), so it stays on the cheap part of the standard library:
``socket`` and ``json``, not ``http.client`` (whose ``email`` parser alone costs a fresh
process about 35 ms), ``pathlib``, ``dataclasses`` or ``typing``. It speaks only what the
server sends back: a status line, headers, and a body framed by ``Content-Length``, by
chunks, or by the connection's end. Each request opens its own loopback connection.

The answer is streamed as NDJSON, one event per line.
"""

from __future__ import annotations

import json
import os
import socket
from os import PathLike

from codeagent.errors import CodeAgentError
from codeagent.server.address import ServerAddress, read_address

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

TOKEN_FILE = "server.token"  # as codeagent.server.auth (not imported: it is not stdlib-only)

CONNECT_TIMEOUT = 2.0
MAX_HEADER_LINE = 65536


class NoServer(Exception):
    """No usable server: none recorded, its process gone, or its port refusing connections;
    or the server refuses this question as too long (``413``), which an in-process answer
    cuts with a notice instead."""


class Response:
    """A response being read: its status, headers (names in lower case) and body."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._file = sock.makefile("rb")
        status_line = self._line()
        parts = status_line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
            raise NoServer(f"not an HTTP answer: {status_line[:60]!r}")
        self.status = int(parts[1])
        self.headers: dict[str, str] = {}
        while line := self._line().strip():
            name, _, value = line.decode("latin-1").partition(":")
            self.headers[name.strip().lower()] = value.strip()

    def _line(self) -> bytes:
        line = self._file.readline(MAX_HEADER_LINE)
        if not line:
            raise NoServer("the server closed the connection")
        return line

    def chunks(self) -> Iterator[bytes]:
        """The body, as it comes."""
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            while size := int(self._line().split(b";")[0].strip() or b"0", 16):
                yield self._exactly(size)
                self._line()  # the CRLF after each chunk
            return
        length = self.headers.get("content-length")
        if length is not None:
            yield self._exactly(int(length))
            return
        while block := self._file.read1(65536):
            yield block

    def _exactly(self, size: int) -> bytes:
        data = self._file.read(size)
        if len(data) < size:
            raise NoServer("the server closed the connection mid-answer")
        return data

    def read(self) -> bytes:
        return b"".join(self.chunks())

    def lines(self) -> Iterator[bytes]:
        """The body line by line (an NDJSON stream), each line as soon as it is complete."""
        pending = b""
        for chunk in self.chunks():
            pending += chunk
            *complete, pending = pending.split(b"\n")
            yield from complete
        if pending:
            yield pending

    def close(self) -> None:
        self._file.close()
        self._sock.close()


class ServerClient:
    def __init__(self, address: ServerAddress, token: str | None = None) -> None:
        self.address = address
        self._token = token
        self._open: list[Response] = []

    def close(self) -> None:
        for response in self._open:
            response.close()
        self._open.clear()

    def _request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        accept: str = "application/json",
        *,
        patient: bool = False,
    ) -> Response:
        """Send a request, read the response's head. The connection, and the answer to an
        impatient request, are given CONNECT_TIMEOUT; a ``patient`` one (a question: a
        server warming up takes longer to start answering) is waited for."""
        host, port = self.address.connect_host, self.address.port
        shown = f"[{host}]" if ":" in host else host
        head = [f"{method} {path} HTTP/1.1", f"Host: {shown}:{port}", f"Accept: {accept}"]
        head.append("Connection: close")
        if self._token:
            head.append(f"Authorization: Bearer {self._token}")
        data = b""
        if body is not None:
            data = json.dumps(body).encode()
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        try:
            sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            raise NoServer(str(exc)) from exc
        try:
            sock.sendall("\r\n".join([*head, "", ""]).encode("latin-1") + data)
            if patient:
                sock.settimeout(None)  # the server times out what idles
            response = Response(sock)
        except OSError as exc:
            sock.close()
            raise NoServer(str(exc)) from exc
        except NoServer:
            sock.close()
            raise
        self._open.append(response)
        if response.status >= 400:
            try:
                message = json.loads(response.read()).get("error", "")
            except (ValueError, AttributeError, OSError, NoServer):
                message = ""
            if response.status == 413:
                raise NoServer(f"413 {message}")
            raise CodeAgentError(f"server at {self.address.url}: {response.status} {message}")
        return response

    def get(self, path: str) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads(self._request("GET", path).read())
        except (OSError, ValueError) as exc:
            raise NoServer(str(exc)) from exc
        return data

    def ask_events(
        self, repo: str, question: str, k: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """The answer's events as the server sends them (``result`` or ``error`` last);
        ``k``: sources per answer for this question (the server's own when None)."""
        body: dict[str, Any] = {"repo": repo, "question": question}
        if k is not None:
            body["k"] = k
        response = self._request("POST", "/v1/ask", body, "application/x-ndjson", patient=True)
        for line in response.lines():
            if line.strip():
                yield json.loads(line)


def connect(home: str | PathLike[str]) -> ServerClient:
    """A client for the server recorded in ``home``; :class:`NoServer` when there is none."""
    address = read_address(home)
    if address is None:
        raise NoServer("no server recorded")
    # Needed with --require-token, or when the server listens on a non-loopback address alone.
    path = address.token_file or os.path.join(home, TOKEN_FILE)
    try:
        with open(path, encoding="utf-8") as file:
            token = file.read().strip() or None
    except OSError:
        token = None
    return ServerClient(address, token)


# Fixed when the server starts; ``k`` is sent with each question.
MATCHED_FLAGS = ("llm", "embed", "dense")


def flag_matches(name: str, value: str | None, settings: dict[str, Any]) -> bool:
    """Whether ``--NAME value`` asks for what the server runs: no flag, the value it was given
    (``auto``), or what that resolved to (``--embed local`` where ``auto`` found it)."""
    if value is None:
        return True
    effective = settings.get("effective") or {}
    given = {str(settings.get(name, "")).strip(), str(effective.get(name, "")).strip()}
    return value.strip() in given - {""}


def served_repo_id(
    client: ServerClient, root: str, flags: dict[str, Any], listing: dict[str, Any] | None = None
) -> str | None:
    """The id under which the server serves ``root`` (an absolute, resolved path), when it
    does with the settings the flags ask for (an ``--llm`` or ``--embed`` the server does
    not run means: in-process). ``listing``: ``GET /v1/repos`` when already read."""
    listing = client.get("/v1/repos") if listing is None else listing
    settings = listing.get("settings", {})
    if not all(flag_matches(name, flags.get(name), settings) for name in MATCHED_FLAGS):
        return None
    for repo in listing.get("repos", []):
        if os.path.normpath(str(repo.get("root", ""))) == os.path.normpath(root):
            return str(repo["id"])
    return None
