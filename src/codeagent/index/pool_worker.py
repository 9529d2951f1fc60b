"""The worker side of :mod:`codeagent.index.pool`: a process that parses the batches it
receives on its pipe and sends back their results with the log records they made."""

from __future__ import annotations

import logging
import signal
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from codeagent.index.per_file import FileResult, parse_one

Batch = list[tuple[int, str, str]]  # (file number, path, text)
Returned = tuple[list[FileResult], list[logging.LogRecord]]
READY = "ready"  # what a worker says once it runs (its modules imported)

_records: list[logging.LogRecord] = []


class _Keep(logging.Handler):
    """Keeps a worker's log records, to send back with its batch."""

    def emit(self, record: logging.LogRecord) -> None:
        record.msg = record.getMessage()  # arguments may not pickle: send the text
        record.args = None
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        _records.append(record)


def serve(conn: Connection, root: str, level: int) -> None:
    """A worker: parse each batch received, send back its results, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    logger = logging.getLogger("codeagent")
    logger.setLevel(level)
    logger.addHandler(_Keep())
    logger.propagate = False
    conn.send(READY)
    while True:
        try:
            batch: Any = conn.recv()
        except (EOFError, OSError):  # the builder is gone
            return
        if batch is None:
            return
        results = [parse_one(path, text, Path(root), terms=True) for _, path, text in batch]
        conn.send((results, _records[:]))
        _records.clear()
