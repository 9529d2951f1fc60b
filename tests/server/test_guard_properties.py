"""Properties of origin normalisation (``server.guard.normal_origin``), with the expected form
written from RFC 6454 §6.1 in the test: the scheme and host in lower case, the port only when
it is not the scheme's default, no path. Any spelling of one origin normalises to that form;
the form is a fixed point; an allowed origin admits every spelling and nothing else."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from codeagent.server.guard import make_policy, normal_origin, origin_allowed
from properties import fast

FAST = fast(40)
DEFAULT = {"http": 80, "https": 443}

label = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
hosts = st.lists(label, min_size=1, max_size=3).map(".".join)
ports = st.one_of(st.none(), st.integers(1, 65535))


def rfc6454(scheme: str, host: str, port: int | None) -> str:
    shown = "" if port is None or port == DEFAULT[scheme] else f":{port}"
    return f"{scheme}://{host}{shown}"


@st.composite
def spellings(draw: st.DrawFn) -> tuple[str, str]:
    """(a way to write an origin, its serialisation)."""
    scheme = draw(st.sampled_from(sorted(DEFAULT)))
    host, port = draw(hosts), draw(ports)
    if port is None and draw(st.booleans()):
        port_text = f":{DEFAULT[scheme]}"  # the default port written out
    else:
        port_text = "" if port is None else f":{port}"

    def recase(text: str) -> str:
        flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
        return "".join(c.upper() if f else c for c, f in zip(text, flips, strict=True))

    slash = draw(st.sampled_from(["", "/"]))
    written = f"{recase(scheme)}://{recase(host)}{port_text}{slash}"
    return written, rfc6454(scheme, host, port)


@FAST
@given(spellings())
def test_any_spelling_normalises_to_the_serialisation(pair: tuple[str, str]) -> None:
    written, origin = pair
    assert normal_origin(written) == origin
    assert normal_origin(origin) == origin  # a fixed point


@FAST
@given(spellings(), spellings())
def test_an_allowed_origin_admits_its_spellings_only(
    allowed: tuple[str, str], other: tuple[str, str]
) -> None:
    policy = make_policy("127.0.0.1", [], [allowed[0]])
    assert policy.origins == {allowed[1]}
    host = "127.0.0.1:8765"
    assert origin_allowed(allowed[1], "http", host, policy)
    assert origin_allowed(other[0], "http", host, policy) is (other[1] == allowed[1])


@FAST
@given(spellings(), st.sampled_from(["/path", "?q=1", "#frag", "/a/b"]))
def test_an_origin_with_a_path_query_or_fragment_is_none(pair: tuple[str, str], tail: str) -> None:
    assert normal_origin(pair[1] + tail) is None
