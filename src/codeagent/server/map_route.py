"""``GET /v1/map``: the repository map of a served repository, as JSON (docs/server.md).

Query: ``repo`` (the id; optional with one repository), ``budget`` (tokens, default 1024),
``focus`` (repeatable: a question, a file or a folder). The answer is the map's JSON
(``text``, ``tokens``, ``files`` with their definitions, ``more``) with the ``state`` it was
made from and the ``notices`` about the index. It holds a slot of the server's admission,
as ``/v1/ask`` does (``429`` past the queue); a bad budget or focus is a ``400``.
"""

from __future__ import annotations

from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from codeagent.errors import ConfigError
from codeagent.server.backend import RepoBackend
from codeagent.server.limits import BUSY_MESSAGE, RETRY_AFTER_SECONDS, Admission, Busy, check_length
from codeagent.server.repos import RequestError, ServedRepo, pick


def repository_map(backend: RepoBackend, budget: int, focus: list[str]) -> dict[str, Any]:
    """The map's JSON, with the state it came from and what the index has to say."""
    from codeagent.repomap import map_of

    pinned = backend.pin()
    try:
        found = map_of(pinned.index, budget=budget, focus=focus)
    except ConfigError as exc:
        raise RequestError(str(exc)) from None
    notices = [*pinned.notices, *pinned.index.take_notices()]
    return {**found.to_json(), "state": pinned.state, "notices": notices}


def map_route(
    backends: dict[str, RepoBackend], admission: Admission, max_question_chars: int
) -> Route:
    served: dict[str, ServedRepo] = {k: b.repo for k, b in backends.items()}

    async def handle(request: Request) -> Response:
        from codeagent.repomap import DEFAULT_BUDGET

        q = request.query_params
        backend = backends[pick(served, q.get("repo")).id]
        try:
            budget = int(q.get("budget", DEFAULT_BUDGET))
        except ValueError:
            raise RequestError("`budget` must be a whole number of tokens") from None
        focus = q.getlist("focus")
        for text in focus:
            check_length(text, max_question_chars, "focus")
        try:
            async with admission.slot():
                found = await anyio.to_thread.run_sync(
                    lambda: repository_map(backend, budget, focus)
                )
        except Busy:
            headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
            return JSONResponse({"error": BUSY_MESSAGE}, status_code=429, headers=headers)
        return JSONResponse(found)

    return Route("/v1/map", handle)
