"""A tool added through the registry alone (this module and one ``register_tool`` line in
its fixture): the rule router and the LLM router choose it, the graph runs it, its failure
falls back to search, the CLI renders it and says its fallback, the HTTP server answers with
it, MCP lists and runs it, and an eval run scores its route and answer."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from codeagent.agent.graph import build_graph
from codeagent.config import Settings
from codeagent.errors import ToolError
from codeagent.result import Source
from codeagent.tools.ast_tool.tool import AstTool
from codeagent.tools.base import BaseTool, RouteExample, ToolContext, ToolFailure
from codeagent.tools.rag_tool import RagTool
from codeagent.tools.registry import Registry, default_registry, register_tool
from codeagent.workspace import Workspace
from streams import collect

from .conftest import MODELS, PAYMENTS

_ASK = re.compile(r"how many lines (?:are )?in (?P<path>\S+?)\??$", re.IGNORECASE)


class LinesArgs(BaseModel):
    path: str | None = Field(default=None, description="lines only: the file, as written.")


@dataclass(frozen=True)
class LinesResult:
    path: str
    count: int

    def render(self) -> str:
        return f"{self.path} has {self.count} lines."

    def context(self) -> str:
        return f"Line count:\n\n{self.render()}"

    def citations(self) -> list[Source]:
        return [Source(path=self.path, start_line=1, end_line=self.count)]

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "lines": self.count}


class LinesTool(BaseTool):
    name = "lines"
    description = "how many lines one named file has (`path` = the file)."
    args_model = LinesArgs
    label = "a line count"
    mcp = True
    examples = (RouteExample("how long is setup.py?", {"path": "setup.py"}, "a line count"),)

    def match(self, question: str, ctx: ToolContext) -> BaseModel | None:
        found = _ASK.search(question.strip())
        return LinesArgs(path=found.group("path")) if found else None

    def describe(self, args: BaseModel) -> str:
        assert isinstance(args, LinesArgs)
        return f"a line count of {args.path}"

    def run(self, args: BaseModel, ctx: ToolContext) -> LinesResult:
        assert isinstance(args, LinesArgs)
        target = ctx.repo_root / (args.path or "")
        if not args.path or not target.is_file():
            raise ToolFailure(f"no file {args.path!r} in the repository")
        return LinesResult(args.path, len(target.read_text().splitlines()))


@pytest.fixture
def lines_tool() -> Iterator[None]:
    """The one registration line: every default registry made meanwhile has the tool."""
    unregister = register_tool(LinesTool())
    yield
    unregister()


def registry() -> Registry:
    return default_registry()


@pytest.fixture
def workspace(
    sample_repo: Path, settings: Settings, fake_store: Any, lines_tool: None
) -> Workspace:
    return Workspace(sample_repo, settings, store=fake_store)


def test_the_toy_tool_is_routed_by_rules_run_and_rendered(workspace: Workspace) -> None:
    got = collect(workspace, "how many lines in shop/payments.py?")
    result = got.result
    assert (result.route.tool, result.route.decided_by) == ("lines", "rules")
    assert result.route.args == {"path": "shop/payments.py"}
    expected = len(PAYMENTS.splitlines())  # the file this test suite wrote
    assert result.answer == f"shop/payments.py has {expected} lines."
    assert "".join(got.tokens) == result.answer
    assert result.tool_result == {"path": "shop/payments.py", "lines": expected}
    assert [s.location for s in result.sources] == [f"shop/payments.py:1-{expected}"]
    assert result.fallback is None


def test_the_toy_tool_falls_back_to_search_when_it_fails(
    workspace: Workspace, fake_store: Any
) -> None:
    got = collect(workspace, "how many lines in shop/ghost.py?")
    result = got.result
    assert result.route.tool == "lines"
    reason = "no file 'shop/ghost.py' in the repository"
    assert result.fallback is not None
    assert result.fallback.to_json() == {"from": "lines", "to": "rag", "reason": reason}
    assert got.notices == []  # the fallback is said once, by the route event's line
    lines = [e.line for e in got.events if e.type == "route"]
    assert lines == [
        None,
        f"searching the repository instead: the LINES tool could not answer ({reason})",
    ]
    assert fake_store.queries == ["how many lines in shop/ghost.py?"]
    assert result.answer.startswith("Most relevant code")
    assert result.tool_result is None


def test_the_llm_router_is_offered_the_toy_tool_and_can_choose_it(
    sample_repo: Path, settings: Settings, fake_store: Any, make_model: Any, lines_tool: None
) -> None:
    route = json.dumps({"tool": "lines", "path": "shop/models.py", "reason": "a count"})
    model = make_model(route, "It has many lines (shop/models.py:1-2).")
    workspace = Workspace(
        sample_repo, settings, chat_model=model, store=fake_store, registry=registry()
    )
    result = workspace.ask("what is the size of the models module?")
    assert (result.route.tool, result.route.decided_by) == ("lines", "llm")
    prompt = str(model.seen[0][-1].content)
    assert "- `lines`: how many lines one named file has" in prompt
    assert 'Question: how long is setup.py?\n{"tool": "lines", "path": "setup.py"' in prompt
    count = len(MODELS.splitlines())
    assert f"shop/models.py has {count} lines." in str(model.seen[1][-1].content)
    schema = registry().router_schema().model_json_schema()
    assert {"tool", "path", "reason"} <= set(schema["properties"])
    assert schema["properties"]["tool"]["enum"] == ["symbols", "ast", "lines", "rag"]


def test_the_graph_gets_a_node_and_a_fallback_edge_for_the_toy_tool(lines_tool: None) -> None:
    graph = build_graph(registry()).get_graph()
    edges = {(e.source, e.target) for e in graph.edges}
    assert {("route", "lines"), ("lines", "answer"), ("lines", "rag")} <= edges


def test_without_its_registration_line_the_tool_is_nowhere() -> None:
    assert "lines" not in default_registry()
    assert "lines" not in build_graph(default_registry()).get_graph().nodes


def test_a_registry_refuses_clashing_or_dangling_tools() -> None:
    with pytest.raises(ValueError, match="two tools"):
        Registry([RagTool(), RagTool()])
    with pytest.raises(ValueError, match="default"):
        Registry([AstTool()], default="rag")

    class Orphan(LinesTool):
        name = "orphan"
        fallback = "nowhere"

    with pytest.raises(ValueError, match="nowhere"):
        Registry([Orphan(), RagTool()])


def test_tool_failure_is_the_domain_tool_error() -> None:
    assert ToolFailure is ToolError


def test_the_cli_renders_the_toy_tool_and_says_its_fallback_once(
    sample_repo: Path, lines_tool: None
) -> None:
    from cli.clirun import run

    flags = ("--repo", str(sample_repo), "--llm", "none", "--embed", "none", "--no-server")
    answered = run("ask", "how many lines in shop/payments.py?", *flags)
    assert answered.code == 0, answered.err
    assert answered.out == f"shop/payments.py has {len(PAYMENTS.splitlines())} lines.\n"
    assert answered.err == ""  # an exact answer: no route line
    failed = run("ask", "how many lines in shop/ghost.py?", *flags)
    assert failed.code == 0, failed.err
    reason = "no file 'shop/ghost.py' in the repository"
    assert failed.err.splitlines() == [
        f"searching the repository instead: the LINES tool could not answer ({reason})"
    ]


def test_mcp_lists_and_runs_the_toy_tool(
    sample_repo: Path, settings: Settings, lines_tool: None
) -> None:
    """Over an MCP session (the SDK's own client, connected in-process): the toy tool is
    listed with its arguments, answers with its rendering and the state it came from, and
    its failure is an error result; MCP's ``ask`` routes to it too."""
    import anyio
    from mcp import Client

    from codeagent.server.backend import RepoBackend
    from codeagent.server.mcp import build_mcp
    from codeagent.server.repos import ServedRepo

    backend = RepoBackend(ServedRepo("shop", sample_repo), settings, None)
    server = build_mcp({"shop": backend})

    async def exercise() -> tuple[Any, ...]:
        async with Client(server) as client:
            listed = {tool.name: tool for tool in (await client.list_tools()).tools}
            ok = await client.call_tool("lines", {"path": "shop/payments.py"})
            asked = await client.call_tool("ask", {"question": "how many lines in shop/ghost.py?"})
            missing = await client.call_tool("lines", {"path": "shop/ghost.py"})
            return listed, ok, asked, missing

    listed, ok, asked, missing = anyio.run(exercise)
    assert listed["lines"].description == LinesTool.description
    assert set(listed["lines"].input_schema["properties"]) == {"path", "repo"}
    assert not {"ast", "rag", "symbols"} & set(listed)  # MCP has tools of its own for those
    text = "\n".join(c.text for c in ok.content)
    assert not ok.is_error
    assert text.startswith(f"shop/payments.py has {len(PAYMENTS.splitlines())} lines.")
    assert re.search(r"\n\nstate: [0-9a-f]+$", text), text  # the state it was answered from
    # MCP's `ask` routes to it too, falls back, and says so once in its notes.
    notes = "\n".join(c.text for c in asked.content).split("\n\nNotes:\n")[1]
    reason = "no file 'shop/ghost.py' in the repository"
    assert notes.splitlines()[0] == (
        f"  searching the repository instead: the LINES tool could not answer ({reason})"
    )
    # An error result for the client: MCP does not fall back.
    assert missing.is_error
    assert "\n".join(c.text for c in missing.content) == f"Error executing tool lines: {reason}"


def test_without_its_registration_line_mcp_does_not_list_the_toy_tool(
    sample_repo: Path, settings: Settings
) -> None:
    import anyio

    from codeagent.server.backend import RepoBackend
    from codeagent.server.mcp import build_mcp
    from codeagent.server.repos import ServedRepo

    backend = RepoBackend(ServedRepo("shop", sample_repo), settings, None)
    listed = anyio.run(build_mcp({"shop": backend}).list_tools)
    assert "lines" not in {tool.name for tool in listed}
    with_it = build_mcp({"shop": backend}, registry=Registry([LinesTool(), RagTool()]))
    assert "lines" in {tool.name for tool in anyio.run(with_it.list_tools)}


def test_an_eval_suite_may_expect_the_toy_tool_only_once_registered(tmp_path: Path) -> None:
    from codeagent.errors import EvalError
    from codeagent.eval.suite import load_suite

    suite = tmp_path / "lines.jsonl"
    line = {"id": "1", "question": "how many lines in a.py?", "repo": ".", "source": "test"}
    suite.write_text(json.dumps({**line, "expected_route": "lines"}) + "\n")
    with pytest.raises(EvalError, match="expected_route"):
        load_suite(suite)
    unregister = register_tool(LinesTool())
    try:
        assert [item.expected_route for item in load_suite(suite)] == ["lines"]
    finally:
        unregister()


def test_an_eval_run_scores_the_toy_tools_route_and_answer(
    sample_repo: Path, tmp_path: Path, lines_tool: None
) -> None:
    """``codeagent eval`` on a suite that expects the toy tool: the route is counted right,
    and its answer fact is found in the answer."""
    from cli.clirun import run

    count = len(PAYMENTS.splitlines())
    item = {
        "id": "lines-1",
        "question": "how many lines in shop/payments.py?",
        "repo": str(sample_repo),
        "expected_route": "lines",
        "answer_must_contain": [f"{count} lines"],
        "source": "written for this test",
    }
    suite = tmp_path / "lines.jsonl"
    suite.write_text(json.dumps(item) + "\n")
    out = tmp_path / "out"
    done = run("eval", str(suite), "--llm", "none", "--embed", "none", "--out", str(out))
    assert done.code == 0, done.err
    report = json.loads((out / "report.json").read_text())
    overall, [scored] = report["overall"], report["questions"]
    assert (scored["route"], scored["fallback"], scored["error"]) == ("lines", None, None)
    assert scored["answer"] == f"shop/payments.py has {count} lines."
    assert overall["routing"] == {"accuracy": 1.0, "confusion": {"lines": {"lines": 1}}, "n": 1}
    assert overall["answer_contains"] == {"mean": 1.0, "n": 1}


def test_the_route_line_comes_from_the_tools_declarations() -> None:
    """What a front end says: the answering tool's ``announce`` with the route's reason; after
    a fallback, the failed tool and why, then what answers instead."""
    from codeagent.route import Fallback, RouteDecision

    class Quiet(LinesTool):  # falls back to a tool that announces nothing
        name = "quiet"
        fallback = "lines"

    registry = Registry([Quiet(), LinesTool(), RagTool()])
    search = RouteDecision(tool="rag", reason="a how/why question")
    assert registry.route_line(search) == "searching the repository (a how/why question)"
    assert registry.route_line(RouteDecision(tool="lines", reason="x")) is None  # silent
    failed = Fallback.model_validate({"from": "quiet", "to": "lines", "reason": "no file"})
    assert registry.route_line(search, failed) == (
        "answering with the LINES tool instead: the QUIET tool could not answer (no file)"
    )
    nowhere = Fallback.model_validate({"from": "rag", "to": None, "reason": "no index"})
    assert registry.route_line(search, nowhere) == (
        "answering without a tool: the RAG tool could not answer (no index)"
    )
    assert registry.fallback_of("lines") == "rag"  # BaseTool's default: the default tool
    assert registry.fallback_of("rag") is None
    assert registry.label("lines") == "a line count"


def test_two_mcp_tools_of_one_name_are_refused() -> None:
    class Copycat(LinesTool):  # lists the search tool's MCP tool as its own
        name = "copycat"

        def mcp_tools(self) -> tuple[Any, ...]:
            return RagTool().mcp_tools()

    with pytest.raises(ValueError, match="two MCP tools share a name"):
        Registry([Copycat(), RagTool()]).mcp_tools()
    assert [t.name for t in Registry([LinesTool(), RagTool()]).mcp_tools()] == [
        "lines",
        "search_code",
        "repository_map",
    ]


def test_the_http_server_answers_with_the_toy_tool(
    sample_repo: Path, settings: Settings, lines_tool: None
) -> None:
    """``POST /v1/ask`` on the app the server runs: the toy tool answers, the route names it,
    and its failure falls back to search and says so in a notice."""
    from starlette.testclient import TestClient

    from codeagent.server.app import ServerConfig, create_app
    from codeagent.server.backend import RepoBackend
    from codeagent.server.repos import ServedRepo

    backend = RepoBackend(ServedRepo("shop", sample_repo), settings, None)
    app = create_app(ServerConfig(backends={"shop": backend}, token="t0ken"))
    with TestClient(app, base_url="http://127.0.0.1") as http:
        auth = {"Authorization": "Bearer t0ken"}
        asked = [
            http.post("/v1/ask", json={"question": q}, headers=auth)
            for q in ("how many lines in shop/payments.py?", "how many lines in shop/ghost.py?")
        ]
    assert [response.status_code for response in asked] == [200, 200], asked[0].text
    ok, failed = (response.json() for response in asked)
    assert ok["route"]["tool"] == "lines"
    assert ok["answer"] == f"shop/payments.py has {len(PAYMENTS.splitlines())} lines."
    assert ok["tool_result"] == {"path": "shop/payments.py", "lines": len(PAYMENTS.splitlines())}
    assert ok["fallback"] is None
    reason = "no file 'shop/ghost.py' in the repository"
    assert failed["fallback"] == {"from": "lines", "to": RagTool.name, "reason": reason}
    assert failed["sources"]  # searched instead
