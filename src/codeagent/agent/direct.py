"""The AST branch of the graph without LangGraph, for questions answered without an LLM.

Importing LangGraph (and the langchain_core tracers and langsmith it pulls in) costs about
0.7 s here: more than the whole AST question. Without an LLM, the AST branch is three pure
calls, so :func:`run_ast_branch` runs the graph's own nodes and edge functions in the graph's
order (route -> ast -> answer) with the graph's reducers. It gives up (returns None) as soon
as the path leaves that branch (a rag route, an AST failure): the caller then runs the
compiled StateGraph from the start, and the steps taken here leave no trace (no notice sent).
"""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Any

from codeagent.agent import nodes
from codeagent.agent.deps import Deps
from codeagent.agent.edges import after_ast, after_route
from codeagent.agent.state import AgentState, merge_timings

_REDUCERS: dict[str, Any] = {"notices": operator.add, "timings": merge_timings}


def apply(state: AgentState, update: dict[str, Any]) -> AgentState:
    """``state`` with a node's ``update`` applied the way the graph applies it."""
    merged: dict[str, Any] = dict(state)
    for key, value in update.items():
        reducer = _REDUCERS.get(key)
        merged[key] = reducer(merged[key], value) if reducer and key in merged else value
    return merged  # type: ignore[return-value]


def run_ast_branch(state: AgentState, deps: Deps) -> AgentState | None:
    """route -> ast -> answer when no LLM is configured and the AST tool answers; else None."""
    if deps.chat_model is not None:
        return None
    quiet = replace(deps, on_notice=lambda _text: None, on_token=lambda _text: None)
    state = apply(state, nodes.route(state, quiet))
    if after_route(state) != "ast":
        return None
    state = apply(state, nodes.ast(state, quiet))
    if after_ast(state) != "answer":
        return None
    return apply(state, nodes.answer(state, deps))
