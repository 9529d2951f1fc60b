"""The registry of tools: what the router may choose, what the graph runs, where each falls
back to. Adding a tool = its module + one line in :func:`default_registry` + its tests.

    registry = default_registry()
    registry.names()              # ("symbols", "ast", "rag")
    registry.fallback_of("ast")   # "rag"
    registry.router_schema()      # the pydantic model the LLM router fills (flat, all tools)
    registry.prompt_tools()       # the tool list of prompts/router.md
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, create_model

from codeagent.tools.base import (
    BaseTool,
    Declined,
    Source,
    Tool,
    ToolContext,
    ToolFailure,
    ToolResult,
)

__all__ = [
    "BaseTool",
    "Declined",
    "Registry",
    "Source",
    "Tool",
    "ToolContext",
    "ToolFailure",
    "ToolResult",
    "default_registry",
]

if TYPE_CHECKING:
    from codeagent.agent.state import Fallback, RouteDecision

RESERVED = frozenset({"tool", "reason", "decided_by"})  # router fields no tool arg may take


class Registry:
    """Tools by name, in order (the rule router asks them in this order); ``default`` is the
    catch-all: the route when no rule matches, and the usual fallback target."""

    def __init__(self, tools: Iterable[Tool], *, default: str = "rag") -> None:
        self.tools: dict[str, Tool] = {}
        for tool in tools:
            if tool.name in self.tools:
                raise ValueError(f"two tools named {tool.name!r}")
            clash = RESERVED & set(tool.args_model.model_fields)
            if clash:
                raise ValueError(f"tool {tool.name!r}: argument names {sorted(clash)} are taken")
            self.tools[tool.name] = tool
        if default not in self.tools:
            raise ValueError(f"the default tool {default!r} is not registered")
        self.default = default
        for tool in self.tools.values():
            if tool.fallback is not None and tool.fallback not in self.tools:
                raise ValueError(f"tool {tool.name!r} falls back to unknown {tool.fallback!r}")

    def __getitem__(self, name: str) -> Tool:
        return self.tools[name]

    def __contains__(self, name: object) -> bool:
        return name in self.tools

    def names(self) -> tuple[str, ...]:
        return tuple(self.tools)

    def fallback_of(self, name: str) -> str | None:
        return self.tools[name].fallback

    def router_schema(self) -> type[BaseModel]:
        """The model the LLM router returns: ``tool``, every tool's argument fields (all
        optional, each described with the tool it belongs to), and ``reason``."""
        names = self.names()
        fields: dict[str, Any] = {
            "tool": (
                cast(Any, Literal)[names],
                Field(description=" ".join(f"{n}: {_summary(self.tools[n])}." for n in names)),
            )
        }
        for tool in self.tools.values():
            for field_name, info in tool.args_model.model_fields.items():
                annotation = info.annotation if info.annotation is not None else Any
                if field_name in fields:  # a shared name: either tool's values, first description
                    shared, spec = fields[field_name]
                    fields[field_name] = (shared | annotation, spec)
                    continue
                fields[field_name] = (
                    annotation | None,
                    Field(default=None, description=info.description or tool.name),
                )
        fields["reason"] = (
            str,
            Field(default="", description="One short sentence: why this tool."),
        )
        schema: type[BaseModel] = create_model(
            "RouteDecision",
            __config__=ConfigDict(title="RouteDecision"),
            __doc__="Which tool answers a question about a code repository.",
            **fields,
        )
        return schema

    def prompt_tools(self) -> str:
        """The Markdown tool list of the router prompt (``$tools``)."""
        return "\n".join(f"- `{tool.name}`: {tool.description}" for tool in self.tools.values())

    def label(self, name: str) -> str:
        """What tool ``name`` is, in a few words."""
        return self.tools[name].label if name in self.tools else name

    def route_line(self, route: RouteDecision, fallback: Fallback | None = None) -> str | None:
        """The one line a front end says about a route: the answering tool's ``announce``
        with the route's reason, or, after a fallback, with what failed and why (None:
        nothing to say, as when a structural tool answers)."""
        if fallback is not None:
            why = f" ({fallback.reason})" if fallback.reason else ""
            failed = f"the {fallback.from_.upper()} tool could not answer{why}"
            target = self.tools.get(fallback.to) if fallback.to else None
            if target is None:
                return f"answering without a tool: {failed}"
            if target.announce:
                return f"{target.announce} instead: {failed}"
            return f"answering with the {target.name.upper()} tool instead: {failed}"
        announce = self.tools[route.tool].announce if route.tool in self.tools else None
        if not announce:
            return None
        return f"{announce} ({route.reason})" if route.reason else announce

    def args_of(self, name: str, values: dict[str, Any]) -> BaseModel:
        """Tool ``name``'s args from a flat dict that may carry other tools' fields too."""
        model = self.tools[name].args_model
        return model.model_validate({k: v for k, v in values.items() if k in model.model_fields})


def _summary(tool: Tool) -> str:
    return " ".join(tool.description.split(".")[0].split())


def default_registry() -> Registry:
    """The tools codeagent ships: the repository symbol graph, the file AST tool, then search
    (the default)."""
    from codeagent.tools.ast_tool.tool import AstTool
    from codeagent.tools.rag_tool import RagTool
    from codeagent.tools.symbol_tool.tool import SymbolTool

    return Registry([SymbolTool(), AstTool(), RagTool()], default="rag")
