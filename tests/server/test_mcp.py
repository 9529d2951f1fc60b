"""The MCP server through the SDK's own clients: over stdio (`codeagent mcp`) and over
Streamable HTTP at /mcp of a running `codeagent serve`."""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from server_helpers import FILES

TOOLS = {
    "list_repositories",
    "ask",
    "search_code",
    "file_structure",
    "find_definition",
    "find_references",
    "find_overrides",
    "repository_map",
}


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


async def exercise(session: ClientSession, repo_id: str) -> dict[str, Any]:
    init = await session.initialize()
    listed = await session.list_tools()
    out: dict[str, Any] = {"tools": {t.name: t for t in listed.tools}, "init": init}
    calls = {
        "repos": ("list_repositories", {}),
        "definition": ("find_definition", {"name": "Square.area"}),
        "references": ("find_references", {"name": "Square"}),
        "overrides": ("find_overrides", {"name": "Shape.area"}),
        "no_overrides": ("find_overrides", {"name": "Shape.perimeter"}),
        "structure": ("file_structure", {"path": "geo/shapes.py"}),
        "search": ("search_code", {"query": "side times side", "k": 2}),
        "ask": ("ask", {"question": "list the classes in geo/shapes.py", "repo": repo_id}),
        "bad_repo": ("ask", {"question": "hi", "repo": "../etc"}),
        "missing_file": ("file_structure", {"path": "geo/nothere.py"}),
    }
    for key, (name, args) in calls.items():
        out[key] = await session.call_tool(name, args)
    return out


def check(out: dict[str, Any], root: Path) -> None:
    assert set(out["tools"]) == TOOLS
    for tool in out["tools"].values():
        assert len(tool.description or "") > 40, tool.name  # written for an agent to choose by
    assert text(out["repos"]).split() == [root.name, str(root)]
    # Truth from the file written by the test: Square.area is lines 13-14, Square on 9.
    assert "geo/shapes.py:13-14  Square.area  [method]" in text(out["definition"])
    refs = text(out["references"])
    # From the symbol graph: the call site (line 18, inside unit_square), resolved to the class
    # (its import-free module binds Square), with the caller's qualified name;
    # the class statement itself (line 9) is a definition, not a reference.
    assert (
        "geo/shapes.py:18: a call in unit_square  resolved: true  caller: geo.shapes.unit_square"
        "  target: geo.shapes.Square"
    ) in refs.splitlines()
    assert "geo/shapes.py:9:" not in refs
    # Square (line 9) derives from Shape and defines area again (lines 13-14)
    assert text(out["overrides"]).splitlines()[:2] == [
        "Overrides of `geo.shapes.Shape.area` in its subclasses: 1",
        "geo/shapes.py:13-14  Square.area  [method]  overrides: Shape.area",
    ]
    assert text(out["no_overrides"]).startswith("no overrides of Shape.perimeter found")
    assert re.search(r"geo/shapes.py:9-14 +class Square\b", text(out["structure"]))
    assert re.search(r"geo/shapes.py:13-14 +def area\(self\)\n", text(out["structure"]))
    assert text(out["search"]).startswith("geo/shapes.py:")
    assert "geo/shapes.py:4-6  class Shape" in text(out["ask"])
    assert out["bad_repo"].is_error
    assert "served repository" in text(out["bad_repo"])
    assert out["missing_file"].is_error  # no outline of a file that is not there
    assert "cannot outline geo/nothere.py" in text(out["missing_file"])
    assert out["init"].server_info.name == "codeagent"
    assert out["init"].server_info.version == importlib.metadata.version("codeagent")


def test_mcp_over_stdio(git_repo: Any, env_setup: Path) -> None:
    root = git_repo(FILES, name="geo")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codeagent", "mcp", "--repo", str(root), "--llm", "none", "--embed", "none"],
        env={k: v for k, v in os.environ.items() if k.startswith(("CODEAGENT_", "PYTHON", "HF_"))},
    )

    async def main() -> dict[str, Any]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            return await exercise(session, "geo")

    check(anyio.run(main), root)


@pytest.mark.usefixtures("env_setup")
def test_mcp_over_streamable_http(git_repo: Any, serve_process: Any) -> None:
    root = git_repo(FILES, name="geo")
    served = serve_process("--repo", str(root))

    async def main() -> dict[str, Any]:
        async with (
            streamable_http_client(f"{served.url}/mcp") as (read, write),
            ClientSession(read, write) as session,
        ):
            return await exercise(session, "geo")

    check(anyio.run(main), root)


def _long_function() -> str:
    """A 40-line function whose one line about the Authorization header is line 33."""
    body = [f"    step_{n} = prepare(request, {n})" for n in range(30)]
    body += ["    if request.url.host != original_host:", '        headers.pop("Authorization")']
    body += [f"    finish_{n}(request)" for n in range(7)]
    return "def rebuild_auth(request, original_host, headers):\n" + "\n".join(body) + "\n"


def test_search_code_shows_the_lines_that_match(git_repo: Any, env_setup: Path) -> None:
    source = _long_function()
    root = git_repo({"net/sessions.py": source, "net/__init__.py": ""}, name="net")
    line = source.splitlines().index('        headers.pop("Authorization")') + 1
    assert line > 30
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codeagent", "mcp", "--repo", str(root), "--llm", "none", "--embed", "none"],
        env={k: v for k, v in os.environ.items() if k.startswith(("CODEAGENT_", "PYTHON", "HF_"))},
    )

    async def main() -> str:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            found = await session.call_tool("search_code", {"query": "authorization header"})
            return text(found)

    found = anyio.run(main)
    assert found.startswith("net/sessions.py:1-"), found
    assert re.search(rf"^ +{line} \| +headers\.pop\(\"Authorization\"\)$", found, re.M), found
    assert "def rebuild_auth" not in found  # the chunk's first line is not what matched


@pytest.mark.usefixtures("env_setup")
def test_search_code_ranks_as_every_answer_does(git_repo: Any) -> None:
    """One repository's search_code lists the windows the answers' search chooses
    (:func:`codeagent.rank.retrieve.retrieve`: code before tests and changelogs), not the
    plain fused chunk search."""
    from mcp import Client

    from codeagent.config import Settings
    from codeagent.index.build import load_or_build
    from codeagent.rank.retrieve import retrieve
    from codeagent.server.backend import RepoBackend
    from codeagent.server.mcp import build_mcp
    from codeagent.server.repos import ServedRepo

    files = {
        "pkg/header.py": "def parse_header(value):\n    return value.split(',')\n",
        "tests/test_header.py": "from pkg.header import parse_header\n\n"
        "def test_parse_header():\n    # a header with a comma\n"
        "    assert parse_header('a,b') == ['a', 'b']\n",
        "CHANGES.rst": "Parsing a header with a comma is fixed.\n" * 3,
    }
    root = git_repo(files, name="hdr")
    settings = Settings.load(llm="none", embed="none")
    query = "parse header comma"
    store, _ = load_or_build(root, settings)
    chosen = [h.location for h in retrieve(store, query, 3)]
    fused = [h.location for h in store.search(query, k=3)]
    assert chosen[0].startswith("pkg/header.py:")
    assert chosen != fused  # the two rankings differ here
    server = build_mcp({"hdr": RepoBackend(ServedRepo("hdr", root), settings, None)})

    async def main() -> str:
        async with Client(server) as client:
            return text(await client.call_tool("search_code", {"query": query, "k": 3}))

    found = anyio.run(main)
    heads = [block.split("\n")[0].split("  ")[0] for block in found.split("\n\n")[:-1]]
    assert heads == chosen, found
    assert found.rpartition("\n\n")[2].startswith("state: ")
