"""What the MCP tools do, as plain functions on a :class:`RepoBackend` returning text.

``find_definition`` and ``find_references`` use the repository's symbol graph when the index
carries one (``store.symbols``); without it they fall back to the indexed chunks: definitions
from the chunker's qualified names, references from a whole-word text search (said so in the
answer).

Every result ends with a line ``state: <hash>``: the state hash of the index it came from
(see ``codeagent.repo.state``), after a ``Notes:`` block that says when the index is catching
up with the repository.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from codeagent.errors import CodeAgentError, ToolError, one_line
from codeagent.server.backend import Pinned, RepoBackend
from codeagent.tools.rag_render import snippet
from codeagent.wire import encode

if TYPE_CHECKING:
    from codeagent.server.everywhere import AllRepos
    from codeagent.server.stream import Asked
    from codeagent.tools.base import Tool

MAX_REFERENCES = 100
SNIPPET_LINES = 6  # of each chunk found, around its line that best matches the query


def _with_state(text: str, pinned: Pinned) -> str:
    """``text``, then its notices, then a last line naming the state it came from."""
    notes = [*pinned.notices, *pinned.index.take_notices()]
    if notes:
        text += "\n\nNotes:\n" + "\n".join(f"  {n}" for n in notes)
    return _state_line(text, pinned.state)


def _state_line(text: str, state: str | None, why: str = "") -> str:
    return f"{text}\n\nstate: {state}{why}" if state else text


def ask_all(question: str) -> Callable[[AllRepos], str]:
    """``ask`` of every served repository (no repository named)."""
    return lambda everywhere: ask(everywhere, question)


def search_all(query: str, k: int) -> Callable[[AllRepos], str]:
    """``search_code`` over every served repository: each block under ``repo:path:lines``."""

    def search(everywhere: AllRepos) -> str:
        from codeagent.agent.across import merged_hits

        scored, notices, _states = everywhere.score(query)
        hits = merged_hits(scored, query, max(1, min(k, 50)))
        blocks = []
        for repo, hit in hits:
            head = f"{repo}:{hit.location}  {hit.symbol}".rstrip()
            body = "\n".join("    " + line for line in snippet(hit, query, SNIPPET_LINES))
            blocks.append(f"{head}\n{body}")
        text = "\n\n".join(blocks) or "no matches"
        if notices:
            text += "\n\nNotes:\n" + "\n".join(f"  {n}" for n in notices)
        return text

    return search


def ask(backend: Asked, question: str) -> str:
    """The answer text, its sources and its notices, as ``codeagent ask`` prints them, and a
    last line ``state: <hash>``: the state of the repository the answer came from."""
    answer: list[str] = []
    notices: list[str] = []
    sources: list[dict[str, Any]] = []
    state = None
    for event in map(encode, backend.ask_stream(question, threading.Event())):
        if event["type"] == "token":
            answer.append(event["text"])
        elif event["type"] == "route" and event.get("fallback") and event.get("line"):
            notices.append(event["line"])  # a tool could not answer: what the CLI says too
        elif event["type"] == "notice":
            notices.append(event["text"])
        elif event["type"] == "error":
            raise CodeAgentError(event["message"])
        elif event["type"] == "result":
            sources = event["result"]["sources"]
            state = event["result"].get("state")
    text = "".join(answer).rstrip()
    if sources:
        text += "\n\nSources:\n" + "\n".join(f"  {_where(s)}" for s in sources)
    if notices:
        text += "\n\nNotes:\n" + "\n".join(f"  {n}" for n in notices)
    return _state_line(text, state)


def _where(source: dict[str, Any]) -> str:
    """``path:start-end``, ``repo:path:start-end`` for a source labelled with its repository."""
    where = f"{source['path']}:{source['start_line']}-{source['end_line']}"
    return f"{source['repo']}:{where}" if source.get("repo") else where


def run_tool(backend: RepoBackend, tool: Tool, values: dict[str, Any]) -> str:
    """A registered tool's answer (its rendered result), with the state it came from; a
    tool that cannot answer is an error result (MCP does not fall back: the client chose)."""
    from codeagent.tools.base import ToolContext

    pinned = backend.pin()
    ctx = ToolContext(backend.repo.root, backend.settings, pinned.index)
    given = {k: v for k, v in values.items() if v is not None}
    args = tool.check(tool.args_model.model_validate(given), ctx)
    try:
        result = tool.run(args, ctx)
        render = getattr(result, "render_long", result.render)  # a client reads it all
        text = render()
    except ToolError as exc:
        raise ToolError(f"{tool.name}: {one_line(exc)}") from None
    return _with_state(text, pinned)


def search_code(backend: RepoBackend, query: str, k: int = 8) -> str:
    pinned = backend.pin()
    hits = pinned.index.get().search(query, k=max(1, min(k, 50)))
    if not hits:
        return _with_state("no matches", pinned)
    blocks = []
    for hit in hits:
        head = f"{hit.location}  {hit.symbol}".rstrip()
        body = "\n".join("    " + line for line in snippet(hit, query, SNIPPET_LINES))
        blocks.append(f"{head}\n{body}")
    return _with_state("\n\n".join(blocks), pinned)


def file_structure(backend: RepoBackend, path: str) -> str:
    """The outline, read from the file as it is on disk now (not from the index)."""
    from codeagent.tools.ast_tool import AstToolError, run_ast_query

    pinned = backend.pin()
    try:
        text = run_ast_query(backend.repo.root, path, "outline").render()
    except AstToolError as exc:  # a missing or unreadable file: an error result, not an outline
        raise ToolError(f"cannot outline {path}: {one_line(exc)}") from None
    # When the index lags behind, this outline does not: it was read from the file now.
    why = " (the index is catching up; read from the file now)" if pinned.notices else ""
    return _state_line(text, pinned.state, why)


def repository_map(backend: RepoBackend, budget: int, focus: list[str]) -> str:
    """The map's text (within ``budget`` tokens), then its notes and state line."""
    from codeagent.repomap import map_of

    pinned = backend.pin()
    found = map_of(pinned.index, budget=budget, focus=focus)
    return _with_state(found.text, pinned)


def find_definition(backend: RepoBackend, name: str) -> str:
    pinned = backend.pin()
    store = pinned.index.get()
    graph = getattr(store, "symbols", None)
    if graph is not None:
        found = [
            f"{d.path}:{d.start_line}-{d.end_line}  {d.qualname}  [{d.kind}]"
            for d in graph.definitions(name)
        ]
    else:
        found = _definitions_by_ast(backend, store, name)
    return _with_state("\n".join(found) or f"no definition of {name} found", pinned)


def _definitions_by_ast(backend: RepoBackend, store: Any, name: str) -> list[str]:
    """Without a symbol graph: the AST tool's ``definition`` on each Python file whose indexed
    text defines the last part of ``name``."""
    from codeagent.tools.ast_tool import AstToolError, run_ast_query

    last = re.escape(name.rsplit(".", 1)[-1])
    defines = re.compile(rf"^\s*(?:async\s+def|def|class)\s+{last}\b", re.MULTILINE)
    paths = sorted(
        {c.path for c in store.chunks if c.path.endswith(".py") and defines.search(c.text)}
    )
    found = []
    for path in paths:
        try:
            found.append(run_ast_query(backend.repo.root, path, "definition", name).render())
        except AstToolError:
            continue
    return found


def find_references(backend: RepoBackend, name: str) -> str:
    pinned = backend.pin()
    return _with_state(_references(pinned.index.get(), name), pinned)


def _graph_references(graph: Any, name: str) -> str:
    """The calls resolved to ``name`` first, then those matched by name only, each with its
    fields (``resolved: true|false``, the caller's qualified name, the target), then the
    importers; a first line counts them."""
    from codeagent.tools.symbol_tool import SymbolToolError
    from codeagent.tools.symbol_tool.callers import callers_result

    try:
        result = callers_result(graph, name, None)
    except SymbolToolError:
        result = None
    lines = []
    if result is not None:
        lines.append(result.render().splitlines()[0])
        for i in result.items:
            fields = f"resolved: {'true' if i.resolved else 'false'}  caller: {i.caller}"
            fields += f"  target: {i.target}" if i.target else ""
            lines.append(f"{i.path}:{i.start_line}: a call in {i.name or '<module>'}  {fields}")
    lines += [f"{path}  imports it" for path in graph.importers(name)]
    more = len(lines) - MAX_REFERENCES
    tail = [f"... and {more} more"] if more > 0 else []
    note = [result.note] if result is not None and result.note else []
    return "\n".join([*lines[:MAX_REFERENCES], *tail, *note]) or f"no references to {name} found"


def _references(store: Any, name: str) -> str:
    graph = getattr(store, "symbols", None)
    if graph is not None:
        return _graph_references(graph, name)
    word = re.compile(rf"\b{re.escape(name.rsplit('.', 1)[-1])}\b")
    seen: set[tuple[str, int]] = set()
    found: list[str] = []
    for chunk in store.chunks:
        for offset, line in enumerate(chunk.text.splitlines()):
            number = chunk.start_line + offset
            if word.search(line) and (chunk.path, number) not in seen:
                seen.add((chunk.path, number))
                found.append(f"{chunk.path}:{number}: {line.strip()}")
    if not found:
        return f"no references to {name} found"
    more = f"\n... and {len(found) - MAX_REFERENCES} more" if len(found) > MAX_REFERENCES else ""
    note = "(whole-word text matches: no symbol graph in this index)"
    return "\n".join([note, *found[:MAX_REFERENCES]]) + more
