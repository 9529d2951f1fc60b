"""What a call is a call *of*, as far as one Python file says: the callee as a dotted name in
the file's own namespace, or nothing (the call stays "by name").

    targets = CallTargets(structure, bound)  # bound: its binding nodes by scope
    targets.of(call_node, scope)   # "Client.send", "^Client.close", "outer.inner", or None

The name is written for the symbol graph, which resolves it across files
(:mod:`codeagent.symbols.call_targets`): its first part is a name the module binds (a
definition, an import) or a definition's qualified name; the rest are attributes, the last one
the called name. A leading ``!`` marks a name a function's own import binds (it wins over a
definition of the module of that name); a leading ``^`` marks ``super().name()`` inside
class ``C`` (``^C.name``: the method after ``C`` in ``C``'s method order). Bound by what the
code says, no inference:

- ``f()``: a definition of an enclosing function or of the module, or an import;
- ``self.f()`` / ``cls.f()`` in a method (its first parameter; ``cls`` in a classmethod):
  ``C.f`` for the class ``C`` of the method, looked up through its bases by the graph;
- ``super().f()``: ``^C.f``;
- ``x.f()`` where ``x`` is annotated ``x: T`` (``Optional[T]``, ``"T"``) and every other
  binding in its scope is ``T(...)`` (``None`` aside): ``T.f``; also a module-level ``x``;
- ``x.f()`` after ``with T() as x``: ``f`` of what ``T.__enter__`` returns;
- ``self.x.f()`` where the class annotates ``x: T`` or its methods only assign
  ``self.x = T(...)`` or ``self.x = p`` (``p: T`` a parameter): ``T.f``; ``with T() as
  self.x`` as for a name (:mod:`codeagent.symbols.attributes`);
- ``T(...).f()``: ``T.f``; ``mod.f()``, ``mod.sub.f()``, ``Class.f()``: as written, when the
  first name is bound in the module (an import, a definition).
- ``x.f()`` where ``x`` is a parameter pytest fills (a test's, a fixture's): ``@x.f``, ``f``
  of the value of the fixture ``x``, found by the graph (:mod:`codeagent.symbols.fixtures`).

A name bound any other way in the scope (a loop, an assignment from another call, ``global``)
leaves its calls by name (:mod:`codeagent.symbols.bindings`), unless the scope's statements
say which binding reaches the call: ``x = A()``, then ``x = B()``, then ``x.f()``, each a
statement of the scope itself, is ``B.f`` (:mod:`codeagent.symbols.flow`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from codeagent.pysyntax import Structure
from codeagent.symbols.bindings import (
    FUNCTIONS,
    IMPORTED,
    UNKNOWN,
    Entry,
    dotted,
    expression,
    kind_of,
    kinds,
)
from codeagent.symbols.flow import ScopeFlow
from codeagent.symbols.scopes import FileScopes

_MISSING = object()
_UNTYPED = frozenset({UNKNOWN, IMPORTED})


class CallTargets:
    """The call targets of one file (its scopes read once each, on first use)."""

    def __init__(self, structure: Structure, bound: dict[int | None, list[ast.AST]]) -> None:
        """``bound``: the file's binding nodes (:data:`BINDING_NODES`) by scope, in order."""
        self.structure = structure
        self.scopes = FileScopes(structure, bound)
        self._memo: dict[tuple[str, int | None], str | None] = {}
        self._exprs: dict[str, ast.expr | None] = {}  # a binding's text read back
        self._values: dict[int, str | None] = {}  # a binding call's object, by the call's id
        # per scope, name -> what it is there (memos of _find_name and _find_typed)
        self._names: dict[int | None, dict[str, str | None]] = {}
        self._typed: dict[int | None, dict[str, str | None]] = {}
        self._selves: dict[int | None, str | None] = {}  # scope -> the name of self there
        # (scope, name) of names the scope binds more than one way: a use is read with the
        # order of the scope's statements (:mod:`codeagent.symbols.flow`)
        self._mixed: set[tuple[int | None, str]] = set()
        self._flows: dict[int | None, ScopeFlow] = {}

    def of(self, call: ast.Call, scope: int | None) -> str | None:
        """The callee of ``call`` (made in the scope ``scope``) as a dotted name, or None."""
        func = call.func
        if type(func) is ast.Name:
            memo = self._names.get(scope)  # self._name, inline: the most common call
            if memo is not None:
                found = memo.get(func.id, _MISSING)
                if found is not _MISSING:
                    return found  # type: ignore[return-value]
            return self._name(func.id, scope)
        if type(func) is not ast.Attribute:
            return None
        owner = self._object(func.value, scope)
        return f"{owner}.{func.attr}" if owner else None

    def value(self, node: ast.expr, scope: int | None) -> str | None:
        """The object ``node`` (read in ``scope``) is, as the graph reads it: ``Client``,
        ``Client()``, ``make()``, ``@app.test_client()``; None when the code does not say."""
        return self._object(node, scope)

    # -- names --------------------------------------------------------------------------------

    def _name(self, name: str, scope: int | None) -> str | None:
        """The definition or import ``name`` refers to where ``scope`` reads it (the name the
        module binds, or a qualified name), or None for a variable."""
        memo = self._names.get(scope)
        if memo is None:
            memo = self._names[scope] = {}
        found = memo.get(name, _MISSING)
        if found is _MISSING:
            found = memo[name] = self._find_name(name, scope)
        return found  # type: ignore[return-value]

    def _find_name(self, name: str, scope: int | None, typed: bool = False) -> str | None:
        """The innermost visible definition, import or binding of ``name``; a variable is
        None, or with ``typed`` the one object its bindings say (:meth:`_one`)."""
        scopes = self.scopes
        for index in scopes.chains.get(scope) or scopes.visible(scope):
            names = scopes.named.get(index)
            if names is None:
                names = scopes.names(index)
            found = names.get(name)
            if found is None:
                continue
            if type(found) is str:  # a definition
                return found
            if found.count(IMPORTED) == len(found):
                return _imported(name, index)
            if not typed:
                return None
            one = self._one(found, index)
            if one is None and index == scope and len(found) > 1 and kinds(found) - _UNTYPED:
                self._mixed.add((scope, name))  # one of its bindings may say a type
            return one
        return name  # unbound in the file: a builtin, or nothing (the graph tells)

    def _object(self, node: ast.expr, scope: int | None) -> str | None:
        """The object an attribute is read from: a class (an instance's type), a module."""
        kind = type(node)
        if kind is ast.Name:
            found = self._typed_name(node.id, scope)  # type: ignore[attr-defined]
            if found is None and self._mixed:
                return self._reaching(node, scope)  # type: ignore[arg-type]
            return found
        if kind is ast.Call:
            assert isinstance(node, ast.Call)
            if _is_super(node):
                cls = self._method_class(scope)
                return f"^{cls}" if cls is not None else None
            callee = self.of(node, scope)  # T(...).f(): T's f; make().f(): what make returns
            return f"{callee}()" if callee else None
        if kind is ast.Attribute:
            assert isinstance(node, ast.Attribute)
            base = node.value
            if type(base) is ast.Name and self._is_self(base.id, scope):
                owner_class = self._class_of(scope)
                if owner_class is None:
                    return None
                return self._one(self.scopes.attributes(owner_class).get(node.attr), owner_class)
            owner = self._object(base, scope)
            if not owner or (owner.startswith("^") and "(" not in owner):
                return None  # super().x.f(): an attribute of the base class object
            return f"{owner}.{node.attr}"
        return None

    def _typed_name(self, name: str, scope: int | None) -> str | None:
        """A name read as an object: its type when its bindings say one, else what it names."""
        memo = self._typed.get(scope)
        if memo is None:
            memo = self._typed[scope] = {}
        found = memo.get(name, _MISSING)
        if found is _MISSING:
            if self._is_self(name, scope):
                found = memo[name] = self._method_class(scope)
            else:
                found = memo[name] = self._find_name(name, scope, typed=True)
        return found  # type: ignore[return-value]

    def _reaching(self, node: ast.Name, scope: int | None) -> str | None:
        """A name bound more than one way in ``scope``, read where ``node`` uses it: the
        object the binding that reaches the use says, when the statements' order decides."""
        if (scope, node.id) not in self._mixed:
            return None
        flow = self._flows.get(scope)
        if flow is None:
            flow = self._flows[scope] = ScopeFlow(self.structure, scope, self.scopes.nodes(scope))
        reaching = flow.reaching(node.id, node)
        return self._one(reaching[node.id], scope) if reaching else None

    def _one(self, bound: Iterable[Entry] | None, scope: int | None) -> str | None:
        """The one object a name's bindings say (each read where it was written), as the graph
        reads it: ``Client`` (an instance of it), ``make()`` (what ``make`` returns)."""
        if not bound:
            return None
        types = kinds(bound)
        if UNKNOWN in types or IMPORTED in types:
            return None
        found = set()
        for entry in bound:  # a call read where it stands; any other binding as its text
            if type(entry) is ast.Call:
                found.add(self._called(entry, scope))
            else:
                found.add(self._written(kind_of(entry), scope))
        if len(found) == 2:  # ``x: T`` and ``x = T()``: an instance of T both ways
            short, long = sorted(found, key=lambda v: len(v or ""))
            return short if short and long == f"{short}()" else None
        return found.pop() if len(found) == 1 else None

    def _called(self, call: ast.Call, scope: int | None) -> str | None:
        """``x = T(...)``'s value read at its place (a name in it bound more than one way
        is read as the statements' order says there: :meth:`_reaching`)."""
        key = id(call)
        if key in self._values:
            return self._values[key]
        self._values[key] = None  # a binding that leads back to itself says nothing
        found = self._values[key] = self._object(call, scope)
        return found

    def _written(self, text: str, scope: int | None) -> str | None:
        """One binding's object: ``Client``, ``x.get()``, ``3|self.make()`` (in scope 3)."""
        if text[0] == "@":  # a fixture's value: the graph finds the fixture
            return text
        if "|" in text:
            where, _, text = text.partition("|")
            scope = int(where)
        key = (text, scope)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # a binding that leads back to itself says nothing
        if text in self._exprs:
            expr = self._exprs[text]
        else:
            expr = self._exprs[text] = expression(text)
        if expr is None:
            return None
        found = self._object(expr, scope)
        self._memo[key] = found
        return found

    # -- self, cls, super ---------------------------------------------------------------------

    def _method(self, scope: int | None) -> int | None:
        """The method whose first parameter code in ``scope`` sees (a closure sees it too)."""
        while scope is not None:
            site = self.structure.defs[scope]
            if isinstance(site.node, ast.ClassDef):
                return None
            if site.kind == "method":
                return scope
            scope = site.parent
        return None

    def _is_self(self, name: str, scope: int | None) -> bool:
        """Whether ``name`` is the first parameter of the method around ``scope`` (``self``,
        ``cls`` in a classmethod), not rebound on the way."""
        found = self._selves.get(scope, _MISSING)
        if found is _MISSING:
            self._selves[scope] = None  # while its annotation is read
            found = self._selves[scope] = self._find_self(scope)
        return name == found

    def _find_self(self, scope: int | None) -> str | None:
        """The name ``self`` has in ``scope`` (the method's first parameter), if it has one."""
        method = self._method(scope)
        if method is None:
            return None
        node = self.structure.defs[method].node
        assert isinstance(node, FUNCTIONS)
        if any(dotted(d) == "staticmethod" for d in node.decorator_list):
            return None
        params = [*node.args.posonlyargs, *node.args.args]
        if not params:
            return None
        first = params[0]
        name = first.arg
        for index in self.scopes.visible(scope):
            if index == method:  # not assigned a type in the method, nor annotated with one
                bound = [b for b in self.scopes.bindings(method).get(name, ()) if b is not first]
                if not kinds(bound) <= {UNKNOWN}:
                    return None
                said = self._one([first], method) if first.annotation is not None else None
                return name if said is None or said.endswith("TypeVar()") else None  # cls: type[T]
            if name in self.scopes.names(index):  # a binding or a definition
                return None
        return None

    def _class_of(self, scope: int | None) -> int | None:
        method = self._method(scope)
        return self.structure.defs[method].parent if method is not None else None

    def _method_class(self, scope: int | None) -> str | None:
        cls = self._class_of(scope)
        return self.structure.defs[cls].qualname if cls is not None else None


def _imported(name: str, scope: int | None) -> str:
    """A name an import binds: ``!name`` when the import is in a function (it shadows a
    definition of the module's that has the same name), else the name."""
    return name if scope is None else f"!{name}"


def _is_super(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == "super" and len(node.args) in (0, 2)
