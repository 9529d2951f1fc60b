"""A Ruby call's target (as its file wrote it: :mod:`codeagent.lang.ruby_calls`) resolved to
the repository method it calls.

    ruby_target(graph, "lib/a.rb", "iHTTParty.Request|#perform")  # perform of a Request
    ruby_target(graph, "lib/a.rb", "sHTTParty|Utils#escape")      # HTTParty::Utils.escape
    ruby_target(graph, "lib/a.rb", "nHTTParty|Request#new")       # Request's initialize
    ruby_target(graph, "lib/a.rb", "iRake.Application|>thread_pool#join")  # of what it returns
    ruby_target(graph, "lib/a.rb", "iRake|Rake>application#options")  # Rake.application's

A class or module is found by its name with the classes around the call in front of it, the
innermost first, as Ruby looks a constant up lexically (``Foo`` inside ``module A; class B`` is
``A::B::Foo``, ``A::Foo``, then ``Foo``); it is the one name across every file that opens it. A
method is looked up along the ancestors Ruby would go through: for an instance, the class's
prepended modules, the class (the methods it defines in any file), its included modules (the
last included first), then its superclass the same way; for the class itself, its methods
defined on ``self`` (``def self.f``, ``class << self``), the modules it extends, then its
superclass's. A module's own methods answer a call on the module whatever way they are defined
(``module_function``, ``extend self``). What no repository class or module on the way defines
(Ruby's own methods, a superclass outside the repository, ``method_missing``) stays by name,
as does a variable assigned two classes whose methods of that name differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeagent.symbols.hierarchy import SymbolHierarchy

Target = tuple[str, bool]


def ruby_target(graph: SymbolHierarchy, path: str, written: str) -> Target | None:
    """The full name of the method ``written`` (in the file at ``path``) calls, or None."""
    types = graph.ruby_types
    mode, nest, rest = written[0], *written[1:].split("|", 1)
    written_const, _, method = rest.rpartition("#")
    reached = set()
    for const in written_const.split(","):  # A,B: a variable assigned either
        kind, cls = mode, None
        if ">" in const:  # >reader: what self's reader returns; C>reader: C's own reader
            owner, _, reader = const.partition(">")
            of = types.constant(nest, owner) if owner else nest
            made = types.returned(of, reader, bool(owner)) if of in types.types else None
            if made is not None:
                kind, cls = made if mode != "n" else ("n", made[1])
        else:
            cls = types.constant(nest, const) if const else (nest if nest in types.types else None)
        if cls is None:
            return None
        if kind == "n":
            reached.add(types.method(cls, "initialize", singleton=False))
        else:
            reached.add(types.method(cls, method, singleton=kind == "s"))
    found = reached.pop() if len(reached) == 1 else None
    return (found.full_name, False) if found is not None else None
