"""The registry of tools: the one place a tool is declared, and everything that lists tools
reads it (datasette's ``DEFAULT_PLUGINS`` + hook specs are the model). Adding a tool = its
module + one line in :data:`DEFAULT_TOOLS` (or one :func:`register_tool` call) + its tests.

A tool declares (see :class:`~codeagent.tools.base.Tool`): its ``name``, ``args_model``,
router ``description`` and ``examples``, its rule matcher, its ``fallback``, what MCP lists
for it (``mcp_tools()``: names, arguments, answer as text), whether it reads the index
(``uses_index``), and how the front ends show it (``label``, ``announce``). From those come
the router's schema and prompt (:meth:`Registry.router_schema`, :meth:`Registry.prompt_tools`,
:meth:`Registry.prompt_examples`), the graph's nodes and fallback edges, the route line
(:meth:`Registry.route_line`), the MCP tools (:meth:`Registry.mcp_tools`, read by
``server/mcp.py``) and the routes an eval suite may expect (``eval/suite.py``).

    registry = default_registry()
    registry.names()              # ("symbols", "ast", "rag")
    registry.fallback_of("ast")   # "rag"
    registry.router_schema()      # the pydantic model the LLM router fills (flat, all tools)
    registry.prompt_tools()       # the tool list of prompts/router.md
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol, cast

from pydantic import BaseModel, ConfigDict, Field, create_model

from codeagent.tools.base import (
    DEFAULT_FALLBACK,
    McpTool,
    Tool,
)

__all__ = ["Registry", "default_registry", "register_tool"]

# The tools codeagent ships, in the order the rule router asks them; the last is the default
# (the catch-all: the route when no rule matches, and the usual fallback target).
DEFAULT_TOOLS: tuple[str, ...] = (
    "codeagent.tools.symbol_tool.tool:SymbolTool",
    "codeagent.tools.ast_tool.tool:AstTool",
    "codeagent.tools.rag_tool:RagTool",
)
# MCP tools that answer with no routed tool behind them ("module:object", a McpTool).
MCP_TOOLS: tuple[str, ...] = ("codeagent.tools.map_mcp:REPOSITORY_MAP",)
_registered: list[Tool] = []  # register_tool(): asked after the shipped tools, before the default


class _Route(Protocol):
    """What :meth:`Registry.route_line` reads of a route (agent.state.RouteDecision)."""

    tool: str
    reason: str


class _Fallback(Protocol):
    """What :meth:`Registry.route_line` reads of a fallback (agent.state.Fallback)."""

    @property
    def from_(self) -> str: ...

    @property
    def to(self) -> str | None: ...

    @property
    def reason(self) -> str: ...


RESERVED = frozenset({"tool", "reason", "decided_by"})  # router fields no tool arg may take


class Registry:
    """Tools by name, in order (the rule router asks them in this order); ``default`` is the
    catch-all: the route when no rule matches, and the usual fallback target."""

    def __init__(self, tools: Iterable[Tool], *, default: str | None = None) -> None:
        self.tools: dict[str, Tool] = {}
        for tool in tools:
            if tool.name in self.tools:
                raise ValueError(f"two tools named {tool.name!r}")
            clash = RESERVED & set(tool.args_model.model_fields)
            if clash:
                raise ValueError(f"tool {tool.name!r}: argument names {sorted(clash)} are taken")
            self.tools[tool.name] = tool
        if not self.tools:
            raise ValueError("a registry needs at least the default tool")
        default = default or list(self.tools)[-1]
        if default not in self.tools:
            raise ValueError(f"the default tool {default!r} is not registered")
        self.default = default
        self._fallbacks: dict[str, str | None] = {}
        for tool in self.tools.values():
            target = self.default if tool.fallback == DEFAULT_FALLBACK else tool.fallback
            if target == tool.name:
                target = None  # the default tool itself falls back to nothing
            if target is not None and target not in self.tools:
                raise ValueError(f"tool {tool.name!r} falls back to unknown {target!r}")
            self._fallbacks[tool.name] = target

    def __getitem__(self, name: str) -> Tool:
        return self.tools[name]

    def __contains__(self, name: object) -> bool:
        return name in self.tools

    def names(self) -> tuple[str, ...]:
        return tuple(self.tools)

    def fallback_of(self, name: str) -> str | None:
        """The tool that answers when ``name`` fails (None: none)."""
        return self._fallbacks[name]

    def uses_index(self, name: str) -> bool:
        """Whether tool ``name`` reads the index (an unknown name: assume it does)."""
        return name not in self.tools or self.tools[name].uses_index

    def mcp_tools(self) -> list[McpTool]:
        """The tools MCP lists besides ``ask``: each registered tool's, then those of
        :data:`MCP_TOOLS` (no two with one name)."""
        found = [t for tool in self.tools.values() for t in tool.mcp_tools()]
        found += [cast(McpTool, _object(spec)) for spec in MCP_TOOLS]
        names = [t.name for t in found]
        if len(set(names)) != len(names):
            raise ValueError(f"two MCP tools share a name: {sorted(names)}")
        return found

    def prompt_examples(self) -> str:
        """The router prompt's examples (``$examples``): each tool's, as the JSON the router
        returns, with the tool's own fields (the others are left empty)."""
        blocks = []
        for tool in self.tools.values():
            for example in tool.examples:
                args = {name: example.args.get(name) for name in tool.args_model.model_fields}
                data = {"tool": tool.name, **args, "reason": example.reason}
                blocks.append(f"Question: {example.question}\n{json.dumps(data)}")
        return "\n\n".join(blocks)

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

    def route_line(self, route: _Route, fallback: _Fallback | None = None) -> str | None:
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


def _object(spec: str) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def _load(spec: str) -> Tool:
    tool: Tool = _object(spec)()
    return tool


def register_tool(tool: Tool) -> Callable[[], None]:
    """Add ``tool`` to every :func:`default_registry` made from now on (asked after the
    shipped tools, before the default); returns the call that takes it out again."""
    _registered.append(tool)

    def unregister() -> None:
        if tool in _registered:
            _registered.remove(tool)

    return unregister


def default_registry() -> Registry:
    """The tools codeagent ships (:data:`DEFAULT_TOOLS`: the repository symbol graph, the file
    AST tool, then search, the default) and those added with :func:`register_tool`."""
    *tools, default = [_load(spec) for spec in DEFAULT_TOOLS]
    return Registry([*tools, *_registered, default], default=default.name)
