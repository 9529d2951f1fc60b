"""The order in which a class's bases are searched for its methods, over the repository's
classes: Python's C3 linearisation (what ``type.mro`` computes) and, for other languages and
where no C3 order exists, breadth first, left to right, each base once."""

from __future__ import annotations

from collections.abc import Callable

from codeagent.symbols.types import Definition


def c3_order(
    cls: Definition,
    bases_of: Callable[[Definition], list[Definition]],
    active: frozenset[str] = frozenset(),
) -> list[Definition] | None:
    """``cls`` and its bases (``bases_of``, recursively) in C3 order; None for a cycle or
    bases no such order exists for (Python refuses those classes)."""
    if cls.full_name in active:
        return None
    bases = bases_of(cls)
    seqs: list[list[Definition]] = []
    for base in bases:
        linear = c3_order(base, bases_of, active | {cls.full_name})
        if linear is None:
            return None
        seqs.append(linear)
    seqs.append(bases)
    out = [cls]
    seqs = [seq for seq in seqs if seq]
    while seqs:
        head = next(
            (
                seq[0]
                for seq in seqs
                if not any(seq[0].full_name in (d.full_name for d in s[1:]) for s in seqs)
            ),
            None,
        )
        if head is None:
            return None
        out.append(head)
        seqs = [s[1:] if s[0].full_name == head.full_name else s for s in seqs]
        seqs = [seq for seq in seqs if seq]
    return out


def breadth_first(
    cls: Definition,
    bases_of: Callable[[Definition], list[tuple[str, Definition]]],
    seen: set[str],
) -> list[tuple[Definition, str | None]]:
    """``(cls, None)``, then each base ``(d, its full name)`` breadth first, left to right,
    skipping the names in ``seen`` (which gains every name listed)."""
    out: list[tuple[Definition, str | None]] = [(cls, None)]
    seen.add(cls.full_name)
    todo = [cls]
    while todo:
        current = todo.pop(0)
        for name, d in bases_of(current):
            if name not in seen:
                seen.add(name)
                out.append((d, name))
                todo.append(d)
    return out
