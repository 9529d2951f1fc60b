"""A question that asks how something is done is shown the code that does it, not the
declarations around it (a Go struct's documented fields, a Java interface's method list).

Each case is a real index of a git repository built here; which chunk does the work is written
down here by hand (the method with a body), not asked of the code under test."""

from __future__ import annotations

from dataclasses import replace

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.rank.declarations import is_declaration, is_trivial
from codeagent.rank.idle_defs import is_accessor, is_class_head
from codeagent.rank.query import analyze, asks_how
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

# A struct over 50 lines is cut into chunks of its own, as cobra's Command is; every field's
# comment says "command", and the method that finds the subcommand says it less often.
FIELDS = "".join(
    f"\t// Option{n} changes how the subcommand to run is found from the command's arguments.\n"
    f"\tOption{n} bool\n\n"
    for n in range(22)
)
COMMAND = f"""\
package cli

import "strings"

// Command is a node of the command tree.
type Command struct {{
\t// Use is the one-line usage of the command: the command's name first.
\tUse string

\t// commands lists the subcommands of this command; a subcommand to run is found among them.
\tcommands []*Command

{FIELDS}}}

// Name is the command's name, the first word of its usage line.
func (c *Command) Name() string {{
\treturn strings.Fields(c.Use)[0]
}}

// Find walks the arguments down the tree and returns the subcommand to run.
func (c *Command) Find(args []string) *Command {{
\tcmd := c
\tfor _, arg := range args {{
\t\tnext := cmd.child(arg)
\t\tif next == nil {{
\t\t\tbreak
\t\t}}
\t\tcmd = next
\t}}
\treturn cmd
}}

func (c *Command) child(name string) *Command {{
\tfor _, sub := range c.commands {{
\t\tif sub.Name() == name {{
\t\t\treturn sub
\t\t}}
\t}}
\treturn nil
}}
"""
HTTP_CONNECTION = """\
package net;

import java.util.HashMap;
import java.util.Map;

public class HttpConnection implements Connection {
    private final Map<String, String> jar = new HashMap<>();

    @Override
    public Connection cookie(String name, String value) {
        jar.put(name, value);
        return this;
    }

    @Override
    public String cookie(String name) {
        return jar.get(name);
    }
}
"""
FILES = {
    "go.mod": "module example.com/cli\n\ngo 1.21\n",
    "command.go": COMMAND,
}
# A Java interface whose documented declarations say "cookie" more often than the class that
# implements them: 18 of its 19 chunks declare, and it is ranked first by its words.
COOKIES = "".join(
    f"    /** Set cookie {n} of this connection: the cookie is sent with the request. */\n"
    f"    Connection cookie{n}(String value);\n\n"
    for n in range(16)
)
INTERFACE = f"""\
package net;

/** A connection to a server: its cookies, headers and timeouts. */
public interface Connection {{
    /** Set a cookie on this connection: the cookie's name and value are sent with the request. */
    Connection cookie(String name, String value);

    /** The cookie of this name set on this connection, or null. */
    String cookie(String name);

{COOKIES}}}
"""
JAVA = {"src/net/Connection.java": INTERFACE, "src/net/HttpConnection.java": HTTP_CONNECTION}
FIND = "how does the command find the subcommand to run from the arguments?"


def _chunk_orders(
    files: dict[str, str], path: str, question: str, repo: GitRepoFactory
) -> tuple[list[str], list[str]]:
    """The symbols of ``path``'s chunks by their scores for ``question`` (before the windows are
    chosen), and the symbols of the first three sources shown, on a real index of ``files``."""
    store, _ = load_or_build(repo(files), Settings.load(embed="none"))
    ranking = rank_files(store, question, analyze(question))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of(path)]
    return by_score, [h.symbol for h in retrieve(store, question, 3)]


def test_what_declares_without_doing() -> None:
    go = {c.symbol: c for c in chunk_file("command.go", COMMAND)}
    assert is_declaration(go["Command"])
    assert not is_declaration(go["Command.Find"])
    java = chunk_file("src/net/Connection.java", INTERFACE)
    bodiless = [c for c in java if c.kind == "method"]
    assert bodiless
    assert all(is_declaration(c) for c in bodiless)
    impl = chunk_file("src/net/HttpConnection.java", HTTP_CONNECTION)
    assert not any(is_declaration(c) for c in impl if c.kind == "method")
    python = chunk_file("shop/cart.py", "class Cart:\n    def total(self): ...\n")
    assert not any(is_declaration(c) for c in python)  # the brace languages' rule
    assert not any(is_class_head(c) for c in python)  # a class that holds its method
    # a long function's later windows (a template's text) and a Java enum's constants with
    # bodies are code
    template = "".join(f"    echo line {n} of the script\n" for n in range(90))
    long_go = f"package cli\n\nfunc genScript(name string) string {{\n\treturn `\n{template}`\n}}\n"
    pieces = [c for c in chunk_file("script.go", long_go) if c.symbol == "genScript"]
    assert len(pieces) > 1
    assert not any(is_declaration(c) for c in pieces)
    states = "".join(
        f"    S{n} {{\n        void read(Reader r) {{\n"
        f"            r.advance({n});\n        }}\n    }},\n"
        for n in range(14)
    )
    enum = f"package p;\n\nenum State {{\n{states};\n    abstract void read(Reader r);\n}}\n"
    enum_chunks = chunk_file("State.java", enum)
    constants = [c for c in enum_chunks if c.kind == "enum" and c.text.strip() != "}"]
    assert len(constants) > 1
    assert not any(is_declaration(c) for c in constants)
    assert asks_how(FIND)
    assert asks_how("Where is the cookie jar kept?")
    assert not asks_how("what does the Command struct hold?")


def test_a_how_question_shows_the_method_before_the_struct(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    ranking = rank_files(store, FIND, analyze(FIND))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("command.go")]
    assert by_score[0] == "Command"  # by their words alone the struct's fields come first
    shown = retrieve(store, FIND, 3)
    assert (shown[0].path, shown[0].symbol) == ("command.go", "Command.Find")


def test_a_question_about_the_type_still_shows_it(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    question = "what settings does the Command struct of the command line hold?"
    shown = retrieve(store, question, 3)
    assert (shown[0].path, shown[0].symbol) == ("command.go", "Command")


def test_a_how_question_shows_the_implementation_before_the_interface(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(JAVA), Settings.load(embed="none"))
    question = "how is a cookie set on a connection?"
    ranking = rank_files(store, question, analyze(question))
    assert ranking.files[0][0] == "src/net/Connection.java"  # by its words the interface leads
    shown = retrieve(store, question, 4)
    assert shown[0].path == "src/net/HttpConnection.java", [(h.path, h.symbol) for h in shown]
    scores = [h.score for h in shown]
    assert scores == sorted(scores, reverse=True)  # the scores still fall down the list


def test_a_question_about_the_interface_or_naming_it_keeps_it_first(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(JAVA), Settings.load(embed="none"))
    for question in (
        "what does the cookie declaration of a connection say?",
        "how is a cookie declared in Connection.java?",
    ):
        shown = retrieve(store, question, 4)
        assert shown[0].path == "src/net/Connection.java", (question, shown[0].path)


# A setter named for what the question asks, and the method that does it, longer and saying it
# less often: the setter is first by its words and its name.
FILLER = "".join(f"        int step{n} = status + {n};\n" for n in range(12))
SIZES = "".join(
    f"    public int size{n}(int base) {{\n"
    f"        int size = base * {n};\n        return size;\n    }}\n\n"
    for n in range(8)
)
FOLLOW = f"""\
package net;

public class Request {{
    private boolean followRedirects = true;

    /** Set the flag; returns this request. */
    public Request followRedirects(boolean followRedirects) {{
        this.followRedirects = followRedirects;
        return this;
    }}

    /** Send the request, and follow redirects when it is asked to follow redirects. */
    public Response execute(Response response) {{
        int status = response.status();
{FILLER}        if (followRedirects && status >= 300 && status < 400) {{
            // follow the redirect: the request goes again to the redirect's location
            redirectsFollowed += 1; // the redirects followed so far, to follow no more than max
            Response redirect = response.redirect();
            return execute(redirect.follow());
        }}
        return response;
    }}

{SIZES}}}
"""


def test_a_how_question_shows_the_work_before_a_setter(git_repo: GitRepoFactory) -> None:
    methods = {c.symbol: c for c in chunk_file("Request.java", FOLLOW) if c.kind == "method"}
    setter, execute = methods["Request.followRedirects"], methods["Request.execute"]
    assert is_trivial(setter)
    assert not is_trivial(execute)
    question = "how does the request follow redirects?"
    path = "src/net/Request.java"
    by_score, shown = _chunk_orders({path: FOLLOW}, path, question, git_repo)
    assert by_score.index("Request.followRedirects") < by_score.index("Request.execute")
    assert shown[0] == "Request.execute", shown


# A Python class longer than a chunk is cut into its head (class line, docstring, fields) and
# its methods; the head's docstring and comments say what the class is for, in the question's
# words, more often than the method that does it.
def _methods(count: int, signature: str, *body: str) -> str:
    """``count`` methods of a class, ``{n}`` in their lines their number: a class's filler."""
    lines = [f"    def {signature}:", *(f"        {line}" for line in body)]
    return "".join("\n".join(lines).replace("{n}", str(n)) + "\n\n" for n in range(count))


STATS = _methods(
    8,
    "stat_{n}(self, path: str) -> int",
    '"""Field {n} of the file\'s stat."""',
    "return os.stat(path)[{n}]",
)
CACHE = f'''\
"""Formatted files are remembered, so that an unchanged file is not formatted again."""

import os
from dataclasses import dataclass, field


@dataclass
class Cache:
    """The cache of formatted files. A cache entry is invalidated when its file changed: the
    cache entry of a changed file is invalidated, and an invalidated cache entry is dropped
    from the cache file when the cache is written."""

    cache_file: str
    # each cache entry: a formatted file's size and modification time
    entries: dict = field(default_factory=dict)
    # the cache entries invalidated since the cache was read
    invalidated: set = field(default_factory=set)

    def is_changed(self, path: str) -> bool:
        """Whether the file at path differs from what was formatted."""
        stat = os.stat(path)
        known = self.entries.get(path)
        if known is None or known != (stat.st_size, stat.st_mtime):
            self.invalidated.add(path)
            return True
        return False

    def write(self, paths: list) -> None:
        """Remember the files of paths as formatted."""
        for path in paths:
            stat = os.stat(path)
            self.entries[path] = (stat.st_size, stat.st_mtime)

{STATS}'''


def test_a_how_question_shows_a_python_method_before_its_class_head(
    git_repo: GitRepoFactory,
) -> None:
    chunks = {c.symbol: c for c in chunk_file("fmt/cache.py", CACHE)}
    assert is_class_head(chunks["Cache"])
    assert not is_class_head(chunks["Cache.is_changed"])
    store, _ = load_or_build(git_repo({"fmt/cache.py": CACHE}), Settings.load(embed="none"))
    question = "how is the cache entry of a changed file invalidated?"
    ranking = rank_files(store, question, analyze(question))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("fmt/cache.py")]
    assert by_score[0] == "Cache"  # by their words the class's head comes first
    shown = retrieve(store, question, 3)
    assert shown[0].symbol == "Cache.is_changed", [h.symbol for h in shown]
    about = retrieve(store, "what fields does the Cache of formatted files hold?", 3)
    assert about[0].symbol == "Cache"  # a question about the class, not how: its head


# A Python class's accessors named for what the question asks, and the method that does it:
# by their words and names the accessors come first.
FILLER_METHODS = _methods(
    10, "column_{n}(self, row: list) -> int", "width = len(row) + {n}", "return width * 2"
)
OUTPUT = f'''\
class Output:
    """Writes messages to the terminal, each at a verbosity."""

    def __init__(self, verbosity: int = 1) -> None:
        self._verbosity = verbosity
        self._lines = []

    @property
    def verbosity(self) -> int:
        """The output's verbosity, which decides what is written."""
        return self._verbosity

    def set_verbosity(self, verbosity: int) -> None:
        """Set the output's verbosity, which decides what is written."""
        self._verbosity = verbosity

    def is_verbose(self) -> bool:
        """Whether the output's verbosity is verbose: more is written."""
        return self._verbosity >= 2

    def write(self, message: str, verbosity: int = 1) -> None:
        """Write a message; one above the output's verbosity is dropped."""
        if verbosity > self._verbosity:
            return
        for line in message.splitlines():
            self._lines.append(line.rstrip())

{FILLER_METHODS}'''


def test_a_how_question_shows_a_python_method_before_its_accessors(
    git_repo: GitRepoFactory,
) -> None:
    chunks = {c.symbol: c for c in chunk_file("io/output.py", OUTPUT)}
    accessors = {s for s, c in chunks.items() if is_accessor(c)}
    assert {"Output.verbosity", "Output.set_verbosity", "Output.is_verbose"} <= accessors
    assert not accessors & {"Output.write", "Output.__init__"}  # a loop, two assignments
    question = "how does the output's verbosity decide what is written?"
    path = "io/output.py"
    by_score, shown = _chunk_orders({path: OUTPUT}, path, question, git_repo)
    assert by_score.index("Output.verbosity") < by_score.index("Output.write")
    assert shown[0] == "Output.write", shown


# A C# formatter: its constructor only stores its arguments, under documentation that says the
# question's words; the method that writes the event says them less often.
FORMATTER = """\
namespace Logs.Formatting;

public sealed class JsonFormatter
{
    readonly string _closingDelimiter;
    readonly bool _renderMessage;
    readonly IFormatProvider? _formatProvider;

    /// <summary>
    /// Construct a JSON formatter: the JSON formatter writes each log event as JSON.
    /// </summary>
    /// <param name="closingDelimiter">Written after each log event the formatter writes.</param>
    /// <param name="renderMessage">Whether the message is rendered too.</param>
    /// <param name="formatProvider">Supplies culture-specific formatting, or null.</param>
    public JsonFormatter(string? closingDelimiter = null, bool renderMessage = false,
        IFormatProvider? formatProvider = null)
    {
        _closingDelimiter = closingDelimiter ?? Environment.NewLine;
        _renderMessage = renderMessage;
        this._formatProvider = formatProvider;
    }

    /// <summary>Format the event into the output.</summary>
    public void Format(LogEvent e, StringBuilder output)
    {
        output.Append("{\\"Timestamp\\":\\"");
        output.Append(e.Timestamp.ToString("O"));
        output.Append("\\",\\"Level\\":\\"");
        output.Append(e.Level);
        if (_renderMessage)
        {
            output.Append(",\\"RenderedMessage\\":");
            AppendJson(e.Render(_formatProvider), output);
        }
        output.Append(_closingDelimiter);
    }
"""
FORMATTER += "".join(
    f"\n    public int Width{n}(int depth)\n    {{\n        int width = depth * {n};\n"
    f"        return width;\n    }}\n"
    for n in range(8)
)
FORMATTER += "}\n"


def test_a_how_question_shows_the_work_before_a_constructor_that_stores(
    git_repo: GitRepoFactory,
) -> None:
    chunks = {c.symbol: c for c in chunk_file("JsonFormatter.cs", FORMATTER)}
    constructor = chunks["Logs.Formatting.JsonFormatter.JsonFormatter"]
    assert constructor.kind == "constructor"
    assert is_trivial(constructor)
    assert not is_trivial(chunks["Logs.Formatting.JsonFormatter.Format"])
    # a constructor that works is not trivial
    working = constructor.text.replace(
        "_renderMessage = renderMessage;", "Validate(_renderMessage);"
    )
    assert not is_trivial(replace(constructor, text=working))
    question = "how does the JSON formatter write a log event?"
    path = "src/Formatting/JsonFormatter.cs"
    by_score, shown = _chunk_orders({path: FORMATTER}, path, question, git_repo)
    assert by_score.index("Logs.Formatting.JsonFormatter.JsonFormatter") < by_score.index(
        "Logs.Formatting.JsonFormatter.Format"
    )
    assert shown[0] == "Logs.Formatting.JsonFormatter.Format", shown


CALENDAR = (
    """\
package time;

public class Calendar {
    private final int pattern;

    /** The leap year pattern. */
    public int getPattern() {
        return pattern;
    }

    /** Is the year a leap year: its bit in the thirty-year pattern. */
    boolean isLeapYear(int year) {
        int key = 1 << (year % 30);
        return (pattern & key) > 0;
    }

    /** Whether a name says no value. */
    static boolean isNull(String name) {
        return name.isEmpty() || name.equals("~") || name == "null";
    }

    /** The calendar for the year: the one this returns. */
    public Calendar withYear(int year) {
        return this.with(year);
    }
"""
    + "".join(
        f"\n    int days{n}(int year) {{\n        int days = 365;\n"
        f"        days += year % {n + 2};\n        return days;\n    }}\n"
        for n in range(8)
    )
    + "}\n"
)


def test_a_short_method_that_works_something_out_does_not_do_little() -> None:
    methods = {c.symbol: c for c in chunk_file("Calendar.java", CALENDAR) if c.kind == "method"}
    # an accessor and a call passed on do little; a bit test and a comparison work it out
    assert is_trivial(methods["Calendar.getPattern"])
    assert is_trivial(methods["Calendar.withYear"])
    assert not is_trivial(methods["Calendar.isLeapYear"])
    assert not is_trivial(methods["Calendar.isNull"])
