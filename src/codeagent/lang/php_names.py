"""A PHP file's class names made whole as PHP makes them (:mod:`codeagent.lang.php_calls`):
each ``namespace``'s region and the classes its ``use`` declarations import, by the name each
is known by (``use A\\B\\C;``: ``C``; ``use A\\B\\C as D;``: ``D``; ``use A\\{B, C as D};``).

    names = Names(text, [(start, "App\\Net"), ...], [use_declaration nodes])
    names.whole("Client", at)      # "App\\Base\\Client" (use App\\Base\\Client;)
    names.whole("Log\\Line", at)   # "App\\Log\\Line" (use App\\Log;)
    names.whole("\\Countable", at) # "Countable"
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_receivers import Text

NAMES = frozenset({"name", "qualified_name"})


class Names:
    """The namespaces of one file (``(where it starts, its name)``, in order) and the classes
    each region's ``use`` declarations import."""

    def __init__(self, text: Text, spaces: list[tuple[int, str]], uses: list[Node]) -> None:
        self.text = text
        self.spaces = spaces
        self.starts = [start for start, _name in spaces]
        self.aliases: list[dict[str, str]] = [{} for _ in range(len(spaces) + 1)]
        for node in uses:
            self._use(node, self.aliases[self._region(node.start_byte)])

    def whole(self, written: str, at: int) -> str:
        """The class name ``written`` at ``at`` made whole: ``\\A\\B`` as written (without
        its ``\\``), a name a ``use`` imports (its first part), ``namespace\\A``, else the
        name in the namespace there."""
        if written.startswith("\\"):
            return written[1:]
        region = self._region(at)
        head, sep, rest = written.partition("\\")
        if head.lower() == "namespace" and sep:
            written = rest
        else:
            imported = self.aliases[region].get(head.lower())
            if imported is not None:
                return f"{imported}{sep}{rest}"
        space = self.spaces[region - 1][1] if region else ""
        return f"{space}\\{written}" if space else written

    def _region(self, at: int) -> int:
        """The namespace at ``at``: 1 + its index in ``spaces`` (0: none)."""
        return bisect_right(self.starts, at)

    def _use(self, node: Node, aliases: dict[str, str]) -> None:
        """The classes a ``use`` declaration imports (``use function``, ``use const``: none)."""
        if any(child.type in ("function", "const") for child in node.children):
            return
        prefix = ""
        clauses = [c for c in node.named_children if c.type == "namespace_use_clause"]
        for child in node.named_children:
            if child.type == "namespace_name":  # use A\{B, C as D}
                prefix = self.text(child).strip("\\") + "\\"
            elif child.type == "namespace_use_group":
                clauses += [c for c in child.named_children if c.type == "namespace_use_clause"]
        for clause in clauses:
            alias = clause.child_by_field_name("alias")
            named = next((c for c in clause.named_children if c.type in NAMES), None)
            if named is None or (alias is not None and named == alias):
                continue
            whole = prefix + self.text(named).strip("\\")
            known = self.text(alias) if alias is not None else whole.rpartition("\\")[2]
            aliases[known.lower()] = whole
