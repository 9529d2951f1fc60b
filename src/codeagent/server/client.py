"""A light client for a running ``codeagent serve`` (standard library only: ``codeagent ask``
imports it on every run, so nothing heavy — no agent, no index — is loaded).

The answer is streamed as NDJSON, one event per line.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from codeagent.errors import CodeAgentError
from codeagent.server.address import ServerAddress, read_address

TOKEN_FILE = "server.token"  # as codeagent.server.auth (not imported: it is not stdlib-only)

CONNECT_TIMEOUT = 2.0


class NoServer(Exception):
    """No usable server: none recorded, its process gone, or its port refusing connections;
    or the server refuses this question as too long (``413``), which an in-process answer
    cuts with a notice instead."""


class ServerClient:
    def __init__(self, address: ServerAddress, token: str | None = None) -> None:
        self.address = address
        self._conn = http.client.HTTPConnection(
            address.connect_host, address.port, timeout=CONNECT_TIMEOUT
        )
        self._headers = {"Accept": "application/json"}
        if token:
            self._headers["Authorization"] = f"Bearer {token}"

    def close(self) -> None:
        self._conn.close()

    def _request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        accept: str = "application/json",
    ) -> http.client.HTTPResponse:
        headers = {**self._headers, "Accept": accept}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self._conn.request(method, path, body=data, headers=headers)
            response = self._conn.getresponse()
        except (ConnectionRefusedError, ConnectionResetError, TimeoutError) as exc:
            raise NoServer(str(exc)) from exc
        except OSError as exc:
            raise NoServer(str(exc)) from exc
        if response.status >= 400:
            try:
                message = json.loads(response.read()).get("error", "")
            except (ValueError, AttributeError):
                message = ""
            if response.status == 413:
                raise NoServer(f"413 {message}")
            raise CodeAgentError(f"server at {self.address.url}: {response.status} {message}")
        return response

    def get(self, path: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self._request("GET", path).read())
        return data

    def ask_events(
        self, repo: str, question: str, k: int | None = None
    ) -> Iterator[dict[str, Any]]:
        """The answer's events as the server sends them (``result`` or ``error`` last);
        ``k``: sources per answer for this question (the server's own when None)."""
        body: dict[str, Any] = {"repo": repo, "question": question}
        if k is not None:
            body["k"] = k
        response = self._request("POST", "/v1/ask", body, "application/x-ndjson")
        if self._conn.sock is not None:
            self._conn.sock.settimeout(None)  # an answer may take long; the server times out idle
        for line in response:
            if line.strip():
                yield json.loads(line)


def connect(home: Path) -> ServerClient:
    """A client for the server recorded in ``home``; :class:`NoServer` when there is none."""
    address = read_address(home)
    if address is None:
        raise NoServer("no server recorded")
    # Needed with --require-token, or when the server listens on a non-loopback address alone.
    path = Path(address.token_file) if address.token_file else home / TOKEN_FILE
    try:
        token = path.read_text(encoding="utf-8").strip() or None
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


def served_repo_id(client: ServerClient, root: Path, flags: dict[str, Any]) -> str | None:
    """The id under which the server serves ``root``, when it does with the settings the
    flags ask for (an ``--llm`` or ``--embed`` the server does not run means: in-process)."""
    listing = client.get("/v1/repos")
    settings = listing.get("settings", {})
    if not all(flag_matches(name, flags.get(name), settings) for name in MATCHED_FLAGS):
        return None
    for repo in listing.get("repos", []):
        if Path(repo.get("root", "")) == root:
            return str(repo["id"])
    return None
