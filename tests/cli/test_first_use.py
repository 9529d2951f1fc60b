"""First use as a new user meets it, read from the real output: no nagging, why it searched,
each source once with its indentation, the bare command, progress off a terminal, the cache
commands, follow-ups without an LLM, skipped files by path, plain-sentence errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.cli.common import Progress
from codeagent.cli.render import NO_LLM_AUTO

from .clirun import run, run_in_terminal

RETRY = """\
import time


def retry(call, times):
    \"\"\"Call until it works.\"\"\"
    for attempt in range(times):
        try:
            return call()
        except OSError:
            if attempt > 2:
                time.sleep(backoff(attempt))
    raise RuntimeError("gave up")


def backoff(attempt):
    return 2 ** attempt
"""
FILES = {"net/retry.py": RETRY, "README.md": "# demo\n"}
AST_Q = "list the classes in geo/shapes.py"
RAG_Q = "how does the backoff attempt sleep work?"


@pytest.fixture
def repo(git_repo, shapes: str) -> Path:
    return git_repo({**FILES, "geo/shapes.py": shapes}, name="demo_repo")


def base(repo: Path, *extra: str) -> list[str]:
    return ["--repo", str(repo), "--embed", "none", *extra]


# -- 12.1 no nagging ----------------------------------------------------------------------


def test_an_explicit_llm_none_is_never_remarked_on(repo: Path) -> None:
    for question in (AST_Q, RAG_Q):
        result = run("ask", question, *base(repo, "--llm", "none"))
        assert result.code == 0, result.err
        assert "LLM" not in result.err
        assert "doctor" not in result.err + result.out


def test_an_auto_fallback_is_said_once_briefly_after_the_answer(repo: Path) -> None:
    result = run("ask", AST_Q, *base(repo))  # --llm auto; OLLAMA_HOST answers nothing
    assert result.code == 0, result.err
    assert result.err.count(NO_LLM_AUTO) == 1
    assert result.err.strip().splitlines()[-1] == NO_LLM_AUTO
    assert len(NO_LLM_AUTO) < 100
    assert "ollama serve" not in result.err  # the long advice is in `codeagent doctor`
    script = f"{AST_Q}\n{AST_Q}\n/exit\n"
    session = run(*base(repo), input=script)  # the bare command: the REPL
    assert session.code == 0, session.err
    assert session.err.count(NO_LLM_AUTO) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", "   "], "error: the question is empty"),
        (["ask", RAG_Q, "--embed", "bogus"], "error: unknown embedder"),
    ],
)
def test_no_notice_precedes_an_unrelated_error(repo: Path, args: list[str], message: str) -> None:
    result = run(*args, "--repo", str(repo))
    assert result.code != 0
    assert result.err.strip().splitlines()[0].startswith(message), result.err
    assert len(result.err.strip().splitlines()) == 1


# -- 12.2 why it searched ----------------------------------------------------------------


def test_one_dim_line_says_why_a_question_went_to_search(repo: Path) -> None:
    searched = run("ask", RAG_Q, *base(repo, "--llm", "none"))
    lines = [ln for ln in searched.err.splitlines() if ln.startswith("searching the repository")]
    assert lines == ["searching the repository (a how/why question)"]
    exact = run("ask", AST_Q, *base(repo, "--llm", "none"))
    assert "searching" not in exact.err
    fell_back = run("ask", "methods of class Square in geo/shapes.py", *base(repo, "--llm", "none"))
    lines = [ln for ln in fell_back.err.splitlines() if ln.startswith("searching")]
    assert len(lines) == 1
    assert "instead: the AST tool could not answer" in lines[0]
    assert "Square" in lines[0]
    assert "AST tool failed" not in fell_back.err  # said once, not twice


# -- 12.3 the answer without an LLM ------------------------------------------------------


def _blocks(out: str) -> dict[str, dict[int, str]]:
    """The deterministic answer's sources: ``path:start-end`` -> {line number: text}."""
    blocks: dict[str, dict[int, str]] = {}
    current: dict[int, str] = {}
    for line in out.splitlines():
        header = re.match(r"^\d+\. (\S+:\d+-\d+)", line)
        numbered = re.match(r"^\s+(\d+) \| (.*)$", line)
        if header:
            current = blocks.setdefault(header.group(1), {})
        elif numbered:
            current[int(numbered.group(1))] = numbered.group(2)
    return blocks


def test_each_source_once_with_indentation_kept_and_no_scores(repo: Path) -> None:
    result = run("ask", RAG_Q, *base(repo, "--llm", "none"))
    assert result.code == 0, result.err
    out = result.out
    assert "Sources:" not in out
    assert "score" not in out
    blocks = _blocks(out)
    assert blocks
    assert all(out.count(location) == 1 for location in blocks)
    original = RETRY.splitlines()
    indented = 0
    for location, shown in blocks.items():
        if not location.startswith("net/retry.py:"):
            continue
        # indentation as in the file, relative to the least indented line shown
        indent = min(len(original[n - 1]) - len(original[n - 1].lstrip()) for n in shown)
        for n, text in shown.items():
            assert text == original[n - 1][indent:].rstrip()
            indented += text.startswith(" ")
    assert indented  # the retry loop's body is shown indented under its loop
    payload = json.loads(run("ask", RAG_Q, *base(repo, "--llm", "none", "--json")).out)
    assert all(isinstance(s["score"], float) for s in payload["sources"])


def test_matched_terms_are_highlighted_on_a_terminal(repo: Path) -> None:
    code, output = run_in_terminal("ask", RAG_Q, *base(repo, "--llm", "none"))
    assert code == 0, output
    assert re.search(r"\x1b\[1;33m(?i:backoff)\x1b\[0m", output)
    piped = run("ask", RAG_Q, *base(repo, "--llm", "none"))
    assert "\x1b" not in piped.out


# -- 12.4 the bare command ---------------------------------------------------------------


def test_a_question_on_the_bare_command_is_asked(repo: Path) -> None:
    for args in (
        [AST_Q, *base(repo, "--llm", "none")],
        [*base(repo, "--llm", "none"), AST_Q],
        ["-v", *base(repo, "--llm", "none", "-k", "3"), "list", "the", "classes", "in",
         "geo/shapes.py"],
    ):  # fmt: skip
        result = run(*args)
        assert result.code == 0, result.err
        assert "geo/shapes.py:6-11  class Circle(Shape)" in result.out


def test_no_question_starts_the_repl_with_its_options(repo: Path) -> None:
    result = run(*base(repo, "--llm", "none", "-k", "2"), input=f"{AST_Q}\n/exit\n")
    assert result.code == 0, result.err
    assert result.out.startswith(f"codeagent: {repo}")
    assert "class Circle(Shape)" in result.out


def test_a_folder_that_is_no_repository_is_not_indexed_unasked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "notes.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(folder)
    refused = run("--llm", "none", input="")
    assert refused.code == 2
    assert refused.err.strip() == (
        f"error: {folder} is not a git repository; pass --repo PATH, or --yes to index it anyway"
    )
    agreed = run("--llm", "none", "--yes", input="/exit\n")
    assert agreed.code == 0, agreed.err
    code, output = run_in_terminal("--llm", "none", cwd=folder, answers=("n\r",))
    assert "is not a git repository. Index everything under it? [y/N]" in output
    assert code == 1
    assert "aborted" in output


# -- 12.5 a first index is never silent --------------------------------------------------


def test_off_a_terminal_progress_is_a_line_every_few_seconds() -> None:
    now = [0.0]
    lines: list[str] = []
    progress = Progress(enabled=False, interval=5, clock=lambda: now[0], echo=lines.append)
    with progress.task("embedding", total=300, expect=42.4) as advance:
        for _ in range(30):
            now[0] += 1.0
            advance(10)
    assert (
        lines[0]
        == "indexing: embedding 300 chunks, roughly 42 s (once: later runs reuse the index)"
    )
    assert lines[1] == "embedding: 50/300 chunks, 10.0/s, about 25 s left"
    assert len(lines) == 1 + 5 + 1  # announced, one line every 5 s but at the end, the end
    assert lines[-1] == "embedding: 300/300 chunks in 30 s"


def test_time_left_follows_the_measured_rate_not_the_warm_up() -> None:
    # 20 s pass before the first batch (the model loads or is exported), then 10 chunks a
    # second: the time left is the rest at 10 a second, not at the average since the start.
    now = [0.0]
    lines: list[str] = []
    progress = Progress(enabled=False, interval=5, clock=lambda: now[0], echo=lines.append)
    with progress.task("embedding", total=1000) as advance:
        now[0] = 20.0
        advance(10)
        for _ in range(10):
            now[0] += 1.0
            advance(10)
    assert lines[1] == "embedding: 10/1,000 chunks"  # no rate measured yet
    assert lines[2] == "embedding: 60/1,000 chunks, 10.0/s, about 2 min left"  # 94 s
    assert lines[3] == "embedding: 110/1,000 chunks, 10.0/s, about 89 s left"


def test_the_first_index_says_how_long_before_it_starts(repo: Path) -> None:
    result = run("index", "--repo", str(repo), "--embed", "hash:32")
    assert result.code == 0, result.err
    # the hash embedder has no estimate (it takes no time): what and that it is once
    assert re.search(r"^indexing: embedding \d+ chunks \(once: later runs", result.err, re.M)
    again = run("index", "--repo", str(repo), "--embed", "hash:32")
    assert "indexing:" not in again.err  # reused


# -- 12.6 cache and doctor output --------------------------------------------------------


def test_cache_list_fits_80_columns_and_drops_empty_rows(repo: Path) -> None:
    assert run("index", "--repo", str(repo), "--embed", "none").code == 0
    listed = run("cache", "list").out.splitlines()
    assert listed[0].split() == ["states", "size", "last", "used", "repository"]
    assert listed[1].split()[0] == "1"
    assert listed[1].endswith(str(repo))  # whole, never folded
    assert len(listed[1]) - len(str(repo)) <= 40
    assert run("cache", "prune", "--keep", "0").out.strip() == "removed 1 index state"
    assert run("cache", "list").out.startswith("no cached indexes")


def test_cache_clear_with_stdin_at_its_end_is_aborted() -> None:
    result = run("cache", "clear", input="")
    assert result.code == 1
    assert result.err.strip().splitlines()[-1] == "aborted"
    assert "interrupted" not in result.err


def test_doctor_columns_line_up() -> None:
    out = run("doctor").out
    labelled = [ln for ln in out.splitlines()[1:] if not ln.startswith(("  ", "problem"))]
    assert len(labelled) >= 6
    for line in labelled:
        assert re.match(r"^.{15} \S", line), line


def test_one_chunk_embedded_is_singular(git_repo) -> None:
    root = git_repo({"a.py": "x = 1\n"})
    out = run("index", "--repo", str(root), "--embed", "hash:32").out
    assert ": 1 file, 1 chunk" in out
    assert "1 chunk embedded" in out


# -- 12.7 follow-ups without an LLM ------------------------------------------------------


def test_follow_ups_resolve_against_the_last_file_and_symbol(repo: Path) -> None:
    script = "\n".join(
        [
            AST_Q,
            "list the functions in that file",
            "methods of class Circle in geo/shapes.py",
            "show its definition",
            "what about the ones in its base class?",
            "/exit",
        ]
    )
    result = run(*base(repo, "--llm", "none"), input=script + "\n")
    assert result.code == 0, result.err
    assert "read as: list the functions in geo/shapes.py" in result.err
    assert "Top-level functions in geo/shapes.py" in result.out
    assert "read as: show the definition of Circle in geo/shapes.py" in result.err
    assert "def __init__(self, r):" in result.out  # Circle's source
    assert "follow-ups like this need an LLM" in result.err


# -- 12.8 skipped files by path ----------------------------------------------------------


def test_vv_lists_skipped_files_by_path_and_reason(git_repo) -> None:
    root = git_repo(
        {"a.py": "x = 1\n", ".env": "TOKEN=1\n", "web/app.min.js": "var a=1;" * 400 + "\n"}
    )
    result = run("-vv", "index", "--repo", str(root), "--embed", "none")
    assert result.code == 0, result.err
    assert re.search(r"skipped \.env: secret$", result.err, re.M)
    assert re.search(r"skipped web/app\.min\.js: minified$", result.err, re.M)


# -- 11.12 plain sentences ---------------------------------------------------------------


@pytest.mark.parametrize("command", [["ask", "x"], ["repl"], []])
def test_k_out_of_range_is_one_plain_sentence(command: list[str], repo: Path) -> None:
    result = run(*command, "--repo", str(repo), "-k", "0")
    assert result.code == 2
    assert result.err == "error: -k must be between 1 and 100 (got 0)\n"


def test_a_cache_rebuild_is_announced_as_a_plain_sentence(repo: Path, env_setup: Path) -> None:
    assert run("index", "--repo", str(repo), "--embed", "none").code == 0
    entry = next(p for p in (env_setup / "cache").glob("*/*") if p.is_dir())
    victim = next(p for p in sorted(entry.iterdir()) if p.name != "manifest.json" and p.is_file())
    victim.write_bytes(b"garbage")
    result = run("index", "--repo", str(repo), "--embed", "none")
    assert result.code == 0, result.err
    notes = [ln for ln in result.err.splitlines() if "rebuild" in ln]
    assert len(notes) == 1, result.err
    assert not notes[0].startswith(("WARNING", "INFO", "DEBUG"))
    assert "codeagent.index" not in notes[0]


# -- 11.4 repository text cannot act on the terminal ------------------------------------

EVIL = "def backoff_evil():\n    return '\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eoops'\n"


@pytest.fixture
def evil_repo(git_repo) -> Path:
    return git_repo({"evil.py": EVIL, "new\nline.py": "def backoff_line():\n    pass\n"})


def _no_control(text: str) -> None:
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", text), repr(text)


def test_file_content_and_names_cannot_act_on_the_terminal(evil_repo: Path) -> None:
    question = "where is backoff evil pwned and backoff line?"
    result = run("ask", question, *base(evil_repo, "--llm", "none"))
    assert result.code == 0, result.err
    _no_control(result.out)
    _no_control(result.err)
    assert "\\x1b]0;pwned\\x07" in result.out  # shown, inert
    assert '"new\\nline.py":1-2' in result.out  # the name quoted, on one line
    exact = json.loads(run("ask", question, *base(evil_repo, "--llm", "none", "--json")).out)
    assert "\x1b]0;pwned\x07" in exact["answer"]  # --json stays exact
    assert "new\nline.py" in {s["path"] for s in exact["sources"]}
    session = run(*base(evil_repo, "--llm", "none"), input=f"{question}\n/sources\n/exit\n")
    _no_control(session.out)
    assert '"new\\nline.py":1-2' in session.out


def test_a_repository_path_cannot_act_on_the_terminal(git_repo) -> None:
    root = git_repo({"a.py": "x = 1\n"}, name="evil\x1b[2Jrepo")
    for args in (["index", "--repo", str(root), "--embed", "none"], ["cache", "list"]):
        result = run(*args)
        assert result.code == 0, result.err
        _no_control(result.out)
        assert "evil\\x1b[2Jrepo" in result.out


def test_an_ast_answer_cannot_act_on_the_terminal(git_repo) -> None:
    root = git_repo({"m.py": "def f():\n    '''\x1b[31mred\x1b[0m'''\n"})
    result = run("ask", "show the definition of f in m.py", *base(root, "--llm", "none"))
    assert result.code == 0, result.err
    _no_control(result.out)
    assert "\\x1b[31mred" in result.out


def test_the_bare_command_reads_a_script_from_stdin_off_a_terminal(repo: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "codeagent", *base(repo, "--llm", "none")],
        input="/exit\n", capture_output=True, text=True, env=os.environ.copy(), timeout=120,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("codeagent: ")
