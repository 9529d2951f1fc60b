"""A how-question is shown a function from its start when a later window of it is what
matched, if the function is short enough to be read from its start (the windows before it are
joined to it); a long one is shown as it matched.

Each case is a real index of a git repository built here; where each function starts is
written down here by hand (the line of its ``func``), not asked of the code under test."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.function_heads import SPAN
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

QUESTION = "how are the read and write timeouts set when a connection is opened?"


def _dial(setup_lines: int) -> str:
    """A Go file whose ``Dial`` (line 4 on) sets its timeouts at its end, after
    ``setup_lines`` lines of other work."""
    setup = "".join(
        f"\tbuf{n} := make([]byte, size+{n})\n\tconn.add(buf{n})\n" for n in range(setup_lines // 2)
    )
    return (
        "package net\n\n"
        "// Dial opens a connection to the address.\n"
        "func Dial(address string, size int, opts Options) (*Conn, error) {\n"
        "\tconn := &Conn{address: address}\n"
        f"{setup}"
        "\t// the read timeout and the write timeout of the connection\n"
        "\tconn.readTimeout = opts.ReadTimeout\n"
        "\tconn.writeTimeout = opts.WriteTimeout\n"
        "\tif opts.ReadTimeout > 0 || opts.WriteTimeout > 0 {\n"
        "\t\tconn.deadline(opts.ReadTimeout, opts.WriteTimeout)\n"
        "\t}\n"
        "\treturn conn, nil\n"
        "}\n"
    )


def _orders(text: str, git_repo: GitRepoFactory) -> tuple[list[int], list[tuple[int, int]], int]:
    """The first lines of ``Dial``'s windows by score, the spans shown, ``Dial``'s length."""
    path = "net/dial.go"
    store, _ = load_or_build(git_repo({path: text}), Settings.load(embed="none"))
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    by_score = [store.chunks[i].start_line for i in ranking.chunks_of(path)]
    shown = [(h.start_line, h.end_line) for h in retrieve(store, QUESTION, 3)]
    lines = max(c.end_line for c in store.chunks if c.symbol == "Dial") - 3
    return by_score, shown, lines


def test_a_short_function_is_shown_from_its_start(git_repo: GitRepoFactory) -> None:
    by_score, shown, lines = _orders(_dial(50), git_repo)
    assert lines <= SPAN
    assert by_score[0] != 3  # its later window holds the question's words
    assert shown[0][0] == 3, shown  # its doc comment's line: the function's first window
    # one window from the function's first line through the one that matched, in its place
    assert shown[0][1] > by_score[0], (shown, by_score)


def test_a_long_function_is_shown_as_it_matched(git_repo: GitRepoFactory) -> None:
    by_score, shown, lines = _orders(_dial(2 * SPAN), git_repo)
    assert lines > SPAN
    assert shown[0][0] == by_score[0] != 3, (shown, by_score)


def _documented(doc_lines: int) -> str:
    """A Java class whose ``forFields`` (its signature on line ``doc_lines + 6``) is documented
    by ``doc_lines`` lines, the first 25 of which say what the question asks."""
    doc = "".join(
        f"     * Returns a formatter that outputs only the chosen fields, note {n}.\n"
        if n < 25
        else f"     * See also the remark number {n} of the class.\n"
        for n in range(doc_lines)
    )
    body = "".join(f"        builder.append(fields.get({n}));\n" for n in range(30))
    return (
        "package time;\n\n"
        "public class Formats {\n"
        "    /**\n"
        f"{doc}"
        "     */\n"
        "    public static Formatter forFields(List<Field> fields) {\n"
        "        Builder builder = new Builder();\n"
        f"{body}"
        "        return builder.toFormatter();\n"
        "    }\n"
        "}\n"
    )


def test_a_window_of_documentation_is_shown_with_its_code(git_repo: GitRepoFactory) -> None:
    question = "how do I get a formatter that outputs only the chosen fields?"
    path = "src/time/Formats.java"
    for doc_lines in (60, 120):  # a first window of comment, and the two first
        signature = doc_lines + 6
        store, _ = load_or_build(
            git_repo({path: _documented(doc_lines)}), Settings.load(embed="none")
        )
        first = store.chunks[rank_files(store, question, analyze(question)).chunks_of(path)[0]]
        assert first.end_line < signature  # what matched best is the documentation alone
        shown = retrieve(store, question, 3)[0]
        assert shown.start_line <= signature <= shown.end_line, (
            doc_lines,
            shown.start_line,
            shown.end_line,
        )
