"""eval/eval_symbols.py's file listings on a package written here, pyclbr as the truth (so that
the script keeps working with the router it measures)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from conftest import GitRepoFactory
from eval_scripts import load_script


def test_listings_route_every_file_to_the_ast_outline(git_repo: GitRepoFactory) -> None:
    load_script("symbols_truth")  # eval_symbols imports it by name
    script = load_script("eval_symbols")
    root = git_repo(
        {
            "src/shapes_pkg/__init__.py": "",
            "src/shapes_pkg/shapes.py": "class Square:\n    pass\n\n\ndef area(s):\n    return 1\n",
            "src/shapes_pkg/util.py": "def clamp(x):\n    return x\n",
        }
    )
    report: dict[str, Any] = defaultdict(int)
    report["list_diff"] = []
    script.listings(root, "src/shapes_pkg", report)
    assert report["list_q"] == 3  # every module, __init__ included
    assert report["list_truth"] == 3  # Square, area, clamp (pyclbr)
    assert report["list_found"] == 3
    assert report["list_diff"] == []
