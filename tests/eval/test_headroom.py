"""eval/headroom.py on eval-dev reports built here, against counts worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.eval_scripts import load_script

headroom = load_script("headroom")


def q(repo: str, qid: str, ranker: str, hit5: bool, error: str | None = None) -> dict[str, Any]:
    return {"repo": repo, "id": qid, "ranker": ranker, "error": error,
            "scores": {"hit@1": 0.0, "hit@5": float(hit5)}}  # fmt: skip


def both(repo: str, qid: str, base: bool, product: bool) -> list[dict[str, Any]]:
    return [q(repo, qid, "baseline", base), q(repo, qid, "product", product)]


# gorilla/mux (Go): 4 questions; baseline 3/4, product 3/4, the product finds the one the
# baseline misses and loses one of its hits.
# spf13/cobra (Go): 2 questions, both rankers hit both: baseline 100 %, no room at all.
# google/gson (Java): 2 questions answered by both, baseline 0/2, product 1/2; a third
# errored for the product and is not counted.
REPORT = {
    "config": {"split": "langs", "embed": "none"},
    "questions": [
        *both("gorilla/mux", "m1", True, True),
        *both("gorilla/mux", "m2", True, True),
        *both("gorilla/mux", "m3", True, False),
        *both("gorilla/mux", "m4", False, True),
        *both("spf13/cobra", "c1", True, True),
        *both("spf13/cobra", "c2", True, True),
        *both("google/gson", "g1", False, True),
        *both("google/gson", "g2", False, False),
        q("google/gson", "g3", "baseline", True),
        q("google/gson", "g3", "product", False, error="checkout failed"),
    ],
}


def test_pairs_and_counts() -> None:
    counts = headroom.read_pairs(REPORT, 5)
    assert sorted(counts) == ["google/gson", "gorilla/mux", "spf13/cobra"]
    mux, gson = counts["gorilla/mux"], counts["google/gson"]
    assert (mux.n, mux.base, mux.product, mux.base_misses, mux.found, mux.lost) == (
        4, 75.0, 75.0, 1, 1, 1)  # fmt: skip
    assert (gson.n, gson.base, gson.product, gson.found, gson.lost) == (2, 0.0, 50.0, 1, 0)


def cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip("|").split("|")]


def test_rendered_rows() -> None:
    text = headroom.render("langs", headroom.read_pairs(REPORT, 5), 5, 10.0)
    rows = [cells(line) for line in text.splitlines() if line.startswith("| ")][1:]
    # Go first (the family order of the eval tables), then Java.
    mux = ["Go", "gorilla/mux", "4", "75.0", "75.0", "+0.0", "25.0", "1/1 (100 %)", "1", "85.0"]
    assert rows[0] == mux
    cobra = ["Go", "spf13/cobra", "2", "100.0", "100.0", "+0.0", "0.0", "0/0", "0", "out of reach"]
    assert rows[1] == cobra
    # The family: the mean of its repositories (87.5), so +10 would need 97.5.
    go = ["**Go**", "**mean of 2**", "6", "87.5", "87.5", "+0.0", "12.5", "1/1 (100 %)", "1"]
    assert rows[2] == [*go, "97.5"]
    java = ["**Java**", "**mean of 1**", "2", "0.0", "50.0", "+50.0", "100.0", "1/2 (50 %)", "0"]
    assert rows[4] == [*java, "10.0"]


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps(REPORT))
    assert headroom.main([str(report), "--target", "20"]) == 0
    out = capsys.readouterr().out
    assert "#### langs, embed none: Acc@5" in out
    rows = [cells(line) for line in out.splitlines() if line.startswith("| **Go**")]
    assert rows == [["**Go**", "**mean of 2**", "6", "87.5", "87.5", "+0.0", "12.5",
                     "1/1 (100 %)", "1", "out of reach"]]  # fmt: skip


@pytest.mark.parametrize("content", ["{not json", json.dumps({"questions": []})])
def test_bad_report(tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    report.write_text(content)
    assert headroom.main([str(report)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("headroom: ")
