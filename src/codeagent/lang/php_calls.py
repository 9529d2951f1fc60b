"""Each PHP call's target as the file names it, read from the declared types the code states
(no inference), its class names made whole by the file's ``namespace`` and ``use`` as PHP
makes them: resolved across files by :mod:`codeagent.symbols.php_targets`.

    found = read(tree, QueryCursor(Query(lang, PHP_CALLS)).matches(root), spans)
    found.calls     # [[line, name, scope], [line, name, scope, "App\\Net\\Client.send"], ...]
    found.bindings  # [["Http@10", "Handler", "App\\Base\\Handler"], ...]: the classes' bases

The forms (``REF``: ``Name@line``, a class of the file by its name's line; a class name whole):

- ``$this->f()``, ``self::f()``, ``static::f()``: ``REF.f`` (the class's own or inherited
  ``f``); ``parent::f()``: ``^REF.f`` (the bases of the class only);
- ``$x->f()`` and ``$x?->f()`` where ``$x`` is a parameter declared with a class (``Client
  $x``, ``?Client $x``), a caught exception (``catch (E $e)``) or a local every assignment
  of which in its function says the same class (``new T(...)``, a method's result below):
  ``T.f``; ``$this->x->f()`` where the class declares the property ``x`` with a class
  (``private Client $x``, a promoted constructor parameter): the same (one it does not
  declare: ``REF.$x.f``, a parent's or a trait's); ``(new T)->f()``;
- ``T::f()``: ``T.f``; ``new T(...)``: ``=T``, the class itself (``new self``: ``=REF``);
  ``T::C->f()`` (or ``$x->f()`` with ``$x = T::C``): ``T::.f``, ``f`` of ``T`` if an enum;
- ``x->g()->f()``, ``T::g()->f()``: ``T.g().f``: ``f`` of the class ``T.g`` is declared to
  return (``: T``, ``: ?T``; ``: static``: ``T``): ``b`` rows, as are bases, traits, properties;
- ``self::$p->f()``, ``static::$p->f()``: as ``$this->p->f()``;
- ``$this->p[$k]->f()``, ``$x[$k]->f()``: the class of an array's elements a docblock states.

A closure's ``use ($x)``: ``$x`` of the function around it. A variable bound any other way too
(untyped, a union, ``list()``, by reference, ``global``, ``static``), ``$$x``, ``$x::f()``, a
function's call: by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codeagent.lang import (
    php_alternatives,
    php_bindings,
    php_docs,
    php_elements,
    php_members,
    php_narrowing,
    php_values,
)
from codeagent.lang.php_names import NAMES, Names
from codeagent.lang.ts_calls import Found
from codeagent.lang.ts_names import Nest, call_rows
from codeagent.lang.ts_receivers import Text, reader

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

_NAME = "[(name) @name (qualified_name (name) @name .)]"
# The calls (0-4), the parameters and caught exceptions (5), the assignments (6), the other
# bindings of a variable (7), the typed properties (8), the classes (9), the functions (10),
# the namespaces (11), the ``use`` declarations (12), the traits a class uses (13) and the
# methods' declared return types (14) and the ``instanceof`` checks (15), found in one pass in C.
PHP_CALLS = f"""
(member_call_expression object: (_) @obj name: (name) @name) @call
(nullsafe_member_call_expression object: (_) @obj name: (name) @name) @call
(scoped_call_expression scope: (_) @obj name: (name) @name) @call
(object_creation_expression {_NAME}) @call
(function_call_expression function: {_NAME}) @call
[(simple_parameter type: (_)? @type name: (variable_name) @var)
 (property_promotion_parameter type: (_)? @type name: (variable_name) @var)
 (variadic_parameter name: (variable_name) @var)
 (catch_clause type: (_) @type name: (variable_name) @var)] @decl
(assignment_expression left: [(variable_name) (member_access_expression)] @var right: (_) @value)
  @decl
[(foreach_statement (_) (variable_name) @var)
 (pair (variable_name) @var)
 (list_literal (variable_name) @var)
 (anonymous_function_use_clause (variable_name) @var)
 (by_ref (variable_name) @var)
 (static_variable_declaration name: (variable_name) @var)
 (global_declaration (variable_name) @var)
 (reference_assignment_expression left: (variable_name) @var)] @decl
(property_declaration type: (_) @type (property_element name: (variable_name) @var))
[(class_declaration) (interface_declaration) (trait_declaration) (enum_declaration)
 (anonymous_class)] @cls
[(function_definition) (method_declaration) (anonymous_function) (arrow_function)] @fn
(namespace_definition name: (namespace_name) @space)
(namespace_use_declaration) @use
(use_declaration [(name) (qualified_name)] @trait)
(method_declaration name: (name) @method return_type: (_) @type)
{php_narrowing.PATTERN}
((comment) @doc (#match? @doc "@(var|param|property(-read|-write)?)[ \\t]"))
"""
_DECL, _ASSIGN, _OTHER, _FIELD, _CLASS, _FUNCTION, _SPACE, _USE, _TRAIT, _RETURN = range(5, 15)
_CHECK = 15


def read(
    tree: Tree, matches: list[tuple[int, dict[str, list[Node]]]], spans: list[tuple[int, int, int]]
) -> Found:
    """The call rows with their targets (``spans``: the definitions' byte spans ``(start,
    end, row)``, a call's scope the innermost one holding its name) and the classes' bases
    made whole."""
    text = reader(tree.root_node)
    walk = _Calls(text)
    calls: list[dict[str, list[Node]]] = []
    for pattern, captures in matches:
        if pattern < _DECL:
            calls.append(captures)
        elif pattern <= _OTHER:
            walk.binds.append((pattern, captures))
        elif pattern == _FIELD:
            walk.fields.append((captures["var"][0], captures["type"][0]))
        elif pattern == _CLASS:
            walk.class_nodes.append(captures["cls"][0])
        elif pattern == _FUNCTION:
            node = captures["fn"][0]
            walk.function_spans.append((node.start_byte, node.end_byte, node.type))
        elif pattern == _SPACE:
            walk.spaces.append((captures["space"][0].start_byte, text(captures["space"][0])))
        elif pattern == _USE:
            walk.uses.append(captures["use"][0])
        elif pattern == _TRAIT:
            walk.members.append(("use", captures["trait"][0]))
        elif pattern == _RETURN:
            walk.members.append((text(captures["method"][0]), captures["type"][0]))
        elif pattern == _CHECK:
            walk.tests.append(captures)
        else:
            walk.docs.append(captures["doc"][0])
    found = Found()
    if calls or walk.class_nodes:
        walk.prepare()
        found.calls = call_rows(calls, spans, text, walk.target) if calls else []
        found.bindings = php_members.rows(walk)
    return found


class _Calls:
    """The namespaces, imports, classes and variables of one file, and each call's target."""

    def __init__(self, text: Text) -> None:
        self.text = text
        self.binds: list[tuple[int, dict[str, list[Node]]]] = []
        self.fields: list[tuple[Node, Node]] = []  # (the property's name, its type)
        self.class_nodes: list[Node] = []
        self.function_spans: list[tuple[int, int, str]] = []
        self.spaces: list[tuple[int, str]] = []  # (where it starts, the namespace)
        self.uses: list[Node] = []
        self.members: list[tuple[str, Node]] = []  # ("use", a trait), (a method, its type)
        self.docs: list[Node] = []  # the comments that hold a @var or a @param tag
        self.tests: list[dict[str, list[Node]]] = []  # the instanceof checks
        self.sets: list[tuple[Node, Node]] = []  # ``$this->p = value``: (the left, the value)

    def prepare(self) -> None:
        """The lookups, once every match is read (a name is made whole where it is)."""
        text = self.text
        self.names = Names(text, self.spaces, self.uses)
        refs = []
        for node in self.class_nodes:
            named = node.child_by_field_name("name")
            ref = f"{text(named)}@{named.start_point[0] + 1}" if named is not None else ""
            refs.append((node.start_byte, node.end_byte, ref))
        self.classes = Nest(refs)
        self.functions: Nest | None = None  # built when a call first asks for a variable
        self.props: dict[tuple[int, str], str] = {}  # (class, property) -> its class
        self.elements: dict[tuple[int, str], str] = {}  # ... -> its array's elements' class
        self.arrays: list[tuple[int, int, str, str]] = []  # (function, $x, its elements' class)
        for var, typed in self.fields:
            self._prop(var, php_values.declared(self, typed, var.start_byte))
        # $name -> [its node, then its function; what states its class; that class], read when
        # a call asks for the name
        self.decls: dict[str, list[list[Any]]] = {}
        for pattern, captures in self.binds:
            var = captures["var"][0]
            stated: Node | None = None
            if var.type == "member_access_expression":  # $this->p = ...: p's class, if it agrees
                self.sets.append((var, captures["value"][0]))
                continue
            if pattern == _DECL and "type" in captures:
                stated = captures["type"][0]
                if captures["decl"][0].type == "property_promotion_parameter":
                    self._prop(var, php_values.declared(self, stated, var.start_byte))
            elif pattern == _ASSIGN:
                stated = captures["value"][0]
            elif php_elements.takes_values(captures["decl"][0], var):
                stated = captures["decl"][0]  # a foreach's value: what the array holds
            elif captures["decl"][0].type == _CLOSURE_USE:
                stated = captures["decl"][0]  # what it is in the function around the closure
            self.decls.setdefault(text(var), []).append([var, stated, None])
        for doc in self.docs:
            php_docs.read(self, doc)
        self.checks = php_narrowing.checks(self.tests, text, self._whole)

    def _prop(self, var: Node, written: str, elements: bool = False) -> None:  # or its array's
        cls = self.classes.inner(var.start_byte, var.end_byte)
        if cls >= 0:
            (self.elements if elements else self.props)[(cls, self.text(var)[1:])] = written

    def target(self, captures: dict[str, list[Node]], name: str, at: int, scope: int) -> str | None:
        call = captures["call"][0]
        if call.type == "object_creation_expression":
            return f"={made}" if (made := php_values.of(self, call, at)) else None
        obj = captures.get("obj")
        return self._called(call, name, at, obj[0]) if obj else None

    def _called(self, call: Node, name: str, at: int, obj: Node | None = None) -> str | None:
        """The target of the method call ``call`` (of ``name``; ``obj``: its receiver)."""
        kind = call.type
        if obj is None:
            obj = call.child_by_field_name("scope" if kind == _SCOPED else "object")
        if obj is None:
            return None
        if kind != _SCOPED:
            receiver = self._receiver(obj, at)
            return f"{receiver}.{name}" if receiver else None
        if obj.type == "relative_scope":
            word, ref = self.text(obj).lower(), self._class_ref(at)
            if not ref:
                return None
            return f"^{ref}.{name}" if word == "parent" else f"{ref}.{name}"
        whole = self._whole(self.text(obj), at) if obj.type in NAMES else ""
        return f"{whole}.{name}" if whole else None

    def _receiver(self, obj: Node, at: int) -> str | None:
        kind, text = obj.type, self.text
        if self.checks and (checked := php_narrowing.narrowed(self.checks, text(obj), at)):
            return checked  # an instanceof check says so here
        if kind == "variable_name":
            name = text(obj)
            return self._class_ref(at) if name == "$this" else php_bindings.variable(self, name, at)
        if kind in ("member_access_expression", "nullsafe_member_access_expression"):
            inner, field = obj.child_by_field_name("object"), obj.child_by_field_name("name")
            if inner is None or field is None or field.type != "name":
                return None
            if text(inner) != "$this":  # $x->p->f(): p of $x's class (its b rows say which)
                owner = self._receiver(inner, at) or "()"  # a call's result, {A|B.g()} agreed
                plain = ".$" not in owner and ("()" not in owner or owner[0] + owner[-1] == "{}")
                return f"{owner}.${text(field)}" if plain else None
            return self._own(text(field), at)
        if kind == "scoped_property_access_expression":  # self::$p->f(), static::$p->f()
            scope, field = obj.child_by_field_name("scope"), obj.child_by_field_name("name")
            own = scope is not None and text(scope).lower() in ("self", "static")
            return self._own(text(field)[1:], at) if own and field is not None else None
        if kind in _CALLS:  # a call's result: what the method is declared to return
            called = obj.child_by_field_name("name")
            found = self._called(obj, text(called), at) if called is not None else None
            return f"{found}()" if found else None
        if kind == "parenthesized_expression" and obj.named_child_count == 1:
            obj = obj.named_children[0]
        if obj.type == "subscript_expression":  # $this->p[$k]->f(): a documented array's element
            return php_elements.of(self, obj, at) or None
        return php_values.of(self, obj, at)  # (new T)->f(), T::C->f(): C a case of the enum T

    def _own(self, prop: str, at: int) -> str | None:
        """The class of the property ``prop`` of the class at ``at``: declared by it, else
        ``REF.$prop`` (a parent's or a trait's)."""
        cls = self.classes.inner(at, at)
        found = self.props.get((cls, prop)) if cls >= 0 else ""
        if found is None:
            return f"{self.classes.items[cls]}.${prop}" if self.classes.items[cls] else None
        return found or None

    def _stated(self, decl: list[Any]) -> str:
        """The class one binding states ("" none), read once."""
        if decl[2] is None:
            node: Node | None = decl[1]
            decl[2] = php_alternatives.READING  # ``$x = $x->next()``: the others decide
            if node is not None:
                kind, at = node.type, node.start_byte
                if kind in _CALLS:
                    decl[2] = self._receiver(node, at) or ""
                elif kind in php_values.VALUES:
                    decl[2] = php_values.of(self, node, at) or ""
                elif kind == _CLOSURE_USE:
                    decl[2] = php_alternatives.OUTER
                elif kind in _READS:  # $x = $y, $x = $this->p: what it is
                    decl[2] = self._receiver(node, at) or ""
                elif kind in php_values.TYPES:
                    decl[2] = php_values.declared(self, node, at)
                else:  # a foreach
                    decl[2] = php_elements.of(self, node, at)
        return str(decl[2])

    def _whole(self, written: str, at: int) -> str:
        """A class name made whole at ``at`` (:class:`Names`); ``self`` and ``static``: the
        class's REF ("" for ``parent`` or outside a class)."""
        lower = written.lower()
        if lower in ("self", "static"):
            return self._class_ref(at) or ""
        return "" if lower == "parent" else self.names.whole(written, at)

    def _class_ref(self, at: int) -> str | None:
        """The class whose code is at ``at`` (None in an anonymous class or outside one)."""
        i = self.classes.inner(at, at)
        return self.classes.items[i] or None if i >= 0 else None


_SCOPED = "scoped_call_expression"
_CLOSURE_USE = "anonymous_function_use_clause"
_READS = frozenset(
    {"variable_name", "member_access_expression", "nullsafe_member_access_expression"}
    | {"scoped_property_access_expression"}
)
_CALLS = frozenset({"member_call_expression", "nullsafe_member_call_expression", _SCOPED})
