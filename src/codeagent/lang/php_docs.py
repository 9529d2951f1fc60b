"""PHP docblocks: the class a ``@param`` or ``@var`` tag states where the code declares none,
for :mod:`codeagent.lang.php_calls` (as a PHP language server reads them):

- ``@param T $x`` in the docblock of a function or method: its parameter ``$x`` when it is
  declared without a type;
- ``@var T $x``, or ``@var T`` over ``$x = ...;``: ``$x`` in the function the comment is in,
  over whatever else binds it there (flysystem's ``/** @var LocalFilesystemAdapter $adapter
  */`` over ``$adapter = $this->adapter()``, a ``foreach``'s value);
- ``@var T`` over a property declared without a type: that property; ``@param T $x`` for a
  promoted constructor parameter ``$x`` declared without one: its property too;
- ``@property T $x`` (``-read``, ``-write``) over a class: its magic property ``x`` (one its
  ``__get`` answers), unless its code declares ``x``.

One class only (``T``, ``?T``, ``T|null``, a name made whole by the file's ``use``); a generic,
a union or a built-in type states none. An array of one class (``T[]``, ``list<T>``,
``array<T>``, ``array<K, T>``, ``iterable<T>``) states the class of its elements: ``@param``
and ``@var`` for a variable of the function, ``@var`` over a property (typed ``array`` or not),
read where a ``foreach`` takes its values (monolog's ``/** @var list<HandlerInterface> */
protected array $handlers;`` then ``foreach ($this->handlers as $handler)
$handler->handle($record)``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tree_sitter import Node

    from codeagent.lang.ts_names import Nest
    from codeagent.lang.ts_receivers import Text


class _Calls(Protocol):
    """What is read of :class:`codeagent.lang.php_calls._Calls`."""

    text: Text
    decls: dict[str, list[list[Any]]]
    elements: dict[tuple[int, str], str]
    props: dict[tuple[int, str], str]
    classes: Nest
    arrays: list[tuple[int, int, str, str]]
    function_spans: list[tuple[int, int, str]]

    def _prop(self, var: Node, written: str, elements: bool = False) -> None: ...
    def _class_ref(self, at: int) -> str | None: ...
    def _whole(self, written: str, at: int) -> str: ...


# a docblock's @param or @var tag: its type, and the variable it names (without its $)
_TAG = re.compile(
    r"@(param|var|property(?:-read|-write)?)[ \t]+((?:[^\s$<]|<[^>\n]*>)+)"
    r"(?:[ \t]+(?:\.\.\.)?\$(\w+))?"
)
_CLASS_NAME = re.compile(r"\\?[A-Za-z_]\w*(?:\\[A-Za-z_]\w*)*|\$this")
_BUILT_IN = frozenset({
    "string", "int", "integer", "float", "double", "bool", "boolean", "array", "mixed",
    "callable", "iterable", "object", "void", "resource", "never", "true", "false", "scalar",
    "numeric", "list", "self", "static", "parent",
})  # fmt: skip
_DOCUMENTED = frozenset({"function_definition", "method_declaration"})
_CLASSES = frozenset({"class_declaration", "interface_declaration", "trait_declaration"})
# an array of one type: T[], list<T>, array<T>, array<K, T>, iterable<T>, non-empty-list<T>
_ARRAY = re.compile(
    r"\??(?:(?P<of>[\\\w]+)\[\]"
    r"|(?:non-empty-)?(?:list|array|iterable)<(?:[^<>,]+,\s*)?(?P<in>[\\\w]+)>)"
)


def _assigned(statement: Node | None, text: Text) -> str:
    """The variable ``statement`` assigns (``$x = ...;``), else ""."""
    if statement is None or statement.type != "expression_statement":
        return ""
    inner = statement.named_children[0] if statement.named_child_count else None
    left = inner.child_by_field_name("left") if inner is not None else None
    if inner is None or inner.type != "assignment_expression" or left is None:
        return ""
    return text(left) if left.type == "variable_name" else ""


def read(walk: _Calls, doc: Node) -> None:
    """The classes a docblock's tags state: ``@param T $x`` for a parameter of the function
    it documents declared without a type, ``@var T $x`` (or ``@var T`` over an assignment
    to ``$x``) for ``$x`` in its function from there on, ``@var T`` over a property
    declared without a type for that property."""
    text, after = walk.text, doc.next_named_sibling
    for tag, written, name in _TAG.findall(text(doc)):
        if tag.startswith("property"):  # a class's magic property (``__get``)
            _magic(walk, after, written, name, doc.start_byte)
            continue
        stated = _class(walk, written, doc.start_byte)
        if not stated:
            _array(walk, tag, written, name, doc)
            continue
        if tag == "param":
            if after is not None and after.type in _DOCUMENTED:
                _param(walk, after, f"${name}", stated)
                for promoted in _promoted(walk, after, f"${name}", untyped=True):
                    walk._prop(promoted, stated)
        elif after is not None and after.type == "property_declaration":
            if after.child_by_field_name("type") is None:
                for element in after.named_children:
                    var = element.child_by_field_name("name")
                    if element.type == "property_element" and var is not None:
                        walk._prop(var, stated)
        else:
            var_name = f"${name}" if name else _assigned(after, text)
            if var_name:  # a binding of its own, which the others give way to
                walk.decls.setdefault(var_name, []).append([doc, None, stated, True])


def _array(walk: _Calls, tag: str, written: str, name: str, doc: Node) -> None:
    """An array type's elements (``T[]``, ``list<T>``, ...): ``@var`` over a property, or a
    variable ``$name`` of the function ``@param`` documents or ``@var`` is in."""
    element = _element(walk, written, doc.start_byte)
    after = doc.next_named_sibling
    if not element or after is None:
        return
    if tag == "param":
        if after.type in _DOCUMENTED:
            walk.arrays.append((after.start_byte, after.end_byte, f"${name}", element))
            for promoted in _promoted(walk, after, f"${name}"):  # and its property's
                walk._prop(promoted, element, elements=True)
    elif after.type == "property_declaration":
        for item in after.named_children:
            var = item.child_by_field_name("name")
            if item.type == "property_element" and var is not None:
                walk._prop(var, element, elements=True)
    else:
        var_name = f"${name}" if name else _assigned(after, walk.text)
        at = doc.start_byte
        spans = [(s, e) for s, e, _ in walk.function_spans if s <= at < e]
        if var_name and spans:
            start, end = max(spans)  # the innermost function
            walk.arrays.append((start, end, var_name, element))


def _param(walk: _Calls, function: Node, name: str, stated: str) -> None:
    """``@param``: the class of ``function``'s parameter ``name`` declared without one."""
    params = function.child_by_field_name("parameters")
    for param in params.named_children if params is not None else ():
        var = param.child_by_field_name("name")
        if param.type != "simple_parameter" or var is None or walk.text(var) != name:
            continue
        if param.child_by_field_name("type") is None:
            for decl in walk.decls.get(name, ()):
                if decl[0].start_byte == var.start_byte:
                    decl[2] = stated


def _magic(walk: _Calls, cls: Node | None, written: str, name: str, at: int) -> None:
    """``@property T $name`` (``-read``, ``-write``) over the class ``cls``: its property
    ``name`` is a ``T`` (or holds ``T``s: ``T[]``), unless its code declares it."""
    if cls is None or not name or cls.type not in _CLASSES:
        return
    where = walk.classes.inner(cls.start_byte, cls.end_byte)
    stated = _class(walk, written, at)
    element = "" if stated else _element(walk, written, at)
    if where >= 0 and (stated or element):
        (walk.props if stated else walk.elements).setdefault((where, name), stated or element)


def _promoted(walk: _Calls, function: Node, name: str, untyped: bool = False) -> list[Node]:
    """The name of ``function``'s promoted constructor parameter ``name`` (``__construct(private
    iterable $generators)``: a property too), declared without a type with ``untyped``."""
    params = function.child_by_field_name("parameters")
    found = []
    for param in params.named_children if params is not None else ():
        var = param.child_by_field_name("name")
        if param.type != "property_promotion_parameter" or var is None or walk.text(var) != name:
            continue
        if not (untyped and param.child_by_field_name("type")):
            found.append(var)
    return found


def _element(walk: _Calls, written: str, at: int) -> str:
    """The class of an array type's elements (``T[]``, ``list<T>``, ...) made whole; ""."""
    shape = _ARRAY.fullmatch(written)
    return _class(walk, shape.group("of") or shape.group("in"), at) if shape else ""


def _class(walk: _Calls, written: str, at: int) -> str:
    """A docblock's type made whole: one class (``T``, ``?T``, ``T|null``, ``\\A\\T``);
    "" for a built-in type, an array (``T[]``, ``array<T>``), a generic or a union."""
    parts = [p for p in written.lstrip("?").split("|") if p.lower() != "null"]
    if len(parts) != 1 or not _CLASS_NAME.fullmatch(parts[0]):
        return ""
    if parts[0].lower() in _BUILT_IN:
        return ""
    if parts[0] == "$this":
        return walk._class_ref(at) or ""
    return walk._whole(parts[0], at)
