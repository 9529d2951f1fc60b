"""Question suites: JSONL files, one question per line (the format is in ``eval/README.md``).

A line holds ``id``, ``question``, ``repo`` (a local path, a git URL or ``owner/name`` with a
``commit``, or ``stdlib:`` / ``stdlib:PACKAGE`` for the running interpreter's standard library),
``expected_route``, ``expected_files``, ``expected_symbols``, ``answer_must_contain``,
``reference_answer`` and ``source``. Blank lines and lines starting with ``#`` are skipped. A
file that is missing or a line that does not fit raises :class:`EvalError` naming ``file:line``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from codeagent.errors import EvalError

CLARIFY = "clarify"  # the agent should ask which one was meant (not a tool)


def valid_routes() -> tuple[str, ...]:
    """The routes a suite may expect: the registered tools, and ``clarify``."""
    from codeagent.tools.registry import default_registry

    return (*default_registry().names(), CLARIFY)


class SuiteItem(BaseModel):
    """One question of a suite, with what a correct run looks like."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    repo: str = Field(min_length=1)
    commit: str | None = None
    expected_route: str | None = None
    expected_files: list[str] = Field(default_factory=list)
    expected_symbols: list[str] | None = None
    # per file, the spans (``Class.method``, ``function``) a gold patch edits: function-level
    # scoring (codeagent.eval.functions)
    expected_spans: dict[str, list[str]] | None = None
    answer_must_contain: list[str] = Field(default_factory=list)
    reference_answer: str | None = None
    source: str = Field(min_length=1)
    # Filled in by the loader, not read from the line.
    suite: str = ""
    base_dir: str = ""

    @field_validator("expected_route")
    @classmethod
    def _route_is_registered(cls, value: str | None) -> str | None:
        if value is not None and value not in (routes := valid_routes()):
            raise ValueError(f"expected_route must be one of {', '.join(routes)}")
        return value

    @field_validator("commit")
    @classmethod
    def _commit_is_hex(cls, value: str | None) -> str | None:
        if value is not None and not (
            4 <= len(value) <= 40 and all(c in "0123456789abcdef" for c in value.lower())
        ):
            raise ValueError("commit must be a hex git commit id")
        return value

    @property
    def reads_index(self) -> bool:
        """Whether the tool this question expects reads the index (not: one file's exact
        answer from its syntax tree)."""
        from codeagent.tools.registry import default_registry

        route = self.expected_route
        return route is None or default_registry().uses_index(route)

    @property
    def group_key(self) -> tuple[str, str | None]:
        """Questions sharing this key share one checkout and one index."""
        return (self.repo, self.commit)


def suite_name(path: Path) -> str:
    """``eval/swe-qa.jsonl`` -> ``swe-qa``."""
    return path.name.removesuffix(".jsonl")


def _parse_line(path: Path, number: int, line: str) -> SuiteItem:
    where = f"{path}:{number}"
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EvalError(f"{where}: not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise EvalError(f"{where}: expected a JSON object, got {type(data).__name__}")
    for reserved in ("suite", "base_dir"):
        data.pop(reserved, None)
    try:
        item = SuiteItem(**data, suite=suite_name(path), base_dir=str(path.parent.resolve()))
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "line"
        raise EvalError(f"{where}: {field}: {first['msg']}") from exc
    except TypeError as exc:  # pragma: no cover - defensive: non-string keys cannot occur in JSON
        raise EvalError(f"{where}: {exc}") from exc
    return item


def load_suite(path: Path) -> list[SuiteItem]:
    """Read one suite; ids must be unique within it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise EvalError(f"suite file not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalError(f"cannot read suite file {path}: {exc}") from exc
    items: list[SuiteItem] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        item = _parse_line(path, number, line)
        if item.id in seen:
            raise EvalError(
                f"{path}:{number}: duplicate id {item.id!r} (first on line {seen[item.id]})"
            )
        seen[item.id] = number
        items.append(item)
    if not items:
        raise EvalError(f"{path}: the suite holds no questions")
    return items


def load_suites(paths: Iterable[Path], *, limit: int | None = None) -> list[SuiteItem]:
    """Read several suites in order; ``limit`` keeps the first N questions of each."""
    items: list[SuiteItem] = []
    names: set[str] = set()
    for path in paths:
        name = suite_name(path)
        if name in names:
            raise EvalError(f"two suites are named {name!r}: give the files different names")
        names.add(name)
        loaded = load_suite(path)
        items.extend(loaded[:limit] if limit is not None else loaded)
    return items
