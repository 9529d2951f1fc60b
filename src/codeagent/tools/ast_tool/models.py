"""Typed results of the AST tool (pydantic; ``model_dump()`` is JSON-serialisable).

Line numbers are 1-based and inclusive. ``start_line`` of a function or class is its first
decorator's line (as ``inspect`` reports it); ``def_line`` is the ``def``/``class`` line (as
``pyclbr`` reports it). ``condition`` names the module- or class-level block a definition sits
in (``if TYPE_CHECKING``, ``except ImportError``, ``else of if sys.platform == 'win32'``, nested
blocks joined by `` > ``); ``None`` when it is defined unconditionally.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

Operation = Literal[
    "functions",
    "classes",
    "methods",
    "imports",
    "variables",
    "decorators",
    "calls",
    "definition",
    "outline",
]
OPERATIONS: tuple[Operation, ...] = get_args(Operation)
ParamKind = Literal[
    "positional_only", "positional_or_keyword", "var_positional", "keyword_only", "var_keyword"
]
Role = Literal[
    "function",
    "method",
    "classmethod",
    "staticmethod",
    "property",
    "property_setter",
    "property_deleter",
]


class AstArgs(BaseModel):
    """One AST query, as the router fills it (every field optional: the check says what is
    missing)."""

    model_config = ConfigDict(title="AstArgs")

    file: str | None = Field(
        default=None, description="The Python file the question names (ast only), as written."
    )
    operation: Operation | None = Field(
        default=None, description="ast only: one of " + ", ".join(OPERATIONS) + "."
    )
    symbol: str | None = Field(
        default=None, description="ast only: the class, function or called name, if any."
    )
    kind: str | None = Field(
        default=None,
        description="classes of a file of another language than Python: the one kind of type "
        "the question lists (struct, interface, enum, trait), if it names one.",
    )

    @model_serializer(mode="wrap")
    def _kind_when_asked(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """``kind`` is in a route's arguments only when a question names one (a route's
        other arguments are always there, as before it)."""
        data: dict[str, Any] = handler(self)
        if data.get("kind") is None:
            data.pop("kind", None)
        return data


class _Model(BaseModel):
    """An answered fact. An item also has ``answer_names()`` (the names it answers with, as
    eval scores them) and ``span()`` (the lines it cites, or None)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Parameter(_Model):
    name: str
    kind: ParamKind
    annotation: str | None = None
    default: str | None = None


class FunctionInfo(_Model):
    kind: Literal["function"] = "function"
    name: str
    qualname: str
    role: Role = "function"
    signature: str
    parameters: list[Parameter] = Field(default_factory=list)
    returns: str | None = None
    is_async: bool = False
    is_overload: bool = False
    decorators: list[str] = Field(default_factory=list)
    start_line: int
    def_line: int
    end_line: int
    condition: str | None = None

    def answer_names(self) -> list[str]:
        return [self.name]

    def span(self) -> tuple[int, int] | None:
        return self.start_line, self.end_line


class ClassInfo(_Model):
    kind: Literal["class"] = "class"
    name: str
    qualname: str
    bases: list[str] = Field(default_factory=list)
    decorators: list[str] = Field(default_factory=list)
    start_line: int
    def_line: int
    end_line: int
    methods: list[FunctionInfo] = Field(default_factory=list)
    nested_classes: list[ClassInfo] = Field(default_factory=list)
    condition: str | None = None

    def answer_names(self) -> list[str]:
        return [self.name]

    def span(self) -> tuple[int, int] | None:
        return self.start_line, self.end_line


class ImportedName(_Model):
    name: str
    asname: str | None = None


class ImportInfo(_Model):
    kind: Literal["import"] = "import"
    is_from: bool
    module: str | None = None
    names: list[ImportedName]
    level: int = 0
    line: int
    end_line: int
    scope: str = "<module>"
    condition: str | None = None

    def answer_names(self) -> list[str]:
        """``import a.b`` answers ``a.b``, ``from m import x`` answers ``x``, ``m.*`` a star."""
        module = "." * self.level + (self.module or "")
        return [f"{module}.*" if n.name == "*" else n.name for n in self.names]

    def span(self) -> tuple[int, int] | None:
        return self.line, self.end_line


class VariableInfo(_Model):
    kind: Literal["variable"] = "variable"
    name: str
    line: int
    end_line: int
    annotation: str | None = None
    operator: str = "="
    value: str | None = None
    is_constant: bool = False
    condition: str | None = None

    def answer_names(self) -> list[str]:
        return [self.name]

    def span(self) -> tuple[int, int] | None:
        return self.line, self.end_line


class DecoratorUse(_Model):
    kind: Literal["decorator"] = "decorator"
    name: str
    expression: str
    line: int
    target: str
    target_kind: Literal["function", "method", "class"]

    def answer_names(self) -> list[str]:
        return [self.name]

    def span(self) -> tuple[int, int] | None:
        return self.line, self.line


class CallSite(_Model):
    kind: Literal["call"] = "call"
    callee: str
    text: str
    line: int
    end_line: int
    scope: str

    def answer_names(self) -> list[str]:
        return [self.scope]

    def span(self) -> tuple[int, int] | None:
        return self.line, self.end_line


class Definition(_Model):
    kind: Literal["definition"] = "definition"
    name: str
    qualname: str
    symbol_kind: Literal["function", "method", "class", "variable"]
    header: str
    start_line: int
    end_line: int
    source: str
    docstring: str | None = None
    is_overload: bool = False
    condition: str | None = None

    def answer_names(self) -> list[str]:
        return [self.qualname]

    def span(self) -> tuple[int, int] | None:
        return self.start_line, self.end_line


class OutlineEntry(_Model):
    kind: Literal["outline"] = "outline"
    name: str
    qualname: str
    symbol_kind: Literal["function", "method", "class"]
    header: str
    depth: int
    start_line: int
    end_line: int
    condition: str | None = None

    def answer_names(self) -> list[str]:
        return [self.qualname]

    def span(self) -> tuple[int, int] | None:
        """Only a top-level entry is cited: its span holds the nested ones."""
        return (self.start_line, self.end_line) if self.depth == 0 else None


Item = Annotated[
    FunctionInfo
    | ClassInfo
    | ImportInfo
    | VariableInfo
    | DecoratorUse
    | CallSite
    | Definition
    | OutlineEntry,
    Field(discriminator="kind"),
]
