"""The MCP tools, declared once for both front ends: the SDK server of ``codeagent serve``'s
``/mcp`` (:mod:`codeagent.server.mcp`) and the lean stdio server of ``codeagent mcp``
(:mod:`codeagent.server.mcp_stdio`).

Each tool is a :class:`McpEntry`: its name, its description, the signature its arguments are
read from (the MCP SDK turns it into the ``{name}Arguments`` model and the input schema;
:mod:`codeagent.server.mcp_schema` does the same without the SDK), and ``plan``: given the
served repositories and the validated arguments, the check of the question size cap and the
choice of the repository (a :class:`CallRefused` when they fail), then the work to run in a
worker thread. ``list_repositories`` and ``ask`` are the server's own; the others come from the
tool registry (:meth:`~codeagent.tools.registry.Registry.mcp_tools`). Importing this module
imports pydantic and the registry's tools, never the index, the agent or the SDK.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, ValidationError

from codeagent.errors import CodeAgentError, one_line
from codeagent.server.limits import check_length
from codeagent.server.repos import pick

if TYPE_CHECKING:
    from codeagent.server.backend import RepoBackend
    from codeagent.server.everywhere import AllRepos
    from codeagent.tools.base import McpTool
    from codeagent.tools.registry import Registry

INSTRUCTIONS = (
    "Answers questions about the source code of the repositories listed by list_repositories. "
    "Use ask for an explained answer with cited lines; each other tool says what it finds: {}."
)
LIST_DESCRIPTION = "List the repositories this server can answer about: one `id  root` per line."
# As the SDK reads it from a docstring: the indentation of the lines after the first is kept.
ASK_DESCRIPTION = """Answer a question about a repository's code, citing `path:start-end` \
line ranges.

        Exact for structural questions about one Python file (e.g. "list the methods of
        Session in sessions.py"); otherwise answered from a search of the whole repository.
        """
RepoArg = Annotated[
    str | None,
    Field(
        description="Repository id from list_repositories; omit when only one is served"
        " (ask and the searches: omitted, every served repository is searched)."
    ),
]
QuestionArg = Annotated[str, Field(description="A question about the code, in plain words.")]


class CallRefused(CodeAgentError):
    """A tool call refused with a reason the client reads (an MCP error result)."""


class Served:
    """The repositories a server answers about, and its question size cap."""

    def __init__(self, backends: dict[str, RepoBackend], max_question_chars: int) -> None:
        self.backends = backends
        self.repos = {k: b.repo for k, b in backends.items()}
        self.max_question_chars = max_question_chars
        self._everywhere: AllRepos | None = None

    def everywhere(self) -> AllRepos:
        from codeagent.server.everywhere import AllRepos

        if self._everywhere is None:
            self._everywhere = AllRepos(self.backends)
        return self._everywhere


Job = Callable[[], str]


@dataclass(frozen=True)
class McpEntry:
    """One MCP tool: ``plan(served, arguments)`` checks and returns the work (``CallRefused``
    when refused), to run in a worker thread; the work raises ``CodeAgentError`` when it
    cannot answer."""

    name: str
    description: str
    signature: inspect.Signature
    plan: Callable[[Served, dict[str, Any]], Job]
    light: bool = False  # answered at once, taking no slot of the server's admission


def _job(
    served: Served,
    repo: str | None,
    work: Callable[[RepoBackend], str],
    text: tuple[str, str] | None = None,
    across: Callable[[AllRepos], str] | None = None,
) -> Job:
    """The work on the named repository (on every one with ``across`` when none is named and
    several are served); ``text``: (what, the question or query) checked against the cap."""
    try:
        if text is not None:
            check_length(text[1], served.max_question_chars, text[0])
        if across is not None and not repo and len(served.backends) > 1:
            everywhere = served.everywhere()
            return lambda: across(everywhere)
        backend = served.backends[pick(served.repos, repo).id]
    except CodeAgentError as exc:
        raise CallRefused(one_line(exc)) from None
    return lambda: work(backend)


def _list_plan(served: Served, values: dict[str, Any]) -> Job:
    return lambda: "\n".join(f"{b.repo.id}  {b.repo.root}" for b in served.backends.values())


def _ask_plan(served: Served, values: dict[str, Any]) -> Job:
    from codeagent.server import tools

    question = values["question"]
    return _job(
        served,
        values.get("repo"),
        lambda b: tools.ask(b, question),
        ("question", question),
        tools.ask_all(question),
    )


def _registered(spec: McpTool) -> McpEntry:
    """The entry of a registry's tool: its arguments (from its args model) and ``repo``."""

    def plan(served: Served, values: dict[str, Any]) -> Job:
        from codeagent.server import tools

        values = dict(values)
        repo = values.pop("repo", None)
        try:
            args = spec.args_model.model_validate(
                {k: v for k, v in values.items() if v is not None}
            )
        except ValidationError as exc:
            raise CallRefused(f"{spec.name}: {one_line(exc)}") from None
        checked = None
        if spec.checked is not None:
            value = getattr(args, spec.checked)
            text = "\n".join(value) if isinstance(value, list) else str(value or "")
            checked = (spec.checked, text)
        everywhere = spec.everywhere
        across = None
        if everywhere is not None:
            across = lambda all_: everywhere(args, tools.searcher(all_))  # noqa: E731
        return _job(served, repo, lambda b: tools.answer(b, spec, args), checked, across)

    params = [
        _param(
            name,
            info.annotation,
            inspect.Parameter.empty if info.is_required() else info.default,
            *info.metadata,
            Field(description=info.description or name),
        )
        for name, info in spec.args_model.model_fields.items()
    ]
    params.append(_param("repo", RepoArg, None))
    return McpEntry(spec.name, spec.description, _signature(params), plan)


def _param(name: str, annotation: Any, default: Any, *metadata: Any) -> inspect.Parameter:
    if metadata:
        annotation = Annotated[(annotation, *metadata)]
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=annotation)  # fmt: skip


def _signature(params: list[inspect.Parameter]) -> inspect.Signature:
    return inspect.Signature(params, return_annotation=str)


def mcp_entries(registry: Registry | None = None) -> list[McpEntry]:
    """The tools MCP lists, in order: ``list_repositories``, ``ask``, then the tools of
    ``registry`` (the default one when none is given, as the served workspaces answer with)."""
    from codeagent.tools.registry import default_registry

    specs = (registry if registry is not None else default_registry()).mcp_tools()
    ask_params = [_param("question", QuestionArg, inspect.Parameter.empty)]
    ask_params.append(_param("repo", RepoArg, None))
    return [
        McpEntry("list_repositories", LIST_DESCRIPTION, _signature([]), _list_plan, light=True),
        McpEntry("ask", ASK_DESCRIPTION, _signature(ask_params), _ask_plan),
        *(_registered(spec) for spec in specs),
    ]


def instructions(entries: list[McpEntry]) -> str:
    """What ``initialize`` tells the client: the tools besides the server's own two."""
    return INSTRUCTIONS.format(", ".join(e.name for e in entries[2:]))
