"""Logging for the CLI: plain sentences on stderr, every message made safe for the terminal.

Only the CLI configures handlers. Commands that may finish without working in this process
(``codeagent ask`` answered by a running server) set logging up only when they need it, so
that path does not import :mod:`logging` at all.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from codeagent.display import safe_text


class SafeFormatter(logging.Formatter):
    """Log records made safe: a file name in a message can neither act on the terminal nor
    start a line of its own (a newline in it is shown as ``\\n``)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return safe_text(super().formatMessage(record)).replace("\n", "\\n")

    def formatException(self, ei: Any) -> str:
        return safe_text(super().formatException(ei))


class _StderrHandler(logging.StreamHandler[Any]):
    """Writes to whatever ``sys.stderr`` is when a record comes (tests swap it); the same
    message twice in a row is said once."""

    _last: str | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message == self._last:
            return False
        self._last = message
        return bool(super().filter(record))

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def setup_logging(verbose: int) -> None:
    """Logs on stderr: plain sentences for warnings; ``-v`` info, ``-vv`` debug, with the
    level and the logger's name (the debug lines of the libraries below codeagent, a file
    lock's, only with ``-vvv``). Every message is made safe for the terminal."""
    level = logging.WARNING - 10 * min(verbose, 2)
    fmt = "%(levelname)s %(name)s: %(message)s" if verbose else "%(message)s"
    root = logging.getLogger()
    handler = next((h for h in root.handlers if isinstance(h, _StderrHandler)), None)
    if handler is None:
        handler = _StderrHandler()
        root.addHandler(handler)
    root.setLevel(level)
    # Some libraries set their own loggers to DEBUG; the handler's level is the real filter.
    handler.setLevel(level)
    handler.setFormatter(SafeFormatter(fmt))
    # Libraries log every lock taken and released at debug level: only -vvv.
    for old in [f for f in handler.filters if isinstance(f, _OwnDebugOnly)]:
        handler.removeFilter(old)
    if verbose < 3:
        handler.addFilter(_OwnDebugOnly())


class _OwnDebugOnly(logging.Filter):
    """Debug lines of codeagent's own loggers only (``-vv``); warnings and info of any."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG or record.name.split(".")[0] == "codeagent"


def setup_logging_here() -> None:
    """Set logging up with the ``-v`` count given to the running ``codeagent`` command (for
    the commands that do it only once they work in this process)."""
    import click

    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    setup_logging(obj.get("verbose", 0) if isinstance(obj, dict) else 0)
