"""The repository map for a person: a tree drawn from the map's indented lines (the REPL's
``/map``), and the one-line summary under it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codeagent.display import plural, safe_text

if TYPE_CHECKING:
    from codeagent.repomap import RepoMap

USAGE = "usage: /map [TOKENS] [QUESTION|PATH]"


def tree(text: str) -> str:
    """The map's text with its indentation drawn as branches (``├──``, ``│``, ``└──``)."""
    rows = [(len(line) - len(line.lstrip(" ")), line.strip()) for line in text.splitlines()]
    out: list[str] = []
    for k, (indent, body) in enumerate(rows):
        if indent == 0:
            out.append(body)
            continue
        depth = indent // 2  # 1: a file's own definitions
        prefix = ""
        for level in range(1, depth):  # a bar where an ancestor has siblings still to come
            prefix += "│   " if _more_at(rows, k, level) else "    "
        prefix += "├── " if _more_at(rows, k, depth) else "└── "
        out.append(prefix + body)
    return "\n".join(out)


def _more_at(rows: list[tuple[int, str]], k: int, level: int) -> bool:
    """Whether a line after ``k`` sits at ``level`` before the tree goes above it."""
    for indent, _body in rows[k + 1 :]:
        depth = indent // 2
        if depth < level:
            return False
        if depth == level:
            return True
    return False


def summary(found: RepoMap) -> str:
    left = f"; {plural(found.more_count, 'more file')} not shown" if found.more_count else ""
    return (
        f"map: {found.tokens:,} of {found.budget:,} tokens ({found.tokenizer}),"
        f" {plural(len(found.files), 'file')}{left}"
    )


def workspace_map(workspace: Any, budget: int, focus: list[str]) -> RepoMap:
    """The map of a workspace's index (kept per state, beside its cache entry)."""
    from pathlib import Path

    from codeagent.repomap import build_map

    store = workspace.get_store()
    stats = workspace.index_stats
    state = getattr(stats, "state_hash", None) or None
    cache_path = getattr(stats, "cache_path", "")
    entry = Path(cache_path) if cache_path else None
    return build_map(store, budget=budget, focus=focus, state=state, entry=entry)


def repl_map(workspace: Any, text: str) -> str:
    """What ``/map [TOKENS] [QUESTION|PATH]`` prints: the tree and its summary."""
    from codeagent.errors import CodeAgentError
    from codeagent.repomap import DEFAULT_BUDGET

    words = text.split(maxsplit=1)[1:]
    rest = words[0].strip() if words else ""
    budget, _, focus = rest.partition(" ")
    if budget.isdigit():
        rest = focus.strip()
    else:
        budget = str(DEFAULT_BUDGET)
    try:
        found = workspace_map(workspace, int(budget), [rest] if rest else [])
    except CodeAgentError as exc:
        return f"error: {safe_text(str(exc))}\n{USAGE}\n"
    return f"{safe_text(tree(found.text))}\n{summary(found)}\n"
