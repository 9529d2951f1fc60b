"""The graph's nodes: ``(state, deps) -> dict`` of state updates.

route  -> the RouteDecision (LLM router, rule router as its fallback, then checked)
ast    -> the AST tool's result, or a fallback record when it fails
rag    -> the retrieved hits (the index is loaded here, on first use)
answer -> the answer text (streamed through deps.on_token), its sources, its notices
"""

from __future__ import annotations

import logging
import time
from typing import Any

from codeagent.agent import answer as answer_mod
from codeagent.agent.deps import Deps
from codeagent.agent.deterministic import render_hits
from codeagent.agent.router import route_question
from codeagent.agent.state import AgentState, Source
from codeagent.index.types import SearchHit
from codeagent.tools.ast_tool import AstToolError, run_ast_query

log = logging.getLogger(__name__)


def route(state: AgentState, deps: Deps) -> dict[str, Any]:
    started = time.perf_counter()
    model = deps.chat_model
    if model is not None:
        from codeagent.llm import with_timeout

        model = with_timeout(model, deps.settings.router_timeout)
    decision = route_question(
        state["question"],
        state.get("history", []),
        deps.repo_root,
        model,
        timeout=deps.settings.router_timeout,
    )
    deps.on_route(decision, None)
    return {"route": decision, "timings": {"route": time.perf_counter() - started}}


def ast(state: AgentState, deps: Deps) -> dict[str, Any]:
    started = time.perf_counter()
    decision = state["route"]
    file, operation = decision.file or "", decision.operation or "outline"
    try:
        result = run_ast_query(deps.repo_root, file, operation, decision.symbol)
    except AstToolError as err:
        notice = f"AST tool failed ({err}) — answering from search instead"
        fallback = {"from": "ast", "reason": str(err)}
        deps.on_notice(notice)
        deps.on_route(decision, fallback)
        return {
            "fallback": fallback,
            "notices": [notice],
            "timings": {"retrieve": time.perf_counter() - started},
        }
    sources = [Source(path=p, start_line=s, end_line=e) for p, s, e in result.citations()]
    return {
        "tool_result": result,
        "fallback": None,
        "sources": sources,
        "timings": {"retrieve": time.perf_counter() - started},
    }


def rag(state: AgentState, deps: Deps) -> dict[str, Any]:
    started = time.perf_counter()
    from codeagent.tools.rag_tool import retrieve

    store = deps.get_store()
    hits = retrieve(store, state["question"], deps.settings.k)
    sources = [_source(hit) for hit in hits]
    return {
        "hits": hits,
        "sources": sources,
        "timings": {"retrieve": time.perf_counter() - started},
    }


def answer(state: AgentState, deps: Deps) -> dict[str, Any]:
    started = time.perf_counter()
    if deps.chat_model is None:
        text = deterministic_answer(state)
        deps.on_token(text)
        update: dict[str, Any] = {"answer": text, "unverified": []}
    else:
        update = llm_answer(state, deps)
    update["timings"] = {"answer": time.perf_counter() - started}
    return update


def deterministic_answer(state: AgentState) -> str:
    result = state.get("tool_result")
    if result is not None:
        return str(result.render())
    return render_hits(state.get("hits", []), state["question"])


def llm_answer(state: AgentState, deps: Deps) -> dict[str, Any]:
    """Stream the model's answer; on a failure mid-answer keep what came, add a notice, and
    append the deterministic answer. Then check every citation against the repository."""
    from codeagent.llm import translate_backend_error, with_context_size

    result = state.get("tool_result")
    if result is not None:
        title, context = answer_mod.ast_context(result)
    else:
        title, context = answer_mod.hits_context(state.get("hits", []))
    messages = answer_mod.build_messages(
        state["question"], state.get("history", []), title, context
    )
    prompt_chars = sum(len(str(m.content)) for m in messages)
    assert deps.chat_model is not None
    model = with_context_size(deps.chat_model, prompt_chars)
    parts: list[str] = []
    notices: list[str] = []
    try:
        for chunk in model.stream(messages):
            token = chunk.content if isinstance(chunk.content, str) else ""
            if token:
                parts.append(token)
                deps.on_token(token)
    except Exception as exc:  # the backend failed mid-answer: keep the partial text
        error = translate_backend_error(exc)
        log.info("LLM failed mid-answer: %s", error)
        what = "mid-answer" if parts else "before answering"
        notice = f"the LLM failed {what} ({error}); showing the answer without an LLM"
        notices.append(notice)
        deps.on_notice(notice)
        tail = ("\n\n" if parts else "") + deterministic_answer(state)
        parts.append(tail)
        deps.on_token(tail)
    text = "".join(parts)
    sources, flags = answer_mod.check_citations(
        text, deps.repo_root, list(state.get("sources", []))
    )
    if flags:
        note = "\n\n" + "\n".join(flags)
        text += note
        deps.on_token(note)
    return {"answer": text, "sources": sources, "unverified": flags, "notices": notices}


def _source(hit: SearchHit) -> Source:
    return Source(path=hit.path, start_line=hit.start_line, end_line=hit.end_line, score=hit.score)
