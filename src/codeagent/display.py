"""Repository text made fit for a terminal: file contents and file names cannot act on it.

A repository (a cloned URL) controls its file names and contents; printed raw, an escape
sequence in either could retitle the window, clear the screen or hide lines, and a newline
in a name could forge a line of output. :func:`safe_text` (code and answer bodies: tabs and
newlines kept) and :func:`safe_name` (one-line names: quoted when odd) show such characters
as visible escapes instead; :func:`location` is the one way an answer prints where something
is (``path:line`` or ``path:start-end``). JSON output needs none: ``json.dumps`` escapes them.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides that
# reorder what a reader sees ("Trojan Source").
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_IN_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """``text`` with every control character that could act on a terminal (escape
    sequences, carriage returns, bells, bidi overrides) shown as a visible escape;
    tabs and newlines kept, a CRLF line end read as a newline."""
    return _UNSAFE.sub(_escape_char, text.replace("\r\n", "\n"))


def safe_name(name: str) -> str:
    """A file name or path fit for one line: as is when plain, else double-quoted with its
    unprintable characters (newlines included) escaped, as ``"new\\nline.py"``."""
    if not _UNSAFE_IN_NAME.search(name):
        return name
    body = re.sub(r'[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"\\]',
                  lambda m: _NAMED.get(m.group(0)) or _escape_char(m), name)  # fmt: skip
    return f'"{body}"'


def location(path: str, start: int, end: int | None = None) -> str:
    """``path:start``, or ``path:start-end`` when ``end`` is given; the path through
    :func:`safe_name`, so a name holding a newline cannot forge a line of an answer."""
    where = f"{safe_name(path)}:{start}"
    return where if end is None else f"{where}-{end}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 chunk``, ``2 chunks``, ``0 chunks`` (``many`` for irregular words)."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"
