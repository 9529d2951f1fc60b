"""The per-file work of a build (:func:`codeagent.index.per_file.parse_one`) on every core.

``parse_all`` takes the files to parse in index order and yields each one's result in that
same order, so what is built from them is the same, byte for byte, as a serial build. With
``workers`` > 1 and at least ``min_files`` files to parse, the files go to that many worker
processes (spawned: safe in a threaded server), a batch of 16 files to each idle one;
the workers also make each chunk's BM25 terms. Fewer files are parsed in this process, as one
worker is: starting the workers costs a few tenths of a second.

The workers are plain ``multiprocessing`` processes, each with its own pipe, not a
``concurrent.futures.ProcessPoolExecutor``: an executor cannot stop its workers at once
(``shutdown`` waits for the tasks they hold), and terminating them under it left its
management thread waiting on a half-sent result, the process hanging at exit (Python 3.11).
Here the builder knows which batch each worker holds, so:

- **Ctrl-C** is this process's to handle: the workers ignore SIGINT, and when the wait for
  results is interrupted (``KeyboardInterrupt``, or the :mod:`codeagent.cancel` token, checked
  a few times a second) every worker is terminated before the exception goes on. Nothing has
  been written yet: the entry is written after the chunks.
- **A worker that dies** (a crash in a parser's C code, a kill) is replaced, and the files of
  the batch it held are parsed again one per batch; a file that kills its worker alone is
  cut into line windows and counted as a parse error of its language. Workers that cannot
  be started, or die before they run (a broken environment), leave the work to this
  process, with one warning.
- The workers' log records come back with their batch and are handled here, so ``-v`` shows
  them as in a serial build.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
import types
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from itertools import chain, islice
from multiprocessing.connection import wait
from pathlib import Path

from codeagent import cancel
from codeagent.index.per_file import FileResult, crashed, parse_one
from codeagent.index.pool_worker import READY, Batch, Returned, serve

log = logging.getLogger(__name__)

Item = tuple[int, str, str]  # (file number, path, text)

BATCH_FILES = 16  # files per batch ...
BATCH_CHARS = 1 << 19  # ... or this much text, whichever comes first
POLL = 0.2  # seconds between checks of the cancel token while waiting


class _NoWorkers(Exception):
    """Worker processes cannot be started, or die before they run."""


def default_workers() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def parse_all(
    items: Iterable[Item], root: Path, workers: int, min_files: int, used: list[int]
) -> Iterator[tuple[int, FileResult]]:
    """Each item's :func:`~codeagent.index.per_file.parse_one` result, in the items' order;
    in a pool of ``workers`` processes when there are at least ``min_files`` items.
    ``used`` gets the number of processes that parse (1: this one) once it is decided."""
    todo = iter(items)
    head = list(islice(todo, min_files)) if workers > 1 else []
    if workers <= 1 or len(head) < min_files:
        used.append(1)
        for number, path, text in chain(head, todo):
            yield number, parse_one(path, text, root)
        return
    used.append(workers)
    yield from _Pool(root, workers, used).run(chain(head, todo))


def batches(items: Iterator[Item]) -> Iterator[Batch]:
    """Consecutive items, a dozen or so files or about half a megabyte of text per batch."""
    batch: Batch = []
    size = 0
    for item in items:
        batch.append(item)
        size += len(item[2])
        if len(batch) >= BATCH_FILES or size >= BATCH_CHARS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


class _Worker:
    """One worker process, its end of the pipe, and the batch it holds."""

    def __init__(self, root: Path) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        level = logging.getLogger("codeagent").getEffectiveLevel()
        self.process = context.Process(
            target=serve, args=(theirs, str(root), level), name="codeagent-parse", daemon=True
        )
        try:
            with _starting():
                self.process.start()
        except OSError as exc:  # no more processes, no memory
            self.conn.close()
            raise _NoWorkers(str(exc)) from exc
        finally:
            theirs.close()
        self.started = False  # it said READY
        self.batch: Batch | None = None
        self.alone = False  # the batch is one file whose batch killed a worker before

    def give(self, batch: Batch, alone: bool) -> None:
        """Send ``batch`` (a worker that died meanwhile is found by the next wait)."""
        self.batch, self.alone = batch, alone
        with suppress(OSError):  # BrokenPipeError
            self.conn.send(batch)

    def take(self) -> Returned | str | None:
        """Its next message: READY, its results, or None when it died before sending it."""
        try:
            message: Returned | str = self.conn.recv()
        except (EOFError, OSError):
            return None
        if message == READY:
            self.started = True
        else:
            self.batch = None
        return message

    def stop(self, now: bool) -> None:
        if not now:
            with suppress(OSError):
                self.conn.send(None)  # done: the worker returns
            self.process.join(1.0)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(1.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class _Pool:
    """Batches handed to idle workers; results put back in the items' order."""

    def __init__(self, root: Path, size: int, used: list[int]) -> None:
        self.root = root
        self.size = size
        self.used = used  # set to [1] when the files are parsed here after all
        self.retry: deque[Batch] = deque()  # files of a dead worker's batch, one per batch
        self.order: deque[int] = deque()  # item numbers as sent
        self.results: dict[int, FileResult] = {}

    def run(self, items: Iterator[Item]) -> Iterator[tuple[int, FileResult]]:
        todo = batches(items)
        workers: list[_Worker] = []
        finished = False
        try:
            for _ in range(self.size):
                workers.append(_Worker(self.root))
            while True:
                for worker in workers:
                    if worker.batch is None:
                        self._give(worker, todo)
                busy = [w for w in workers if w.batch is not None]
                if not busy:
                    break
                ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], POLL)
                cancel.check()
                for i, worker in enumerate(workers):
                    if worker.conn in ready or worker.process.sentinel in ready:
                        workers[i] = self._collect(worker)
                while self.order and self.order[0] in self.results:
                    number = self.order.popleft()
                    yield number, self.results.pop(number)
            finished = True
        except _NoWorkers as exc:
            log.warning("worker processes do not start (%s): parsing in this process", exc)
            self.used[:] = [1]
            held = [item for w in workers if w.batch is not None for item in w.batch]
            for worker in workers:
                worker.stop(now=True)
            yield from self._here(held, todo)
            finished = True
        finally:  # Ctrl-C, a cancelled token, a consumer that stopped: terminate them now
            for worker in workers:
                worker.stop(now=not finished)

    def _here(self, held: Batch, todo: Iterator[Batch]) -> Iterator[tuple[int, FileResult]]:
        """Everything not yet returned, parsed in this process, in order."""
        waiting = {item[0]: item for item in chain(held, *self.retry)}
        for number in self.order:
            if number not in self.results:
                _, path, text = waiting[number]
                self.results[number] = parse_one(path, text, self.root)
            yield number, self.results.pop(number)
        for batch in todo:
            for number, path, text in batch:
                yield number, parse_one(path, text, self.root)

    def _give(self, worker: _Worker, todo: Iterator[Batch]) -> None:
        alone = bool(self.retry)
        batch = self.retry.popleft() if alone else next(todo, None)
        if batch is None:
            return
        if not alone:
            self.order.extend(item[0] for item in batch)
        worker.give(batch, alone)  # a worker found dead is collected at the next wait

    def _collect(self, worker: _Worker) -> _Worker:
        """Its results; for a worker that died, its batch to parse again and a new worker."""
        batch = worker.batch
        returned = worker.take()
        if returned == READY:
            return worker
        if returned is not None and not isinstance(returned, str):
            results, records = returned
            _replay(records)
            assert batch is not None
            self.results.update((item[0], r) for item, r in zip(batch, results, strict=True))
            return worker
        worker.stop(now=True)
        if not worker.started:
            raise _NoWorkers(f"exit code {worker.process.exitcode}")
        assert batch is not None
        if worker.alone or len(batch) == 1:
            number, path, text = batch[0]
            log.warning("a worker process died parsing %s: line windows", path)
            self.results[number] = crashed(path, text)
        else:
            log.info("a worker process died: parsing its %d files again, one by one", len(batch))
            self.retry.extend([item] for item in batch)
        return _Worker(self.root)


@contextmanager
def _starting() -> Iterator[None]:
    """What a worker is started under. The caller's ``__main__`` is hidden: a spawned
    process imports it otherwise (a script with no ``if __name__ == "__main__":`` guard would
    index again in every worker, waiting on this build's lock), and the workers need nothing
    from it. In the main thread SIGINT is ignored for that instant: a process that starts
    with SIGINT ignored keeps it so, and a Ctrl-C while a worker imports its modules must not
    print its traceback."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    previous = signal.getsignal(signal.SIGINT)
    ignore = threading.current_thread() is threading.main_thread() and previous is not None
    if ignore:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        sys.modules["__main__"] = main
        if ignore and previous is not None:
            signal.signal(signal.SIGINT, previous)


def _replay(records: list[logging.LogRecord]) -> None:
    for record in records:
        logger = logging.getLogger(record.name)
        if logger.isEnabledFor(record.levelno):
            logger.handle(record)
