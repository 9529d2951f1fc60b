"""The bodies of the POST routes: read under a size cap, checked by pydantic models that
refuse a field they do not name (``422``) rather than ignore it."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request

from codeagent.bounds import K_MAX, K_MIN
from codeagent.server.repos import RequestError


class AskRequest(BaseModel):
    """The body of ``POST /v1/ask``; a field it does not name is refused (422), not ignored."""

    model_config = ConfigDict(extra="forbid")

    question: str
    repo: str | None = None
    k: int | None = Field(default=None, ge=K_MIN, le=K_MAX)  # sources for this answer


class IndexRequest(BaseModel):
    """The body of ``POST /v1/index``."""

    model_config = ConfigDict(extra="forbid")

    repo: str | None = None
    force: bool = False


M = TypeVar("M", bound=BaseModel)


def parse_body(model: type[M], data: dict[str, Any]) -> M:
    """``data`` as ``model``; :class:`RequestError` 422 naming the first wrong field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise RequestError(f"`{where}`: {first['msg']}", status=422) from None


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, refused past ``limit`` bytes (checked while reading)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise RequestError(f"request body over {limit} bytes", status=413)
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise RequestError(f"request body over {limit} bytes", status=413)
    try:
        data = json.loads(body or b"{}")
    except ValueError as exc:
        raise RequestError("the body must be a JSON object") from exc
    if not isinstance(data, dict):
        raise RequestError("the body must be a JSON object")
    return data
