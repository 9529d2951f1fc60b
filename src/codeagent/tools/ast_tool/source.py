"""Read, decode and parse one Python file; parsed files are cached by sha256 of their bytes."""

from __future__ import annotations

import ast
import hashlib
import io
import re
import threading
import tokenize
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codeagent.pysyntax import Structure, scan
from codeagent.tools.ast_tool.errors import (
    BinaryFileError,
    FileTooLargeError,
    PythonSyntaxError,
    UnreadableFileError,
)

CACHE_SIZE = 64
# Far above any hand-written module; keeps a planted multi-gigabyte file from filling memory.
MAX_PARSE_BYTES = 16 * 2**20
# Line breaks as the tokenizer counts them (str.splitlines also splits on \f, \x1c, ...).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split where Python's tokenizer splits them."""
    if _OTHER_BREAKS.search(text) is None:
        return text.splitlines(keepends=True)  # same result, several times faster
    return _LINE.findall(text)


@dataclass
class ParsedFile:
    """A parsed file: its text split in lines, its tree, and what was computed from them
    (``memo``: the analysis, per-query results)."""

    sha256: str
    text: str
    lines: list[str]
    tree: ast.Module
    memo: dict[str, Any] = field(default_factory=dict, repr=False)  # per-query results
    _offsets: list[int] | None = field(default=None, repr=False)

    def structure(self) -> Structure:
        """The file's structure (:func:`codeagent.pysyntax.scan`), computed once."""
        found = self.memo.get("structure")
        if not isinstance(found, Structure):
            found = self.memo["structure"] = scan(self.tree)
        return found

    def line_offsets(self) -> list[int]:
        """The character offset at which each line starts (for offset -> line by bisect)."""
        if self._offsets is None:
            offsets, total = [], 0
            for line in self.lines:
                offsets.append(total)
                total += len(line)
            self._offsets = offsets
        return self._offsets

    def segment(self, start: int, end: int) -> str:
        """Lines ``start``..``end`` (1-based, inclusive) as one string."""
        return "".join(self.lines[start - 1 : end])


_cache: OrderedDict[str, ParsedFile] = OrderedDict()
_cache_lock = threading.Lock()  # questions may run on several threads of one process


def decode(data: bytes) -> str:
    """Decode source bytes: the PEP 263 cookie or BOM if any, else UTF-8; bad bytes replaced."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        return data.decode(encoding, errors="replace")
    except LookupError:
        return data.decode("utf-8", errors="replace")


def parse_file(path: Path, rel: str) -> ParsedFile:
    """Parse ``path`` (shown as ``rel`` in errors), reusing the cached parse of equal bytes."""
    try:
        size = path.stat().st_size
        if size > MAX_PARSE_BYTES:
            raise FileTooLargeError(
                f"{rel} is too large to parse ({size:,} bytes; the limit is {MAX_PARSE_BYTES:,})",
                path=rel,
            )
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise UnreadableFileError(f"{rel} cannot be read: {reason}", path=rel) from None
    digest = hashlib.sha256(data).hexdigest()
    with _cache_lock:
        hit = _cache.get(digest)
        if hit is not None:
            _cache.move_to_end(digest)
            return hit
    if b"\0" in data:
        raise BinaryFileError(f"{rel} is a binary file (it contains NUL bytes)", path=rel)
    text = decode(data)
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        tree = ast.parse(text, filename=rel)
    except SyntaxError as exc:
        line = exc.lineno
        where = f" at line {line}" if line else ""
        raise PythonSyntaxError(
            f"{rel} has a syntax error{where}: {exc.msg}", path=rel, line=line
        ) from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise PythonSyntaxError(f"{rel} cannot be parsed: {exc}", path=rel) from None
    parsed = ParsedFile(digest, text, split_lines(text), tree)
    with _cache_lock:
        _cache[digest] = parsed
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return parsed


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
