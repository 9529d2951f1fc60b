"""Python definitions that do no work, which a question asking how something is done is shown
after the code that does it (:mod:`codeagent.rank.declarations`, which scores them down).

- a class's head (:func:`is_class_head`): a class longer than a chunk is cut into its head (the
  ``class`` line, docstring and fields) and one chunk per method, and the head's docstring says
  what the class is for in the question's words (black's ``Cache`` dataclass came first for
  "how is the cache of already formatted files invalidated?");
- an accessor (:func:`is_accessor`): a function whose body only reads or sets an attribute, with
  no call (cleo's ``Output.verbosity`` before ``Output.write`` for "explain how output
  verbosity works");
- a stub (:func:`is_stub`): an ``@overload``'s signature, a ``Protocol``'s methods, an abstract
  method (tenacity's typed ``retry`` overloads before the code that retries);
- a module's lines that only import (:func:`is_imports`);
- a method that only passes its call on to the method of the same name of an object it holds
  or of its base, with its own arguments (:func:`is_forwarder`: a proxy's ``addHandler``);
- a method that says how its object prints (:func:`is_display`: ``__repr__``, ``__str__``),
  unless the question asks how something prints (:func:`asks_display`); it names every field
  of its object in the question's words.
"""

from __future__ import annotations

import ast
import re
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.records import Chunk

CALLABLE = frozenset({"function", "method"})
STUBBED = CALLABLE | {"class"}
_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]", re.M)  # a Python method's first line
ACCESSOR_LINES = 12  # a Python accessor, decorators and docstring included, is this short
# ... and its last line returns or sets a value without a call (what ast then checks whole)
_LAST_READ = re.compile(r"\s*(?:return\b[^()]*|[\w.]+\s*(?::[^=()]*)?=[^=()][^()]*)$")
DISPLAY = frozenset({"__repr__", "__str__", "__format__"})
_DISPLAY_WORDS = re.compile(
    r"\b(?:repr|str|string|strings|print\w*|display\w*|represent\w*|render\w*|format\w*|shown)\b"
    r"|__(?:repr|str|format)__",
    re.IGNORECASE,
)
# a module's lines that may only import: an import first, or a docstring or comment
_IMPORT_START = re.compile(r"\s*(?:import\s|from\s|#|\"\"\"|'''|[rRuU]?\"\"\")")
# ... and a forwarder's last line: a call of a method of the same name on what it holds
_FORWARD_LAST = re.compile(r"\s*(?:return\s+|await\s+|return\s+await\s+)?[\w.()]+\.(\w+)\(.*\)\s*$")
_OWNERS = frozenset({"self", "cls"})  # whose held objects a method passes its call on to
# ... and a stub's last line: ``...`` (after a signature, or alone), ``pass``, a raise
_STUB_END = re.compile(r"(?:\.\.\.|\bpass|raise\s+NotImplementedError\b.*)\s*$")


def is_imports(chunk: Chunk) -> bool:
    """Whether ``chunk``, a Python module's own lines, only imports (its docstring aside):
    ``from numbers import Number`` says "number" and does nothing (jmespath's imports came
    first for "how does comparison of numbers and strings work?")."""
    if chunk.kind != "module" or _IMPORT_START.match(chunk.text) is None:
        return False
    try:
        tree = ast.parse(textwrap.dedent(chunk.text))
    except (SyntaxError, ValueError):
        return False  # a window of a longer statement
    body = tree.body[1:] if ast.get_docstring(tree, clean=False) is not None else tree.body
    return bool(body) and all(isinstance(s, ast.Import | ast.ImportFrom) for s in body)


def is_class_head(chunk: Chunk) -> bool:
    """Whether ``chunk``, a Python class's, holds no method: the head of a class cut into
    chunks (its ``class`` line, docstring and fields; each method a chunk of its own), or a
    class of fields alone."""
    return chunk.kind == "class" and _DEF.search(chunk.text) is None


def is_accessor(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole Python function or method, only reads or sets an attribute
    (``return self._verbosity``, ``return self._level >= Level.HIGH``, ``self._x = x``; its
    docstring aside): a call in it is work (``requests.get`` calls ``request``)."""
    found = _one_statement(chunk, _LAST_READ)
    if found is None:
        return False
    statement = found[1]
    if isinstance(statement, ast.Return):
        return statement.value is None or _plain(statement.value)
    if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return all(isinstance(t, ast.Attribute) for t in targets) and _plain(statement.value)
    return False


def is_forwarder(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole Python method, only passes its call on to the method of the
    same name of an object it holds or of its base (``self._logger.addHandler(hdlr)``,
    ``return super().save(*args)``; its docstring aside), with its own arguments: a proxy's
    method, which says nothing of how the work is done (structlog's ``addHandler``,
    ``removeHandler`` and ``callHandlers`` came first for "how does the stdlib integration pass
    events to logging handlers?")."""
    found = _one_statement(chunk, _FORWARD_LAST, chunk.symbol.rpartition(".")[2])
    if found is None:
        return False
    node, statement, last = found
    if last[1] != node.name or not isinstance(statement, ast.Return | ast.Expr):
        return False
    call = statement.value
    if isinstance(call, ast.Await):
        call = call.value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return False
    if call.func.attr != node.name or not _held(call.func.value):
        return False
    return all(_passed(a) for a in call.args) and all(_passed(k.value) for k in call.keywords)


def _held(target: ast.expr) -> bool:
    """Whether ``target`` is an object a method holds (``self._logger``, ``cls.registry.x``) or
    its base (``super()``); not ``self`` itself, nor a module."""
    if isinstance(target, ast.Call):
        return isinstance(target.func, ast.Name) and target.func.id == "super"
    if not isinstance(target, ast.Attribute):
        return False
    while isinstance(target, ast.Attribute):
        target = target.value
    return isinstance(target, ast.Name) and target.id in _OWNERS


def _passed(node: ast.expr) -> bool:
    """An argument passed on as it came: a name, ``*args``, ``**kwargs``."""
    if isinstance(node, ast.Starred):
        node = node.value
    return isinstance(node, ast.Name)


def is_stub(chunk: Chunk) -> bool:
    """Whether ``chunk``, a whole Python function or method, has no body: ``...``, ``pass`` or
    ``raise NotImplementedError``, after its docstring or alone (an ``@overload``'s signature, a
    ``Protocol``'s or an abstract method; tenacity's three typed ``retry`` overloads came before
    the code that retries), or is a whole class whose methods are all such (a ``Protocol``)."""
    text = chunk.text.rstrip()
    if chunk.kind not in STUBBED or _STUB_END.search(text[text.rfind("\n") + 1 :]) is None:
        return False  # (read no further: this runs as a question comes, chunk by chunk)
    node = _definition(text)
    if isinstance(node, ast.ClassDef):
        methods = [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        return bool(methods) and all(map(_no_body, methods))
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _no_body(node)


def _no_body(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``node`` holds one empty statement, after its docstring or alone. A docstring
    alone is no stub: a plugin system's hook specifications are written so, and counted as stubs
    they left the windows of a SWE-QA question about sqlfluff's plugin hooks (its function at
    five lost)."""
    body = _statements(node)
    return len(body) == 1 and _empty(body[0])


def _one_statement(
    chunk: Chunk, last_line: re.Pattern[str], called: str | None = None
) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.stmt, re.Match[str]] | None:
    """A short whole function's definition, its one statement past its docstring and the match
    of ``last_line`` on its last line (whose first group, with ``called``, is that name: a
    forwarder calls a method of its own name, which its chunk's symbol ends with); None for
    anything else. ``last_line`` is tried first, as cheaply as a regular expression does: this
    runs as a question comes, chunk by chunk, and parsing is the cost."""
    text = chunk.text
    if chunk.kind not in CALLABLE or text.count("\n") > ACCESSOR_LINES:
        return None
    last = last_line.match(text[text.rstrip().rfind("\n") + 1 :])
    if last is None or (called is not None and last[1] != called):
        return None  # (read no further)
    node = _definition(text)
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    body = _statements(node)
    return (node, body[0], last) if len(body) == 1 else None


def _definition(text: str) -> ast.stmt | None:
    """The one statement ``text`` holds (a definition, when it is a whole one), or None: a
    window of a longer one, or more than one."""
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return None
    return tree.body[0] if len(tree.body) == 1 else None


def _statements(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    """The statements of ``node``'s body after its docstring."""
    return node.body[1:] if ast.get_docstring(node, clean=False) is not None else node.body


def _empty(statement: ast.stmt) -> bool:
    """``...``, ``pass``, ``raise NotImplementedError`` (called or not)."""
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant) and statement.value.value is Ellipsis
    if isinstance(statement, ast.Raise) and statement.exc is not None:
        exc = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return False


def is_display(chunk: Chunk) -> bool:
    """Whether ``chunk`` is a Python method that only says how its object prints
    (``__repr__``, ``__str__``, ``__format__``): it names every field of the object in the
    question's words (tenacity's ``RetryCallState.__repr__``, "attempt #…; slept for …", came
    first for "where does it sleep between attempts?")."""
    return chunk.kind in CALLABLE and chunk.symbol.rsplit(".", 1)[-1] in DISPLAY


def asks_display(question: str) -> bool:
    """Whether ``question`` asks how something prints (its representation, its string)."""
    return _DISPLAY_WORDS.search(question) is not None


def _plain(node: ast.expr) -> bool:
    """A value read without a call: a name, an attribute, a constant, comparisons or negations
    of them, and a dict, list, tuple or set of them (a node built from its parts:
    jmespath's ``projection(left, right)``, ``return {'type': 'projection', 'children': [left,
    right]}``, came first for "how is a projection evaluated?")."""
    if isinstance(node, ast.Name | ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        return _plain(node.value)
    if isinstance(node, ast.Compare):
        return _plain(node.left) and all(map(_plain, node.comparators))
    if isinstance(node, ast.BoolOp):
        return all(map(_plain, node.values))
    if isinstance(node, ast.UnaryOp):
        return _plain(node.operand)
    if isinstance(node, ast.Dict):
        return all(k is None or _plain(k) for k in node.keys) and all(map(_plain, node.values))
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(map(_plain, node.elts))
    return False
