"""Mine question -> files examples from git history: a commit message as the question, asked at
the commit's parent, with the source files the commit changed as the expected files.

    python eval/mine_commits.py --mirrors DIR [--repos CORPUS.json] [--per-repo 16] \
        [--seed 0] [--splits fit,choose|sealed|langs] [--language LANG] \
        [--out eval/out/mined.jsonl] [--commits FILE]

``DIR`` holds one bare mirror per repository as ``OWNER+NAME/repo`` (the layout ``codeagent
eval-dev --mirrors`` reads). The repositories are the ``fit``, ``choose`` and ``sealed`` lists
of ``src/codeagent/eval/corpus.json``; none of them has SWE-bench (Lite, Verified or full) or
SWE-QA items, so no benchmark's gold files leak into the corpus. ``langs`` holds repositories in
other languages, by family: each is mined with its family's source rule
(:mod:`codeagent.eval.sources`); ``--language`` sets one rule for every repository instead.

A commit is an example when:

- it is not a merge, and its author is not a bot;
- its message, with trailers (``Signed-off-by:``, ``Co-authored-by:``, …), pull-request
  numbers and ``[skip ci]`` markers removed, has at least :data:`MIN_WORDS` words;
- its subject is not a release, a version bump, a typo fix, formatting, linting, a revert or a
  dependency update (:data:`_BORING`);
- its subject is not a formatter's or linter's run of another language either (:data:`_TOOLS`;
  Python's are in :data:`_BORING`, which stays as the Python corpus was mined);
- it modifies 1 to 3 source files of the repository's language (outside tests, docs and
  examples, as the plain baseline counts them: :func:`codeagent.eval.sources.is_source`), every
  one of them present at the parent (status ``M``), and touches at most :data:`MAX_FILES`
  files in all.

Of the last :data:`HISTORY` non-merge commits of each mirror's ``HEAD``, the qualifying ones are
sampled with ``random.Random(f"{seed}:{repo}")``: at most ``--per-repo`` per repository. The
output is a suite in ``eval/README.md``'s format (``repo``, ``commit`` = the parent,
``expected_files``, ``expected_route`` ``rag``); ``--commits`` records the repositories and
commits used (repo, commit, parent), one line each, so the corpus can be checked and rebuilt;
a record already there that lists repositories this run mined nothing of (their mirrors
missing here) is left as it is, with one line and exit 2, unless ``--force``.
The corpus itself (other projects' commit messages) stays out of this repository.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from codeagent.errors import EvalError
from codeagent.eval.mirrors import find_mirror
from codeagent.eval.sources import LANGUAGES, is_source
from codeagent.eval.splits import LANG_SPLITS

MIN_WORDS = 12
MAX_SOURCE_FILES = 3
MAX_FILES = 12
HISTORY = 4000

_TRAILER = re.compile(
    r"^\s*(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|"
    r"suggested-by|helped-by|cc|change-id|fixes|closes|resolves|refs?|see also|"
    r"pr-url|differential revision)\s*:.*$",
    re.IGNORECASE | re.MULTILINE,
)
_NOISE = re.compile(r"\(#\d+\)|\[(skip ci|ci skip|skip-ci|no ci)\]|\bgh-\d+\b", re.IGNORECASE)
_BORING = re.compile(
    r"\b(bump(ed|s)?|release[ds]?|releasing|version \d|v?\d+\.\d+(\.\d+)?(rc\d+)?$|typos?|"
    r"spelling|reformat(ted)?|formatting|format code|black|isort|flake8|ruff|lint(ing)?|"
    r"pre-commit|revert(s|ed)?|dependabot|changelog|update (deps|dependencies|requirements))\b",
    re.IGNORECASE,
)
_TOOLS = re.compile(
    r"\b(clippy|rustfmt|cargo fmt|gofmt|go fmt|golangci|prettier|eslint|biome|tslint|"
    r"checkstyle|spotless|google-java-format)\b",
    re.IGNORECASE,
)
_BOT = re.compile(r"bot\b|\[bot\]|github-actions|pre-commit-ci", re.IGNORECASE)


def clean_message(message: str) -> str:
    """The message without trailers, pull-request numbers and CI markers; whitespace kept
    between paragraphs, each line stripped."""
    text = _NOISE.sub(" ", _TRAILER.sub("", message))
    lines = [line.strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def is_example(
    subject: str,
    message: str,
    author: str,
    changes: list[tuple[str, str]],
    language: str = "python",
) -> bool:
    """Whether a commit qualifies (see the module doc); ``changes`` are (status, path)."""
    if _BOT.search(author) or _BORING.search(subject) or subject.lower().startswith("merge"):
        return False
    if language != "python" and _TOOLS.search(subject):
        return False
    if len(message.split()) < MIN_WORDS or not changes or len(changes) > MAX_FILES:
        return False
    source = [(status, path) for status, path in changes if is_source(path, language)]
    return 1 <= len(source) <= MAX_SOURCE_FILES and all(s == "M" for s, _ in source)


def _log(mirror: Path) -> str:
    done = subprocess.run(
        [
            "git",
            "--git-dir",
            str(mirror),
            "log",
            "--no-merges",
            "--no-renames",
            f"-n{HISTORY}",
            "--format=%x1e%H%x00%P%x00%an%x00%B%x00",
            "--name-status",
            "HEAD",
        ],
        capture_output=True,
        text=True,
        errors="replace",
        check=True,
    )
    return done.stdout


def commits(mirror: Path) -> list[dict[str, object]]:
    """Every non-merge commit of the recent history: id, parent, author, message, changes."""
    found = []
    for record in _log(mirror).split("\x1e")[1:]:
        sha, parents, author, message, rest = record.split("\x00", 4)
        changes = []
        for line in rest.strip().splitlines():
            status, _, path = line.partition("\t")
            if path:
                changes.append((status[:1], path))
        parent = parents.split()[0] if parents.split() else ""
        found.append(
            {"sha": sha, "parent": parent, "author": author, "message": message, "changes": changes}
        )
    return found


def mine(
    mirror: Path, repo: str, per_repo: int, seed: int, language: str = "python"
) -> list[dict[str, object]]:
    """At most ``per_repo`` examples of ``repo`` (a sample of the qualifying commits), its
    source files those of ``language``."""
    qualifying = []
    for commit in commits(mirror):
        message = clean_message(str(commit["message"]))
        subject = message.partition("\n")[0]
        changes = commit["changes"]
        assert isinstance(changes, list)
        author = str(commit["author"])
        if commit["parent"] and is_example(subject, message, author, changes, language):
            files = [path for status, path in changes if is_source(path, language)]
            qualifying.append((commit, message, files))
    rng = random.Random(f"{seed}:{repo}")
    picked = rng.sample(qualifying, min(per_repo, len(qualifying)))
    return [
        {
            "id": f"{repo}@{str(commit['sha'])[:12]}",
            "question": message,
            "repo": repo,
            "commit": commit["parent"],
            "expected_route": "rag",
            "expected_files": files,
            "expected_symbols": None,
            "answer_must_contain": [],
            "reference_answer": None,
            "source": f"mined from the git history of {repo}: commit {commit['sha']}",
        }
        for commit, message, files in picked
    ]


def repositories(corpus: dict[str, Any], splits: str) -> list[tuple[str, str]]:
    """(repository, language family) of each of ``splits`` (comma-separated) in ``corpus``:
    ``langs`` lists its repositories by family, the other splits are Python's."""
    found: list[tuple[str, str]] = []
    for split in (part.strip() for part in splits.split(",") if part.strip()):
        listed = corpus.get(split) if split in ("fit", "choose", "sealed", *LANG_SPLITS) else None
        if split in LANG_SPLITS and isinstance(listed, dict):
            found += [
                (repo, family)
                for family, repos in listed.items()
                if isinstance(repos, list)
                for repo in repos
            ]
        elif isinstance(listed, list):
            found += [(repo, "python") for repo in listed]
        else:
            raise EvalError(f"no split {split!r} in the corpus")
    unknown = sorted({family for _, family in found} - set(LANGUAGES))
    if unknown:
        raise EvalError(f"unknown language families in the corpus: {', '.join(unknown)}")
    return found


def recorded_elsewhere(commits: Path, repos: set[str]) -> list[str]:
    """The repositories the record ``commits`` (a ``--commits`` file of an earlier run) lists
    that ``repos`` lacks, sorted; none when there is no such file."""
    if not commits.is_file():
        return []
    listed = {line.split("\t", 1)[0] for line in commits.read_text().splitlines()[1:] if line}
    return sorted(listed - repos)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument(
        "--repos",
        type=Path,
        default=Path(__file__).resolve().parents[1] / "src/codeagent/eval/corpus.json",
    )
    parser.add_argument("--per-repo", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("eval/out/mined.jsonl"))
    parser.add_argument(
        "--commits",
        type=Path,
        default=None,
        help="write the mined (repository, commit, parent) rows here; an existing record that"
        " lists repositories this run has no example of is kept unless --force",
    )
    parser.add_argument("--force", action="store_true", help="overwrite --commits in any case")
    parser.add_argument(
        "--splits",
        default="fit,choose",
        help="which of fit, choose, sealed, langs (comma-separated)",
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="the source rule for every repository (default: its corpus.json family, or python)",
    )
    args = parser.parse_args()
    try:
        repos = repositories(json.loads(args.repos.read_text()), args.splits)
    except (OSError, ValueError, EvalError) as exc:
        parser.exit(2, f"mine_commits: {exc}\n")
    examples: list[dict[str, object]] = []
    for repo, family in repos:
        mirror = find_mirror(args.mirrors, repo)
        if mirror is None:
            print(f"{repo}: no mirror, skipped", file=sys.stderr)
            continue
        language = args.language or family
        found = mine(mirror, repo, args.per_repo, args.seed, language)
        print(f"{repo} ({language}): {len(found)} examples", file=sys.stderr)
        examples.extend(found)
    if args.commits is not None and not args.force:
        lost = recorded_elsewhere(args.commits, {e["repo"] for e in examples})
        if lost:
            named = ", ".join(lost[:3]) + (", ..." if len(lost) > 3 else "")
            what = "repository" if len(lost) == 1 else "repositories"
            parser.exit(
                2,
                f"mine_commits: {args.commits} records commits of {len(lost)} {what} this run"
                f" has none of ({named}): not overwritten (--force overwrites it)\n",
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(e) + "\n" for e in examples))
    if args.commits is not None:
        rows = [
            f"{e['repo']}\t{str(e['id']).rpartition('@')[2]}\t{e['commit']}\n" for e in examples
        ]
        args.commits.write_text("repo\tcommit\tparent\n" + "".join(rows))
    print(f"{len(examples)} examples from {len(repos)} repositories -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
