"""The agent as a LangGraph ``StateGraph``::

    START -> route --ast / symbols--> ast / symbols --ok--> answer -> END
               |                              |              ^  ^
               |                            failed           |  |
               |                   (reason in fallback)      |  |
               |                              v              |  |
               +---rag----------------------> rag -----------+  |
               +---clarify (ambiguous file) --> clarify --------+

``build_graph(deps)`` compiles it with the dependencies bound to the nodes, so a test can hand
in fakes; the edge functions (``codeagent.agent.edges``) are pure functions of the state.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from langgraph.graph import END, START, StateGraph

from codeagent.agent import nodes
from codeagent.agent.deps import Deps
from codeagent.agent.edges import after_ast, after_route
from codeagent.agent.state import AgentState

if TYPE_CHECKING:
    from langgraph.graph.state import CompiledStateGraph

__all__ = ["after_ast", "after_route", "build_graph"]


def build_graph(deps: Deps) -> CompiledStateGraph[AgentState, None, AgentState, AgentState]:
    graph = StateGraph(AgentState)
    graph.add_node("route", partial(nodes.route, deps=deps))
    graph.add_node("ast", partial(nodes.ast, deps=deps))
    graph.add_node("symbols", partial(nodes.symbols, deps=deps))
    graph.add_node("clarify", partial(nodes.clarify, deps=deps))
    graph.add_node("rag", partial(nodes.rag, deps=deps))
    graph.add_node("answer", partial(nodes.answer, deps=deps))
    graph.add_edge(START, "route")
    graph.add_conditional_edges("route", after_route, ["ast", "symbols", "clarify", "rag"])
    graph.add_conditional_edges("ast", after_ast, ["answer", "rag"])
    graph.add_conditional_edges("symbols", after_ast, ["answer", "rag"])
    graph.add_edge("clarify", "answer")
    graph.add_edge("rag", "answer")
    graph.add_edge("answer", END)
    return graph.compile(name="codeagent")
