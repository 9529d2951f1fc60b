"""A question's record in an eval run: what it holds before the agent answers
(:func:`blank_record`), what the agent did (:func:`ask_one`: route, fallback, sources,
answer, the exact names of a structural answer), and its scores against the suite's
expectations (:func:`score`). Plain JSON-ready dicts; a question that raises is recorded with
its error (:func:`error_text`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any, Protocol

from codeagent.eval import metrics
from codeagent.eval.suite import SuiteItem

log = logging.getLogger(__name__)

QUESTION_CHARS = 300  # how much of a long question a record keeps


class Session(Protocol):
    def ask(self, question: str) -> Any: ...


def ast_names(result: Any, tool_result: Any) -> list[str] | None:
    """The exact names an AST answer gave, or ``None`` when no AST result was produced.

    Taken from the result object when it carries one with ``names()``, else rebuilt from the
    ``tool_result`` dump (an ``AstResult`` round-trips through ``model_dump``).
    """
    for attr in ("ast_result", "tool_result"):
        value = getattr(result, attr, None)
        if value is not None and callable(getattr(value, "names", None)):
            return sorted(set(value.names()))
    if isinstance(tool_result, dict):
        from pydantic import ValidationError

        from codeagent.tools.ast_tool.result import AstResult

        try:
            return sorted(set(AstResult.model_validate(tool_result).names()))
        except ValidationError:  # another tool's result
            return None
    return None


def blank_record(item: SuiteItem) -> dict[str, Any]:
    question = item.question
    if len(question) > QUESTION_CHARS:
        question = question[:QUESTION_CHARS] + "…"
    return {
        "id": item.id,
        "suite": item.suite,
        "question": question,
        "repo": item.repo,
        "commit": item.commit,
        "expected_route": item.expected_route,
        "route": None,
        "decided_by": None,
        "operation": None,
        "fallback": None,
        "error": None,
        "expected_files": [],
        "unresolved_files": [],
        "cited_files": [],
        "ranked_files": [],
        "ranked_from_agent": 0,
        "answer": None,
        "ast_names": None,
        "scores": {},
        "timings": {},
        "judge": None,
    }


def error_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


def score(item: SuiteItem, record: dict[str, Any], existing: Sequence[str]) -> None:
    """Fill ``record['scores']`` (and the resolved expected / cited files) in place."""
    expected, unresolved = metrics.resolve_paths(item.expected_files, existing)
    record["expected_files"], record["unresolved_files"] = expected, unresolved
    cited: list[str] = []
    if item.reference_answer:
        cited, _ = metrics.resolve_paths(metrics.extract_py_paths(item.reference_answer), existing)
    record["cited_files"] = cited
    if record["error"] is not None:
        return
    ranked = record["ranked_files"]
    scores: dict[str, float] = {}
    if expected and item.reads_index:
        scores.update(metrics.file_scores(ranked, expected))
        # As the published localization baselines rank: Python files only.
        code = [path for path in ranked if path.endswith(".py")]
        scores.update(
            {f"py_hit@{k}": metrics.hit_at_k(code, expected, k) for k in metrics.K_VALUES}
        )
    if cited:
        for k in metrics.K_VALUES:
            scores[f"cited_recall@{k}"] = metrics.recall_at_k(ranked, cited, k)
    if item.expected_symbols is not None:
        got = record["ast_names"] or []
        scores.update(metrics.set_scores(got, item.expected_symbols))
    if item.answer_must_contain:
        answer = (record["answer"] or "").lower()
        found = [s for s in item.answer_must_contain if s.lower() in answer]
        scores["contains"] = len(found) / len(item.answer_must_contain)
    record["scores"] = scores


def ask_one(session: Session, item: SuiteItem, record: dict[str, Any]) -> Any:
    """Ask ``item`` and copy what the agent did into ``record``; errors are recorded."""
    started = time.perf_counter()
    try:
        result = session.ask(item.question)
        data = result.to_json()
    except Exception as exc:  # any failure of one question is recorded, never fatal
        log.warning("question %s failed: %s", item.id, exc)
        log.debug("question %s traceback", item.id, exc_info=True)
        record["error"] = error_text(exc)
        record["route"] = "error"
        record["timings"] = {"total": time.perf_counter() - started}
        return None
    route = data.get("route") or {}
    record["route"] = route.get("tool")
    record["decided_by"] = route.get("decided_by")
    record["operation"] = route.get("operation")
    fallback = data.get("fallback")
    record["fallback"] = fallback.get("reason", "fallback") if isinstance(fallback, dict) else None
    record["ranked_files"] = metrics.dedupe(s["path"] for s in data.get("sources") or [])
    record["answer"] = data.get("answer")
    record["ast_names"] = ast_names(result, data.get("tool_result"))
    # A stage the question skipped reports 0 (or nothing): keep only the stages that ran.
    record["timings"] = {k: v for k, v in (data.get("timings") or {}).items() if v}
    return result
