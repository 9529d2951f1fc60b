"""The runner with fake sessions, index builders and clone resolvers: no agent, no network."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codeagent.config import Settings
from codeagent.eval.runner import EvalRun, run_items
from codeagent.eval.suite import SuiteItem


class FakeNames:
    def __init__(self, names: list[str]) -> None:
        self._names = names

    def names(self) -> list[str]:
        return self._names


class FakeResult:
    def __init__(self, data: dict[str, Any], names: list[str] | None = None) -> None:
        self.data = data
        self.ast_result = FakeNames(names) if names is not None else None

    def to_json(self) -> dict[str, Any]:
        return self.data


def rag_result(question: str, paths: list[str]) -> FakeResult:
    return FakeResult(
        {
            "question": question,
            "route": {"tool": "rag", "decided_by": "rules", "reason": "conceptual"},
            "fallback": None,
            "answer": "see " + ", ".join(paths),
            "sources": [{"path": p, "start_line": 1, "end_line": 2, "score": 1.0} for p in paths],
            "tool_result": None,
            "timings": {"route": 0.01, "retrieve": 0.2, "answer": 0.0, "total": 0.21},
        }
    )


class FakeSession:
    def __init__(self, root: Path, answers: dict[str, Any]) -> None:
        self.root = root
        self.answers = answers

    def ask(self, question: str) -> FakeResult:
        answer = self.answers[question]
        if isinstance(answer, Exception):
            raise answer
        return answer


def item(n: int, repo: str, commit: str | None = None, **fields: Any) -> SuiteItem:
    values: dict[str, Any] = {
        "id": f"q{n}",
        "question": f"question {n}",
        "repo": repo,
        "commit": commit,
        "expected_route": "rag",
        "source": "test",
        "suite": "t",
    }
    values.update(fields)
    return SuiteItem(**values)


@pytest.fixture
def repos(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name in ("one", "two", "three"):
        root = tmp_path / name
        (root / "pkg").mkdir(parents=True)
        for file in ("pkg/a.py", "pkg/b.py", "pkg/c.py", "setup.py"):
            (root / file).write_text("x = 1\n", encoding="utf-8")
        made[name] = root
    return made


def make_run(repos: dict[str, Path], answers: dict[str, Any], calls: dict[str, list]) -> EvalRun:
    def resolver(spec: str, settings: Settings, *, commit: str | None = None) -> Path:
        calls["resolve"].append((spec, commit))
        return repos["two"] if commit == "bbbb" else repos["three"] if commit else Path(spec)

    def index_builder(root: Path, settings: Settings, *, progress: Any) -> tuple[str, Any]:
        calls["index"].append(root)
        return f"store:{root.name}", None

    def session_factory(
        root: Path, settings: Settings, *, store: Any, progress: Any
    ) -> FakeSession:
        calls["session"].append((root, store))
        return FakeSession(root, answers)

    def ranker(store: Any, question: str, k: int) -> list[str]:
        calls.setdefault("rank", []).append((store, question, k))
        return ["pkg/c.py", "setup.py", "pkg/a.py"]

    return EvalRun(
        settings=Settings.load(),
        session_factory=session_factory,
        index_builder=index_builder,
        resolver=resolver,
        ranker=ranker,
    )


def test_groups_index_once_per_repo_and_commit(repos: dict[str, Path]) -> None:
    url = "https://github.com/o/r"
    items = [
        item(1, str(repos["one"]), expected_files=["pkg/b.py"]),
        item(2, url, "bbbb", expected_files=["b.py"]),
        item(3, str(repos["one"]), expected_files=["pkg/c.py", "setup.py"]),
        item(4, url, "bbbb"),
        item(5, url, "cccc"),
    ]
    answers = {
        "question 1": rag_result("q", ["pkg/a.py", "pkg/b.py", "pkg/a.py"]),
        "question 2": rag_result("q", ["README.md", "pkg/b.py"]),
        "question 3": rag_result("q", ["setup.py", "pkg/a.py", "pkg/c.py"]),
        "question 4": rag_result("q", []),
        "question 5": rag_result("q", ["pkg/a.py"]),
    }
    calls: dict[str, list] = {"resolve": [], "index": [], "session": []}
    run = make_run(repos, answers, calls)
    records = run_items(items, run)
    assert [r["id"] for r in records] == ["q1", "q2", "q3", "q4", "q5"]  # order kept
    assert calls["resolve"] == [(str(repos["one"]), None), (url, "bbbb"), (url, "cccc")]
    assert [p.name for p in calls["index"]] == ["one", "two", "three"]
    assert [store for _root, store in calls["session"]] == ["store:one", "store:two", "store:three"]
    assert [g["questions"] for g in run.groups] == [2, 2, 1]
    first = records[0]
    # deduplicated, order kept; then continued by the deeper ranking (under ten files)
    assert first["ranked_files"] == ["pkg/a.py", "pkg/b.py", "pkg/c.py", "setup.py"]
    assert first["ranked_from_agent"] == 2
    assert calls["rank"][0] == ("store:one", "question 1", 30)
    assert first["scores"]["hit@1"] == 0.0
    assert first["scores"]["mrr"] == 0.5
    assert records[1]["expected_files"] == ["pkg/b.py"]  # resolved by unique suffix
    assert records[1]["scores"]["hit@1"] == 0.0
    assert records[1]["scores"]["py_hit@1"] == 1.0  # the README is skipped
    assert records[2]["scores"]["recall@1"] == 0.5
    assert records[2]["scores"]["recall@3"] == 1.0
    assert records[3]["ranked_files"] == ["pkg/c.py", "setup.py", "pkg/a.py"]
    assert "mrr" not in records[3]["scores"]  # nothing expected: not scored on files
    json.dumps(records)  # plain data


def test_a_failing_question_is_recorded_and_the_run_goes_on(repos: dict[str, Path]) -> None:
    items = [item(n, str(repos["one"]), expected_files=["pkg/a.py"]) for n in (1, 2, 3)]
    answers = {
        "question 1": rag_result("q", ["pkg/a.py"]),
        "question 2": RuntimeError("model exploded\nsecond line"),
        "question 3": rag_result("q", ["pkg/a.py"]),
    }
    calls: dict[str, list] = {"resolve": [], "index": [], "session": []}
    records = run_items(items, make_run(repos, answers, calls))
    assert [r["error"] for r in records] == [None, "RuntimeError: model exploded", None]
    assert records[1]["route"] == "error"
    assert records[1]["scores"] == {}
    assert records[2]["scores"]["hit@1"] == 1.0


def test_a_repository_that_cannot_be_checked_out_fails_only_its_questions(
    repos: dict[str, Path],
) -> None:
    items = [item(1, str(repos["one"]) + "-missing"), item(2, str(repos["one"]))]
    answers = {"question 2": rag_result("q", ["pkg/a.py"])}
    calls: dict[str, list] = {"resolve": [], "index": [], "session": []}
    run = make_run(repos, answers, calls)

    def resolver(spec: str, settings: Settings, *, commit: str | None = None) -> Path:
        if spec.endswith("-missing"):
            from codeagent.errors import RepoNotFoundError

            raise RepoNotFoundError(f"no such directory: {spec}")
        return Path(spec)

    run.resolver = resolver
    records = run_items(items, run)
    assert records[0]["error"].startswith("RepoNotFoundError: no such directory")
    assert records[1]["error"] is None


def test_structural_scores_routing_and_fallback(repos: dict[str, Path]) -> None:
    exact = FakeResult(
        {
            "route": {"tool": "ast", "decided_by": "rules", "file": "pkg/a.py"},
            "fallback": None,
            "answer": "A, B",
            "sources": [{"path": "pkg/a.py", "start_line": 1, "end_line": 9, "score": 1.0}],
            "tool_result": {"operation": "classes"},
            "timings": {"route": 0.001, "retrieve": None, "answer": 0.0, "total": 0.002},
        },
        names=["B", "A", "C"],
    )
    fell_back = rag_result("q", ["pkg/b.py"])
    fell_back.data["route"]["tool"] = "ast"
    fell_back.data["fallback"] = {"from": "ast", "reason": "symbol_not_found"}
    items = [
        item(1, str(repos["one"]), expected_route="ast", expected_symbols=["A", "B"]),
        item(2, str(repos["one"]), expected_route="ast", expected_symbols=["X"]),
        item(3, str(repos["one"]), expected_route="rag", answer_must_contain=["pkg/b.py", "nope"]),
    ]
    answers = {"question 1": exact, "question 2": fell_back, "question 3": fell_back}
    calls: dict[str, list] = {"resolve": [], "index": [], "session": []}
    records = run_items(items, make_run(repos, answers, calls))
    assert records[0]["ast_names"] == ["A", "B", "C"]
    assert records[0]["ranked_files"] == ["pkg/a.py"]  # the AST answer is not extended
    assert records[1]["ranked_files"][:2] == ["pkg/b.py", "pkg/c.py"]  # a fallback is
    assert records[0]["scores"] == {"precision": pytest.approx(2 / 3), "recall": 1.0, "exact": 0.0}
    assert records[0]["timings"] == {"route": 0.001, "total": 0.002}  # skipped stages dropped
    assert records[1]["fallback"] == "symbol_not_found"
    assert records[1]["scores"] == {"precision": 0.0, "recall": 0.0, "exact": 0.0}
    assert records[2]["scores"]["contains"] == 0.5


def test_all_ast_group_builds_no_index(repos: dict[str, Path]) -> None:
    items = [item(1, str(repos["one"]), expected_route="ast", expected_symbols=["A"])]
    answers = {"question 1": FakeResult({"route": {"tool": "ast"}, "sources": []}, names=["A"])}
    calls: dict[str, list] = {"resolve": [], "index": [], "session": []}
    records = run_items(items, make_run(repos, answers, calls))
    assert calls["index"] == []
    assert calls["session"] == [(repos["one"], None)]
    assert records[0]["scores"]["exact"] == 1.0


def test_cited_files_come_from_the_reference_answer(repos: dict[str, Path]) -> None:
    reference = "The logic is in `pkg/a.py` (line 3) and c.py; see also docs/x.py and a.py."
    items = [item(1, str(repos["one"]), reference_answer=reference)]
    answers = {"question 1": rag_result("q", ["pkg/c.py", "pkg/b.py"])}
    calls: dict[str, list] = {"resolve": [], "index": [], "session": []}
    (record,) = run_items(items, make_run(repos, answers, calls))
    assert record["cited_files"] == ["pkg/a.py", "pkg/c.py"]  # docs/x.py does not exist
    assert record["scores"]["cited_recall@1"] == 0.5
    assert record["scores"]["cited_recall@3"] == 0.5  # c.py, b.py, setup.py
    assert record["scores"]["cited_recall@10"] == 1.0  # pkg/a.py fourth


def test_judge_scores_are_recorded(repos: dict[str, Path]) -> None:
    items = [item(n, str(repos["one"]), reference_answer="ref") for n in (1, 2)]
    answers = {n: rag_result("q", ["pkg/a.py"]) for n in ("question 1", "question 2")}
    calls: dict[str, list] = {"resolve": [], "index": [], "session": []}
    run = make_run(repos, answers, calls)
    seen: list[str] = []

    def judge(it: SuiteItem, answer: str) -> dict[str, Any]:
        seen.append(it.id)
        if it.id == "q2":
            raise ValueError("judge down")
        return {"correctness": 7, "completeness": 5, "rationale": ""}

    run.judge = judge
    records = run_items(items, run)
    assert seen == ["q1", "q2"]
    assert records[0]["judge"]["correctness"] == 7
    assert records[1]["judge"] == {"error": "ValueError: judge down"}


def test_ast_names_are_rebuilt_from_the_tool_result_dump(tmp_path: Path) -> None:
    from codeagent.eval.record import ast_names
    from codeagent.tools.ast_tool import run_ast_query

    (tmp_path / "m.py").write_text("class A:\n    pass\n\nclass B(A):\n    pass\n", "utf-8")
    dump = run_ast_query(tmp_path, "m.py", "classes").model_dump(mode="json")
    assert ast_names(object(), json.loads(json.dumps(dump))) == ["A", "B"]
    assert ast_names(object(), None) is None
