"""Ruby's code that does no work (a class's or module's head, ``require`` lines, an accessor, a
stub) is shown after the method that does the work for a question asking how.

Each ranking case is a real index of a git repository built here; which chunk does the work is
written down here by hand (the method whose body flattens), not asked of the code under test."""

from __future__ import annotations

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.index.chunking import chunk_file
from codeagent.rank.idle_ruby import is_accessor, is_head, is_stub
from codeagent.rank.query import analyze
from codeagent.rank.ranking import rank_files
from codeagent.rank.retrieve import retrieve
from conftest import GitRepoFactory

# A module whose head documents the subject with an example in the question's words, as
# httparty's HashConversions does, above the method that does the work.
PARAMS = """\
# frozen_string_literal: true

require 'erb'

module Shop
  # Query strings from hashes, as address[city]=Paris&phones[]=1:
  # nested hashes and arrays are flattened into bracketed parameter names.
  module Params
    SEPARATOR = '&'
    BRACKETS = '[]'

    attr_reader :options

    def self.flatten(key, value)
      pairs = [] # a nested hash's keys and an array's items: bracketed names

      if value.respond_to?(:to_ary)
        value.to_ary.each { |v| pairs.concat(flatten("#{key}[]", v)) }
      elsif value.respond_to?(:to_hash)
        value.to_hash.each { |k, v| pairs.concat(flatten("#{key}[#{k}]", v)) }
      else
        pairs << [key, value]
      end
      pairs
    end

    def self.query(hash)
      hash.flat_map { |k, v| flatten(k, v) }.map { |k, v| "#{k}=#{v}" }.join(SEPARATOR)
    end
  end
end
"""
# long enough to be cut by method
STEPS = "".join(f"\n  def step{n}(x)\n    y = x + {n}\n    y * 2\n  end\n" for n in range(12))
ACCESSORS = f"""\
class Cart
  attr_reader :items
{STEPS}
  def total
    @total
  end

  def total=(value)
    @total = value
  end

  def add(item)
    @items << item
    @total += item.price
  end

  def checkout
    raise NotImplementedError
  end

  def empty; end

  def size; @size; end

  def count = @items.size
end
"""


def test_what_does_no_work_in_ruby() -> None:
    chunks = {(c.symbol, c.start_line): c for c in chunk_file("lib/shop/params.rb", PARAMS)}
    kinds = {key: is_head(c) for key, c in chunks.items()}
    assert kinds[("<module>", 1)]  # the file's comment and require line
    assert kinds[("Shop.Params", 6)]  # the module's head: documentation, constants, attributes
    assert not kinds[("Shop.Params.flatten", 14)]
    assert not kinds[("Shop.Params.query", 27)]
    cart = {c.symbol: c for c in chunk_file("lib/cart.rb", ACCESSORS)}
    assert is_accessor(cart["Cart.total"])
    assert is_accessor(cart["Cart.total="])
    assert not is_accessor(cart["Cart.add"])
    assert is_accessor(cart["Cart.size"])
    assert not is_accessor(cart["Cart.count"])
    assert is_stub(cart["Cart.checkout"])
    assert is_stub(cart["Cart.empty"])
    assert not is_stub(cart["Cart.add"])
    assert not is_stub(cart["Cart.total"])
    # a file's own lines that run code are not idle
    boot = "require 'x'\n\nX.configure!\n\nclass A\n  def a; 1; end\nend\n"
    running = chunk_file("lib/boot.rb", boot)
    assert not is_head(running[0])


def test_a_how_question_shows_the_work_before_the_modules_head(git_repo: GitRepoFactory) -> None:
    question = "how are nested hashes and arrays flattened into bracketed parameter names?"
    path = "lib/shop/params.rb"
    store, _ = load_or_build(git_repo({path: PARAMS}), Settings.load(embed="none"))
    ranking = rank_files(store, question, analyze(question))
    by_score = [store.chunks[i].symbol for i in ranking.chunks_of(path)]
    # the head says the question's words more often than the method does
    assert by_score.index("Shop.Params") < by_score.index("Shop.Params.flatten"), by_score
    shown = [h.symbol for h in retrieve(store, question, 3)]
    assert shown[0] == "Shop.Params.flatten", shown
