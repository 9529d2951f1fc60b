"""Mine (question, code) pairs that look like what users ask, to tune the embedder on.

    python eval/tune_pairs.py --mirrors DIR --out OUT.jsonl [--repos OWNER/NAME,...]
        [--history 4000] [--per-repo 1500] [--seed 41]

Each line of ``OUT.jsonl`` is one pair: ``query``, ``positive`` (a chunk's embedding text, as
:attr:`codeagent.records.Chunk.embed_text` makes it), ``negative`` (a hard negative: the chunk
of another file that a TF-IDF search ranks first for the query), ``kind``, ``repo``, ``id``.
Kinds, all taken from the repositories given (the fitting side only: never a ``choose`` or
``sealed`` repository of ``src/codeagent/eval/corpus.json``, nor a benchmark repository of the
choosing side):

- ``issue``: a SWE-bench issue report (``../shared/bench/swebench-loc/dev.jsonl``) of the
  repository → each function its gold patch edits (``expected_spans``), read at ``base_commit``;
- ``how``: a SWE-QA how-question (``../shared/bench/swe-qa/NAME.jsonl``) → the chunk of its
  cited source files closest (TF-IDF) to the question and its reference answer;
- ``commit``: a pseudo-issue from a commit that qualifies as :mod:`mine_commits` says: the
  message with file paths and module file names taken out (an issue names a symptom, not the
  file) → the function the commit changes, read at the parent;
- ``test``: the test function a commit adds or changes (its name and body) → the same function;
- ``report``: the pseudo-issue with that test below it as the snippet that shows the bug (the
  shape of a report with code in it) → the same function.

No pair is made from a file the pair's question names by path, and a negative is never from a
file the commit or patch changes. The pairs stay out of this repository (other projects' text).
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mine_commits import clean_message, commits, is_example

from codeagent.eval.functions import functions_in
from codeagent.eval.sources import is_source
from codeagent.eval.splits import CORPUS
from codeagent.index.chunking import chunk_file
from codeagent.records import Chunk

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
_PATHISH = re.compile(r"\S*[\w-]+\.py\b|\b[\w.-]+/[\w./-]+")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
DEFS = ("function", "method", "class")
KINDS = ("issue", "how", "commit", "test", "report")
QUERY_CHARS = 1500  # the model reads 128 tokens; longer text is cut anyway
TEST_CHARS = 1200  # a snippet as an issue carries it, not a whole test module


class Blobs:
    """``git cat-file --batch`` over one mirror: a file's text at a commit, or None."""

    def __init__(self, mirror: Path) -> None:
        self.proc = subprocess.Popen(
            ["git", "--git-dir", str(mirror), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def text(self, commit: str, path: str) -> str | None:
        assert self.proc.stdin
        assert self.proc.stdout
        self.proc.stdin.write(f"{commit}:{path}\n".encode())
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        header = line.split()  # "<oid> <type> <size>" or "<object> missing" (spaces in a path)
        if line.rstrip().endswith(b" missing") or len(header) != 3:
            return None
        data = self.proc.stdout.read(int(header[2]))
        self.proc.stdout.read(1)
        return data.decode("utf-8", "replace")


def _defs(path: str, text: str | None) -> list[Chunk]:
    if text is None:
        return []
    try:
        return [c for c in chunk_file(path, text) if c.kind in DEFS]
    except (SyntaxError, ValueError, RecursionError):
        return []


def _touching(chunks: list[Chunk], lines: set[int]) -> list[Chunk]:
    """The innermost definitions that hold one of ``lines`` (methods before their class)."""
    hit = [c for c in chunks if any(c.start_line <= n <= c.end_line for n in lines)]
    return sorted(hit, key=lambda c: (c.kind == "class", c.end_line - c.start_line))


def _changed(mirror: Path, parent: str, sha: str) -> dict[str, tuple[set[int], set[int]]]:
    """Per changed file, the old-side and new-side line numbers a ``-U0`` diff touches."""
    out = subprocess.run(
        ["git", "--git-dir", str(mirror), "diff", "-U0", "--no-renames", parent, sha, "--", "*.py"],
        capture_output=True,
        text=True,
        errors="replace",
    ).stdout
    found: dict[str, tuple[set[int], set[int]]] = {}
    for part in out.split("\ndiff --git "):
        name = re.search(r"^\+\+\+ b/(.+)$", part, re.MULTILINE)
        if not name:
            continue
        old: set[int] = set()
        new: set[int] = set()
        for a, b, c, d in _HUNK.findall(part):
            a_n, b_n, c_n, d_n = int(a), int(b or 1), int(c), int(d or 1)
            old.update(range(a_n, a_n + max(b_n, 1)))
            new.update(range(c_n, c_n + max(d_n, 1)))
        found[name.group(1)] = (old, new)
    return found


def test_defs(blobs: Blobs, sha: str, path: str, lines: set[int]) -> list[Chunk]:
    """The test functions of ``path`` at ``sha`` that hold one of ``lines`` (innermost first)."""
    return [
        c
        for c in _touching(_defs(path, blobs.text(sha, path)), lines)
        if c.symbol.rpartition(".")[2].startswith("test")
    ]


def pseudo_issue(message: str) -> str:
    """A commit message as an issue would say it: without the file paths it names."""
    return re.sub(r"[ \t]+", " ", _PATHISH.sub(" ", message)).strip()


def report(message: str, test: str) -> str:
    """A bug report as users write one: what goes wrong, then a snippet that shows it (the
    layout of :mod:`issue_items`, whose items are judged on, not fitted)."""
    return f"{message}\n\nA test that shows it:\n```python\n{test[:TEST_CHARS]}\n```"


def qualifying(
    mirror: Path, repo: str, history: int, seed: int
) -> Iterator[tuple[str, str, str, dict[str, tuple[set[int], set[int]]]]]:
    """The commits that qualify as :mod:`mine_commits` says, drawn without reading them (the
    first ``history`` shuffled by ``random.Random(f"{seed}:{repo}")``): each as (cleaned
    message, sha, parent, per changed file the lines :func:`_changed` gives)."""
    rows = commits(mirror)[:history]
    random.Random(f"{seed}:{repo}").shuffle(rows)
    for row in rows:
        message = clean_message(str(row["message"]))
        changes = row["changes"]
        assert isinstance(changes, list)
        if not row["parent"] or not is_example(
            message.partition("\n")[0], message, str(row["author"]), changes
        ):
            continue
        sha, parent = str(row["sha"]), str(row["parent"])
        yield message, sha, parent, _changed(mirror, parent, sha)


def commit_pairs(
    mirror: Path, repo: str, history: int, cap: int, seed: int
) -> list[dict[str, Any]]:
    blobs = Blobs(mirror)
    found: list[dict[str, Any]] = []
    for message, sha, parent, changed in qualifying(mirror, repo, history, seed):
        if len(found) >= cap:
            break
        query = pseudo_issue(message)[:QUERY_CHARS]
        for path, (old, _new) in changed.items():
            if not is_source(path, "python"):
                continue
            hit = _touching(_defs(path, blobs.text(parent, path)), old)
            if not hit:
                continue
            found.append(_pair(query, hit[0], "commit", repo, sha, changed))
            tests = [p for p in changed if not is_source(p, "python") and "test" in p]
            for test in tests[:1]:
                t_hit = test_defs(blobs, sha, test, changed[test][1])
                if t_hit:
                    t_query = f"{t_hit[0].symbol}\n{t_hit[0].text}"[:QUERY_CHARS]
                    found.append(_pair(t_query, hit[0], "test", repo, sha, changed))
                    if query:
                        found.append(
                            _pair(
                                report(query, t_hit[0].text), hit[0], "report", repo, sha, changed
                            )
                        )
            break  # one function per commit: the first changed source file's
    return found


def _pair(
    query: str, chunk: Chunk, kind: str, repo: str, ident: str, changed: Any
) -> dict[str, Any]:
    return {
        "query": query,
        "positive": chunk.embed_text,
        "path": chunk.path,
        "exclude": sorted(changed),
        "kind": kind,
        "repo": repo,
        "id": f"{repo}@{ident[:12]}",
    }


def issue_pairs(mirror: Path, repo: str) -> list[dict[str, Any]]:
    blobs = Blobs(mirror)
    found = []
    for line in (BENCH / "swebench-loc" / "dev.jsonl").open():
        item = json.loads(line)
        if item["repo"] != repo:
            continue
        for path, names in (item.get("expected_spans") or {}).items():
            text = blobs.text(item["base_commit"], path)
            if text is None or not path.endswith(".py"):
                continue
            try:
                spans = functions_in(ast.parse(text))
            except (SyntaxError, ValueError):
                continue
            chunks = _defs(path, text)
            for name in names:
                if name in spans:
                    first, last = spans[name]
                    hit = _touching(chunks, set(range(first, last + 1)))
                    if hit:
                        query = item["problem_statement"][:QUERY_CHARS]
                        found.append(
                            _pair(
                                query,
                                hit[0],
                                "issue",
                                repo,
                                item["instance_id"],
                                item["gold_files"],
                            )
                        )
    return found


def _pool(mirror: Path) -> list[Chunk]:
    """The definitions of the repository's source files at ``HEAD``: where negatives come from."""
    names = subprocess.run(
        ["git", "--git-dir", str(mirror), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True,
        text=True,
    ).stdout.split()
    blobs = Blobs(mirror)
    return [c for n in names if is_source(n, "python") for c in _defs(n, blobs.text("HEAD", n))]


def how_pairs(repo: str, pool: list[Chunk], search: Any) -> list[dict[str, Any]]:
    """SWE-QA how-questions of ``repo``: the chunk of a cited source file closest to the
    question and its reference answer (TF-IDF over the ``HEAD`` pool)."""
    bench = BENCH / "swe-qa" / f"{repo.partition('/')[2]}.jsonl"
    suite = Path(__file__).with_name(f"swe-qa-{repo.partition('/')[2]}.jsonl")
    if not bench.is_file() or not suite.is_file():
        return []
    found = []
    for n, line in enumerate(suite.open()):
        item = json.loads(line)
        files = {f for f in item.get("expected_files") or [] if is_source(f, "python")}
        text = f"{item['question']}\n{item.get('reference_answer') or ''}"
        for index in search(text, 50):
            if pool[index].path in files:
                found.append(_pair(item["question"], pool[index], "how", repo, f"qa{n}", files))
                break
    return found


def add_negatives(pairs: list[dict[str, Any]], pool: list[Chunk], search: Any) -> None:
    """Each pair's negative: the best TF-IDF chunk of a file the pair does not change."""
    for pair in pairs:
        # by file name: a file may have moved since (``requests/`` → ``src/requests/``)
        skip = {Path(p).name for p in [*pair["exclude"], pair["path"]]}
        for index in search(pair["query"], 30):
            if Path(pool[index].path).name not in skip:
                pair["negative"] = pool[index].embed_text
                break


def _searcher(pool: list[Chunk]) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(token_pattern=r"[A-Za-z_][A-Za-z0-9_]{2,}", sublinear_tf=True)
    matrix = vec.fit_transform([c.embed_text for c in pool])

    def search(text: str, k: int) -> list[int]:
        scores = (matrix @ vec.transform([text]).T).toarray().ravel()
        return [int(i) for i in scores.argsort()[::-1][:k]]

    return search


def fit_repos() -> list[str]:
    """The fitting side: the benchmark repositories fitted on, then the corpus's fit split."""
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    return [*corpus["bench"]["fit"], *corpus["fit"]]


def main() -> None:
    global BENCH
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--repos",
        default="fit",
        help="the fitting side's repositories with a mirror (none of choose or sealed); "
        "'fit' (the default): the corpus's fit split and the fit side's benchmark repositories",
    )
    parser.add_argument("--bench", type=Path, default=BENCH, help="the shared bench folder")
    parser.add_argument("--history", type=int, default=4000)
    parser.add_argument("--per-repo", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    BENCH = args.bench
    pairs: list[dict[str, Any]] = []
    for repo in fit_repos() if args.repos == "fit" else args.repos.split(","):
        mirror = args.mirrors / repo.replace("/", "+") / "repo"
        if not mirror.is_dir():
            sys.exit(f"error: no mirror of {repo} at {mirror}")
        pool = _pool(mirror)
        search = _searcher(pool)
        got = issue_pairs(mirror, repo) + how_pairs(repo, pool, search)
        got += commit_pairs(mirror, repo, args.history, args.per_repo, args.seed)
        add_negatives(got, pool, search)
        got = [p for p in got if "negative" in p]
        kinds = {k: sum(p["kind"] == k for p in got) for k in KINDS}
        print(f"{repo}: {len(got)} pairs {kinds} (pool {len(pool)})", file=sys.stderr, flush=True)
        pairs += got
    with args.out.open("w") as out:
        for pair in pairs:
            out.write(json.dumps(pair) + "\n")


if __name__ == "__main__":
    main()
