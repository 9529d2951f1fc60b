"""The request guard's decisions (Host, Origin, content type) and the loopback and bearer
checks, as pure functions: each case is written out by hand from the rules in
docs/safety.md, not computed by the code under test."""

from __future__ import annotations

import pytest

from codeagent.errors import ConfigError
from codeagent.server import auth
from codeagent.server.guard import (
    content_type_allowed,
    host_allowed,
    make_policy,
    normal_origin,
    origin_allowed,
    split_host,
)

PORT = 8765
LOCAL = ("127.0.0.1", PORT)
ALLOWED_HOSTS = ["code.example.com", "proxy.example:8443"]


@pytest.mark.parametrize(
    ("value", "want"),
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("LOCALHOST", ("localhost", None)),
        ("CODE.EXAMPLE.COM:8765", ("code.example.com", 8765)),
        ("[::1]:80", ("::1", 80)),
        ("[::1]", ("::1", None)),
        ("localhost.:8765", ("localhost", 8765)),
        ("::1", None),  # IPv6 unbracketed
        ("evil.example:", None),
        ("evil.example:0", None),
        ("evil.example:99999", None),
        ("evil.example:65536", None),  # one past the last port
        ("code.example:65535", ("code.example", 65535)),
        ("code.example:1", ("code.example", 1)),
        ("evil.example:8x", None),
        ("user@127.0.0.1", None),
        ("127.0.0.1/x", None),
        ("[::1", None),
        ("[::1]x", None),
        ("[::1]]", None),
        ("[::1]:80]", None),
        ("", None),
        (":8765", None),
    ],
)
def test_split_host(value: str, want: object) -> None:
    assert split_host(value) == want


@pytest.mark.parametrize(
    ("host", "local", "allowed"),
    [
        ("127.0.0.1:8765", LOCAL, True),
        ("127.0.0.1", LOCAL, True),
        ("localhost:8765", LOCAL, True),
        ("[::1]:8765", LOCAL, True),
        ("code.example.com", LOCAL, True),
        ("code.example.com:8765", LOCAL, True),
        ("proxy.example:8443", LOCAL, True),
        ("proxy.example", LOCAL, False),  # allowed with its port only
        ("code.example.com:9999", LOCAL, False),
        ("127.0.0.1:9999", LOCAL, False),  # another port: another server
        ("evil.example:8765", LOCAL, False),
        ("evil.example", LOCAL, False),
        ("localhost.evil.example:8765", LOCAL, False),
        ("127.0.0.1.nip.io:8765", LOCAL, False),
        ("", LOCAL, False),
        (None, LOCAL, False),
        # A wildcard bind is reached by the address the connection came in on.
        ("192.168.1.5:8765", ("192.168.1.5", PORT), True),
        ("192.168.1.5:8765", LOCAL, False),
        ("192.168.1.5:8765", ("::ffff:192.168.1.5", PORT), True),  # dual-stack bind
        ("[::ffff:192.168.1.5]:8765", ("::ffff:192.168.1.5", PORT), True),
        # A Unix socket has no port to compare.
        ("localhost", None, True),
        ("evil.example", None, False),
    ],
)
def test_host_allowed(host: str | None, local: tuple[str, int] | None, allowed: bool) -> None:
    # The policy is made inside the test (not at import), so a mutation run sees it made.
    policy = make_policy("127.0.0.1", ALLOWED_HOSTS, [])
    assert host_allowed(host, policy, local) is allowed


def test_the_bound_address_is_a_name() -> None:
    policy = make_policy("10.1.2.3")
    assert host_allowed("10.1.2.3:8765", policy, LOCAL)
    assert not host_allowed("10.1.2.4:8765", policy, LOCAL)
    v6 = make_policy("fd00::7")
    assert host_allowed("[fd00::7]:8765", v6, LOCAL)
    # Written as in a URL (RFC 3986 IP-literal), or with the root's trailing dot: the same.
    assert make_policy("[FD00::7]") == v6
    assert make_policy("Code.Internal.") == make_policy("code.internal")
    assert "code.internal" in make_policy("Code.Internal.").names


@pytest.mark.parametrize(
    ("origin", "want"),
    [
        ("http://127.0.0.1:8765", "http://127.0.0.1:8765"),
        ("HTTP://LocalHost:80", "http://localhost"),
        ("https://code.example.com:443/", "https://code.example.com"),
        ("http://[::1]:8765", "http://[::1]:8765"),
        ("null", None),
        ("file://", None),
        ("chrome-extension://abc", None),
        ("http://user@evil.example", None),
        ("http://evil.example/path", None),
        ("http://evil.example:notaport", None),
        ("", None),
    ],
)
def test_normal_origin(origin: str, want: str | None) -> None:
    assert normal_origin(origin) == want


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "allowed"),
    [
        (None, "127.0.0.1:8765", "http", True),  # not a browser's cross-site request
        ("http://127.0.0.1:8765", "127.0.0.1:8765", "http", True),  # the page itself
        ("http://localhost:8765", "localhost:8765", "http", True),
        ("http://localhost", "localhost:80", "http", True),  # default port either way
        ("https://code.example.com", "127.0.0.1:8765", "http", True),  # --allowed-origin
        ("http://localhost:8765", "127.0.0.1:8765", "http", False),  # another origin
        ("http://127.0.0.1:9999", "127.0.0.1:8765", "http", False),  # another local page
        ("https://127.0.0.1:8765", "127.0.0.1:8765", "http", False),  # another scheme
        ("http://evil.example", "127.0.0.1:8765", "http", False),
        ("null", "127.0.0.1:8765", "http", False),  # sandboxed frames, file:// pages
        ("", "127.0.0.1:8765", "http", False),
        # Behind TLS the page's own origin is https://Host; a plain-http page is another one.
        ("https://code.internal:8443", "code.internal:8443", "https", True),
        ("https://code.internal", "code.internal:443", "https", True),
        ("http://code.internal:8443", "code.internal:8443", "https", False),
    ],
)
def test_origin_allowed(origin: str | None, host: str, scheme: str, allowed: bool) -> None:
    policy = make_policy("127.0.0.1", [], ["https://code.example.com"])
    assert origin_allowed(origin, scheme, host, policy) is allowed


@pytest.mark.parametrize(
    ("method", "content_type", "allowed"),
    [
        ("POST", "application/json", True),
        ("POST", "Application/JSON; charset=utf-8", True),
        ("POST", "application/json; charset=utf-8; profile=x", True),
        ("POST", "text/plain", False),
        ("POST", "text/plain;charset=UTF-8", False),
        ("POST", "application/x-www-form-urlencoded", False),
        ("POST", "multipart/form-data; boundary=x", False),
        ("POST", "application/jsonp", False),
        ("POST", None, False),
        ("PUT", "text/plain", False),
        ("GET", None, True),
        ("DELETE", None, True),  # MCP ends a session with a bodiless DELETE
    ],
)
def test_content_type(method: str, content_type: str | None, allowed: bool) -> None:
    assert content_type_allowed(method, content_type) is allowed


@pytest.mark.parametrize(
    ("hosts", "origins"),
    [(["evil example"], []), (["::1"], []), (["a:0"], []), ([], ["evil.example"]), ([], ["null"])],
)
def test_bad_allowed_values_are_config_errors(hosts: list[str], origins: list[str]) -> None:
    with pytest.raises(ConfigError) as raised:
        make_policy("127.0.0.1", hosts, origins)
    (value,) = [*hosts, *origins]
    assert repr(value) in str(raised.value)  # the one line names the value it refuses


def test_allowed_hosts_with_and_without_a_port() -> None:
    policy = make_policy("127.0.0.1", ["Code.Example.com", "proxy.example:8443"])
    assert policy.names == {"127.0.0.1", "localhost", "::1", "code.example.com"}
    assert policy.name_ports == {("proxy.example", 8443)}


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),  # IPv4 loopback as a dual-stack socket reports it
        (None, False),  # no client address: a Unix socket, a transport that does not say
        ("", False),
        ("garbage", False),
        ("localhost", False),  # a name, not an address: never what a socket reports
        ("10.0.0.1", False),
        ("::ffff:10.0.0.1", False),
        ("0.0.0.0", False),
        ("::", False),
    ],
)
def test_is_loopback(host: str | None, loopback: bool) -> None:
    assert auth.is_loopback(host) is loopback


TOKEN = "s3cret-s3cret-s3cret"


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        (f"Bearer {TOKEN}", True),
        (f"bearer {TOKEN}", True),  # the scheme is case-insensitive (RFC 9110)
        (f"BEARER {TOKEN}", True),
        (f"Basic {TOKEN}", False),
        (f"Token {TOKEN}", False),
        (f"Bearerx {TOKEN}", False),
        (TOKEN, False),
        (f"Bearer {TOKEN}x", False),
        (f"Bearer {TOKEN.upper()}", False),
        ("Bearer ", False),
        ("", False),
        (None, False),
    ],
)
def test_token_matches(header: str | None, matches: bool) -> None:
    assert auth.token_matches(header, TOKEN) is matches


def test_an_allowed_origin_is_kept_in_its_normal_form() -> None:
    """``--allowed-origin`` written with an upper-case scheme and host, the scheme's default
    port and a trailing slash is the origin ``https://code.example.com`` (RFC 6454 §6.1: the
    scheme and host in lower case, the port only when it is not the scheme's default)."""
    policy = make_policy("127.0.0.1", [], ["HTTPS://Code.Example.com:443/"])
    assert policy.origins == frozenset({"https://code.example.com"})
    assert origin_allowed("https://code.example.com", "http", "127.0.0.1:8765", policy)
    assert origin_allowed("https://CODE.example.com:443", "http", "127.0.0.1:8765", policy)
    assert not origin_allowed("http://code.example.com", "http", "127.0.0.1:8765", policy)
