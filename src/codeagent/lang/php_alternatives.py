"""A PHP variable whose bindings in its function state classes written differently, for
:mod:`codeagent.lang.php_calls`: flysystem's ``function move(..., Config $config)`` then
``$config = $config->withDefaults(...)``: the parameter says ``Config``, the assignment what
``Config::withDefaults`` is declared to return, which only the other file says. Such a
variable is written ``{A|B.g()}``, and :mod:`codeagent.symbols.php_targets` ties its calls
when every alternative is the same class there. A binding that states none, or is read while
it is being read (``$x = $x->next()``: the others decide), keeps it by name as before."""

from __future__ import annotations

import re

READING = "\0"  # a binding while its own class is being read
OUTER = "\1"  # a closure's ``use ($x)``: what ``$x`` is in the function around the closure
# one alternative: a class (whole, or a class of the file as Name@line) or what its methods
# return, each called on what the one before returns (``$x = $l->map(..)``, ``$x = $x->map(..)``)
_ONE = re.compile(r"[^{}|.()$]+(?:\.\w+\(\))*")


def agreed(found: set[str]) -> str | None:
    """The class the bindings' ``found`` classes say: the one, ``{A|B.g()}`` when they are
    written differently, None when one states none."""
    found = found - {READING}
    if len(found) == 1:
        return found.pop() or None
    if not found or "" in found or not all(_ONE.fullmatch(one) for one in found):
        return None
    return "{" + "|".join(sorted(found)) + "}"


def split(written: str) -> tuple[list[str], str] | None:
    """``{A|B.g()}.rest`` -> ``(["A", "B.g()"], "rest")``; None for any other target."""
    close = written.find("}.")
    if not written.startswith("{") or close < 0:
        return None
    return written[1:close].split("|"), written[close + 2 :]
