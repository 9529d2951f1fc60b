"""Routing: the LLM router (structured output), the rule router as its fallback, and the
check every decision passes before it is used (an ``ast`` route needs a resolvable file).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from codeagent.agent.prompts import render_prompt
from codeagent.agent.rules import resolve_python_file, route_by_rules
from codeagent.agent.state import NEEDS_SYMBOL, RouteDecision, RouteDecisionSchema, Turn
from codeagent.errors import one_line

log = logging.getLogger(__name__)


class RouterTimeoutError(TimeoutError):
    pass


def route_question(
    question: str,
    history: list[Turn],
    root: Path,
    chat_model: Any | None,
    *,
    timeout: float,
) -> RouteDecision:
    """The route for ``question``: the LLM's when one is configured and answers validly,
    else the rule router's; either way checked against the repository."""
    if chat_model is None:
        return validate(route_by_rules(question, root), root)
    try:
        decision = llm_route(question, history, chat_model, timeout=timeout)
    except Exception as exc:  # any failure of the model, its output or its parsing
        log.info("LLM router failed: %s", exc)
        rules = route_by_rules(question, root)
        reason = f"LLM router failed: {one_line(exc, 200)}; rules: {rules.reason}"
        return validate(rules.model_copy(update={"reason": reason}), root)
    return validate(decision, root)


def llm_route(
    question: str, history: list[Turn], chat_model: Any, *, timeout: float
) -> RouteDecision:
    """Ask the model for a :class:`RouteDecisionSchema` (JSON-schema structured output)."""
    from langchain_core.messages import HumanMessage

    previous = history[-1]["question"] if history else "(none)"
    prompt = render_prompt("router", question=question, previous=previous)
    structured = chat_model.with_structured_output(RouteDecisionSchema, method="json_schema")
    raw = _call_with_timeout(lambda: structured.invoke([HumanMessage(prompt)]), timeout)
    if raw is None:
        raise ValueError("the model returned no parsable decision")
    data = raw.model_dump() if isinstance(raw, RouteDecisionSchema) else raw
    parsed = RouteDecisionSchema.model_validate(data)
    return RouteDecision(**parsed.model_dump(), decided_by="llm")


def validate(decision: RouteDecision, root: Path) -> RouteDecision:
    """An ``ast`` decision must name a Python file that resolves in the repository, with an
    operation (and a symbol where the operation needs one); otherwise the question goes to
    RAG, the reason saying why. The file is normalised to its repository-relative path."""
    if decision.tool == "rag":
        return decision.model_copy(update={"file": None, "operation": None, "symbol": None})
    if decision.tool in ("symbols", "clarify"):
        return decision
    problem = ""
    rel: str | None = None
    symbol = _clean_symbol(decision.symbol)
    if not decision.file and symbol and decision.operation in _WIDE:
        # A structural question about a symbol with no file: the whole repository's graph.
        return decision.model_copy(
            update={
                "tool": "symbols",
                "operation": _WIDE[decision.operation],
                "symbol": symbol,
                "reason": f"{decision.reason} (no file named: the repository symbol graph)",
            }
        )
    if not decision.file:
        problem = "it names no file"
    elif decision.operation is None:
        problem = "it names no operation"
    elif decision.operation in NEEDS_SYMBOL and not symbol:
        problem = f"the {decision.operation} operation needs a symbol"
    else:
        rel, problem = resolve_python_file(root, decision.file)
    if rel is None:
        who = "the LLM" if decision.decided_by == "llm" else "the rules"
        return RouteDecision(
            tool="rag",
            reason=f"{who} chose ast, but {problem}: searching instead",
            decided_by="rules",
        )
    return decision.model_copy(update={"file": rel, "symbol": symbol})


_WIDE = {"definition": "definition", "calls": "callers", "methods": "methods"}


def _clean_symbol(symbol: str | None) -> str | None:
    if not symbol:
        return None
    cleaned = symbol.strip().strip("`'\"").removesuffix("()").lstrip("@").strip()
    return cleaned or None


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
