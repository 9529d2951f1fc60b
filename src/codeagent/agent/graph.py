"""The agent as a LangGraph ``StateGraph``, built from the tool registry::

    START -> route --<tool>--> <tool> --ok--> answer -> END
              |                  |              ^  ^
              |           failed (reason kept)  |  |
              |                  v              |  |
              |              <fallback> --------+  |
              +--several repositories--> across ---+

With the default registry: ``route -> ast | rag``, ``ast -> answer | rag``, ``rag -> answer``.
A tool with a fallback gets a conditional edge (``edges.after_tool``); one without, a plain
edge to the answer. Per-call dependencies come in the run context
(:class:`~codeagent.agent.context.RunContext`), so one compiled graph serves every call.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from langgraph.graph import END, START, StateGraph

from codeagent.agent import nodes
from codeagent.agent.across import across
from codeagent.agent.context import RunContext
from codeagent.agent.edges import ACROSS, ANSWER, after_route, after_tool
from codeagent.agent.state import AgentState
from codeagent.tools.registry import Registry

if TYPE_CHECKING:
    from langgraph.graph.state import CompiledStateGraph

__all__ = ["build_graph"]

ROUTE = "route"


def build_graph(
    registry: Registry,
) -> CompiledStateGraph[AgentState, RunContext, AgentState, AgentState]:
    graph = StateGraph(AgentState, context_schema=RunContext)
    graph.add_node(ROUTE, nodes.route)
    for tool in registry.tools.values():
        graph.add_node(tool.name, nodes.tool_node(tool))
    graph.add_node(ACROSS, across)
    graph.add_node(ANSWER, nodes.answer)
    graph.add_edge(START, ROUTE)
    graph.add_conditional_edges(ROUTE, after_route, [*registry.names(), ACROSS])
    graph.add_edge(ACROSS, ANSWER)
    for tool in registry.tools.values():
        target = registry.fallback_of(tool.name)
        if target is None:
            graph.add_edge(tool.name, ANSWER)
        else:
            edge = partial(after_tool, tool=tool.name, fallback=target)
            graph.add_conditional_edges(tool.name, edge, [ANSWER, target])
    graph.add_edge(ANSWER, END)
    return graph.compile(name="codeagent")
