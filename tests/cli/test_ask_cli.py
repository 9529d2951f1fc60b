"""`codeagent ask`: one JSON object with --json, streamed text with sources otherwise, and
an AST route that never imports torch, FAISS or numpy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from codeagent.cli.main import cli
from server_helpers import state_of

FILES = {
    "geo/__init__.py": "",
    "geo/render.py": "def draw(shape):\n    print('drawing', shape.area())\n",
}
KEYS = ["question", "route", "fallback", "answer", "sources", "tool_result", "timings", "state"]


@pytest.fixture
def repo(git_repo, shapes: str) -> Path:
    return git_repo({**FILES, "geo/shapes.py": shapes}, name="geo_repo")


def ask(repo: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["ask", "--repo", str(repo), "--llm", "none", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_for_an_ast_question(repo: Path) -> None:
    code, out, err = ask(repo, "--embed", "none", "--json", "list the classes in geo/shapes.py")
    assert code == 0, err
    payload = json.loads(out)  # stdout is exactly one JSON object
    assert list(payload) == KEYS
    assert payload["route"] == {
        "tool": "ast",
        "file": "geo/shapes.py",
        "operation": "classes",
        "symbol": None,
        "decided_by": "rules",
        "reason": payload["route"]["reason"],
    }
    assert payload["fallback"] is None
    for line in (1, 6):  # class Shape, class Circle (tests/cli/conftest.py)
        assert f"geo/shapes.py:{line}" in payload["answer"]
    assert {s["path"] for s in payload["sources"]} == {"geo/shapes.py"}
    assert payload["tool_result"]["operation"] == "classes"
    assert set(payload["timings"]) == {"route", "retrieve", "answer", "total"}
    assert payload["state"] is None  # an exact answer read the file, no index
    assert err == ""  # --llm none was asked for: nothing to remark on


def test_json_for_a_rag_question_with_k(repo: Path) -> None:
    code, out, err = ask(repo, "--embed", "none", "-k", "1", "--json", "how is drawing done?")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["route"]["tool"] == "rag"
    assert payload["tool_result"] is None
    assert len(payload["sources"]) == 1
    assert payload["sources"][0]["path"] == "geo/render.py"
    assert set(payload["sources"][0]) == {"path", "start_line", "end_line", "score"}
    assert payload["state"] == state_of(repo)  # the index of the repository as it is


def test_text_output_without_an_llm_lists_each_source_once(repo: Path) -> None:
    code, out, _err = ask(repo, "--embed", "none", "methods of class Circle in geo/shapes.py")
    assert code == 0
    assert "Sources:" not in out  # the exact answer cites every location itself
    for line in (7, 10):  # Circle.__init__, Circle.area (tests/cli/conftest.py)
        assert out.count(f"geo/shapes.py:{line}-") == 1


def test_a_fallback_is_shown_and_recorded(repo: Path) -> None:
    question = "methods of class Square in geo/shapes.py"
    code, out, err = ask(repo, "--embed", "none", "--json", question)
    assert code == 0
    payload = json.loads(out)
    assert payload["fallback"]["from"] == "ast"
    assert "Square" in payload["fallback"]["reason"]
    code, out, err = ask(repo, "--embed", "none", question)
    line = " ".join(err.split())
    assert "searching the repository instead: the AST tool could not answer" in line
    assert "Square" in line


def test_a_missing_repository_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent", "ask", "--llm", "none", "--repo",
         str(tmp_path / "missing"), "list the classes in a.py"],
        capture_output=True, text=True, env=os.environ.copy(), check=False,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "missing" in proc.stderr


HEAVY_PROBE = """
import sys
from codeagent.cli.main import cli
try:
    cli.main(args=sys.argv[1:], standalone_mode=False)
finally:
    loaded = {m.split(".")[0] for m in sys.modules}
    heavy = loaded & {"torch", "faiss", "numpy", "sentence_transformers", "langgraph"}
    print("HEAVY", sorted(heavy), file=sys.stderr)
"""


def _probe(repo: Path, question: str) -> tuple[dict, str]:
    proc = subprocess.run(
        [sys.executable, "-c", HEAVY_PROBE, "ask", "--repo", str(repo), "--llm", "none",
         "--embed", "none", "--json", question],
        capture_output=True, text=True, env=os.environ.copy(), check=False, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    heavy = next(ln for ln in proc.stderr.splitlines() if ln.startswith("HEAVY"))
    return json.loads(proc.stdout), heavy


def test_the_ast_route_imports_neither_torch_nor_faiss_nor_numpy(repo: Path) -> None:
    payload, heavy = _probe(repo, "list the functions in geo/shapes.py")
    assert payload["route"]["tool"] == "ast"
    assert heavy == "HEAVY ['langgraph']"  # the graph runs; no model, no index
    # the probe does see them when search runs (BM25 needs numpy)
    payload, heavy = _probe(repo, "how is drawing done?")
    assert payload["route"]["tool"] == "rag"
    assert "numpy" in heavy
    assert "langgraph" in heavy


def test_the_printer_highlights_the_terms_the_token_carries() -> None:
    """Highlighting reads the token event's ``terms`` (no parsing of the question here)."""
    from codeagent.cli.render import AnswerPrinter
    from codeagent.events import TokenEvent

    out: list[str] = []
    printer = AnswerPrinter(llm=False, out=out.append, notice=out.append, terminal=True)
    text = "geo/shapes.py:13-14\n  13 |     def area(self):\n"
    printer.event(TokenEvent(text=text, terms=["area"]))
    assert out == ["geo/shapes.py:13-14\n  13 |     def \x1b[1;33marea\x1b[0m(self):\n"]
    out.clear()
    printer.event(TokenEvent(text=text))  # no terms: printed as it is
    assert out == [text]
