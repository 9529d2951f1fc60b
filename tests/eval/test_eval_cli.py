"""`codeagent eval` through click's CliRunner, with a fake agent session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from codeagent.cli.main import cli
from codeagent.errors import EvalError
from codeagent.eval import runner


class Result:
    def __init__(self, question: str) -> None:
        self.question = question
        self.ast_result = None

    def to_json(self) -> dict[str, Any]:
        if "boom" in self.question:
            raise RuntimeError("boom")
        return {
            "route": {"tool": "rag", "decided_by": "rules"},
            "fallback": None,
            "answer": "decoder",
            "sources": [{"path": "decoder.py", "start_line": 1, "end_line": 5, "score": 1.0}],
            "tool_result": None,
            "timings": {"route": 0.0, "retrieve": 0.1, "answer": 0.0, "total": 0.1},
        }


class Session:
    def ask(self, question: str) -> Result:
        return Result(question)


@pytest.fixture
def fake_agent(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    built: list[Any] = []

    def factory(chat_model: Any = None) -> Any:
        def make(root: Path, settings: Any, *, store: Any, progress: Any) -> Session:
            built.append((root, settings.k, settings.embed, store))
            return Session()

        return make

    monkeypatch.setattr(runner, "default_session_factory", factory)
    monkeypatch.setattr(runner, "default_index_builder", lambda *a, **k: ("store", None))
    monkeypatch.setattr(runner, "default_ranker", lambda store, question, k: ["decoder.py"])
    return built


def suite(tmp_path: Path, questions: list[str], name: str = "mini.jsonl") -> Path:
    path = tmp_path / name
    lines = [
        {
            "id": f"q{n}",
            "question": q,
            "repo": "stdlib:json",
            "expected_route": "rag",
            "expected_files": ["decoder.py"],
            "source": "test",
        }
        for n, q in enumerate(questions, start=1)
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_eval_writes_reports_and_prints_a_summary(tmp_path: Path, fake_agent: list[Any]) -> None:
    path = suite(tmp_path, ["how does decoding work?", "boom", "third"])
    out = tmp_path / "out"
    args = [str(path), "--llm", "none", "--embed", "none", "-k", "4", "--out", str(out)]
    result = CliRunner().invoke(cli, ["eval", *args, "--limit", "2"])
    assert result.exit_code == 0, result.output
    assert "mini: 2 questions, 1 errors, routing 50.0%, hit@1/5/10 100.0%/100.0%/100.0%" in (
        result.output
    )
    assert len(fake_agent) == 1  # one session for the one repository
    assert fake_agent[0][1:] == (10, "none", "store")  # k raised to 10 for hit@10
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["config"]["suites"] == ["mini.jsonl"]
    assert [q["id"] for q in report["questions"]] == ["q1", "q2"]
    assert "| mini | 2 | 1 |" in (out / "report.md").read_text(encoding="utf-8")

    again = CliRunner().invoke(
        cli, ["eval", *args, "--out", str(tmp_path / "new"), "--compare", str(out / "report.json")]
    )
    assert again.exit_code == 0, again.output
    assert "compared with" in again.output
    assert "overall.questions" in again.output
    assert "(+1)" in again.output


def test_a_malformed_line_is_one_error_naming_file_and_line(tmp_path: Path) -> None:
    path = suite(tmp_path, ["q"])
    path.write_text(path.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", str(path), "--llm", "none"])
    assert isinstance(result.exception, EvalError)
    assert str(result.exception).startswith(f"{path}:2: not valid JSON")


def test_missing_suite_and_bad_repo_map(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["eval", str(tmp_path / "none.jsonl")])
    assert isinstance(result.exception, EvalError)
    assert "suite file not found" in str(result.exception)
    path = suite(tmp_path, ["q"])
    result = CliRunner().invoke(cli, ["eval", str(path), "--repo-map", "nothing"])
    assert isinstance(result.exception, EvalError)
    assert "NAME=PATH" in str(result.exception)


def test_judge_needs_a_model(tmp_path: Path, fake_agent: list[Any]) -> None:
    from codeagent.errors import ConfigError

    path = suite(tmp_path, ["q"])
    result = CliRunner().invoke(cli, ["eval", str(path), "--llm", "none", "--judge", "none"])
    assert isinstance(result.exception, ConfigError)
    assert "--judge none" in str(result.exception)
