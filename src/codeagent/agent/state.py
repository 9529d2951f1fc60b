"""The agent's typed state and the values it carries between nodes.

Nodes return partial updates of :class:`AgentState`; ``notices`` and ``timings`` are merged
by reducers so several nodes can add to them. Only light imports here (pydantic, typing).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from codeagent.index.types import SearchHit
from codeagent.tools.ast_tool import OPERATIONS, Operation
from codeagent.tools.symbol_tool import SymbolOperation

Tool = Literal["ast", "rag"]
RouteTool = Literal["ast", "rag", "symbols", "clarify"]
DecidedBy = Literal["llm", "rules"]
# Operations that need a symbol: the class (methods), the called name (calls), the definition.
NEEDS_SYMBOL = frozenset({"methods", "calls", "definition"})


# What the LLM router must return (structured output; the docstring and field descriptions
# go to the model in the JSON schema). No ``decided_by``: the router sets it.
class RouteDecisionSchema(BaseModel):
    """Which tool answers a question about a code repository."""

    model_config = ConfigDict(title="RouteDecision")

    tool: Tool = Field(
        description="ast for an exact structural question about one named Python file; "
        "rag for everything else."
    )
    file: str | None = Field(
        default=None, description="The Python file the question names (ast only), as written."
    )
    operation: Operation | None = Field(
        default=None, description="ast only: one of " + ", ".join(OPERATIONS) + "."
    )
    symbol: str | None = Field(
        default=None, description="ast only: the class, function or called name, if any."
    )
    reason: str = Field(default="", description="One short sentence: why this tool.")


class RouteDecision(RouteDecisionSchema):
    """The route taken, with who decided it (``llm`` or ``rules``) and why.

    Besides ``ast`` and ``rag``: ``symbols`` (a repository-wide question for the symbol graph:
    ``operation`` is a symbol-tool operation, ``symbol`` the name) and ``clarify`` (the file
    name matches several files, listed in ``candidates``: the answer asks which one).
    ``notice`` is said with the answer (e.g. a named file that does not exist).
    """

    model_config = ConfigDict(title="RouteDecision")

    tool: RouteTool = "rag"  # type: ignore[assignment]
    operation: Operation | SymbolOperation | None = None  # type: ignore[assignment]
    transitive: bool = False
    candidates: list[str] = Field(default_factory=list)
    notice: str | None = None
    decided_by: DecidedBy = "rules"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "tool": self.tool,
            "file": self.file,
            "operation": self.operation,
            "symbol": self.symbol,
            "decided_by": self.decided_by,
            "reason": self.reason,
        }
        if self.transitive:
            data["transitive"] = True
        if self.candidates:
            data["candidates"] = self.candidates
        if self.notice:
            data["notice"] = self.notice
        return data


class Source(BaseModel):
    """One source listed under an answer: a verified location in the repository."""

    path: str
    start_line: int
    end_line: int
    score: float | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


class Turn(TypedDict):
    """One past question and its answer, as a follow-up question sees it."""

    question: str
    answer: str


Fallback = TypedDict("Fallback", {"from": str, "reason": str})


def merge_timings(left: dict[str, float], right: dict[str, float]) -> dict[str, float]:
    """Reducer: add the seconds of the same stage (``ast`` then ``rag`` both count as retrieve)."""
    merged = dict(left)
    for key, value in right.items():
        merged[key] = merged.get(key, 0.0) + value
    return merged


class AgentState(TypedDict, total=False):
    question: str  # already sanitised and capped
    history: list[Turn]  # already sanitised and capped
    route: RouteDecision
    fallback: Fallback | None
    tool_result: Any  # AstResult / SymbolResult / Clarification when a structural tool answered
    hits: list[SearchHit]
    sources: list[Source]
    answer: str
    unverified: list[str]  # citations in the answer that do not exist in the repository
    notices: Annotated[list[str], operator.add]
    timings: Annotated[dict[str, float], merge_timings]
