"""eval/convert_bench.py: public benchmark records become suite lines, unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from codeagent.eval.suite import load_suite
from eval_scripts import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "eval" / "convert_bench.py"


@pytest.fixture(scope="module")
def convert() -> ModuleType:
    return load_script("convert_bench")


def test_swe_qa_items(convert: ModuleType, tmp_path: Path) -> None:
    records = [
        {"question": "How are hooks dispatched?", "answer": "See `src/req/hooks.py` and hooks.py."},
        {"question": "Where is the CLI?", "answer": "It is in the cli module; no file named."},
    ]
    items = convert.swe_qa_items("req", "https://github.com/o/req", "abc1234", records)
    assert [i["id"] for i in items] == ["swe-qa-req-01", "swe-qa-req-02"]
    assert items[0]["question"] == "How are hooks dispatched?"
    assert items[0]["reference_answer"] == records[0]["answer"]
    assert items[0]["expected_files"] == ["src/req/hooks.py", "hooks.py"]
    assert items[1]["expected_files"] == []
    assert all(i["commit"] == "abc1234" and i["expected_route"] == "rag" for i in items)
    assert "Apache-2.0" in items[0]["source"]
    # The lines load as a suite.
    path = tmp_path / "swe-qa-req.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    assert [i.id for i in load_suite(path)] == ["swe-qa-req-01", "swe-qa-req-02"]


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_named_files_are_the_single_definers_of_the_answers_code_names(
    convert: ModuleType, tmp_path: Path
) -> None:
    write(
        tmp_path,
        {
            "src/tv/__init__.py": "",
            "src/tv/hls.py": (
                "class Segment:\n    pass\n\n"
                "class SegmentPrefetch(Segment):\n"
                "    class Tag:\n        pass\n\n"
                "    def _get_streams(self):\n        pass\n\n"
                "def parse_tag(text):\n    return text\n"
            ),
            "src/tv/plugins/__init__.py": "from tv.hls import *\n",
            "src/tv/plugins/pluto.py": (
                "class Segment:\n    pass\n\n"
                "class Pluto:\n    def _get_streams(self):\n        pass\n"
            ),
            # not test_*.py: pytest's import hook would answer for it here
            "tests/hls_cases.py": "class TestHLS:\n    def test_it(self):\n        pass\n",
        },
    )
    defined, skipped = convert.definers(tmp_path)
    assert skipped == 0
    # Written out by hand from the files above: classes at any depth, module-level functions.
    assert {name: sorted(files) for name, files in defined.items()} == {
        "Segment": ["src/tv/hls.py", "src/tv/plugins/pluto.py"],
        "SegmentPrefetch": ["src/tv/hls.py"],
        "Tag": ["src/tv/hls.py"],
        "parse_tag": ["src/tv/hls.py"],
        "Pluto": ["src/tv/plugins/pluto.py"],
        "TestHLS": ["tests/hls_cases.py"],
    }
    answer = (
        "The handshake in TestHLS's test_it checks what the SegmentPrefetch class does with "
        "a Segment (two files define one, so it points nowhere); `parse_tag` reads the tag, "
        "and the Pluto class calls `_get_streams` (a method, not followed)."
    )
    assert convert.code_names(answer)[:3] == ["TestHLS", "test_it", "SegmentPrefetch"]
    assert convert.named_files(answer, defined) == [
        "tests/hls_cases.py",
        "src/tv/hls.py",
        "src/tv/plugins/pluto.py",
    ]
    records = [{"question": "q", "answer": answer}, {"question": "q", "answer": "See tv/x.py."}]
    items = convert.swe_qa_items("tv", "https://github.com/o/tv", "abc1234", records, defined)
    assert items[0]["expected_files"] == convert.named_files(answer, defined)
    assert convert.NAMED_SOURCE in items[0]["source"]
    # An answer that names a file keeps exactly the files it names.
    assert items[1]["expected_files"] == ["tv/x.py"]
    assert convert.NAMED_SOURCE not in items[1]["source"]


def test_localization_item(convert: ModuleType) -> None:
    record = {
        "instance_id": "acme__tool-12",
        "repo": "acme/tool",
        "base_commit": "0123456789abcdef0123456789abcdef01234567",
        "problem_statement": "Crash in parse()",
        "gold_files": ["tool/parse.py"],
        "expected_spans": {"tool/parse.py": ["parse"]},
        "splits": ["lite", "verified"],
    }
    item = convert.localization_item(record)
    assert item["id"] == "acme__tool-12"
    assert item["question"] == "Crash in parse()"
    assert item["repo"] == "https://github.com/acme/tool"
    assert item["commit"] == record["base_commit"]
    assert item["expected_files"] == ["tool/parse.py"]
    assert item["expected_spans"] == {"tool/parse.py": ["parse"]}  # function-level scoring
    assert item["source"].startswith("SWE-bench Lite and Verified instance acme__tool-12")
    assert "MIT" in item["source"]


def test_check_commits(convert: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "swe-qa").mkdir()
    listing = tmp_path / "swe-qa" / "repo_commit.txt"
    flask_url, flask_commit = convert.SWE_QA_REPOS["flask"]
    listing.write_text(
        f"{flask_url} {flask_commit[:7]}\nhttps://github.com/other/unknown 1234567\n",
        encoding="utf-8",
    )
    convert.check_commits(tmp_path)  # an abbreviation of ours, and a repository not converted
    listing.write_text(f"{flask_url} 1234567\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"repo_commit\.txt says"):
        convert.check_commits(tmp_path)


def test_checked_in_suites_load() -> None:
    here = SCRIPT.parent
    dev = load_suite(here / "swebench-dev.jsonl")
    assert len(dev) == 192
    assert {i.id for i in load_suite(here / "swebench-loc.jsonl")} <= {i.id for i in dev}
    for name in ("astropy", "conan", "reflex", "sqlfluff", "streamlink", "sympy"):
        assert len(load_suite(here / f"swe-qa-{name}.jsonl")) == 48


def test_a_snapshot_suite_takes_the_checkouts_head_and_its_definers(
    convert: ModuleType, tmp_path: Path
) -> None:
    import subprocess

    checkout = tmp_path / "checkout"
    write(checkout, {"pkg/__init__.py": "", "pkg/wheels.py": "class WheelBuilder:\n    pass\n"})
    git = ["git", "-C", str(checkout)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run(
        [*git, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "snapshot"],
        check=True,
    )
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    bench = tmp_path / "bench"
    write(bench, {"swe-qa/demo.jsonl": "".join(json.dumps(r) + "\n" for r in [
        {"question": "How are wheels built?", "answer": "The `WheelBuilder` class does it."},
        {"question": "Where is the cache?", "answer": "In `pkg/cache.py`."},
    ])})  # fmt: skip
    convert.snapshot_suite(bench, "demo", checkout, tmp_path / "out")
    items = list(load_suite(tmp_path / "out" / "swe-qa-demo.jsonl"))
    assert [i.commit for i in items] == [head, head]
    assert [i.expected_files for i in items] == [["pkg/wheels.py"], ["pkg/cache.py"]]


def test_a_snapshot_of_a_wrong_name_or_no_checkout_is_one_line(
    convert: ModuleType, tmp_path: Path
) -> None:
    bench = tmp_path / "bench"
    write(bench, {"swe-qa/demo.jsonl": json.dumps({"question": "q", "answer": "a"}) + "\n"})
    with pytest.raises(SystemExit, match="no SWE-QA questions for 'nosuch'"):
        convert.snapshot_suite(bench, "nosuch", tmp_path, tmp_path / "out")
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(SystemExit, match="is not a git work tree with a commit"):
        convert.snapshot_suite(bench, "demo", plain, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing half-written
