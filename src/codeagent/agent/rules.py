"""The rule router: each registered tool's rule matcher is asked in turn; the first that
claims the question routes it, else the default tool (search) takes it, with the first
matcher's reason for declining. A structural tool is not asked when the text is not shaped
like a structural question (a long report, a multi-line text, a statement): the reason says
which."""

from __future__ import annotations

from codeagent.route import Fallback, RouteDecision
from codeagent.tools.base import Declined, ToolContext
from codeagent.tools.registry import Registry
from codeagent.tools.structural import not_a_question

NO_MATCH = "no tool's rules matched"


def route_by_rules(question: str, ctx: ToolContext, registry: Registry) -> RouteDecision:
    declined: list[Declined] = []
    failed: Fallback | None = None
    shape = not_a_question(question)
    if shape is not None:
        declined.append(Declined(shape))
    for tool in registry.tools.values():
        if tool.name == registry.default or (tool.structural and shape is not None):
            continue
        got = tool.match(question, ctx)
        if isinstance(got, Declined):
            declined.append(got)
            if got.failure and failed is None:
                to = registry.fallback_of(tool.name) or registry.default
                failed = Fallback(from_=tool.name, to=to, reason=got.failure)
        elif got is not None:
            return RouteDecision(
                tool=tool.name,
                args=got.model_dump(mode="json"),
                reason=tool.describe(got),
                decided_by="rules",
            )
    reason = declined[0].reason if declined else NO_MATCH
    notice = next((d.notice for d in declined if d.notice), None)
    return RouteDecision(
        tool=registry.default, reason=reason, decided_by="rules", notice=notice, fallback=failed
    )
