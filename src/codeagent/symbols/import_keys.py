"""The names an import can be asked for by ("which files import clap_lex?"): every dotted
prefix of what it imports, in each language's way of writing a path.

- Python, Java, and the other dotted languages: ``a.b.C`` is asked for as ``a``, ``a.b``,
  ``a.b.C``.
- A Rust ``use`` tree, as its text is kept (``std::{cell::Cell, ffi::{OsStr, OsString}}``,
  ``clap_lex::OsStrExt as _``): each path of the tree, ``::`` read as ``.``, its alias left
  out, ``self`` in a group the module itself: ``std``, ``std.cell``, ``std.cell.Cell``, ...
- A path with slashes (a Go import path, a scoped npm package ``@scope/pkg/sub``): each
  prefix up to a slash, and its last part (a Go package is used by the folder's name:
  ``github.com/labstack/echo/v5/middleware`` is asked for as ``middleware`` too).
"""

from __future__ import annotations

import re

_ALIAS = re.compile(r"\s+as\s+[\w$]+")


def import_keys(*written: str) -> set[str]:
    """The keys an import is found under, of each of ``written`` (its module, its target)."""
    keys: set[str] = set()
    for text in written:  # a dotted name, as most are (substring tests: every import of an
        # index is read when it is opened), or a use tree, a path with slashes, text to tidy
        if not (
            ":" in text or "/" in text or "{" in text or " " in text or "\n" in text or "\t" in text
        ):
            parts = text.split(".")
            keys.update(".".join(parts[:n]) for n in range(1, len(parts) + 1) if parts[n - 1])
        else:
            keys |= _path_keys(" ".join(text.split()))
    return keys


def _path_keys(text: str) -> set[str]:
    """The keys of a Rust path or use tree, or of a path with slashes."""
    if "{" not in text and "::" in text:  # one path: ``clap_lex::OsStrExt as _``
        return _prefixes(text.partition(" as ")[0].replace(" ", "").split("::"), ".")
    keys: set[str] = set()
    if "::" in text or "{" in text:
        for path in use_paths(text):
            keys |= _prefixes(path.split("::"), ".")
        return keys
    keys |= _prefixes(text.split("."), ".")
    if "/" in text and " " not in text:
        parts = text.strip("/").split("/")
        keys |= _prefixes(parts, "/")
        if parts[-1] not in ("", ".", ".."):
            keys.add(parts[-1])
    return keys


def use_paths(text: str) -> list[str]:
    """The paths a Rust ``use`` tree names (``a::{b, c::{d, self}}``: ``a::b``, ``a::c::d``,
    ``a::c``), aliases left out."""
    tree = "".join(_ALIAS.sub("", text).split())
    return [p for p in _expand("", tree) if p]


def _expand(prefix: str, tree: str) -> list[str]:
    start = tree.find("{")
    if start < 0:
        return [prefix + tree]
    head = prefix + tree[:start]
    inner = tree[start + 1 : tree.rfind("}")]
    out: list[str] = []
    for part in _top_level(inner):
        if part == "self":
            out.append(head.removesuffix("::"))
        elif part:
            out += _expand(head, part)
    return out


_GROUP_MARKS = re.compile(r"[{},]")


def _top_level(inner: str) -> list[str]:
    """``inner`` split at the commas outside braces."""
    parts: list[str] = []
    depth, start = 0, 0
    for mark in _GROUP_MARKS.finditer(inner):
        char = mark.group()
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0:
            parts.append(inner[start : mark.start()])
            start = mark.end()
    parts.append(inner[start:])
    return parts


def _prefixes(parts: list[str], sep: str) -> set[str]:
    return {sep.join(parts[:n]) for n in range(1, len(parts) + 1) if parts[n - 1]}
