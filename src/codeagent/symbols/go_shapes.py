"""A Go method's shape as its signature writes it: its parameters' and results' types, for
telling whether a type's method is the one an interface asks for (Go's implicit
implementation: :meth:`codeagent.symbols.hierarchy.Hierarchy.implicit_implementations`).

Types are compared as written, package qualifiers left out (``*echo.Context`` is
``*Context``: the interface and its implementations are often in two packages), ``interface{}``
as ``any``. A generic interface's methods are compared by their numbers of parameters and
results only (``Create(T, *T, C) Value`` is implemented by ``Create(v bool, p *bool, c
Config) Value``). A signature this does not read (cut short, no parameter list) says nothing:
the method fits.
"""

from __future__ import annotations

import re

Shape = tuple[tuple[str, ...], tuple[str, ...]]  # the parameters' types, the results' types

_QUALIFIER = re.compile(r"\b[A-Za-z_]\w*\.(?=[A-Za-z_])")
_TYPE_WORDS = ("chan", "func", "map", "struct", "interface")  # a type's first word, no name


def shape(signature: str, name: str) -> Shape | None:
    """The types of the parameters and results of method ``name`` as ``signature`` writes
    them (``func (c *Context) JSON(code int, i any) error`` or an interface's ``JSON(code
    int, i any) error``), or None where it cannot be read."""
    start = signature.find(f"{name}(")
    if start < 0:
        return None
    params, end = _group(signature, start + len(name))
    if params is None:
        return None
    rest = signature[end:].strip()
    if rest.startswith("("):
        results, _ = _group(rest, 0)
        if results is None:
            return None
    else:
        results = [rest] if rest and not rest.startswith("{") else []
    return _types(params), _types(results)


def fits(wanted: Shape | None, have: Shape | None, *, generic: bool = False) -> bool:
    """Whether a method of shape ``have`` is one of shape ``wanted`` (None: not known, fits);
    of a generic interface (``generic``), by the numbers of parameters and results."""
    if wanted is None or have is None:
        return True
    if generic:
        return tuple(map(len, wanted)) == tuple(map(len, have)) and _variadic(wanted) == (
            _variadic(have)
        )
    return wanted == have


def is_generic(signature: str) -> bool:
    """``ValueCreator[T any, C any] interface``: a type with type parameters."""
    return re.match(r"\s*\w+\s*\[", signature) is not None


def _variadic(s: Shape) -> bool:
    return bool(s[0]) and s[0][-1].startswith("...")


_MARKS = re.compile(r"[()\[\]{},]")


def _group(text: str, open_at: int) -> tuple[list[str] | None, int]:
    """The comma-separated parts (at depth 0) of the bracketed group opening at ``open_at``,
    and the index after its closing bracket; None where it does not close."""
    depth, start = 0, open_at + 1
    parts: list[str] = []
    for mark in _MARKS.finditer(text, open_at + 1):
        char = mark.group()
        if char in "([{":
            depth += 1
        elif char == "," and depth == 0:
            parts.append(text[start : mark.start()].strip())
            start = mark.end()
        elif char in ")]}":
            if depth == 0:
                parts.append(text[start : mark.start()].strip())
                return ([] if parts == [""] else parts), mark.end()
            depth -= 1
    return None, len(text)


def _split_name(part: str) -> tuple[str, str] | None:
    """(name, type) of ``c *Context``; None for a part that is a type alone."""
    head, _, rest = part.partition(" ")
    if not rest or not re.fullmatch(r"[A-Za-z_]\w*", head) or head in _TYPE_WORDS:
        return None  # a type alone (``int``, ``func(a int)``, ``chan int``, ``[]T``)
    return head, rest.strip()


def _types(parts: list[str]) -> tuple[str, ...]:
    """Each part's type: ``a, b int`` are two ``int`` (Go names all parameters or none)."""
    split = [_split_name(p) for p in parts]
    if not any(split):  # none named: each part is a type
        return tuple(_normal(p) for p in parts)
    out: list[str] = []
    pending = 0  # names waiting for the type written after them (``a, b int``)
    for named in split:
        if named is None:
            pending += 1
            continue
        out += [_normal(named[1])] * (pending + 1)
        pending = 0
    return tuple(out + ["?"] * pending)


def _normal(written: str) -> str:
    """A type as compared: no spaces, no package qualifiers, ``any`` for ``interface{}``, a
    function type's parameters without their names (``func(flag Value)`` is ``func(Value)``)."""
    written = written.strip()
    if written.startswith("func(") and (inner := shape(written, "func")) is not None:
        results = ",".join(inner[1])
        return f"func({','.join(inner[0])})" + (f"({results})" if results else "")
    text = _QUALIFIER.sub("", "".join(written.split()))
    return text.replace("interface{}", "any")
