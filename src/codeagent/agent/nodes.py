"""The graph's nodes: ``(state, deps) -> dict`` of state updates.

route  -> the RouteDecision (LLM router, rule router as its fallback, then checked)
ast    -> the AST tool's result, or a fallback record when it fails
symbols -> the symbol tool's result (repository-wide), or a fallback record when it fails
clarify -> the list of files an ambiguous file name matches, and the question which one
rag    -> the retrieved hits (the index is loaded here, on first use)
answer -> the answer text (streamed through deps.on_token), its sources, its notices
"""

from __future__ import annotations

import logging
import time
from typing import Any, cast

from codeagent.agent import answer as answer_mod
from codeagent.agent.clarify import Clarification
from codeagent.agent.deps import Deps
from codeagent.agent.deterministic import NO_LLM_NOTICE, render_hits
from codeagent.agent.router import route_question
from codeagent.agent.state import AgentState, Source
from codeagent.errors import IndexBuildError
from codeagent.index.types import SearchHit
from codeagent.tools.ast_tool import AstToolError, Operation, run_ast_query

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
    update: dict[str, Any] = {
        "route": decision,
        "timings": {"route": time.perf_counter() - started},
    }
    if decision.notice:
        deps.on_notice(decision.notice)
        update["notices"] = [decision.notice]
    return update


def ast(state: AgentState, deps: Deps) -> dict[str, Any]:
    started = time.perf_counter()
    decision = state["route"]
    file, operation = decision.file or "", decision.operation or "outline"
    try:
        result = run_ast_query(deps.repo_root, file, cast(Operation, operation), decision.symbol)
    except AstToolError as err:
        notice = f"AST tool failed ({err}) — answering from search instead"
        deps.on_notice(notice)
        return {
            "fallback": {"from": "ast", "reason": str(err)},
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


def symbols(state: AgentState, deps: Deps) -> dict[str, Any]:
    """A repository-wide question answered from the index's symbol graph."""
    started = time.perf_counter()
    from codeagent.tools.symbol_tool import SymbolArgs, SymbolToolError, run_symbol_query

    decision = state["route"]
    try:
        args = SymbolArgs(
            operation=cast(Any, decision.operation),
            name=decision.symbol or "",
            transitive=decision.transitive,
        )
        result = run_symbol_query(deps.get_store().symbols, args, deps.repo_root)
    except (SymbolToolError, IndexBuildError, ValueError) as err:
        notice = f"symbol graph could not answer ({err}) — answering from search instead"
        deps.on_notice(notice)
        return {
            "fallback": {"from": "symbols", "reason": str(err)},
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


def clarify(state: AgentState, deps: Deps) -> dict[str, Any]:
    """An ambiguous file name: list the candidates and ask which one."""
    decision = state["route"]
    result = Clarification(name=decision.file or "", candidates=decision.candidates)
    return {"tool_result": result, "fallback": None, "sources": []}


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
    if deps.chat_model is None or isinstance(state.get("tool_result"), Clarification):
        text = _route_note(state) + deterministic_answer(state)
        deps.on_token(text)
        notices = [NO_LLM_NOTICE] if deps.chat_model is None else []
        for notice in notices:
            deps.on_notice(notice)
        update: dict[str, Any] = {"answer": text, "notices": notices, "unverified": []}
    else:
        update = llm_answer(state, deps)
    update["timings"] = {"answer": time.perf_counter() - started}
    return update


def _route_note(state: AgentState) -> str:
    """The route's notice (a named file that does not exist), said first in the answer."""
    notice = state["route"].notice if "route" in state else None
    return f"Note: {notice}.\n\n" if notice else ""


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
    if note := _route_note(state):
        parts.append(note)
        deps.on_token(note)
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
