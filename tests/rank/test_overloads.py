"""A question asking how is shown one overload of a method per file, the longest: the other
definitions of the same name say the same in their documentation, pass their call on, and took
the places of other files' code.

Each case is a real index of a git repository built here; which file does the work and which
methods are overloads is written down here by hand."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

QUESTION = "how are events below a sink's own minimum level kept from that sink?"

_DOC = (
    "    /**\n"
    "     * Write events to a sink; events below the sink's minimum level are not written,\n"
    "     * the level restricted for this sink only ({variant}).\n"
    "     */\n"
)


def _overload(n: int, parameters: str, lines: int = 6) -> str:
    body = "".join(f'        settings.add("option {n}.{m}", sink);\n' for m in range(lines))
    return (
        _DOC.format(variant=f"overload {n}")
        + f"    public Config sink({parameters}) {{\n{body}        return this;\n    }}\n\n"
    )


CONFIG = (
    "package logs;\n\npublic class Config {\n"
    + _overload(1, "Sink sink")
    + _overload(2, "Sink sink, Level minimum", lines=9)  # the longest: the one shown
    + _overload(3, "Sink sink, Level minimum, Switch levels")
    + "".join(
        f"    public Config option{n}(String name) {{\n        settings.put(name, {n});\n"
        f"        settings.check(name);\n        return this;\n    }}\n\n"
        for n in range(8)
    )
    + "}\n"
)

RESTRICTED = """\
package logs;

public class Restricted implements Sink {
    private final Sink sink;
    private final Level minimum;

    public void emit(Event event) {
        if (event.level().compareTo(minimum) < 0) {
            return; // below the minimum level of this sink
        }
        sink.emit(event);
    }
}
"""


def test_a_file_shows_one_overload(git_repo: GitRepoFactory) -> None:
    files = {"src/logs/Config.java": CONFIG, "src/logs/Restricted.java": RESTRICTED}
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    assert ranking.files[0][0] == "src/logs/Config.java"
    best = [store.chunks[i].symbol for i in ranking.chunks_of("src/logs/Config.java")[:3]]
    assert best == ["Config.sink"] * 3  # the overloads are the file's best three
    shown = retrieve(store, QUESTION, 5)
    sinks = [h for h in shown if h.path.endswith("Config.java") and "sink(" in h.text]
    assert len(sinks) == 1, [(h.start_line, h.end_line) for h in sinks]
    assert "sink(Sink sink, Level minimum)" in sinks[0].text
    assert any(h.path.endswith("Restricted.java") for h in shown[:3])
