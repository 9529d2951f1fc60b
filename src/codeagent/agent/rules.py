"""The rule router: each registered tool's rule matcher is asked in turn; the first that
claims the question routes it, else the default tool (search) takes it, with the first
matcher's reason for declining."""

from __future__ import annotations

from codeagent.agent.state import RouteDecision
from codeagent.tools.base import Declined, ToolContext
from codeagent.tools.registry import Registry

NO_MATCH = "no tool's rules matched: searching the repository"


def route_by_rules(question: str, ctx: ToolContext, registry: Registry) -> RouteDecision:
    declined: list[Declined] = []
    for tool in registry.tools.values():
        if tool.name == registry.default:
            continue
        got = tool.match(question, ctx)
        if isinstance(got, Declined):
            declined.append(got)
        elif got is not None:
            return RouteDecision(
                tool=tool.name,
                args=got.model_dump(mode="json"),
                reason=tool.describe(got),
                decided_by="rules",
            )
    reason = declined[0].reason if declined else NO_MATCH
    notice = next((d.notice for d in declined if d.notice), None)
    return RouteDecision(tool=registry.default, reason=reason, decided_by="rules", notice=notice)
