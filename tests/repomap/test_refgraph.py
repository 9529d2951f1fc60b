"""The reference graph read from the index's symbol graph (truth: the repository written here
so that each edge is known) and its PageRank (truth: networkx's own PageRank)."""

from __future__ import annotations

import pytest

from codeagent.repomap.refgraph import Edges, pagerank, reference_edges
from map_repos import index

FILES = {
    "pkg/__init__.py": "",
    "pkg/base.py": "class Base:\n    def run(self):\n        pass\n",
    "pkg/helpers.py": "def parse_settings(text):\n    return text\n",
    "pkg/child.py": (
        "from pkg.base import Base\n\n\n"
        "class Child(Base):\n    def go(self):\n        return parse_settings('x')\n"
    ),
    "pkg/alone.py": "def unused():\n    return 1\n",
    "web/handler.ts": "export class Handler {\n  handle(): string { return ''; }\n}\n",
    "web/router.ts": 'import { Handler } from "./handler";\n\nexport class Router {}\n',
}


def edges_of(found: Edges, paths: list[str]) -> set[tuple[str, str, str]]:
    return {
        (paths[s], paths[d], found.names[n])
        for s, d, n in zip(found.src, found.dst, found.name, strict=True)
    }


def test_imports_calls_and_bases_become_edges(git_repo) -> None:
    store, _state, _entry = index(git_repo(FILES))
    paths = sorted(store.symbols.files)
    found = edges_of(reference_edges(store.symbols), paths)
    assert ("pkg/child.py", "pkg/base.py", "Base") in found  # the import, and the base class
    assert ("pkg/child.py", "pkg/helpers.py", "parse_settings") in found  # a call, by name
    assert ("web/router.ts", "web/handler.ts", "handler.ts") in found  # a TypeScript import
    assert not any("pkg/alone.py" in (src, dst) for src, dst, _ in found)
    assert not any(src == dst for src, dst, _ in found)


def test_pagerank_is_networkx_pagerank() -> None:
    nx = pytest.importorskip("networkx")
    import numpy as np

    edges, ids = Edges(), dict[str, int]()
    pairs = [(0, 1, 1.0), (1, 2, 2.0), (2, 0, 1.0), (3, 2, 0.5), (0, 2, 3.0), (4, 0, 1.0)]
    for src, dst, weight in pairs:
        edges.add(src, dst, weight, f"n{src}{dst}", ids)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(6))  # 5 is dangling: no edge leaves it
    graph.add_weighted_edges_from(pairs)
    personal = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 3.0])
    for mine, theirs in (
        (pagerank(6, edges, tolerance=1e-12), nx.pagerank(graph, alpha=0.85, tol=1e-12)),
        (
            pagerank(6, edges, personal, tolerance=1e-12),
            nx.pagerank(graph, alpha=0.85, personalization={3: 1.0, 5: 3.0}, tol=1e-12),
        ),
    ):
        assert mine == pytest.approx([theirs[i] for i in range(6)], abs=1e-8)


# The same two calls in Python and in TypeScript: ``get`` is a method of Python's dict (a call
# of it is more often of that than of the repository's own ``get``), ``fetch`` is not.
CALLS = {
    "store/cache.py": "class Cache:\n    def get(self, key):\n        return key\n\n"
    "    def fetch(self, key):\n        return key\n",
    "app.py": "def main(c):\n    c.get(1)\n    c.fetch(1)\n",
    "web/cache.ts": "export class Cache {\n  get(k: string): string { return k; }\n"
    "  fetch(k: string): string { return k; }\n}\n",
    "web/app.ts": "export function main(c: any) {\n  c.get('a');\n  c.fetch('a');\n}\n",
}


def test_a_call_of_a_python_builtin_method_says_less_about_its_definer(git_repo) -> None:
    assert "get" in dir(dict)
    assert "fetch" not in dir(dict)
    store, _state, _entry = index(git_repo(CALLS))
    paths = sorted(store.symbols.files)
    found = reference_edges(store.symbols)
    weight = {
        (paths[s], found.names[n]): w
        for s, n, w in zip(found.src, found.name, found.weight, strict=True)
    }
    assert weight[("app.py", "get")] == pytest.approx(weight[("app.py", "fetch")] / 10)
    assert weight[("web/app.ts", "get")] == pytest.approx(weight[("web/app.ts", "fetch")])
