"""Functions a script defines by assignment, found by the name they are assigned to.

JavaScript written before classes defines its methods as properties: express's
``res.json = function json(obj) {…}``, ``View.prototype.lookup = function lookup(name) {…}``,
``exports.normalizeType = function (type) {…}``. The definition is the function (``json``,
``lookup``), and a user asks for it by what it is assigned to: "where is res.json defined?",
"where is View.lookup defined?". When no definition's dotted name ends with the name asked,
the definitions named by its last part whose signature assigns them to it (its object, the
object's ``prototype``) answer it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeagent.symbols.types import Definition


def assigned_to(name: str, candidates: Sequence[Definition]) -> list[Definition]:
    """Those of ``candidates`` (definitions named by ``name``'s last part) whose signature
    assigns them to the dotted ``name``: ``OBJ.NAME = …`` or ``OBJ.prototype.NAME = …``."""
    owner, _, last = name.rpartition(".")
    if not owner or not last:
        return []
    written = re.compile(
        rf"(?<![\w.$]){re.escape(owner)}(?:\.prototype)?\.{re.escape(last)}\s*=(?!=)"
    )
    return [d for d in candidates if written.match(d.signature.lstrip()) is not None]
