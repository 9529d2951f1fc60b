"""The pool's side of a build, in this process: how files are cut into batches and taken from
the build as the workers need them, and what comes back when workers die or cannot start.

The truth for every result is :func:`~codeagent.index.per_file.parse_one` run here on the same
file (what a serial build does), and a module's dotted name as Python names it from the files
on disk; worker processes are killed with real signals.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import resource
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codeagent.index import pool
from codeagent.index.per_file import FileResult, crashed, parse_one
from codeagent.index.pool import BATCH_CHARS, BATCH_FILES, Item, batches, parse_all


def items_of(texts: list[str]) -> list[Item]:
    return [(n, f"f{n}.txt", text) for n, text in enumerate(texts)]


def cut(texts: list[str]) -> list[list[int]]:
    """The numbers of the items in each batch ``batches`` makes of ``texts``."""
    return [[number for number, _, _ in batch] for batch in batches(iter(items_of(texts)))]


def test_a_batch_is_cut_at_16_files_or_half_a_megabyte_of_text() -> None:
    assert (BATCH_FILES, BATCH_CHARS) == (16, 512 * 1024)
    assert cut([]) == []
    assert cut(["x"] * 40) == [list(range(16)), list(range(16, 32)), list(range(32, 40))]
    half = "y" * (BATCH_CHARS // 2)
    assert cut([half] * 5) == [[0, 1], [2, 3], [4]]  # the text adds up, batch by batch
    # A batch ends with the file that brings it to BATCH_CHARS characters, not before.
    assert cut(["y" * (BATCH_CHARS - 1), "z", "w"]) == [[0, 1], [2]]
    assert cut(["y" * BATCH_CHARS, "z"]) == [[0], [1]]
    # After a batch cut by its count, the next one's text is counted from zero.
    assert cut(["x"] * 16 + ["y" * (BATCH_CHARS - 1), "z", "w"]) == [
        list(range(16)),
        [16, 17],
        [18],
    ]


def test_the_cpus_without_an_affinity_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where ``sched_getaffinity`` is missing (not Linux) the CPU count is used, one when
    the system cannot tell."""
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    if affinity is not None:
        assert pool.default_workers() == affinity
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert pool.default_workers() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert pool.default_workers() == 1


BROKEN = "def broken(:\n"  # does not parse: logged at debug level by whoever parses it


def package(root: Path, count: int) -> list[Item]:
    """``count`` files of the package ``pkg`` under ``root``, written to disk, as items: the
    first of every 16 does not parse (the first file parsed in each batch, each worker
    slowed alike), the others are modules."""
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    items: list[Item] = []
    for n in range(count):
        text = f"import os\n\n\ndef f{n}(value):\n    return os.path.join(value, '{n}')\n"
        text = BROKEN if n % BATCH_FILES == 0 else text
        path = f"pkg/m{n:02d}.py"
        (root / path).write_text(text)
        items.append((n, path, text))
    return items


def same_as_here(results: list[tuple[int, FileResult]], items: list[Item], root: Path) -> None:
    """``results`` are each item's own parse, in order, with its module named from ``root``."""
    assert [number for number, _ in results] == [number for number, _, _ in items]
    for (_, result), (_, path, text) in zip(results, items, strict=True):
        here = parse_one(path, text, root)
        assert result.chunks == here.chunks
        assert result.record == here.record
        assert result.error == here.error
        if text.startswith("import os"):
            assert result.record is not None
            assert result.record["m"] == path.removesuffix(".py").replace("/", ".")  # pkg.m07


class Fed:
    """Items handed out one at a time, counting how many were taken and how many worker
    processes ran as each was."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.taken = 0
        self.running: list[int] = []

    def __iter__(self) -> Iterator[Item]:
        for item in self.items:
            self.taken += 1
            self.running.append(len(children()))
            yield item


_OTHERS: set[int | None] = set()  # processes this process ran before the test (other tests')


@pytest.fixture(autouse=True)
def _others() -> None:
    _OTHERS.clear()
    _OTHERS.update(p.pid for p in multiprocessing.active_children())


def children() -> list[multiprocessing.process.BaseProcess]:
    """The processes started during this test that still run."""
    return [p for p in multiprocessing.active_children() if p.pid not in _OTHERS]


def test_one_worker_parses_here_as_the_files_come(tmp_path: Path) -> None:
    items = package(tmp_path, 8)
    for min_files in (0, 5):
        fed = Fed(items)
        results = parse_all(fed, tmp_path, 1, min_files, used := [])
        first = next(results)
        assert fed.taken == 1  # nothing read ahead
        assert children() == []  # no process started
        same_as_here([first, *results], items, tmp_path)
        assert used == [1]
    # Two workers asked for, fewer files than the pool is worth: parsed here too.
    fed = Fed(items)
    results = parse_all(fed, tmp_path, 2, 9, used := [])
    same_as_here(list(results), items, tmp_path)
    assert children() == []
    assert used == [1]


def test_the_pool_takes_files_as_its_workers_need_them(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    items = package(tmp_path, 100)
    caplog.set_level(logging.DEBUG, logger="codeagent")
    fed = Fed(items)
    results = parse_all(fed, tmp_path, 2, 1, used := [])
    first = next(results)
    assert used == [2]
    # One file is read to decide on the pool, the rest as the workers take them.
    assert fed.running[:2] == [0, 2]
    workers = children()
    assert sorted(p.name for p in workers) == ["codeagent-parse"] * 2
    assert parser_of_first(caplog) in {p.pid for p in workers}
    rest = list(results)
    assert fed.taken == len(items)
    assert set(fed.running[1:]) == {2}
    assert children() == []  # stopped once done
    same_as_here([first, *rest], items, tmp_path)


def parser_of_first(caplog: pytest.LogCaptureFixture) -> int | None:
    """The process that logged that the first file does not parse (a worker's records come
    back with its batch, its name and process id as it made them)."""
    (pid,) = parsers(caplog.records, "pkg/m00.py")
    return pid


def parsers(records: list[logging.LogRecord], path: str = "pkg/") -> list[int | None]:
    """The worker processes that logged a file that does not parse, the last one last."""
    pids: list[int | None] = []
    for record in records:
        if record.getMessage().startswith(path) and "does not parse" in record.getMessage():
            assert record.processName == "codeagent-parse"
            pids = [*(p for p in pids if p != record.process), record.process]
    return pids


# A worker started with a 512 kB C stack dies of a segmentation fault parsing this file, every
# time (tests/index/test_pool.py); with the usual 8 MB the parse fails with a RecursionError
# and the file is cut into line windows, here as in a worker.
DEEP = "x = " + "not \\\n" * 5900 + "y\n"


class SmallStackWorkers(Fed):
    """Items for a pool whose first two workers get a 512 kB stack: the limit is lowered as
    the pool takes its first item (before it starts them) and put back as it takes the
    second (they run by then); ``then`` is called at that point."""

    def __init__(self, items: list[Item], then: Callable[[], None] = lambda: None) -> None:
        super().__init__(items)
        self.then = then

    def __iter__(self) -> Iterator[Item]:
        limits = resource.getrlimit(resource.RLIMIT_STACK)
        try:
            for item in super().__iter__():
                if item[0] == 0:
                    resource.setrlimit(resource.RLIMIT_STACK, (512 * 1024, limits[1]))
                else:
                    resource.setrlimit(resource.RLIMIT_STACK, limits)
                if item[0] == 1:
                    assert len(children()) == 2
                    self.then()
                yield item
        finally:
            resource.setrlimit(resource.RLIMIT_STACK, limits)


def deep_at(root: Path, items: list[Item], numbers: list[int]) -> list[Item]:
    """``items`` with the files ``numbers`` made DEEP (on disk too)."""
    for number in numbers:
        (root / items[number][1]).write_text(DEEP)
        items[number] = (number, items[number][1], DEEP)
    return items


needs_linux = pytest.mark.skipif(sys.platform != "linux", reason="a segfault as Linux gives it")


@needs_linux
def test_workers_that_die_are_replaced(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Both workers die on the first file of their first batch: each batch is parsed again,
    one file at a time, by new workers (with the usual stack), which name modules from the
    same root: the results are this process's own."""
    items = deep_at(tmp_path, package(tmp_path, 64), [0, BATCH_FILES])
    caplog.set_level(logging.INFO, logger="codeagent")
    results = list(parse_all(SmallStackWorkers(items), tmp_path, 2, 1, used := []))
    same_as_here(results, items, tmp_path)
    assert used == [2]
    died = [r.getMessage() for r in caplog.records if "died" in r.getMessage()]
    assert died == ["a worker process died: parsing its 16 files again, one by one"] * 2
    assert children() == []


@needs_linux
def test_workers_that_die_and_cannot_be_replaced_leave_the_rest_here(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, but no new worker can start: every file not yet back (held by a worker,
    waiting to be parsed again, not yet sent) is parsed here, in order."""
    items = deep_at(tmp_path, package(tmp_path, 64), [0, BATCH_FILES])
    caplog.set_level(logging.INFO, logger="codeagent")

    def no_python() -> None:  # a Python started from now on fails to start
        monkeypatch.setenv("PYTHONHOME", "/nonexistent")

    fed = SmallStackWorkers(items, no_python)
    results = list(parse_all(fed, tmp_path, 2, 1, used := []))
    same_as_here(results, items, tmp_path)
    assert used == [1]
    messages = [r.getMessage() for r in caplog.records if r.name == "codeagent.index.pool"]
    assert messages[-1] == "worker processes do not start (exit code 1): parsing in this process"
    assert messages[:-1]
    assert set(messages[:-1]) == {"a worker process died: parsing its 16 files again, one by one"}
    assert children() == []


@needs_linux
def test_a_batch_of_one_file_whose_worker_dies_is_not_tried_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The last batch is one file, which kills its worker: as for a file that killed its
    worker alone, it is cut into line windows and counted as a parse error of Python, not
    sent to a new worker (where it would parse, and fail to, without a crash)."""
    items = deep_at(tmp_path, package(tmp_path, BATCH_FILES + 1), [BATCH_FILES])
    caplog.set_level(logging.INFO, logger="codeagent")
    results = list(parse_all(SmallStackWorkers(items), tmp_path, 2, 1, used := []))
    same_as_here(results[:-1], items[:-1], tmp_path)
    number, last = results[-1]
    assert (number, last) == (16, crashed("pkg/m16.py", DEEP))
    assert last.error == "python"
    died = [r.getMessage() for r in caplog.records if "died" in r.getMessage()]
    assert died == ["a worker process died parsing pkg/m16.py: line windows"]
    assert used == [2]
    assert children() == []
