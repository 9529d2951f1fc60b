"""A question in words gets, inside each file, the chunk whose definition's name it says: the
name's parts against Snowball's own stems, and the chunks a real index shows."""

from __future__ import annotations

import pytest
import Stemmer

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.rank.chunk_names import _said_name
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from codeagent.tokens import name_terms
from conftest import GitRepoFactory

STEM = Stemmer.Stemmer("english").stemWord


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("has_magic_trailing_comma", ["has", "magic", "trailing", "comma"]),
        ("write", ["write"]),
        ("getHTTPResponse", ["get", "http", "response"]),
        ("_parse_headers_", ["parse", "headers"]),
        ("is_written", ["write"]),  # "is" a stopword; "written" read as its verb
        ("utf8_decode", ["utf", "8", "decode"]),
        ("is", []),
    ],
)
def test_a_names_terms_are_the_stems_of_its_parts(name: str, words: list[str]) -> None:
    assert name_terms(name) == frozenset(STEM(w) for w in words)


FILLER = "".join(f"        width = width * {n} + 1\n" for n in range(30))
LINES = (
    "class Line:\n"
    "    def clone(self):\n"
    "        return Line(magic_trailing_comma=self.magic_trailing_comma)\n\n"
    "    def has_magic_trailing_comma(self, closing, width):\n"
    '        """True when the closing bracket follows a trailing comma, which the user\n'
    "        put there to keep one element a line."
    '"""\n'
    f"{FILLER}"
    "        return closing.prev == ','\n\n"
    "    def width_of(self, width):\n"
    f"{FILLER}"
    "        return width\n"
)
FILES = {
    "pkg/lines.py": LINES,
    "pkg/other.py": "def render(line):\n    return str(line)  # a comma\n",
}
QUESTION = "how does it decide whether to use the magic trailing comma?"
REPORT = (
    QUESTION
    + "\nTraceback (most recent call last):\n"
    + '  File "pkg/lines.py", line 4, in clone\nTypeError: bad comma\n'
)


def test_a_question_in_words_shows_the_function_its_words_name(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    ranking = rank_files(store, QUESTION, analyze(QUESTION))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("pkg/lines.py")]
    assert by_score[0] == "Line.clone"  # the short chunk that only passes the value on
    shown = retrieve(store, QUESTION, 4)
    assert (shown[0].path, shown[0].symbol) == ("pkg/lines.py", "Line.has_magic_trailing_comma")


def test_a_bug_report_keeps_its_chunks_in_the_order_of_their_scores(
    git_repo: GitRepoFactory,
) -> None:
    store, _ = load_or_build(git_repo(FILES), Settings.load(embed="none"))
    analysis = analyze(REPORT)
    assert analysis.reports
    ranking = rank_files(store, REPORT, analysis)
    best = store.chunks[ranking.chunks_of(ranking.files[0][0])[0]]
    shown = retrieve(store, REPORT, 4)[0]
    assert (shown.path, shown.symbol) == (best.path, best.symbol)


# An accessor named with the question's verb ("get") and one of its words, and the method that
# does what the question asks, which says it in its comment: the method scores first by its
# words, and the accessor's name must not take its place.
REARRANGE = "".join(f"        step{n} = len(argv) + {n}\n" for n in range(44))
APP = (
    "class App:\n"
    "    def get_namespaces(self):\n"
    '        """The namespaces of the commands."""\n'
    "        return sorted({name.split()[0] for name in self.commands})\n\n"
    "    def _run(self, argv, name):\n"
    f"{REARRANGE}"
    "        if ' ' in name:\n"
    "            # a namespaced command ('cache clear') gets its arguments rearranged: the\n"
    "            # namespace and the command's name are joined into one argument, and the\n"
    "            # arguments after them are rearranged to follow it\n"
    "            argv[1] = name\n"
    "            del argv[2]\n"
    "        return argv\n"
)
ARRANGED = "how does a namespaced command get its arguments rearranged?"


def test_an_accessors_verb_is_no_name_the_question_says(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(
        git_repo({"cli/app.py": APP, "cli/other.py": "def render(x):\n    return x\n"}),
        Settings.load(embed="none"),
    )
    ranking = rank_files(store, ARRANGED, analyze(ARRANGED))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("cli/app.py")]
    assert by_score[0] == "App._run"  # by its words the method that does it is first
    shown = [h.symbol for h in retrieve(store, ARRANGED, 4)]
    assert shown[0] == "App._run", shown


# A callable class: its __call__ does the work and is named by nothing of it; a function of the
# same module says more of the question's words in its docstring.
STAMPS = (
    "import time\n\n\n"
    "def describe(fmt):\n"
    '    """The format of the time a time stamper adds to an event: a stamp of the time."""\n'
    "    return fmt or 'iso'\n\n\n"
    "class TimeStamper:\n"
    "    def __init__(self, fmt=None, key='timestamp'):\n"
    "        self.fmt, self.key = fmt, key\n"
    "        width = 0\n"
    f"{FILLER}\n"
    "    def __call__(self, logger, name, event_dict):\n"
    "        now = time.time()\n"
    f"{FILLER}"
    "        event_dict[self.key] = time.strftime(self.fmt, time.gmtime(now))\n"
    "        return event_dict\n"
)


def test_a_callable_class_is_asked_by_its_class_name(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo({"pkg/stamps.py": STAMPS}), Settings.load(embed="none"))
    question = "how does the time stamper add the time to an event?"
    ranking = rank_files(store, question, analyze(question))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("pkg/stamps.py")]
    assert by_score.index("describe") < by_score.index("TimeStamper.__call__"), by_score
    shown = retrieve(store, question, 3)
    assert shown[0].symbol == "TimeStamper.__call__", [h.symbol for h in shown]


# A base class whose one method only raises (a stub), named by the question's words, and the
# subclass that does the work; the question asks why, so its declarations are not scored down
# and the names decide.
N = 32
AUTH = (
    "class AuthBase:\n"
    '    """Base class that all implementations derive from.\n\n'
    + "".join(f"    Note {n}: a subclass sets what it needs in its own way.\n" for n in range(N))
    + '    """\n\n'
    "    def __call__(self, request):\n"
    '        raise NotImplementedError("auth hooks must be callable")\n\n\n'
    "class DigestAuth(AuthBase):\n"
    "    def __init__(self, user, password):\n"
    "        self.user, self.password = user, password\n"
    "        width = 0\n"
    f"{FILLER}\n"
    "    def __call__(self, request):\n"
    "        # auth hooks are callable: called with the request, the auth header is set on it\n"
    "        request.headers['Authorization'] = self.user + ':' + self.password\n"
    "        return request\n"
)


def test_a_stub_is_not_scored_up_by_its_name(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo({"pkg/auth.py": AUTH}), Settings.load(embed="none"))
    question = "why is the auth base called with the request when auth hooks must be callable?"
    shown = retrieve(store, question, 3)
    assert shown[0].symbol == "DigestAuth", [h.symbol for h in shown]


@pytest.mark.parametrize(
    ("symbol", "text", "said"),
    [
        ("TimeStamper.__call__", "    def __call__(self, logger, name, event):\n", "TimeStamper"),
        ("a.Adder.__call__", "    async def __call__(self, x):\n", "Adder"),
        # a metaclass's: it makes instances of other classes
        (
            "LockMeta.__call__",
            "    def __call__(  # forwards\n        cls,\n        path,\n",
            "__call__",
        ),
        ("Meta.__call__", "    @functools.cache\n    def __call__(cls, *args):\n", "__call__"),
        ("__call__", "def __call__(self):\n", "__call__"),
        ("Adder.__call__", "        total = left + right\n        return total\n", "__call__"),
        (
            "Line.has_magic_trailing_comma",
            "    def has_magic_trailing_comma(self):\n",
            "has_magic_trailing_comma",
        ),
    ],
)
def test_the_name_a_definition_is_asked_by(symbol: str, text: str, said: str) -> None:
    assert _said_name(symbol, text) == said


# A method named by a word BM25 drops (``when``): a question that gives it as code names it.
SCHEMA = (
    "class Schema:\n"
    "    def concat(self, schema):\n"
    '        """Combine this schema with another: the other one decides."""\n'
    f"{FILLER}"
    "        merged = Schema()\n"
    "        merged.tests = self.tests + schema.tests\n"
    "        return merged\n\n"
    "    def when(self, keys, builder):\n"
    f"{FILLER}"
    "        self.conditions.append(Condition(keys, builder))\n"
    "        return self\n"
)
WHEN = "how does when() decide which schema to use?"


def test_a_name_the_question_gives_as_code_is_said_wholly(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(
        git_repo({"lib/schema.py": SCHEMA, "lib/other.py": "def render(x):\n    return x\n"}),
        Settings.load(embed="none"),
    )
    assert name_terms("when") == frozenset()  # no term holds it
    ranking = rank_files(store, WHEN, analyze(WHEN))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of("lib/schema.py")]
    assert by_score.index("Schema.concat") < by_score.index("Schema.when")  # by its words
    shown = [h.symbol for h in retrieve(store, WHEN, 4)]
    assert shown[0] == "Schema.when", shown
