"""How codeagent grows with a repository: first answer, cold index, edit, re-open, memory, disk.

Usage::

    python bench/bench_growth.py [--embed SPEC] [--models DIR] [--json OUT]
                                 [--synthetic N [N ...]] [REPO ...]

Repositories: git work trees given as REPO, and with ``--synthetic N`` a new git repository
of about N chunks made of real ``.py`` files of this interpreter's site-packages
(bench/synthetic.py; the files counted with codeagent's own chunker, the real count read back
from the index; the site-packages of the project's environment make about 300,000). With
neither, the stdlib ``json`` and ``email`` packages. Per repository, each step a fresh
process timed to its exit (wall, CPU, peak RSS from ``wait4``):

a. first answer: a fresh ``CODEAGENT_HOME``, ``codeagent ask QUESTION --llm none
   --no-server``; its "dense search: ..." line is kept, and the detached ``codeagent index``
   it starts (found with ``codeagent cache list --json``) is stopped, untimed;
b. cold: another fresh home, ``codeagent index --json``;
c. edit: a small function appended to one Python file, indexed again;
d. re-open: indexed again unchanged (also the command's own ``seconds.total``);
e. disk after (d): the state's cache entry, all states of the repository (``cache list``),
   and the embedding cache.

``--models DIR`` copies an exported model folder (a home's ``models/``) into every fresh
home, so no time includes the one-time model export; without it every fresh home exports.
Prints Markdown: one row per repository, then the slope of each measure (least squares of
log value on log chunks) and its increment per 10,000 chunks between the two largest sizes.
``--json OUT`` writes the raw numbers, again after each repository (bench/plot_growth.py
draws them). Run it under the shared lock on a shared machine.
"""

from __future__ import annotations

import argparse
import email
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import growth_steps as steps
from growth_fit import slopes_table
from synthetic import commit, fill, source_files

QUESTION = "how are errors reported?"


def bench_repo(
    repo: Path, embed: str, homes: tuple[Path, Path], models: Path | None
) -> dict[str, Any]:
    """The measures of one repository; ``homes``: the first answer's and the index's."""
    for home in homes:
        if models:
            shutil.copytree(models, home / "models")
    answer_env, env = (steps.environment(home) for home in homes)
    first, said, stopped = steps.first_answer(repo, QUESTION, embed, answer_env)
    files = sorted(steps.git(repo, "ls-files", "*.py").split())
    if not files:
        raise SystemExit(f"{repo}: no tracked Python file to edit")
    target = repo / files[len(files) // 2]
    original = target.read_bytes()
    try:
        cold = steps.index(repo, embed, env)
        target.write_bytes(original + b"\n\ndef added_by_bench(x):\n    return x + 1\n")
        edit = steps.index(repo, embed, env)
        reopen = steps.index(repo, embed, env)
    finally:
        target.write_bytes(original)
    disk = steps.disk(reopen["stats"], env)
    runs = {"first_answer": first, "cold": cold, "edit": edit, "reopen": reopen}
    mib = 2**20
    return {
        "repo": repo.name,
        "chunks": cold["stats"]["chunks"],
        "files": cold["stats"]["files_indexed"],
        "dense_said": said,
        "background": stopped,
        "runs": runs,
        "disk": disk,
        "load": os.getloadavg(),
        "measures": {
            "first_answer_s": first["wall"],
            "cold_s": cold["wall"],
            "cold_cpu_s": cold["cpu"],
            "edit_s": edit["wall"],
            "reopen_s": reopen["wall"],
            "reopen_total_s": reopen["stats"]["seconds"]["total"],
            "peak_rss_mib": max(r["rss_mib"] for r in runs.values()),
            "cold_rss_mib": cold["rss_mib"],
            "disk_mib": disk["entry_bytes"] / mib,
            "states_mib": disk["states_bytes"] / mib,
            "embeddings_mib": disk["embeddings_bytes"] / mib,
        },
    }


def row(r: dict[str, Any]) -> str:
    m = r["measures"]
    return (
        f"| {r['repo']} | {r['chunks']:,} | {r['files']:,} | {m['first_answer_s']:.2f}"
        f" | {m['cold_s']:.1f} | {m['cold_cpu_s']:.1f} | {m['edit_s']:.2f} | {m['reopen_s']:.2f}"
        f" | {m['reopen_total_s']:.3f} | {m['peak_rss_mib']:.0f} / {m['cold_rss_mib']:.0f}"
        f" | {m['disk_mib']:.1f} / {m['states_mib']:.1f} / {m['embeddings_mib']:.1f}"
        f" | {r['dense_said'].split(' (pid')[0] or '-'} | {r['load'][0]:.1f} |"
    )


HEADER = (
    "| repository | chunks | files | first answer s | cold s | cold CPU s | edit s | re-open s"
    " | re-open total s | peak RSS MiB (max / cold) | disk MiB (entry / states / embeddings)"
    " | first answer said | load |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"
)


def write_json(out: Path, embed: str, models: Path | None, results: list[dict[str, Any]]) -> None:
    raw = {
        "embed": embed,
        "models": str(models or ""),
        "question": QUESTION,
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "repos": results,
    }
    out.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")


def chunker_count(path: str, data: bytes) -> int:
    from codeagent.index.chunking import chunk_file

    return len(chunk_file(path, data.decode("utf-8", "replace")))


def synthetic_repos(work: Path, sizes: list[int]) -> list[tuple[Path, int, int]]:
    """``(repository, chunks asked, chunks counted)``; each the first files of the same
    sorted list, so a smaller one is a part of a larger one."""
    files = source_files()
    made = []
    for size in sizes:
        root = work / f"synthetic-{size}"
        root.mkdir(parents=True)
        _cursor, held = fill(root, files, 0, size, chunker_count, nearest=True)
        commit(root)
        made.append((root, size, held))
    return made


def stdlib_repos(work: Path) -> list[Path]:
    repos = []
    for package in ("json", "email"):
        source = Path(email.__file__).parent.parent / package
        dest = work / package
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        commit(dest)
        repos.append(dest)
    return repos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="*", type=Path)
    parser.add_argument("--embed", default="local")
    parser.add_argument("--synthetic", nargs="+", type=int, default=[], metavar="N")
    parser.add_argument("--models", type=Path, help="an exported model folder to copy")
    parser.add_argument("--json", type=Path, help="write the raw numbers here")
    args = parser.parse_args()
    if args.json and not args.json.parent.is_dir():
        parser.error(f"--json: no folder {args.json.parent}")
    if args.models and not args.models.is_dir():
        parser.error(f"--models: no folder {args.models}")
    if any(n < 1 for n in args.synthetic):
        parser.error("--synthetic: sizes are positive chunk counts")
    for repo in args.repos:
        if not (repo / ".git").exists():
            parser.error(f"{repo} is no git work tree")
    work = Path(tempfile.mkdtemp(prefix="codeagent-bench-growth-"))
    try:
        made = synthetic_repos(work / "synthetic", sorted(args.synthetic))
        asked = {root: (n, held) for root, n, held in made}
        repos = [p.resolve() for p in args.repos] + [root for root, _, _ in made]
        repos = repos or stdlib_repos(work)
        models = (
            f"models copied from {args.models} into every fresh home (no time includes the"
            " one-time model export)"
            if args.models
            else "no models copied (each fresh home exports the model: cold and first answer"
            " include it)"
        )
        print(f"`--embed {args.embed}`; {models}; question {QUESTION!r}")
        print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
        print(HEADER)
        results = []
        for i, repo in enumerate(repos):
            homes = (work / f"home-{i}-answer", work / f"home-{i}")
            results.append(bench_repo(repo, args.embed, homes, args.models))
            print(row(results[-1]), flush=True)
            if args.json:
                write_json(args.json, args.embed, args.models, results)
        print()
        for r, repo in zip(results, repos, strict=True):
            if repo in asked:
                n, held = asked[repo]
                off = 100 * (r["chunks"] - n) / n
                far = " (more than 15 % off)" if abs(off) > 15 else ""
                print(f"- {r['repo']}: {n:,} asked, {held:,} counted by the chunker,"
                      f" {r['chunks']:,} indexed ({off:+.1f} %){far}")  # fmt: skip
            print(f"- {r['repo']}: background build after the first answer: {r['background']}")
        print()
        print(slopes_table(results))
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        steps.stop_all(sorted(work.glob("home-*-answer")))
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
