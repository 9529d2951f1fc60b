"""The graph's nodes: ``(state, runtime) -> dict`` of state updates. What the caller sees as
it happens (the route, notices, answer text, sources) goes out through LangGraph's stream
writer as :mod:`codeagent.events`; nothing is stored on a shared object.

route  -> the RouteDecision (LLM router, rule router as its fallback, then checked)
<tool> -> one node per registered tool: its result, or a fallback record when it fails
answer -> the answer text (streamed), its sources, its notices
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any, Protocol

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from codeagent.agent import answer as answer_mod
from codeagent.agent.context import RunContext
from codeagent.agent.router import route_question
from codeagent.agent.state import AgentState
from codeagent.errors import ToolError
from codeagent.events import NoticeEvent, RouteEvent, SourcesEvent, TokenEvent
from codeagent.route import Fallback, RouteDecision
from codeagent.tools.base import Tool

log = logging.getLogger(__name__)


def route(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    started = time.perf_counter()
    run = runtime.context
    if run.repos is not None:  # several repositories: the across step searches them
        return route_across(run)
    model = run.chat_model
    if model is not None:
        from codeagent.llm import with_timeout

        model = with_timeout(model, run.tools.settings.router_timeout)
    decision = route_question(
        state["question"],
        state.get("history", []),
        run.tools,
        run.registry,
        model,
        timeout=run.tools.settings.router_timeout,
    )
    write = get_stream_writer()
    write(route_event(run, decision, decision.fallback))
    update: dict[str, Any] = {
        "route": decision,
        "timings": {"route": time.perf_counter() - started},
    }
    if decision.notice:
        write(NoticeEvent(kind="route", text=decision.notice))
        update["notices"] = [decision.notice]
    if decision.fallback:  # the tool meant for the question could not take it
        update["fallback"] = decision.fallback
    return update


def route_across(run: RunContext) -> dict[str, Any]:
    """The route of a question asked of several repositories: searched, the search tool's way."""
    assert run.repos is not None
    tool = run.registry.default
    decision = RouteDecision(tool=tool, decided_by="rules", reason="no repository named")
    line = f"searching {len(run.repos.roots)} repositories"
    get_stream_writer()(RouteEvent(route=decision, line=line, label=run.registry.label(tool)))
    return {"route": decision, "across": True}


class ToolNode(Protocol):
    def __call__(self, state: AgentState, *, runtime: Runtime[RunContext]) -> dict[str, Any]: ...


def tool_node(tool: Tool) -> ToolNode:
    """The node that runs ``tool``: with the route's arguments when the route chose it,
    with its default arguments when it is the fallback of a tool that failed."""

    def run_tool(state: AgentState, *, runtime: Runtime[RunContext]) -> dict[str, Any]:
        started = time.perf_counter()
        run = runtime.context
        write = get_stream_writer()
        decision = state["route"]
        values = decision.args if decision.tool == tool.name else {}
        failed = False
        try:
            result = tool.run(run.registry.args_of(tool.name, values), run.tools)
        except ToolError as err:  # said once: by the route event's line
            failed = True
            fallback = Fallback(
                from_=tool.name, to=run.registry.fallback_of(tool.name), reason=str(err)
            )
            write(route_event(run, decision, fallback))
            return {
                "fallback": fallback,
                "timings": {"retrieve": time.perf_counter() - started},
            }
        finally:
            # A structural tool (syntax tree, symbol graph) used no vectors: no word on them;
            # when it failed, the tool it falls back to says what there is to say.
            if not (failed and tool.structural):
                for text in run.tools.index.take_notices(dense=not tool.structural):
                    write(NoticeEvent(kind="index", text=text))
        return {
            "tool_result": result,
            "sources": result.citations(),
            "timings": {"retrieve": time.perf_counter() - started},
        }

    run_tool.__name__ = f"run_{tool.name}"
    return run_tool


def route_event(run: RunContext, decision: RouteDecision, fallback: Fallback | None) -> RouteEvent:
    """The route event, with what the front ends say about it (from the registry)."""
    tool = fallback.to if fallback is not None and fallback.to else decision.tool
    line = run.registry.route_line(decision, fallback)
    return RouteEvent(route=decision, fallback=fallback, line=line, label=run.registry.label(tool))


def answer(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    started = time.perf_counter()
    write = get_stream_writer()
    if runtime.context.chat_model is None or getattr(state.get("tool_result"), "empty", False):
        text = deterministic_answer(state)
        result = state.get("tool_result")
        write(TokenEvent(text=text, terms=result_terms(result)))
        update: dict[str, Any] = {"answer": text, "unverified": []}
    else:
        update = llm_answer(state, runtime.context)
    write(SourcesEvent(sources=update.get("sources", state.get("sources", []))))
    update["timings"] = {"answer": time.perf_counter() - started}
    return update


def result_terms(result: Any) -> list[str]:
    """The words a tool result's deterministic lines were chosen by (none: nothing to
    highlight); a tool result that names none has none."""
    terms = getattr(result, "terms", None)
    return sorted(terms()) if callable(terms) else []


def deterministic_answer(state: AgentState) -> str:
    """The tool result rendered; with every signature when the question asks for them."""
    from codeagent.tools.structural import wants_signatures

    result = state.get("tool_result")
    if result is None:
        return "No tool produced an answer."
    render_long = getattr(result, "render_long", None)
    question = state["question"]
    if callable(render_long) and (wants_signatures(question) or _methods_of(result, question)):
        return str(render_long())
    return str(result.render())


def _methods_of(result: Any, question: str) -> bool:
    """The methods of a Python file's classes were asked for ("list the methods in x.py" is
    answered by the file's class listing): that listing with its methods, not their count."""
    answered = getattr(result, "result", None)
    asked = re.search(r"\bmethods\b", question, re.IGNORECASE)
    return getattr(answered, "operation", None) == "classes" and asked is not None


def llm_answer(state: AgentState, run: RunContext) -> dict[str, Any]:
    """Stream the model's answer; on a failure mid-answer keep what came, add a notice, and
    append the deterministic answer. Then check every citation against the repository."""
    from codeagent.llm import translate_backend_error, with_context_size

    write = get_stream_writer()
    result = state.get("tool_result")
    context = result.context() if result is not None else ""
    messages = answer_mod.build_messages(state["question"], state.get("history", []), context)
    prompt_chars = sum(len(str(m.content)) for m in messages)
    assert run.chat_model is not None
    model = with_context_size(run.chat_model, prompt_chars)
    parts: list[str] = []
    notices: list[str] = []
    try:
        for chunk in model.stream(messages):
            token = chunk.content if isinstance(chunk.content, str) else ""
            if token:
                parts.append(token)
                write(TokenEvent(text=token))
    except Exception as exc:  # the backend failed mid-answer: keep the partial text
        error = translate_backend_error(exc)
        log.info("LLM failed mid-answer: %s", error)
        what = "mid-answer" if parts else "before answering"
        notice = f"the LLM failed {what} ({error}); showing the answer without an LLM"
        notices.append(notice)
        write(NoticeEvent(kind="llm", text=notice))
        tail = ("\n\n" if parts else "") + deterministic_answer(state)
        parts.append(tail)
        write(TokenEvent(text=tail))
    text = "".join(parts)
    sources = list(state.get("sources", []))
    check = getattr(result, "check_citations", None)  # a result of several repositories
    if callable(check):
        sources, flags = check(text, sources)
    else:
        sources, flags = answer_mod.check_citations(text, run.tools.repo_root, sources)
    if flags:
        note = "\n\n" + "\n".join(flags)
        text += note
        write(TokenEvent(text=note))
    return {"answer": text, "sources": sources, "unverified": flags, "notices": notices}
