"""A how-question is shown the Python code that does the work, not the stubs that declare it:
an ``@overload``'s signature, a ``Protocol``'s methods, an abstract method.

Each case is a real index of a git repository built here; which chunk is a stub and which does
the work is written down here by hand, not asked of the code under test."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.rank.idle_defs import (
    is_accessor,
    is_display,
    is_forwarder,
    is_imports,
    is_stub,
)
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from codeagent.store.store import IndexStore
from conftest import GitRepoFactory

# Typed overloads of a decorator, each documented in the words of the question, before the
# loop that does the retrying; filler functions make the module long enough to be cut into a
# chunk per definition.
FILLER = "".join(
    f"def helper_{n}(value: int) -> int:\n    total = value + {n}\n    return total * 2\n\n\n"
    for n in range(14)
)
RETRY = f'''\
import typing as t


@t.overload
def retry(fn: t.Callable[..., int]) -> t.Callable[..., int]:
    """Retry the function when it fails: the retry logic wraps it."""
    ...


@t.overload
def retry(*, attempts: int) -> t.Callable[[t.Callable[..., int]], t.Callable[..., int]]: ...


def retry_hook(attempt: int) -> None:
    """A plugin's hook, called before an attempt is retried: its specification."""


class Decorated(t.Protocol):
    """A function the retry logic wraps: retry it when it fails."""

    def retry_with(self, attempts: int) -> "Decorated": ...

    def __call__(self, *args: t.Any) -> int: ...


class Strategy:
    """When to retry."""

    def should_retry(self, attempt: int) -> bool:
        """Whether the retry logic retries after this failed attempt."""
        raise NotImplementedError

    def reset(self) -> None:
        pass


class Worker:
    def prepare(self) -> None:
        """Nothing to prepare."""

    def work(self, fn: t.Callable[..., int]) -> int:
        return fn()


def retry(*args: t.Any, attempts: int = 3) -> t.Any:
    """The retry logic: wrap a function so that it is retried when it fails."""

    def wrap(fn: t.Callable[..., int]) -> t.Callable[..., int]:
        def call(*a: t.Any) -> int:
            for attempt in range(attempts):
                try:
                    return fn(*a)
                except Exception:
                    if attempt + 1 == attempts:
                        raise
            return 0

        return call

    return wrap(args[0]) if args else wrap


def ellipsis_value() -> object:
    return ...


{FILLER}'''
PATH = "lib/retrying.py"


def test_which_python_definitions_are_stubs() -> None:
    chunks = chunk_file(PATH, RETRY)
    by_symbol = {c.symbol: c for c in chunks}
    overloads = [c for c in chunks if c.symbol == "retry"]
    assert len(overloads) == 3  # the two typed signatures and the code, each a chunk
    assert [is_stub(c) for c in overloads] == [True, True, False]  # ``...`` (after a docstring)
    assert not is_stub(by_symbol["retry_hook"])  # a docstring alone: a hook's specification
    assert is_stub(by_symbol["Decorated"])  # a Protocol: every method's body is ``...``
    assert is_stub(by_symbol["Strategy"])  # raise NotImplementedError; pass
    assert not is_stub(by_symbol["ellipsis_value"])  # returns the Ellipsis: a body
    assert not is_stub(by_symbol["helper_3"])
    assert not is_stub(by_symbol["Worker"])  # one method works


def test_a_how_question_shows_the_code_before_the_overloads(git_repo: GitRepoFactory) -> None:
    store, _ = load_or_build(git_repo({PATH: RETRY}), Settings.load(embed="none"))
    question = "how does the retry logic retry a function when it fails?"
    ranking = rank_files(store, question, analyze(question))
    by_score = [store.chunks[i].start_line for i in ranking.chunks_of(PATH)]
    code = RETRY.splitlines().index("def retry(*args: t.Any, attempts: int = 3) -> t.Any:") + 1
    assert by_score[0] != code  # by their words a stub comes first
    shown = retrieve(store, question, 3)
    assert shown[0].start_line == code, [(h.symbol, h.start_line) for h in shown]


# A state whose __repr__ names each of its fields in the words of the question, and the loop
# that sleeps between attempts; filler methods make the class long enough to be cut per method.
STATE_FILLER = "".join(
    f"    def note_{n}(self, value: int) -> int:\n        total = value + {n}\n"
    f"        return total * 2\n\n"
    for n in range(14)
)
STATE = f'''\
import time


class CallState:
    """The state of a call that is retried."""

    def __init__(self) -> None:
        self.attempt = 0
        self.slept = 0.0

    def __repr__(self) -> str:
        return f"<CallState attempt #{{self.attempt}}; slept for {{self.slept}} between attempts>"

    def run(self, fn, attempts: int, wait: float) -> int:
        while True:
            try:
                return fn()
            except Exception:
                self.attempt += 1
                if self.attempt >= attempts:
                    raise
                time.sleep(wait)
                self.slept += wait

{STATE_FILLER}'''


def test_a_how_question_shows_the_code_before_a_repr(git_repo: GitRepoFactory) -> None:
    path = "lib/state.py"
    chunks = {c.symbol: c for c in chunk_file(path, STATE)}
    assert is_display(chunks["CallState.__repr__"])
    assert not is_display(chunks["CallState.run"])
    question = "where does it sleep between attempts?"
    store, by_score = _by_score(git_repo, path, STATE, question)
    assert by_score[0] == "CallState.__repr__", by_score  # by its words the repr comes first
    assert retrieve(store, question, 3)[0].symbol == "CallState.run"
    printed = (
        "how is the call state printed with its attempt number and time slept between attempts?"
    )
    assert retrieve(store, printed, 3)[0].symbol == "CallState.__repr__"


# A module of node builders, each named for a kind of node and returning it built from its
# parts, and the interpreter that evaluates the nodes.
NODES = "".join(
    f"def {name}(left, right):\n"
    f'    """A {name} node: the projection of right, evaluated over each element of left."""\n'
    f"    return {{'type': '{name}', 'children': [left, right], 'projection': True}}\n\n\n"
    for name in (
        "projection", "value_projection", "filter_projection", "slice_projection",
        "flatten_projection", "index_projection",
    )
)  # fmt: skip
INTERPRETER = """\
class Interpreter:
    def visit(self, node, value):
        return getattr(self, "visit_" + node["type"])(node, value)

    def visit_projection(self, node, value):
        base = self.visit(node["children"][0], value)
        if not isinstance(base, list):
            return None
        evaluated = []
        for element in base:
            current = self.visit(node["children"][1], element)
            if current is not None:
                evaluated.append(current)
        return evaluated
"""


def test_a_module_of_node_builders_gives_its_place_up(git_repo: GitRepoFactory) -> None:
    files = {"lang/nodes.py": NODES, "lang/interpreter.py": INTERPRETER}
    builders = chunk_file("lang/nodes.py", NODES)
    assert all(is_accessor(c) for c in builders if c.kind == "function")  # no call in them
    store, _ = load_or_build(git_repo(files), Settings.load(embed="none"))
    question = "how is a projection evaluated?"
    ranking = rank_files(store, question, analyze(question))
    assert ranking.files[0][0] == "lang/nodes.py"  # by its words the builders' module is first
    shown = retrieve(store, question, 3)
    assert shown[0].path == "lang/interpreter.py", [(h.path, h.symbol) for h in shown]


# A module whose imports say the question's words, before the functions that do the work;
# filler functions make it long enough to be cut per definition.
COMPARE = f'''\
"""Comparisons."""
import operator
from numbers import Number
from textcompat import string_type as strings


def compare(left, right, op):
    """The comparison of two numbers, or of two strings."""
    if isinstance(left, Number) and isinstance(right, Number):
        return getattr(operator, op)(left, right)
    return None

{FILLER}'''


def test_a_how_question_shows_the_code_before_the_imports(git_repo: GitRepoFactory) -> None:
    path = "query/compare.py"
    chunks = chunk_file(path, COMPARE)
    assert is_imports(chunks[0]), chunks[0]
    assert not any(is_imports(c) for c in chunks[1:])
    question = "how does comparison of numbers and strings work?"
    store, by_score = _by_score(git_repo, path, COMPARE, question)
    assert by_score[0] == "<module>", by_score  # by their words the imports come first
    assert retrieve(store, question, 3)[0].symbol == "compare"


def _by_score(
    repo: GitRepoFactory, path: str, text: str, question: str
) -> tuple[IndexStore, list[str]]:
    """A real index of ``path`` holding ``text``, and the symbols of its chunks by their scores
    for ``question`` (before the windows are chosen)."""
    store, _ = load_or_build(repo({path: text}), Settings.load(embed="none"))
    ranking = rank_files(store, question, analyze(question))
    return store, [store.chunks[i].symbol for i in ranking.chunks_of(path)]


# A proxy over a standard library logger: each handler method passes its call on to the held
# logger's method of the same name, and says "handler" in its name and docstring; the method
# that does the work hands each event to the logger's handlers in fewer of those words.
PROXY = '''\
import logging


class Proxy:
    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger

    def addHandler(self, handler: logging.Handler) -> None:
        """Add a handler: events are passed to the logging handlers of the wrapped logger."""
        self._logger.addHandler(handler)

    def removeHandler(self, handler: logging.Handler) -> None:
        """Remove a handler: events are passed to the logging handlers of the wrapped logger."""
        self._logger.removeHandler(handler)

    def callHandlers(self, record: logging.LogRecord) -> None:
        """Call the handlers: events are passed to the logging handlers of the wrapped logger."""
        self._logger.callHandlers(record)

    async def flush(self, *args, **kwargs) -> None:
        return await super().flush(*args, **kwargs)

    def emit(self, event: str, **fields: object) -> None:
        """Build a record of the event, and pass it to each one whose level it reaches."""
        record = self._logger.makeRecord(self._logger.name, logging.INFO, "", 0, event, (), None)
        record.__dict__.update(fields)
        for handler in self._logger.handlers:
            if record.levelno >= handler.level:
                handler.handle(record)

    def warning(self, event: str) -> None:
        self._logger.warning(event + "!")

    def info(self, event: str) -> None:
        return self.info(event)

    def debug(self, event: str) -> None:
        self._logger.info(event)
''' + "".join(
    f"\n    def level_{n}(self) -> int:\n        return self._logger.level + {n}\n"
    for n in range(12)
)  # a class longer than a chunk: cut into its methods


def test_which_methods_only_pass_their_call_on() -> None:
    chunks = {c.symbol: c for c in chunk_file("lib/proxy.py", PROXY)}
    forwarders = {name for name, chunk in chunks.items() if is_forwarder(chunk)}
    # the argument changed (warning), the object itself (info), another name (debug), work (emit)
    assert forwarders == {
        "Proxy.addHandler", "Proxy.removeHandler", "Proxy.callHandlers", "Proxy.flush",
    }  # fmt: skip


def test_a_how_question_shows_the_work_before_the_forwarders(git_repo: GitRepoFactory) -> None:
    question = "how are events passed to the logging handlers?"
    store, by_score = _by_score(git_repo, "lib/proxy.py", PROXY, question)
    assert by_score[0] in {"Proxy.addHandler", "Proxy.removeHandler", "Proxy.callHandlers"}
    assert retrieve(store, question, 3)[0].symbol == "Proxy.emit"
