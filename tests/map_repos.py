"""Repositories written by the map's tests (never a real project's code): modules in three
languages that import and call one another, large enough that a 4k-token map must cut."""

from __future__ import annotations

from pathlib import Path

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.store.store import IndexStore

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"]  # fmt: skip


def _word(k: int) -> str:
    return f"{WORDS[k % len(WORDS)]}{k // len(WORDS)}"


def python_files(n: int = 60) -> dict[str, str]:
    files = {
        "core/__init__.py": "",
        "core/base.py": "class Service:\n    def start(self, port: int) -> None:\n        pass\n",
    }
    for k in range(n):
        w, prev = _word(k), _word(k - 1) if k else None
        lines = ["from core.base import Service"]
        if prev:
            lines.append(f"from core.{prev} import {prev.title()}Handler, load_{prev}_records")
        lines += ["", "", f"class {w.title()}Handler(Service):"]
        for m in range(6):
            head = f"    def handle_{w}_{m}(self, request: dict, retries: int = 3) -> list[str]:"
            lines += [head, f"        return load_{w}_records(request)", ""]
        lines += ["", f"def load_{w}_records(query: dict, limit: int = 10) -> list[str]:"]
        lines.append(f"    return [load_{prev}_records(query)]" if prev else "    return []")
        files[f"core/{w}.py"] = "\n".join(lines) + "\n"
    return files


def go_files(n: int = 60) -> dict[str, str]:
    files = {"go.mod": "module example.com/shop\n\ngo 1.21\n"}
    for k in range(n):
        w = _word(k)
        body = [f"package {w}", "", f"// {w.title()}Store keeps records.",
                f"type {w.title()}Store struct {{", "\tItems []string", "}", ""]  # fmt: skip
        for m in range(6):
            body += [f"func (s *{w.title()}Store) Fetch{w.title()}{m}(id int, name string)"
                     " ([]string, error) {", "\treturn s.Items, nil", "}", ""]  # fmt: skip
        files[f"pkg/{w}/{w}.go"] = "\n".join(body)
    return files


def typescript_files(n: int = 60) -> dict[str, str]:
    files = {}
    for k in range(n):
        w, prev = _word(k), _word(k - 1) if k else None
        body = [f'import {{ {prev.title()}View }} from "./{prev}";' if prev else "", "",
                f"export class {w.title()}View {{"]  # fmt: skip
        for m in range(6):
            body += [f"  render{w.title()}{m}(model: Record<string, number>, depth: number):"
                     " string {", '    return "";', "  }"]  # fmt: skip
        body += ["}", "", f"export function mount{w.title()}(root: string): void {{", "}"]
        files[f"web/{w}.ts"] = "\n".join(body) + "\n"
    return files


def index(root: Path) -> tuple[IndexStore, str, Path]:
    """The BM25-only index of ``root``: the store, its state hash and its cache entry."""
    store, stats = load_or_build(root, Settings.load(embed="none"), embedder=None)
    return store, stats.state_hash, Path(stats.cache_path)
