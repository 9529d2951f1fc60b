"""Writing an answer to the terminal: its text on stdout, notices dim on stderr.

Standard library only (``os`` and ``sys``): ``codeagent ask`` answered by a running server
prints through this module without importing click or rich; the commands import from it too.
"""

from __future__ import annotations

import os
import sys

_DIM, _RESET = "\x1b[2m", "\x1b[0m"

_out = {"mid_line": False}


def styled(stream: object) -> bool:
    """Whether text written to ``stream`` may carry terminal styles, by the conventions rich
    follows: a terminal, or ``FORCE_COLOR`` set; never with ``NO_COLOR`` set or ``TERM=dumb``."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") in ("dumb", "unknown"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(os.environ.get("FORCE_COLOR")) or bool(isatty and isatty())


def write_out(text: str) -> None:
    """Write streamed answer text to stdout, remembering whether a line is left open."""
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()
        _out["mid_line"] = not text.endswith("\n")


def end_line() -> None:
    """End a line of streamed answer left open (no blank line when it is already ended)."""
    if _out["mid_line"]:
        write_out("\n")


def notice(message: str) -> None:
    """A one-line notice on stderr (never mixed into --json output on stdout).

    On a terminal a line of streamed answer left open is ended first, so the notice starts
    on a line of its own. The text is made safe for the terminal and shown dim there.
    """
    from codeagent.display import safe_text

    if sys.stdout.isatty():
        end_line()
    text = safe_text(message)
    stream = sys.stderr
    stream.write(f"{_DIM}{text}{_RESET}\n" if styled(stream) else text + "\n")
    stream.flush()
