"""The documentation stays current: ``docs/architecture.md`` is one screen that names every
top-level module and package of ``src/codeagent`` (and nothing that is not one) and every
registered tool, and every relative link between the
Markdown files (an anchor included) lands on a file and a heading that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codeagent.tools.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "codeagent"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAP_LINES = 90  # one screen
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def top_level() -> list[str]:
    """``name.py`` and ``name/`` of every module and package directly under src/codeagent."""
    modules = [p.name for p in PACKAGE.glob("*.py")]
    packages = [p.name + "/" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()]
    return sorted(modules + packages)


def layout_block(doc: str) -> str:
    """The first fenced block that draws ``src/codeagent/``."""
    for block in _FENCE.findall(doc):
        if "src/codeagent/" in block:
            return str(block)
    return ""


def missing_modules(doc: str, names: list[str]) -> list[str]:
    """The names no line of the layout block starts with (after its indent)."""
    lines = [line.strip() for line in layout_block(doc).splitlines()]
    return [n for n in names if not any(line.split(" ")[0] == n for line in lines)]


def unknown_names(doc: str, names: list[str]) -> list[str]:
    """The modules and packages the layout block names (a line's first word ending in ``.py``
    or ``/``) that are not among ``names``."""
    lines = [line.strip() for line in layout_block(doc).splitlines()]
    words = [line.split(" ")[0] for line in lines if line and line != "src/codeagent/"]
    return [w for w in words if w.endswith((".py", "/")) and w not in names]


def tool_home(name: str) -> str:
    """Where tool ``name`` lives, as the layout writes it: ``ast_tool/`` or ``rag_tool.py``."""
    parts = type(default_registry()[name]).__module__.split(".")
    return parts[-2] + "/" if parts[-1] == "tool" else parts[-1] + ".py"


def missing_tools(doc: str) -> list[str]:
    """Registered tools whose name (in backticks) or home is not on the page."""
    return [n for n in default_registry().names() if f"`{n}`" not in doc or tool_home(n) not in doc]


def test_architecture_names_every_top_level_module_and_package() -> None:
    names = top_level()
    assert {"workspace.py", "index/", "tools/"} <= set(names)
    assert missing_modules(ARCHITECTURE.read_text(encoding="utf-8"), names) == []


def test_every_name_on_the_map_exists_and_the_map_fits_a_screen() -> None:
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    assert unknown_names(doc, top_level()) == []
    assert len(doc.splitlines()) <= MAP_LINES


def test_architecture_names_every_registered_tool() -> None:
    assert missing_tools(ARCHITECTURE.read_text(encoding="utf-8")) == []


def test_the_checks_fail_when_a_module_or_tool_is_left_out() -> None:
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    lines = doc.splitlines()
    without = "\n".join(line for line in lines if not line.strip().startswith("events.py"))
    assert missing_modules(without, top_level()) == ["events.py"]
    renamed = doc.replace("\n  route.py ", "\n  way.py ")
    assert unknown_names(renamed, top_level()) == ["way.py"]
    assert tool_home("symbols") == "symbol_tool/"
    assert missing_tools(doc.replace("symbol_tool/", "")) == ["symbols"]
    assert missing_tools(doc.replace("`rag`", "rag")) == ["rag"]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for match in re.finditer(r"^#{1,6} (.+)$", text, re.MULTILINE):
        base = slug(match.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_links(path: Path) -> list[str]:
    out = []
    for target in _LINK.findall(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # a URL, not a file of the repository
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        lost = anchor and dest.suffix == ".md" and anchor not in anchors(dest)
        if not dest.exists() or lost:
            out.append(target)
    return out


@pytest.mark.parametrize(
    "path",
    [ROOT / "README.md", ROOT / "eval" / "README.md", *sorted((ROOT / "docs").glob("*.md"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_relative_links_land(path: Path) -> None:
    assert broken_links(path) == []


def test_the_link_check_finds_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Top\n\n## `codeagent ask --json` (`bench/x.py`)\n")
    (tmp_path / "b.md").write_text(
        "[ok](a.md#codeagent-ask---json-benchxpy) [gone](a.md#nothing) [no file](c.md)\n"
    )
    assert broken_links(tmp_path / "b.md") == ["a.md#nothing", "c.md"]
