"""The HTTP application: ``/v1/ask`` (JSON, SSE or NDJSON), ``/v1/index``, ``/v1/repos``,
``/v1/health``, ``/v1/file`` (a cited file's lines), ``/v1/map`` (the repository map), the
web page at ``/`` and MCP at ``/mcp``.

See docs/server.md for the API and the security model.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import anyio
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from codeagent import __version__, wire
from codeagent.errors import CodeAgentError, one_line
from codeagent.events import ErrorEvent, Event, NoticeEvent, ResultEvent
from codeagent.server.auth import is_loopback, token_matches
from codeagent.server.backend import RepoBackend
from codeagent.server.bodies import AskRequest, IndexRequest, parse_body, read_json
from codeagent.server.everywhere import AllRepos
from codeagent.server.guard import RequestGuard, make_policy
from codeagent.server.limits import (
    BUSY_MESSAGE,
    RETRY_AFTER_SECONDS,
    Admission,
    Busy,
    check_length,
)
from codeagent.server.map_route import map_route
from codeagent.server.repos import RequestError, ServedRepo, pick, read_lines
from codeagent.server.stream import Answer, Asked, IdleTimeout

log = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"
PUBLIC_PATHS = frozenset({"/", "/favicon.ico"})  # the page holds no data; its API calls do


@dataclass
class ServerConfig:
    backends: dict[str, RepoBackend]
    token: str
    max_concurrent: int = 3
    max_queue: int = 6
    idle_timeout: float = 30.0
    max_body_bytes: int = 64 * 1024
    max_question_chars: int = 4000
    cors_origins: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # llm, embed, k: for clients to match
    mcp: bool = False  # mount the MCP tools at /mcp, under the same admission and caps
    host: str = "127.0.0.1"  # the address listened on: a name the Host header may carry
    allowed_hosts: list[str] = field(default_factory=list)  # more names (`name` or `name:port`)
    allowed_origins: list[str] = field(default_factory=list)  # origins besides the server's own
    require_token: bool = False  # the token on loopback too
    # what /v1/repos says besides each repository (the memory budget, the indexer, fetches)
    describe: Callable[[], dict[str, Any] | None] = lambda: None


def error(message: str, status: int, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers or None)


class BearerAuth:
    """ASGI middleware: a client must send ``Authorization: Bearer <token>`` unless it is on
    loopback and the token is not required there (``require_token``)."""

    def __init__(self, app: ASGIApp, token: str, require_token: bool = False) -> None:
        self.app = app
        self.token = token
        self.require_token = require_token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] not in PUBLIC_PATHS:
            client = scope.get("client")
            if self.require_token or not is_loopback(client[0] if client else None):
                headers = dict(scope["headers"])
                auth = headers.get(b"authorization", b"").decode("latin-1")
                if not token_matches(auth, self.token):
                    response = error(
                        "a bearer token is required", 401, **{"WWW-Authenticate": "Bearer"}
                    )
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def create_app(
    config: ServerConfig,
    *,
    lifespans: list[Callable[[], AbstractAsyncContextManager[Any]]] | None = None,
) -> Starlette:
    admission = Admission(config.max_concurrent, config.max_queue)
    served: dict[str, ServedRepo] = {k: b.repo for k, b in config.backends.items()}
    everywhere = AllRepos(config.backends)

    async def health(_request: Request) -> Response:
        return JSONResponse({"status": "ok", "version": __version__, "load": admission.to_json()})

    async def repos(_request: Request) -> Response:
        def listing() -> dict[str, Any]:
            found = {"repos": [b.status() for b in config.backends.values()]}
            return {**found, "settings": config.settings, **(config.describe() or {})}

        return JSONResponse(await anyio.to_thread.run_sync(listing))

    async def ask(request: Request) -> Response:
        body = parse_body(AskRequest, await read_json(request, config.max_body_bytes))
        backend: Asked = (
            everywhere
            if not body.repo and len(served) > 1
            else (config.backends[pick(served, body.repo).id])
        )
        question = body.question
        if not question.strip():
            raise RequestError("`question` must be a non-empty string")
        check_length(question, config.max_question_chars)  # as sent: before any sanitizing
        try:
            await admission.acquire()
        except Busy:
            return error(BUSY_MESSAGE, 429, **_retry_after())
        answer = Answer(backend, question, admission.release, k=body.k)
        accept = request.headers.get("accept", "")
        if "text/event-stream" in accept:
            return EventSourceResponse(_sse(answer, config.idle_timeout), ping=15)
        if NDJSON in accept:
            return StreamingResponse(_ndjson(answer, config.idle_timeout), media_type=NDJSON)
        return await _json(answer, config.idle_timeout)

    async def index(request: Request) -> Response:
        body = parse_body(IndexRequest, await read_json(request, config.max_body_bytes))
        backend = config.backends[pick(served, body.repo).id]
        force = body.force
        stats = await anyio.to_thread.run_sync(lambda: backend.index(force=force))
        return JSONResponse(stats)

    async def file_lines(request: Request) -> Response:
        q = request.query_params
        repo = pick(served, q.get("repo"))
        try:
            start = int(q.get("start", "1"))
            end = int(q.get("end", str(start + 200)))
        except ValueError as exc:
            raise RequestError("`start` and `end` must be line numbers") from exc
        backend = config.backends[repo.id]
        indexed = await anyio.to_thread.run_sync(backend.indexed_paths)
        # in a thread: the check that the file is not ignored now runs git
        lines = await anyio.to_thread.run_sync(read_lines, repo, q.get("path"), start, end, indexed)
        return JSONResponse(lines)

    async def page(_request: Request) -> Response:
        html = _static("index.html")
        return HTMLResponse(html, headers={"Content-Security-Policy": _CSP})

    async def favicon(_request: Request) -> Response:
        headers = {"Cache-Control": "max-age=86400"}
        return Response(_static("favicon.svg"), media_type="image/svg+xml", headers=headers)

    async def on_request_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return error(str(exc), exc.status)

    async def on_domain_error(_request: Request, exc: Exception) -> Response:
        return error(one_line(exc), 500)

    routes: list[BaseRoute] = [
        Route("/", page),
        Route("/favicon.ico", favicon),
        Route("/v1/health", health),
        Route("/v1/repos", repos),
        Route("/v1/ask", ask, methods=["POST"]),
        Route("/v1/index", index, methods=["POST"]),
        Route("/v1/file", file_lines),
        map_route(config.backends, admission, config.max_question_chars),
    ]
    lifespans = list(lifespans or [])
    if config.mcp:
        from codeagent.server.mcp import build_mcp, http_routes

        mcp = build_mcp(
            config.backends, admission=admission, max_question_chars=config.max_question_chars
        )
        mcp_routes, session_lifespan = http_routes(mcp)
        routes.extend(mcp_routes)
        lifespans.insert(0, session_lifespan)  # MCP sessions run as long as the app

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        from contextlib import AsyncExitStack

        async with AsyncExitStack() as stack:
            for make in lifespans:
                await stack.enter_async_context(make())
            yield

    policy = make_policy(
        config.host, config.allowed_hosts, [*config.allowed_origins, *config.cors_origins]
    )
    middleware = [
        Middleware(RequestGuard, policy=policy),  # first: Host, Origin, content type
        Middleware(BearerAuth, token=config.token, require_token=config.require_token),
    ]
    if config.cors_origins:
        middleware.insert(
            1,
            Middleware(
                CORSMiddleware,
                allow_origins=config.cors_origins,
                allow_methods=["GET", "POST"],
                allow_headers=["Authorization", "Content-Type", "Accept"],
            ),
        )
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={RequestError: on_request_error, CodeAgentError: on_domain_error},
    )


_CSP = "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"


def _static(name: str) -> str:
    return resources.files("codeagent.server").joinpath("static", name).read_text("utf-8")


def _retry_after() -> dict[str, str]:
    return {"Retry-After": str(RETRY_AFTER_SECONDS)}


async def _guarded(answer: Answer, idle_timeout: float) -> AsyncIterator[Event]:
    """The answer's events; an idle timeout becomes a last ``error`` event."""
    try:
        async for event in answer.events(idle_timeout):
            yield event
    except IdleTimeout as exc:
        yield ErrorEvent(kind="timeout", message=str(exc))


async def _sse(answer: Answer, idle_timeout: float) -> AsyncIterator[dict[str, str]]:
    async for event in _guarded(answer, idle_timeout):
        yield wire.sse(event)


async def _ndjson(answer: Answer, idle_timeout: float) -> AsyncIterator[str]:
    async for event in _guarded(answer, idle_timeout):
        yield wire.ndjson(event)


async def _json(answer: Answer, idle_timeout: float) -> Response:
    notices: list[str] = []
    async for event in _guarded(answer, idle_timeout):
        if isinstance(event, NoticeEvent):
            notices.append(event.text)
        elif isinstance(event, ResultEvent):
            return JSONResponse({**event.result.to_json(), "notices": notices})
        elif isinstance(event, ErrorEvent):
            return error(event.message, 504 if event.kind == "timeout" else 500)
    return error("the answer stopped without a result", 500)
