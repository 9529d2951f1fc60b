"""Routing: the LLM router (structured output), the rule router as its fallback, and the
check every decision passes before it is used (the chosen tool checks its arguments against
the repository; arguments that do not hold up send the question to the tool's fallback; a
structural tool chosen for a text that is not a structural question, such as a long report,
sends it to search).

The router's schema and its prompt's tool list come from the tool registry.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from codeagent.agent.prompts import render_prompt
from codeagent.agent.rules import route_by_rules
from codeagent.agent.state import Turn
from codeagent.errors import ToolError, one_line
from codeagent.route import Fallback, RouteDecision
from codeagent.tools.base import ToolContext
from codeagent.tools.registry import Registry
from codeagent.tools.structural import not_a_question

log = logging.getLogger(__name__)


class RouterTimeoutError(TimeoutError):
    pass


def route_question(
    question: str,
    history: list[Turn],
    ctx: ToolContext,
    registry: Registry,
    chat_model: Any | None,
    *,
    timeout: float,
) -> RouteDecision:
    """The route for ``question``: the LLM's when one is configured and answers validly,
    else the rule router's; either way checked against the repository."""
    if chat_model is None:
        return validate(route_by_rules(question, ctx, registry), ctx, registry, question=question)
    try:
        decision = llm_route(question, history, registry, chat_model, timeout=timeout)
    except Exception as exc:  # any failure of the model, its output or its parsing
        log.info("LLM router failed: %s", exc)
        rules = route_by_rules(question, ctx, registry)
        reason = f"LLM router failed: {one_line(exc, 200)}; rules: {rules.reason}"
        decision = rules.model_copy(update={"reason": reason})
    return validate(decision, ctx, registry, question=question)


def llm_route(
    question: str, history: list[Turn], registry: Registry, chat_model: Any, *, timeout: float
) -> RouteDecision:
    """Ask the model for the registry's router schema (JSON-schema structured output)."""
    from langchain_core.messages import HumanMessage

    previous = history[-1]["question"] if history else "(none)"
    prompt = render_prompt(
        "router",
        tools=registry.prompt_tools(),
        examples=registry.prompt_examples(),
        question=question,
        previous=previous,
    )
    schema = registry.router_schema()
    structured = chat_model.with_structured_output(schema, method="json_schema")
    raw = _call_with_timeout(lambda: structured.invoke([HumanMessage(prompt)]), timeout)
    if raw is None:
        raise ValueError("the model returned no parsable decision")
    data = raw.model_dump() if isinstance(raw, schema) else raw
    parsed = schema.model_validate(data).model_dump()
    tool = parsed.pop("tool")
    reason = parsed.pop("reason") or ""
    filled = {k: v for k, v in parsed.items() if v is not None}  # empty: the tool's default
    args = registry.args_of(tool, filled).model_dump(mode="json")
    return RouteDecision(tool=tool, args=args, reason=reason, decided_by="llm")


def validate(
    decision: RouteDecision,
    ctx: ToolContext,
    registry: Registry,
    *,
    question: str | None = None,
) -> RouteDecision:
    """The decision with its arguments checked and normalised by its tool; arguments that do
    not hold up send the question to the tool's fallback, and a structural tool chosen for a
    text that is not a structural question (``question``, by default the context's) sends it
    to the default tool; the reason says why."""
    tool = registry[decision.tool]
    who = "the LLM" if decision.decided_by == "llm" else "the rules"
    try:
        args = tool.check(registry.args_of(tool.name, decision.args), ctx)
    except ToolError as exc:
        target = registry.fallback_of(tool.name) or registry.default
        return RouteDecision(
            tool=target,
            reason=f"{who} chose {tool.name}, but {exc}",
            decided_by="fallback",
            fallback=Fallback(from_=tool.name, to=target, reason=str(exc)),
        )
    text = ctx.question if question is None else question
    shape = not_a_question(text) if tool.structural and text.strip() else None
    if shape is not None:
        return RouteDecision(
            tool=registry.default,
            reason=f"{who} chose {tool.name}, but the text is {shape}",
            decided_by="fallback",
        )
    return decision.model_copy(update={"args": args.model_dump(mode="json")})


def _call_with_timeout(func: Any, timeout: float) -> Any:
    """Run ``func`` in a daemon thread; give up after ``timeout`` seconds (the thread is left
    to finish on its own and never blocks the process from exiting)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = func()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="llm-router", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise RouterTimeoutError(f"no answer within {timeout:g} s (router_timeout)")
    if "error" in box:
        raise box["error"]
    return box.get("value")
