"""What the MCP SDK's tool server makes of a tool's signature, without the SDK (whose import
costs seconds): the ``{name}Arguments`` model, the tool's entry in ``tools/list`` (input and
output schema) and the result of ``tools/call`` (the text as content and as
``structuredContent``; an error result ``Error executing tool NAME: why``).

It follows the SDK's ``func_metadata`` and ``Tool.run`` (``mcp.server.mcpserver``): a
parameter whose name shadows a ``BaseModel`` method is read through an alias; a string given
for an argument that is not a string is read as JSON first when it holds a list or an object;
extra arguments are ignored. ``tests/server/test_mcp.py`` drives both servers with the SDK's
client and compares their answers.
"""

from __future__ import annotations

import inspect
import json
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from codeagent.server.mcp_tools import McpEntry


class _ArgModelBase(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)


def _annotated(parts: tuple[Any, ...]) -> Any:
    return Annotated[parts]


class ToolSchema:
    """One tool as ``tools/list`` shows it, and its arguments' validation."""

    def __init__(self, entry: McpEntry) -> None:
        self.entry = entry
        fields: dict[str, Any] = {}
        for param in entry.signature.parameters.values():
            name, alias = param.name, None
            if callable(getattr(BaseModel, name, None)):
                name, alias = f"field_{name}", name  # as the SDK reads it
            parts = (param.annotation, Field(alias=alias) if alias else Field())
            annotation = _annotated(parts)
            if param.default is inspect.Parameter.empty:
                fields[name] = annotation
            else:
                fields[name] = (annotation, param.default)
        self.model = create_model(
            f"{entry.name}Arguments",
            __base__=_ArgModelBase,
            **fields,
        )
        output = create_model(f"{entry.name}Output", result=str)
        self.listed = {
            "name": entry.name,
            "description": entry.description,
            "inputSchema": self.model.model_json_schema(by_alias=True),
            "outputSchema": output.model_json_schema(),
        }

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The arguments the tool is called with; ``ValidationError`` when they do not fit."""
        fields = {f.alias or n: f for n, f in self.model.model_fields.items()}
        data = dict(arguments)
        for key, value in arguments.items():
            field = fields.get(key)
            if field is None or not isinstance(value, str) or field.annotation is str:
                continue
            try:
                parsed = json.loads(value)
            except (ValueError, RecursionError):
                continue
            if not isinstance(parsed, str | int | float):
                data[key] = parsed
        model = self.model.model_validate(data)
        return {f.alias or n: getattr(model, n) for n, f in type(model).model_fields.items()}


def catalog(entries: list[McpEntry]) -> dict[str, ToolSchema]:
    """Every tool by name, in the order ``tools/list`` lists them."""
    return {entry.name: ToolSchema(entry) for entry in entries}


def text_result(text: str) -> dict[str, Any]:
    """A tool's answer: the text, as content and as the structured ``result``."""
    return {
        "content": [{"type": "text", "text": text}],
        "isError": False,
        "structuredContent": {"result": text},
    }


def error_result(text: str) -> dict[str, Any]:
    """An error result the client reads (not a protocol error)."""
    return {"content": [{"type": "text", "text": text}], "isError": True}


def bad_arguments(name: str, exc: ValidationError) -> dict[str, Any]:
    return error_result(f"Error executing tool {name}: {exc}")
