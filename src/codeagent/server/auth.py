"""The bearer token: generated once into a ``0600`` file, required from every non-loopback client.

A token is compared with :func:`hmac.compare_digest`, so the time a comparison takes does
not depend on how much of a guess is right.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from pathlib import Path

from codeagent.errors import ConfigError

TOKEN_FILE = "server.token"
MIN_TOKEN_CHARS = 16


def default_token_file(home: Path) -> Path:
    return home / TOKEN_FILE


def load_or_create_token(path: Path) -> str:
    """The token in ``path``; a new random one is written there (mode 0600) when it is absent."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return read_token(path)
    except OSError as exc:
        raise ConfigError(f"cannot create token file {path}: {exc.strerror}") from exc
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")
    return token


def read_token(path: Path) -> str:
    try:
        mode = path.stat().st_mode
        token = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ConfigError(f"cannot read token file {path}: {exc.strerror}") from exc
    if mode & 0o077:
        raise ConfigError(f"token file {path} is readable by others: run `chmod 600 {path}`")
    if len(token) < MIN_TOKEN_CHARS:
        raise ConfigError(f"token in {path} is shorter than {MIN_TOKEN_CHARS} characters")
    return token


def is_loopback(host: str | None) -> bool:
    """Whether a client address is this machine's loopback: ``127.0.0.0/8``, ``::1``, or an
    IPv4 loopback address mapped into IPv6 (``::ffff:127.0.0.1``, what a dual-stack socket
    reports). No address (a Unix socket, a transport that does not say) is not loopback."""
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def token_matches(authorization: str | None, token: str) -> bool:
    """Whether an ``Authorization`` header is ``Bearer <token>``: the scheme in any case
    (RFC 9110), no other scheme; the token compared in constant time."""
    scheme, _, given = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())
