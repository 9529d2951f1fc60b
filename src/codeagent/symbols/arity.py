"""Whether a call with so many arguments may call a function, as the parameters its
signature writes say: how an overload is chosen where the types are not compared (C++'s and
Java's call targets, :mod:`codeagent.symbols.cpp_targets`, :mod:`codeagent.symbols.java_targets`).
A default value that holds a ``<`` or ``>`` outside brackets is not read (the call fits)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.symbols.types import Definition


def fits(d: Definition, count: int | None) -> bool:
    """Whether a call with ``count`` arguments (None: not known) may call ``d``, as the
    parameters its signature writes say (defaults may be left out, ``...`` takes any number;
    a signature cut short says nothing)."""
    if count is None:
        return True
    signature = d.signature
    start = signature.find(f"{d.name}(")
    if start < 0 or signature.endswith("..."):
        return True
    depth = 0
    params: list[str] = []
    current: list[str] = []
    quote, escaped = "", False  # inside a literal ('a', "x, y"): no bracket, no comma counts
    for char in signature[start + len(d.name) + 1 :]:
        if quote:
            quote = "" if char == quote and not escaped else quote
            escaped = char == "\\" and not escaped
        elif char in "'\"":
            quote = char
        elif char in "(<[{":
            depth += 1
        elif char in ")>]}":
            if depth == 0 and char == ")":
                break
            depth -= 1
        elif char == "," and depth == 0:
            params.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    else:
        return True  # no end to the parameters
    params.append("".join(current).strip())
    if params in ([""], ["void"]):
        return count == 0
    if any("..." in p for p in params):
        return count >= sum(1 for p in params if "..." not in p and "=" not in p)
    return sum(1 for p in params if "=" not in p) <= count <= len(params)


def counted(written: str) -> tuple[str, int | None]:
    """A call's target as written and the number of its arguments (``T.send#2``: 2), or
    None where the target does not end with one."""
    if "#" not in written:
        return written, None
    target, _, count = written.rpartition("#")
    return target, int(count) if count.isdigit() else None
