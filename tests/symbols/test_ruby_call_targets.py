"""Ruby call sites tied to what the code says of their receivers: each form below is one marked
call in a small real git repository (a superclass, a module included, one extended, one whose
``self.included`` extends its includer, ``module_function``, ``class << self``, a nested class),
indexed as a user's would be; the mark names the method TypeProf (the type analyzer Ruby 3.1
ships) ties the call to (checked by hand with ``eval/ruby_references_truth.py DIR --marks`` on
these files: every mark agrees), ``-`` where TypeProf ties none or where the code states no
class (kept by name). One choice differs: a variable assigned two classes of which only one has
the method, where TypeProf lists that one's and the call is kept by name here (a site is tied
where every binding reaches the same method). The files under ``lib/store/`` come after those
under ``lib/shop/`` so that TypeProf, which reads the files in the order given and does not
follow ``require``, has the modules before the classes that mix them in."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from codeagent.tools.ast_tool.rules import structural_without_file
from codeagent.tools.symbol_tool import SymbolArgs, run_symbol_query
from oracle_marks import RUBY_TARGET_MARKS, assert_written_target, committed, indexed, target_marked

FILES = {
    "lib/shop/base.rb": """module Shop
  class Base
    def initialize(name)
      @name = name
    end

    def describe
      label(@name) # @self-own label lib/shop/base.rb:Shop.Base.label
    end

    def label(text)
      text.to_s # @kernel - to_s -
    end

    def self.defaults
      { size: 1 }
    end

    def self.build
      made = new("built") # @new-in-class new lib/shop/base.rb:Shop.Base.initialize
      made.describe # @local-of-new-in-class describe lib/shop/base.rb:Shop.Base.describe
      settings = defaults() # @singleton-own defaults lib/shop/base.rb:Shop.Base.defaults
      new("again").label(settings) # @new-chain-in-class label lib/shop/base.rb:Shop.Base.label
    end

    def sized
      self.class.defaults # @self-class defaults lib/shop/base.rb:Shop.Base.defaults
    end

    def self.shared
      @shared ||= Base.new("shared")
    end

    def copied
      dup.label("c") # @copy label lib/shop/base.rb:Shop.Base.label
      self.class.new("n").describe # @new-of-own-class describe lib/shop/base.rb:Shop.Base.describe
      renamed("r").describe # @reader-with-arguments describe lib/shop/base.rb:Shop.Base.describe
    end

    def renamed(name)
      Base.new(name)
    end
  end
end
""",
    "lib/shop/pricing.rb": """module Shop
  module Pricing
    def price_of(count)
      count * 2
    end

    def priced
      describe() # @module-self describe lib/shop/base.rb:Shop.Base.describe
    end
  end
end
""",
    "lib/shop/finders.rb": """module Shop
  module Finders
    def find(key)
      key
    end
  end
end
""",
    "lib/shop/util.rb": """module Shop
  module Util
    module_function

    def slug(text)
      text
    end
  end
end
""",
    "lib/shop/plugin.rb": """module Shop
  module Plugin
    def self.included(base)
      base.extend ClassMethods
    end

    def configured
      self.class.setting(1) # @hooked setting lib/shop/plugin.rb:Shop.Plugin.ClassMethods.setting
    end

    module ClassMethods
      def setting(value)
        value
      end
    end
  end
end
""",
    "lib/store/cart.rb": """module Shop
  class Cart < Base
    include Pricing
    include Plugin
    extend Finders

    setting 3 # @included-hook setting lib/shop/plugin.rb:Shop.Plugin.ClassMethods.setting

    class << self
      def open(name)
        lookup(name) # @class-shell lookup lib/store/cart.rb:Shop.Cart.lookup
      end

      def lookup(name)
        name
      end

      def current
        @current ||= new("now")
      end
    end

    def initialize(name)
      super(name)
      @items = Items.new(self) # @new-nested new lib/store/cart.rb:Shop.Cart.Items.initialize
    end

    def total
      self.price_of(3) # @included price_of lib/shop/pricing.rb:Shop.Pricing.price_of
      describe() # @inherited describe lib/shop/base.rb:Shop.Base.describe
      @items.count(1) # @ivar count lib/store/cart.rb:Shop.Cart.Items.count
      Util.slug("x") # @module-function slug lib/shop/util.rb:Shop.Util.slug
      configured() # @included-own configured lib/shop/plugin.rb:Shop.Plugin.configured
    end

    def compare(other)
      other.total # @parameter - total -
      found = self.class.find(other) # @extended-self find lib/shop/finders.rb:Shop.Finders.find
      found.total # @unknown - total -
      self.class.defaults # @singleton-over-instance defaults lib/shop/base.rb:Shop.Base.defaults
      defaults() # @instance-over-singleton defaults lib/store/cart.rb:Shop.Cart.defaults
    end

    def defaults
      {}
    end

    def ledger
      @ledger ||= Items.new(self)
    end

    def tally
      ledger.count(2) # @memoized-reader count lib/store/cart.rb:Shop.Cart.Items.count
      self.ledger.count(3) # @self-reader count lib/store/cart.rb:Shop.Cart.Items.count
      Base.shared.label("x") # @class-reader label lib/shop/base.rb:Shop.Base.label
      Cart.current.total # @class-shell-reader total lib/store/cart.rb:Shop.Cart.total
    end

    def each_total(carts)
      cart = Cart.new("h")
      carts.each { |cart| cart.total } # @block-parameter - total -
      cart
    end

    class Items
      def initialize(cart)
        @cart = cart
      end

      def count(n)
        n
      end
    end
  end
end
""",
    "lib/store/store.rb": """module Shop
  class Store
    def checkout
      cart = Cart.new("a") # @new-inherited new lib/store/cart.rb:Shop.Cart.initialize
      cart.total # @local total lib/store/cart.rb:Shop.Cart.total
      cart.priced # @local-included priced lib/shop/pricing.rb:Shop.Pricing.priced
      Cart.open("b") # @class-shell-outside open lib/store/cart.rb:Shop.Cart.open
      Cart.find("c") # @extended find lib/shop/finders.rb:Shop.Finders.find
      Shop::Cart.new("d").describe # @new-then describe lib/shop/base.rb:Shop.Base.describe
      Base.build # @constant build lib/shop/base.rb:Shop.Base.build
    end

    def either(flag)
      item = Cart.new("e")
      item = Base.new("f") if flag
      item.describe # @rebound describe lib/shop/base.rb:Shop.Base.describe
      thing = Cart.new("g")
      thing = Store.new if flag
      thing.describe # @rebound-apart - describe -
    end

    def self.opened
      new.checkout # @bare-new-in-class checkout lib/store/store.rb:Shop.Store.checkout
    end
  end
end

Shop::Base.defaults # @top-level defaults lib/shop/base.rb:Shop.Base.defaults
Shop::Cart.new("z").total # @top-level-new total lib/store/cart.rb:Shop.Cart.total
""",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    return indexed(committed(tmp_path_factory, "ruby-calls", FILES))


@pytest.mark.parametrize(
    ("form", "path", "line", "name", "expected"),
    target_marked(FILES, RUBY_TARGET_MARKS),
    ids=lambda v: str(v),
)
def test_a_call_resolves_where_typeprof_ties_it(
    graph: SymbolGraph, form: str, path: str, line: int, name: str, expected: str
) -> None:
    assert_written_target(graph, form, path, line, name, expected)


def test_who_calls_lists_the_resolved_calls_apart(graph: SymbolGraph) -> None:
    sites = graph.callers("describe")
    tied = {(s.path, s.line) for s in sites if s.resolved}
    assert ("lib/store/store.rb", 19) not in tied  # @rebound-apart: by name
    assert {("lib/store/store.rb", 9), ("lib/shop/pricing.rb", 8)} <= tied
    assert all(s.target == "lib/shop/base.rb.Shop.Base.describe" for s in sites if s.resolved)


@pytest.mark.parametrize(
    "question", ["who calls Cart#total?", "who calls Shop::Cart#total?", "who calls Cart.total?"]
)
def test_an_instance_method_asked_as_ruby_writes_it(graph: SymbolGraph, question: str) -> None:
    asked = structural_without_file(question, Path("/nonexistent"))
    assert asked is not None
    assert asked[0] == "calls"
    result = run_symbol_query(graph, SymbolArgs(operation="callers", name=asked[1]))
    resolved = {(i.path, i.start_line) for i in result.items if i.resolved}
    assert resolved == {
        ("lib/store/store.rb", 5),
        ("lib/store/cart.rb", 56),
        ("lib/store/store.rb", 29),
    }  # @local, @class-shell-reader, @top-level-new
