"""A field's documentation says what the code that uses it does: for a how-question whose words
a class's documented field holds, the method that uses that field is shown before the fields'
chunk and before the methods that only share the question's words.

Each case is a real index of a git repository built here; which method does the work, and the
name each declaration line declares, are written down here by hand."""

from __future__ import annotations

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank import field_users
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

QUESTION = "how does the client keep from sending too many requests a second to the server?"

_FILLER = "".join(
    f'        buffer.append("part {n}").append(body.length() + {n});\n' for n in range(12)
)

THROTTLED = f"""package net;

import java.util.ArrayDeque;

public class Client {{
    private final Transport transport;
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private final StringBuilder buffer = new StringBuilder();
    private final String host;
    private final int port;
    /** Requests sent since the second began: too many requests a second are kept from the
     * server, the limit of the client. */
    private int sentThisSecond;
    private long secondStart;
    private final int perSecond;

    public Client(Transport transport, String host, int port, int perSecond) {{
        this.transport = transport;
        this.host = host;
        this.port = port;
        this.perSecond = perSecond;
    }}

    /** Writes a body out. */
    public void write(String body, long now) {{
        if (now - secondStart >= 1000) {{
            secondStart = now;
            sentThisSecond = 0;
        }}
        if (sentThisSecond >= perSecond) {{
            queue.add(body);
            return;
        }}
        sentThisSecond++;
        transport.push(host, port, body);
    }}

    /** Sends requests to the server: the client's requests, a second's worth, as text. */
    public String describe(String body) {{
{_FILLER}        return "requests to the server from the client " + buffer + " a second";
    }}

    /** The requests the server was sent, and the client's name for them. */
    public String summary(String name) {{
{_FILLER}        return name + ": requests sent to the server by the client";
    }}
}}
"""


def _shown(text: str, git_repo: GitRepoFactory, k: int = 3) -> list[tuple[int, int]]:
    store, _ = load_or_build(git_repo({"src/net/Client.java": text}), Settings.load(embed="none"))
    return [(h.start_line, h.end_line) for h in retrieve(store, QUESTION, k)]


def _holds(spans: list[tuple[int, int]], line: int) -> bool:
    return any(start <= line <= end for start, end in spans)


WRITE = 24  # ``write``'s first line, the method that keeps the rate


def test_the_method_that_uses_a_documented_field_comes_first(git_repo: GitRepoFactory) -> None:
    shown = _shown(THROTTLED, git_repo)
    assert shown[0][0] <= WRITE <= shown[0][1], shown


def test_without_the_documentation_nothing_is_lifted(git_repo: GitRepoFactory) -> None:
    # the same class with the field's comment in other words: ``write`` holds no question
    # word, and the methods that share the question's words come before it
    plain = THROTTLED.replace(
        "Requests sent since the second began: too many requests a second are kept from the\n"
        "     * server, the limit of the client.",
        "A count, reset every thousand milliseconds.",
    )
    shown = _shown(plain, git_repo)
    assert not (shown[0][0] <= WRITE <= shown[0][1]), shown


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("    private int $logDepth = 0;", "logDepth"),  # PHP
        ("    protected bool $detectCycles = true;", "detectCycles"),
        ("    private final Map<String, Integer> counts = new HashMap<>();", "counts"),  # Java
        ("    private long secondStart;", "secondStart"),
        ("    public int Limit { get; set; }", "Limit"),  # C#
        ("    timeout time.Duration // how long to wait", "timeout"),  # Go
        ("    ReadTimeout, WriteTimeout time.Duration", "ReadTimeout"),
        ("    pub depth: usize,", "depth"),  # Rust
        ("  private retries: number = 3;", "retries"),  # TypeScript
        ("    max_depth: int = 10", "max_depth"),  # Python
        ("    attr_reader :depth, :width", "depth"),  # Ruby
        ("    @limit = limit", "limit"),
        ("    public Client(Transport transport) {", ""),  # a signature
        ("    }", ""),
    ],
)
def test_a_declaration_line_names_its_field(line: str, name: str) -> None:
    found = field_users.fields(f"/** its documentation */\n{line}\n")
    assert [n for n, _ in found] == ([name] if name else []), found
    if name:
        assert "its documentation" in found[0][1]
