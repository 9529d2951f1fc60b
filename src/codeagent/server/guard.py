"""Checks every request makes before any route sees it: ``Host``, ``Origin``, content type.

A server on loopback is still reachable from a web page the user visits:

- **DNS rebinding**: the page's own host name (``evil.example``) is made to resolve to
  ``127.0.0.1``; to the browser the API is then same-origin, so the page can read it. The
  request still says ``Host: evil.example:PORT``: only the names the server is bound to
  pass (:func:`host_allowed`), refused with ``421``.
- **Cross-site requests**: a page on another origin may send a "simple" request (``GET``, or
  ``POST`` with ``text/plain``) without a CORS preflight. The browser sends ``Origin``; only
  the server's own origin (``scheme://Host`` of the request) and the configured ones pass
  (:func:`origin_allowed`), refused with ``403``; and a ``POST`` must be
  ``application/json``, which no simple request can be (:func:`content_type_allowed`, ``415``).

The decisions are pure functions of the header values; :class:`RequestGuard` is the ASGI
middleware that applies them, outside every route (the page, the API and ``/mcp``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from codeagent.errors import ConfigError

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
DEFAULT_PORTS = {"http": 80, "https": 443}


def _bare(host: str) -> str:
    """A host name as compared: lower case, IPv6 without brackets, no trailing dot."""
    host = host.strip().lower().rstrip(".")
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def split_host(value: str) -> tuple[str, int | None] | None:
    """``Host`` header → (bare name, port or None); None when it is not a host[:port]."""
    value = value.strip()
    if not value or any(c in value for c in "/?#@ \\"):
        return None
    if value.startswith("["):
        name, sep, rest = value[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else None
    elif value.count(":") > 1:
        return None  # an IPv6 address must be bracketed in a Host header
    else:
        name, _, port_text = value.partition(":")
        port_text = port_text if ":" in value else None
    if port_text is not None and not (port_text.isdigit() and 0 < int(port_text) < 65536):
        return None
    return (_bare(name), int(port_text) if port_text is not None else None) if name else None


@dataclass(frozen=True)
class Policy:
    """Whom the server answers: ``names`` (bare host names, on the port a request came in
    on), ``name_ports`` (allowed with exactly that port) and ``origins`` besides its own."""

    names: frozenset[str]
    name_ports: frozenset[tuple[str, int]] = frozenset()
    origins: frozenset[str] = frozenset()


def make_policy(
    bound: str, allowed_hosts: Iterable[str] = (), allowed_origins: Iterable[str] = ()
) -> Policy:
    """The policy of a server bound to ``bound``: loopback names, the bound address, the
    allowed hosts (``name`` or ``name:port``) and the allowed origins
    (:class:`~codeagent.errors.ConfigError` for one that is not a host or an origin)."""
    names = {*LOOPBACK_NAMES, _bare(bound)} - {""}
    name_ports: set[tuple[str, int]] = set()
    for value in allowed_hosts:
        parsed = split_host(value)
        if parsed is None:
            raise ConfigError(f"--allowed-host {value!r} is not a host name or host:port")
        name, port = parsed
        if port is None:
            names.add(name)
        else:
            name_ports.add((name, port))
    origins = set()
    for value in allowed_origins:
        origin = normal_origin(value)
        if origin is None:
            raise ConfigError(f"{value!r} is not an origin such as https://example.com:8443")
        origins.add(origin)
    return Policy(frozenset(names), frozenset(name_ports), frozenset(origins))


def host_allowed(host: str | None, policy: Policy, local: tuple[str, int] | None) -> bool:
    """Whether a ``Host`` header names this server. ``local``: the address and port the
    request came in on (None on a Unix socket). Passes: an allowed name or the local address
    itself (a wildcard bind is reached by any of the machine's addresses), with no port or
    the local port; or an allowed ``name:port`` exactly."""
    parsed = split_host(host or "")
    if parsed is None:
        return False
    name, port = parsed
    if port is not None and (name, port) in policy.name_ports:
        return True
    if local is not None and port not in (None, local[1]):
        return False
    if name in policy.names:
        return True
    if local is None:
        return False
    address = _bare(local[0])  # a dual-stack socket reports IPv4 as ::ffff:a.b.c.d
    return name in (address, address.removeprefix("::ffff:"))


def normal_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case with the scheme's default port left out; None
    for anything else (``null``, a path, a user name, another scheme)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.username is not None or parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    name = parts.hostname.lower()
    name = f"[{name}]" if ":" in name else name
    default = DEFAULT_PORTS[parts.scheme]
    return f"{parts.scheme}://{name}" + (f":{port}" if port not in (None, default) else "")


def origin_allowed(origin: str | None, scheme: str, host: str | None, policy: Policy) -> bool:
    """Whether an ``Origin`` header may call: absent (not a cross-site browser request), the
    server's own origin (``scheme://Host`` of this request), or an allowed origin."""
    if origin is None:
        return True
    given = normal_origin(origin)
    if given is None:
        return False
    own = normal_origin(f"{scheme}://{host}") if host else None
    return given == own or given in policy.origins


def content_type_allowed(method: str, content_type: str | None) -> bool:
    """A request with a body must be ``application/json`` (parameters such as a charset may
    follow): a cross-site page can send ``text/plain`` or a form without asking first."""
    if method.upper() not in BODY_METHODS:
        return True
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json"


def refusal(
    method: str,
    scheme: str,
    headers: Headers,
    policy: Policy,
    local: tuple[str, int] | None = None,
) -> tuple[int, str] | None:
    """(status, message) when a request must be refused, None when it may go on."""
    host = headers.get("host")
    if not host_allowed(host, policy, local):
        return 421, "this server does not answer for that Host (see --allowed-host)"
    if not origin_allowed(headers.get("origin"), scheme, host, policy):
        return 403, "requests from another origin are refused (see --allowed-origin)"
    if not content_type_allowed(method, headers.get("content-type")):
        return 415, "the request body must be application/json"
    return None


class RequestGuard:
    """ASGI middleware applying :func:`refusal` to every HTTP request."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            server = scope.get("server")
            local = (str(server[0]), int(server[1])) if server and server[1] is not None else None
            scheme = scope.get("scheme", "http")
            refused = refusal(scope["method"], scheme, headers, self.policy, local)
            if refused is not None:
                status, message = refused
                await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)
